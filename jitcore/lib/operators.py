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

import operator
from typing import cast

import numpy as np

from jitcore.errors import SourceLoc, TypingError, UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import Loop, LowBuilder, i64
from jitcore.ir.coerce import const_type, unify, weak_join
from jitcore.ir.markers import MISSING
from jitcore.lib import (
    arrays,
    containers,
    indexing,
    lists,
    optional,
    scalar,
    shapes,
    strmethods,
    ufuncs,
)
from jitcore.lib.layout import index_int
from jitcore.lib.registry import (
    Lowerer,
    Operand,
    Resolved,
    describe,
    method_names,
    register_operator,
)

ARITH = {"add", "sub", "mul", "div", "floordiv", "mod", "pow"}
BITWISE = {"and", "or", "xor", "shl", "shr"}
SHIFTS = {"shl", "shr"}


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
    if op in ARITH or op in SHIFTS:  # Python: True + True == 2, True << True == 2
        ta = T.I64 if ta.is_bool else ta
        tb = T.I64 if tb.is_bool else tb
    if a.weak and not b.weak:
        common = weak_join(tb, ta)
    elif b.weak and not a.weak:
        common = weak_join(ta, tb)
    else:
        common = T.promote(ta, tb)
    if op in BITWISE and common.kind not in "iub":
        return None
    return common


# Where NumPy scalars and Python numbers disagree: NumPy gives inf/nan/0 where Python raises
# (a negative shift count too: NumPy shifts everything out).
NUMPY_DIFFERS = {"div", "floordiv", "mod", "pow", "shl", "shr"}


def numpy_scalar_rules(a: Operand, b: Operand) -> bool:
    """An operation involving a NumPy scalar (an array element, a NumPy scalar argument, a value
    computed from them) follows NumPy; one between Python numbers follows Python."""
    scalars = isinstance(a.type, T.Scalar) and isinstance(b.type, T.Scalar)
    return scalars and not (a.weak and b.weak)


def _numpy_bool(a: Operand, b: Operand) -> bool:
    """Whether a scalar operation involves a NumPy bool (an element of a bool array,
    `np.bool(x)`): NumPy adds and multiplies those as bools (`np.True_ + np.True_` is True),
    where Python's bools are ints (`True + True == 2`)."""
    scalars = isinstance(a.type, T.Scalar) and isinstance(b.type, T.Scalar)
    return scalars and any(o.type == T.BOOL and not o.weak for o in (a, b))


def is_in_place(op: str) -> bool:
    """`iadd`, `imul`, ...: an augmented assignment, which writes into an array operand."""
    return op.startswith("i") and op[1:] in ARITH | BITWISE | {"matmul"}


