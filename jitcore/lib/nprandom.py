"""`np.random` in compiled code: NumPy's legacy `RandomState` functions, with its stream.

Compiled code has a generator of its own, one MT19937 state per thread in the runtime
(`jitcore.runtime.rngstate`), seeded from the OS's entropy at first use; `np.random.seed(s)`
inside compiled code (or `jitcore.random.seed(s)` from Python) seeds the calling thread's
state, and from then on every function here returns exactly what NumPy's global `RandomState`
returns after `np.random.seed(s)` and the same calls (the kernels of `nprandomk` follow NumPy's
algorithms step by step). Python's own `np.random.seed` does not touch compiled code's state,
as in Numba.

The rules here check the arguments' types, normalize `size` (None, an int or a tuple of ints)
to a tuple, check `randint`'s bounds and `dtype`, and call the kernels: `size=None` gives a
scalar, any other size a new C-contiguous array of that shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from jitcore.errors import TypingError, UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.lib import nprandomk as K
from jitcore.lib.arrays import _shape_arg, _shape_values, dtype_arg
from jitcore.lib.registry import (
    Operand,
    Resolved,
    call_kernel,
    register_function,
)
from jitcore.runtime import rngstate

Rule = Callable[[list[Operand], dict[str, Operand]], Resolved]
WORDS_T = T.Array(T.U32, 1, "C")
CELL_T = T.Array(T.F64, 1, "C")
_NULL = ir.Const(None, type=T.PTR)


# --- the primitives the kernels reach the state through ----------------------------------------


@register_function(K.state_words)
def _state_words(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    if args or kwargs:
        raise TypingError("state_words() takes no arguments")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        state = b.native_call(rngstate.STATE, [], T.PTR)
        b.raise_if(
            b.cmp("eq", state, _NULL), MemoryError, "cannot allocate the random number state"
        )
        return b.emit(ir.MakeArray(_NULL, state, [i64(rngstate.WORDS)], [i64(4)], type=WORDS_T))

    return Resolved((), WORDS_T, lower, may_raise=True)


@register_function(K.draw_double)
def _draw_double(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """The legacy stream's double (the `next_double` kernel) or a Generator's."""
    if len(args) != 1 or kwargs or args[0].type not in (WORDS_T, T.GENERATOR):
        raise TypingError("draw_double() takes the state words or a Generator")
    if args[0].type == T.GENERATOR:

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
            return b.native_call(rngstate.BITGEN_NEXT_DOUBLE, [v[0]], T.F64)

        return Resolved((None,), T.F64, lower, may_raise=True)
    k = call_kernel(K.next_double, [WORDS_T])

    def lower_words(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        return _call(b, k, [v[0]])

    return Resolved((None,), T.F64, lower_words, may_raise=True)


@register_function(K.libm_exp)
def _libm_exp(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    if len(args) != 1 or kwargs:
        raise TypingError("libm_exp() takes one float")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        return b.native_call(rngstate.LIBM_EXP, [v[0]], T.F64)

    return Resolved((T.F64,), T.F64, lower)


@register_function(K.gauss_cell)
def _gauss_cell(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    if len(args) != 1 or kwargs or args[0].type != WORDS_T:
        raise TypingError("gauss_cell() takes the state words")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        data = b.emit(ir.ArrayField(v[0], "data", type=T.PTR))
        cell = b.ptr_add(data, i64(rngstate.GAUSS_OFFSET))
        return b.emit(ir.MakeArray(_NULL, cell, [i64(1)], [i64(8)], type=CELL_T))

    return Resolved((None,), CELL_T, lower)


# --- arguments -------------------------------------------------------------------------------


def _bind(
    args: list[Operand], kwargs: dict[str, Operand], names: list[str], what: str
) -> dict[str, int | str]:
    """Where each parameter was given: its position in `args`, its keyword, or absent."""
    if len(args) > len(names):
        raise TypingError(f"{what} takes at most {len(names)} positional arguments")
    where: dict[str, int | str] = {name: i for i, name in enumerate(names[: len(args)])}
    for name in kwargs:
        if name not in names:
            raise TypingError(f"{what}: unexpected keyword argument {name!r}")
        if name in where:
            raise TypingError(f"{what}: argument {name!r} given twice")
        where[name] = name
    return where


def _operand(
    args: list[Operand], kwargs: dict[str, Operand], where: dict[str, int | str], name: str
) -> Operand | None:
    slot = where.get(name)
    if slot is None:
        return None
    return args[slot] if isinstance(slot, int) else kwargs[slot]


def _value(
    v: list[ir.Value], kw: dict[str, ir.Value], where: dict[str, int | str], name: str
) -> ir.Value | None:
    slot = where.get(name)
    if slot is None:
        return None
    return v[slot] if isinstance(slot, int) else kw[slot]


def _is_none(op: Operand | None) -> bool:
    return op is None or isinstance(op.type, T.NoneType) or (op.is_const and op.const is None)


def _real(op: Operand | None, what: str, name: str) -> None:
    if op is None:
        return
    t = op.type
    if isinstance(t, T.Array):
        raise UnsupportedError(
            f"{what}: array arguments for {name} are not supported in compiled code",
            hint=f"pass {name} as a number (NumPy's broadcasting of parameters is not compiled)",
        )
    if not (isinstance(t, T.Scalar) and not t.is_complex):
        raise TypingError(f"{what}: {name} must be a real number, not {t}")


def _size_ndim(op: Operand | None) -> int | None:
    """None for a scalar result, else the number of dimensions of the result."""
    if _is_none(op):
        return None
    assert op is not None
    return _shape_arg(op)


def _size_tuple(b: LowBuilder, size: ir.Value) -> ir.Value:
    return b.make_tuple(_shape_values(b, size))


def _sizes_t(ndim: int) -> T.Tuple:
    return T.Tuple((T.I64,) * ndim)


def _call(b: LowBuilder, kernel: Resolved, values: list[ir.Value]) -> ir.Value:
    assert kernel.lower is not None
    cast = [b.cast(x, t) if t is not None else x for x, t in zip(values, kernel.args)]
    return kernel.lower(b, cast, {})


def _result(
    args: list[Operand],
    kwargs: dict[str, Operand],
    ret: T.Type,
    lower,  # noqa: ANN001
    numpy_scalar: bool = False,
) -> Resolved:
    """A draw's Resolved. One float64 or int64 number (`size=None`) is a Python float or int,
    as NumPy returns it (`np.random.random() / 0.0` raises ZeroDivisionError), unless
    `numpy_scalar`: `Generator.integers`, a `dtype=` asked for, an item `choice` took from an
    array."""
    python = isinstance(ret, T.Scalar) and ret in (T.F64, T.I64) and not numpy_scalar
    return Resolved(
        (None,) * len(args),
        ret,
        lower,
        kwargs=dict.fromkeys(kwargs),
        may_raise=True,
        origin=True if python else None,
    )


# --- seeding ---------------------------------------------------------------------------------


@register_function(
    np.random.seed,
    params="seed: int",
    notes="seeds compiled code's own generator (this thread's), not NumPy's; ints only",
    listed_as="np.random.seed",
)
def _seed(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    where = _bind(args, kwargs, ["seed"], "np.random.seed")
    op = _operand(args, kwargs, where, "seed")
    if op is None or _is_none(op):
        raise UnsupportedError(
            "np.random.seed() without a seed is not supported in compiled code",
            hint="seed with an int, or leave the generator to its entropy seeding",
        )
    if not (isinstance(op.type, T.Scalar) and op.type.kind in "iub"):
        raise UnsupportedError(
            f"np.random.seed takes an int in compiled code, not {op.type}",
            hint="array and sequence seeds (init_by_array) are not compiled",
        )
    kernel = call_kernel(K.seed, [T.I64])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        s = _value(v, kw, where, "seed")
        assert s is not None
        if isinstance(op.type, T.Scalar) and op.type.kind == "u" and op.type.bits == 64:
            s = b.cast(s, T.U64)
            too_big = b.cmp("gt", s, ir.Const(0xFFFFFFFF, type=T.U64))
            b.raise_if(too_big, ValueError, "Seed must be between 0 and 2**32 - 1")
        _call(b, kernel, [s])
        return ir.Const(None, type=T.NONE)

    return _result(args, kwargs, T.NONE, lower)


# --- floats ------------------------------------------------------------------------------------


_Params = list[tuple[str, float | None]]


def _float_rule(
    what: str, kernel: str, params: _Params
) -> Callable[[list[Operand], dict[str, Operand]], Resolved]:
    """A distribution with scalar parameters `params` (name, default; None: required) and
    `size`."""
    names = [name for name, _ in params]

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        where = _bind(args, kwargs, [*names, "size"], what)
        for name, default in params:
            if default is None and name not in where:
                raise TypingError(f"{what} needs {name}")
            _real(_operand(args, kwargs, where, name), what, name)
        ndim = _size_ndim(_operand(args, kwargs, where, "size"))
        types: list[T.Type] = [T.F64] * len(names)
        if ndim is not None:
            types.append(_sizes_t(ndim))
        k = call_kernel(getattr(K, kernel if ndim is None else kernel + "_size"), types)

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
            values = []
            for name, default in params:
                given = _value(v, kw, where, name)
                values.append(ir.Const(default, type=T.F64) if given is None else given)
            if ndim is not None:
                size = _value(v, kw, where, "size")
                assert size is not None
                values.append(_size_tuple(b, size))
            return _call(b, k, values)

        return _result(args, kwargs, k.ret, lower)

    return rule


def _register_floats() -> None:
    size = "size?: shape | None"
    table: tuple[tuple[object, str, _Params, str], ...] = (
        (np.random.random_sample, "random_sample", [], "53-bit doubles in [0, 1)"),
        (np.random.random, "random_sample", [], "`random_sample`"),
        (np.random.ranf, "random_sample", [], "`random_sample`"),
        (np.random.sample, "random_sample", [], "`random_sample`"),
        (np.random.standard_normal, "standard_normal", [], "polar Box-Muller, as NumPy's"),
        (np.random.uniform, "uniform", [("low", 0.0), ("high", 1.0)], ""),
        (np.random.normal, "normal", [("loc", 0.0), ("scale", 1.0)], ""),
        (np.random.exponential, "exponential", [("scale", 1.0)], ""),
        (np.random.standard_exponential, "exponential", [], ""),
        (np.random.poisson, "poisson", [("lam", 1.0)], "int64 results"),
        (np.random.geometric, "geometric", [("p", None)], "int64 results"),
    )
    for func, kernel, params, notes in table:
        name_of = getattr(func, "__name__", "")
        text = ", ".join(
            [*(f"{name}{'' if d is None else '?'}: real" for name, d in params), size]
        )
        rule: Callable[[list[Operand], dict[str, Operand]], Resolved] = (
            _standard_exponential
            if func is np.random.standard_exponential
            else _float_rule(f"np.random.{name_of}", kernel, params)
        )
        register_function(func, params=text, notes=notes, listed_as=f"np.random.{name_of}")(rule)


def _standard_exponential(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """exponential(1.0, size): NumPy's legacy standard_exponential draws the same."""
    where = _bind(args, kwargs, ["size"], "np.random.standard_exponential")
    ndim = _size_ndim(_operand(args, kwargs, where, "size"))
    types: list[T.Type] = [T.F64] if ndim is None else [T.F64, _sizes_t(ndim)]
    k = call_kernel(K.exponential if ndim is None else K.exponential_size, types)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        values: list[ir.Value] = [ir.Const(1.0, type=T.F64)]
        size = _value(v, kw, where, "size")
        if size is not None and ndim is not None:
            values.append(_size_tuple(b, size))
        return _call(b, k, values)

    return _result(args, kwargs, k.ret, lower)


