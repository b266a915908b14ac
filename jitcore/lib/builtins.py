"""Python builtins on scalars and tuples: abs, min, max, int, float, bool, complex, round,
divmod, pow, len, isinstance (decided while compiling), print (Python's own, under the GIL);
plus the markers `ssa` emits for range loops and tuple unpacking."""

from __future__ import annotations

from typing import cast

import numpy as np

from jitcore.errors import TypingError, UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.ir.markers import (
    check_bound,
    check_unpack,
    range_bounds,
    range_count,
    range_item,
    range_more,
    reduction_identity,
    reduction_seed,
)
from jitcore.lib import arrays, containers, lists, operators, scalar, strmethods, ufuncs
from jitcore.lib.registry import Operand, Resolved, constant, describe, register_function


def _scalar(op: Operand) -> T.Scalar | None:
    return op.type if isinstance(op.type, T.Scalar) else None


def _no_kwargs(name: str, kwargs: dict[str, Operand]) -> None:
    if kwargs:
        raise TypingError(f"{name}() takes no keyword arguments here ({', '.join(kwargs)})")


# --- loop and unpacking markers -----------------------------------------------------------


@register_function(range_bounds)
def _range_bounds(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    for a in args:
        if not (isinstance(a.type, T.Scalar) and a.type.kind in "iub"):
            raise TypingError(
                f"range() arguments must be integers, not {a.type}", hint="convert with int(...)"
            )
    # Python's range takes each bound's `__index__`, a Python int: int64 here, as `int(x)`
    # gives it (a uint64 beyond int64 raises OverflowError), so the items are Python ints
    unsigned = [a.type == T.U64 for a in args]
    step = args[2]

    def lower(b: LowBuilder, vals: list[ir.Value], kw: dict) -> ir.Value:
        ints = [uint64_to_int(b, v) if u else v for v, u in zip(vals, unsigned)]
        if not (step.is_const and step.const != 0):
            b.raise_if(
                b.cmp("eq", ints[2], ir.Const(0, type=T.I64)),
                ValueError,
                "range() arg 3 must not be zero",
            )
        return b.make_tuple(ints)

    casts = tuple(T.U64 if u else T.I64 for u in unsigned)
    return Resolved(casts, T.Tuple((T.I64,) * 3), lower, may_raise=any(unsigned))


@register_function(range_more)
def _range_more(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    t = args[0].type

    def lower(b: LowBuilder, vals: list[ir.Value], kw: dict) -> ir.Value:
        i, stop, step = vals
        if isinstance(step, ir.Const):
            return b.cmp("lt" if step.value > 0 else "gt", i, stop)  # type: ignore[operator]
        up = b.cmp("gt", step, ir.Const(0, type=t))
        return b.select(up, b.cmp("lt", i, stop), b.cmp("gt", i, stop))

    return Resolved((t, t, t), T.BOOL, lower)


def _refuse_array_reduction(t: T.Type) -> None:
    if isinstance(t, T.Array):
        raise UnsupportedError(
            "a prange loop cannot reduce into an array (such as a scalar Variable "
            "`self.total += ...`): each thread's updates would be lost",
            hint="accumulate into a local variable in the loop (`s += ...`) and update the "
            "Variable after it (`self.total += s`)",
        )


@register_function(reduction_seed)
def _reduction_seed(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    _refuse_array_reduction(args[0].type)
    return Resolved((None,), args[0].type, lambda b, v, kw: v[0], origin=args[0].weak)


@register_function(reduction_identity)
def _reduction_identity(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    seed, value = args
    t = seed.type
    _refuse_array_reduction(t)
    if not (isinstance(t, T.Scalar) and value.is_const):
        return None
    typed = bool(value.const) if t.is_bool else value.const
    resolved = constant(typed, t)
    resolved.origin = seed.weak  # a Python number's chunk stays one
    return resolved


@register_function(range_count)
def _range_count(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    t = cast(T.Scalar, args[0].type)

    def lower(b: LowBuilder, vals: list[ir.Value], kw: dict) -> ir.Value:
        return _lower_range_count(b, vals, t)

    return Resolved((t, t, t), T.I64, lower)


def _lower_range_count(b: LowBuilder, vals: list[ir.Value], t: T.Scalar) -> ir.Value:
    """CPython's range length: (hi - lo - 1) / |step| + 1 in unsigned arithmetic, where no
    difference of two int64 overflows; 0 for an empty range; saturated at 2**63 - 1."""
    start, stop, step = vals
    u = T.U64
    ustart, ustop, ustep = (b.cast(v, u) for v in vals)
    one = ir.Const(1, type=u)
    if t.is_signed:
        up = b.cmp("gt", step, ir.Const(0, type=t))
        nonempty = b.select(up, b.cmp("lt", start, stop), b.cmp("gt", start, stop))
        span = b.select(
            up,
            b.binop("sub", b.binop("sub", ustop, ustart), one),
            b.binop("sub", b.binop("sub", ustart, ustop), one),
        )
        magnitude = b.select(up, ustep, b.binop("sub", ir.Const(0, type=u), ustep))
    else:
        nonempty = b.cmp("lt", start, stop)
        span = b.binop("sub", b.binop("sub", ustop, ustart), one)
        magnitude = ustep
    # `magnitude` is never 0 here: range_bounds raised for a zero step.
    n = b.binop("add", b.binop("tdiv", span, magnitude), one)
    limit = ir.Const(2**63 - 1, type=u)
    n = b.select(b.cmp("gt", n, limit), limit, n)
    return b.select(nonempty, b.cast(n, T.I64), ir.Const(0, type=T.I64))


@register_function(range_item)
def _range_item(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    t = cast(T.Scalar, args[0].type)

    def lower(b: LowBuilder, vals: list[ir.Value], kw: dict) -> ir.Value:
        start, k, step = vals
        # Exact for every item of the range; wrapping arithmetic, so no check is needed.
        return b.binop("add", start, b.binop("mul", b.cast(k, t), step))

    return Resolved((t, T.I64, t), t, lower)


@register_function(check_bound)
def _check_bound(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    name = args[1].const

    def lower(b: LowBuilder, vals: list[ir.Value], kw: dict) -> ir.Value:
        b.raise_if(
            b.not_(vals[0]),
            UnboundLocalError,
            f"cannot access local variable '{name}' where it is not associated with a value",
        )
        return ir.Const(None, type=T.NONE)

    return Resolved((T.BOOL, None), T.NONE, lower)


@register_function(check_unpack)
def _check_unpack(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    value, n = args
    if isinstance(value.type, T.Tuple):
        if len(value.type.items) != n.const:
            raise TypingError(f"cannot unpack {value.type} into {n.const} names")
        return constant(None, T.NONE)
    if isinstance(value.type, T.Array):
        return arrays.resolve_unpack_check(value, n)
    raise TypingError(f"cannot unpack a value of type {value.type}")


describe(
    "range",
    "function",
    "start: int, stop?: int, step?: int",
    "in `for` loops (any sign of step, a variable one too)",
    module=__name__,
)


# --- len, abs, min, max -------------------------------------------------------------------


@register_function(len, params="x: tuple | array | list | str | dict | set")
def _len(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    _no_kwargs("len", kwargs)
    if len(args) != 1:
        return None
    t = args[0].type
    if isinstance(t, T.Tuple):
        return constant(len(t.items), T.I64)
    if isinstance(t, T.Array):
        return arrays.resolve_len(args[0])
    if isinstance(t, T.List):
        return lists.resolve_len(args[0])
    if containers.is_runtime_type(t):
        return containers.resolve_len(args[0])
    raise TypingError(f"object of type {t} has no len()")


# --- isinstance -------------------------------------------------------------------------------


@register_function(
    isinstance,
    params="obj: number | array | tuple | list | str | dict | set | None, classinfo: const",
    notes="decided while compiling, from the type; an answer that depends on whether a number "
    "is a Python or a NumPy scalar is a TypingError",
)
def _isinstance(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    _no_kwargs("isinstance", kwargs)
    if len(args) != 2:
        return None
    obj, classinfo = args[0], _classinfo(args[1])
    if classinfo is None:
        raise TypingError(
            "isinstance: the second argument must be a class or a tuple of classes known "
            "while compiling",
            hint="name the classes directly: isinstance(x, (int, np.integer))",
        )
    answers = {isinstance(example, classinfo) for example in _examples(obj.type)}
    if len(answers) != 1:
        raise TypingError(
            f"isinstance of a {obj.type} value cannot be decided while compiling: compiled code "
            "does not tell a Python number from a NumPy scalar of the same type (or None "
            "from a value)",
            hint="accept both: isinstance(x, (int, np.integer)), isinstance(x, (float, "
            "np.floating)); test `x is None` first",
        )
    return constant(answers.pop(), T.BOOL)


def _classinfo(op: Operand) -> type | tuple | None:
    """The class or (nested) tuple of classes `op` is while compiling, or None."""
    return _classes(op.const if op.is_const else op.type)


def _classes(value: object) -> type | tuple | None:
    if isinstance(value, T.Opaque):
        value = value.obj
    if isinstance(value, type):
        return value
    items = value.items if isinstance(value, T.Tuple) else value
    if isinstance(items, tuple):
        classes = tuple(_classes(item) for item in items)
        return None if any(c is None for c in classes) else classes
    return None


# The compiled types a Python number becomes (int, float, complex and bool arguments).
_PYTHON_NUMBERS: dict[T.Type, object] = {T.BOOL: False, T.I64: 0, T.F64: 0.0, T.C128: 0j}


def _examples(t: T.Type) -> list[object]:
    """Values a compiled value of type `t` can be in Python: for a scalar both the Python
    number and the NumPy scalar where the type has both (an int64 may be either)."""
    if isinstance(t, T.Optional):
        return [*_examples(t.inner), None]
    if isinstance(t, T.Scalar):
        numpy_value = t.dtype.type(0)
        python_value = _PYTHON_NUMBERS.get(t)
        return [numpy_value] if python_value is None else [python_value, numpy_value]
    simple: dict[type, object] = {
        T.NoneType: None, T.Str: "", T.List: [], T.Dict: {}, T.Set: set(), T.Tuple: ()
    }  # fmt: skip
    if type(t) in simple:
        return [simple[type(t)]]
    if isinstance(t, T.Array):
        return [np.empty((0,) * t.ndim, dtype=t.dtype.dtype)]
    raise TypingError(f"isinstance of a {t} value is not supported")


# --- print ------------------------------------------------------------------------------------

PRINT_PREFIX = "jitcore.print:"  # codegen.pyprint.PREFIX: codegen defines these helpers
_PRINT_KEYWORDS = ("sep", "end", "flush")


@register_function(
    print,
    params="*values: number | array | tuple | list | str | dict | set | None, sep?: str | None, "
    "end?: str | None, flush?: bool",
    notes="Python's own print, called under the GIL with the values boxed as results are (so "
    "the text is Python's and NumPy's); no file=",
)
def _print(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    unknown = set(kwargs) - set(_PRINT_KEYWORDS)
    if unknown:
        raise TypingError(
            f"print: the keyword {sorted(unknown)[0]}= is not supported in compiled code",
            hint="print to sys.stdout (the default), with sep=, end= and flush=",
        )
    if any(lists.unsettled(a.type) for a in args):
        return lists.PENDING
    for a in args:
        if not _printable(a.type):
            raise TypingError(f"print: a value of type {a.type} cannot be printed")
    for name, op in kwargs.items():
        text = isinstance(op.type, T.Str | T.NoneType) and name != "flush"
        flag = isinstance(op.type, T.Scalar) and op.type.is_bool and name == "flush"
        if not (text or flag):
            wanted = "True or False" if name == "flush" else "a string or None"
            raise TypingError(f"print: {name}= must be {wanted}, not {op.type}")
    keywords = [k for k in _PRINT_KEYWORDS if k in kwargs]
    types = [a.type for a in args] + [kwargs[k].type for k in keywords]
    symbol = PRINT_PREFIX + ",".join(keywords) + ";" + ",".join(t.name for t in types)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        b.native_call(symbol, [*v, *[kw[k] for k in keywords]], T.NONE)
        return ir.Const(None, type=T.NONE)

    return Resolved(
        (None,) * len(args), T.NONE, lower, kwargs=dict.fromkeys(kwargs), may_raise=True
    )


def _printable(t: T.Type) -> bool:
    if isinstance(t, T.Tuple):
        return all(_printable(i) for i in t.items)
    if isinstance(t, T.Optional):
        return _printable(t.inner)
    if isinstance(t, T.List):
        return _printable(t.item)
    return isinstance(t, T.Scalar | T.Array | T.Str | T.Dict | T.Set | T.NoneType)


@register_function(
    abs,
    params="x: number | array",
    notes="arrays as `np.abs`; complex: OverflowError where CPython raises it",
)
def _abs(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    _no_kwargs("abs", kwargs)
    if len(args) != 1:
        return None
    t = _scalar(args[0])
    if isinstance(args[0].type, T.Array):
        return ufuncs.resolve_ufunc_call("absolute", args, kwargs)
    if t is None:
        return None
    if t.is_bool and not args[0].weak:  # NumPy's absolute of a bool is the bool
        return Resolved((t,), t, lambda b, v, kw: v[0])
    if t.is_bool:
        t = T.I64
    if t.is_complex:
        part = T.complex_part(t)
        return Resolved((t,), part, lambda b, v, kw: _complex_abs(b, v[0]))
    if t.is_float:
        return Resolved((t,), t, lambda b, v, kw: b.intrinsic("fabs", [v[0]], t))
    if not t.is_signed:
        return Resolved((t,), t, lambda b, v, kw: v[0])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        x = v[0]
        neg = b.emit(ir.UnaryOp("neg", x, type=t))
        return b.select(b.cmp("lt", x, ir.Const(0, type=t)), neg, x)

    return Resolved((t,), t, lower)


def _complex_abs(b: LowBuilder, z: ir.Value) -> ir.Value:
    """abs(z) as CPython: hypot of the parts, OverflowError if it overflows from finite parts."""
    re, im = b.real(z), b.imag(z)
    r = b.intrinsic("hypot", [re, im], re.type)  # type: ignore[arg-type]
    finite = b.and_(b.isfinite(re), b.isfinite(im))
    b.raise_if(b.and_(b.isinf(r), finite), OverflowError, "absolute value too large")
    return r


def _min_max(name: str, op: str):  # noqa: ANN202
    """Python's min/max: the first extreme item wins, NaN handling exactly as Python's loop."""

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if set(kwargs) == {"key"} and len(args) == 1 and isinstance(args[0].type, T.List):
            return lists.resolve_extreme(name, args, kwargs["key"])
        _no_kwargs(name, kwargs)
        if len(args) == 1 and isinstance(args[0].type, T.List):
            return lists.resolve_extreme(name, args)
        if len(args) == 1 and isinstance(args[0].type, T.Tuple):
            items = args[0].type.items
            if not items:
                raise TypingError(f"{name}() arg is an empty sequence")
            common = _common_scalar(name, [Operand(t) for t in items])

            def lower_tuple(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
                vals = [b.cast(b.extract(v[0], i), common) for i in range(len(items))]
                return _fold_extreme(b, op, vals)

            return Resolved((None,), common, lower_tuple)
        if len(args) == 1 and isinstance(args[0].type, T.Array):
            raise TypingError(
                f"{name}() over an array is not supported in compiled code",
                hint=f"use np.{name}(a) or a.{name}()",
            )
        if len(args) < 2:
            return None
        common = _common_scalar(name, args)
        return Resolved((common,) * len(args), common, lambda b, v, kw: _fold_extreme(b, op, v))

    return rule


def _common_scalar(name: str, args: list[Operand]) -> T.Scalar:
    common: T.Scalar | None = None
    for a in args:
        t = _scalar(a)
        if t is None or t.is_complex:
            raise TypingError(f"{name}() needs real numbers, got {a.type}")
        if common is None:
            common = t
        else:
            joined = (
                operators.binop_result("add", Operand(common), a)
                if not (common.is_bool and t.is_bool)
                else T.BOOL
            )
            common = joined or common
    assert common is not None
    return common


def _fold_extreme(b: LowBuilder, op: str, vals: list[ir.Value]) -> ir.Value:
    result = vals[0]
    for x in vals[1:]:
        result = b.select(b.cmp(op, x, result), x, result)
    return result


_MIN_MAX_PARAMS = "a: real, b: real, *rest: real; items: tuple | list"
_MIN_MAX_NOTES = "mixed int and float arguments are promoted: `min(1, 2.5)` is `1.0`"
register_function(max, params=_MIN_MAX_PARAMS, notes=_MIN_MAX_NOTES)(_min_max("max", "gt"))
register_function(min, params=_MIN_MAX_PARAMS, notes=_MIN_MAX_NOTES)(_min_max("min", "lt"))


# --- conversions --------------------------------------------------------------------------


@register_function(
    int,
    params="x?: real | str, base?: int",
    notes="OverflowError for a value beyond int64, a float's or a uint64's (Python: a big int)",
)
def _int(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    _no_kwargs("int", kwargs)
    if not args:
        return constant(0, T.I64)
    if isinstance(args[0].type, T.Str) and len(args) <= 2:
        return strmethods.resolve_int_of_str(args)  # Python parses it
    if len(args) != 1:
        return None
    t = _scalar(args[0])
    if t is None or t.is_complex:
        raise TypingError(f"int() of {args[0].type} is not supported")
    if t.is_float:
        return Resolved((t,), T.I64, lambda b, v, kw: float_to_int(b, v[0], T.I64))
    # a Python int: int64, whatever the integer type (a uint64 beyond it raises, as a float)
    if t == T.U64:
        return Resolved((T.U64,), T.I64, lambda b, v, kw: uint64_to_int(b, v[0]), may_raise=True)
    return Resolved((T.I64,), T.I64, lambda b, v, kw: v[0])


UINT64_OVERFLOW = "uint64 too large for int64 (Python would return a big int)"


def uint64_to_int(b: LowBuilder, x: ir.Value) -> ir.Value:
    """`int(x)` of a uint64: the same number as an int64, OverflowError from 2**63 on (Python
    would return a big int; compiled Python ints are int64)."""
    value = b.cast(x, T.I64)
    b.raise_if(b.cmp("lt", value, ir.Const(0, type=T.I64)), OverflowError, UINT64_OVERFLOW)
    return value


def float_to_int(b: LowBuilder, x: ir.Value, to: T.Scalar) -> ir.Value:
    """`int(x)` of a float: ValueError for NaN, OverflowError for inf, as Python; OverflowError
    beyond the int64 range too (Python would return a big int)."""
    b.raise_if(b.isnan(x), ValueError, "cannot convert float NaN to integer")
    b.raise_if(b.isinf(x), OverflowError, "cannot convert float infinity to integer")
    limit = ir.Const(9.223372036854775808e18, type=x.type)
    too_big = b.or_(
        b.cmp("ge", x, limit), b.cmp("lt", x, ir.Const(-9.223372036854775808e18, type=x.type))
    )
    b.raise_if(too_big, OverflowError, "float too large for int64 (Python would return a big int)")
    return b.cast(x, to)


@register_function(float, params="x?: real | str")
def _float(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    _no_kwargs("float", kwargs)
    if not args:
        return constant(0.0, T.F64)
    if len(args) != 1:
        return None
    if isinstance(args[0].type, T.Str):
        return strmethods.resolve_float_of_str(args[0])  # Python parses it
    t = _scalar(args[0])
    if t is None or t.is_complex:
        raise TypingError(f"float() of {args[0].type} is not supported")
    return Resolved((T.F64,), T.F64, lambda b, v, kw: v[0])


@register_function(bool, params="x?: number | tuple | None")
def _bool(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    _no_kwargs("bool", kwargs)
    if not args:
        return constant(False, T.BOOL)
    if len(args) != 1:
        return None
    static = operators.resolve_unary("truth", args[0], None)  # type: ignore[arg-type]
    return static


@register_function(complex, params="real?: number, imag?: number")
def _complex(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    _no_kwargs("complex", kwargs)
    if not args:
        return constant(0j, T.C128)
    if len(args) > 2:
        return None
    for a in args:
        t = _scalar(a)
        if t is None:
            raise TypingError(f"complex() of {a.type} is not supported")
    if len(args) == 1:
        return Resolved((T.C128,), T.C128, lambda b, v, kw: v[0])
    if any(_scalar(a).is_complex for a in args):  # type: ignore[union-attr]

        def lower_cc(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            re = b.binop("sub", b.real(v[0]), b.imag(v[1]))
            im = b.binop("add", b.imag(v[0]), b.real(v[1]))
            return b.complex(re, im, T.C128)

        return Resolved((T.C128, T.C128), T.C128, lower_cc)
    return Resolved((T.F64, T.F64), T.C128, lambda b, v, kw: b.complex(v[0], v[1], T.C128))


# --- round, divmod, pow -------------------------------------------------------------------


@register_function(
    round,
    params="x: real, ndigits?: int",
    notes="banker's rounding; `ndigits` agrees with Python for n <= 22",
)
def _round(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    ndigits = kwargs.pop("ndigits", None)
    _no_kwargs("round", kwargs)
    if len(args) == 2 and ndigits is None:
        ndigits = args[1]
    if not 1 <= len(args) <= 2:
        return None
    t = _scalar(args[0])
    if t is None or t.is_complex:
        raise TypingError(f"round() of {args[0].type} is not supported")
    if ndigits is None or (ndigits.is_const and ndigits.const is None):
        if t.is_float:

            def lower_int(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
                return float_to_int(b, b.intrinsic("roundeven", [v[0]], t), T.I64)

            # a Python int, also of a NumPy float (its __round__ returns int): `x % round(y)`
            # raises ZeroDivisionError as Python does
            return Resolved((t,), T.I64, lower_int, origin=True)
        if t.is_bool and not args[0].weak:
            raise TypingError("type numpy.bool doesn't define __round__ method (as in NumPy)")
        if not args[0].weak:  # a NumPy int's __round__ returns a Python int
            return Resolved((T.I64,), T.I64, lambda b, v, kw: v[0], origin=True)
        out = T.I64 if t.is_bool else t
        return Resolved((out,), out, lambda b, v, kw: v[0])
    if t.is_float:
        # a NumPy float's __round__ is np.round: scale, round half to even, unscale (inf
        # where the scaling overflows); a Python float's is correctly rounded
        digits = _round_float_digits if args[0].weak else _round_float_digits_numpy

        def lower_digits(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            x = v[0]
            n = v[1] if len(v) > 1 else kw["ndigits"]
            return digits(b, x, b.cast(n, T.I64))

        return Resolved((t, T.I64), t, lower_digits, kwargs={"ndigits": T.I64})
    out = T.I64 if t.is_bool else t

    def lower_int_digits(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        n = v[1] if len(v) > 1 else kw["ndigits"]
        return _round_int_digits(b, v[0], b.cast(n, T.I64))

    return Resolved((out, T.I64), out, lower_int_digits, kwargs={"ndigits": T.I64})


def _round_float_digits_numpy(b: LowBuilder, x: ir.Value, n: ir.Value) -> ir.Value:
    """np.round(x, n) as NumPy computes it: rint(x * 10**n) / 10**n for n >= 0, and
    rint(x / 10**-n) * 10**-n for n < 0 (the scaling rounds, and may overflow to inf)."""
    t = cast(T.Scalar, x.type)
    nonneg = b.cmp("ge", n, ir.Const(0, type=T.I64))
    magnitude = b.select(nonneg, n, b.binop("sub", ir.Const(0, type=T.I64), n))
    scale = b.intrinsic("pow", [ir.Const(10.0, type=t), b.cast(magnitude, t)], t)
    up = b.binop("div", b.intrinsic("roundeven", [b.binop("mul", x, scale)], t), scale)
    down = b.binop("mul", b.intrinsic("roundeven", [b.binop("div", x, scale)], t), scale)
    return b.select(nonneg, up, down)


def _round_float_digits(b: LowBuilder, x: ir.Value, n: ir.Value) -> ir.Value:
    """round(x, n) by scaling by 10**n, with ties decided on the exact scaled value: agrees
    with Python's correctly rounded decimal result for n <= 22 (exact powers of ten)."""
    t = cast(T.Scalar, x.type)
    big = b.cmp("gt", n, ir.Const(308, type=T.I64))
    small = b.cmp("lt", n, ir.Const(-308, type=T.I64))
    nf = b.cast(n, t)
    ten = ir.Const(10.0, type=t)
    neg = b.cmp("lt", n, ir.Const(0, type=T.I64))
    pos_scale = b.intrinsic("pow", [ten, nf], t)
    neg_scale = b.intrinsic("pow", [ten, b.emit(ir.UnaryOp("neg", nf, type=t))], t)
    # The scaled value is rounded once by the multiplication (division); its exact error, from
    # an FMA, tells which way a value that only looks like a tie really lies.
    scaled = b.binop("mul", x, pos_scale)
    error = b.intrinsic("fma", [x, pos_scale, b.emit(ir.UnaryOp("neg", scaled, type=t))], t)
    up = b.binop("div", _round_half_even_exact(b, scaled, error), pos_scale)
    quotient = b.binop("div", x, neg_scale)
    remainder = b.intrinsic("fma", [b.emit(ir.UnaryOp("neg", quotient, type=t)), neg_scale, x], t)
    down = b.binop("mul", _round_half_even_exact(b, quotient, remainder), neg_scale)
    scaled_finite = b.isfinite(b.binop("mul", x, pos_scale))
    # from |x * 10**n| >= 2**53 (float32: 2**24) on, the rounded integer R is not always a
    # float, and dividing it back can land an ULP away from x; but there an ULP of x exceeds
    # 10**-n, so the float nearest R / 10**n is x itself (found by the fuzzer)
    limit = ir.Const(2.0 ** (_mantissa_bits(t) + 1), type=t)
    integral = b.cmp("ge", b.intrinsic("fabs", [scaled], t), limit)
    up = b.select(b.and_(scaled_finite, b.not_(integral)), up, x)
    down = b.select(b.cmp("ge", b.intrinsic("fabs", [quotient], t), limit), x, down)  # alike
    result = b.select(neg, down, up)
    zero = b.intrinsic("copysign", [ir.Const(0.0, type=t), x], t)
    result = b.select(big, x, result)
    return b.select(small, zero, result)


def _mantissa_bits(t: T.Scalar) -> int:
    return 23 if t == T.F32 else 52


def _round_half_even_exact(b: LowBuilder, y: ir.Value, error: ir.Value) -> ir.Value:
    """Round y (the rounded value of some exact v = y + error) to an integer, half to even,
    deciding ties by v: a y that is exactly k + 0.5 is a tie of v only when error is 0."""
    t = cast(T.Scalar, y.type)
    floor = b.intrinsic("floor", [y], t)
    half = b.cmp("eq", b.binop("sub", y, floor), ir.Const(0.5, type=t))
    zero = ir.Const(0.0, type=t)
    nearest = b.intrinsic("roundeven", [y], t)
    toward_v = b.select(
        b.cmp("gt", error, zero), b.binop("add", floor, ir.Const(1.0, type=t)), floor
    )
    return b.select(b.and_(half, b.cmp("ne", error, zero)), toward_v, nearest)


def _round_int_digits(b: LowBuilder, x: ir.Value, n: ir.Value) -> ir.Value:
    """round(int, n): unchanged for n >= 0, else to a multiple of 10**-n, half to even."""
    t = cast(T.Scalar, x.type)
    nonneg = b.cmp("ge", n, ir.Const(0, type=T.I64))
    too_far = b.cmp("lt", n, ir.Const(-18, type=T.I64))
    safe_n = b.select(b.or_(nonneg, too_far), ir.Const(-1, type=T.I64), n)
    p = b.cast(
        b.intrinsic(
            "ipow",
            [ir.Const(10, type=T.I64), b.emit(ir.UnaryOp("neg", safe_n, type=T.I64))],
            T.I64,
        ),
        t,
    )
    q, r = scalar.int_divmod(b, x, p)
    twice = b.binop("mul", r, ir.Const(2, type=t))
    q_odd = b.cmp("ne", b.binop("and", q, ir.Const(1, type=t)), ir.Const(0, type=t))
    round_up = b.or_(b.cmp("gt", twice, p), b.and_(b.cmp("eq", twice, p), q_odd))
    q = b.select(round_up, b.binop("add", q, ir.Const(1, type=t)), q)
    rounded = b.binop("mul", q, p)
    rounded = b.select(too_far, ir.Const(0, type=t), rounded)
    return b.select(nonneg, x, rounded)


@register_function(divmod, params="a: real, b: real")
def _divmod(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    _no_kwargs("divmod", kwargs)
    if len(args) != 2:
        return None
    common = operators.binop_result("floordiv", args[0], args[1])
    if common is None or common.is_complex:
        raise TypingError(f"divmod() of {args[0].type} and {args[1].type} is not supported")
    if operators.numpy_scalar_rules(args[0], args[1]):
        return _numpy_divmod(args[0], args[1])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        if common.is_int:
            q, r = scalar.int_divmod(b, v[0], v[1])
        else:
            q, r = scalar.float_divmod(b, v[0], v[1], "float divmod()")
        return b.make_tuple([q, r])

    return Resolved((common, common), T.Tuple((common, common)), lower)


def _numpy_divmod(a: Operand, c: Operand) -> Resolved:
    """divmod of NumPy scalars is NumPy's `divmod`: its dtypes, and 0 (ints) or inf/nan
    (floats) for a zero divisor instead of ZeroDivisionError."""
    import numpy as np

    in1, in2, q_t, r_t = ufuncs.loop_dtypes(np.divmod, [a, c])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        x = b.cast(ufuncs.check_weak_ints(b, v[0], a, in1), in1)
        y = b.cast(ufuncs.check_weak_ints(b, v[1], c, in2), in2)
        if in1.is_int or in1.is_bool:
            q, r = scalar.int_divmod(b, x, y, numpy_rules=True)
        else:
            q, r = scalar.float_divmod(b, x, y, None)
        return b.make_tuple([b.cast(q, q_t), b.cast(r, r_t)])

    return Resolved((None, None), T.Tuple((q_t, r_t)), lower)


@register_function(
    pow,
    params="base: number, exp: number; base: int, exp: int, mod: int",
    notes="a negative exponent with a modulus raises ValueError (Python: a modular inverse)",
)
def _pow(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    _no_kwargs("pow", kwargs)
    if len(args) == 2:
        return operators.resolve_binop("pow", args[0], args[1], None)  # type: ignore[arg-type]
    if len(args) != 3:
        return None
    for a in args:
        t = _scalar(a)
        if t is None or t.kind not in "iub":
            raise TypingError("pow() 3rd argument not allowed unless all arguments are integers")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        base, exp, mod = v
        zero = ir.Const(0, type=T.I64)
        b.raise_if(b.cmp("eq", mod, zero), ValueError, "pow() 3rd argument cannot be 0")
        b.raise_if(
            b.cmp("lt", exp, zero),
            ValueError,
            "pow() with a negative exponent and a modulus is not supported in compiled code",
        )
        return b.intrinsic("powmod", [base, exp, mod], T.I64)

    return Resolved((T.I64, T.I64, T.I64), T.I64, lower)
