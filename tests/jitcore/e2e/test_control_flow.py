"""Statements and control flow, compiled against Python on Hypothesis inputs."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.jitcore.support import assert_same

small = st.integers(-50, 50)
floats = st.floats(allow_nan=True, allow_infinity=True)


def branches(a: int, b: float) -> float:
    if a > 10:
        r = b * 2
    elif a < -10:
        r = b - 1
    elif a == 0:
        return -1.0
    else:
        r = float(a)
    return r


@given(small, st.floats(-1e6, 1e6))
def test_if_elif_else(a: int, b: float) -> None:
    assert_same(branches, a, b)


def swap_and_unpack(a: int, b: int) -> tuple:
    a, b = b, a
    x, (y, z) = a, (b, a + b)
    return a, b, x, y, z


@given(small, small)
def test_tuple_unpacking_and_swap(a: int, b: int) -> None:
    assert_same(swap_and_unpack, a, b)


def augmented(a: int, b: int) -> int:
    a += b
    a -= 3
    a *= 2
    a //= 3 if b == 0 else b
    a %= 7
    a |= 8
    a ^= b
    a &= 0xFF
    a <<= 2
    a >>= 1
    return a


@given(small, small)
def test_augmented_assignment(a: int, b: int) -> None:
    assert_same(augmented, a, b)


def while_else(n: int) -> int:
    i = 0
    while i < n:
        if i == 7:
            break
        i += 1
    else:
        return -i
    return i


@given(small)
def test_while_else_and_break(n: int) -> None:
    assert_same(while_else, n)


def range_sum(start: int, stop: int, step: int) -> int:
    s = 0
    for i in range(start, stop, step):
        s += i
    return s


@given(small, small, st.integers(-7, 7))
def test_range_any_step(start: int, stop: int, step: int) -> None:
    assert_same(range_sum, start, stop, step)  # step 0 raises ValueError both ways


def range_count_and_last(start: int, stop: int, step: int, limit: int) -> tuple[int, int]:
    count, last = 0, 0
    for i in range(start, stop, step):
        count += 1
        last = i
        if count == limit:
            break
    return count, last


INT64 = st.integers(-(2**63), 2**63 - 1)


@given(INT64, INT64, INT64.filter(lambda s: s != 0), st.integers(1, 5))
def test_range_near_the_int64_limits_never_wraps(
    start: int, stop: int, step: int, limit: int
) -> None:
    """A large step must not wrap the counter past `stop` (it ran forever or too often)."""
    assert_same(range_count_and_last, start, stop, step, limit)


def test_range_with_a_huge_step_stops_like_python() -> None:
    assert_same(range_count_and_last, 0, 2**63 - 1, 2**62, 10)
    assert_same(range_count_and_last, 0, -(2**63), -(2**62), 10)
    assert_same(range_count_and_last, -(2**63), 2**63 - 1, 1, 3)


def range_forms(n: int) -> int:
    s = 0
    for i in range(n):
        s += i
    for j in range(2, n):
        s -= j
    for k in range(n, 0, -2):
        s += k * k
    return s


@given(small)
def test_range_one_two_three_arguments(n: int) -> None:
    assert_same(range_forms, n)


def loop_variable_after_loop(n: int) -> int:
    i = -1
    for i in range(n):  # noqa: B007 - the loop variable is the result
        pass
    return i


@given(small)
def test_loop_variable_keeps_last_value(n: int) -> None:
    assert_same(loop_variable_after_loop, n)


def nested_break_continue(n: int) -> int:
    s = 0
    for i in range(n):
        if i % 5 == 4:
            continue
        for j in range(i, 0, -1):
            if j % 2:
                continue
            if i * j > 50:
                break
            s += j
        else:
            s += 1000
    return s


@given(st.integers(0, 30))
def test_nested_break_continue_and_loop_else(n: int) -> None:
    assert_same(nested_break_continue, n)


def early_return(n: int) -> int:
    for i in range(n):
        while True:
            if i * i > n:
                return i
            break
    return -1


@given(st.integers(-5, 500))
def test_early_return_inside_loops(n: int) -> None:
    assert_same(early_return, n)


def over_tuple(a: int, b: float) -> float:
    s = 0.0
    for x in (1, b, a, True):
        if x == 3:
            continue
        s = s * 2 + x
    return s


@given(small, st.floats(-1e3, 1e3))
def test_for_over_mixed_tuple(a: int, b: float) -> None:
    assert_same(over_tuple, a, b)


def short_circuit(a: int, b: int) -> int:
    if a != 0 and b // a > 2:  # b // a would raise for a == 0 without the short circuit
        return 1
    if a == 0 or b % a == 0:
        return 2
    if not (a > b):
        return 3
    return 4


@given(small, small)
def test_and_or_not_short_circuit(a: int, b: int) -> None:
    assert_same(short_circuit, a, b)


def boolop_values(a: int, b: int) -> int:
    return (a and b) or 7


@given(small, small)
def test_and_or_return_operand_values(a: int, b: int) -> None:
    assert_same(boolop_values, a, b)


def chained(a: float, b: float, c: float) -> tuple:
    return a < b < c, a <= b == c, a != b != c


@given(floats, floats, floats)
def test_chained_comparisons(a: float, b: float, c: float) -> None:
    assert_same(chained, a, b, c)


def conditional_expression(a: int) -> float:
    return 1.5 if a > 0 else (-2 if a < 0 else 0)


@given(small)
def test_conditional_expression(a: int) -> None:
    assert_same(conditional_expression, a)


def is_none(a: int, flag: bool) -> int:
    x = None
    y = 3
    if x is None and y is not None:
        a += 1
    if flag:
        pass
    return a


@given(small, st.booleans())
def test_is_none_and_pass(a: int, flag: bool) -> None:
    assert_same(is_none, a, flag)


def asserting(a: int) -> int:
    assert a > 0, "a must be positive"
    assert a < 40
    return a


@given(small)
def test_assert_raises_assertion_error(a: int) -> None:
    assert_same(asserting, a)


def raising(a: float) -> float:
    if a < 0:
        raise ValueError("negative")
    if a > 1e6:
        raise OverflowError
    if a == 0.5:
        raise ZeroDivisionError()
    return a


@given(st.floats(-10, 2e6) | st.just(0.5))
def test_raise_builtin_exceptions(a: float) -> None:
    assert_same(raising, a)


def walrus(n: int) -> int:
    total = 0
    while (n := n - 1) > 0:
        total += n
    return total


@given(st.integers(-3, 60))
def test_named_expression(n: int) -> None:
    assert_same(walrus, n)