def _dims_rule(what: str, kernel: str) -> Callable[[list[Operand], dict[str, Operand]], Resolved]:
    """`rand(d0, d1, ...)` and `randn(...)`: the shape as separate ints."""

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        if kwargs:
            raise TypingError(f"{what} takes the dimensions as positional ints only")
        for op in args:
            if not (isinstance(op.type, T.Scalar) and op.type.kind in "iub"):
                raise TypingError(f"{what}: dimensions must be ints, not {op.type}")
        if not args:
            k = call_kernel(getattr(K, kernel), [])
        else:
            k = call_kernel(getattr(K, kernel + "_size"), [_sizes_t(len(args))])

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
            if not v:
                return _call(b, k, [])
            return _call(b, k, [b.make_tuple([b.cast(x, T.I64) for x in v])])

        return _result(args, kwargs, k.ret, lower)

    return rule


register_function(np.random.rand, params="*d: int", listed_as="np.random.rand")(
    _dims_rule("np.random.rand", "random_sample")
)
register_function(np.random.randn, params="*d: int", listed_as="np.random.randn")(
    _dims_rule("np.random.randn", "standard_normal")
)
_register_floats()


def binomial_rule(what: str, kernels: object, receiver: bool) -> Rule:
    """`binomial(n, p, size)` of the legacy stream (`kernels` nprandomk) or of a Generator
    passed in (`nprandomgk`, `receiver`): n an int, p a real, NumPy's checks (p first)."""

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        names = ["self", "n", "p", "size"] if receiver else ["n", "p", "size"]
        where = _bind(args, kwargs, names, what)
        n_op, p_op = _operand(args, kwargs, where, "n"), _operand(args, kwargs, where, "p")
        if n_op is None or p_op is None:
            raise TypingError(f"{what} needs n and p")
        _int_bound(n_op, "n", what)
        _real(p_op, what, "p")
        ndim = _size_ndim(_operand(args, kwargs, where, "size"))
        types: list[T.Type] = [T.GENERATOR] if receiver else []
        types += [T.I64, T.F64] + ([] if ndim is None else [_sizes_t(ndim)])
        name = "binomial" if ndim is None else "binomial_size"
        k = call_kernel(getattr(kernels, name), types)

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
            values = [v[0]] if receiver else []
            for param in ("n", "p"):
                given = _value(v, kw, where, param)
                assert given is not None
                values.append(given)
            size = _value(v, kw, where, "size")
            if ndim is not None and size is not None:
                values.append(_size_tuple(b, size))
            return _call(b, k, values)

        return _result(args, kwargs, k.ret, lower)

    return rule


