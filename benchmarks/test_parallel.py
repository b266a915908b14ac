"""prange kernels timed as jitcore serial, jitcore `parallel=True` and Numba `parallel=True`
(one group per kernel; `python -m benchmarks.parallel` prints the same comparison as a table).
Under --benchmark-skip, each parallel result is still checked against the serial one."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from benchmarks.parallel import BY_NAME, CASES, IMPLS, implementation


def _result(case_name: str, fn: Any) -> Any:
    args = BY_NAME[case_name].inputs()
    out = fn(*args)
    return out if out is not None else args[0]  # kernels that write into their first argument


@pytest.mark.parametrize("kernel", [c.name for c in CASES])
def test_parallel_equals_serial(kernel: str) -> None:
    case = BY_NAME[kernel]
    serial = _result(kernel, implementation(case, "jitcore-serial"))
    par = _result(kernel, implementation(case, "jitcore-parallel"))
    np.testing.assert_allclose(par, serial, rtol=1e-12)


@pytest.mark.parametrize(("kernel", "impl"), [(c.name, i) for c in CASES for i in IMPLS])
def test_parallel_kernel(benchmark: Any, kernel: str, impl: str) -> None:
    case = BY_NAME[kernel]
    fn = implementation(case, impl)
    if fn is None:
        pytest.skip("Numba is not installed (the `compare` extra)")
    args = case.inputs()
    fn(*args)  # compile
    benchmark.group = f"parallel-{kernel}"
    benchmark.extra_info.update(kind="parallel", kernel=kernel, impl=impl)
    benchmark(fn, *args)
