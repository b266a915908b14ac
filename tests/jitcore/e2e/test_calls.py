"""Calls between jitted functions: direct native calls, keywords, defaults, recursion."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import jit
from tests.jitcore.e2e import calls_helpers as h
from tests.jitcore.support import assert_same


@given(st.floats(-1e6, 1e6))
def test_keyword_arguments_and_defaults_at_call_sites(x: float) -> None:
    assert h.uses_keywords(x) == h.uses_keywords.py_func(x)
    assert h.uses_keywords.signatures, "compiled, not a fallback"


def test_callee_is_a_direct_native_call() -> None:
    h.uses_keywords(1.0)
    llvm = h.uses_keywords.inspect("codegen")
    assert 'call ptr @"jit.tests.jitcore.e2e.calls_helpers.scale' in llvm
    assert "PyObject_Call" not in llvm


@given(st.integers(0, 20))
def test_self_recursion(n: int) -> None:
    assert h.fib(n) == h.fib.py_func(n)
    assert h.fib.signatures


@given(st.integers(0, 60))
def test_mutual_recursion(n: int) -> None:
    assert h.is_even(n) == h.is_even.py_func(n)
    assert h.is_odd(n) == h.is_odd.py_func(n)
    assert h.is_even.signatures and h.is_odd.signatures


@given(st.integers(-3, 25))
def test_recursion_whose_type_comes_from_the_base_case(n: int) -> None:
    assert h.fact(n) == h.fact.py_func(n)
    assert h.fact.signatures


def test_exception_in_callee_propagates() -> None:
    with pytest.raises(ZeroDivisionError):
        h.propagates(1, 0)
    assert h.propagates(7, 2) == 4


def test_default_arguments_of_the_jitted_function() -> None:
    assert h.scale(2.0) == 6.5
    assert h.scale(2.0, 4) == 8.5
    assert h.scale(x=2.0, factor=1) == 2.5


def closure_constant(k: int):  # noqa: ANN201
    def inner(x: int) -> int:
        return x * k + h.SCALE

    return inner


@given(st.integers(-1000, 1000))
def test_closure_and_global_constants(x: int) -> None:
    assert_same(closure_constant(7), x)


def test_no_recompilation_for_known_types() -> None:
    f = jit(lambda_free_add)
    f(1, 2)
    record = f.overloads[f.signatures[0]].record
    f(3, 4)
    f(5, 6)
    assert len(f.signatures) == 1
    assert f.overloads[f.signatures[0]].record is record
    f(1.0, 2)
    assert len(f.signatures) == 2


def lambda_free_add(a, b):  # noqa: ANN001, ANN201
    return a + b
