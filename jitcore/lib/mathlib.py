"""The `math` and `cmath` modules, with CPython's error behaviour.

CPython's `math` raises ValueError ("math domain error") when a finite input gives NaN or an
infinite result that is not an overflow (log(0)), and OverflowError ("math range error") when a
finite input overflows (exp(1000)); these emitters check the same conditions after computing
the result, exactly as CPython's `math_1`/`math_2` do. The trigonometric and hyperbolic
cmath functions are kernels (`cmathk`) that follow CPython's `cmathmodule.c` line by line.
"""

from __future__ import annotations

import cmath
import math
from typing import cast

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.lib import cmathk, scalar
from jitcore.lib.builtins import float_to_int
from jitcore.lib.registry import Operand, Resolved, call_kernel, constant, register_function
from jitcore.lib.scalar import DOMAIN, RANGE


def _real_arg(name: str, a: Operand) -> None:
    if not (isinstance(a.type, T.Scalar) and not a.type.is_complex):
        raise TypingError(
            f"math.{name}() needs a real number, got {a.type}",
            hint="use cmath for complex numbers",
        )


def _float_type(args: list[Operand]) -> T.Scalar:
    """math functions compute in double precision, as CPython does."""
    return T.F64


# Functions defined (finite or infinite, never NaN from a number) on the whole real line: no
# checks needed, which keeps loops that call them free of exits.
_TOTAL = {"tanh", "atan", "asinh", "erf", "erfc", "fabs"}


def _checked_1(b: LowBuilder, fn: str, x: ir.Value, can_overflow: bool) -> ir.Value:
    if fn == "sqrt":
        # The domain is known from the input alone (sqrt(-0.0) is -0.0, NaN gives NaN), and a
        # finite number's root is finite: one compare before, no check of the result.
        # A scan before the loop may decide it for every element (`optimize.domainguards`).
        b.raise_unless_guarded(b.cmp("lt", x, ir.Const(0.0, type=x.type)), ValueError, DOMAIN)
        return b.intrinsic(fn, [x], cast(T.Type, x.type))
    r = b.intrinsic(fn, [x], cast(T.Type, x.type))
    if fn in _TOTAL:
        return r
    nan_from_number = b.and_(b.isnan(r), b.not_(b.isnan(x)))
    b.raise_if(nan_from_number, ValueError, DOMAIN)
    inf_from_finite = b.and_(b.isinf(r), b.isfinite(x))
    b.raise_if(
        inf_from_finite,
        OverflowError if can_overflow else ValueError,
        RANGE if can_overflow else DOMAIN,
    )
    return r


def _math_1(name: str, fn: str, can_overflow: bool) -> None:
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if len(args) != 1 or kwargs:
            return None
        _real_arg(name, args[0])
        return Resolved((T.F64,), T.F64, lambda b, v, kw: _checked_1(b, fn, v[0], can_overflow))

    register_function(getattr(math, name), params="x: real")(rule)


for _name, _fn, _overflow in [
    ("sqrt", "sqrt", False),
    ("exp", "exp", True),
    ("expm1", "expm1", True),
    ("log1p", "log1p", False),
    ("log2", "log2", False),
    ("log10", "log10", False),
    ("sin", "sin", False),
    ("cos", "cos", False),
    ("tan", "tan", False),
    ("asin", "asin", False),
    ("acos", "acos", False),
    ("atan", "atan", False),
    ("sinh", "sinh", True),
    ("cosh", "cosh", True),
    ("tanh", "tanh", False),
    ("asinh", "asinh", False),
    ("acosh", "acosh", False),
    ("atanh", "atanh", False),
    ("erf", "erf", False),
    ("erfc", "erfc", False),
    ("fabs", "fabs", False),
]:
    _math_1(_name, _fn, _overflow)

if hasattr(math, "exp2"):
    _math_1("exp2", "exp2", True)
if hasattr(math, "cbrt"):
    _math_1("cbrt", "cbrt", False)


