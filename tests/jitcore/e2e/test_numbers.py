"""Numeric semantics: Python's rules for //, %, **, division by zero, overflow, NaN, promotion."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from jitcore import jit
from jitcore.errors import TypingError
from tests.jitcore.support import assert_same, compiled, in_int64

i64 = st.integers(-(2**63), 2**63 - 1)
small = st.integers(-1000, 1000)
finite = st.floats(allow_nan=False, allow_infinity=False)
anyfloat = st.floats()


def arith(a, b):  # noqa: ANN001, ANN201
    return a + b, a - b, a * b


def divide(a, b):  # noqa: ANN001, ANN201
    return a / b


def floordiv_mod(a, b):  # noqa: ANN001, ANN201
    return a // b, a % b


def power(a, b):  # noqa: ANN001, ANN201
    return a**b


@given(small, small)
def test_int_arithmetic(a: int, b: int) -> None:
    assert_same(arith, a, b)


@given(i64, i64)
def test_int_overflow_wraps(a: int, b: int) -> None:
    got = compiled(arith)(a, b)
    want = tuple(((v + 2**63) % 2**64) - 2**63 for v in arith(a, b))
    assert got == want


@given(i64, i64)
def test_floor_division_and_modulo_of_ints(a: int, b: int) -> None:
    q, r = (a // b, a % b) if b else (0, 0)
    assume(in_int64(q, r))  # -2**63 // -1 leaves the compiled domain
    assert_same(floordiv_mod, a, b)  # b == 0 raises ZeroDivisionError both ways


@given(anyfloat, anyfloat)
def test_floor_division_and_modulo_of_floats(a: float, b: float) -> None:
    assert_same(floordiv_mod, a, b, ulps=0)


@pytest.mark.parametrize(
    "a, b",
    [
        (-7, 2),
        (7, -2),
        (-7, -2),
        (-7.5, 2.0),
        (7.5, -2.0),
        (-0.0, 3.0),
        (0.0, -3.0),
        (1e308, 1e-308),
        (-1e-300, 1e300),
        (5, 0),
        (5.0, 0.0),
        (-0.0, 0.0),
        (2**63 - 1, -1),
        (-(2**63), 1),
    ],
)
def test_division_corner_cases(a: float, b: float) -> None:
    assert_same(floordiv_mod, a, b, ulps=0)
    assert_same(divide, a, b, ulps=0)


@given(finite, finite)
def test_true_division(a: float, b: float) -> None:
    assert_same(divide, a, b, ulps=0)


@given(small, small)
def test_true_division_of_ints_is_float(a: int, b: int) -> None:
    assert_same(divide, a, b, ulps=0)


@given(st.integers(-20, 20), st.integers(0, 40))
def test_int_power(a: int, b: int) -> None:
    assume(in_int64(a**b))
    assert_same(power, a, b)


def negative_literal_power(a):  # noqa: ANN001, ANN201
    return a**-2


@given(st.integers(-1000, 1000))
def test_int_to_negative_literal_power_is_float(a: int) -> None:
    assert_same(negative_literal_power, a)


def test_int_to_negative_variable_power_raises_valueerror() -> None:
    with pytest.raises(ValueError, match="negative power"):
        compiled(power)(2, -1)


@given(st.floats(-1e3, 1e3), st.floats(-20, 20))
def test_float_power(a: float, b: float) -> None:
    assume(a >= 0 or b == int(b))  # Python returns a complex number for these
    assert_same(power, a, b, ulps=2)


def element_power_sum(a, p):  # noqa: ANN001, ANN201
    s = 0.0
    for i in range(a.shape[0]):
        s += abs(a[i]) ** p
    return s


SPECIAL = st.sampled_from([0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 1e200, 5e-324])


@given(st.one_of(st.floats(allow_nan=True), SPECIAL), st.integers(-2, 7))
def test_float_to_a_run_time_int_power(a: float, p: int) -> None:
    """Exponents 0..4 known only at run time become multiplications: same values (within the
    default 4 ULPs), the same NaN, inf, signed-zero and OverflowError results as pow."""
    assert_same(power, a, p)
    assert_same(power, a, float(p))


@given(st.lists(st.floats(-1e3, 1e3), max_size=20), st.integers(-2, 7))
def test_numpy_scalar_to_a_run_time_int_power(values: list[float], p: int) -> None:
    a = np.array(values)
    assume(p >= 0 or not (a == 0).any())
    assert_same(element_power_sum, a, p)


def test_zero_to_negative_power_raises() -> None:
    with pytest.raises(ZeroDivisionError):
        compiled(power)(0.0, -1.0)


def compare_all(a, b):  # noqa: ANN001, ANN201
    return a == b, a != b, a < b, a <= b, a > b, a >= b


@given(anyfloat, anyfloat)
def test_nan_comparisons_as_python(a: float, b: float) -> None:
    assert_same(compare_all, a, b)


@given(st.integers(-5, 5), st.floats(-5, 5))
def test_mixed_int_float_comparisons(a: int, b: float) -> None:
    assert_same(compare_all, a, b)


def unary(a):  # noqa: ANN001, ANN201
    return -a, +a, not a


@given(st.integers(-(2**62), 2**62) | anyfloat | st.booleans())
def test_unary_operators(a: float) -> None:
    assert_same(unary, a)


def invert_shift(a, b):  # noqa: ANN001, ANN201
    return ~a, a << b, a >> b, a & b, a | b, a ^ b


@given(st.integers(-(2**40), 2**40), st.integers(0, 20))
def test_bitwise(a: int, b: int) -> None:
    assert_same(invert_shift, a, b)


def test_negative_shift_raises() -> None:
    with pytest.raises(ValueError):
        compiled(invert_shift)(5, -1)


def bools(a, b):  # noqa: ANN001, ANN201
    return a + b, a * 3, a & b, a | b, -a, ~a


@given(st.booleans(), st.booleans())
def test_bool_arithmetic_is_int(a: bool, b: bool) -> None:
    assert_same(bools, a, b)


def complex_ops(a, b):  # noqa: ANN001, ANN201
    return a + b, a - b, a * b, a / b, a == b, -a, a.real, a.imag, abs(a), a**2


cfloats = st.complex_numbers(max_magnitude=1e100, allow_nan=False, allow_infinity=False)


@given(cfloats, cfloats)
def test_complex_arithmetic(a: complex, b: complex) -> None:
    assume(abs(b) > 1e-100 and abs(a) > 1e-100)
    assert_same(complex_ops, a, b, ulps=16)


def test_complex_division_by_zero() -> None:
    with pytest.raises(ZeroDivisionError):
        compiled(complex_ops)(1 + 1j, 0j)


NP_TYPES = [
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    np.float32,
    np.float64,
]


def mul_add(a, b):  # noqa: ANN001, ANN201
    return a * b + a


@pytest.mark.parametrize("t", NP_TYPES)
def test_numpy_scalars_keep_their_dtype(t: type) -> None:
    assert_same(mul_add, t(3), t(5))  # jitcheck's policy compares NumPy scalars' dtypes


@pytest.mark.parametrize("t", [np.float32, np.int16, np.int32])
def test_weak_literals_keep_the_numpy_type(t: type) -> None:
    def scaled(x):  # noqa: ANN001, ANN202
        return x * 2 + 1

    assert type(assert_same(scaled, t(3))) is t


def promote_in_loop(n):  # noqa: ANN001, ANN201
    x = 0
    for i in range(n):
        x = x + i * 0.5
    return x


@given(st.integers(0, 50))
def test_variable_unified_by_promotion(n: int) -> None:
    assert_same(promote_in_loop, n)


def test_int_conversion_of_nan_and_inf() -> None:
    def to_int(x):  # noqa: ANN001, ANN202
        return int(x)

    f = jit(mode="compiled")(to_int)
    with pytest.raises(ValueError):
        f(math.nan)
    with pytest.raises(OverflowError):
        f(math.inf)
    assert f(-3.9) == -3


def test_negative_float_to_fractional_power_raises_where_python_goes_complex() -> None:
    with pytest.raises(ValueError, match="complex"):
        compiled(power)(-8.0, 1 / 3)
    assert compiled(power)(-8.0, 2.0) == 64.0
    assert compiled(power)(-math.inf, 0.5) == (-math.inf) ** 0.5


def test_abs_of_a_huge_complex_overflows_as_python() -> None:
    def absolute(z):  # noqa: ANN001, ANN202
        return abs(z)

    with pytest.raises(OverflowError):
        jit(mode="compiled")(absolute)(complex(1.3e308, 1.3e308))


def mixed_width(a32, b64, n):  # noqa: ANN001, ANN201
    x, y = a32[0], b64[0]
    return (
        x / y,
        np.divide(x, y),
        x / np.int64(n),
        np.true_divide(x, np.int64(n)),
        x // y,
        x % y,
        x**y,
        (a32 / y)[0],
        x / n,  # a Python int is weak: float32
    )


@given(st.floats(-1e6, 1e6, width=32), st.floats(0.5, 100.0), st.integers(1, 1000))
def test_float64_and_int64_numpy_scalars_are_strong(x: float, y: float, n: int) -> None:
    """An array's float64 or int64 element, or an np.int64 made in the function, is a NumPy
    scalar: with a float32 one it computes in float64, as NumPy does (they were once taken for
    weak Python numbers in /, //, %, ** and ufunc calls, and stayed float32)."""
    a32, b64 = np.array([x], dtype=np.float32), np.array([y])
    got = assert_same(mixed_width, a32, b64, n)
    want = mixed_width(a32, b64, n)
    assert [type(v) for v in got] == [type(v) for v in want]


def bool_elements(p, q, k):  # noqa: ANN001, ANN201
    x, y = p[0], q[0]
    return x + y, x * y, ~x, abs(x), k[0] + x, x + 1, np.bool(k[0]) + 1.5, True + True


@given(st.booleans(), st.booleans(), st.integers(-128, 127))
def test_numpy_bools_add_and_multiply_as_numpy_bools(p: bool, q: bool, k: int) -> None:
    """An element of a bool array is a NumPy bool: `+` is or, `*` is and, `~` is not, and an
    int8 plus one stays int8 (Python's bools are ints: `True + True` stays 2)."""
    args = (np.array([p]), np.array([q]), np.array([k], dtype=np.int8))
    got = assert_same(bool_elements, *args)
    want = bool_elements(*args)
    assert [type(v) for v in got] == [type(v) for v in want]


def negated_bool(p):  # noqa: ANN001, ANN201
    return -p[0]


def test_negating_a_numpy_bool_is_refused_as_numpy_refuses_it() -> None:
    with pytest.raises(TypeError):
        negated_bool(np.array([True]))
    with pytest.raises(TypingError, match="NumPy bool"):
        compiled(negated_bool)(np.array([True]))


def literal_too_big(a):  # noqa: ANN001, ANN201
    return a[0] + 300


def literal_negative(a):  # noqa: ANN001, ANN201
    return a[0] * -1


def test_an_int_literal_outside_the_elements_dtype_raises_as_numpy() -> None:
    for f, a in [
        (literal_too_big, np.array([1], np.int8)),
        (literal_negative, np.array([3], np.uint8)),
    ]:
        with pytest.raises(OverflowError):
            f(a)
        with pytest.raises(OverflowError):
            compiled(f)(a)


def compare_with_int(a, x):  # noqa: ANN001, ANN201
    return a < x, a <= x, a > x, a >= x, a == x, a != x, x < a


@given(
    st.sampled_from(["int8", "uint8", "int16", "uint32", "int32", "uint64"]),
    st.integers(-(2**63), 2**63 - 1) | st.integers(-300, 300),
)
def test_ints_compare_with_any_python_int_by_value(dtype: str, x: int) -> None:
    """NumPy 2 compares an int array with a Python int that does not fit its dtype by value
    (no OverflowError, as arithmetic would raise)."""
    info = np.iinfo(dtype)
    a = np.array([info.min, 0, 1, info.max], dtype=dtype)
    for got, want in zip(compiled(compare_with_int)(a, x), compare_with_int(a, x)):
        np.testing.assert_array_equal(got, want)


def complex_power(z, w):  # noqa: ANN001, ANN201
    return z**w


@given(
    st.complex_numbers(max_magnitude=1e3, allow_nan=False, allow_infinity=False),
    st.integers(-100, 100),
)
def test_python_complex_to_an_integral_power_multiplies_as_cpython(z: complex, n: int) -> None:
    """CPython squares and multiplies for an integral exponent within 100 (`c_powi`), so
    (1+2j)**2 is exactly -3+4j; the polar form was 2 ulps off. Overflow and 0 to a negative
    power raise as in CPython."""
    for w in (n, complex(n, 0)):
        assert_same(complex_power, z, w, ulps=0)


def numpy_divmod(a):  # noqa: ANN001, ANN201
    return divmod(a[0], a[1])


@pytest.mark.parametrize("a", [np.array([3, 0]), np.array([-7, 2]), np.array([3.0, 0.0])], ids=str)
def test_divmod_of_numpy_scalars_follows_numpy(a: np.ndarray) -> None:
    """NumPy's divmod gives 0 or inf/nan for a zero divisor (not ZeroDivisionError)."""
    assert_same(numpy_divmod, a)


def store_into_int8(a, x):  # noqa: ANN001, ANN201
    a[0] = x
    a += 3
    return a


@given(st.floats(-300, 300) | st.sampled_from([np.nan, np.inf, -np.inf, 127.9, -128.9]))
def test_storing_a_float_into_int8_converts_as_numpy(x: float) -> None:
    """NumPy converts the float to a Python int (NaN: ValueError, infinity: OverflowError)
    that must fit int8 (OverflowError); it once wrapped, or stored 0 for NaN."""
    assert_same(store_into_int8, np.zeros(2, dtype=np.int8), x)


def add_in_place(a, x):  # noqa: ANN001, ANN201
    a += x
    return a


@given(st.integers(-1000, 1000))
def test_an_in_place_python_int_must_fit_the_arrays_dtype(x: int) -> None:
    assert_same(add_in_place, np.zeros(2, dtype=np.int8), x)


@given(i64, i64.filter(lambda b: b != 0))
def test_int_true_division_is_correctly_rounded(a: int, b: int) -> None:
    """CPython rounds int / int once; float(a) / float(b) rounds three times above 2**53
    (9558257807069587 / 23 was 415576426394329.94, not .9)."""
    assert_same(divide, a, b, ulps=0)
    assert_same(divide, 9558257807069587, 23, ulps=0)


def rounded_element(a):  # noqa: ANN001, ANN201
    return round(a[0])


@pytest.mark.parametrize("dtype", ["int32", "uint8", "int64"])
def test_round_of_a_numpy_int_is_a_python_int(dtype: str) -> None:
    a = np.array([3], dtype=dtype)
    assert type(assert_same(rounded_element, a)) is int


def int_and_range_of_elements(a):  # noqa: ANN001, ANN201
    last = -1
    total = 0
    for i in range(a[0]):
        last = i
        total += i - 10
    stepped = 0
    for j in range(a[1], a[0], 3):
        stepped = stepped * 2 - j
    return int(a[0]) - 10, int(a[1]), last, total, stepped, a[1] in range(a[0])


INT_DTYPES = ["uint64", "int64", "uint32", "int32", "uint8", "int8"]


@given(st.sampled_from(INT_DTYPES), st.integers(0, 60), st.integers(0, 60))
def test_int_and_range_of_numpy_ints_are_python_ints(dtype: str, n: int, m: int) -> None:
    """Python's int() and range() of a NumPy int give Python ints: a uint64 was kept as one,
    so `int(x) - 10` wrapped or became a float and a range's items turned an int
    accumulator into a float."""
    result = assert_same(int_and_range_of_elements, np.array([n, m], dtype=dtype))
    assert all(type(x) is int for x in result[:5])


def int_of_element(a):  # noqa: ANN001, ANN201
    return int(a[0])


def range_of_element(a):  # noqa: ANN001, ANN201
    n = 0
    for _ in range(a[0] - np.uint64(3), a[0]):
        n += 1
    return n


@pytest.mark.parametrize("f", [int_of_element, range_of_element])
@pytest.mark.parametrize("x", [2**63, 2**64 - 1])
def test_a_uint64_beyond_int64_is_an_overflow_as_a_float_beyond_it(f, x: int) -> None:  # noqa: ANN001
    f(np.array([x], dtype=np.uint64))  # Python: a big int
    with pytest.raises(OverflowError, match="uint64 too large for int64"):
        compiled(f)(np.array([x], dtype=np.uint64))
    assert compiled(f)(np.array([2**63 - 1], dtype=np.uint64)) == f(
        np.array([2**63 - 1], np.uint64)
    )


def test_round_of_a_numpy_bool_is_refused_as_numpy_refuses_it() -> None:
    with pytest.raises(TypeError):
        rounded_element(np.array([True]))
    with pytest.raises(TypingError, match="__round__"):
        compiled(rounded_element)(np.array([True]))


def zero_d_arithmetic(z, w):  # noqa: ANN001, ANN201
    return -z, z > 1, z * w, np.sqrt(z), np.maximum(z, w)


@given(st.floats(0, 100), st.integers(-5, 5))
def test_ufuncs_of_0d_arrays_give_numpy_scalars(x: float, k: int) -> None:
    """NumPy returns a scalar from a ufunc on 0-d arrays (it was a 0-d array)."""
    z, w = np.array(x), np.array(k)
    got = assert_same(zero_d_arithmetic, z, w)
    assert [type(v) for v in got] == [type(v) for v in zero_d_arithmetic(z, w)]


COEFFS = (1.0, 2.0, 3.0)


def horner_over(x, y):  # noqa: ANN001, ANN201
    s = 0.0
    for c in COEFFS:  # the items of a tuple of Python floats are Python floats
        s = s * x + c / y  # y == 0.0: ZeroDivisionError, as in Python (NumPy's rule: inf)
    return s


@given(finite, st.sampled_from([0.0, -0.0, 2.0, 1e-300]))
def test_loop_items_of_a_global_tuple_of_floats_are_python_floats(x: float, y: float) -> None:
    assert_same(horner_over, x, y)
    result = jit(horner_over, mode="compiled")(x, 2.0)
    assert type(result) is float


BEYOND_INT64 = 2**63


def compares_with_big_literal(x):  # noqa: ANN001, ANN201
    return x < 9223372036854775808


def subtracts_from_big_literal(x):  # noqa: ANN001, ANN201
    return 9223372036854775808 - x


def returns_big_literal(x):  # noqa: ANN001, ANN201
    return 18446744073709551615


def compares_with_big_global(x):  # noqa: ANN001, ANN201
    return x < BEYOND_INT64


@pytest.mark.parametrize(
    "func",
    [
        compares_with_big_literal,
        subtracts_from_big_literal,
        returns_big_literal,
        compares_with_big_global,
    ],
)
def test_int_constants_beyond_int64_are_typing_errors(func) -> None:  # noqa: ANN001
    """A Python int is an int64 in compiled code: a literal in [2**63, 2**64) was a NumPy
    uint64 (`x < 2**63` compared through float64 and was False for 2**63 - 1, `2**63 - x`
    was a float), where those of 2**64 and more were already refused."""
    with pytest.raises(TypingError, match="does not fit in int64"):
        jit(func, mode="compiled")(2**63 - 1)


def uint64_constants(h):  # noqa: ANN001, ANN201
    return (
        np.uint64(18446744073709551615),
        h & np.uint64(0xFFFFFFFFFFFFFFFF),
        np.uint64(BEYOND_INT64) - h,
        -9223372036854775808,
        np.int64(-9223372036854775808),
    )


@given(st.integers(0, 2**63 - 1))
def test_numpy_integer_types_make_constants_beyond_int64(h: int) -> None:
    assert_same(uint64_constants, np.uint64(h))


def uint64_max(x):  # noqa: ANN001, ANN201
    return np.iinfo(np.uint64).max > x


def test_iinfo_of_uint64_is_a_uint64_constant() -> None:
    assert compiled(uint64_max)(np.uint64(2**64 - 2)) == np.True_


def int_mod(a, b):  # noqa: ANN001, ANN201
    return a % b


def int_floordiv(a, b):  # noqa: ANN001, ANN201
    return a // b


@pytest.mark.parametrize(
    "func, message",
    [(int_mod, "integer modulo by zero"), (int_floordiv, "integer division or modulo by zero")],
)
def test_int_division_by_zero_says_what_python_says(func, message) -> None:  # noqa: ANN001
    with pytest.raises(ZeroDivisionError) as info:
        compiled(func)(5, 0)
    with pytest.raises(ZeroDivisionError) as python:
        func(5, 0)
    assert str(info.value) == str(python.value) == message
