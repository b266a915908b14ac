"""The issue-15 indexing kernels timed as jitcore, Numba and NumPy, one pytest-benchmark group
per kernel; each implementation's result is checked against NumPy's first."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from benchmarks.npindex import BY_NAME, CASES, jitcore_version, numba_version
from benchmarks.variants import numba_available

IMPLS = ("jitcore", "numba", "numpy")
PARAMS = [pytest.param(c.name, impl, id=f"{c.name}-{impl}") for c in CASES for impl in IMPLS]


def _implementation(name: str, impl: str) -> Any:
    c = BY_NAME[name]
    if impl == "jitcore":
        return jitcore_version(c)
    if impl == "numba":
        if not numba_available():
            pytest.skip("numba is not installed (optional: pip install numba)")
        return numba_version(c)
    return c.kernel


def _result(fn: Any, args: tuple[Any, ...]) -> Any:
    return fn(*(a.copy() if isinstance(a, np.ndarray) else a for a in args))


@pytest.mark.parametrize(("kernel", "impl"), PARAMS)
def test_npindex(benchmark: Any, kernel: str, impl: str) -> None:
    c = BY_NAME[kernel]
    args = c.inputs()
    fn = _implementation(kernel, impl)
    np.testing.assert_allclose(_result(fn, args), _result(c.kernel, args), rtol=1e-12)
    benchmark.group = f"npindex:{kernel}"
    benchmark.extra_info.update(kind="npindex", kernel=kernel, impl=impl)
    benchmark(fn, *args)
