"""try / except / else / finally and re-raising, compiled against Python on Hypothesis inputs:
exceptions from `raise`, from jitted callees and from runtime checks (division, indexing, math
domain), caught by class with Python's hierarchy, and uncaught ones reaching Python unchanged."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jitcore
from jitcheck import jitcheck
from jitcore import UnsupportedError, jit
from tests.jitcore.support import assert_same, assert_same_arrays, compiled

small = st.integers(-6, 6)
vectors = hnp.arrays(np.float64, st.integers(0, 6), elements=st.floats(-10, 10))


def floor_div(x: int, y: int) -> int:
    try:
        return x // y
    except ZeroDivisionError:
        return -1


@given(small, small)
def test_zero_division_is_caught(x: int, y: int) -> None:
    assert_same(floor_div, x, y)


def by_hierarchy(x: float) -> float:
    try:
        r = math.log(x)
    except ArithmeticError:  # ValueError is not an ArithmeticError
        r = -1.0
    except ValueError:
        r = -2.0
    try:
        r += 1.0 / (x - 1.0)
    except ArithmeticError:
        r += 100.0
    return r


@given(st.sampled_from([-1.0, 0.0, 0.5, 1.0, 2.0, math.inf, math.nan]))
def test_handlers_match_by_class_in_order(x: float) -> None:
    assert_same(by_hierarchy, x)


def index_state(a: np.ndarray, i: int) -> tuple:
    n = 0
    s = 1
    try:
        n = 1
        s = int(a[i])  # IndexError: the handler sees n == 1 and the old s
        n = 2
    except IndexError:
        return n, s, True
    return n, s, False


@given(vectors, small)
def test_index_error_handler_sees_values_at_the_raise(a: np.ndarray, i: int) -> None:
    assert_same_arrays(index_state, a, i)


def loop_until_error(a: np.ndarray) -> int:
    i = 0
    try:
        while a[i] > 0:
            i += 1
    except IndexError:
        return -i
    return i


@given(vectors)
def test_error_in_a_loop_header_sees_the_current_iteration(a: np.ndarray) -> None:
    assert_same_arrays(loop_until_error, a)


@jitcheck(x=st.integers(-3, 3))  # --jit-diff: the returning range (tests below raise)
@jit
def checked(x: int) -> int:
    if x > 3:
        raise ValueError("too big")
    if x < -3:
        raise KeyError("too small")
    return x * 2


def calls_checked(x: int) -> int:
    try:
        r = checked(x)
    except (TypeError, ValueError):
        r = -1
    else:
        r += 100
    finally:
        x += 1000
    return r + x


@given(small)
def test_callee_exceptions_caught_else_finally_and_uncaught(x: int) -> None:
    assert_same(calls_checked, x)  # KeyError for x < -3 is not caught: it reaches Python


def reraise(x: int, bare: bool) -> int:
    try:
        return 10 // x
    except ZeroDivisionError as e:
        if bare:
            raise
        raise e


@given(small, st.booleans())
def test_reraise_keeps_class_and_message(x: int, bare: bool) -> None:
    assert_same(reraise, x, bare)


def reraise_in_nested_try(x: int, bare: bool, catch: bool) -> int:
    """`raise e` / `raise` inside a `try` of the handler: the nested `try`'s dispatch block
    receives the outer one's exception (whose phi was once made after the nested one's, which
    kept the placeholder: an ICE)."""
    try:
        return 10 // x
    except ZeroDivisionError as e:
        try:
            if catch:
                try:
                    if bare:
                        raise
                    raise e
                except ArithmeticError:
                    return -1
            if bare:
                raise
            raise e
        finally:
            x += 1


def reraise_after_the_handler_ended(x: int, where: int) -> int:
    """Python deletes the name `except ... as e` binds when that handler ends (also by `break`
    or `continue`): `raise e` then is an UnboundLocalError, on the paths where it was deleted.
    Compiled code once re-raised the outer handler's exception, or any earlier one."""
    try:
        raise ValueError("outer")
    except ValueError as e:
        try:
            if x > 0:
                raise KeyError("inner")
        except KeyError as e:  # noqa: F841
            pass
        if where == 0:
            raise e
    for i in range(3):
        try:
            if i == x:
                raise IndexError("in the loop")
        except IndexError as e:  # noqa: F841
            if i == where:
                break
            continue
    if where == 1:
        return x
    raise e  # noqa: F821


