"""One kernel per NumPy function on arrays (jitcore compiles from source files)."""

import numpy as np


def u_sqrt(a):  # noqa: ANN001, ANN201
    return np.sqrt(a)


def u_exp(a):  # noqa: ANN001, ANN201
    return np.exp(a)


def u_log(a):  # noqa: ANN001, ANN201
    return np.log(a)


def u_log1p(a):  # noqa: ANN001, ANN201
    return np.log1p(a)


def u_expm1(a):  # noqa: ANN001, ANN201
    return np.expm1(a)


def u_sin(a):  # noqa: ANN001, ANN201
    return np.sin(a)


def u_cos(a):  # noqa: ANN001, ANN201
    return np.cos(a)


def u_tan(a):  # noqa: ANN001, ANN201
    return np.tan(a)


def u_tanh(a):  # noqa: ANN001, ANN201
    return np.tanh(a)


def u_abs(a):  # noqa: ANN001, ANN201
    return np.abs(a)


def u_absolute(a):  # noqa: ANN001, ANN201
    return np.absolute(a)


def u_floor(a):  # noqa: ANN001, ANN201
    return np.floor(a)


def u_ceil(a):  # noqa: ANN001, ANN201
    return np.ceil(a)


def u_sign(a):  # noqa: ANN001, ANN201
    return np.sign(a)


def u_isnan(a):  # noqa: ANN001, ANN201
    return np.isnan(a)


def u_isinf(a):  # noqa: ANN001, ANN201
    return np.isinf(a)


def u_isfinite(a):  # noqa: ANN001, ANN201
    return np.isfinite(a)


def u_arctan2(a, b):  # noqa: ANN001, ANN201
    return np.arctan2(a, b)


def u_minimum(a, b):  # noqa: ANN001, ANN201
    return np.minimum(a, b)


def u_maximum(a, b):  # noqa: ANN001, ANN201
    return np.maximum(a, b)


def u_power(a, b):  # noqa: ANN001, ANN201
    return np.power(a, b)


def u_hypot(a, b):  # noqa: ANN001, ANN201
    return np.hypot(a, b)
