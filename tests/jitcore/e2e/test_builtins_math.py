"""Builtins, `math` and `cmath`, compiled against Python, including Python's exceptions."""

from __future__ import annotations

import cmath
import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tests.jitcore.support import assert_same, ci_examples, compiled, function_from_source

anyfloat = st.floats()
ints = st.integers(-(10**6), 10**6)


def b_abs(x):  # noqa: ANN001, ANN201
    return abs(x)


@given(ints | anyfloat | st.booleans())
def test_abs(x: float) -> None:
    assert_same(b_abs, x)


def b_minmax(a, b, c):  # noqa: ANN001, ANN201
    return min(a, b), max(a, b), min(a, b, c), max(c, b, a), min((a, b, c)), max((a, c))


@given(anyfloat, anyfloat, anyfloat)
def test_min_max_with_nan_as_python(a: float, b: float, c: float) -> None:
    assert_same(b_minmax, a, b, c, ulps=0)


@given(ints, ints, ints)
def test_min_max_ints(a: int, b: int, c: int) -> None:
    assert_same(b_minmax, a, b, c)


def conversions(x):  # noqa: ANN001, ANN201
    return int(x), float(x), bool(x), complex(x), complex(x, 2.5)


@given(st.floats(-1e18, 1e18) | ints | st.booleans())
def test_int_float_bool_complex(x: float) -> None:
    assert_same(conversions, x)


def rounding(x, n):  # noqa: ANN001, ANN201
    return round(x), round(x, n), round(x, -n)


@given(st.floats(-1e15, 1e15), st.integers(0, 6))
def test_round_bankers(x: float, n: int) -> None:
    assert_same(rounding, x, n, ulps=1)


@pytest.mark.parametrize("x", [0.5, 1.5, 2.5, -0.5, -2.5, 3.5, 1e15 + 0.5])
def test_round_half_to_even(x: float) -> None:
    assert_same(rounding, x, 0)


@given(ints, st.integers(0, 8))
def test_round_ints_with_ndigits(x: int, n: int) -> None:
    assert_same(rounding, x, n)


def test_round_nan_and_inf_raise() -> None:
    with pytest.raises(ValueError):
        compiled(rounding)(math.nan, 1)
    with pytest.raises(OverflowError):
        compiled(rounding)(math.inf, 1)


def b_divmod_pow(a, b, m):  # noqa: ANN001, ANN201
    return divmod(a, b), pow(a, 3), pow(a, abs(b), m)


@given(st.integers(-(10**9), 10**9), st.integers(-100, 100), st.integers(-(10**9), 10**9))
def test_divmod_and_three_argument_pow(a: int, b: int, m: int) -> None:
    assume(m != 0 and b != 0)
    assert_same(b_divmod_pow, a, b, m)


def b_len(a):  # noqa: ANN001, ANN201
    t = (a, a * 2, 3.5)
    return len(t), len(()), t[-1], t[1]


def test_len_and_indexing_of_tuples() -> None:
    assert_same(b_len, 4)


def tuple_dyn_index(i, a):  # noqa: ANN001, ANN201
    t = (1, 2.5, a)
    return t[i]


@given(st.integers(-4, 4), anyfloat)
def test_tuple_index_by_variable(i: int, a: float) -> None:
    assert_same(tuple_dyn_index, i, a)


MATH_1 = [
    "sqrt",
    "exp",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "erf",
    "erfc",
    "gamma",
    "lgamma",
    "fabs",
    "floor",
    "ceil",
    "trunc",
    "isnan",
    "isinf",
    "isfinite",
    "degrees",
    "radians",
]


@pytest.mark.parametrize("name", MATH_1)
@given(x=st.floats() | st.sampled_from([0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, 1e308, -1e-308]))
def test_math_one_argument(name: str, x: float) -> None:
    # exec-defined functions have no source file, so write them through a module
    # CPython computes gamma and lgamma with its own Lanczos approximation, jitcore calls the
    # C library's: they agree to a few dozen ULPs (README, differences from Python).
    gamma = "gamma" in name
    assert_same(MATH_KERNELS[name], x, ulps=64 if gamma else 4, atol=1e-14 if gamma else 0.0)


MATH_2 = ["atan2", "hypot", "copysign", "fmod", "pow", "log"]


@pytest.mark.parametrize("name", MATH_2)
@given(x=st.floats(), y=st.floats())
def test_math_two_arguments(name: str, x: float, y: float) -> None:
    assert_same(MATH_KERNELS[name + "/2"], x, y, ulps=4)


