"""Timings of the Module examples side by side: Python/NumPy, step-compiled, run-compiled, Numba.

    python -m benchmarks.modules            # the issue's sizes (logreg scaled, see below)
    python -m benchmarks.modules --quick    # small sizes, a smoke run

Each model runs from the same initial state in every variant, in one process; the compiled
variants are timed after a warm-up run that compiles them (compile time is reported apart),
and every variant's final state is checked against the Python/NumPy one.

Logistic regression: BrainPy's example has X of 2e7 x 10 (1.6 GB of float64) and 30
iterations; here X is 2e6 x 10 (scale 1/10, 160 MB) so that four variants fit a 2-core machine
shared with other work in well under a minute; `--logreg-points` changes it.
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import jitcore
from benchmarks import neuro


def _timed(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - start, out


def hh(n: int, steps: int) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    final: dict[str, np.ndarray] = {}
    for mode in ("python", "step", "run"):
        model = neuro.HH(n)
        if mode != "python":  # compile on a throwaway copy of the same model
            jitcore.run(neuro.HH(n), 2, inputs={"I": 10.0}, monitors=["spike"], mode=mode)
        seconds, result = _timed(
            jitcore.run, model, steps, inputs={"I": 10.0}, monitors=["spike"], mode=mode
        )
        assert result.mode == mode
        rows[mode] = (seconds, int(result["spike"].sum()))
        final[mode] = model.V.value.copy()
    try:
        make = neuro.hh_numba_factory()
    except ImportError:
        rows["numba"] = None
    else:

        def go(steps: int) -> tuple[np.ndarray, np.ndarray]:
            m = neuro.HH(n)
            spikes = np.zeros((steps, n), dtype=np.bool_)
            make(m.V.value, m.m.value, m.h.value, m.n.value, 10.0, steps, 0.01, spikes)
            return m.V.value, spikes

        go(2)
        seconds, (V, spikes) = _timed(lambda: go(steps))
        rows["numba"] = (seconds, int(spikes.sum()))
        final["numba"] = V
    for mode, V in final.items():
        np.testing.assert_allclose(V, final["python"], rtol=1e-6, atol=1e-6, err_msg=mode)
    return rows


def lif(n: int, steps: int) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    final: dict[str, np.ndarray] = {}
    for mode in ("python", "step", "run"):
        model = neuro.LIFNet(n)
        if mode != "python":
            jitcore.run(neuro.LIFNet(n), 2, inputs={"I": 11.0}, monitors=["spike"], mode=mode)
        seconds, result = _timed(
            jitcore.run, model, steps, inputs={"I": 11.0}, monitors=["spike"], mode=mode
        )
        rows[mode] = (seconds, int(result["spike"].sum()))
        final[mode] = model.V.value.copy()
    try:
        make = neuro.lif_numba_factory()
    except ImportError:
        rows["numba"] = None
    else:

        def go(steps: int, m: neuro.LIFNet) -> tuple[np.ndarray, np.ndarray]:
            counts = np.zeros(steps, dtype=np.int64)
            make(
                m.V.value,
                m.g.value,
                m.spike.value,
                m.indptr,
                m.indices,
                m.n_exc,
                11.0,
                steps,
                0.1,
                counts,
            )
            return m.V.value, counts

        go(2, neuro.LIFNet(n))
        fresh = neuro.LIFNet(n)  # built outside the timing, as the models are
        seconds, (V, counts) = _timed(lambda: go(steps, fresh))
        rows["numba"] = (seconds, int(counts.sum()))
        final["numba"] = V
    for mode, V in final.items():
        np.testing.assert_allclose(V, final["python"], rtol=1e-9, atol=1e-9, err_msg=mode)
    return rows


def logreg(points: int, iters: int, dim: int = 10) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(points, dim))
    Y = rng.normal(size=points)
    rows: dict[str, Any] = {}
    final: dict[str, np.ndarray] = {}
    for mode in ("python", "step", "run"):
        model = neuro.LogReg(X, Y)
        if mode != "python":
            jitcore.run(neuro.LogReg(X[:100], Y[:100]), 1, mode=mode)
        seconds, result = _timed(jitcore.run, model, iters, mode=mode)
        rows[mode] = (seconds, None)
        final[mode] = model.w.value.copy()
    try:
        make = neuro.logreg_numba_factory()
    except ImportError:
        rows["numba"] = None
    else:
        make(X[:100], Y[:100], np.ones(dim), 1)
        w = 2.0 * np.ones(dim) - 1.3
        seconds, _ = _timed(lambda: make(X, Y, w, iters))
        rows["numba"] = (seconds, None)
        final["numba"] = w
    for mode, w in final.items():
        np.testing.assert_allclose(
            w, final["python"], rtol=1e-2, err_msg=mode
        )  # chaotic: sums in another order
    return rows


def _table(title: str, rows: dict[str, Any]) -> str:
    base = rows["python"][0]
    lines = [f"{title}", f"  {'variant':<8} {'seconds':>9} {'vs python':>10} {'check':>10}"]
    for mode, row in rows.items():
        if row is None:
            lines.append(f"  {mode:<8} {'(numba not installed)':>30}")
            continue
        seconds, check = row
        lines.append(f"  {mode:<8} {seconds:9.3f} {base / seconds:9.1f}x {check!s:>10}")
    run, step = rows["run"][0], rows["step"][0]
    lines.append(f"  run over step: {step / run:.1f}x")
    if rows.get("numba"):
        lines.append(f"  run vs numba: {rows['numba'][0] / run:.2f}x (>1: jitcore faster)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--logreg-points", type=int, default=2_000_000)
    args = parser.parse_args(argv)
    warnings.simplefilter("error", jitcore.JitFallbackWarning)
    scale = 10 if args.quick else 1
    print(
        _table(
            f"Hodgkin-Huxley, 1000 neurons, {10_000 // scale} steps, exponential Euler, "
            "spikes monitored",
            hh(1000, 10_000 // scale),
        )
    )
    print(
        _table(
            f"LIF network, 4000 neurons, p=0.02 sparse (CSR), {2000 // scale} steps",
            lif(4000, 2000 // scale),
        )
    )
    points = args.logreg_points // scale
    print(
        _table(
            f"Logistic regression (BrainPy), X {points} x 10, 30 iterations", logreg(points, 30)
        )
    )


if __name__ == "__main__":
    main()
