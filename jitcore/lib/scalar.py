"""Scalar emitters shared by Python's and NumPy's semantics: division and modulo, powers,
complex division and elementary complex functions, truth.

Each emits low IR for one scalar operation; the operator, builtin, math and ufunc rules choose
the flavour (Python raises on a zero divisor, NumPy gives inf, nan or 0).

Layer: depends on `ir` only, so every rule module can use it.
"""

from __future__ import annotations

import math
import platform
import sys
from typing import cast

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64

# Whether compiled code knows the C calling convention of complex numbers (x86-64 System V:
# Linux, macOS), and so can call C99's complex functions (`csqrt`, `cpow`, ...) as NumPy does.
C_COMPLEX_ABI = platform.machine().lower() in {"x86_64", "amd64"} and sys.platform in {
    "linux",
    "darwin",
}

# The messages of Python's math module.
DOMAIN = "math domain error"
RANGE = "math range error"


def lower_complex_div(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    return complex_div(b, args[0], args[1])


def complex_div(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    """CPython's `_Py_c_quot` (Smith's method with scaling by the larger component); a zero
    divisor raises ZeroDivisionError. NumPy's division is `numpy_complex_div`."""
    part = T.complex_part(x.type)  # type: ignore[arg-type]
    a, bb, c, d = b.real(x), b.imag(x), b.real(y), b.imag(y)
    zero = ir.Const(0.0, type=part)
    divisor_zero = b.and_(b.cmp("eq", c, zero), b.cmp("eq", d, zero))
    b.raise_if(divisor_zero, ZeroDivisionError, "division by zero")
    abs_c = b.intrinsic("fabs", [c], part)
    abs_d = b.intrinsic("fabs", [d], part)
    c_big = b.cmp("ge", abs_c, abs_d)
    # |c| >= |d|: ratio = d/c, denom = c + d*ratio,
    # re = (a + b*ratio)/denom, im = (b - a*ratio)/denom
    r1 = b.binop("div", d, c)
    den1 = b.binop("add", c, b.binop("mul", d, r1))
    re1 = b.binop("div", b.binop("add", a, b.binop("mul", bb, r1)), den1)
    im1 = b.binop("div", b.binop("sub", bb, b.binop("mul", a, r1)), den1)
    # otherwise: ratio = c/d, denom = c*ratio + d,
    # re = (a*ratio + b)/denom, im = (b*ratio - a)/denom
    r2 = b.binop("div", c, d)
    den2 = b.binop("add", b.binop("mul", c, r2), d)
    re2 = b.binop("div", b.binop("add", b.binop("mul", a, r2), bb), den2)
    im2 = b.binop("div", b.binop("sub", b.binop("mul", bb, r2), a), den2)
    return b.complex(b.select(c_big, re1, re2), b.select(c_big, im1, im2), x.type)  # type: ignore[arg-type]


def numpy_complex_div(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    """NumPy's complex division (its `divide` loop, also its scalars'): Smith's method with
    the reciprocal of the denominator multiplied in (`(a + b*r) * (1/den)`, not CPython's
    `/ den`, so the last bit can differ from `complex_div`); a zero divisor gives inf or nan.
    `np.mean` of complex numbers divides so: the sum times 1/n."""
    part = T.complex_part(x.type)  # type: ignore[arg-type]
    a, bb, c, d = b.real(x), b.imag(x), b.real(y), b.imag(y)
    one, zero = ir.Const(1.0, type=part), ir.Const(0.0, type=part)
    abs_c = b.intrinsic("fabs", [c], part)
    abs_d = b.intrinsic("fabs", [d], part)
    c_big = b.cmp("ge", abs_c, abs_d)
    # |c| >= |d|: r = d/c, scl = 1/(c + d*r), re = (a + b*r)*scl, im = (b - a*r)*scl;
    # both zero: a/|c|, b/|c| (inf or nan)
    r1 = b.binop("div", d, c)
    scl1 = b.binop("div", one, b.binop("add", c, b.binop("mul", d, r1)))
    re1 = b.binop("mul", b.binop("add", a, b.binop("mul", bb, r1)), scl1)
    im1 = b.binop("mul", b.binop("sub", bb, b.binop("mul", a, r1)), scl1)
    both_zero = b.and_(b.cmp("eq", abs_c, zero), b.cmp("eq", abs_d, zero))
    re1 = b.select(both_zero, b.binop("div", a, abs_c), re1)
    im1 = b.select(both_zero, b.binop("div", bb, abs_c), im1)
    # otherwise: r = c/d, scl = 1/(d + c*r), re = (a*r + b)*scl, im = (b*r - a)*scl
    r2 = b.binop("div", c, d)
    scl2 = b.binop("div", one, b.binop("add", d, b.binop("mul", c, r2)))
    re2 = b.binop("mul", b.binop("add", b.binop("mul", a, r2), bb), scl2)
    im2 = b.binop("mul", b.binop("sub", b.binop("mul", bb, r2), a), scl2)
    return b.complex(b.select(c_big, re1, re2), b.select(c_big, im1, im2), x.type)  # type: ignore[arg-type]


def numpy_complex_pow(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    """NumPy's `npy_cpow`: x**0 is 1; 0**y is 0 when y's real part is positive, else NaN;
    an integral real y with |y| < 100 multiplies (x, x*x, x*(x*x), else by squaring, then
    1/r for a negative y), so small powers are exact as NumPy's; otherwise C's `cpow`."""
    t = cast(T.Scalar, x.type)
    part = T.complex_part(t)
    xr, xi, yr, yi = b.real(x), b.imag(x), b.real(y), b.imag(y)
    zero, one = ir.Const(0.0, type=part), ir.Const(1.0, type=part)
    nan = ir.Const(float("nan"), type=part)
    unit = b.complex(one, zero, t)
    # the general case
    general = (
        b.intrinsic("cpow", [x, y], t)
        if C_COMPLEX_ABI
        else b.cast(lower_complex_pow(b, [b.cast(x, T.C128), b.cast(y, T.C128)], {}), t)
    )
    integral, acc = _integral_power(b, x, y, "lt")  # |y| < 100
    by_squaring = b.select(b.cmp("lt", yr, zero), numpy_complex_div(b, unit, acc), acc)
    square = b.binop("mul", x, x)
    small = b.select(
        b.cmp("eq", yr, one),
        x,
        b.select(
            b.cmp("eq", yr, ir.Const(2.0, type=part)),
            square,
            b.select(
                b.cmp("eq", yr, ir.Const(3.0, type=part)), b.binop("mul", x, square), by_squaring
            ),
        ),
    )
    result = b.select(integral, small, general)
    # a zero base: 0 for an exponent of positive real part, else NaN
    zero_base = b.and_(b.cmp("eq", xr, zero), b.cmp("eq", xi, zero))
    positive = b.cmp("gt", yr, zero)
    of_zero = b.select(positive, b.complex(zero, zero, t), b.complex(nan, nan, t))
    result = b.select(zero_base, of_zero, result)
    zero_exponent = b.and_(b.cmp("eq", yr, zero), b.cmp("eq", yi, zero))
    return b.select(zero_exponent, unit, result)


def _integral_power(
    b: LowBuilder, x: ir.Value, y: ir.Value, within: str
) -> tuple[ir.Value, ir.Value]:
    """Whether `y` is real and integral with |y| `within` ("lt" or "le") 100, and x**|y| by
    squaring (7 bits: NumPy's npy_cpow and CPython's c_powu multiply in this order)."""
    part = T.complex_part(cast(T.Scalar, x.type))
    yr, yi = b.real(y), b.imag(y)
    zero = ir.Const(0.0, type=part)
    size = b.intrinsic("fabs", [yr], part)
    integral = b.and_(
        b.and_(b.cmp("eq", yi, zero), b.cmp("eq", b.intrinsic("trunc", [yr], part), yr)),
        b.cmp(within, size, ir.Const(100.0, type=part)),
    )
    n = b.cast(b.select(integral, size, zero), T.I64)
    acc, power = b.complex(ir.Const(1.0, type=part), zero, x.type), x  # type: ignore[arg-type]
    for bit in range(7):
        has_bit = b.cmp("ne", b.binop("and", n, i64(1 << bit)), i64(0))
        acc = b.select(has_bit, b.binop("mul", acc, power), acc)
        power = b.binop("mul", power, power)
    return integral, acc


def int_divmod(
    b: LowBuilder,
    x: ir.Value,
    y: ir.Value,
    numpy_rules: bool = False,
    message: str = "integer division or modulo by zero",
) -> tuple[ir.Value, ir.Value]:
    """Floor division and modulo of ints: floor correction, and INT_MIN // -1 wrapping instead
    of trapping. A zero divisor raises ZeroDivisionError(message) (Python: `%` alone says
    "integer modulo by zero"), or gives 0 and 0 (NumPy)."""
    t = x.type
    zero = ir.Const(0, type=t)
    is_zero = b.cmp("eq", y, zero)
    if not numpy_rules:
        b.raise_if(is_zero, ZeroDivisionError, message)
    safe_y = b.select(is_zero, ir.Const(1, type=t), y) if numpy_rules else y
    if not t.is_signed:  # type: ignore[union-attr]
        q, r = b.binop("tdiv", x, safe_y), b.binop("trem", x, safe_y)
    else:
        is_m1 = b.cmp("eq", safe_y, ir.Const(-1, type=t))
        safe_y = b.select(is_m1, ir.Const(1, type=t), safe_y)
        q = b.binop("tdiv", x, safe_y)
        r = b.binop("trem", x, safe_y)
        q = b.select(is_m1, b.binop("sub", zero, x), q)
        r = b.select(is_m1, zero, r)
        # floor: when the remainder is non-zero and its sign differs from the divisor's
        fix = b.and_(b.cmp("ne", r, zero), b.cmp("lt", b.binop("xor", r, y), zero))
        q = b.select(fix, b.binop("sub", q, ir.Const(1, type=t)), q)
        r = b.select(fix, b.binop("add", r, y), r)
    if numpy_rules:
        return b.select(is_zero, zero, q), b.select(is_zero, zero, r)
    return q, r


def float_divmod(
    b: LowBuilder, x: ir.Value, y: ir.Value, what: str | None
) -> tuple[ir.Value, ir.Value]:
    """CPython's `float_divmod`, step for step, so results agree to the bit. A zero divisor
    raises ZeroDivisionError(what); with `what=None` (NumPy's npy_divmod) it gives x / y and
    fmod(x, y) instead."""
    t = cast(T.Scalar, x.type)
    zero = ir.Const(0.0, type=t)
    y_zero = b.cmp("eq", y, zero)
    if what is not None:
        b.raise_if(y_zero, ZeroDivisionError, what)
    fmod = b.intrinsic("frem", [x, y], t)
    div = b.binop("div", b.binop("sub", x, fmod), y)
    mod_nonzero = b.cmp("ne", fmod, zero)
    signs_differ = b.binop("xor", b.cmp("lt", y, zero), b.cmp("lt", fmod, zero), T.BOOL)
    adjust = b.and_(mod_nonzero, signs_differ)
    mod = b.select(adjust, b.binop("add", fmod, y), fmod)
    div = b.select(adjust, b.binop("sub", div, ir.Const(1.0, type=t)), div)
    mod = b.select(mod_nonzero, mod, b.intrinsic("copysign", [zero, y], t))
    floordiv = b.intrinsic("floor", [div], t)
    round_up = b.cmp("gt", b.binop("sub", div, floordiv), ir.Const(0.5, type=t))
    floordiv = b.select(round_up, b.binop("add", floordiv, ir.Const(1.0, type=t)), floordiv)
    div_zero = b.cmp("eq", div, zero)
    signed_zero = b.intrinsic("copysign", [zero, b.binop("div", x, y)], t)
    floordiv = b.select(div_zero, signed_zero, floordiv)
    if what is None:
        return b.select(y_zero, b.binop("div", x, y), floordiv), b.select(y_zero, fmod, mod)
    return floordiv, mod


def lower_complex_pow(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    """CPython's complex `**`: by squaring for an integral exponent within 100 (`c_powi`),
    else `_Py_c_pow` (polar form); ZeroDivisionError for 0 to a negative or complex power,
    OverflowError for an infinite result."""
    x, y = args
    t = x.type
    part = T.complex_part(t)  # type: ignore[arg-type]
    zero = ir.Const(0.0, type=part)
    xr, xi, yr, yi = b.real(x), b.imag(x), b.real(y), b.imag(y)
    y_zero = b.and_(b.cmp("eq", yr, zero), b.cmp("eq", yi, zero))
    x_zero = b.and_(b.cmp("eq", xr, zero), b.cmp("eq", xi, zero))
    bad = b.and_(
        b.and_(b.not_(y_zero), x_zero), b.or_(b.cmp("ne", yi, zero), b.cmp("lt", yr, zero))
    )
    b.raise_if(bad, ZeroDivisionError, "0.0 to a negative or complex power")
    vabs = b.intrinsic("hypot", [xr, xi], part)
    length = b.intrinsic("pow", [vabs, yr], part)
    at = b.intrinsic("atan2", [xi, xr], part)
    phase = b.binop("mul", at, yr)
    length = b.binop("div", length, b.intrinsic("exp", [b.binop("mul", at, yi)], part))
    phase = b.binop("add", phase, b.binop("mul", yi, b.intrinsic("log", [vabs], part)))
    re = b.binop("mul", length, b.intrinsic("cos", [phase], part))
    im = b.binop("mul", length, b.intrinsic("sin", [phase], part))
    general = b.complex(re, im, t)  # type: ignore[arg-type]
    one = b.complex(ir.Const(1.0, type=part), zero, t)  # type: ignore[arg-type]
    zero_c = b.complex(zero, zero, t)  # type: ignore[arg-type]
    # CPython's c_powi: an integral exponent within 100 multiplies by squaring (exact where
    # the polar form is not: (1+2j)**2 is -3+4j), and divides 1 by that for a negative one
    integral, acc = _integral_power(b, x, y, "le")
    inverse = b.and_(integral, b.cmp("lt", yr, zero))
    acc_zero = b.and_(b.cmp("eq", b.real(acc), zero), b.cmp("eq", b.imag(acc), zero))
    b.raise_if(b.and_(inverse, acc_zero), ZeroDivisionError, "0.0 to a negative or complex power")
    quotient = complex_div(b, one, b.select(inverse, acc, one))
    by_squaring = b.select(inverse, quotient, acc)
    result = b.select(integral, by_squaring, b.select(x_zero, zero_c, general))
    result = b.select(y_zero, one, result)
    infinite = b.or_(b.isinf(b.real(result)), b.isinf(b.imag(result)))
    b.raise_if(infinite, OverflowError, "complex exponentiation")
    return result


def truth(b: LowBuilder, x: ir.Value) -> ir.Value:
    """Python's `bool(x)` of a scalar (NaN is true)."""
    t = x.type
    assert isinstance(t, T.Scalar)
    if t.is_bool:
        return x
    if t.is_complex:
        part = T.complex_part(t)
        zero = ir.Const(0.0, type=part)
        return b.or_(b.cmp("ne", b.real(x), zero), b.cmp("ne", b.imag(x), zero))
    return b.cmp("ne", x, ir.Const(0.0 if t.is_float else 0, type=t))


def float_pow(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    """x ** y; a small constant integer exponent becomes multiplications (within an ULP of
    C's pow, and several times faster)."""
    if (
        isinstance(y, ir.Const)
        and isinstance(y.value, int | float)
        and float(y.value).is_integer()
    ):
        n = int(y.value)
        if 0 <= n <= 4:
            # (a constant `x` is multiplied too: `2.5 ** 2` is 6.25, found by the fuzzer)
            result: ir.Value | None = None
            for _ in range(n):
                result = x if result is None else b.binop("mul", result, x)
            return ir.Const(1.0, type=x.type) if result is None else result
    if isinstance(y, ir.Const):
        return b.intrinsic("pow", [x, y], cast(T.Type, x.type))
    return _pow_small_integer_or_call(b, x, y)


def _pow_small_integer_or_call(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    """x ** y with y known only at run time (`abs(d) ** p`, p an int): when y is one of
    0, 1, 2, 3, 4, multiplications (within 2 ULPs of C's pow, which costs tens of cycles);
    otherwise pow. The test is on a value that is usually loop-invariant, so the branch
    predicts perfectly and LLVM unswitches the loop, whose fast copy then vectorizes."""
    t = cast(T.Scalar, x.type)
    small = b.and_(
        b.and_(b.cmp("ge", y, ir.Const(0.0, type=t)), b.cmp("le", y, ir.Const(4.0, type=t))),
        b.cmp("eq", b.intrinsic("floor", [y], t), y),
    )
    fast, slow, join = b.new_block("powsmall"), b.new_block("powcall"), b.new_block("powdone")
    b.branch(small, fast, slow)
    b.position(fast)
    n = b.cast(y, T.I64)
    x2 = b.binop("mul", x, x)
    by_n = [ir.Const(1.0, type=t), x, x2, b.binop("mul", x2, x), b.binop("mul", x2, x2)]
    r_fast = by_n[0]
    for k in range(1, 5):
        r_fast = b.select(b.cmp("eq", n, ir.Const(k, type=T.I64)), by_n[k], r_fast)
    fast_end = b.block
    b.jump(join)
    b.position(slow)
    r_slow = b.intrinsic("pow", [x, y], t)
    slow_end = b.block
    b.jump(join)
    b.position(join)
    return b.phi(t, {fast_end: r_fast, slow_end: r_slow})


def csqrt(b: LowBuilder, z: ir.Value) -> ir.Value:
    """Principal square root, the branch cut on the negative real axis as in cmath."""
    re, im = b.real(z), b.imag(z)
    zero = ir.Const(0.0, type=T.F64)
    two = ir.Const(2.0, type=T.F64)
    r = b.intrinsic("hypot", [re, im], T.F64)
    t_pos = b.intrinsic("sqrt", [b.binop("div", b.binop("add", r, re), two)], T.F64)
    t_neg = b.intrinsic("sqrt", [b.binop("div", b.binop("sub", r, re), two)], T.F64)
    nonneg = b.cmp("ge", re, zero)
    safe_pos = b.select(b.cmp("eq", t_pos, zero), ir.Const(1.0, type=T.F64), t_pos)
    safe_neg = b.select(b.cmp("eq", t_neg, zero), ir.Const(1.0, type=T.F64), t_neg)
    pos_im = b.select(
        b.cmp("eq", t_pos, zero), im, b.binop("div", im, b.binop("mul", two, safe_pos))
    )
    neg_re = b.binop("div", b.intrinsic("fabs", [im], T.F64), b.binop("mul", two, safe_neg))
    neg_re = b.select(b.cmp("eq", t_neg, zero), zero, neg_re)
    neg_im = b.intrinsic("copysign", [t_neg, im], T.F64)
    return b.complex(b.select(nonneg, t_pos, neg_re), b.select(nonneg, pos_im, neg_im), T.C128)


def cexp(b: LowBuilder, z: ir.Value) -> ir.Value:
    re, im = b.real(z), b.imag(z)
    # Above log(DBL_MAX / e)-ish, exp(re) alone overflows though exp(re) * cos(im) may not:
    # CPython takes exp(re - 1) * cos(im) * e there, and so do we.
    f64 = T.F64
    large = b.cmp("gt", re, ir.Const(708.3964185322641, type=f64))  # CM_LOG_LARGE_DOUBLE
    shifted = b.select(large, b.binop("sub", re, ir.Const(1.0, type=f64)), re)
    m = b.intrinsic("exp", [shifted], f64)
    e = ir.Const(math.e, type=f64)
    out_re = b.binop("mul", m, b.intrinsic("cos", [im], f64))
    out_im = b.binop("mul", m, b.intrinsic("sin", [im], f64))
    out_re = b.select(large, b.binop("mul", out_re, e), out_re)
    out_im = b.select(large, b.binop("mul", out_im, e), out_im)
    finite_in = b.and_(b.isfinite(re), b.isfinite(im))
    finite_out = b.and_(b.isfinite(out_re), b.isfinite(out_im))
    b.raise_if(b.and_(finite_in, b.not_(finite_out)), OverflowError, RANGE)
    return b.complex(out_re, out_im, T.C128)


def extreme(b: LowBuilder, op: str, x: ir.Value, y: ir.Value) -> ir.Value:
    """NumPy's `minimum` / `maximum` of two numbers of one type: a NaN on either side wins."""
    pred = "lt" if op == "minimum" else "gt"
    if cast(T.Scalar, x.type).is_complex:  # lexicographic; x on a tie, as NumPy's loop
        return b.select(b.or_(b.cmp(pred[0] + "e", x, y), b.isnan(x)), x, y)
    if cast(T.Scalar, x.type).is_float:
        return b.select(b.or_(b.cmp(pred, x, y), b.isnan(x)), x, y)
    return b.select(b.cmp(pred, x, y), x, y)


def clog(b: LowBuilder, z: ir.Value) -> ir.Value:
    re, im = b.real(z), b.imag(z)
    r = b.intrinsic("hypot", [re, im], T.F64)
    b.raise_if(b.cmp("eq", r, ir.Const(0.0, type=T.F64)), ValueError, DOMAIN)
    # Near |z| = 1, log(|z|) cancels: CPython takes log1p((am - 1)(am + 1) + an^2) / 2 there
    # (am, an the larger and smaller magnitude of the parts), and so do we.
    f64 = T.F64
    ax, ay = b.intrinsic("fabs", [re], f64), b.intrinsic("fabs", [im], f64)
    am = b.select(b.cmp("gt", ax, ay), ax, ay)
    an = b.select(b.cmp("gt", ax, ay), ay, ax)
    one = ir.Const(1.0, type=f64)
    near = b.binop(
        "add",
        b.binop("mul", b.binop("sub", am, one), b.binop("add", am, one)),
        b.binop("mul", an, an),
    )
    close = b.and_(
        b.cmp("ge", r, ir.Const(0.71, type=f64)), b.cmp("le", r, ir.Const(1.73, type=f64))
    )
    half_log1p = b.binop("mul", b.intrinsic("log1p", [near], f64), ir.Const(0.5, type=f64))
    real = b.select(close, half_log1p, b.intrinsic("log", [r], f64))
    return b.complex(real, b.intrinsic("atan2", [im, re], f64), T.C128)
