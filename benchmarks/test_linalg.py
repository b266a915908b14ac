"""np.linalg kernels (benchmarks/linalg.py) timed as jitcore, Numba and NumPy in one run, one
pytest-benchmark group per kernel; each implementation's result is checked first."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.linalg import BY_NAME, CASES, check, jitcore_version, numba_version
from benchmarks.variants import numba_available
from jitcore.runtime.externs import scipy_available

IMPLS = ("jitcore", "numba", "numpy")


@pytest.mark.parametrize(("case", "impl"), [(c.name, i) for c in CASES for i in IMPLS])
def test_linalg(benchmark: Any, case: str, impl: str) -> None:
    c = BY_NAME[case]
    args = c.inputs()
    if impl != "numpy" and not scipy_available():
        pytest.skip("np.linalg in compiled code needs SciPy (pip install jitcore[linalg])")
    if impl == "jitcore":
        fn = jitcore_version(c)
    elif impl == "numba":
        if not numba_available():
            pytest.skip("numba is not installed (optional: pip install numba)")
        fn = numba_version(c)
        try:
            fn(*args)
        except Exception as exc:  # noqa: BLE001 - Numba's np.linalg lacks some arguments
            pytest.skip(f"numba cannot compile it: {type(exc).__name__}")
    else:
        fn = c.kernel
    check(fn(*args), c.kernel(*args))
    benchmark.group = f"linalg:{case}"
    benchmark.extra_info.update(kind="linalg", kernel=case, impl=impl)
    benchmark(fn, *args)
