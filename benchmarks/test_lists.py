"""A list-append loop (issue 14): Python vs jitcore vs Numba's typed List and reflected list.

`append_loop(n)` appends `n` floats to an empty list and sums them; it is the pattern of code
that collects results of unknown count. The jitcore list is native (`jitcore.codegen.lists`:
the append's fast path is inlined), Numba's typed `List` calls into its C list runtime per
append, and Numba's reflected list (a Python list passed in) keeps a native list it writes
back. Numba is optional: its variants skip when it is not installed.

    pytest benchmarks/test_lists.py -p no:xdist --benchmark-only --benchmark-group-by=group
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from benchmarks.variants import numba_available
from jitcore import jit

N = 1_000_000
IMPLS = ("python", "jitcore", "numba-typed-list", "numba-reflected-list")


def append_loop(n):  # noqa: ANN001, ANN201
    out = []
    for i in range(n):
        out.append(i * 0.5)
    s = 0.0
    for x in out:
        s += x
    return s


def _numba_typed() -> Callable[..., Any]:
    import numba
    from numba.typed import List

    @numba.njit
    def typed(n):  # noqa: ANN001, ANN202
        out = List.empty_list(numba.float64)
        for i in range(n):
            out.append(i * 0.5)
        s = 0.0
        for x in out:
            s += x
        return s

    return typed


def _numba_reflected() -> Callable[..., Any]:
    import numba

    @numba.njit
    def reflected(out, n):  # noqa: ANN001, ANN202
        for i in range(n):
            out.append(i * 0.5)
        s = 0.0
        for x in out:
            s += x
        return s

    return lambda n: reflected([0.0], n) - 0.0  # a reflected list cannot start empty


def _impl(name: str) -> Callable[..., Any]:
    if name == "python":
        return append_loop
    if name == "jitcore":
        return jit(mode="compiled")(append_loop)  # type: ignore[no-any-return]
    if not numba_available():
        pytest.skip("numba is not installed")
    return _numba_typed() if name == "numba-typed-list" else _numba_reflected()


@pytest.mark.parametrize("impl", IMPLS)
def test_append_loop(benchmark: Any, impl: str) -> None:
    fn = _impl(impl)
    n = N // 10 if impl == "python" else N
    expected = append_loop(n)
    assert fn(n) == expected  # warm (compiles) and checks the result
    benchmark.group = "list-append"
    benchmark.extra_info["n"] = n
    result = benchmark(fn, n)
    assert result == expected
