"""More NumPy creation, small products, statistics and array/number methods: `logspace`,
`geomspace`, `meshgrid`, `ascontiguousarray`, `asfortranarray`, `vander`, `rot90`, `sinc`,
`divmod`, `vdot`, `inner`, `polyval`, `trapezoid`, `cov`, `corrcoef`, `ndarray.fill`,
`ndarray.item`, `ndarray.view` and `.conjugate()`/`.conj()` of numbers.

Rules pick NumPy's result dtypes and layouts; elementwise ones plug into `ufuncs`, the products
reuse `matmul`, views are built here, and the kernels of `npmorek` do the rest. Each rule's
`notes` say what differs from NumPy.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import cast

import numpy as np

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.lib import arrays as A
from jitcore.lib import joining as J
from jitcore.lib import layout as L
from jitcore.lib import matmul, npmorek, ufuncs
from jitcore.lib import shapes as S
from jitcore.lib.loops import Recipe, elementwise
from jitcore.lib.nprows import bind_operands, is_none
from jitcore.lib.npstats import flat1
from jitcore.lib.registry import (
    Lowerer,
    Operand,
    Resolved,
    call_kernel,
    register_function,
    register_method,
)

Ops = dict[str, Operand | None]


def _bind(
    args: list[Operand], kwargs: dict[str, Operand], names: list[str], what: str
) -> tuple[Ops, dict[str, int]]:
    """The operands by parameter name (None when not given; `nprows.bind_operands`) and, for
    those given, where the emitter finds them: a position in the positional values, or -1
    for a keyword."""
    ops = bind_operands(args, kwargs, names, what)
    where = {name: k for k, name in enumerate(names[: len(args)])} | dict.fromkeys(kwargs, -1)
    return ops, where


def _value(v: list[ir.Value], kw: dict, where: dict[str, int], name: str) -> ir.Value | None:
    """The value of parameter `name` at lowering time (None when not given)."""
    if name not in where:
        return None
    k = where[name]
    return cast(ir.Value, kw[name]) if k < 0 else v[k]


def _refuse(ops: Ops, what: str, *names: str) -> None:
    """TypingError for parameters NumPy has and this implementation does not (None passes)."""
    for name in names:
        if not is_none(ops.get(name)):
            raise TypingError(
                f"{what}: the {name} argument is not supported",
                hint=f"leave {name} out (its default)",
            )


def _scalar(op: Operand | None, what: str, name: str, kinds: str = "iubf") -> T.Scalar:
    t = None if op is None else op.type
    if not (isinstance(t, T.Scalar) and t.kind in kinds):
        words = {
            "iu": "an integer",
            "iub": "an integer",
            "iubf": "a real number",
            "iubfc": "a number",
        }
        raise TypingError(
            f"{what}: {name} must be {words.get(kinds, 'a number')}, not {t}",
            hint=f"pass {words.get(kinds, 'a number')} as {name}",
        )
    return t


def _as_numpy(op: Operand) -> object:
    """What NumPy's `result_type` sees: a dtype, or (for a Python number) a weak value."""
    return ufuncs._result_operand(op)


def _strong(op: Operand) -> np.dtype:
    """The dtype NumPy gives a number it first turns into an array (`np.asarray(x)`)."""
    t = op.type
    dtype = t.dtype if isinstance(t, T.Array) else t
    assert isinstance(dtype, T.Scalar)
    return dtype.dtype


def _result(*parts: object) -> T.Scalar:
    return T.from_dtype(np.result_type(*parts))  # type: ignore[arg-type]


def _array_arg(op: Operand | None, what: str, name: str = "the argument") -> T.Array:
    if op is None or not isinstance(op.type, T.Array):
        raise TypingError(
            f"{what}: {name} must be an array, not {None if op is None else op.type}",
            hint="pass a NumPy array (np.asarray(...) of a tuple makes one)",
        )
    return op.type


def _flag(b: LowBuilder, value: ir.Value | None, default: bool) -> ir.Value:
    return ir.Const(default, type=T.BOOL) if value is None else b.cast(value, T.BOOL)


def _lower(k: Resolved) -> Lowerer:
    return cast(Lowerer, k.lower)


def _c(value: float | int | bool, t: T.Type) -> ir.Const:
    return ir.Const(value, type=t)


# --- logspace, geomspace ----------------------------------------------------------------------

_SPACE = ["start", "stop", "num", "endpoint"]


def _space_ends(ops: Ops, what: str) -> None:
    if ops["start"] is None or ops["stop"] is None:
        raise TypingError(f"{what} needs start and stop", hint=f"call {what}(start, stop)")
    for name in ("start", "stop"):
        op = ops[name]
        if op is not None and isinstance(op.type, T.Array):
            raise TypingError(
                f"{what}: array start and stop are not supported",
                hint="pass numbers (one sequence per call)",
            )
        _scalar(op, what, name)
    if ops["num"] is not None:
        _scalar(ops["num"], what, "num", "iub")
    if ops["endpoint"] is not None:
        _scalar(ops["endpoint"], what, "endpoint", "iub")