@register_function(math.log, params="x: real, base?: real")
def _log(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or not 1 <= len(args) <= 2:
        return None
    for a in args:
        _real_arg("log", a)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        # CPython's loghelper: log of a non-positive number is a domain error (log(0) too).
        results = []
        for x in v:
            b.raise_if(b.cmp("le", x, ir.Const(0.0, type=T.F64)), ValueError, DOMAIN)
            results.append(b.intrinsic("log", [x], T.F64))
        if len(results) == 1:
            return results[0]
        den = results[1]
        b.raise_if(
            b.cmp("eq", den, ir.Const(0.0, type=T.F64)),
            ZeroDivisionError,
            "float division by zero",
        )
        return b.binop("div", results[0], den)

    return Resolved((T.F64,) * len(args), T.F64, lower)


def _gamma_like(name: str, fn: str) -> None:
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if len(args) != 1 or kwargs:
            return None
        _real_arg(name, args[0])

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            x = v[0]
            is_pole = b.and_(
                b.and_(b.cmp("le", x, ir.Const(0.0, type=T.F64)), b.isfinite(x)),
                b.cmp("eq", b.intrinsic("floor", [x], T.F64), x),
            )
            b.raise_if(is_pole, ValueError, DOMAIN)
            if name == "gamma":
                b.raise_if(b.cmp("eq", x, ir.Const(float("-inf"), type=T.F64)), ValueError, DOMAIN)
            return _checked_1(b, fn, x, True)

        return Resolved((T.F64,), T.F64, lower)

    register_function(
        getattr(math, name),
        params="x: real",
        notes="the C library's, within a few dozen ULPs of CPython's",
    )(rule)


_gamma_like("gamma", "tgamma")
_gamma_like("lgamma", "lgamma")


def _math_2(name: str, fn: str, can_overflow: bool) -> None:
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if len(args) != 2 or kwargs:
            return None
        for a in args:
            _real_arg(name, a)

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            x, y = v
            if name == "fmod":
                b.raise_if(
                    b.and_(b.cmp("eq", y, ir.Const(0.0, type=T.F64)), b.not_(b.isnan(x))),
                    ValueError,
                    DOMAIN,
                )
                b.raise_if(b.and_(b.isinf(x), b.not_(b.isnan(y))), ValueError, DOMAIN)
                # fmod(x, inf) is x for finite x (C agrees)
            r = b.intrinsic(fn, [x, y], T.F64)
            if name in {"atan2", "copysign", "hypot", "fmod"}:
                return r
            nan_bad = b.and_(b.isnan(r), b.and_(b.not_(b.isnan(x)), b.not_(b.isnan(y))))
            b.raise_if(nan_bad, ValueError, DOMAIN)
            inf_bad = b.and_(b.isinf(r), b.and_(b.isfinite(x), b.isfinite(y)))
            b.raise_if(
                inf_bad,
                OverflowError if can_overflow else ValueError,
                RANGE if can_overflow else DOMAIN,
            )
            return r

        return Resolved((T.F64, T.F64), T.F64, lower)

    register_function(getattr(math, name), params="x: real, y: real")(rule)


_math_2("atan2", "atan2", False)
_math_2("hypot", "hypot", True)
_math_2("copysign", "copysign", False)
_math_2("fmod", "frem", False)


@register_function(math.pow, params="x: real, y: real")
def _math_pow(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 2 or kwargs:
        return None
    for a in args:
        _real_arg("pow", a)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        x, y = v
        zero = ir.Const(0.0, type=T.F64)
        b.raise_if(
            b.and_(b.cmp("eq", x, zero), b.and_(b.cmp("lt", y, zero), b.isfinite(y))),
            ValueError,
            DOMAIN,
        )
        r = b.intrinsic("pow", [x, y], T.F64)
        finite_in = b.and_(b.isfinite(x), b.isfinite(y))
        b.raise_if(b.and_(b.isnan(r), finite_in), ValueError, DOMAIN)
        b.raise_if(
            b.and_(b.isinf(r), b.and_(finite_in, b.cmp("ne", x, zero))), OverflowError, RANGE
        )
        return r

    return Resolved((T.F64, T.F64), T.F64, lower)


def _to_int(name: str, fn: str) -> None:
    """floor/ceil/trunc return an int, as in Python."""

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if len(args) != 1 or kwargs:
            return None
        t = args[0].type
        if isinstance(t, T.Scalar) and t.kind in "iub":
            out = T.U64 if t == T.U64 else T.I64  # a Python int, whatever the int type
            return Resolved((out,), out, lambda b, v, kw: v[0])
        _real_arg(name, args[0])
        return Resolved(
            (T.F64,),
            T.I64,
            lambda b, v, kw: float_to_int(b, b.intrinsic(fn, [v[0]], T.F64), T.I64),
        )

    register_function(getattr(math, name), params="x: real", notes="OverflowError beyond int64")(
        rule
    )


_to_int("floor", "floor")
_to_int("ceil", "ceil")
_to_int("trunc", "trunc")


def _predicate(name: str) -> None:
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if len(args) != 1 or kwargs:
            return None
        _real_arg(name, args[0])
        if isinstance(args[0].type, T.Scalar) and args[0].type.kind in "iub":
            return constant(name == "isfinite", T.BOOL)
        check = {
            "isnan": LowBuilder.isnan,
            "isinf": LowBuilder.isinf,
            "isfinite": LowBuilder.isfinite,
        }[name]
        return Resolved((T.F64,), T.BOOL, lambda b, v, kw: check(b, v[0]))

    register_function(getattr(math, name), params="x: real")(rule)


for _name in ("isnan", "isinf", "isfinite"):
    _predicate(_name)


@register_function(math.degrees, params="x: real")
def _degrees(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 1 or kwargs:
        return None
    _real_arg("degrees", args[0])
    return Resolved(
        (T.F64,),
        T.F64,
        lambda b, v, kw: b.binop("mul", v[0], ir.Const(180.0 / math.pi, type=T.F64)),
    )


@register_function(math.radians, params="x: real")
def _radians(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 1 or kwargs:
        return None
    _real_arg("radians", args[0])
    return Resolved(
        (T.F64,),
        T.F64,
        lambda b, v, kw: b.binop("mul", v[0], ir.Const(math.pi / 180.0, type=T.F64)),
    )


@register_function(math.gcd, params="*integers: int")
def _gcd(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs:
        return None
    for a in args:
        if not (isinstance(a.type, T.Scalar) and a.type.kind in "iub"):
            raise TypingError(f"math.gcd() needs integers, got {a.type}")
    if not args:
        return constant(0, T.I64)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        result = b.intrinsic("gcd", [v[0], ir.Const(0, type=T.I64)], T.I64)
        for x in v[1:]:
            result = b.intrinsic("gcd", [result, x], T.I64)
        return result

    return Resolved((T.I64,) * len(args), T.I64, lower)


_FACTORIALS = [math.factorial(n) for n in range(21)]


@register_function(
    math.factorial, params="n: int", notes="OverflowError for n > 20 (the result leaves int64)"
)
def _factorial(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 1 or kwargs:
        return None
    if not (isinstance(args[0].type, T.Scalar) and args[0].type.kind in "iub"):
        raise TypingError(f"math.factorial() needs an integer, got {args[0].type}")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        n = v[0]
        b.raise_if(
            b.cmp("lt", n, ir.Const(0, type=T.I64)),
            ValueError,
            "factorial() not defined for negative values",
        )
        b.raise_if(
            b.cmp("gt", n, ir.Const(20, type=T.I64)),
            OverflowError,
            "factorial() of n > 20 does not fit in int64",
        )
        table = ir.Const(tuple(_FACTORIALS), type=T.Tuple((T.I64,) * 21))
        return b.extract_dynamic(table, n, T.I64)

    return Resolved((T.I64,), T.I64, lower)


# --- cmath ---------------------------------------------------------------------------------


def _complex_arg(name: str, args: list[Operand]) -> None:
    if len(args) != 1 or not isinstance(args[0].type, T.Scalar):
        raise TypingError(f"cmath.{name}() takes one number")


def _cmath_unary(name: str, emit) -> None:  # noqa: ANN001
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if kwargs:
            return None
        if name == "log" and len(args) == 2:

            def lower2(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
                return scalar.lower_complex_div(
                    b, [scalar.clog(b, v[0]), scalar.clog(b, v[1])], {}
                )

            return Resolved((T.C128, T.C128), T.C128, lower2)
        _complex_arg(name, args)
        return Resolved((T.C128,), T.C128, lambda b, v, kw: emit(b, v[0]))

    register_function(
        getattr(cmath, name), params="z: number, base?: number" if name == "log" else "z: number"
    )(rule)


_cmath_unary("sqrt", scalar.csqrt)
_cmath_unary("exp", scalar.cexp)
_cmath_unary("log", scalar.clog)


@register_function(cmath.phase, params="z: number")
def _phase(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    _complex_arg("phase", args)
    return Resolved(
        (T.C128,),
        T.F64,
        lambda b, v, kw: b.intrinsic("atan2", [b.imag(v[0]), b.real(v[0])], T.F64),
    )


@register_function(cmath.polar, params="z: number")
def _polar(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    _complex_arg("polar", args)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        re, im = b.real(v[0]), b.imag(v[0])
        return b.make_tuple(
            [b.intrinsic("hypot", [re, im], T.F64), b.intrinsic("atan2", [im, re], T.F64)]
        )

    return Resolved((T.C128,), T.Tuple((T.F64, T.F64)), lower)


@register_function(cmath.rect, params="r: real, phi: real")
def _rect(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 2 or kwargs:
        return None
    for a in args:
        _real_arg("rect", a)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        r, phi = v
        return b.complex(
            b.binop("mul", r, b.intrinsic("cos", [phi], T.F64)),
            b.binop("mul", r, b.intrinsic("sin", [phi], T.F64)),
            T.C128,
        )

    return Resolved((T.F64, T.F64), T.C128, lower)


def _cmath_kernel(name: str) -> None:
    """cmath.<name> by the kernel `cmathk.<name>_k` (CPython's algorithm, special values and
    errors)."""
    kernel = getattr(cmathk, f"{name}_k")

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if kwargs:
            raise TypingError(f"cmath.{name}() takes no keyword arguments")
        _complex_arg(name, args)
        k = call_kernel(kernel, [T.F64, T.F64])

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            return k.lower(b, [b.real(v[0]), b.imag(v[0])], {})  # type: ignore[misc]

        return Resolved((T.C128,), T.C128, lower, may_raise=True)

    register_function(
        getattr(cmath, name),
        params="z: number",
        notes="CPython's algorithm (cmathmodule.c): its special values and exceptions",
    )(rule)


for _name in "sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh".split():
    _cmath_kernel(_name)


for _cname in ("isnan", "isinf", "isfinite"):

    def _make(cname: str):  # noqa: ANN202
        def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
            _complex_arg(cname, args)

            def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
                re, im = b.real(v[0]), b.imag(v[0])
                if cname == "isfinite":
                    return b.and_(b.isfinite(re), b.isfinite(im))
                check = b.isnan if cname == "isnan" else b.isinf
                return b.or_(check(re), check(im))

            return Resolved((T.C128,), T.BOOL, lower)

        return rule

    register_function(getattr(cmath, _cname), params="z: number")(_make(_cname))
