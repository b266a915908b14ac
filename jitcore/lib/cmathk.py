"""Library kernels for `mathlib`'s cmath functions (see `npkernels`): the trigonometric and
hyperbolic functions and their inverses, line by line as CPython's `Modules/cmathmodule.c`
computes them, so that results, special values and errors are Python's.

CPython classifies each part of an argument that is not finite (-inf, negative, -0, +0,
positive, +inf, NaN) and looks the result up in a 7x7 table (C99 Annex G; here read from the
running Python's cmath, see `_table`); finite arguments take formulas arranged to avoid
spurious overflow. Its errno becomes the exception: EDOM is
`ValueError('math domain error')`, ERANGE `OverflowError('math range error')`. The kernels
compute with NumPy's scalar functions, which never raise, and raise exactly where CPython's
code sets errno. Each takes the real and imaginary parts and returns a complex number; the
`_parts` helpers return them as a pair.
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Callable

import numpy as np

from jitcore.lib.registry import library_kernel as _lib

# CPython's constants (CM_LARGE_DOUBLE and the rest).
LARGE = 1.7976931348623157e308 / 4.0
SQRT_LARGE = math.sqrt(LARGE)
LOG_LARGE = math.log(LARGE)
DBL_MIN = 2.2250738585072014e-308
SQRT_DBL_MIN = math.sqrt(DBL_MIN)
SCALE_UP = 2.0**53  # 2**CM_SCALE_UP: a subnormal times it is normal
SCALE_DOWN = 2.0**-27  # 2**CM_SCALE_DOWN
LN2 = 0.6931471805599453094
E = math.e
DOMAIN = "math domain error"
RANGE = "math range error"

_INF = math.inf
# One value of each class of special_type, in its order.
_CLASSES = (-math.inf, -2.0, -0.0, 0.0, 2.0, math.inf, math.nan)


def _table(fn: Callable[[complex], complex]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """CPython's special-value table of cmath function `fn` (C99 Annex G: one constant result
    for each class of real part and class of imaginary part, when either is not finite), as
    two flat tuples of real and imaginary parts by 7 * class(re) + class(im). Read from the
    running Python's own cmath, since the tables changed between Python versions (3.11 gives
    tanh(0 + nan j) = nan + nan j, later versions 0 + nan j); an entry where Python raises is
    never looked up (the kernel raises there), nor is one of two finite classes."""
    re: list[float] = []
    im: list[float] = []
    for x in _CLASSES:
        for y in _CLASSES:
            try:
                z = fn(complex(x, y))
            except (ValueError, OverflowError):
                z = complex(math.nan, math.nan)
            re.append(z.real)
            im.append(z.imag)
    return tuple(re), tuple(im)


ACOS_RE, ACOS_IM = _table(cmath.acos)
ACOSH_RE, ACOSH_IM = _table(cmath.acosh)
ASINH_RE, ASINH_IM = _table(cmath.asinh)
ATANH_RE, ATANH_IM = _table(cmath.atanh)
COSH_RE, COSH_IM = _table(cmath.cosh)
SINH_RE, SINH_IM = _table(cmath.sinh)
SQRT_RE, SQRT_IM = _table(cmath.sqrt)
TANH_RE, TANH_IM = _table(cmath.tanh)


@_lib
def special_type(d):  # noqa: ANN001, ANN201
    """CPython's class of a double: 0 -inf, 1 negative, 2 -0, 3 +0, 4 positive, 5 +inf,
    6 NaN."""
    positive = np.copysign(1.0, d) == 1.0
    if np.isfinite(d):
        if d != 0:
            return 4 if positive else 1
        return 3 if positive else 2
    if np.isnan(d):
        return 6
    return 5 if positive else 0


@_lib
def special_index(re, im):  # noqa: ANN001, ANN201
    return 7 * special_type(re) + special_type(im)


@_lib
def finite(re, im):  # noqa: ANN001, ANN201
    return np.isfinite(re) and np.isfinite(im)


# --- sqrt (the inverse functions take it) ----------------------------------------------------


@_lib
def sqrt_parts(re, im):  # noqa: ANN001, ANN201
    if not finite(re, im):
        k = special_index(re, im)
        return SQRT_RE[k], SQRT_IM[k]
    if re == 0.0 and im == 0.0:
        return 0.0, im
    ax = abs(re)
    ay = abs(im)
    if ax < DBL_MIN and ay < DBL_MIN:  # hypot(ax, ay) may be subnormal: scale up
        ax = ax * SCALE_UP
        s = np.sqrt(ax + np.hypot(ax, ay * SCALE_UP)) * SCALE_DOWN
    else:
        ax = ax / 8.0
        s = 2.0 * np.sqrt(ax + np.hypot(ax, ay / 8.0))
    d = ay / (2.0 * s)
    if re >= 0.0:
        return s, np.copysign(d, im)
    return d, np.copysign(s, im)


# --- inverse functions ---------------------------------------------------------------------


@_lib
def acos_k(re, im):  # noqa: ANN001, ANN201
    if not finite(re, im):
        k = special_index(re, im)
        return complex(ACOS_RE[k], ACOS_IM[k])
    if abs(re) > LARGE or abs(im) > LARGE:  # avoid an overflow on the way
        rr = np.arctan2(abs(im), re)
        ri = -np.copysign(np.log(np.hypot(re / 2.0, im / 2.0)) + LN2 * 2.0, im)
        return complex(rr, ri)
    s1r, s1i = sqrt_parts(1.0 - re, -im)
    s2r, s2i = sqrt_parts(1.0 + re, im)
    return complex(2.0 * np.arctan2(s1r, s2r), np.arcsinh(s2r * s1i - s2i * s1r))


@_lib
def acosh_k(re, im):  # noqa: ANN001, ANN201
    if not finite(re, im):
        k = special_index(re, im)
        return complex(ACOSH_RE[k], ACOSH_IM[k])
    if abs(re) > LARGE or abs(im) > LARGE:
        rr = np.log(np.hypot(re / 2.0, im / 2.0)) + LN2 * 2.0
        return complex(rr, np.arctan2(im, re))
    s1r, s1i = sqrt_parts(re - 1.0, im)
    s2r, s2i = sqrt_parts(re + 1.0, im)
    return complex(np.arcsinh(s1r * s2r + s1i * s2i), 2.0 * np.arctan2(s1i, s2r))


@_lib
def asinh_parts(re, im):  # noqa: ANN001, ANN201
    if not finite(re, im):
        k = special_index(re, im)
        return ASINH_RE[k], ASINH_IM[k]
    if abs(re) > LARGE or abs(im) > LARGE:
        if im >= 0.0:
            rr = np.copysign(np.log(np.hypot(re / 2.0, im / 2.0)) + LN2 * 2.0, re)
        else:
            rr = -np.copysign(np.log(np.hypot(re / 2.0, im / 2.0)) + LN2 * 2.0, -re)
        return rr, np.arctan2(im, abs(re))
    s1r, s1i = sqrt_parts(1.0 + im, -re)
    s2r, s2i = sqrt_parts(1.0 - im, re)
    return np.arcsinh(s1r * s2i - s2r * s1i), np.arctan2(im, s1r * s2r - s1i * s2i)


@_lib
def asinh_k(re, im):  # noqa: ANN001, ANN201
    rr, ri = asinh_parts(re, im)
    return complex(rr, ri)


@_lib
def asin_k(re, im):  # noqa: ANN001, ANN201
    """asin(z) = -i asinh(iz)."""
    sr, si = asinh_parts(-im, re)
    return complex(si, -sr)


@_lib
def atanh_parts(re, im):  # noqa: ANN001, ANN201
    if not finite(re, im):
        k = special_index(re, im)
        return ATANH_RE[k], ATANH_IM[k]
    negate = re < 0.0  # atanh(z) = -atanh(-z): reduce to re >= 0
    if negate:
        re = -re
        im = -im
    ay = abs(im)
    if re > SQRT_LARGE or ay > SQRT_LARGE:  # atanh(z) ~ 1/z +/- i pi/2
        h = np.hypot(re / 2.0, im / 2.0)
        rr = re / 4.0 / h / h
        ri = np.copysign(math.pi / 2.0, im)
    elif re == 1.0 and ay < SQRT_DBL_MIN:
        if ay == 0.0:  # C99: atanh(1 +/- 0i) is inf +/- 0i, with the divide-by-zero signal
            raise ValueError(DOMAIN)
        rr = -np.log(np.sqrt(ay) / np.sqrt(np.hypot(ay, 2.0)))
        ri = np.copysign(np.arctan2(2.0, -ay) / 2, im)
    else:
        rr = np.log1p(4.0 * re / ((1 - re) * (1 - re) + ay * ay)) / 4.0
        ri = -np.arctan2(-2.0 * im, (1 - re) * (1 + re) - ay * ay) / 2.0
    if negate:
        return -rr, -ri
    return rr, ri


@_lib
def atanh_k(re, im):  # noqa: ANN001, ANN201
    rr, ri = atanh_parts(re, im)
    return complex(rr, ri)


@_lib
def atan_k(re, im):  # noqa: ANN001, ANN201
    """atan(z) = -i atanh(iz)."""
    sr, si = atanh_parts(-im, re)
    return complex(si, -sr)


# --- cosh, sinh, tanh and the circular functions through them --------------------------------


@_lib
def cosh_parts(re, im):  # noqa: ANN001, ANN201
    if not finite(re, im):
        if np.isinf(re) and np.isfinite(im) and im != 0.0:
            rr = np.copysign(_INF, np.cos(im))
            ri = np.copysign(_INF, np.sin(im))
            if re < 0:
                ri = -ri
        else:
            k = special_index(re, im)
            rr = COSH_RE[k]
            ri = COSH_IM[k]
        if np.isinf(im) and not np.isnan(re):
            raise ValueError(DOMAIN)
        return rr, ri
    if abs(re) > LOG_LARGE:  # cosh(re) may overflow where the result does not
        x_minus_one = re - np.copysign(1.0, re)
        rr = np.cos(im) * np.cosh(x_minus_one) * E
        ri = np.sin(im) * np.sinh(x_minus_one) * E
    else:
        rr = np.cos(im) * np.cosh(re)
        ri = np.sin(im) * np.sinh(re)
    if np.isinf(rr) or np.isinf(ri):
        raise OverflowError(RANGE)
    return rr, ri


@_lib
def cosh_k(re, im):  # noqa: ANN001, ANN201
    rr, ri = cosh_parts(re, im)
    return complex(rr, ri)


@_lib
def cos_k(re, im):  # noqa: ANN001, ANN201
    """cos(z) = cosh(iz)."""
    rr, ri = cosh_parts(-im, re)
    return complex(rr, ri)


@_lib
def sinh_parts(re, im):  # noqa: ANN001, ANN201
    if not finite(re, im):
        if np.isinf(re) and np.isfinite(im) and im != 0.0:
            rr = np.copysign(_INF, np.cos(im))
            ri = np.copysign(_INF, np.sin(im))
            if re < 0:
                rr = -rr
        else:
            k = special_index(re, im)
            rr = SINH_RE[k]
            ri = SINH_IM[k]
        if np.isinf(im) and not np.isnan(re):
            raise ValueError(DOMAIN)
        return rr, ri
    if abs(re) > LOG_LARGE:
        x_minus_one = re - np.copysign(1.0, re)
        rr = np.cos(im) * np.sinh(x_minus_one) * E
        ri = np.sin(im) * np.cosh(x_minus_one) * E
    else:
        rr = np.cos(im) * np.sinh(re)
        ri = np.sin(im) * np.cosh(re)
    if np.isinf(rr) or np.isinf(ri):
        raise OverflowError(RANGE)
    return rr, ri


@_lib
def sinh_k(re, im):  # noqa: ANN001, ANN201
    rr, ri = sinh_parts(re, im)
    return complex(rr, ri)


@_lib
def sin_k(re, im):  # noqa: ANN001, ANN201
    """sin(z) = -i sinh(iz)."""
    sr, si = sinh_parts(-im, re)
    return complex(si, -sr)


@_lib
def tanh_parts(re, im):  # noqa: ANN001, ANN201
    if not finite(re, im):
        if np.isinf(re) and np.isfinite(im) and im != 0.0:
            rr = 1.0 if re > 0 else -1.0
            ri = np.copysign(0.0, 2.0 * np.sin(im) * np.cos(im))
        else:
            k = special_index(re, im)
            rr = TANH_RE[k]
            ri = TANH_IM[k]
        if np.isinf(im) and np.isfinite(re):
            raise ValueError(DOMAIN)
        return rr, ri
    if abs(re) > LOG_LARGE:  # 1 - tanh(re)**2 as 4 exp(-2 |re|)
        rr = np.copysign(1.0, re)
        ri = 4.0 * np.sin(im) * np.cos(im) * np.exp(-2.0 * abs(re))
        return rr, ri
    tx = np.tanh(re)
    ty = np.tan(im)
    cx = 1.0 / np.cosh(re)
    txty = tx * ty
    denom = 1.0 + txty * txty
    return tx * (1.0 + ty * ty) / denom, ((ty / denom) * cx) * cx


@_lib
def tanh_k(re, im):  # noqa: ANN001, ANN201
    rr, ri = tanh_parts(re, im)
    return complex(rr, ri)


@_lib
def tan_k(re, im):  # noqa: ANN001, ANN201
    """tan(z) = -i tanh(iz)."""
    sr, si = tanh_parts(-im, re)
    return complex(si, -sr)
