"""prange kernels: jitcore serial vs jitcore `parallel=True` vs Numba `parallel=True`.

    python -m benchmarks.parallel            # one table, best of a few runs per row
    JITCORE_NUM_THREADS=2 python -m benchmarks.parallel

Each kernel is written once, with `prange` (or as array expressions, which `parallel=True`
runs in chunks on the threads); "serial" is the same function compiled without
`parallel=True` (prange is then range), Numba gets the same code with `numba.prange`. The
pytest-benchmark form of these rows is `benchmarks/test_parallel.py`. Also timed: two Python
threads calling one `nogil=True` function against one thread.
"""

from __future__ import annotations

import math
import threading
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jitcore import get_num_threads, jit, prange

SOFTENING = 1e-3


def count_thresh(a, thresh):  # noqa: ANN001, ANN201
    """How many elements exceed `thresh` (memory-bound: one compare per 8 bytes)."""
    count = 0
    for i in prange(a.shape[0]):
        if a[i] > thresh:
            count += 1
    return count


def pairwise_distances(X):  # noqa: ANN001, ANN201
    """Euclidean distances between all pairs of rows; rows of D in parallel."""
    n, d = X.shape
    D = np.empty((n, n))
    for i in prange(n):
        for j in range(n):
            s = 0.0
            for k in range(d):
                t = X[i, k] - X[j, k]
                s += t * t
            D[i, j] = np.sqrt(s)
    return D


def mandelbrot(out, x0, x1, y0, y1, max_iter):  # noqa: ANN001, ANN201
    """Escape times of a grid, rows in parallel (the set is symmetric: halves balance)."""
    height, width = out.shape
    for i in prange(height):
        ci = y0 + (y1 - y0) * i / height
        for j in range(width):
            cr = x0 + (x1 - x0) * j / width
            zr = 0.0
            zi = 0.0
            count = max_iter
            for it in range(max_iter):
                zr2 = zr * zr
                zi2 = zi * zi
                if zr2 + zi2 > 4.0:
                    count = it
                    break
                zi = 2.0 * zr * zi + ci
                zr = zr2 - zi2 + cr
            out[i, j] = count


def nbody_step(pos, vel, mass, dt):  # noqa: ANN001, ANN201
    """One step of n gravitating bodies: kick (bodies in parallel), then drift."""
    n = pos.shape[0]
    for i in prange(n):
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(n):
            dx = pos[j, 0] - pos[i, 0]
            dy = pos[j, 1] - pos[i, 1]
            dz = pos[j, 2] - pos[i, 2]
            r2 = dx * dx + dy * dy + dz * dz + SOFTENING
            scale = mass[j] / (r2 * math.sqrt(r2))
            ax += dx * scale
            ay += dy * scale
            az += dz * scale
        vel[i, 0] += dt * ax
        vel[i, 1] += dt * ay
        vel[i, 2] += dt * az
    for i in prange(n):
        pos[i, 0] += dt * vel[i, 0]
        pos[i, 1] += dt * vel[i, 1]
        pos[i, 2] += dt * vel[i, 2]


def array_expression(a, b):  # noqa: ANN001, ANN201
    """A fused array expression (no prange: `parallel=True` runs its loop in chunks)."""
    return np.exp(-a * a) * 0.5 + np.sin(b) * a


def total_of_squares(a):  # noqa: ANN001, ANN201
    """np.sum of an expression: the parallel sum is NumPy's pairwise sum, bit for bit."""
    return np.sum(a * a)


def _rng() -> np.random.Generator:
    return np.random.default_rng(2026)


@dataclass(frozen=True)
class ParallelCase:
    name: str
    func: Callable[..., Any]
    inputs: Callable[[], tuple]
    compute_bound: bool


CASES = [
    ParallelCase(
        "count_thresh", count_thresh, lambda: (_rng().standard_normal(20_000_000), 0.5), False
    ),
    ParallelCase(
        "pairwise_distances", pairwise_distances, lambda: (_rng().random((1500, 3)),), True
    ),
    ParallelCase(
        "mandelbrot",
        mandelbrot,
        lambda: (np.zeros((600, 600), dtype=np.int64), -2.0, 1.0, -1.5, 1.5, 200),
        True,
    ),
    ParallelCase(
        "nbody_step",
        nbody_step,
        lambda: (
            _rng().random((2000, 3)),
            0.01 * _rng().standard_normal((2000, 3)),
            _rng().random(2000) / 2000,
            1e-3,
        ),
        True,
    ),
    ParallelCase(
        "array_expression",
        array_expression,
        lambda: (_rng().standard_normal(4_000_000), _rng().standard_normal(4_000_000)),
        True,
    ),
    ParallelCase(
        "total_of_squares", total_of_squares, lambda: (_rng().standard_normal(8_000_000),), False
    ),
]
BY_NAME = {c.name: c for c in CASES}
IMPLS = ("jitcore-serial", "jitcore-parallel", "numba-parallel")


def numba_version(func: Callable[..., Any]) -> Callable[..., Any] | None:
    """The same code under Numba's `parallel=True` (its own prange), if Numba is installed."""
    try:
        import numba
    except ImportError:
        return None
    namespace = dict(func.__globals__, prange=numba.prange)
    clone = types.FunctionType(func.__code__, namespace, func.__name__)  # type: ignore[attr-defined]
    return numba.njit(parallel=True, cache=False)(clone)  # type: ignore[no-any-return]


def implementation(case: ParallelCase, impl: str) -> Callable[..., Any] | None:
    if impl == "jitcore-serial":
        return jit(mode="compiled")(case.func)  # type: ignore[no-any-return]
    if impl == "jitcore-parallel":
        return jit(mode="compiled", parallel=True)(case.func)  # type: ignore[no-any-return]
    return numba_version(case.func)


def best_time(fn: Callable[..., Any], args: tuple, repeat: int = 5) -> float:
    fn(*args)  # compile and warm up
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - start)
    return best


def spin(n):  # noqa: ANN001, ANN201
    s = 0.0
    for i in range(n):
        s += math.sqrt(i * 0.5)
    return s


def nogil_threads(n: int = 30_000_000) -> tuple[float, float]:
    """Wall time of one call, and of two threads each making the same call at once."""
    f = jit(mode="compiled", nogil=True)(spin)
    one = best_time(f, (n,), repeat=3)
    best = math.inf
    for _ in range(3):
        threads = [threading.Thread(target=f, args=(n,)) for _ in range(2)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        best = min(best, time.perf_counter() - start)
    return one, best


def main() -> None:
    print(f"threads: {get_num_threads()} (JITCORE_NUM_THREADS / jitcore.set_num_threads)")
    print(
        f"{'kernel':<20}{'serial':>10}{'parallel':>10}{'numba-par':>11}{'speedup':>9}"
        f"{'vs numba':>9}"
    )
    for case in CASES:
        times = {}
        for impl in IMPLS:
            fn = implementation(case, impl)
            times[impl] = best_time(fn, case.inputs()) if fn is not None else math.nan
        serial, par, nb = (times[i] for i in IMPLS)
        print(
            f"{case.name:<20}{serial * 1e3:>8.1f}ms{par * 1e3:>8.1f}ms{nb * 1e3:>9.1f}ms"
            f"{serial / par:>8.2f}x{nb / par:>8.2f}x"
        )
    one, two = nogil_threads()
    print(f"nogil: one call {one * 1e3:.0f} ms, two threads {two * 1e3:.0f} ms ({two / one:.2f}x)")


if __name__ == "__main__":
    main()
