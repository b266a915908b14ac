"""`out=` of ufuncs (jitcore/lib/ufuncout.py): compiled vs NumPy with out arrays of every
layout and of other dtypes (same-kind casts), broadcast inputs, out aliasing an input (element
for element and reversed), positional and tuple spellings, and NumPy's errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitcore import TypingError
from tests.jitcore.lib.arrays_strategy import laid_out
from tests.jitcore.support import compiled


def add_into(a, b, c):
    return np.add(a, b, out=c)


def subtract_positional(a, b, c):
    return np.subtract(a, b, c)


def sqrt_into(a, c):
    np.sqrt(a, out=c)
    return c


def hypot_into(a, b, c):
    return np.hypot(a, b, out=c)


def less_into(a, b, c):
    return np.less(a, b, out=c)


def negative_tuple(a, c):
    return np.negative(a, out=(c,))


def double_in_place(a):
    return np.multiply(a, 2, out=a)


def add_reversed_self(a):
    return np.add(a, a[::-1], out=a)


def _same(f: Any, make: Callable[[], tuple[Any, ...]]) -> None:
    """f on fresh arguments from `make` as Python and compiled: the same result, and the same
    contents of every array argument afterwards (out and aliased inputs)."""
    exp_args, got_args = make(), make()
    expected = f(*exp_args)
    got = compiled(f)(*got_args)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    for g, e in zip(got_args, exp_args):
        if isinstance(e, np.ndarray):
            np.testing.assert_array_equal(g, e)


@settings(max_examples=15, deadline=None)
@given(
    rows=st.integers(0, 4),
    cols=st.integers(0, 4),
    out_dtype=st.sampled_from(["float64", "float32", "complex128"]),
    layout=st.sampled_from(["C", "F", "strided", "reversed"]),
    broadcast=st.booleans(),
    seed=st.integers(0, 99),
)
def test_binary_and_unary_ufuncs_into_out(
    rows: int, cols: int, out_dtype: str, layout: str, broadcast: bool, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    a = laid_out(rng.standard_normal((rows, cols)), layout)
    b = rng.standard_normal(cols) if broadcast else rng.standard_normal((rows, cols))

    def out() -> np.ndarray:
        return laid_out(np.zeros((rows, cols), out_dtype), layout)

    _same(add_into, lambda: (a, b, out()))
    _same(subtract_positional, lambda: (a, b, out()))
    _same(negative_tuple, lambda: (a, out()))
    if out_dtype != "complex128":
        _same(hypot_into, lambda: (a, b, out()))
    with np.errstate(invalid="ignore"):
        _same(sqrt_into, lambda: (a, out()))
    _same(less_into, lambda: (a, b, laid_out(np.zeros((rows, cols), bool), layout)))


def test_int_loops_into_float_out_and_aliasing() -> None:
    a = np.arange(6).reshape(2, 3)
    _same(add_into, lambda: (a, 1, np.zeros((2, 3))))
    _same(double_in_place, lambda: (np.arange(5.0),))
    _same(add_reversed_self, lambda: (np.arange(7.0),))


def test_the_result_is_out_itself() -> None:
    a, out = np.ones(3), np.zeros(3)
    result = compiled(add_into)(a, a, out)
    assert np.shares_memory(result, out) and np.array_equal(out, [2.0, 2.0, 2.0])


def test_out_of_another_shape_raises_value_error() -> None:
    a, b, out = np.ones((2, 3)), np.ones(3), np.zeros((3, 3))
    with pytest.raises(ValueError):
        add_into(a, b, out)
    with pytest.raises(ValueError):
        compiled(add_into)(a, b, out)


def test_a_cast_same_kind_forbids_is_a_typing_error() -> None:
    a, out = np.ones(3), np.zeros(3, np.int64)
    with pytest.raises(TypeError):  # NumPy's UFuncTypeError
        add_into(a, a, out)
    with pytest.raises(TypingError, match="same_kind"):
        compiled(add_into)(a, a, out)


def subtract_from_itself(a, b):
    return np.subtract(a, b, a)


def multiply_by_itself(a):
    return np.multiply(a, a, out=a)


def isub_rows(a, b):
    a -= b
    return a


def isub_reversed_self(a):
    a -= a[::-1]
    return a


def square_in_place(a):
    a *= a
    return a


@settings(max_examples=25, deadline=None)
@given(
    rows=st.integers(0, 5),
    cols=st.integers(0, 5),
    layout=st.sampled_from(["C", "F", "strided", "reversed"]),
    broadcast=st.booleans(),
    seed=st.integers(0, 99),
)
def test_out_that_is_an_input_is_updated_in_place(
    rows: int, cols: int, layout: str, broadcast: bool, seed: int
) -> None:
    """`np.subtract(a, b, a)` and `a -= b` read `a` where they write it (vectorized without a
    copy since the element is read before it is written), in every layout."""
    rng = np.random.default_rng(seed)
    values = rng.standard_normal((rows, cols))
    b = rng.standard_normal(cols) if broadcast else rng.standard_normal((rows, cols))
    _same(subtract_from_itself, lambda: (laid_out(values, layout), b))
    _same(multiply_by_itself, lambda: (laid_out(values, layout),))
    _same(isub_rows, lambda: (laid_out(values, layout), b))
    _same(isub_reversed_self, lambda: (laid_out(values, layout),))
    _same(square_in_place, lambda: (laid_out(values, layout),))
