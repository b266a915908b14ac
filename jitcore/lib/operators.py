"""Python operators on scalars and tuples: typing rules and emitters, with Python semantics.

Result types follow Python for Python numbers and NumPy for NumPy scalars (the two agree on
i64/f64/c128); a literal written in the source is "weak" and adopts the other operand's type,
as NumPy 2 does with Python scalars. Arithmetic on bools gives int, as in Python.

Semantics (DESIGN.md section 3): `//` floors and `%` takes the divisor's sign, for ints and
floats; division or modulo by zero raises ZeroDivisionError; int arithmetic wraps on overflow;
`int ** negative literal` is a float, `int ** negative variable` raises ValueError (Python
would return a float, whose type the compiled code cannot choose at run time); NaN compares
false except with `!=`.
"""

from __future__ import annotations

from typing import cast

from jitcore.errors import SourceLoc, TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.ir.markers import MISSING
from jitcore.lib.registry import Operand, Resolved

_ORDER = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
ARITH = {"add", "sub", "mul", "div", "floordiv", "mod", "pow"}
BITWISE = {"and", "or", "xor", "shl", "shr"}


def binop_result(op: str, a: Operand, b: Operand) -> T.Scalar | None:
    """The common type of a scalar binary operation, Python/NumPy style, or None."""
    ta, tb = a.type, b.type
    if not (isinstance(ta, T.Scalar) and isinstance(tb, T.Scalar)):
        return None
    if op in BITWISE:
        if ta.is_bool and tb.is_bool and op in {"and", "or", "xor"}:
            return T.BOOL
        if ta.kind not in "iub" or tb.kind not in "iub":
            return None
    if op in ARITH:
        ta = T.I64 if ta.is_bool else ta
        tb = T.I64 if tb.is_bool else tb
    if a.weak and not b.weak:
        common = _weak_join(tb, ta)
    elif b.weak and not a.weak:
        common = _weak_join(ta, tb)
    else:
        common = T.promote(ta, tb)
    if op in BITWISE and common.kind not in "iub":
        return None
    return common


# Where NumPy scalars and Python numbers disagree: NumPy gives inf/nan/0 where Python raises.
NUMPY_DIFFERS = {"div", "floordiv", "mod", "pow"}


def _numpy_scalar_rules(a: Operand, b: Operand) -> bool:
    """An operation involving a NumPy scalar (an array element, a NumPy scalar argument, a value
    computed from them) follows NumPy; one between Python numbers follows Python."""
    scalars = isinstance(a.type, T.Scalar) and isinstance(b.type, T.Scalar)
    return scalars and not (a.weak and b.weak)


def _weak_join(strong: T.Scalar, weak: T.Scalar) -> T.Scalar:
    """NEP 50: a Python literal takes the other operand's type unless it is of a higher kind."""
    if _ORDER[weak.kind] <= _ORDER[strong.kind]:
        return strong
    if weak.is_float:
        return T.F64 if strong.kind in "iub" else strong
    if weak.is_complex:
        return T.C64 if strong == T.F32 else T.C128
    return weak


