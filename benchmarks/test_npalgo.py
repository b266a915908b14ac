"""The issue-15 kernels (sort, argsort, searchsorted, unique, histogram, median, masked sum,
`@` on 200x200 and 1000x1000) timed as jitcore, Numba and NumPy in one run, one
pytest-benchmark group per kernel; each implementation's result is checked first. Numba's `@`
needs SciPy (an optional extra of Numba's): without it those cases are skipped."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.npalgo import BY_NAME, CASES, check, jitcore_version, numba_version
from benchmarks.variants import numba_available

IMPLS = ("jitcore", "numba", "numpy")


@pytest.mark.parametrize(("case", "impl"), [(c.name, i) for c in CASES for i in IMPLS])
def test_npalgo(benchmark: Any, case: str, impl: str) -> None:
    c = BY_NAME[case]
    args = c.inputs()
    if impl == "jitcore":
        fn = jitcore_version(c)
    elif impl == "numba":
        if not numba_available():
            pytest.skip("numba is not installed (optional: pip install numba)")
        fn = numba_version(c)
        try:
            fn(*args)
        except ImportError as exc:  # numba's linear algebra needs scipy
            pytest.skip(f"numba cannot compile it here: {exc}")
    else:
        fn = c.kernel
    check(fn(*args), c.kernel(*args))
    benchmark.group = f"npalgo:{case}"
    benchmark.extra_info.update(kind="npalgo", kernel=case, impl=impl)
    benchmark(fn, *args)