register_function(
    np.random.binomial,
    params="n: int, p: real, size?: shape | None",
    notes="int64 results",
    listed_as="np.random.binomial",
)(binomial_rule("np.random.binomial", K, receiver=False))


# --- randint ---------------------------------------------------------------------------------


def _int_dtype(op: Operand | None) -> T.Scalar:
    if op is None:
        return T.I64
    if op.is_const and op.const is int:
        return T.I64
    if op.is_const and op.const is bool:
        return T.BOOL
    t = dtype_arg(op, np.int64)
    if t.kind not in "iub":
        raise TypingError(f"np.random.randint: dtype must be an integer or bool type, not {t}")
    return t


def _int_bound(op: Operand, name: str, what: str = "np.random.randint") -> None:
    if not (isinstance(op.type, T.Scalar) and op.type.kind in "iub"):
        if isinstance(op.type, T.Array):
            raise UnsupportedError(
                f"{what}: array arguments ({name}) are not supported in compiled code",
                hint="draw with scalar bounds",
            )
        raise TypingError(f"{what}: {name} must be an int, not {op.type}")


@dataclass(frozen=True, slots=True)
class Bound:
    """An integer bound of randint/integers, exact over int64 and uint64: `value` is its bits
    as an int64, `big` whether it is a uint64 of 2**63 or more (whose bits read as negative)."""

    value: ir.Value
    big: ir.Value


