"""Branches typing decides (`jitcore.liveblocks`) and `isinstance`: the way a known condition
does not take is neither typed nor compiled, so code written for other argument types compiles;
compiled against Python on every specialization."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import TypingError, jit
from tests.jitcore.support import assert_same, assert_same_arrays

DEBUG = False


def total(x):  # noqa: ANN001, ANN201
    if isinstance(x, np.ndarray):
        return float(x.sum())  # not typed for a float `x`
    return float(x)


def first_or_sum(a):  # noqa: ANN001, ANN201
    if a.ndim == 1:
        return a.sum()
    return a[0, 0]  # not typed for a 1-D `a`


def doubled(a, out=None):  # noqa: ANN001, ANN201
    if out is None:
        out = np.empty_like(a)
    out[:] = a * 2.0
    return out


def flagged(x):  # noqa: ANN001, ANN201
    if DEBUG:
        x.no_such_method()  # never typed: the module-level flag is False
    return x + 1.0


def combined(x):  # noqa: ANN001, ANN201
    r = 0
    if not isinstance(x, float) and x.ndim == 2:
        r = x.shape[1]
    elif isinstance(x, float) or x.ndim != 1:
        r = -1
    return r


def dead_store(x):  # noqa: ANN001, ANN201
    y = 1.5
    if isinstance(x, tuple):
        y = "text"  # a str on the dead way only: no type conflict
    return y * x


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6))
def test_isinstance_dispatch_compiles_each_way_for_its_own_type(x: float) -> None:
    assert_same(total, x)
    assert_same_arrays(total, np.array([x, 2.0 * x]))
    assert_same(flagged, x)
    assert_same(combined, x)
    assert_same(dead_store, x)


@given(st.integers(1, 4), st.integers(1, 4))
def test_ndim_and_none_decide_branches(n: int, m: int) -> None:
    assert_same_arrays(first_or_sum, np.arange(float(n)))
    assert_same_arrays(first_or_sum, np.arange(float(n * m)).reshape(n, m))
    assert_same_arrays(combined, np.ones((n, m)))
    assert_same_arrays(combined, np.ones((n, m, 2)))
    a = np.arange(float(n))
    assert_same_arrays(doubled, a, None)
    assert_same_arrays(doubled, a, np.zeros(n))


def test_a_decided_branch_leaves_no_optional_and_no_dead_block() -> None:
    f = jit(doubled, mode="compiled")
    f(np.ones(2))
    text = f.inspect("typeinfer")
    assert "optional" not in text and "br " not in text


def runtime_condition(x):  # noqa: ANN001, ANN201
    if x > 0:
        return x.sum()  # the condition is not known while compiling: typed, and wrong
    return x


def test_a_condition_known_only_at_run_time_still_types_both_ways() -> None:
    with pytest.raises(TypingError, match="sum"):
        jit(runtime_condition, mode="compiled")(1.0)


# --- isinstance answers -------------------------------------------------------------------


def checks_array(a):  # noqa: ANN001, ANN201
    return (
        isinstance(a, np.ndarray),
        isinstance(a, (list, tuple)),
        isinstance(a[0], np.float32),
        isinstance(a[0], (float, np.floating)),
        isinstance(a[0], float),  # np.float32 is not a float
        isinstance(a.shape, tuple),
        isinstance(len(a), (int, np.integer)),
    )


def checks_values(x, s, t, lst):  # noqa: ANN001, ANN201
    return (
        isinstance(x, float),  # a Python float and np.float64 are both floats
        isinstance(x, (int, float)),
        isinstance(x, complex),
        isinstance(s, str),
        isinstance(t, tuple),
        isinstance(lst, list),
        isinstance(None, (int, str)),
        isinstance(t, (np.ndarray, str)),
    )


def test_isinstance_answers_as_python() -> None:
    assert_same_arrays(checks_array, np.ones(3, dtype=np.float32))
    assert_same(checks_values, 1.5, "a", (1, 2.0), [1, 2])
    assert_same(checks_values, np.float64(1.5), "", (), [0.5])


def int_is_int(n):  # noqa: ANN001, ANN201
    return isinstance(n, int)


def float_is_floating(x):  # noqa: ANN001, ANN201
    return isinstance(x, np.floating)


def classinfo_not_constant(x, cls):  # noqa: ANN001, ANN201
    return isinstance(x, cls)


@pytest.mark.parametrize(
    ("f", "args", "message"),
    [
        (int_is_int, (3,), "Python number from a NumPy scalar"),  # np.int64 is no int
        (float_is_floating, (1.5,), "Python number from a NumPy scalar"),
        (classinfo_not_constant, (1.5, 2), "class or a tuple of classes"),
    ],
)
def test_isinstance_that_the_type_does_not_decide_is_a_typing_error(f, args, message) -> None:  # noqa: ANN001
    with pytest.raises(TypingError, match=message):
        jit(f, mode="compiled")(*args)


def by_dtype(a):  # noqa: ANN001, ANN201
    if a.dtype == np.float32:
        return a.sum() * 2  # typed only for float32 arrays
    if a.dtype == "int64" or a.dtype != np.float64:
        return a.sum() + 1
    return a.sum()


@given(st.sampled_from([np.float32, np.float64, np.int64, np.int8]), st.integers(0, 4))
def test_dtype_comparisons_are_decided_while_compiling(dtype: type, n: int) -> None:
    assert_same_arrays(by_dtype, np.arange(n, dtype=dtype))


def unbound_on_every_live_path(a):  # noqa: ANN001, ANN201
    if a.ndim == 2:
        y = 5
    return y  # noqa: F821 - Python: UnboundLocalError for a 1-D `a`


def test_a_variable_assigned_only_on_a_dead_way_is_explained() -> None:
    with pytest.raises(TypingError, match="`y` has no value on any path") as info:
        jit(unbound_on_every_live_path, mode="compiled")(np.zeros(3))
    assert "UnboundLocalError" in str(info.value) and "hint: " in str(info.value)


def maybe_float(x):  # noqa: ANN001, ANN201
    v = None
    if x > 0:
        v = x * 1.0
    return v


def isinstance_of_an_optional(x):  # noqa: ANN001, ANN201
    v = maybe_float(x)
    return isinstance(v, float)  # True or False by the path: not decided while compiling


def test_isinstance_of_a_value_that_may_be_none_is_a_typing_error() -> None:
    with pytest.raises(TypingError, match="None from a value"):
        jit(isinstance_of_an_optional, mode="compiled")(1)


def inc(t):  # noqa: ANN001, ANN201
    return t + 1


def dec(t):  # noqa: ANN001, ANN201
    return t - 1


def hop(f, x):  # noqa: ANN001, ANN201
    return f(x) * 2


def function_by_flag(x):  # noqa: ANN001, ANN201
    f = inc if not DEBUG else dec  # one way taken: the phi holds one function
    g = (lambda t: t * 3) if True else (lambda t: t)  # noqa: E731
    return hop(f, x), hop(g, x)


@given(st.integers(-100, 100))
def test_a_function_chosen_by_a_decided_branch_can_be_passed(x: int) -> None:
    assert_same(function_by_flag, x)
