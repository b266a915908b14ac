"""The dict-counting loop (issue 14): `d[k] = d.get(k, 0) + 1` over an int64 array, Python vs
jitcore vs Numba's typed Dict, one pytest-benchmark group.

Python counts over `a.tolist()` (Python ints: its fastest form); jitcore and Numba over the
array. Every implementation is called once before timing (compilation is not timed) and
checked against Python's counts. `python -m benchmarks.test_dicts` prints the medians.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from benchmarks.variants import numba_available
from jitcore import jit

N, DISTINCT = 1_000_000, 1000


def count(a):  # noqa: ANN001, ANN201
    d = {}
    for x in a:
        d[x] = d.get(x, 0) + 1
    return len(d)


def _data() -> np.ndarray:
    return np.random.default_rng(0).integers(0, DISTINCT, N)


def _numba_count() -> Callable[..., Any]:
    import numba
    from numba import types
    from numba.typed import Dict

    @numba.njit
    def numba_count(a):  # noqa: ANN001, ANN202
        d = Dict.empty(key_type=types.int64, value_type=types.int64)
        for x in a:
            d[x] = d.get(x, 0) + 1
        return len(d)

    return numba_count  # type: ignore[no-any-return]


def implementations() -> dict[str, tuple[Callable[..., Any], Any]]:
    a = _data()
    impls: dict[str, tuple[Callable[..., Any], Any]] = {
        "python": (count, a.tolist()),
        "jitcore": (jit(mode="compiled")(count), a),
    }
    if numba_available():
        impls["numba"] = (_numba_count(), a)
    return impls


@pytest.mark.parametrize("impl", ["python", "jitcore", "numba"])
def test_dict_count(benchmark: Any, impl: str) -> None:
    impls = implementations()
    if impl not in impls:
        pytest.skip("numba is not installed (optional: pip install numba)")
    fn, arg = impls[impl]
    assert fn(arg) == DISTINCT  # compiles, and agrees with Python
    benchmark.group = "dict-count"
    benchmark.pedantic(fn, args=(arg,), rounds=5, iterations=1, warmup_rounds=1)


if __name__ == "__main__":
    for name, (fn, arg) in implementations().items():
        fn(arg)
        best = min(timeit.repeat(lambda fn=fn, arg=arg: fn(arg), number=1, repeat=7))
        print(f"{name:8s} {best * 1e3:8.2f} ms")