_FALSE = ir.Const(False, type=T.BOOL)


def bound_of(b: LowBuilder, x: ir.Value) -> Bound:
    """The bound `x` (any integer or bool type) as an exact Bound."""
    value = b.cast(x, T.I64)
    if x.type != T.U64:
        return Bound(value, _FALSE)
    return Bound(value, b.cmp("lt", value, i64(0)))


def _both(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    if isinstance(x, ir.Const):
        return y if x.value else _FALSE
    return b.and_(x, y)


def _either(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    if isinstance(x, ir.Const):
        return ir.Const(True, type=T.BOOL) if x.value else y
    return b.or_(x, y)


def _above(b: LowBuilder, x: Bound, c: int) -> ir.Value:
    """x > c exactly, for a constant c in [-2**63, 2**64]."""
    if c >= (1 << 64) - 1:
        return _FALSE
    if c >= 1 << 63:  # only a big x can be above; their bits order as the values do
        return _both(b, x.big, b.cmp("gt", x.value, i64(c - (1 << 64))))
    return _either(b, x.big, b.cmp("gt", x.value, i64(c)))


def _below(b: LowBuilder, x: Bound, c: int) -> ir.Value:
    """x < c exactly, for a constant c in [-2**63, 2**63 - 1]."""
    return _both(b, _small(b, x), b.cmp("lt", x.value, i64(c)))


def _small(b: LowBuilder, x: Bound) -> ir.Value:
    """x < 2**63: its bits are its value."""
    return ir.Const(True, type=T.BOOL) if x.big is _FALSE else b.not_(x.big)


def _ordered(b: LowBuilder, x: Bound, y: Bound, op: str) -> ir.Value:
    """x < y (`op` "lt") or x <= y ("le") exactly: a big bound is above every other one, and
    two bounds on the same side of 2**63 order as their bits do."""
    same_side = b.cmp(op, x.value, y.value)
    if x.big is _FALSE and y.big is _FALSE:
        return same_side
    differ = b.binop("xor", x.big, y.big, T.BOOL)
    return b.select(differ, y.big, same_side)


def check_bounds(
    b: LowBuilder,
    low: Bound,
    high: Bound,
    dtype: T.Scalar,
    closed: bool = False,
    sizes: list[ir.Value] | None = None,
) -> None:
    """The bounds checks of RandomState.randint (`high` exclusive) and Generator.integers
    (`closed`: `endpoint=True`), in NumPy's order and with its messages; a uint64 bound of
    2**63 or more is compared as the number it is, as NumPy does. NumPy checks nothing when
    `size` (its items `sizes`) has no element: it returns the empty array at once."""
    drawn: ir.Value = ir.Const(True, type=T.BOOL)
    for n in sizes or ():
        drawn = _both(b, drawn, b.cmp("ne", n, i64(0)))

    def fail_if(cond: ir.Value, message: str) -> None:
        b.raise_if(_both(b, drawn, cond) if cond is not _FALSE else cond, ValueError, message)

    info = np.iinfo(np.int64) if dtype.is_bool else np.iinfo(dtype.dtype)
    lo_bound, hi_bound = (0, 1) if dtype.is_bool else (int(info.min), int(info.max))
    name = "bool" if dtype.is_bool else dtype.dtype.name
    if lo_bound > -(1 << 63):
        fail_if(_below(b, low, lo_bound), f"low is out of bounds for {name}")
    # high - 1 > bound, written high > bound + 1: high - 1 may leave int64
    fail_if(
        _above(b, high, hi_bound if closed else hi_bound + 1), f"high is out of bounds for {name}"
    )
    empty = _ordered(b, high, low, "lt" if closed else "le")
    low_zero = _both(b, _small(b, low), b.cmp("eq", low.value, i64(0)))
    fail_if(b.and_(empty, low_zero), "high < 0" if closed else "high <= 0")
    fail_if(empty, "low > high" if closed else "low >= high")


@register_function(
    np.random.randint,
    params="low: int, high?: int | None, size?: shape | None, dtype?: dtype",
    notes=(
        "scalar bounds, uint64 ones of 2**63 and more included; every integer dtype and bool,"
        " each drawn as NumPy draws it; an empty `size` checks no bounds, as NumPy"
    ),
    listed_as="np.random.randint",
)
def _randint(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    what = "np.random.randint"
    where = _bind(args, kwargs, ["low", "high", "size", "dtype"], what)
    low_op = _operand(args, kwargs, where, "low")
    if low_op is None:
        raise TypingError(f"{what} needs low")
    _int_bound(low_op, "low")
    high_op = _operand(args, kwargs, where, "high")
    has_high = not _is_none(high_op)
    if has_high:
        assert high_op is not None
        _int_bound(high_op, "high")
    dtype = _int_dtype(_operand(args, kwargs, where, "dtype"))
    bits = 1 if dtype.is_bool else dtype.bits
    ndim = _size_ndim(_operand(args, kwargs, where, "size"))
    types: list[T.Type] = [T.I64, T.I64, T.I64, dtype]
    if ndim is not None:
        types.append(_sizes_t(ndim))
    k = call_kernel(K.randint if ndim is None else K.randint_size, types)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        given_low = _value(v, kw, where, "low")
        assert given_low is not None
        low = bound_of(b, given_low)
        given_high = _value(v, kw, where, "high") if has_high else None
        if given_high is None:
            low, high = Bound(i64(0), _FALSE), low
        else:
            high = bound_of(b, given_high)
        size = _value(v, kw, where, "size") if ndim is not None else None
        sizes = _shape_values(b, size) if size is not None else None
        check_bounds(b, low, high, dtype, sizes=sizes)
        # the kernel takes the bits: high - 1 - low is the range modulo 2**64
        values = [
            low.value,
            high.value,
            i64(bits),
            ir.Const(False if dtype.is_bool else 0, type=dtype),
        ]
        if sizes is not None:
            values.append(b.make_tuple(sizes))
        return _call(b, k, values)

    dtype_given = not _is_none(_operand(args, kwargs, where, "dtype"))
    return _result(args, kwargs, k.ret, lower, numpy_scalar=dtype_given)


# --- choice, shuffle, permutation ------------------------------------------------------------


@register_function(
    np.random.choice,
    params="a: int | array, size?: shape | None, replace?: bool, p?: array | None",
    notes="`a` an int or a 1-D array; `p` checked as NumPy checks it",
    listed_as="np.random.choice",
)
def _choice(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    what = "np.random.choice"
    where = _bind(args, kwargs, ["a", "size", "replace", "p"], what)
    a_op = _operand(args, kwargs, where, "a")
    if a_op is None:
        raise TypingError(f"{what} needs a")
    a_t = a_op.type
    is_array = isinstance(a_t, T.Array)
    if is_array:
        assert isinstance(a_t, T.Array)
        if a_t.ndim != 1:
            raise UnsupportedError(
                f"{what}: a must be 1-dimensional (NumPy raises ValueError)",
                hint="choose from a 1-D array or an int",
            )
    elif not (isinstance(a_t, T.Scalar) and a_t.kind in "iub"):
        raise TypingError(f"{what}: a must be an int or a 1-D array, not {a_t}")
    replace_op = _operand(args, kwargs, where, "replace")
    if replace_op is not None and not (
        isinstance(replace_op.type, T.Scalar) and replace_op.type.kind in "iub"
    ):
        raise TypingError(f"{what}: replace must be a bool, not {replace_op.type}")
    p_op = _operand(args, kwargs, where, "p")
    has_p = not _is_none(p_op)
    p_types: list[T.Type] = []
    if has_p:
        assert p_op is not None
        p_t = p_op.type
        if not (isinstance(p_t, T.Array) and p_t.ndim == 1 and not p_t.dtype.is_complex):
            raise TypingError(f"{what}: p must be a 1-D array of probabilities, not {p_t}")
        p_types += [p_t, T.F64]
    ndim = _size_ndim(_operand(args, kwargs, where, "size"))
    # size=None draws NumPy's one-item sample, as NumPy does (the same draws), and unwraps it
    name = "choice_indices_p" if has_p else "choice_indices"
    shape_t = _sizes_t(1 if ndim is None else ndim)
    k = call_kernel(getattr(K, name), [T.I64, T.BOOL, shape_t, T.BOOL, *p_types])
    take: Resolved | None = None
    if isinstance(a_t, T.Array):
        take = call_kernel(K.take, [a_t, k.ret]) if ndim is not None else None
        if ndim is None:
            take = call_kernel(K.take_one, [a_t, T.I64])
    ret = take.ret if take is not None else (T.I64 if ndim is None else k.ret)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        a = _value(v, kw, where, "a")
        assert a is not None
        pop = _length(b, a) if is_array else b.cast(a, T.I64)
        size = _value(v, kw, where, "size")
        replace = _value(v, kw, where, "replace")
        values: list[ir.Value] = [
            pop,
            ir.Const(is_array, type=T.BOOL),
            b.make_tuple([i64(1)]) if size is None or ndim is None else _size_tuple(b, size),
            ir.Const(True, type=T.BOOL) if replace is None else b.cast(replace, T.BOOL),
        ]
        if has_p:
            p = _value(v, kw, where, "p")
            assert p is not None and isinstance(p.type, T.Array)
            values += [p, ir.Const(p_tolerance(p.type), type=T.F64)]
        idx = _call(b, k, values)
        if ndim is None:
            idx = _first(b, idx)
        return idx if take is None else _call(b, take, [a, idx])

    return _result(args, kwargs, ret, lower, numpy_scalar=isinstance(a_t, T.Array))


def p_tolerance(p_t: T.Array) -> float:
    """NumPy's tolerance for `p` summing to 1: sqrt(eps) of float64, or of p's own float
    dtype when coarser (float32 p may be 3.5e-4 off)."""
    atol = float(np.sqrt(np.finfo(np.float64).eps))
    if p_t.dtype.is_float:
        atol = max(atol, float(np.sqrt(np.finfo(p_t.dtype.dtype).eps)))
    return atol


def _length(b: LowBuilder, a: ir.Value) -> ir.Value:
    return b.emit(ir.ArrayField(a, "shape", 0, type=T.I64))


def _first(b: LowBuilder, idx: ir.Value) -> ir.Value:
    """Item 0 of a contiguous int64 array."""
    data = b.emit(ir.ArrayField(idx, "data", type=T.PTR))
    return b.emit(ir.Load(data, type=T.I64))


@register_function(
    np.random.shuffle,
    params="x: array",
    notes="in place along the first axis",
    listed_as="np.random.shuffle",
)
def _shuffle(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    where = _bind(args, kwargs, ["x"], "np.random.shuffle")
    op = _operand(args, kwargs, where, "x")
    if op is None or not isinstance(op.type, T.Array) or op.type.ndim < 1:
        raise TypingError("np.random.shuffle needs an array of at least one dimension")
    k = call_kernel(K.shuffle if op.type.ndim == 1 else K.shuffle_rows, [op.type])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        x = _value(v, kw, where, "x")
        assert x is not None
        _call(b, k, [x])
        return ir.Const(None, type=T.NONE)

    return _result(args, kwargs, T.NONE, lower)


@register_function(
    np.random.permutation,
    params="x: int | array",
    notes="a shuffled `arange(x)` or copy of `x` (rows, for n-D)",
    listed_as="np.random.permutation",
)
def _permutation(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    where = _bind(args, kwargs, ["x"], "np.random.permutation")
    op = _operand(args, kwargs, where, "x")
    if op is None:
        raise TypingError("np.random.permutation needs x")
    t = op.type
    if isinstance(t, T.Array):
        if t.ndim < 1:
            raise TypingError("np.random.permutation: x must be an integer or at least 1-D")
        k = call_kernel(K.permutation if t.ndim == 1 else K.permutation_rows, [t])
    elif isinstance(t, T.Scalar) and t.kind in "iub":
        k = call_kernel(K.permutation_n, [T.I64])
    else:
        raise TypingError(f"np.random.permutation: x must be an int or an array, not {t}")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        x = _value(v, kw, where, "x")
        assert x is not None
        return _call(b, k, [x])

    return _result(args, kwargs, k.ret, lower)
