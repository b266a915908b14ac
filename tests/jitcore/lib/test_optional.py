"""Optional values (`jitcore.lib.optional`): a variable or result that is None on some paths,
compiled and compared with Python: returned, tested with `is None` and truth, passed to jitted
callees, used as a value (TypeError when None, as Python raises), arrays reference-counted."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from benchmarks import readme_examples
from jitcore import TypingError, jit, runtime
from tests.jitcore.support import assert_same, assert_same_arrays, compiled

floats = hnp.arrays(np.float64, st.integers(0, 12), elements=st.floats(-100, 100))


first_above = readme_examples.first_above.py_func  # the README's example


def twice_first_above(a, t):  # noqa: ANN001, ANN201
    r = first_above(a, t)
    if r is None:
        return -1
    return r * 2


def unchecked_use(a, t):  # noqa: ANN001, ANN201
    r = first_above(a, t)
    return r + 1


def first_or_none(a):  # noqa: ANN001, ANN201
    if a.shape[0] == 0:
        return None
    return a[0]


def scaled_or_none(a, flag):  # noqa: ANN001, ANN201
    out = None
    if flag:
        out = a * 2.0
    return out


def total_if_present(a, flag):  # noqa: ANN001, ANN201
    out = None
    if flag:
        out = a * 2.0
    if out is not None:
        return out.sum()
    return np.float64(-1.0)


def truth_of_optional(a, t):  # noqa: ANN001, ANN201
    r = first_above(a, t)
    if r:
        return 1
    if not r:
        return 2
    return 3


def pair(a, t):  # noqa: ANN001, ANN201
    return (first_above(a, t), t)


def is_missing(x):  # noqa: ANN001, ANN201
    return x is None


def passes_on(a, t):  # noqa: ANN001, ANN201
    return bool(is_missing(first_above(a, t)))


def last_float(a):  # noqa: ANN001, ANN201
    x = None
    for v in a:
        x = 0.5 * v
    return x


@given(floats, st.floats(-100, 100))
def test_none_or_an_index(a: np.ndarray, t: float) -> None:
    got = assert_same(first_above, a, t)
    assert got is None or type(got) is int  # a Python int, as Python returns it


@given(floats, st.floats(-100, 100))
def test_is_none_tests(a: np.ndarray, t: float) -> None:
    assert_same(twice_first_above, a, t)
    assert_same(truth_of_optional, a, t)
    assert_same(pair, a, t)
    assert_same(passes_on, a, t)


@given(floats)
def test_early_return_of_none(a: np.ndarray) -> None:
    assert_same(first_or_none, a)
    assert_same(last_float, a)


@given(floats, st.booleans())
def test_optional_arrays(a: np.ndarray, flag: bool) -> None:
    assert_same_arrays(scaled_or_none, a, flag)
    assert_same_arrays(total_if_present, a, flag)


def test_none_used_as_a_number_raises_type_error() -> None:
    a = np.array([1.0, 5.0])
    assert compiled(unchecked_use)(a, 2.0) == unchecked_use(a, 2.0) == 2
    with pytest.raises(TypeError):
        unchecked_use(a, 10.0)
    with pytest.raises(TypeError, match="None"):
        compiled(unchecked_use)(a, 10.0)


def test_optional_arrays_are_reference_counted() -> None:
    a = np.arange(1000.0)
    f = compiled(scaled_or_none)
    f(a, True)
    before = runtime.live_blocks()
    for flag in (True, False, True):
        out = f(a, flag)
        del out
    assert runtime.live_blocks() == before


def test_is_compares_an_optional_only_with_none() -> None:
    def bad(a, t):  # noqa: ANN001, ANN201
        return first_above(a, t) is t

    with pytest.raises(TypingError, match="only with None"):
        jit(mode="compiled")(bad)(np.arange(3.0), 1.0)


def test_truth_of_an_optional_array_is_an_error_with_a_hint() -> None:
    def bad(a, flag):  # noqa: ANN001, ANN201
        out = scaled_or_none(a, flag)
        return 1 if out else 0

    with pytest.raises(TypingError, match="is not None"):
        jit(mode="compiled")(bad)(np.arange(3.0), True)


def test_none_joins_only_numbers_arrays_and_tuples() -> None:
    def bad(n):  # noqa: ANN001, ANN201
        x = None
        if n > 0:
            x = [n]
        return x

    with pytest.raises(TypingError, match="none on one path"):
        jit(mode="compiled")(bad)(3)


def test_int_and_float_returns_stay_an_error_when_optional() -> None:
    def bad(n):  # noqa: ANN001, ANN201
        if n > 1:
            return None
        if n > 0:
            return 1
        return 2.5

    with pytest.raises(TypingError, match="on one path"):
        jit(mode="compiled")(bad)(3)


def best_of(a):  # noqa: ANN001, ANN201
    best = None
    for v in a:
        if best is None or v > best:
            best = v
    return best


def equals_none(n):  # noqa: ANN001, ANN201
    x = None
    if n > 0:
        x = n
    return x == None, x != None  # noqa: E711


@given(floats)
def test_a_variable_none_before_the_loop_that_assigns_it(a: np.ndarray) -> None:
    """Typing waits for the loop's assignment before it types uses of a `None` variable."""
    assert_same(best_of, a)


@given(st.integers(-3, 3))
def test_equality_with_none_is_identity(n: int) -> None:
    assert_same(equals_none, n)
