"""NumPy's ufuncs on complex numbers, compiled vs NumPy, bit for bit, special values included:
the C99 functions NumPy calls (`csqrt`, `cexp`, `clog`, `csin`, ...: complex64 ones once
failed to compile, complex128 ones raised where NumPy gives inf or nan), NaN and infinity
tests of either part, NumPy 2's `sign` (z/|z|), and the lexicographic order of `maximum`,
`minimum` and `< <= > >=` (they once compared nothing but equality)."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore.errors import TypingError
from tests.jitcore.support import compiled

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, np.nan, np.inf, -np.inf, 1e300, -1e-310, 710.0, -1000.0]
# every pair of special parts: the corners of C99's Annex G and NumPy's loops
CORNERS = np.array([complex(r, i) for r, i in itertools.product(SPECIAL, SPECIAL)])


def corners(dtype: str) -> np.ndarray:
    with np.errstate(over="ignore"):  # 1e300 is inf in complex64
        return CORNERS.astype(dtype)


def complex_values(dtype: str) -> st.SearchStrategy[np.ndarray]:
    width = 32 if dtype == "complex64" else 64
    special = [x for x in SPECIAL if width == 64 or not abs(x) < np.inf or abs(x) < 3e38]
    part = st.one_of(st.sampled_from(special), st.floats(width=width))
    return hnp.arrays(
        dtype,
        st.integers(0, 40),
        elements=st.builds(complex, part, part).map(np.dtype(dtype).type),
    )


def same_bits(got: np.ndarray, want: np.ndarray) -> None:
    """Equal, NaN where NumPy has NaN (in either part), signed zeros included."""
    assert got.dtype == want.dtype and got.shape == want.shape
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
        ok = ~np.isnan(w)
        np.testing.assert_array_equal(g[ok], w[ok])
        np.testing.assert_array_equal(np.signbit(g[ok]), np.signbit(w[ok]))


def c_sqrt(a):  # noqa: ANN001, ANN201
    return np.sqrt(a)


def c_exp(a):  # noqa: ANN001, ANN201
    return np.exp(a)


def c_log(a):  # noqa: ANN001, ANN201
    return np.log(a)


def c_sin(a):  # noqa: ANN001, ANN201
    return np.sin(a)


def c_cos(a):  # noqa: ANN001, ANN201
    return np.cos(a)


def c_tan(a):  # noqa: ANN001, ANN201
    return np.tan(a)


def c_sinh(a):  # noqa: ANN001, ANN201
    return np.sinh(a)


def c_cosh(a):  # noqa: ANN001, ANN201
    return np.cosh(a)


def c_tanh(a):  # noqa: ANN001, ANN201
    return np.tanh(a)


def c_arcsin(a):  # noqa: ANN001, ANN201
    return np.arcsin(a)


def c_arccos(a):  # noqa: ANN001, ANN201
    return np.arccos(a)


def c_arctan(a):  # noqa: ANN001, ANN201
    return np.arctan(a)


def c_sign(a):  # noqa: ANN001, ANN201
    return np.sign(a)


UNARY = [
    c_sqrt,
    c_exp,
    c_log,
    c_sin,
    c_cos,
    c_tan,
    c_sinh,
    c_cosh,
    c_tanh,
    c_arcsin,
    c_arccos,
    c_arctan,
    c_sign,
]


def run(f, *args):  # noqa: ANN001, ANN002, ANN201
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*args), compiled(f)(*args)


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
@pytest.mark.parametrize("f", UNARY, ids=lambda f: f.__name__)
def test_complex_functions_at_every_corner_are_numpys(f, dtype: str) -> None:  # noqa: ANN001
    want, got = run(f, corners(dtype))
    same_bits(got, want)


@pytest.mark.parametrize("f", [c_sqrt, c_exp, c_log, c_sign], ids=lambda f: f.__name__)
@given(a=complex_values("complex128") | complex_values("complex64"))
def test_complex_functions_are_numpys(f, a: np.ndarray) -> None:  # noqa: ANN001
    want, got = run(f, a)
    same_bits(got, want)


def of_an_element(a):  # noqa: ANN001, ANN201
    z = a[0]
    return np.sqrt(z), np.log(z), np.sign(z), np.isnan(z), np.isinf(z), np.isfinite(z)


@pytest.mark.parametrize("z", list(CORNERS[::7]), ids=str)
def test_a_complex_scalar_takes_the_same_functions(z: complex) -> None:
    want, got = run(of_an_element, np.array([z]))
    for w, g in zip(want, got):
        assert type(g) is type(w)
        same_bits(np.asarray(g), np.asarray(w))


def predicates(a):  # noqa: ANN001, ANN201
    return np.isnan(a), np.isinf(a), np.isfinite(a)


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_nan_and_infinity_tests_look_at_both_parts(dtype: str) -> None:
    a = corners(dtype)
    for want, got in zip(*run(predicates, a)):
        np.testing.assert_array_equal(got, want)
    assert compiled(predicates)(np.array([complex(0, np.nan)]))[0][0]


def ordered(a, b):  # noqa: ANN001, ANN201
    return np.maximum(a, b), np.minimum(a, b), a < b, a <= b, a > b, a >= b, a == b, a != b


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_complex_order_is_lexicographic_as_numpys(dtype: str) -> None:
    """Every pair of corner values, NaN in either part included."""
    small = corners(dtype)[::3]
    a, b = np.repeat(small, len(small)), np.tile(small, len(small))
    want, got = run(ordered, a, b)
    for w, g in zip(want, got):
        if w.dtype.kind == "c":
            same_bits(g, w)
        else:
            np.testing.assert_array_equal(g, w)


def c_power(a, b):  # noqa: ANN001, ANN201
    return np.power(a, b), a**b


EXPONENTS = [0.0, 1.0, 2.0, 3.0, -1.0, -2.0, 5.0, 7.0, -13.0, 99.0, 100.0, 0.5, -0.5]


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_complex_powers_are_numpys(dtype: str) -> None:
    """NumPy's npy_cpow: 1 for a zero exponent, 0 for zero to an exponent of positive real
    part (NaN otherwise), multiplication for integral real exponents under 100 (exact where
    the polar form is not: (1+2j)**2 is -3+4j), the C library's cpow otherwise."""
    bases = corners(dtype)[::5]
    exponents = np.array(
        [complex(e, 0) for e in EXPONENTS] + [1j, 2 + 1j, complex(np.nan, 0), complex(np.inf, 0)],
        dtype=dtype,
    )
    a, b = np.repeat(bases, len(exponents)), np.tile(exponents, len(bases))
    want, got = run(c_power, a, b)
    for w, g in zip(want, got):
        same_bits(g, w)
    exact = run(c_power, np.array([1 + 2j, -1j], dtype=dtype), np.array([2, 3], dtype=dtype))
    same_bits(exact[1][0], np.array([-3 + 4j, 1j], dtype=dtype))


def scalar_order(a):  # noqa: ANN001, ANN201
    return a[0] < a[1], a[0] <= a[1], a[0] > a[1], a[1] >= a[0], a[0] > 1j


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_numpy_complex_scalars_are_ordered_too(dtype: str) -> None:
    small = corners(dtype)[::4]
    for x, y in itertools.product(small, small):
        a = np.array([x, y])
        assert compiled(scalar_order)(a) == scalar_order(a)


def python_order(z, w):  # noqa: ANN001, ANN201
    return z < w


def test_python_complex_numbers_are_not_ordered() -> None:
    with pytest.raises(TypingError, match="not ordered"):
        compiled(python_order)(1j, 2j)
