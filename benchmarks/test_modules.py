"""The Module examples under pytest-benchmark (`make bench`): one group per model, one row per
variant (Python/NumPy, step-compiled, run-compiled, Numba), at sizes that keep `make bench`
short. `python -m benchmarks.modules` prints the issue's full-size comparison."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jitcore
from benchmarks import neuro

HH_NEURONS, HH_STEPS = 1000, 500
LIF_NEURONS, LIF_STEPS = 4000, 100
VARIANTS = ("python", "step", "run", "numba")


def _info(benchmark: Any, model: str, variant: str, steps: int) -> None:
    benchmark.group = f"module-{model}"
    benchmark.extra_info.update(kind="module", model=model, impl=variant, steps=steps)


@pytest.mark.parametrize("variant", VARIANTS)
def test_hh(benchmark: Any, variant: str) -> None:
    _info(benchmark, "hh", variant, HH_STEPS)
    if variant == "numba":
        numba_hh = pytest.importorskip("numba") and neuro.hh_numba_factory()

        def go() -> None:
            m = neuro.HH(HH_NEURONS)
            spikes = np.zeros((HH_STEPS, HH_NEURONS), dtype=np.bool_)
            numba_hh(m.V.value, m.m.value, m.h.value, m.n.value, 10.0, HH_STEPS, 0.01, spikes)

        go()
        benchmark(go)
        return
    options = {"inputs": {"I": 10.0}, "monitors": ["spike"], "mode": variant}
    jitcore.run(neuro.HH(HH_NEURONS), 2, **options)  # compile outside the timing
    result = benchmark(lambda: jitcore.run(neuro.HH(HH_NEURONS), HH_STEPS, **options))
    assert result.mode == variant


@pytest.mark.parametrize("variant", VARIANTS)
def test_lif(benchmark: Any, variant: str) -> None:
    _info(benchmark, "lif", variant, LIF_STEPS)
    models = iter([neuro.LIFNet(LIF_NEURONS) for _ in range(24)])  # built outside the timing
    if variant == "numba":
        numba_lif = pytest.importorskip("numba") and neuro.lif_numba_factory()

        def go() -> None:
            m = next(models)
            counts = np.zeros(LIF_STEPS, dtype=np.int64)
            numba_lif(
                m.V.value, m.g.value, m.spike.value, m.indptr, m.indices, m.n_exc, 11.0,
                LIF_STEPS, 0.1, counts,
            )  # fmt: skip

        go()
        benchmark.pedantic(go, rounds=20)
        return
    options = {"inputs": {"I": 11.0}, "monitors": ["spike"], "mode": variant}
    jitcore.run(next(models), 2, **options)
    benchmark.pedantic(lambda: jitcore.run(next(models), LIF_STEPS, **options), rounds=20)