@register_function(
    np.logspace,
    params="start: real, stop: real, num?: int, endpoint?: bool, base?: real",
    notes="start, stop and base are numbers; no dtype= or axis=",
)
def _logspace(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    what = "np.logspace"
    ops, where = _bind(args, kwargs, [*_SPACE, "base", "dtype", "axis"], what)
    _refuse(ops, what, "dtype", "axis")
    _space_ends(ops, what)
    base_op = ops["base"] or Operand(T.F64, 10.0, weak=True)
    _scalar(base_op, what, "base")
    start, stop = cast(Operand, ops["start"]), cast(Operand, ops["stop"])
    # NumPy's linspace computes in result_type(start, stop, float(num)); power(base, y) then
    # takes a Python base as weak, a NumPy one as it is
    lin = _result(_as_numpy(start), _as_numpy(stop), 1.0)
    out = _result(_as_numpy(base_op), lin.dtype)
    k = call_kernel(npmorek.logspace_k, [lin, lin, T.I64, T.BOOL, out])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        num = _value(v, kw, where, "num")
        base = _value(v, kw, where, "base")
        return _lower(k)(
            b,
            [
                b.cast(cast(ir.Value, _value(v, kw, where, "start")), lin),
                b.cast(cast(ir.Value, _value(v, kw, where, "stop")), lin),
                i64(50) if num is None else b.cast(num, T.I64),
                _flag(b, _value(v, kw, where, "endpoint"), True),
                _c(10.0, out) if base is None else b.cast(base, out),
            ],
            {},
        )

    return Resolved((None,) * len(args), k.ret, lower, kwargs=dict.fromkeys(kwargs))


@register_function(
    np.geomspace,
    params="start: real, stop: real, num?: int, endpoint?: bool",
    notes="start and stop are real numbers; no dtype= or axis=",
)
def _geomspace(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    what = "np.geomspace"
    ops, where = _bind(args, kwargs, [*_SPACE, "dtype", "axis"], what)
    _refuse(ops, what, "dtype", "axis")
    _space_ends(ops, what)
    k = call_kernel(npmorek.geomspace_k, [T.F64, T.F64, T.I64, T.BOOL])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        num = _value(v, kw, where, "num")
        return _lower(k)(
            b,
            [
                b.cast(cast(ir.Value, _value(v, kw, where, "start")), T.F64),
                b.cast(cast(ir.Value, _value(v, kw, where, "stop")), T.F64),
                i64(50) if num is None else b.cast(num, T.I64),
                _flag(b, _value(v, kw, where, "endpoint"), True),
            ],
            {},
        )

    return Resolved((None,) * len(args), k.ret, lower, kwargs=dict.fromkeys(kwargs))


# --- meshgrid ---------------------------------------------------------------------------------


@register_function(
    np.meshgrid,
    params="x: array, *xi: array, *, indexing?: str",
    notes="one to three 1-D arrays; the results are C-ordered copies (NumPy's default copy=True)",
)
def _meshgrid(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    what = "np.meshgrid"
    kw = dict(kwargs)
    indexing = kw.pop("indexing", None)
    copy, sparse = kw.pop("copy", None), kw.pop("sparse", None)
    if kw:
        raise TypingError(f"{what}: unexpected keyword argument {sorted(kw)[0]!r}")
    if copy is not None and not (copy.is_const and copy.const is True):
        raise TypingError(f"{what}: only copy=True is supported", hint="leave copy out")
    if sparse is not None and not (sparse.is_const and sparse.const is False):
        raise TypingError(f"{what}: only sparse=False is supported", hint="leave sparse out")
    mode = "xy" if indexing is None else indexing.const
    if mode not in ("xy", "ij"):
        raise TypingError(f"{what}: indexing must be the constant 'xy' or 'ij', not {mode!r}")
    if not 1 <= len(args) <= 3:
        raise TypingError(
            f"{what} of {len(args)} arrays is not supported", hint="pass one to three arrays"
        )
    types = [_array_arg(op, what, f"argument {k + 1}") for k, op in enumerate(args)]
    if any(t.ndim != 1 for t in types):
        raise TypingError(f"{what} takes 1-D arrays", hint="flatten them first with .ravel()")
    xy = _c(mode == "xy", T.BOOL)
    if len(args) == 1:
        one = T.Array(types[0].dtype, 1, "C")
        return Resolved(
            (None,),
            T.Tuple((one,)),
            lambda b, v, kw: b.make_tuple([A.copy_array(b, v[0])]),
            kwargs=dict.fromkeys(kwargs),
        )
    kernel = npmorek.meshgrid2 if len(args) == 2 else npmorek.meshgrid3
    k = call_kernel(kernel, [*types, T.BOOL])
    return Resolved(
        (None,) * len(args),
        k.ret,
        lambda b, v, kw: _lower(k)(b, [*v, xy], {}),
        kwargs=dict.fromkeys(kwargs),
    )


# --- ascontiguousarray, asfortranarray ----------------------------------------------------------


def _is_f_contiguous(b: LowBuilder, a: ir.Value) -> ir.Value:
    """Whether `a`'s elements lie in Fortran order without gaps, at run time (NumPy's flag)."""
    t = cast(T.Array, a.type)
    if t.layout == "F" or t.ndim == 0 or (t.layout == "C" and t.ndim == 1):
        return _c(True, T.BOOL)
    shapes, strides = L.shapes_of(b, a), L.strides_of(b, a)
    ok: ir.Value = _c(True, T.BOOL)
    expected: ir.Value = i64(L.itemsize(t))
    for n, st in zip(shapes, strides):
        ok = b.and_(ok, b.or_(b.cmp("eq", n, i64(1)), b.cmp("eq", st, expected)))
        expected = b.binop("mul", expected, n)
    return b.or_(ok, b.cmp("eq", L.size_of(b, shapes), i64(0)))


def _ascontiguous(fortran: bool):  # noqa: ANN202
    what = "np.asfortranarray" if fortran else "np.ascontiguousarray"

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        ops, _ = _bind(args, kwargs, ["a", "dtype"], what)
        _refuse(ops, what, "dtype")
        a = ops["a"]
        if a is None:
            return None
        t = a.type
        if isinstance(t, T.Scalar):  # NumPy makes an array of one item (ndmin=1)
            dtype = T.from_dtype(_strong(a))

            def lower_number(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
                out = L.allocate(b, dtype, [i64(1)], "C")
                L.store(b, L.data_of(b, out), b.cast(v[0], dtype))
                return out

            return Resolved((None,) * len(args), T.Array(dtype, 1, "C"), lower_number)
        t = _array_arg(a, what)
        if t.ndim <= 1:
            out = T.Array(t.dtype, 1, "C")

            def lower_vector(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
                if t.ndim == 0:  # a view of one item
                    size = i64(L.itemsize(t))
                    return L.make_view(b, v[0], out, L.data_of(b, v[0]), [i64(1)], [size])
                return S.c_view_or_copy(b, v[0], L.shapes_of(b, v[0]))

            return Resolved((None,) * len(args), out, lower_vector, kwargs=dict.fromkeys(kwargs))
        out = T.Array(t.dtype, t.ndim, "F" if fortran else "C")

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            a = v[0]
            shapes = L.shapes_of(b, a)
            if not fortran:
                return S.c_view_or_copy(b, a, shapes)
            strides = L.contiguous_strides(b, shapes, L.itemsize(t), "F")

            def view() -> ir.Value:
                return L.make_view(b, a, out, L.data_of(b, a), shapes, strides)

            def copy() -> ir.Value:
                fresh = L.allocate(b, t.dtype, shapes, "F")
                J.copy_into(b, fresh, a)
                return fresh

            contiguous = _is_f_contiguous(b, a)
            if isinstance(contiguous, ir.Const):
                return view()
            return S._either(b, contiguous, out, view, copy)

        return Resolved((None,) * len(args), out, lower, kwargs=dict.fromkeys(kwargs))

    return rule


register_function(
    np.ascontiguousarray,
    params="a: number | array",
    notes="a view when `a` is C-contiguous (a new array object on the same memory), else a copy",
)(_ascontiguous(False))
register_function(
    np.asfortranarray,
    params="a: number | array",
    notes="a view when `a` is Fortran-contiguous (a new array object on the same memory), "
    "else a copy",
)(_ascontiguous(True))


# --- vander, rot90 ------------------------------------------------------------------------------


@register_function(np.vander, params="x: array, N?: int | None, increasing?: bool")
def _vander(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    what = "np.vander"
    ops, where = _bind(args, kwargs, ["x", "N", "increasing"], what)
    t = _array_arg(ops["x"], what, "x")
    if not is_none(ops["N"]):
        _scalar(ops["N"], what, "N", "iub")
    if ops["increasing"] is not None:
        _scalar(ops["increasing"], what, "increasing", "iub")
    dtype = T.from_dtype(np.promote_types(t.dtype.dtype, np.int64))
    out = T.Array(dtype, 2, "C")
    if t.ndim != 1:
        lower_error = S.always_raise(
            ValueError, "x must be a one-dimensional array or sequence.", out
        )
        return Resolved((None,) * len(args), out, lower_error, kwargs=dict.fromkeys(kwargs))
    k = call_kernel(npmorek.vander_k, [t, T.I64, T.BOOL, T.Array(dtype, 1, "C")])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        n = _value(v, kw, where, "N")
        x = v[0]
        count = L.shape_of(b, x, 0) if n is None or is_none_value(n) else b.cast(n, T.I64)
        proto = L.allocate(b, dtype, [i64(0)], "C")
        increasing = _flag(b, _value(v, kw, where, "increasing"), False)
        return _lower(k)(b, [x, count, increasing, proto], {})

    return Resolved((None,) * len(args), out, lower, kwargs=dict.fromkeys(kwargs))


def is_none_value(v: ir.Value) -> bool:
    return isinstance(v.type, T.NoneType)


def _rot90_axes(op: Operand | None, what: str) -> tuple[int, ...]:
    if op is None:
        return (0, 1)
    value = op.const
    if not (isinstance(value, tuple) and all(isinstance(x, int) for x in value)):
        raise TypingError(
            f"{what}: axes must be a constant tuple of two ints", hint="write axes=(0, 1)"
        )
    return value


@register_function(
    np.rot90,
    params="m: array, k?: int, axes?: tuple",
    notes="a view, typed as any layout unless k is the constant 0",
)
def _rot90(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    what = "np.rot90"
    ops, where = _bind(args, kwargs, ["m", "k", "axes"], what)
    t = _array_arg(ops["m"], what, "m")
    k_op = ops["k"]
    if k_op is not None:
        _scalar(k_op, what, "k", "iub")
    axes = _rot90_axes(ops["axes"], what)
    const_k = 1 if k_op is None else (int(cast(int, k_op.const)) if k_op.is_const else None)
    if const_k is not None and const_k % 4 == 0:
        out = t
    else:
        out = T.Array(t.dtype, t.ndim, "A")
    nd = t.ndim
    error = None
    if len(axes) != 2:
        error = "len(axes) must be 2."
    elif axes[0] == axes[1] or abs(axes[0] - axes[1]) == nd:
        error = "Axes must be different."
    elif not all(-nd <= x < nd for x in axes):
        error = f"Axes={axes} out of range for array of ndim={nd}."
    if error is not None:  # NumPy's ValueError, raised when the call runs
        lower_error = S.always_raise(ValueError, error, out)
        return Resolved((None,) * len(args), out, lower_error, kwargs=dict.fromkeys(kwargs))
    p, q = axes[0] % nd, axes[1] % nd

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        m = v[0]
        shapes, strides = L.shapes_of(b, m), L.strides_of(b, m)
        if const_k is not None and const_k % 4 == 0:
            return L.make_view(b, m, out, L.data_of(b, m), shapes, strides)
        sp, sq, tp, tq = shapes[p], shapes[q], strides[p], strides[q]

        def neg(x: ir.Value) -> ir.Value:
            return b.emit(ir.UnaryOp("neg", x, type=T.I64))

        def last(n: ir.Value, st: ir.Value) -> ir.Value:  # where a flipped axis starts
            top = b.binop("sub", n, i64(1))
            return b.binop("mul", b.select(b.cmp("lt", top, i64(0)), i64(0), top), st)

        # (offset, shape p, shape q, stride p, stride q) for k = 0, 1, 2, 3 (NumPy's flips and
        # transposes of rot90)
        cases = [
            (i64(0), sp, sq, tp, tq),
            (last(sq, tq), sq, sp, neg(tq), tp),
            (b.binop("add", last(sp, tp), last(sq, tq)), sp, sq, neg(tp), neg(tq)),
            (last(sp, tp), sq, sp, tq, neg(tp)),
        ]
        if const_k is not None:
            chosen = list(cases[const_k % 4])
        else:
            kv = b.cast(cast(ir.Value, _value(v, kw, where, "k")), T.I64)
            r = b.binop("trem", kv, i64(4))
            r = b.select(b.cmp("lt", r, i64(0)), b.binop("add", r, i64(4)), r)
            chosen = []
            for part in range(5):
                value = cases[3][part]
                for case in (2, 1, 0):
                    value = b.select(b.cmp("eq", r, i64(case)), cases[case][part], value)
                chosen.append(value)
        offset, new_p, new_q, stride_p, stride_q = chosen
        new_shapes, new_strides = list(shapes), list(strides)
        new_shapes[p], new_shapes[q] = new_p, new_q
        new_strides[p], new_strides[q] = stride_p, stride_q
        data = b.ptr_add(L.data_of(b, m), offset)
        return L.make_view(b, m, out, data, new_shapes, new_strides)

    return Resolved((None,) * len(args), out, lower, kwargs=dict.fromkeys(kwargs))


# --- sinc, divmod -------------------------------------------------------------------------------


@register_function(np.sinc, params="x: real | array", notes="real numbers and arrays")
def _sinc(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 1 or kwargs:
        raise TypingError("np.sinc takes one argument", hint="call np.sinc(x)")
    t = args[0].type
    element_t = t.dtype if isinstance(t, T.Array) else t
    if not isinstance(element_t, T.Scalar) or element_t.is_complex:
        raise TypingError(f"np.sinc takes real numbers or arrays of them, not {t}")
    # NumPy: y = pi * where(x == 0, 1.0e-20, x); sin(y) / y, x first made an array
    dtype = _result(_strong(args[0]), 1.0)
    sin = ufuncs._unary_element("sin")

    def fn(b: LowBuilder, xs: list[ir.Value]) -> ir.Value:
        x = b.cast(xs[0], dtype)
        tiny = b.select(b.cmp("eq", x, _c(0.0, dtype)), _c(1.0e-20, dtype), x)
        y = b.binop("mul", _c(math.pi, dtype), tiny)
        return b.binop("div", sin(b, y), y)

    return ufuncs._elementwise_resolved(1, ufuncs._result_type(args, dtype), Recipe(dtype, fn))


@register_function(
    np.divmod,
    params="x1: real | array, x2: real | array",
    notes="np.floor_divide and np.remainder together",
)
def _divmod(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 2 or kwargs:
        raise TypingError(
            "np.divmod takes two arguments (no out= or other keywords)",
            hint="call np.divmod(x1, x2)",
        )
    for op in args:
        t = op.type
        dtype = t.dtype if isinstance(t, T.Array) else t
        if isinstance(dtype, T.Scalar) and dtype.is_complex:
            raise TypingError("np.divmod of complex numbers: NumPy has no such loop")
    quotient = ufuncs.resolve_ufunc_call("floor_divide", args, {})
    remainder = ufuncs.resolve_ufunc_call("remainder", args, {})

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        q = _lower(quotient)(b, v, {})
        r = _lower(remainder)(b, v, {})
        return b.make_tuple([q, r])

    return Resolved((None, None), T.Tuple((quotient.ret, remainder.ret)), lower, may_raise=True)


# --- vdot, inner, polyval, trapezoid ----------------------------------------------------------


def _product_arrays(args: list[Operand], kwargs: dict[str, Operand], what: str) -> list[T.Array]:
    if len(args) != 2 or kwargs:
        raise TypingError(f"{what} takes two arrays", hint=f"call {what}(a, b)")
    return [_array_arg(op, what, name) for op, name in zip(args, ("a", "b"))]


@register_function(np.vdot, params="a: array, b: array", notes="of arrays (not of numbers)")
def _vdot(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    ta, tb = _product_arrays(args, kwargs, "np.vdot")
    vec_a, vec_b = T.Array(ta.dtype, 1, "C"), T.Array(tb.dtype, 1, "C")
    dot = matmul.resolve_matmul([Operand(vec_a), Operand(vec_b)], what="dot")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        x = flat1(b, v[0], ta.dtype)
        y = flat1(b, v[1], tb.dtype)
        n, m = L.shape_of(b, x, 0), L.shape_of(b, y, 0)
        b.raise_if(b.cmp("ne", n, m), ValueError, "vectors have different lengths")
        if ta.dtype.is_complex:
            part = T.complex_part(ta.dtype)

            def conj(bb: LowBuilder, xs: list[ir.Value]) -> ir.Value:
                z = xs[0]
                minus = bb.emit(ir.UnaryOp("neg", bb.imag(z), type=part))
                return bb.complex(bb.real(z), minus, ta.dtype)

            x = elementwise(b, [x], ta.dtype, conj)
        return _lower(dot)(b, [x, y], {})

    return Resolved((None, None), dot.ret, lower, may_raise=True)


@register_function(np.inner, params="a: array, b: array", notes="1-D and 2-D arrays")
def _inner(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    ta, tb = _product_arrays(args, kwargs, "np.inner")
    if not (1 <= ta.ndim <= 2 and 1 <= tb.ndim <= 2):
        raise TypingError(
            "np.inner is supported for 1-D and 2-D arrays",
            hint="use np.tensordot or np.dot for other shapes",
        )
    tb_t = S._permuted_type(tb, (1, 0)) if tb.ndim == 2 else tb
    dot = matmul.resolve_matmul([Operand(ta), Operand(tb_t)], what="dot")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        y = S.permuted(b, v[1], (1, 0)) if tb.ndim == 2 else v[1]
        return _lower(dot)(b, [v[0], y], {})

    return Resolved((None, None), dot.ret, lower, may_raise=True)


@register_function(
    np.polyval,
    params="p: array, x: real | array",
    notes="a 1-D p; an empty p gives zeros of the result's dtype (NumPy: of x's dtype, and a "
    "0-d array for a number x)",
)
def _polyval(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    what = "np.polyval"
    if len(args) != 2 or kwargs:
        raise TypingError(f"{what} takes two arguments", hint="call np.polyval(p, x)")
    tp = _array_arg(args[0], what, "p")
    if tp.ndim != 1:
        raise TypingError(f"{what}: p must be a 1-D array of coefficients")
    tx = args[1].type
    x_dtype = tx.dtype if isinstance(tx, T.Array) else tx
    if not isinstance(x_dtype, T.Scalar) or x_dtype.is_complex or tp.dtype.is_complex:
        raise TypingError(f"{what} takes real coefficients and real numbers or arrays")
    dtype = _result(tp.dtype.dtype, _strong(args[1]))
    vec = T.Array(x_dtype, 1, "C")
    k = call_kernel(npmorek.polyval_k, [tp, vec, T.Array(dtype, 1, "C")])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        xv = v[1]
        if isinstance(xv.type, T.Scalar):
            one = L.allocate(b, x_dtype, [i64(1)], "C")
            L.store(b, L.data_of(b, one), b.cast(xv, x_dtype))
            out = L.allocate(b, dtype, [i64(1)], "C")
            _lower(k)(b, [v[0], one, out], {})
            return L.load(b, L.data_of(b, out), dtype)
        shapes = L.shapes_of(b, xv)
        out = L.allocate(b, dtype, shapes, "C")
        size = i64(dtype.dtype.itemsize)
        out1 = L.make_view(
            b, out, T.Array(dtype, 1, "C"), L.data_of(b, out), [L.size_of(b, shapes)], [size]
        )
        _lower(k)(b, [v[0], flat1(b, xv, x_dtype), out1], {})
        return out

    ret = T.Array(dtype, tx.ndim, "C") if isinstance(tx, T.Array) else dtype
    if isinstance(ret, T.Array) and ret.ndim == 0:
        raise TypingError(f"{what}: x may not be a 0-d array", hint="pass x[()] instead")
    return Resolved((None, None), ret, lower)


@register_function(
    np.trapezoid,
    params="y: array, x?: array | None, dx?: real, axis?: axis",
    notes="1-D y and x",
)
def _trapezoid(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    what = "np.trapezoid"
    ops, where = _bind(args, kwargs, ["y", "x", "dx", "axis"], what)
    ty = _array_arg(ops["y"], what, "y")
    if ty.ndim != 1:
        raise TypingError(f"{what} is supported for 1-D y", hint="integrate each row in a loop")
    axis = ops["axis"]
    if axis is not None and not (axis.is_const and axis.const in (0, -1)):
        raise TypingError(f"{what}: axis must be the constant 0 or -1 for a 1-D y")
    if not is_none(ops["x"]):
        tx = _array_arg(ops["x"], what, "x")
        if tx.ndim != 1:
            raise TypingError(f"{what}: x must be 1-D")
        product = _result(tx.dtype.dtype, ty.dtype.dtype)
        quotient = _result(product.dtype, 2.0)
        k = call_kernel(
            npmorek.trapezoid_x,
            [ty, tx, quotient, T.Array(product, 1, "C"), T.Array(quotient, 1, "C")],
        )

        def lower_x(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            x = cast(ir.Value, _value(v, kw, where, "x"))
            protos = [L.allocate(b, d, [i64(0)], "C") for d in (product, quotient)]
            return _lower(k)(b, [v[0], x, _c(2.0, quotient), *protos], {})

        return Resolved((None,) * len(args), quotient, lower_x, kwargs=dict.fromkeys(kwargs))
    dx = ops["dx"] or Operand(T.F64, 1.0, weak=True)
    dx_t = _scalar(dx, what, "dx", "iubfc")
    product = _result(_as_numpy(dx), ty.dtype.dtype)
    quotient = _result(product.dtype, 2.0)
    k = call_kernel(npmorek.trapezoid_dx, [ty, product, quotient, T.Array(quotient, 1, "C")])
    weak_int = dx.weak and dx_t == T.I64

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        d = _value(v, kw, where, "dx")
        if d is None:
            d = _c(1.0, T.F64)
        elif weak_int:  # NumPy 2 refuses a Python int that does not fit y's integers
            A.check_python_int(b, d, product)
        proto = L.allocate(b, quotient, [i64(0)], "C")
        return _lower(k)(b, [v[0], b.cast(d, product), _c(2.0, quotient), proto], {})

    return Resolved((None,) * len(args), quotient, lower, kwargs=dict.fromkeys(kwargs))


# --- cov, corrcoef ------------------------------------------------------------------------------

_M2 = T.Array(T.F64, 2, "C")


def _cov_input(op: Operand | None, what: str) -> T.Array:
    t = _array_arg(op, what, "m")
    if t.dtype.is_complex:
        raise TypingError(f"{what} of complex arrays is not supported")
    if not 1 <= t.ndim <= 2:
        raise TypingError(f"{what} is supported for 1-D and 2-D arrays")
    return t


def _cov_lower(
    t: T.Array, k: Resolved
) -> Callable[[LowBuilder, ir.Value, ir.Value, ir.Value], ir.Value]:
    """An emitter of the 2-D covariance matrix of `m` (1-D: one variable) and whether its
    row means are pairwise sums (NumPy sums pairwise along a contiguous axis of its copy)."""
    view_t = T.Array(t.dtype, 2, "A")

    def emit(b: LowBuilder, m: ir.Value, rowvar: ir.Value, ddof: ir.Value) -> ir.Value:
        shapes, strides = L.shapes_of(b, m), L.strides_of(b, m)
        if t.ndim == 1:
            view = L.make_view(
                b, m, view_t, L.data_of(b, m), [i64(1), shapes[0]], [i64(0), strides[0]]
            )
            return _lower(k)(b, [view, _c(True, T.BOOL), ddof, _c(True, T.BOOL)], {})
        s0, s1 = (
            b.select(b.cmp("lt", s, i64(0)), b.emit(ir.UnaryOp("neg", s, type=T.I64)), s)
            for s in strides
        )
        nvar = b.select(rowvar, shapes[0], shapes[1])
        obs_inner = b.select(rowvar, b.cmp("le", s1, s0), b.cmp("lt", s0, s1))
        pairwise = b.or_(b.cmp("eq", nvar, i64(1)), obs_inner)
        view = L.make_view(b, m, view_t, L.data_of(b, m), shapes, strides)
        return _lower(k)(b, [view, rowvar, ddof, pairwise], {})

    return emit


def _zero_d(b: LowBuilder, c: ir.Value) -> ir.Value:
    return L.make_view(b, c, T.Array(T.F64, 0, "C"), L.data_of(b, c), [], [])


@register_function(
    np.cov,
    params="m: array, y?: None, rowvar?: bool, bias?: bool, ddof?: int | None",
    notes="real 1-D and 2-D m; of a 2-D m with one variable a 1x1 array (NumPy squeezes it "
    "to 0-d); no y, weights or dtype",
)
def _cov(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    what = "np.cov"
    names = ["m", "y", "rowvar", "bias", "ddof", "fweights", "aweights", "dtype"]
    ops, where = _bind(args, kwargs, names, what)
    _refuse(ops, what, "y", "fweights", "aweights", "dtype")
    t = _cov_input(ops["m"], what)
    for name in ("rowvar", "bias"):
        if ops[name] is not None:
            _scalar(ops[name], what, name, "iub")
    if not is_none(ops["ddof"]):
        _scalar(ops["ddof"], what, "ddof", "iub")
    k = call_kernel(npmorek.cov_k, [T.Array(t.dtype, 2, "A"), T.BOOL, T.I64, T.BOOL])
    emit = _cov_lower(t, k)
    out = T.Array(T.F64, 0 if t.ndim == 1 else 2, "C")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        rowvar = _flag(b, _value(v, kw, where, "rowvar"), True)
        bias = _flag(b, _value(v, kw, where, "bias"), False)
        ddof_v = _value(v, kw, where, "ddof")
        if ddof_v is None or is_none_value(ddof_v):
            ddof = b.select(bias, i64(0), i64(1))
        else:
            ddof = b.cast(ddof_v, T.I64)
        c = emit(b, v[0], rowvar, ddof)
        return _zero_d(b, c) if t.ndim == 1 else c

    return Resolved((None,) * len(args), out, lower, kwargs=dict.fromkeys(kwargs))


@register_function(
    np.corrcoef,
    params="x: array, y?: None, rowvar?: bool",
    notes="real 1-D and 2-D x; of a 2-D x with one variable a 1x1 array (NumPy: a NumPy "
    "float); no y",
)
def _corrcoef(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    what = "np.corrcoef"
    ops, where = _bind(args, kwargs, ["x", "y", "rowvar", "bias", "ddof", "dtype"], what)
    _refuse(ops, what, "y", "bias", "ddof", "dtype")
    t = _cov_input(ops["x"], what)
    if ops["rowvar"] is not None:
        _scalar(ops["rowvar"], what, "rowvar", "iub")
    k = call_kernel(npmorek.cov_k, [T.Array(t.dtype, 2, "A"), T.BOOL, T.I64, T.BOOL])
    emit = _cov_lower(t, k)
    scale = call_kernel(npmorek.corrcoef_k, [_M2])
    out: T.Type = T.F64 if t.ndim == 1 else _M2

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        rowvar = _flag(b, _value(v, kw, where, "rowvar"), True)
        c = emit(b, v[0], rowvar, i64(1))
        if t.ndim == 2:
            return _lower(scale)(b, [c], {})
        x = L.load(b, L.data_of(b, c), T.F64)  # NumPy's c / c of the 0-d covariance
        return b.binop("div", x, x)

    return Resolved((None,) * len(args), out, lower, kwargs=dict.fromkeys(kwargs))


# --- ndarray.fill, item, view -----------------------------------------------------------------


@register_method(
    T.Array,
    "fill",
    params="value: number",
    notes="the value converts as NumPy's fill converts it (a Python int or a NumPy int into"
    " signed ints must fit, a NumPy int into unsigned ones wraps; NaN into ints raises)",
)
def _fill(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 2 or kwargs:
        raise TypingError("ndarray.fill takes one value", hint="call a.fill(value)")
    t = cast(T.Array, args[0].type)
    value = args[1]
    vt = value.type
    if not isinstance(vt, T.Scalar):
        raise TypingError(f"ndarray.fill: the value must be a number, not {vt}")
    refused = A.complex_store_error(value, t.dtype)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        if refused is not None:
            b.raise_if(_c(True, T.BOOL), TypeError, refused)
            return ir.Const(None, type=T.NONE)
        # NumPy's setitem of the dtype takes the value (A.check_stored_number)
        A.assign(b, v[0], v[1], python=value.weak)
        return ir.Const(None, type=T.NONE)

    return Resolved((None, None), T.NONE, lower, may_raise=True)


def _python_type(dtype: T.Scalar) -> T.Scalar:
    """The Python number NumPy's item() gives for an element of `dtype`, as a compiled type."""
    if dtype.is_bool:
        return T.BOOL
    if dtype.is_complex:
        return T.C128
    if dtype.is_float:
        return T.F64
    return T.I64


@register_method(
    T.Array,
    "item",
    params="i?: int",
    notes="no argument (a size-1 array) or one flat index; a Python number (a uint64 item "
    "of 2**63 or more raises OverflowError: compiled Python ints are int64)",
)
def _item(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) > 2 or kwargs:
        raise TypingError(
            "ndarray.item takes no argument or one flat index",
            hint="index the array instead: a[i, j].item()",
        )
    t = cast(T.Array, args[0].type)
    if len(args) == 2:
        _scalar(args[1], "ndarray.item", "the index", "iu")
    ret = _python_type(t.dtype)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a = v[0]
        shapes, strides = L.shapes_of(b, a), L.strides_of(b, a)
        size = L.size_of(b, shapes)
        if len(v) == 1:
            b.raise_if(
                b.cmp("ne", size, i64(1)),
                ValueError,
                "can only convert an array of size 1 to a Python scalar",
            )
            flat: ir.Value = i64(0)
        else:
            flat = L.index_int(b, v[1], IndexError)
            flat = b.select(b.cmp("lt", flat, i64(0)), b.binop("add", flat, size), flat)
            outside = b.or_(b.cmp("lt", flat, i64(0)), b.cmp("ge", flat, size))
            b.raise_if(outside, IndexError, "index out of bounds")
        offset: ir.Value = i64(0)
        for n, st in zip(reversed(shapes), reversed(strides)):
            safe = b.select(b.cmp("eq", n, i64(0)), i64(1), n)
            offset = b.binop("add", offset, b.binop("mul", b.binop("trem", flat, safe), st))
            flat = b.binop("tdiv", flat, safe)
        x = L.load(b, b.ptr_add(L.data_of(b, a), offset), t.dtype)
        if t.dtype == T.U64:  # compiled Python ints are int64
            b.raise_if(
                b.cmp("lt", b.cast(x, T.I64), i64(0)),
                OverflowError,
                "a uint64 item beyond int64 does not fit a compiled Python int",
            )
        return b.cast(x, ret)

    return Resolved((None,) * len(args), ret, lower, origin=True)


@register_method(
    T.Array,
    "view",
    params="dtype?: dtype",
    notes="a dtype of the same item size (no bool unless the array is bool); a view",
)
def _view(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    kw = dict(kwargs)
    dtype_op = kw.pop("dtype", args[1] if len(args) > 1 else None)
    if kw or len(args) > 2:
        raise TypingError("ndarray.view takes one dtype", hint="call a.view(np.int64)")
    t = cast(T.Array, args[0].type)
    if dtype_op is not None and isinstance(dtype_op.type, T.Opaque):
        if isinstance(dtype_op.type.obj, type) and issubclass(dtype_op.type.obj, np.ndarray):
            raise TypingError("ndarray.view(type) is not supported", hint="pass a dtype")
    dtype = A.dtype_arg(dtype_op, t.dtype.dtype)
    if dtype.dtype.itemsize != t.dtype.dtype.itemsize:
        raise TypingError(
            f"ndarray.view: {t.dtype.dtype} and {dtype.dtype} items differ in size",
            hint="view as a dtype of the same item size",
        )
    if dtype.is_bool and not t.dtype.is_bool:
        raise TypingError(
            "ndarray.view as bool is not supported (bytes other than 0 and 1 would not read "
            "as NumPy reads them)",
            hint="compare instead: a != 0",
        )
    out = T.Array(dtype, t.ndim, t.layout)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a = v[0]
        return L.make_view(b, a, out, L.data_of(b, a), L.shapes_of(b, a), L.strides_of(b, a))

    return Resolved((None,) * len(args), out, lower, kwargs=dict.fromkeys(kwargs))


# --- .conjugate() and .conj() of numbers ---------------------------------------------------------


def _conjugate_rule(name: str):  # noqa: ANN202
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if len(args) != 1 or kwargs:
            raise TypingError(f".{name}() takes no arguments")
        recv = args[0]
        t = cast(T.Scalar, recv.type)
        # Python's True.conjugate() is the int 1
        ret = T.I64 if recv.weak and t.is_bool else t

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            x = v[0]
            if not t.is_complex:
                return b.cast(x, ret)
            part = T.complex_part(t)
            return b.complex(b.real(x), b.emit(ir.UnaryOp("neg", b.imag(x), type=part)), t)

        return Resolved((None,), ret, lower, origin=recv.weak)

    return rule


register_method(T.Scalar, "conjugate", notes="of any number; complex ones conjugated")(
    _conjugate_rule("conjugate")
)
register_method(
    T.Scalar,
    "conj",
    notes="NumPy's spelling; compiled for Python numbers too (Python has no .conj(): "
    "an np.complex128 argument cannot be told from a Python complex)",
)(_conjugate_rule("conj"))