def reraise_after_the_handler_raised(x: int) -> int:
    """An exception leaving the handler deletes `e` too, before an enclosing handler runs."""
    try:
        try:
            raise ValueError("a")
        except ValueError as e:  # noqa: F841
            if x > 0:
                raise KeyError("b")  # noqa: B904
            return 10 // x
    except LookupError:
        raise e  # noqa: B904, F821
    except ZeroDivisionError:
        return -1


def raise_another(x: int) -> int:
    try:
        if x > 0:
            raise KeyError("positive")
        return 10 % x
    except LookupError:
        raise OverflowError("converted") from None
    except ZeroDivisionError:
        pass
    return 7


@given(small)
def test_raise_inside_except(x: int) -> None:
    assert_same(raise_another, x)


@given(small, st.booleans(), st.booleans())
def test_reraise_in_a_nested_try_of_the_handler(x: int, bare: bool, catch: bool) -> None:
    assert_same(reraise_in_nested_try, x, bare, catch)


@given(small, st.integers(0, 3))
def test_the_name_except_as_binds_is_deleted_when_its_handler_ends(x: int, where: int) -> None:
    assert_same(reraise_after_the_handler_ended, x, where)
    assert_same(reraise_after_the_handler_raised, x)


def nested(x: int, y: int) -> int:
    try:
        try:
            if y == 1:
                raise ValueError("inner")
            return x // y
        except ValueError:
            return x % (y - 1)  # y == 1: ZeroDivisionError inside the handler
        finally:
            x += 1
    except ZeroDivisionError:
        return -x
    except Exception:
        return -1000


@given(small, small)
def test_nested_try_and_errors_in_handlers(x: int, y: int) -> None:
    assert_same(nested, x, y)


def finally_paths(x: int) -> int:
    n = 0
    for i in range(6):
        try:
            if i == x:
                break
            if i == x + 1:
                continue
            if i == x + 2:
                return n * 1000
            n += 1
        finally:
            n += 10
    return n


@given(small)
def test_finally_runs_on_break_continue_and_return(x: int) -> None:
    assert_same(finally_paths, x)


def bare_except(a: np.ndarray, i: int) -> float:
    try:
        v = a[i] / a[0]
    except:  # noqa: E722 - catches everything, as Python does
        v = -1.0
    return v


@given(vectors, small)
def test_bare_except(a: np.ndarray, i: int) -> None:
    assert_same_arrays(bare_except, a, i)


def arrays_in_handlers(n: int) -> np.ndarray:
    a = np.ones(3)
    try:
        b = np.arange(float(n))
        a = a + b[n - 4]
    except IndexError:
        a = a * 2.0
    return a


def test_arrays_live_across_handlers_are_kept_and_freed() -> None:
    f = compiled(arrays_in_handlers)
    for n in (0, 3, 5):
        assert_same(arrays_in_handlers, n)
    before = jitcore.runtime.live_bytes()
    for _ in range(200):
        f(2)
        f(6)
    assert jitcore.runtime.live_bytes() == before


def uses_exception_object(x: int) -> str:
    try:
        return 1 // x
    except ZeroDivisionError as e:
        return str(e)


def catches_user_class(x: int) -> int:
    try:
        return 1 // x
    except np.linalg.LinAlgError:
        return 0


@pytest.mark.parametrize(
    "func, words",
    [
        (uses_exception_object, "bound by `except ... as e` can only be re-raised"),
        (catches_user_class, "only built-in exceptions can be caught"),
    ],
)
def test_unsupported_exception_uses_are_explained(func, words) -> None:  # noqa: ANN001
    with pytest.raises(UnsupportedError) as info:
        jit(mode="compiled")(func)(1)
    assert words in str(info.value) and "hint: " in str(info.value)