def resolve_binop(op: str, a: Operand, b: Operand, loc: SourceLoc) -> Resolved:
    if op.startswith("i") and op[1:] in ARITH | BITWISE | {"matmul"}:
        inplace = resolve_inplace(op[1:], a, b, loc)
        if inplace is not None:
            return inplace
        op = op[1:]
    if isinstance(a.type, T.Array) or isinstance(b.type, T.Array):
        from jitcore.lib import ufuncs

        return ufuncs.resolve_array_binop(op, a, b, loc)
    if isinstance(a.type, T.Tuple) and isinstance(b.type, T.Tuple) and op == "add":
        return _tuple_concat(a.type, b.type)
    if op in NUMPY_DIFFERS and _numpy_scalar_rules(a, b):
        from jitcore.lib import ufuncs

        return ufuncs.resolve_scalar_numpy_binop(op, a, b, loc)
    common = binop_result(op, a, b)
    if common is None:
        raise TypingError(
            f"unsupported operand types for {_SYMBOLS.get(op, op)}: {a.type} and {b.type}",
            loc=loc,
            hint="convert the operands to numbers of one kind",
        )
    if op == "div":
        if common.kind in "iub":
            return Resolved((T.F64, T.F64), T.F64, _lower_float_div)
        return Resolved(
            (common, common), common, _lower_complex_div if common.is_complex else _lower_float_div
        )
    if op in {"floordiv", "mod"}:
        if common.is_complex:
            raise TypingError(
                f"can't take floor or mod of complex numbers ({a.type} {_SYMBOLS[op]} {b.type})",
                loc=loc,
            )
        low = {
            ("floordiv", True): _lower_int_floordiv,
            ("mod", True): _lower_int_mod,
            ("floordiv", False): _lower_float_floordiv,
            ("mod", False): _lower_float_mod,
        }
        return Resolved((common, common), common, low[(op, common.is_int)])
    if op == "pow":
        return _with_weak_checks(_resolve_pow(a, b, common), a, b)
    if op == "shl" or op == "shr":
        return _with_weak_checks(Resolved((common, common), common, _lower_shift(op)), a, b)
    return _with_weak_checks(Resolved((common, common), common, _lower_simple(op)), a, b)


def _with_weak_checks(resolved: Resolved, a: Operand, b: Operand) -> Resolved:
    """NumPy 2: a Python int combined with a narrower NumPy int must fit it (OverflowError)."""
    targets = resolved.args
    checks = [
        i
        for i, (op, target) in enumerate(zip((a, b), targets))
        if op.weak
        and not op.is_const
        and op.type == T.I64
        and isinstance(target, T.Scalar)
        and target.is_int
        and target != T.I64
    ]
    if not checks or resolved.lower is None:
        return resolved
    inner = resolved.lower
    return Resolved(
        tuple(None if i in checks else t for i, t in enumerate(targets)),
        resolved.ret,
        _checked_lower(inner, checks, targets),
        resolved.kwargs,
        resolved.const,
    )


def _checked_lower(inner, checks: list[int], targets: tuple):  # noqa: ANN001, ANN202
    import numpy as np

    def lower(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        args = list(args)
        for i in checks:
            target = targets[i]
            info = np.iinfo(target.dtype)
            low = ir.Const(max(int(info.min), -(2**63)), type=T.I64)
            high = ir.Const(min(int(info.max), 2**63 - 1), type=T.I64)
            out = b.or_(b.cmp("lt", args[i], low), b.cmp("gt", args[i], high))
            b.raise_if(out, OverflowError, f"Python integer out of bounds for {target.dtype}")
            args[i] = b.cast(args[i], target)
        return inner(b, args, kwargs)

    return lower


def resolve_inplace(op: str, a: Operand, b: Operand, loc: SourceLoc) -> Resolved | None:
    """`a op= b`: arrays update in place; everything else rebinds like `a = a op b`."""
    if isinstance(a.type, T.Array):
        from jitcore.lib import ufuncs

        return ufuncs.resolve_inplace_binop(op, a, b, loc)
    return None


_SYMBOLS = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "div": "/",
    "floordiv": "//",
    "mod": "%",
    "pow": "**",
    "and": "&",
    "or": "|",
    "xor": "^",
    "shl": "<<",
    "shr": ">>",
    "matmul": "@",
}


