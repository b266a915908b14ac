"""Formatted exception messages (`ssa_format`, `lib.excformat`, `runtime.excring`): compiled
code raises the exception Python raises, with the same text, for f-strings (conversions and
format specs), `%` templates, `raise E(x)` and assert messages; caught, raised in callees and
in prange workers; and what cannot be formatted is a compile-time error."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import TypingError, UnsupportedError, jit, prange
from jitcore.ir import types as T
from jitcore.runtime import excring
from tests.jitcore.ir.stages import assert_round_trips, stage_texts
from tests.jitcore.support import compiled


def outcome(f, *args):  # noqa: ANN001, ANN201
    try:
        return ("returned", f(*args))
    except AssertionError as exc:  # pytest's assert rewriting adds lines to Python's text
        return ("AssertionError", str(exc).split("\n")[0])
    except Exception as exc:  # noqa: BLE001 - the exception is the result compared
        return (type(exc).__name__, str(exc))


def same_exception(f, *args) -> tuple:  # noqa: ANN001
    got, want = outcome(compiled(f), *args), outcome(f, *args)
    assert got == want
    return got


def fstring(n, x, flag, name):  # noqa: ANN001, ANN201
    if n < 0:
        raise ValueError(
            f"n={n} x={x} {x!r} {x:.3f} {n:>6d} {flag} {name!r} {{literal}} {None} {n:#x}"
        )
    return n


def percent(n, x, name):  # noqa: ANN001, ANN201
    if n < 0:
        raise IndexError("index %d out of %s (%.2f, %r)" % (n, name, x, x))  # noqa: UP031
    if n == 0:
        raise IndexError("just %d" % n)  # noqa: UP031
    return n


def plain_value(n, x):  # noqa: ANN001, ANN201
    if n < 0:
        raise RuntimeError(x)
    if n == 0:
        raise KeyError(n)
    return n


def asserted(n, a):  # noqa: ANN001, ANN201
    assert n < a.shape[0], f"n={n} is past the end ({a.shape[0]} items, last {a[-1]})"
    return a[n]


def numpy_values(a, i):  # noqa: ANN001, ANN201
    raise OverflowError(f"{a[i]} {a[i]!r} {a[i] * 2} {a.shape[0]}")


def callee(x):  # noqa: ANN001, ANN201
    if x > 3:
        raise ValueError(f"too large: {x}")
    return x


def caught_and_uncaught(a):  # noqa: ANN001, ANN201
    s = 0.0
    for v in a:
        try:
            s += callee(v)
        except ValueError:
            s -= 1.0
    return s + callee(a[-1] + 10)


def parallel_check(a):  # noqa: ANN001, ANN201
    s = 0.0
    for i in prange(a.shape[0]):
        if a[i] > 100:
            raise ValueError(f"bad element {i}: {a[i]}")
        s += a[i]
    return s


def cycles_the_ring(n):  # noqa: ANN001, ANN201
    caught = 0
    for i in range(n):
        try:
            raise KeyError(f"k{i}")
        except KeyError:
            caught += 1
    raise LookupError(f"caught {caught}")


numbers = st.floats(allow_nan=True, allow_infinity=True)


@given(st.integers(-(2**63), -1), numbers, st.booleans(), st.text(max_size=20))
def test_fstring_messages(n: int, x: float, flag: bool, name: str) -> None:
    assert same_exception(fstring, n, x, flag, name)[0] == "ValueError"


@given(st.integers(-(2**63), 0), st.floats(-1e300, 1e300), st.text(max_size=10))
def test_percent_messages(n: int, x: float, name: str) -> None:
    assert same_exception(percent, n, x, name)[0] == "IndexError"


@given(st.integers(-5, 0), numbers)
def test_raising_a_value(n: int, x: float) -> None:
    same_exception(plain_value, n, x)


@given(st.integers(0, 8), st.sampled_from([np.float32, np.int16, np.float64, np.uint8]))
def test_assert_messages_and_numpy_scalars(n: int, dtype: type) -> None:
    a = (np.arange(5) * 1.25).astype(dtype)
    same_exception(asserted, n, a)
    same_exception(numpy_values, a, n % 5)


def test_caught_in_compiled_code_and_raised_from_callees() -> None:
    a = np.arange(6.0)
    assert same_exception(caught_and_uncaught, a) == ("ValueError", "too large: 15.0")


def test_raised_in_prange_workers() -> None:
    a = np.arange(200_000.0)
    want = outcome(parallel_check, a)
    assert outcome(compiled(parallel_check, parallel=True), a) == want
    assert want == ("ValueError", "bad element 101: 101.0")


def test_many_caught_exceptions_cycle_the_ring_without_leaking_or_garbling() -> None:
    assert same_exception(cycles_the_ring, 3 * excring.SLOTS) == ("LookupError", "caught 768")


def test_a_slot_being_rewritten_falls_back_to_the_template() -> None:
    """The seqlock: a slot whose `seq` is odd (being written) reads as its template."""
    slot = (ctypes.c_char * ctypes.sizeof(ctypes.c_int64 * 200))()
    template = ctypes.create_string_buffer(b"n={}")
    address = ctypes.addressof(slot)
    ctypes.c_void_p.from_address(address + 8).value = ctypes.addressof(template)
    ctypes.c_int64.from_address(address + 24).value = 7
    assert excring.message(address) == "n={}"


def test_what_cannot_be_formatted_is_a_compile_time_error() -> None:
    def computed_spec(x, w):  # noqa: ANN001, ANN201
        raise ValueError(f"{x:{w}}")

    def complex_value(z):  # noqa: ANN001, ANN201
        raise ValueError(f"{z}")

    def too_many(a):  # noqa: ANN001, ANN201
        raise ValueError(
            f"{a[0]}{a[1]}{a[2]}{a[3]}{a[4]}{a[5]}{a[6]}{a[7]}{a[8]}{a[9]}"
            f"{a[0]}{a[1]}{a[2]}{a[3]}{a[4]}{a[5]}{a[6]}"
        )

    with pytest.raises(UnsupportedError, match="format spec"):
        jit(mode="compiled")(computed_spec)(1.0, 5)
    with pytest.raises(TypingError, match="cannot format"):
        jit(mode="compiled")(complex_value)(1j)
    with pytest.raises(TypingError, match="at most 16"):
        jit(mode="compiled")(too_many)(np.arange(10.0))


def test_formatted_raises_print_and_parse_back() -> None:
    texts = stage_texts(percent, (T.I64, T.F64, T.STR))
    assert "excformatted" in texts["lower"]
    assert_round_trips(texts)