def constants():  # noqa: ANN201
    return math.pi, math.e, math.tau, math.inf, math.nan, -math.inf


def test_math_constants() -> None:
    assert_same(constants)


def integers(a, b, n):  # noqa: ANN001, ANN201
    return math.gcd(a, b), math.gcd(a, b, 12), math.factorial(n)


@given(ints, ints, st.integers(-2, 25))
def test_gcd_and_factorial(a: int, b: int, n: int) -> None:
    if n > 20:  # Python returns a big int; compiled raises OverflowError (out of domain)
        with pytest.raises(OverflowError):
            compiled(integers)(a, b, n)
        return
    assert_same(integers, a, b, n)


def cm(z):  # noqa: ANN001, ANN201
    return cmath.sqrt(z), cmath.exp(z), cmath.log(z), abs(z), cmath.phase(z), cmath.polar(z)


@given(st.complex_numbers(max_magnitude=1e10, allow_nan=False, allow_infinity=False))
def test_cmath_basics(z: complex) -> None:
    assume(abs(z) > 1e-10)
    assert_same(cm, z, ulps=64)


def rect(r, phi):  # noqa: ANN001, ANN201
    return cmath.rect(r, phi), cmath.log(complex(r, phi), 10)


@given(st.floats(0.1, 1e6), st.floats(-10, 10))
def test_cmath_rect_and_log_base(r: float, phi: float) -> None:
    assert_same(rect, r, phi, ulps=64)


from tests.jitcore.e2e.math_kernels import MATH_KERNELS  # noqa: E402


@given(st.floats(-30, 30) | st.floats(allow_nan=True, allow_infinity=True))
def test_tanh_is_within_two_ulps_of_the_c_library(x: float) -> None:
    # jitcore computes tanh inline (vectorizable) rather than calling libm
    assert_same(MATH_KERNELS["tanh"], x, ulps=2)


@given(st.floats(-760, 760) | st.floats(allow_nan=True, allow_infinity=True))
def test_exp_is_within_two_ulps_of_the_c_library(x: float) -> None:
    # jitcore computes exp inline (vectorizable), with CPython's OverflowError for math.exp
    assert_same(MATH_KERNELS["exp"], x, ulps=2, atol=5e-324 * 2)


# --- cmath: trigonometric and hyperbolic functions and their inverses -------------------------

CMATH_NAMES = "sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh".split()
CMATH_FUNCTIONS = {
    name: function_from_source(
        f"import cmath\n\ndef c_{name}(z):\n    return cmath.{name}(z)\n",
        f"c_{name}",
        f"<cmath {name}>",
        {},
    )
    for name in CMATH_NAMES
}
# Each class of CPython's special-value tables (inf, finite, zero of either sign, NaN) and
# the edges of its formulas: subnormals, where cosh and sinh overflow, |z| near DBL_MAX.
CMATH_EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 5e-324, -1e-310, 1e-20, 2e154, -1e300]
CMATH_EDGES += [1.7e308, 710.0, -711.5, 720.0, math.inf, -math.inf, math.nan]
edge_parts = st.sampled_from(CMATH_EDGES) | st.floats(-30, 30)


@pytest.mark.parametrize("name", CMATH_NAMES)
def test_cmath_functions_match_python_on_every_special_value(name: str) -> None:
    """The full grid of edges (C99 Annex G's special values, CPython's ValueError for
    atanh(1) or cosh(inf j), OverflowError where cosh and sinh overflow)."""
    f = CMATH_FUNCTIONS[name]
    for re in CMATH_EDGES:
        for im in CMATH_EDGES:
            assert_same(f, complex(re, im), ulps=8)


@pytest.mark.parametrize("name", CMATH_NAMES)
@ci_examples(40)
@given(re=edge_parts, im=edge_parts)
def test_cmath_functions_match_python(name: str, re: float, im: float) -> None:
    assert_same(CMATH_FUNCTIONS[name], complex(re, im), ulps=8)


def cmath_of_reals(x, n, flag):  # noqa: ANN001, ANN201
    return cmath.acos(x), cmath.atanh(n), cmath.cosh(flag), cmath.asinh(x + n)


@given(x=st.floats(-3, 3) | st.sampled_from([math.inf, math.nan]), n=st.integers(-3, 3))
def test_cmath_functions_take_real_numbers(x: float, n: int) -> None:
    assert_same(cmath_of_reals, x, n, True, ulps=8)  # atanh(+-1): ValueError