def _lower_simple(op: str):  # noqa: ANN202
    def lower(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        return b.binop(op, args[0], args[1])

    return lower


def _lower_float_div(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    x, y = args
    b.raise_if(b.cmp("eq", y, ir.Const(0.0, type=y.type)), ZeroDivisionError, "division by zero")
    return b.binop("div", x, y)


def _lower_complex_div(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    return complex_div(b, args[0], args[1])


def complex_div(b: LowBuilder, x: ir.Value, y: ir.Value, check_zero: bool = True) -> ir.Value:
    """CPython's `_Py_c_quot` (Smith's method with scaling by the larger component); NumPy
    (`check_zero=False`) gives inf/nan for a zero divisor instead of raising."""
    part = T.complex_part(x.type)  # type: ignore[arg-type]
    a, bb, c, d = b.real(x), b.imag(x), b.real(y), b.imag(y)
    zero = ir.Const(0.0, type=part)
    if check_zero:
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


def _int_divmod(
    b: LowBuilder, x: ir.Value, y: ir.Value, numpy_rules: bool = False
) -> tuple[ir.Value, ir.Value]:
    """Floor division and modulo of ints: floor correction, and INT_MIN // -1 wrapping instead
    of trapping. A zero divisor raises ZeroDivisionError (Python), or gives 0 and 0 (NumPy)."""
    t = x.type
    zero = ir.Const(0, type=t)
    is_zero = b.cmp("eq", y, zero)
    if not numpy_rules:
        b.raise_if(is_zero, ZeroDivisionError, "integer division or modulo by zero")
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


def _lower_int_floordiv(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    return _int_divmod(b, args[0], args[1])[0]


def _lower_int_mod(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    return _int_divmod(b, args[0], args[1])[1]


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


def _lower_float_floordiv(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    return float_divmod(b, args[0], args[1], "float floor division by zero")[0]


def _lower_float_mod(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    return float_divmod(b, args[0], args[1], "float modulo")[1]


def _lower_shift(op: str):  # noqa: ANN202
    def lower(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        x, n = args
        t = x.type
        zero = ir.Const(0, type=t)
        if t.is_signed:  # type: ignore[union-attr]
            b.raise_if(b.cmp("lt", n, zero), ValueError, "negative shift count")
        width = ir.Const(t.bits, type=t)  # type: ignore[union-attr]
        too_far = b.cmp("ge", n, width)
        safe_n = b.select(too_far, zero, n)
        if op == "shl":
            return b.select(too_far, zero, b.binop("shl", x, safe_n))
        shifted = b.binop("shr", x, safe_n)
        if t.is_signed:  # type: ignore[union-attr]
            fill = b.select(b.cmp("lt", x, zero), ir.Const(-1, type=t), zero)
        else:
            fill = zero
        return b.select(too_far, fill, shifted)

    return lower


def _resolve_pow(a: Operand, b: Operand, common: T.Scalar) -> Resolved:
    if common.is_int:
        if b.is_const and isinstance(b.const, int) and b.const < 0:
            return Resolved((T.F64, T.F64), T.F64, _lower_float_pow)
        return Resolved((common, common), common, lower_int_pow)
    if common.is_complex:
        n = b.const if b.is_const else None
        if isinstance(n, complex) and n.imag == 0 and n.real == int(n.real):
            n = int(n.real)
        if (
            isinstance(n, int | float)
            and not isinstance(n, bool)
            and n == int(n)
            and abs(n) <= 100
        ):
            return Resolved((common, common), common, _lower_complex_powi(int(n)))
        return Resolved((common, common), common, _lower_complex_pow)
    return Resolved((common, common), common, _lower_float_pow)


def lower_int_pow(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    """Exponentiation by squaring, wrapping on overflow; a negative exponent raises."""
    x, n = args
    t = cast(T.Scalar, x.type)
    if t.is_signed:
        b.raise_if(
            b.cmp("lt", n, ir.Const(0, type=t)),
            ValueError,
            "integer to a negative power: Python returns a float here; write float(x) ** n",
        )
    return b.intrinsic("ipow", [x, n], t)


def _lower_float_pow(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    x, y = args
    zero = ir.Const(0.0, type=x.type)
    b.raise_if(
        b.and_(b.cmp("eq", x, zero), b.cmp("lt", y, zero)),
        ZeroDivisionError,
        "0.0 cannot be raised to a negative power",
    )
    from jitcore.lib.ufuncs import float_pow

    fractional = b.cmp("ne", b.intrinsic("floor", [y], cast(T.Type, y.type)), y)
    finite = b.and_(b.isfinite(x), b.isfinite(y))
    b.raise_if(
        b.and_(b.and_(b.cmp("lt", x, zero), fractional), finite),
        ValueError,
        "negative number to a fractional power: Python returns a complex number here",
    )
    r = float_pow(b, x, y)
    overflow = b.and_(b.isinf(r), b.and_(b.isfinite(x), b.isfinite(y)))
    b.raise_if(overflow, OverflowError, "Numerical result out of range")
    return r


def _lower_complex_powi(n: int):  # noqa: ANN202
    """CPython's `c_powi` for a constant integer exponent: repeated squaring, unrolled."""

    def lower(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        x = args[0]
        t = x.type
        part = T.complex_part(t)  # type: ignore[arg-type]
        one = b.complex(ir.Const(1.0, type=part), ir.Const(0.0, type=part), t)  # type: ignore[arg-type]
        result, power, k, mask = one, x, abs(n), 1
        while mask > 0 and k >= mask:
            if k & mask:
                result = b.binop("mul", result, power)
            mask <<= 1
            if k >= mask:
                power = b.binop("mul", power, power)
        if n < 0:
            return _lower_complex_div(b, [one, result], {})
        return result

    return lower


def _lower_complex_pow(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    """CPython's `_Py_c_pow` (polar form)."""
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
    return b.select(y_zero, one, b.select(x_zero, zero_c, general))


def _tuple_concat(a: T.Tuple, bt: T.Tuple) -> Resolved:
    def lower(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        items = [b.extract(args[0], i) for i in range(len(a.items))]
        items += [b.extract(args[1], i) for i in range(len(bt.items))]
        return b.make_tuple(items)

    return Resolved((None, None), T.Tuple(a.items + bt.items), lower)


# --- unary --------------------------------------------------------------------------------


def resolve_unary(op: str, x: Operand, loc: SourceLoc) -> Resolved:
    t = x.type
    if op in {"truth", "not"}:
        return Resolved(
            (None,), T.BOOL, _lower_truth(op == "not"), const=_static_truth(x, op == "not")
        )
    if isinstance(t, T.Array):
        from jitcore.lib import ufuncs

        return ufuncs.resolve_array_unary(op, x, loc)
    if not isinstance(t, T.Scalar):
        raise TypingError(f"bad operand type for unary {op}: {t}", loc=loc)
    if t.is_bool and op in {"neg", "pos", "invert"}:
        t = T.I64  # Python: -True == -1, ~True == -2
    if op == "invert" and not t.is_int:
        raise TypingError(f"bad operand type for unary ~: {x.type}", loc=loc)
    if op == "pos":
        return Resolved((t,), t, lambda b, args, kw: args[0])
    if op == "neg":
        return Resolved(
            (t,), t, lambda b, args, kw: b.emit(ir.UnaryOp("neg", args[0], type=args[0].type))
        )
    return Resolved(
        (t,), t, lambda b, args, kw: b.binop("xor", args[0], ir.Const(-1, type=args[0].type))
    )


def _static_truth(x: Operand, negate: bool) -> object:
    if isinstance(x.type, T.NoneType):
        return negate
    if isinstance(x.type, T.Tuple):
        return (len(x.type.items) > 0) != negate
    if isinstance(x.type, T.Opaque):
        return bool(x.type.obj) != negate
    return MISSING


def _lower_truth(negate: bool):  # noqa: ANN202
    def lower(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        value = truth(b, args[0])
        return b.not_(value) if negate else value

    return lower


def truth(b: LowBuilder, x: ir.Value) -> ir.Value:
    """Python's `bool(x)` of a scalar (NaN is true)."""
    t = x.type
    if isinstance(t, T.Array):
        from jitcore.lib import arrays

        return arrays.array_truth(b, x)
    assert isinstance(t, T.Scalar)
    if t.is_bool:
        return x
    if t.is_complex:
        part = T.complex_part(t)
        zero = ir.Const(0.0, type=part)
        return b.or_(b.cmp("ne", b.real(x), zero), b.cmp("ne", b.imag(x), zero))
    return b.cmp("ne", x, ir.Const(0.0 if t.is_float else 0, type=t))


# --- comparisons --------------------------------------------------------------------------


def resolve_compare(op: str, a: Operand, b: Operand, loc: SourceLoc) -> Resolved:
    ta, tb = a.type, b.type
    if op in {"is", "isnot"}:
        return _resolve_identity(op, a, b, loc)
    if isinstance(ta, T.Array) or isinstance(tb, T.Array):
        from jitcore.lib import ufuncs

        return ufuncs.resolve_array_compare(op, a, b, loc)
    if isinstance(ta, T.Tuple) and isinstance(tb, T.Tuple):
        return _resolve_tuple_compare(op, ta, tb, loc)
    if isinstance(ta, T.NoneType) or isinstance(tb, T.NoneType):
        if op in {"eq", "ne"}:
            same = isinstance(ta, T.NoneType) and isinstance(tb, T.NoneType)
            return Resolved((None, None), T.BOOL, const=same == (op == "eq"))
    if not (isinstance(ta, T.Scalar) and isinstance(tb, T.Scalar)):
        raise TypingError(f"cannot compare {ta} and {tb} with {op}", loc=loc)
    common = binop_result("add", a, b)
    if ta.is_bool and tb.is_bool:
        common = T.BOOL
    assert common is not None
    if common.is_complex and op not in {"eq", "ne"}:
        raise TypingError(f"complex numbers are not ordered ({ta} {op} {tb})", loc=loc)
    return Resolved((common, common), T.BOOL, lambda bld, args, kw: bld.cmp(op, args[0], args[1]))


def _resolve_identity(op: str, a: Operand, b: Operand, loc: SourceLoc) -> Resolved:
    none_a, none_b = isinstance(a.type, T.NoneType), isinstance(b.type, T.NoneType)
    if none_a or none_b:
        same = none_a and none_b
        return Resolved((None, None), T.BOOL, const=same == (op == "is"))
    if isinstance(a.type, T.Opaque) and isinstance(b.type, T.Opaque):
        return Resolved((None, None), T.BOOL, const=(a.type.obj is b.type.obj) == (op == "is"))
    raise TypingError("`is` is supported only with None", loc=loc, hint="use == to compare values")


def _resolve_tuple_compare(op: str, ta: T.Tuple, tb: T.Tuple, loc: SourceLoc) -> Resolved:
    if op not in {"eq", "ne"}:
        raise TypingError("tuples can be compared only with == and !=", loc=loc)
    if len(ta.items) != len(tb.items):
        return Resolved((None, None), T.BOOL, const=op == "ne")
    rules = [
        resolve_compare("eq", Operand(x), Operand(y), loc) for x, y in zip(ta.items, tb.items)
    ]

    def lower(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        result: ir.Value = ir.Const(True, type=T.BOOL)
        for i, rule in enumerate(rules):
            x, y = b.extract(args[0], i), b.extract(args[1], i)
            x, y = b.cast(x, rule.args[0]), b.cast(y, rule.args[1])  # type: ignore[arg-type]
            result = b.and_(result, rule.lower(b, [x, y], {}))  # type: ignore[misc]
        return result if op == "eq" else b.not_(result)

    return Resolved((None, None), T.BOOL, lower)


# --- items and attributes -----------------------------------------------------------------


def resolve_getitem(obj: Operand, index: Operand, loc: SourceLoc) -> Resolved:
    t = obj.type
    if isinstance(t, T.Tuple):
        return _tuple_getitem(t, index, loc)
    if isinstance(t, T.Array):
        from jitcore.lib import arrays

        return arrays.resolve_getitem(obj, index, loc)
    raise TypingError(f"{t} is not subscriptable", loc=loc)


def _tuple_getitem(t: T.Tuple, index: Operand, loc: SourceLoc) -> Resolved:
    n = len(t.items)
    if index.is_const and isinstance(index.const, int):
        i = index.const
        if not -n <= i < n:
            raise TypingError(f"tuple index {i} out of range for {t}", loc=loc)
        i %= n
        return Resolved((None, None), t.items[i], lambda b, args, kw: b.extract(args[0], i))
    if index.is_const and isinstance(index.const, slice):
        idx = range(n)[index.const]
        items = tuple(t.items[i] for i in idx)
        return Resolved(
            (None, None),
            T.Tuple(items),
            lambda b, args, kw: b.make_tuple([b.extract(args[0], i) for i in idx]),
        )
    if not (isinstance(index.type, T.Scalar) and index.type.kind in "iub"):
        raise TypingError(f"tuple indices must be integers, not {index.type}", loc=loc)
    if n == 0:
        raise TypingError("index into an empty tuple", loc=loc)
    common = t.items[0]
    for item in t.items[1:]:
        from jitcore.typeinfer import unify

        joined = unify(common, item)
        if joined is None:
            raise TypingError(
                f"a variable index into {t} needs items of one type",
                loc=loc,
                hint="index with a constant, or make the items one type",
            )
        common = joined
    homogeneous = T.Tuple((common,) * n)

    def lower(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        tup, i = args
        if tup.type != homogeneous:
            tup = b.make_tuple([b.cast(b.extract(tup, k), common) for k in range(n)])
        i = b.cast(i, T.I64)
        i = b.select(
            b.cmp("lt", i, ir.Const(0, type=T.I64)), b.binop("add", i, ir.Const(n, type=T.I64)), i
        )
        out = b.binop(
            "or",
            b.cmp("lt", i, ir.Const(0, type=T.I64)),
            b.cmp("ge", i, ir.Const(n, type=T.I64)),
            T.BOOL,
        )
        b.raise_if(out, IndexError, "tuple index out of range")
        return b.intrinsic("extract_dyn", [tup, i], common)

    return Resolved((None, None), common, lower)


def resolve_setitem(obj: Operand, index: Operand, value: Operand, loc: SourceLoc) -> Resolved:
    if isinstance(obj.type, T.Array):
        from jitcore.lib import arrays

        return arrays.resolve_setitem(obj, index, value, loc)
    raise TypingError(
        f"{obj.type} does not support item assignment",
        loc=loc,
        hint="tuples are immutable; build a new tuple",
    )


def resolve_getattr(obj: Operand, attr: str, loc: SourceLoc) -> Resolved:
    t = obj.type
    if isinstance(t, T.Scalar):
        if attr == "real":
            if t.is_complex:
                return Resolved((None,), T.complex_part(t), lambda b, args, kw: b.real(args[0]))
            return Resolved((None,), t, lambda b, args, kw: args[0])
        if attr == "imag":
            if t.is_complex:
                return Resolved((None,), T.complex_part(t), lambda b, args, kw: b.imag(args[0]))
            return Resolved((None,), t, lambda b, args, kw: ir.Const(0, type=t))
    if isinstance(t, T.Array):
        from jitcore.lib import arrays

        return arrays.resolve_getattr(obj, attr, loc)
    if isinstance(t, T.Opaque):
        value = getattr(t.obj, attr, None)
        if value is not None:
            from jitcore.typeinfer import const_type

            return Resolved((None,), const_type(value), const=value)
    raise TypingError(f"{t} has no attribute `{attr}`", loc=loc)
