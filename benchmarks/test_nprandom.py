"""The np.random kernels (fills of random, randn, randint and normal, a scalar-call loop,
choice, shuffle, permutation; a passed-in Generator's random, integers, standard_normal and
normal) timed as jitcore, Numba and NumPy in one run, one
pytest-benchmark group per kernel; each implementation's numbers are first checked equal to
NumPy's (the same seeded stream)."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.nprandom import BY_NAME, CASES, check, fresh, jitcore_version, numba_version
from benchmarks.variants import numba_available

IMPLS = ("jitcore", "numba", "numpy")


@pytest.mark.parametrize(("case", "impl"), [(c.name, i) for c in CASES for i in IMPLS])
def test_nprandom(benchmark: Any, case: str, impl: str) -> None:
    c = BY_NAME[case]
    args = c.inputs()
    if impl == "jitcore":
        fn = jitcore_version(c)
    elif impl == "numba":
        if not numba_available():
            pytest.skip("numba is not installed (optional: pip install numba)")
        fn = numba_version(c)
    else:
        fn = c.kernel
    check(fn(*fresh(args)), c.kernel(*fresh(args)))
    benchmark.group = f"nprandom:{case}"
    benchmark.extra_info.update(kind="nprandom", kernel=case, impl=impl)
    benchmark(fn, *args)
