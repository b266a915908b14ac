"""Inputs that reach the corners compiled code gets wrong.

Uniformly drawn floats almost never land where a maths routine switches approximation, where
a result overflows or flushes to zero, or where an argument reduction loses precision; ints
almost never land beyond 2**24 or 2**53, where a conversion through a narrower type loses
bits. The strategies here draw those places on purpose, most of the time: the values
themselves, a few representable steps either side of each, values inside the regions where
results turn subnormal, overflow or saturate, and otherwise Hypothesis's usual draws. The
per-operation conformance check (`jitcheck.library`) uses them for every operation of
jitcore's registry, and the default strategies of user kernels for every float value and
every element of an int array (`jitcheck.strategies.elements_of`).
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
from hypothesis import strategies as st

# float64: overflow of exp (709.78) and float32's (88.72), where exp's result turns subnormal
# (-708.4) and then zero (-745.13), large arguments of periodic functions (argument
# reduction), the switch points of piecewise approximations (tanh saturates near 19-22,
# log1p/expm1 take series below ~1e-5), ints beyond 2**24 and 2**53 as floats, the limits.
F64_CORNERS: tuple[float, ...] = (
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, 10.0, -10.0, 19.0, 20.0, 22.0, -22.0,
    1e-5, -1e-5, 1e-8, 1e-16, 2.0**-28, -(2.0**-28), 0.6, 0.625, 0.7, 1.5,
    math.pi, math.pi / 2, math.pi / 4, 3 * math.pi / 4, 100.0, 1e6, 1e10, 1e15, 1e22, -1e22,
    709.78, 709.782712893384, -708.4, -745.13, 88.72, 88.7228391, -87.3, -103.97,
    2.0**24, 2.0**24 + 1, 2.0**53, 2.0**53 + 2, 2.0**31, 2.0**63, -(2.0**63),
    2.2250738585072014e-308, 5e-324, 1e-310, -1e-310, 1.7976931348623157e308,
    -1.7976931348623157e308, 1e308, 3.4028234663852886e38, 1.1754943508222875e-38,
    math.inf, -math.inf, math.nan,
)  # fmt: skip

# float32's own: its overflow and underflow thresholds and where its mantissa runs out
F32_CORNERS: tuple[float, ...] = (
    0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 10.0, 20.0, 88.72, 88.7228391, -87.3, -103.97, 1e-5,
    float(np.float32(math.pi)), 1e6, 1e10, 2.0**24, 2.0**24 + 2, 3.4028234663852886e38,
    1.1754943508222875e-38, 1e-40, 1.401298464324817e-45, math.inf, -math.inf, math.nan,
)  # fmt: skip

INT_CORNERS: tuple[int, ...] = (
    0, 1, -1, 2, -2, 3, 7, 8, 63, 64, 2**24, 2**24 + 1, 2**31 - 1, -(2**31), 2**31, 2**32,
    2**53, 2**53 + 1, -(2**53) - 1, 2**62, 2**63 - 1, -(2**63), -(2**63) + 1,
)  # fmt: skip


# Intervals drawn uniformly (a point list alone reaches a region only at its edges): where
# exp's result is subnormal, where it overflows, float32's exp limits, where tanh
# saturates, where log1p/expm1 switch to series, large arguments of periodic functions, and
# the subnormals themselves.
F64_BANDS: tuple[tuple[float, float], ...] = (
    (-745.13, -708.4), (709.0, 709.79), (-103.98, -87.3), (88.0, 89.0), (-23.0, -9.0),
    (9.0, 23.0), (-1e-4, 1e-4), (1e5, 1e22), (-1e22, -1e5), (5e-324, 2.2250738585072014e-308),
)  # fmt: skip
F32_BANDS: tuple[tuple[float, float], ...] = (
    (-103.97, -87.34), (87.0, 88.72), (-10.0, 10.0), (1e4, 1e10), (1.5e-45, 1.1754942e-38),
)  # fmt: skip


def _steps(value: float, steps: int, dtype: Any) -> float:
    """`value` moved `steps` representable values of `dtype` up (or down when negative)."""
    x = np.asarray(value, dtype=dtype)
    toward = np.asarray(math.inf if steps > 0 else -math.inf, dtype=dtype)
    with np.errstate(all="ignore"):  # stepping past float32's largest value gives inf
        for _ in range(abs(steps)):
            x = np.nextafter(x, toward)
    return float(x)


def corner_floats(
    width: Literal[16, 32, 64] = 64, *, finite_only: bool = False
) -> st.SearchStrategy[float]:
    """Floats of `width` bits, most of them at, next to or between corners; `finite_only`
    leaves out NaN and the infinities."""
    corners = F64_CORNERS if width == 64 else F32_CORNERS
    dtype = np.float64 if width == 64 else np.float32
    if width == 32:
        corners = tuple(float(np.float32(c)) for c in corners)
    finite = [c for c in corners if math.isfinite(c)]
    if finite_only:
        corners = tuple(finite)
    near = st.builds(lambda c, k: _steps(c, k, dtype), st.sampled_from(finite), st.integers(-3, 3))
    bands = F64_BANDS if width == 64 else F32_BANDS
    if width != 64:  # Hypothesis wants float32 bounds exactly representable
        bands = tuple((float(dtype(lo)), float(dtype(hi))) for lo, hi in bands)
    inside = st.sampled_from(bands).flatmap(lambda b: st.floats(b[0], b[1], width=width))
    return st.one_of(
        st.sampled_from(corners),
        near,
        inside,
        st.floats(width=width, allow_nan=not finite_only, allow_infinity=not finite_only),
        st.floats(-100, 100, width=width),
    )


def corner_ints(low: int = -(2**63), high: int = 2**63 - 1) -> st.SearchStrategy[int]:
    """Ints in [low, high], about half of them at or next to a corner."""
    corners = [c for c in INT_CORNERS if low <= c <= high]
    near = st.builds(lambda c, k: min(high, max(low, c + k)), st.sampled_from(corners),
                     st.integers(-2, 2))  # fmt: skip
    return st.one_of(
        st.sampled_from(corners), near, st.integers(low, high), st.integers(max(low, -20), 20)
    )


def corner_complex() -> st.SearchStrategy[complex]:
    part = corner_floats()
    return st.builds(complex, part, part)
