"""The issue-17 diagnosis kernels timed as jitcore, Numba and (for array code) NumPy, one
pytest-benchmark group per kernel; each implementation's result is checked against Python's
first, so a fast wrong answer cannot pass as a speedup."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from benchmarks.diagnoses import BY_NAME, DIAGNOSES, jitcore_version, numba_version
from benchmarks.variants import numba_available

IMPLS = ("jitcore", "numba", "numpy")
PARAMS = [
    pytest.param(d.name, impl, id=f"{d.name}-{impl}")
    for d in DIAGNOSES
    for impl in IMPLS
    if impl != "numpy" or d.numpy_code
]


def _implementation(name: str, impl: str) -> Any:
    d = BY_NAME[name]
    if impl == "jitcore":
        return jitcore_version(d)
    if impl == "numba":
        if not numba_available():
            pytest.skip("numba is not installed (optional: pip install numba)")
        return numba_version(d)
    return d.kernel


def _result(fn: Any, args: tuple[Any, ...]) -> Any:
    fresh = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
    out = fn(*fresh)
    return out if out is not None else fresh[-1]  # in-place kernels write their last argument


@pytest.mark.parametrize(("kernel", "impl"), PARAMS)
def test_diagnosis(benchmark: Any, kernel: str, impl: str) -> None:
    d = BY_NAME[kernel]
    args = d.inputs()
    fn = _implementation(kernel, impl)
    rtol = 1e-9 if d.options.get("fastmath") else 1e-12
    np.testing.assert_allclose(_result(fn, args), _result(d.kernel, args), rtol=rtol)
    benchmark.group = f"diagnosis:{kernel}"
    benchmark.extra_info.update(kind="diagnosis", kernel=kernel, impl=impl)
    benchmark(fn, *args)
