"""More NumPy ufuncs (inverse hyperbolics, `square`, `radians`, `logaddexp`, `copysign`,
`heaviside`, `fmod`, `gcd`, bitwise and logical functions, ...) and `np.round`/`np.around`.

Each ufunc is an element emitter plugged into the elementwise machinery of `ufuncs` (loop
dtypes from NumPy's own type resolution, broadcasting, fusion), with NumPy's element
semantics (NumPy's `npy_logaddexp`, C `fmod`, NaN rules of `fmax`/`fmin`, ...).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.lib import scalar, ufuncout
from jitcore.lib.loops import Recipe, ScalarFn
from jitcore.lib.registry import Operand, Resolved, register_function, register_method
from jitcore.lib.ufuncs import (
    _binary_element,
    _elementwise_resolved,
    _result_type,
    check_weak_ints,
    loop_dtypes,
)

Element = Callable[..., ir.Value]


def _c(value: float | int | bool, t: T.Type) -> ir.Const:
    return ir.Const(value, type=t)


def _float_const(x: ir.Value, value: float) -> ir.Const:
    return _c(value, x.type)  # type: ignore[arg-type]


def _scalar_t(x: ir.Value) -> T.Scalar:
    t = x.type
    assert isinstance(t, T.Scalar)
    return t


# --- unary elements ------------------------------------------------------------------------


def _libm(fn: str) -> Element:
    return lambda b, x: b.intrinsic(fn, [x], _scalar_t(x))


def _scale(factor: float) -> Element:
    return lambda b, x: b.binop("mul", x, _float_const(x, factor))


def _square(b: LowBuilder, x: ir.Value) -> ir.Value:
    t = _scalar_t(x)
    if t.is_bool:
        return b.binop("and", x, x)
    return b.binop("mul", x, x)


def _reciprocal(b: LowBuilder, x: ir.Value) -> ir.Value:
    t = _scalar_t(x)
    if t.is_float:
        return b.binop("div", _c(1.0, t), x)
    if t.is_bool:
        return _c(True, t)
    zero = b.cmp("eq", x, _c(0, t))
    safe = b.select(zero, _c(1, t), x)
    quotient = b.binop("tdiv", _c(1, t), safe)
    # NumPy on x86-64: 1/0 is the minimum for 32- and 64-bit signed ints, 0 otherwise
    by_zero = int(np.iinfo(t.dtype).min) if t.is_signed and t.bits >= 32 else 0
    return b.select(zero, _c(by_zero, t), quotient)


def _conjugate(b: LowBuilder, x: ir.Value) -> ir.Value:
    t = _scalar_t(x)
    if t.is_complex:
        part = T.complex_part(t)
        return b.complex(b.real(x), b.emit(ir.UnaryOp("neg", b.imag(x), type=part)), t)
    return x


def _signbit(b: LowBuilder, x: ir.Value) -> ir.Value:
    t = _scalar_t(x)
    if t.is_float:
        one = _c(1.0, t)
        return b.cmp("lt", b.intrinsic("copysign", [one, x], t), _c(0.0, t))
    if t.is_signed:
        return b.cmp("lt", x, _c(0, t))
    return _c(False, T.BOOL)


def _logical_not(b: LowBuilder, x: ir.Value) -> ir.Value:
    return b.not_(scalar.truth(b, x))


UNARY: dict[str, Element] = {
    "arcsinh": _libm("asinh"),
    "arccosh": _libm("acosh"),
    "arctanh": _libm("atanh"),
    "exp2": _libm("exp2"),
    "cbrt": _libm("cbrt"),
    "fabs": _libm("fabs"),
    "radians": _scale(math.pi / 180.0),
    "deg2rad": _scale(math.pi / 180.0),
    "degrees": _scale(180.0 / math.pi),
    "rad2deg": _scale(180.0 / math.pi),
    "square": _square,
    "reciprocal": _reciprocal,
    "signbit": _signbit,
    "logical_not": _logical_not,
    "conjugate": _conjugate,
}
_COMPLEX_OK = {"square", "conjugate"}

# --- binary elements -----------------------------------------------------------------------

_LN2 = math.log(2.0)


def _logaddexp(base2: bool) -> Element:
    """NumPy's npy_logaddexp(2): exact for equal arguments (infinities included)."""

    def emit(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
        t = _scalar_t(x)
        equal = b.cmp("eq", x, y)
        tmp = b.binop("sub", x, y)
        if base2:
            same = b.binop("add", x, _c(1.0, t))

            def tail(v: ir.Value) -> ir.Value:  # log2(1 + 2**v)
                return b.binop(
                    "mul",
                    b.intrinsic("log1p", [b.intrinsic("exp2", [v], t)], t),
                    _c(1.0 / _LN2, t),
                )
        else:
            same = b.binop("add", x, _c(_LN2, t))

            def tail(v: ir.Value) -> ir.Value:
                return b.intrinsic("log1p", [b.intrinsic("exp", [v], t)], t)

        neg = b.emit(ir.UnaryOp("neg", tmp, type=t))
        positive = b.binop("add", x, tail(neg))
        other = b.binop("add", y, tail(tmp))
        value = b.select(b.cmp("gt", tmp, _c(0.0, t)), positive, other)
        value = b.select(b.isnan(tmp), tmp, value)
        return b.select(equal, same, value)

    return emit


def _copysign(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    return b.intrinsic("copysign", [x, y], _scalar_t(x))


def _heaviside(b: LowBuilder, x: ir.Value, h: ir.Value) -> ir.Value:
    t = _scalar_t(x)
    zero, one = _c(0.0, t), _c(1.0, t)
    value = b.select(b.cmp("lt", x, zero), zero, b.select(b.cmp("gt", x, zero), one, h))
    return b.select(b.isnan(x), x, value)


def _fmod(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    t = _scalar_t(x)
    if t.is_float:
        return b.intrinsic("frem", [x, y], t)
    if t.is_bool:
        return _c(False, t)
    zero = b.cmp("eq", y, _c(0, t))
    minus_one = b.cmp("eq", y, _c(-1, t)) if t.is_signed else _c(False, T.BOOL)
    bad = b.or_(zero, minus_one)
    safe = b.select(bad, _c(1, t), y)
    return b.select(bad, _c(0, t), b.binop("trem", x, safe))


def _fminmax(smaller: bool) -> Element:
    def emit(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
        t = _scalar_t(x)
        if not t.is_float:
            op = "lt" if smaller else "gt"
            return b.select(b.cmp(op, x, y), x, y)
        return b.intrinsic("minnum" if smaller else "maxnum", [x, y], t)

    return emit


def _gcd(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    t = _scalar_t(x)
    g = b.intrinsic("gcd", [x, y], t)
    if t.is_signed:
        return b.select(b.cmp("lt", g, _c(0, t)), b.emit(ir.UnaryOp("neg", g, type=t)), g)
    return g


def _abs_int(b: LowBuilder, x: ir.Value) -> ir.Value:
    t = _scalar_t(x)
    if not t.is_signed:
        return x
    return b.select(b.cmp("lt", x, _c(0, t)), b.emit(ir.UnaryOp("neg", x, type=t)), x)


def _lcm(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    """NumPy's npy_lcm: |x| / gcd * |y|, wrapping on overflow; 0 when gcd is 0."""
    t = _scalar_t(x)
    g = _gcd(b, x, y)
    zero = b.cmp("eq", g, _c(0, t))
    q = b.binop("tdiv", _abs_int(b, x), b.select(zero, _c(1, t), g))
    return b.select(zero, _c(0, t), b.binop("mul", q, _abs_int(b, y)))


def _logical(op: str) -> Element:
    def emit(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
        return b.binop(op, scalar.truth(b, x), scalar.truth(b, y), T.BOOL)

    return emit


def _float_power(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    return _binary_element("pow")(b, x, y)


BINARY: dict[str, Element] = {
    "logaddexp": _logaddexp(False),
    "logaddexp2": _logaddexp(True),
    "copysign": _copysign,
    "heaviside": _heaviside,
    "fmod": _fmod,
    "fmax": _fminmax(False),
    "fmin": _fminmax(True),
    "gcd": _gcd,
    "lcm": _lcm,
    "logical_and": _logical("and"),
    "logical_or": _logical("or"),
    "logical_xor": _logical("xor"),
    "float_power": _float_power,
    "bitwise_and": _binary_element("and"),
    "bitwise_or": _binary_element("or"),
    "bitwise_xor": _binary_element("xor"),
    "left_shift": _binary_element("shl"),
    "right_shift": _binary_element("shr"),
    "equal": _binary_element("eq"),
    "not_equal": _binary_element("ne"),
    "less": _binary_element("lt"),
    "less_equal": _binary_element("le"),
    "greater": _binary_element("gt"),
    "greater_equal": _binary_element("ge"),
}

_INT_ONLY = {"gcd", "lcm", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"}


def _rule(
    name: str, element: Element
) -> Callable[[list[Operand], dict[str, Operand]], Resolved | None]:
    ufunc = getattr(np, name)

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        out_op, rest = ufuncout.split_out(name, ufunc.nin, args, kwargs)
        if rest:
            raise TypingError(
                f"np.{name}: keyword arguments are not supported ({', '.join(rest)})"
            )
        if len(args) < ufunc.nin:
            return None
        inputs = args[: ufunc.nin]
        dtypes = loop_dtypes(ufunc, inputs)
        ins, out = dtypes[: ufunc.nin], dtypes[-1]
        if any(t.is_complex for t in ins) and name not in _COMPLEX_OK:
            raise TypingError(f"np.{name} of complex numbers is not supported")

        def prepare(b: LowBuilder, v: list[ir.Value]) -> list[ir.Value]:
            return [check_weak_ints(b, x, op, t) for x, op, t in zip(v, inputs, ins)]

        def fn(b: LowBuilder, xs: list[ir.Value]) -> ir.Value:
            value = element(b, *[b.cast(x, t) for x, t in zip(xs, ins)])
            return b.cast(value, out)

        scalar_fn: ScalarFn = fn
        recipe = Recipe(out, scalar_fn, prepare)
        if out_op is not None:  # np.hypot(a, b, out=c)
            return ufuncout.into(name, recipe, args, out_op, ufunc.nin, kwargs)
        return _elementwise_resolved(len(args), _result_type(args, out), recipe)

    return rule


def _params(name: str, nin: int) -> str:
    kind = "int" if name in _INT_ONLY else ("number" if name in _COMPLEX_OK else "real")
    array = "intarray" if name in _INT_ONLY else "array"
    if nin == 1:
        return f"x: {kind} | {array}"
    return f"x1: {kind} | {array}, x2: {kind} | {array}"


for _name, _element in UNARY.items():
    register_function(getattr(np, _name), params=_params(_name, 1), listed_as=f"np.{_name}")(
        _rule(_name, _element)
    )
for _name, _element in BINARY.items():
    register_function(getattr(np, _name), params=_params(_name, 2), listed_as=f"np.{_name}")(
        _rule(_name, _element)
    )


# --- round ---------------------------------------------------------------------------------


def _round_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """np.round(a, decimals): NumPy scales by 10**decimals, rounds half to even and scales
    back, in the array's own float dtype; integers are unchanged for decimals >= 0 and
    rounded through float64 for negative decimals."""
    if not args:
        return None
    kw = dict(kwargs)
    decimals_op = kw.pop("decimals", args[1] if len(args) > 1 else None)
    if kw.pop("out", None) is not None or kw:
        raise TypingError("np.round: only `decimals` is supported")
    decimals = 0
    if decimals_op is not None:
        if not (decimals_op.is_const and isinstance(decimals_op.const, int)):
            raise TypingError("np.round: decimals must be a constant integer")
        decimals = decimals_op.const
    t = args[0].type
    dtype = t.dtype if isinstance(t, T.Array) else t
    if not isinstance(dtype, T.Scalar) or dtype.is_complex:
        raise TypingError("np.round takes real numbers or arrays of them")
    if dtype.is_bool:  # NumPy rounds booleans into float16, a dtype compiled code lacks
        raise TypingError(
            "np.round of booleans: NumPy returns float16, which compiled code does not have",
            hint="convert first: np.round(a.astype(np.float32))",
        )
    factor = 10.0 ** abs(decimals)

    def fn(b: LowBuilder, xs: list[ir.Value]) -> ir.Value:
        x = xs[0]
        if dtype.kind in "iub":
            if decimals >= 0:
                return x
            f = b.cast(x, T.F64)
            f = b.binop("div", f, _c(factor, T.F64))
            f = b.intrinsic("roundeven", [f], T.F64)
            return b.cast(b.binop("mul", f, _c(factor, T.F64)), dtype)
        scaled = b.binop("mul" if decimals >= 0 else "div", x, _c(factor, dtype))
        rounded = b.intrinsic("roundeven", [scaled], dtype)
        return b.binop("div" if decimals >= 0 else "mul", rounded, _c(factor, dtype))

    result: T.Type = T.Array(dtype, t.ndim, "C") if isinstance(t, T.Array) else dtype
    return _elementwise_resolved(len(args), result, Recipe(dtype, fn))


for _obj in (np.round, np.around):
    register_function(
        _obj,
        params="a: real | array, decimals?: const",
        notes="decimals a constant; integers with negative decimals round through float64",
        listed_as=f"np.{_obj.__name__}",
    )(_round_rule)
register_method(T.Array, "round", params="decimals?: const")(_round_rule)
