"""One tiny kernel per math function (jitcore compiles from source files)."""

import math


def m_sqrt(x):  # noqa: ANN001, ANN201
    return math.sqrt(x)


def m_exp(x):  # noqa: ANN001, ANN201
    return math.exp(x)


def m_expm1(x):  # noqa: ANN001, ANN201
    return math.expm1(x)


def m_log(x):  # noqa: ANN001, ANN201
    return math.log(x)


def m_log1p(x):  # noqa: ANN001, ANN201
    return math.log1p(x)


def m_log2(x):  # noqa: ANN001, ANN201
    return math.log2(x)


def m_log10(x):  # noqa: ANN001, ANN201
    return math.log10(x)


def m_sin(x):  # noqa: ANN001, ANN201
    return math.sin(x)


def m_cos(x):  # noqa: ANN001, ANN201
    return math.cos(x)


def m_tan(x):  # noqa: ANN001, ANN201
    return math.tan(x)


def m_asin(x):  # noqa: ANN001, ANN201
    return math.asin(x)


def m_acos(x):  # noqa: ANN001, ANN201
    return math.acos(x)


def m_atan(x):  # noqa: ANN001, ANN201
    return math.atan(x)


def m_sinh(x):  # noqa: ANN001, ANN201
    return math.sinh(x)


def m_cosh(x):  # noqa: ANN001, ANN201
    return math.cosh(x)


def m_tanh(x):  # noqa: ANN001, ANN201
    return math.tanh(x)


def m_asinh(x):  # noqa: ANN001, ANN201
    return math.asinh(x)


def m_acosh(x):  # noqa: ANN001, ANN201
    return math.acosh(x)


def m_atanh(x):  # noqa: ANN001, ANN201
    return math.atanh(x)


def m_erf(x):  # noqa: ANN001, ANN201
    return math.erf(x)


def m_erfc(x):  # noqa: ANN001, ANN201
    return math.erfc(x)


def m_gamma(x):  # noqa: ANN001, ANN201
    return math.gamma(x)


def m_lgamma(x):  # noqa: ANN001, ANN201
    return math.lgamma(x)


def m_fabs(x):  # noqa: ANN001, ANN201
    return math.fabs(x)


def m_floor(x):  # noqa: ANN001, ANN201
    return math.floor(x)


def m_ceil(x):  # noqa: ANN001, ANN201
    return math.ceil(x)


def m_trunc(x):  # noqa: ANN001, ANN201
    return math.trunc(x)


def m_isnan(x):  # noqa: ANN001, ANN201
    return math.isnan(x)


def m_isinf(x):  # noqa: ANN001, ANN201
    return math.isinf(x)


def m_isfinite(x):  # noqa: ANN001, ANN201
    return math.isfinite(x)


def m_degrees(x):  # noqa: ANN001, ANN201
    return math.degrees(x)


def m_radians(x):  # noqa: ANN001, ANN201
    return math.radians(x)


def m2_atan2(x, y):  # noqa: ANN001, ANN201
    return math.atan2(x, y)


def m2_hypot(x, y):  # noqa: ANN001, ANN201
    return math.hypot(x, y)


def m2_copysign(x, y):  # noqa: ANN001, ANN201
    return math.copysign(x, y)


def m2_fmod(x, y):  # noqa: ANN001, ANN201
    return math.fmod(x, y)


def m2_pow(x, y):  # noqa: ANN001, ANN201
    return math.pow(x, y)


def m2_log(x, y):  # noqa: ANN001, ANN201
    return math.log(x, y)


MATH_KERNELS = {
    "sqrt": m_sqrt,
    "exp": m_exp,
    "expm1": m_expm1,
    "log": m_log,
    "log1p": m_log1p,
    "log2": m_log2,
    "log10": m_log10,
    "sin": m_sin,
    "cos": m_cos,
    "tan": m_tan,
    "asin": m_asin,
    "acos": m_acos,
    "atan": m_atan,
    "sinh": m_sinh,
    "cosh": m_cosh,
    "tanh": m_tanh,
    "asinh": m_asinh,
    "acosh": m_acosh,
    "atanh": m_atanh,
    "erf": m_erf,
    "erfc": m_erfc,
    "gamma": m_gamma,
    "lgamma": m_lgamma,
    "fabs": m_fabs,
    "floor": m_floor,
    "ceil": m_ceil,
    "trunc": m_trunc,
    "isnan": m_isnan,
    "isinf": m_isinf,
    "isfinite": m_isfinite,
    "degrees": m_degrees,
    "radians": m_radians,
    "atan2/2": m2_atan2,
    "hypot/2": m2_hypot,
    "copysign/2": m2_copysign,
    "fmod/2": m2_fmod,
    "pow/2": m2_pow,
    "log/2": m2_log,
}
