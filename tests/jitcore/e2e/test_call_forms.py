"""Call forms: keyword-only parameters, `*args` in definitions and `f(*t)` in calls, defaults
of every supported type; compiled against Python on Hypothesis inputs."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from jitcore import jit
from tests.jitcore.support import assert_same

small = st.integers(-20, 20)


@jit
def scaled(x: float, *, scale: float = 2.0, shift: int = 1) -> float:
    return x * scale + shift


@jit
def total(first, *rest):  # noqa: ANN001, ANN002, ANN201
    s = first
    for r in rest:
        s += r
    return s, len(rest)


F32_TWO = np.float32(2.0)


@jit
def defaults(x, t=(1, 2.5), b=True, n=None, c=1j, f=F32_TWO):  # noqa: ANN001, ANN201
    return x + t[0] + t[1], b, n is None, c * x, f * 2


def call_forms(x: int, y: float) -> tuple:
    t = (x, y)
    return (
        scaled(y, scale=3.0),
        scaled(y),
        scaled(y, shift=x),
        total(x),
        total(x, y, 3),
        total(*t),
        total(x, *t, *t[1:]),
        scaled(*t[1:], shift=2),
        defaults(x),
        defaults(x, (x, x), b=False, n=None),
    )


@given(small, st.floats(-1e3, 1e3))
def test_call_forms_from_compiled_code(x: int, y: float) -> None:
    assert_same(call_forms, x, y)


@given(small, st.floats(-1e3, 1e3))
def test_varargs_called_from_python(x: int, y: float) -> None:
    assert total(x, y, 3) == total.py_func(x, y, 3)
    assert total(x) == total.py_func(x)
    assert total(x, 1.5, True) == total.py_func(x, 1.5, True)
    assert scaled(y, scale=0.5) == scaled.py_func(y, scale=0.5)


def lambda_default_then_rebound(x):  # noqa: ANN001, ANN201
    g = lambda a, b=x: a - b  # noqa: E731
    x = 0
    return g(5) + x


def def_default_then_rebound(x):  # noqa: ANN001, ANN201
    def inner(a, b=x * 2):  # noqa: ANN001, ANN202
        return a - b

    x = 100
    return inner(1), inner(1, b=x)


@given(st.integers(-50, 50))
def test_defaults_of_nested_functions_are_taken_where_they_are_defined(x: int) -> None:
    """Python evaluates a default once, at the `def` or `lambda` (it was once evaluated at
    each call, seeing later values of the variable)."""
    assert_same(lambda_default_then_rebound, x)
    assert_same(def_default_then_rebound, x)


@jit
def first_of(*args):  # noqa: ANN002, ANN201
    return args[0]


@jit
def head_and_rest(head, *rest):  # noqa: ANN001, ANN002, ANN201
    return head, rest


def one_argument_to_varargs(x: int, y: float) -> tuple:
    return first_of(x), first_of((x, 2)), first_of((y,)), head_and_rest(x, y), head_and_rest(x)


@given(small, st.floats(-1e3, 1e3))
def test_varargs_callee_given_as_many_operands_as_parameters(x: int, y: float) -> None:
    """A small `*args` callee is inlined only when the call passes its parameters as they
    are: with one operand (or `head, *rest` with two) the operand count equals the parameter
    count, and the inliner once handed `x` to `args` unpacked (an ICE for a scalar, a tuple
    with a garbage item for a tuple)."""
    assert_same(one_argument_to_varargs, x, y)
