"""Methods of a `np.random.Generator` (`rng.integers(...)` in compiled code), drawing from
the generator in place: see `nprandomgk` for the kernels.

A Generator argument is the address of its bit generator's C interface (`bitgen_t`, from
`rng.bit_generator.capsule`); the primitives call its `next_uint64`, `next_uint32` and
`next_double` through the runtime (`jitcore.runtime.rngstate`), so after the call the Python
object's state has advanced exactly as the same method calls in NumPy would advance it.
A Generator made in compiled code (`np.random.default_rng(seed)`, `nprandomrng`) owns a
runtime block with a `bitgen_t` inside: every method rule is written for a borrowed
`generator`, and `generator_method` registers it so that an owned receiver is cast to one.
The other distributions (`normal`, `gamma`, ...) call NumPy's own C functions: `nprandomgd`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from jitcore.errors import TypingError, UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.lib import nprandomgk as G
from jitcore.lib.arrays import _shape_values
from jitcore.lib.nprandom import (
    _FALSE,
    Bound,
    _bind,
    _call,
    _first,
    _int_bound,
    _int_dtype,
    _is_none,
    _length,
    _operand,
    _real,
    _result,
    _size_ndim,
    _size_tuple,
    _sizes_t,
    _value,
    binomial_rule,
    bound_of,
    check_bounds,
    p_tolerance,
)
from jitcore.lib.registry import Operand, Resolved, call_kernel, register_function, register_method
from jitcore.runtime import rngstate

Rule = Callable[[list[Operand], dict[str, Operand]], Resolved]
_DRAWS = {
    G.bitgen_u64: ("jitcore_rt_bitgen_next_uint64", T.U64),
    G.bitgen_u32: ("jitcore_rt_bitgen_next_uint32", T.U32),
    G.bitgen_double: ("jitcore_rt_bitgen_next_double", T.F64),
}
assert all(symbol in rngstate.BITGEN_DRAWS for symbol, _ in _DRAWS.values())


def _draw_rule(symbol: str, ret: T.Scalar) -> Rule:
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        if len(args) != 1 or kwargs or args[0].type != T.GENERATOR:
            raise TypingError("a bit generator draw takes the generator")

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
            return b.native_call(symbol, [v[0]], ret)

        return Resolved((None,), ret, lower, may_raise=True)

    return rule


for _func, (_symbol, _ret) in _DRAWS.items():
    register_function(_func)(_draw_rule(_symbol, _ret))


def generator_method(*names: str, params: str = "", notes: str = "") -> Callable[[Rule], Rule]:
    """`register_method(T.Generator, *names, ...)` for a rule written for a borrowed
    `generator` receiver (a `bitgen_t *`). An owned receiver (a Generator made in compiled
    code) is typed as a borrowed one and cast to it for the call: the kernels and NumPy's C
    functions take the `bitgen_t` inside its block, and `refcount` keeps the block alive while
    that pointer is in use. So every method has one set of kernels for both kinds."""

    def wrap(rule: Rule) -> Rule:
        @functools.wraps(rule)
        def lending(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
            if not args or args[0].type != T.OWNED_GENERATOR:
                return rule(args, kwargs)
            resolved = rule([Operand(T.GENERATOR), *args[1:]], kwargs)
            resolved.args = (T.GENERATOR, *resolved.args[1:])
            return resolved

        register_method(T.Generator, *names, params=params, notes=notes)(lending)
        return rule

    return wrap


def require_generator(args: list[Operand], what: str) -> None:
    """A TypingError unless `args[0]` (the method's receiver) is a Generator."""
    if not args or args[0].type != T.GENERATOR:
        raise TypingError(f"{what} needs a np.random.Generator")


# --- random, uniform ------------------------------------------------------------------------


def _float_method(what: str, kernel: str, params: list[tuple[str, float]]) -> Rule:
    names = [name for name, _ in params]

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        require_generator(args, what)
        where = _bind(args, kwargs, ["self", *names, "size"], what)
        for name in names:
            _real(_operand(args, kwargs, where, name), what, name)
        ndim = _size_ndim(_operand(args, kwargs, where, "size"))
        types: list[T.Type] = [T.GENERATOR, *[T.F64] * len(names)]
        if ndim is not None:
            types.append(_sizes_t(ndim))
        k = call_kernel(getattr(G, kernel if ndim is None else kernel + "_size"), types)

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
            values = [v[0]]
            for name, default in params:
                given = _value(v, kw, where, name)
                values.append(ir.Const(default, type=T.F64) if given is None else given)
            size = _value(v, kw, where, "size")
            if ndim is not None and size is not None:
                values.append(_size_tuple(b, size))
            return _call(b, k, values)

        return _result(args, kwargs, k.ret, lower)

    return rule


RANDOM_FLOAT64 = _float_method("Generator.random", "random", [])  # nprandomgd: `random`
generator_method("uniform", params="low?: real, high?: real, size?: shape | None")(
    _float_method("Generator.uniform", "uniform", [("low", 0.0), ("high", 1.0)])
)
generator_method("poisson", params="lam?: real, size?: shape | None", notes="int64 results")(
    _float_method("Generator.poisson", "poisson", [("lam", 1.0)])
)
generator_method("binomial", params="n: int, p: real, size?: shape | None", notes="int64 results")(
    binomial_rule("Generator.binomial", G, receiver=True)
)


# --- integers --------------------------------------------------------------------------------


@generator_method(
    "integers",
    params="low: int, high?: int | None, size?: shape | None, dtype?: dtype, endpoint?: bool",
    notes=(
        "scalar bounds, uint64 ones of 2**63 and more included; Lemire's method as NumPy's,"
        " for every integer dtype and bool; an empty `size` checks no bounds, as NumPy"
    ),
)
def _integers(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    what = "Generator.integers"
    require_generator(args, what)
    where = _bind(args, kwargs, ["self", "low", "high", "size", "dtype", "endpoint"], what)
    low_op = _operand(args, kwargs, where, "low")
    if low_op is None:
        raise TypingError(f"{what} needs low")
    _int_bound(low_op, "low")
    high_op = _operand(args, kwargs, where, "high")
    has_high = not _is_none(high_op)
    if has_high:
        assert high_op is not None
        _int_bound(high_op, "high")
    endpoint_op = _operand(args, kwargs, where, "endpoint")
    if endpoint_op is not None and not (
        endpoint_op.is_const and isinstance(endpoint_op.const, bool | int)
    ):
        raise TypingError(f"{what}: endpoint must be a constant True or False")
    closed = bool(endpoint_op.const) if endpoint_op is not None else False
    dtype = _int_dtype(_operand(args, kwargs, where, "dtype"))
    bits = 1 if dtype.is_bool else dtype.bits
    ndim = _size_ndim(_operand(args, kwargs, where, "size"))
    types: list[T.Type] = [T.GENERATOR, T.I64, T.I64, T.I64, dtype]
    if ndim is not None:
        types.append(_sizes_t(ndim))
    k = call_kernel(G.integers if ndim is None else G.integers_size, types)

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
        check_bounds(b, low, high, dtype, closed, sizes)
        # the kernel takes the bits: top - low is the range modulo 2**64
        top = high.value if closed else b.binop("sub", high.value, i64(1))
        zero = ir.Const(False if dtype.is_bool else 0, type=dtype)
        values = [v[0], low.value, top, i64(bits), zero]
        if sizes is not None:
            values.append(b.make_tuple(sizes))
        return _call(b, k, values)

    return _result(args, kwargs, k.ret, lower, numpy_scalar=True)  # NumPy: np.int64


# --- choice, shuffle, permutation ------------------------------------------------------------


@generator_method(
    "choice",
    params="a: int | array, size?: shape | None, replace?: bool, p?: array | None",
    notes="`a` an int or a 1-D array (no `axis`, `shuffle`); NumPy's sampling algorithms",
)
def _choice(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    what = "Generator.choice"
    require_generator(args, what)
    where = _bind(args, kwargs, ["self", "a", "size", "replace", "p"], what)
    a_op = _operand(args, kwargs, where, "a")
    if a_op is None:
        raise TypingError(f"{what} needs a")
    a_t = a_op.type
    is_array = isinstance(a_t, T.Array)
    if isinstance(a_t, T.Array) and a_t.ndim != 1:
        raise UnsupportedError(
            f"{what}: only 1-D arrays are compiled", hint="choose indices, then index rows"
        )
    if not is_array and not (isinstance(a_t, T.Scalar) and a_t.kind in "iub"):
        raise TypingError(f"{what}: a must be an int or a 1-D array, not {a_t}")
    replace_op = _operand(args, kwargs, where, "replace")
    if replace_op is not None and not (
        isinstance(replace_op.type, T.Scalar) and replace_op.type.kind in "iub"
    ):
        raise TypingError(f"{what}: replace must be a bool, not {replace_op.type}")
    p_op = _operand(args, kwargs, where, "p")
    has_p = not _is_none(p_op)
    p_types: list[T.Type] = []
    atol = 0.0
    if has_p:
        assert p_op is not None
        p_t = p_op.type
        if not (isinstance(p_t, T.Array) and p_t.ndim == 1 and not p_t.dtype.is_complex):
            raise TypingError(f"{what}: p must be a 1-D array of probabilities, not {p_t}")
        p_types += [p_t, T.F64]
        atol = p_tolerance(p_t)
    ndim = _size_ndim(_operand(args, kwargs, where, "size"))
    name = "choice_indices_p" if has_p else "choice_indices"
    shape_t = _sizes_t(1 if ndim is None else ndim)
    k = call_kernel(getattr(G, name), [T.GENERATOR, T.I64, T.BOOL, shape_t, T.BOOL, *p_types])
    take = None
    if isinstance(a_t, T.Array):
        from jitcore.lib import nprandomk as K

        take = call_kernel(K.take_one, [a_t, T.I64]) if ndim is None else None
        take = take or call_kernel(K.take, [a_t, k.ret])
    ret = take.ret if take is not None else (T.I64 if ndim is None else k.ret)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        a = _value(v, kw, where, "a")
        assert a is not None
        size = _value(v, kw, where, "size")
        replace = _value(v, kw, where, "replace")
        values: list[ir.Value] = [
            v[0],
            _length(b, a) if is_array else b.cast(a, T.I64),
            ir.Const(is_array, type=T.BOOL),
            b.make_tuple([i64(1)]) if size is None or ndim is None else _size_tuple(b, size),
            ir.Const(True, type=T.BOOL) if replace is None else b.cast(replace, T.BOOL),
        ]
        if has_p:
            p = _value(v, kw, where, "p")
            assert p is not None
            values += [p, ir.Const(atol, type=T.F64)]
        idx = _call(b, k, values)
        if ndim is None:
            idx = _first(b, idx)
        return idx if take is None else _call(b, take, [a, idx])

    return _result(args, kwargs, ret, lower, numpy_scalar=is_array)


def _array_or_int_method(what: str, kernels: tuple[str, str, str | None]) -> Rule:
    """shuffle (1-D, rows) and permutation (1-D, rows, int)."""
    flat, rows, of_int = kernels

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        require_generator(args, what)
        where = _bind(args, kwargs, ["self", "x"], what)
        op = _operand(args, kwargs, where, "x")
        if op is None:
            raise TypingError(f"{what} needs x")
        t = op.type
        if isinstance(t, T.Array) and t.ndim >= 1:
            k = call_kernel(getattr(G, flat if t.ndim == 1 else rows), [T.GENERATOR, t])
        elif of_int is not None and isinstance(t, T.Scalar) and t.kind in "iub":
            k = call_kernel(getattr(G, of_int), [T.GENERATOR, T.I64])
        else:
            raise TypingError(f"{what}: x must be an array of at least one dimension, not {t}")

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
            x = _value(v, kw, where, "x")
            assert x is not None
            out = _call(b, k, [v[0], x])
            return ir.Const(None, type=T.NONE) if of_int is None else out

        return _result(args, kwargs, T.NONE if of_int is None else k.ret, lower)

    return rule


generator_method("shuffle", params="x: array", notes="along the first axis")(
    _array_or_int_method("Generator.shuffle", ("shuffle", "shuffle_rows", None))
)
generator_method("permutation", params="x: int | array", notes="rows for n-D")(
    _array_or_int_method(
        "Generator.permutation", ("permutation", "permutation_rows", "permutation_n")
    )
)