def resolve_binop(op: str, a: Operand, b: Operand, loc: SourceLoc) -> Resolved:
    if isinstance(a.type, T.List) or isinstance(b.type, T.List):
        on_lists = lists.resolve_binop(op, a, b)
        if on_lists is None:
            raise TypingError(
                f"unsupported operand types for {op}: {a.type} and {b.type}", loc=loc
            )
        return on_lists
    if is_in_place(op):
        inplace = resolve_inplace(op[1:], a, b, loc)
        if inplace is not None:
            return inplace
        op = op[1:]
    if op == "mul" and isinstance(a.type, T.Str) != isinstance(b.type, T.Str):
        repeated = strmethods.resolve_repeat(a, b)  # `s * n`, `n * s`
        if repeated is not None:
            return repeated
    if op == "mod" and isinstance(a.type, T.Str):
        return strmethods.resolve_percent(a, b)  # `"%d items" % n`
    if containers.is_runtime_type(a.type) or containers.is_runtime_type(b.type):
        return containers.resolve_binop(op, a, b)  # strings, sets
    if isinstance(a.type, T.Array) or isinstance(b.type, T.Array):
        return ufuncs.resolve_array_binop(op, a, b, loc)
    if isinstance(a.type, T.Tuple) and isinstance(b.type, T.Tuple) and op == "add":
        return _tuple_concat(a.type, b.type)
    if op in NUMPY_DIFFERS and numpy_scalar_rules(a, b):
        return ufuncs.resolve_scalar_numpy_binop(op, a, b, loc)
    if op in {"add", "sub", "mul"} and _numpy_bool(a, b):
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
            return Resolved((T.I64, T.I64), T.F64, _lower_int_true_div)
        return Resolved(
            (common, common),
            common,
            scalar.lower_complex_div if common.is_complex else _lower_float_div,
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
    """NumPy 2: a Python int combined with a narrower NumPy int must fit it (OverflowError);
    a literal that fits needs no check, one that does not always raises."""
    targets = resolved.args
    checks = [
        i
        for i, (op, target) in enumerate(zip((a, b), targets))
        if op.weak
        and not (op.is_const and _fits(op.const, target))
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
        may_raise=True,
    )


def _fits(value: object, target: T.Type | None) -> bool:
    if not (isinstance(target, T.Scalar) and target.is_int and isinstance(value, int)):
        return True
    import numpy as np

    info = np.iinfo(target.dtype)
    return int(info.min) <= value <= int(info.max)


def _checked_lower(inner, checks: list[int], targets: tuple):  # noqa: ANN001, ANN202
    def lower(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        args = list(args)
        for i in checks:
            arrays.check_python_int(b, args[i], targets[i])
            args[i] = b.cast(args[i], targets[i])
        return inner(b, args, kwargs)

    return lower


def resolve_inplace(op: str, a: Operand, b: Operand, loc: SourceLoc) -> Resolved | None:
    """`a op= b`: arrays update in place; everything else rebinds like `a = a op b`."""
    if isinstance(a.type, T.Array):
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
    return _float_div(b, args, "float division by zero")


def _lower_int_true_div(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    """`int / int`, correctly rounded as CPython's: when both fit 53 bits their floats are
    exact and one division rounds once; otherwise (`_exact_int_quotient`) the quotient's
    bits come from integer division, so 9558257807069587 / 23 is not rounded twice."""
    x, y = args
    b.raise_if(b.cmp("eq", y, i64(0)), ZeroDivisionError, "division by zero")
    limit = i64(2**53)
    small = b.and_(_within(b, x, limit), _within(b, y, limit))
    fast = b.binop("div", b.cast(x, T.F64), b.cast(y, T.F64))
    before, slow, done = b.block, b.new_block("bigintdiv"), b.new_block("intdiv")
    b.branch(small, done, slow)
    b.position(slow)
    exact = _exact_int_quotient(b, x, y)
    slow_end = b.block
    b.jump(done)
    b.position(done)
    return b.phi(T.F64, {before: fast, slow_end: exact})


def _within(b: LowBuilder, x: ir.Value, limit: ir.Const) -> ir.Value:
    """-limit <= x <= limit, for an i64 x."""
    return b.and_(b.cmp("le", x, limit), b.cmp("ge", x, i64(-cast(int, limit.value))))


def _exact_int_quotient(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    """x / y for any non-zero int64s, correctly rounded: |x| // |y| and then, while the
    quotient has fewer than 55 bits, one more bit of it by long division (at most 117); the
    remainder left over is a sticky bit below the rounding position, so one conversion of
    (quotient | sticky) rounds as the exact quotient would, and 2**-bits scales it exactly."""
    zero = i64(0)
    ux = b.cast(b.select(b.cmp("lt", x, zero), b.binop("sub", zero, x), x), T.U64)
    uy = b.cast(b.select(b.cmp("lt", y, zero), b.binop("sub", zero, y), y), T.U64)
    top = ir.Const(2**54, type=T.U64)
    u_zero, u_one = ir.Const(0, type=T.U64), ir.Const(1, type=T.U64)
    q0, r0 = b.binop("tdiv", ux, uy), b.binop("trem", ux, uy)
    loop = Loop(b, zero, i64(120), carried=[q0, r0, zero])
    q, r, bits = loop.values
    short = b.cmp("lt", q, top)
    r2 = b.binop("shl", r, u_one)  # r < |y| <= 2**63: no overflow in u64
    bit = b.cmp("ge", r2, uy)
    r2 = b.select(bit, b.binop("sub", r2, uy), r2)
    q2 = b.binop("add", b.binop("shl", q, u_one), b.cast(bit, T.U64))
    loop.finish(
        [
            b.select(short, q2, q),
            b.select(short, r2, r),
            b.select(short, b.binop("add", bits, i64(1)), bits),
        ]
    )
    q, r, bits = loop.values
    sticky = b.cast(b.cmp("ne", r, u_zero), T.U64)
    magnitude = b.cast(b.binop("or", q, sticky), T.F64)
    magnitude = b.intrinsic("ldexp", [magnitude, b.cast(b.binop("sub", zero, bits), T.I32)], T.F64)
    negative = b.binop("xor", b.cmp("lt", x, zero), b.cmp("lt", y, zero), T.BOOL)
    return b.select(negative, b.emit(ir.UnaryOp("neg", magnitude, type=T.F64)), magnitude)


def _float_div(b: LowBuilder, args: list[ir.Value], message: str) -> ir.Value:
    x, y = args
    b.raise_if(b.cmp("eq", y, ir.Const(0.0, type=y.type)), ZeroDivisionError, message)
    return b.binop("div", x, y)


def _lower_int_floordiv(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    return scalar.int_divmod(b, args[0], args[1])[0]


def _lower_int_mod(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    return scalar.int_divmod(b, args[0], args[1], message="integer modulo by zero")[1]


def _lower_float_floordiv(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    return scalar.float_divmod(b, args[0], args[1], "float floor division by zero")[0]


def _lower_float_mod(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
    return scalar.float_divmod(b, args[0], args[1], "float modulo")[1]


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
        return Resolved((common, common), common, scalar.lower_complex_pow)
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
    fractional = b.cmp("ne", b.intrinsic("floor", [y], cast(T.Type, y.type)), y)
    finite = b.and_(b.isfinite(x), b.isfinite(y))
    b.raise_if(
        b.and_(b.and_(b.cmp("lt", x, zero), fractional), finite),
        ValueError,
        "negative number to a fractional power: Python returns a complex number here",
    )
    r = scalar.float_pow(b, x, y)
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
            return scalar.lower_complex_div(b, [one, result], {})
        return result

    return lower


def _tuple_concat(a: T.Tuple, bt: T.Tuple) -> Resolved:
    def lower(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        items = [b.extract(args[0], i) for i in range(len(a.items))]
        items += [b.extract(args[1], i) for i in range(len(bt.items))]
        return b.make_tuple(items)

    return Resolved((None, None), T.Tuple(a.items + bt.items), lower)


# --- unary --------------------------------------------------------------------------------


def resolve_unary(op: str, x: Operand, loc: SourceLoc) -> Resolved:
    t = x.type
    if op in {"truth", "not"} and isinstance(t, T.List):
        return lists.resolve_truth(x, op == "not")
    if op in {"truth", "not"} and isinstance(t, T.Optional):
        return optional.resolve_truth(op, t, resolve_unary)
    if op in {"truth", "not"}:
        return Resolved(
            (None,), T.BOOL, _lower_truth(op == "not"), const=_static_truth(x, op == "not")
        )
    if isinstance(t, T.Array):
        return ufuncs.resolve_array_unary(op, x, loc)
    if not isinstance(t, T.Scalar):
        raise TypingError(f"bad operand type for unary {op}: {t}", loc=loc)
    if t.is_bool and not x.weak and op in {"neg", "pos"}:
        raise TypingError(
            f"NumPy does not support the unary {'-' if op == 'neg' else '+'} of a NumPy bool",
            loc=loc,
            hint="use `not x` for the negation, or convert first: `-int(x)`",
        )
    if t.is_bool and not x.weak and op == "invert":  # NumPy: ~np.True_ is np.False_
        return Resolved((t,), t, lambda b, args, kw: b.not_(args[0]))
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
    if containers.is_runtime_type(x.type):
        static = containers.static_truth(x)
        return static if static is MISSING else static != negate
    return MISSING


def _lower_truth(negate: bool):  # noqa: ANN202
    def lower(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        value = truth(b, args[0])
        return b.not_(value) if negate else value

    return lower


def truth(b: LowBuilder, x: ir.Value) -> ir.Value:
    """Python's `bool(x)`: NumPy's rule for an array, `scalar.truth` for a number."""
    if isinstance(x.type, T.Array):
        return arrays.array_truth(b, x)
    if containers.is_runtime_type(x.type):
        return containers.truth(b, x)
    return scalar.truth(b, x)


# --- comparisons --------------------------------------------------------------------------


def resolve_compare(op: str, a: Operand, b: Operand, loc: SourceLoc) -> Resolved:
    ta, tb = a.type, b.type
    if op in {"is", "isnot"}:
        return _resolve_identity(op, a, b, loc)
    if op in {"eq", "ne"} and optional.against_none(ta, tb):  # `x == None` of an optional
        return optional.resolve_identity("is" if op == "eq" else "isnot", ta, tb)
    if isinstance(ta, T.List) or isinstance(tb, T.List):
        on_lists = lists.resolve_compare(op, a, b)
        if on_lists is None:
            raise TypingError(f"cannot compare {ta} and {tb} with {op}", loc=loc)
        return on_lists
    if op in {"in", "notin"}:
        return _resolve_contains(op, a, b, loc)
    if op in {"eq", "ne"} and (isinstance(ta, T.Opaque) or isinstance(tb, T.Opaque)):
        known = _compare_known(a, b)
        if known is not None:  # `a.dtype == np.float32`, `a.dtype == "float32"`
            return Resolved((None, None), T.BOOL, const=known == (op == "eq"))
    if containers.is_runtime_type(ta) or containers.is_runtime_type(tb):
        return containers.resolve_compare(op, a, b)
    if isinstance(ta, T.Array) or isinstance(tb, T.Array):
        return ufuncs.resolve_array_compare(op, a, b, loc)
    if isinstance(ta, T.Tuple) and isinstance(tb, T.Tuple):
        return _resolve_tuple_compare(op, ta, tb, loc)
    if isinstance(ta, T.NoneType) or isinstance(tb, T.NoneType):
        if op in {"eq", "ne"}:
            same = isinstance(ta, T.NoneType) and isinstance(tb, T.NoneType)
            return Resolved((None, None), T.BOOL, const=same == (op == "eq"))
    if not (isinstance(ta, T.Scalar) and isinstance(tb, T.Scalar)):
        raise TypingError(f"cannot compare {ta} and {tb} with {op}", loc=loc)
    if (
        a.weak
        and b.weak
        and {ta.kind, tb.kind} in ({"i", "f"}, {"b", "f"})
        and not any(_exact_float(x) for x in (a, b))
    ):
        return _resolve_exact_compare(op, ta, tb)
    if a.weak != b.weak and ta.is_int and tb.is_int:
        # NumPy 2 compares a Python int with a NumPy int exactly, even out of its range
        # (`np.int32(0) == 2**32` is False): in int64, or sign-aware against uint64
        return Resolved(
            (None, None),
            T.BOOL,
            lambda bld, args, kw: ufuncs.exact_int_compare(bld, op, args[0], args[1]),
        )
    common = binop_result("add", a, b)
    if ta.is_bool and tb.is_bool:
        common = T.BOOL
    assert common is not None
    if common.is_complex and op not in {"eq", "ne"} and a.weak and b.weak:
        # Python's complex numbers are not ordered; NumPy's are, lexicographically
        raise TypingError(f"complex numbers are not ordered ({ta} {op} {tb})", loc=loc)
    return Resolved((common, common), T.BOOL, lambda bld, args, kw: bld.cmp(op, args[0], args[1]))


def _resolve_contains(op: str, x: Operand, container: Operand, loc: SourceLoc) -> Resolved:
    """`x in t` for a tuple `t`: `x == t[0] or x == t[1] or ...`, each `==` as written."""
    t = container.type
    if containers.is_runtime_type(t):
        return containers.resolve_contains(op, x, container)
    if not isinstance(t, T.Tuple):
        raise UnsupportedError(
            f"`in` is supported with tuples, not {t}",
            loc=loc,
            hint="write `x in (a, b, c)`, or compare elements of an array with `==`",
        )
    rules = [resolve_compare("eq", x, Operand(item, weak=container.weak), loc) for item in t.items]

    def lower(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        found: ir.Value = ir.Const(False, type=T.BOOL)
        for i, rule in enumerate(rules):
            if rule.const is not MISSING:
                same: ir.Value = ir.Const(rule.const, type=T.BOOL)
            else:
                lhs = b.cast(args[0], cast(T.Type, rule.args[0]))
                rhs = b.cast(b.extract(args[1], i), cast(T.Type, rule.args[1]))
                same = cast(Lowerer, rule.lower)(b, [lhs, rhs], {})
            found = b.or_(found, same)
        return found if op == "in" else b.not_(found)

    return Resolved((None, None), T.BOOL, lower)


def _exact_float(x: Operand) -> bool:
    """An int constant that a float holds exactly (`x > 0`): the plain float comparison is
    exact for it."""
    return x.is_const and isinstance(x.const, int) and abs(x.const) <= 2**53


def _resolve_exact_compare(op: str, ta: T.Scalar, tb: T.Scalar) -> Resolved:
    """A Python int against a Python float compares exactly, as Python does (`2**53 + 1 ==
    float(2**53 + 1)` is False: the float is 2**53), not after rounding the int to a float."""
    int_first = not ta.is_float
    float_t = ta if ta.is_float else tb
    args = (T.I64, float_t) if int_first else (float_t, T.I64)

    def lower(b: LowBuilder, vals: list[ir.Value], kw: dict) -> ir.Value:
        i, f = (vals[0], vals[1]) if int_first else (vals[1], vals[0])
        lt, gt, eq = _int_float_order(b, i, f)
        if not int_first:  # f <op> i: swap the roles of < and >
            lt, gt = gt, lt
        result = {
            "lt": lambda: lt,
            "gt": lambda: gt,
            "eq": lambda: eq,
            "ne": lambda: b.not_(eq),
            "le": lambda: b.or_(lt, eq),
            "ge": lambda: b.or_(gt, eq),
        }[op]()
        return result

    return Resolved(args, T.BOOL, lower)


def _int_float_order(
    b: LowBuilder, i: ir.Value, f: ir.Value
) -> tuple[ir.Value, ir.Value, ir.Value]:
    """(i < f, i > f, i == f) exactly, for an int64 `i` and a float `f` (all false for NaN):
    within the int64 range compare `i` with trunc(f), and on a tie the fraction decides."""
    t = cast(T.Scalar, f.type)
    whole = b.intrinsic("trunc", [f], t)
    low, high = ir.Const(-(2.0**63), type=t), ir.Const(2.0**63, type=t)
    in_range = b.and_(b.cmp("ge", f, low), b.cmp("lt", f, high))
    fi = b.cast(b.select(in_range, whole, ir.Const(0.0, type=t)), T.I64)
    frac = b.binop("sub", f, whole)
    zero = ir.Const(0.0, type=t)
    same = b.cmp("eq", i, fi)
    lt = b.select(
        in_range,
        b.or_(b.cmp("lt", i, fi), b.and_(same, b.cmp("gt", frac, zero))),
        b.cmp("ge", f, high),
    )
    gt = b.select(
        in_range,
        b.or_(b.cmp("gt", i, fi), b.and_(same, b.cmp("lt", frac, zero))),
        b.cmp("lt", f, low),
    )
    eq = b.and_(in_range, b.and_(same, b.cmp("eq", frac, zero)))
    return lt, gt, eq


def _resolve_identity(op: str, a: Operand, b: Operand, loc: SourceLoc) -> Resolved:
    if isinstance(a.type, T.Optional) or isinstance(b.type, T.Optional):
        return optional.resolve_identity(op, a.type, b.type)
    none_a, none_b = isinstance(a.type, T.NoneType), isinstance(b.type, T.NoneType)
    if none_a or none_b:
        same = none_a and none_b
        return Resolved((None, None), T.BOOL, const=same == (op == "is"))
    if isinstance(a.type, T.Opaque) and isinstance(b.type, T.Opaque):
        return Resolved((None, None), T.BOOL, const=(a.type.obj is b.type.obj) == (op == "is"))
    raise TypingError("`is` is supported only with None", loc=loc, hint="use == to compare values")


def _compare_known(a: Operand, b: Operand) -> bool | None:
    """`a == b` computed while compiling, when one side is a compile-time object (a dtype, a
    class, a function) and the other is one too or a constant: Python's own `==` (so a dtype
    equals its name and its scalar type, as in NumPy); None when a side is not known."""
    values = []
    for x in (a, b):
        if isinstance(x.type, T.Opaque):
            values.append(x.type.obj)
        elif x.is_const:
            values.append(x.const)
        else:
            return None
    try:
        return bool(values[0] == values[1])
    except (TypeError, ValueError):
        return False


def _resolve_tuple_compare(op: str, ta: T.Tuple, tb: T.Tuple, loc: SourceLoc) -> Resolved:
    if op not in {"eq", "ne"}:
        return _resolve_tuple_order(op, ta, tb, loc)
    if len(ta.items) != len(tb.items):
        return Resolved((None, None), T.BOOL, const=op == "ne")
    rules = [
        resolve_compare("eq", Operand(x), Operand(y), loc) for x, y in zip(ta.items, tb.items)
    ]

    def lower(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        result: ir.Value = ir.Const(True, type=T.BOOL)
        for i, rule in enumerate(rules):
            x, y = b.extract(args[0], i), b.extract(args[1], i)
            result = b.and_(result, _apply(b, rule, x, y))
        return result if op == "eq" else b.not_(result)

    return Resolved((None, None), T.BOOL, lower)


def _resolve_tuple_order(op: str, ta: T.Tuple, tb: T.Tuple, loc: SourceLoc) -> Resolved:
    """`<`, `<=`, `>`, `>=` of tuples, as Python orders them: the first items that are not
    equal decide; when one tuple is a prefix of the other, the lengths do."""
    n = min(len(ta.items), len(tb.items))
    pairs = list(zip(ta.items[:n], tb.items[:n]))
    eqs = [resolve_compare("eq", Operand(x), Operand(y), loc) for x, y in pairs]
    ords = [resolve_compare(op, Operand(x), Operand(y), loc) for x, y in pairs]
    by_length = {"lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge}[op](
        len(ta.items), len(tb.items)
    )

    def lower(b: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        result: ir.Value = ir.Const(by_length, type=T.BOOL)
        for i in reversed(range(n)):
            x, y = _item(b, args[0], i), _item(b, args[1], i)
            if x is y:  # the same object: Python's tuple comparison takes it as equal (NaN)
                continue
            same = _apply(b, eqs[i], x, y)
            result = b.select(same, result, _apply(b, ords[i], x, y))
        return result

    return Resolved((None, None), T.BOOL, lower)


def _item(b: LowBuilder, tup: ir.Value, i: int) -> ir.Value:
    """Item `i` of a tuple: the value it was built from, when it was built here."""
    if isinstance(tup, ir.MakeTuple):
        return tup.items[i]
    return b.extract(tup, i)


def _apply(b: LowBuilder, rule: Resolved, x: ir.Value, y: ir.Value) -> ir.Value:
    """`rule` (a comparison of two items) on `x` and `y`, each cast where the rule says (a rule
    for nested tuples takes them as they are: `None`)."""
    tx, ty = rule.args
    x = x if tx is None else b.cast(x, tx)
    y = y if ty is None else b.cast(y, ty)
    return rule.lower(b, [x, y], {})  # type: ignore[misc]


# --- items and attributes -----------------------------------------------------------------


def resolve_getitem(obj: Operand, index: Operand, loc: SourceLoc) -> Resolved:
    t = obj.type
    if isinstance(t, T.Tuple):
        return _tuple_getitem(t, index, loc)
    if isinstance(t, T.Array):
        if indexing.is_advanced_index(index.type):
            return indexing.resolve_getitem(obj, index, loc)
        return arrays.resolve_getitem(obj, index, loc)
    if isinstance(t, T.List):
        return lists.resolve_getitem(obj, index)
    if isinstance(t, T.Str):
        return strmethods.resolve_getitem(obj, index)
    if containers.is_runtime_type(t):
        return containers.resolve_getitem(obj, index)
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
        raise TypingError(
            "index into an empty tuple",
            loc=loc,
            hint="a loop over `*args` needs at least one argument in compiled code",
        )
    common = t.items[0]
    for item in t.items[1:]:
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
        i = index_int(b, i, IndexError)
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
        return b.extract_dynamic(tup, i, common)

    return Resolved((None, None), common, lower)


def resolve_setitem(obj: Operand, index: Operand, value: Operand, loc: SourceLoc) -> Resolved:
    if isinstance(obj.type, T.Array):
        if indexing.is_advanced_index(index.type):
            return indexing.resolve_setitem(obj, index, value, loc)
        return arrays.resolve_setitem(obj, index, value, loc)
    if isinstance(obj.type, T.List):
        return lists.resolve_setitem(obj, index, value)
    if containers.is_runtime_type(obj.type):
        return containers.resolve_setitem(obj, index, value)
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
        if attr == "flat":
            return shapes.resolve_flat(obj)
        return arrays.resolve_getattr(obj, attr, loc)
    if isinstance(t, T.Opaque):
        value = getattr(t.obj, attr, None)
        if isinstance(t.obj, np.iinfo) and isinstance(value, int) and value >= 2**63:
            return Resolved((None,), T.U64, const=value)  # `np.iinfo(np.uint64).max`
        if value is not None:
            return Resolved((None,), const_type(value), const=value)
    if isinstance(t, T.Generator):  # its compiled methods are in lib.nprandomgen
        raise UnsupportedError(
            f"np.random.Generator.{attr} is not supported in compiled code",
            loc=loc,
            hint=f"compiled: {', '.join(method_names(T.Generator))}; draw the others in Python",
        )
    if isinstance(t, T.Str):
        raise TypingError(
            f"str.{attr} is not supported in compiled code",
            loc=loc,
            hint=f"compiled: {', '.join(method_names(T.Str))}",
        )
    raise TypingError(f"{t} has no attribute `{attr}`", loc=loc)


# The IR parser re-resolves `binop.add`, `getattr.shape`, ... through these.
register_operator("binop", lambda key, ops, loc: resolve_binop(key, ops[0], ops[1], loc))
register_operator("unary", lambda key, ops, loc: resolve_unary(key, ops[0], loc))
register_operator("cmp", lambda key, ops, loc: resolve_compare(key, ops[0], ops[1], loc))
register_operator("getitem", lambda key, ops, loc: resolve_getitem(ops[0], ops[1], loc))
register_operator("setitem", lambda key, ops, loc: resolve_setitem(ops[0], ops[1], ops[2], loc))
register_operator("getattr", lambda key, ops, loc: resolve_getattr(ops[0], key, loc))


# The listing (`jitcore.supported()`): operators have one rule per instruction, not per spelling.
_ANY = "number | array"
for _symbol, _params, _notes in (
    ("+", f"a: {_ANY} | tuple, b: {_ANY} | tuple", "tuples concatenate"),
    ("-", f"a: {_ANY}, b: {_ANY}", ""),
    ("*", f"a: {_ANY}, b: {_ANY}", ""),
    (
        "/",
        f"a: {_ANY}, b: {_ANY}",
        "ZeroDivisionError between Python numbers; inf or nan for NumPy scalars and arrays",
    ),
    (
        "//",
        "a: real | array, b: real | array",
        "floors, as Python, for ints and floats; a zero divisor raises ZeroDivisionError "
        "between Python numbers and gives 0 (ints) or inf/nan (floats) with NumPy operands",
    ),
    ("%", "a: real | array, b: real | array", "the sign of the divisor, as Python and NumPy"),
    (
        "**",
        f"a: {_ANY}, b: {_ANY}",
        "int ** negative int: a float for a literal exponent, ValueError for a variable one",
    ),
    ("@", "a: array, b: array", "as `np.matmul`"),
    ("&", "a: int | intarray, b: int | intarray", ""),
    ("|", "a: int | intarray, b: int | intarray", ""),
    ("^", "a: int | intarray, b: int | intarray", ""),
    ("<<", "a: int | intarray, b: int | intarray", ""),
    (">>", "a: int | intarray, b: int | intarray", ""),
    ("==", f"a: {_ANY} | tuple | None, b: {_ANY} | tuple | None", "NaN is unequal to itself"),
    ("!=", f"a: {_ANY} | tuple | None, b: {_ANY} | tuple | None", ""),
    ("<", "a: real | array, b: real | array", "chained comparisons too (`a < b < c`)"),
    ("<=", "a: real | array, b: real | array", ""),
    (">", "a: real | array, b: real | array", ""),
    (">=", "a: real | array, b: real | array", ""),
    ("is", "a: None, b: None", "`x is None`, `x is not None`"),
    ("in", f"x: {_ANY} | None, t: tuple", "`not in` too: `x == item` for each item"),
    ("-", f"x: {_ANY}", ""),
    ("+", f"x: {_ANY}", ""),
    ("~", "x: int | intarray", ""),
    ("not", f"x: {_ANY} | tuple | None", "`and`, `or` short-circuit and return an operand"),
    (
        "[]",
        "a: tuple | array, index: int | tuple | intarray | None",
        "arrays: ints, slices (any step), `None`, `...`, and one boolean mask or integer "
        "index array per index (reading one copies, `a[m] = x` writes)",
    ),
):
    _arity = "unary " if "b:" not in _params else ""
    describe(
        f"{_arity}{_symbol}" if _arity and _symbol in "-+" else _symbol,
        "operator",
        _params,
        _notes,
        module=__name__,
    )
describe("number.real", "attribute", "x: number", "", module=__name__)
describe("number.imag", "attribute", "x: number", "", module=__name__)
