"""NumPy splitting (`split`, `array_split`, `hsplit`, `vsplit`, `dsplit`), `broadcast_arrays`,
NaN-aware order statistics (`nanmedian`, `nanquantile`, `nanpercentile`) and accumulations
(`nanprod`, `nancumsum`, `nancumprod`), `angle`, `gradient`, `tril_indices`/`triu_indices`
(and `_from`), `diagonal`, `fill_diagonal`, `trim_zeros`, `asarray_chkfinite`,
`iscomplexobj`/`isrealobj`/`isscalar`, and `np.linalg.matrix_power` and `np.linalg.cond`
(each rule's docstring names the NumPy function, its notes what differs).

The splits, `broadcast_arrays`, `diagonal` and `trim_zeros` build their views here, in low
IR (a list of views is filled by a counted loop); the kernels of `npextrak` compute what needs
a loop of its own, on the rows of `nprows`, with the selections of `npsortk` and the LAPACK
calls of `lapack`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import cast

import numpy as np

from jitcore.errors import TypingError, UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import Loop, LowBuilder, i64
from jitcore.lib import lapack, lists, npextrak, npsort, npsortk, ufuncs
from jitcore.lib import layout as L
from jitcore.lib import shapes as S
from jitcore.lib.arrays import check_stored_number, copy_as
from jitcore.lib.loops import elementwise
from jitcore.lib.nprows import (
    axes_arg,
    bind_operands,
    const_flag,
    is_none,
    lane_type,
    rows,
    unrows_lanes,
)
from jitcore.lib.npselect import lowered_by_name, resolved_operation
from jitcore.lib.npstats import flat1
from jitcore.lib.registry import (
    Operand,
    Resolved,
    call_kernel,
    lookup_function,
    register_function,
    register_method,
)

Lower = Callable[[LowBuilder, list[ir.Value], dict], ir.Value]


def _call(k: Resolved, b: LowBuilder, args: list[ir.Value]) -> ir.Value:
    assert k.lower is not None
    return k.lower(b, args, {})


def _array(op: Operand | None, what: str, name: str) -> T.Array:
    if op is None or not isinstance(op.type, T.Array):
        got = "nothing" if op is None else str(op.type)
        raise TypingError(
            f"{what}: {name} must be an array, not {got}",
            hint="wrap a number or a tuple in np.array(...) first",
        )
    return op.type


# --- split, array_split, hsplit, vsplit, dsplit ------------------------------------------------

_SPLIT = ["ary", "indices_or_sections", "axis"]
_SPLIT_HINT = "pass a number of sections (an int) or the split points as a list or tuple of ints"


def _split_kind(op: Operand | None, what: str) -> str:
    """How the parts are given: 'sections' (an int), 'tuple', 'list' or 'array' of indices."""
    t = None if op is None else op.type
    if isinstance(t, T.Scalar) and (t.is_int or t.is_bool):
        return "sections"
    if isinstance(t, T.Tuple) and all(
        isinstance(x, T.Scalar) and (x.is_int or x.is_bool) for x in t.items
    ):
        return "tuple"
    if isinstance(t, T.List) and isinstance(t.item, T.Scalar) and t.item.is_int:
        return "list"
    if isinstance(t, T.Array) and t.dtype.is_int and t.ndim <= 1:
        return "sections" if t.ndim == 0 else "array"
    raise TypingError(
        f"{what}: indices_or_sections must be an int or a 1-D sequence of ints, not {t}",
        hint=_SPLIT_HINT,
    )


def _part_layout(t: T.Array, axis: int) -> str:
    """The layout of every part: a C array cut along its first axis keeps C, an F array cut
    along its last keeps F."""
    if t.ndim == 1 and t.layout in ("C", "F"):
        return "C"
    if (t.layout == "C" and axis == 0) or (t.layout == "F" and axis == t.ndim - 1):
        return t.layout
    return "A"


def _raising_list(exc: type, message: str, ret: T.List) -> Lower:
    """NumPy's error for an array of too few dimensions, raised when the call runs (as NumPy
    raises it), with an empty list standing for the result that is never reached."""

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        b.raise_if(ir.Const(True, type=T.BOOL), exc, message)
        return lists.new_list(b, ret.item, i64(0))

    return lower


def _split_rule(
    what: str, *, equal: bool, axis_of: Callable[[int], int] | None = None, min_ndim: int = 0
) -> Callable[[list[Operand], dict[str, Operand]], Resolved]:
    """The rule of np.split (equal: whole sections only), np.array_split, or (axis_of given)
    one of hsplit, vsplit and dsplit, which split along axis_of(ndim) an array of at least
    min_ndim dimensions."""
    names = _SPLIT if axis_of is None else _SPLIT[:2]

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        ops = bind_operands(args, kwargs, names, what)
        t = _array(ops["ary"], what, "ary")
        if ops["indices_or_sections"] is None:
            raise TypingError(f"{what} needs indices_or_sections", hint=_SPLIT_HINT)
        if lists.unsettled(ops["indices_or_sections"].type):
            return lists.PENDING  # an empty `[]` filled later in this function: typed then
        if axis_of is not None and t.ndim < min_ndim:  # NumPy checks this first
            item = T.Array(t.dtype, t.ndim, "A")
            message = f"{what[3:]} only works on arrays of {min_ndim} or more dimensions"
            return resolved_operation(
                args, kwargs, T.List(item), _raising_list(ValueError, message, T.List(item))
            )
        kind = _split_kind(ops["indices_or_sections"], what)
        if axis_of is not None:
            axis = axis_of(t.ndim)
        else:
            axis = _split_axis(ops.get("axis"), t.ndim, what)
        item = T.Array(t.dtype, t.ndim, _part_layout(t, axis))  # type: ignore[arg-type]
        ret = T.List(item)
        ind_t = ops["indices_or_sections"].type  # type: ignore[union-attr]
        bounds = None
        if kind != "sections":
            bounds = call_kernel(npextrak.split_bounds, [T.Array(T.I64, 1, "C"), T.I64])
        to_array = None
        if kind == "list":
            to_array = call_kernel(npextrak.int_list_array, [ind_t])

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            vals = lowered_by_name(v, kw, args, names)
            a, ind = vals["ary"], vals["indices_or_sections"]
            assert a is not None and ind is not None
            n = L.shape_of(b, a, axis)
            if kind == "sections":
                if isinstance(ind.type, T.Array):
                    ind = L.load(b, L.data_of(b, ind), ind.type.dtype)
                return _split_sections(b, a, axis, item, n, b.cast(ind, T.I64), equal)
            if kind == "tuple":
                assert isinstance(ind_t, T.Tuple)
                idx = L.allocate(b, T.I64, [i64(len(ind_t.items))], "C")
                for k in range(len(ind_t.items)):
                    ptr = b.ptr_add(L.data_of(b, idx), i64(8 * k))
                    L.store(b, ptr, b.cast(b.extract(ind, k), T.I64))
            elif kind == "list":
                assert to_array is not None
                idx = _call(to_array, b, [ind])
            else:
                idx = flat1(b, ind, T.I64)
            assert bounds is not None
            spans = _call(bounds, b, [idx, n])
            count = b.binop("add", L.shape_of(b, idx, 0), i64(1))
            lst = lists.new_list(b, item, count)
            loop = Loop(b, i64(0), count)
            base = L.data_of(b, spans)
            start = L.load(b, b.ptr_add(base, b.binop("mul", loop.index, i64(16))), T.I64)
            size = L.load(
                b,
                b.ptr_add(base, b.binop("add", b.binop("mul", loop.index, i64(16)), i64(8))),
                T.I64,
            )
            lists.append(b, lst, _part(b, a, axis, item, start, size))
            loop.finish()
            return lst

        return resolved_operation(args, kwargs, ret, lower)

    return rule


def _split_axis(op: Operand | None, ndim: int, what: str) -> int:
    if op is None:
        value: object = 0
    elif op.is_const and isinstance(op.const, int) and not isinstance(op.const, bool):
        value = op.const
    else:
        raise TypingError(
            f"{what}: axis must be a constant integer", hint="write axis=0 or axis=-1"
        )
    assert isinstance(value, int)
    if not -ndim <= value < ndim:
        raise TypingError(
            f"{what}: axis {value} is out of bounds for array of dimension {ndim}",
            hint="split an array with at least one dimension along one of its axes",
        )
    return value % ndim


def _part(
    b: LowBuilder, a: ir.Value, axis: int, item: T.Array, start: ir.Value, size: ir.Value
) -> ir.Value:
    """The view `a[..., start:start + size, ...]` (along `axis`)."""
    shapes, strides = L.shapes_of(b, a), L.strides_of(b, a)
    data = b.ptr_add(L.data_of(b, a), b.binop("mul", start, strides[axis]))
    shapes[axis] = size
    return L.make_view(b, a, item, data, shapes, strides)


def _split_sections(
    b: LowBuilder,
    a: ir.Value,
    axis: int,
    item: T.Array,
    n: ir.Value,
    sections: ir.Value,
    equal: bool,
) -> ir.Value:
    """NumPy's array_split into `sections` parts: the first n % sections one longer. With
    `equal` (np.split) the parts must be of one length, checked first as NumPy checks it
    (`n % sections`, so a zero is a ZeroDivisionError)."""
    if equal:
        b.raise_if(b.cmp("eq", sections, i64(0)), ZeroDivisionError, "integer modulo by zero")
        rem = b.binop("trem", n, b.select(b.cmp("eq", sections, i64(0)), i64(1), sections))
        b.raise_if(
            b.cmp("ne", rem, i64(0)),
            ValueError,
            "array split does not result in an equal division",
        )
    b.raise_if(b.cmp("le", sections, i64(0)), ValueError, "number sections must be larger than 0.")
    safe = b.select(b.cmp("le", sections, i64(0)), i64(1), sections)
    each = b.binop("tdiv", n, safe)
    extras = b.binop("trem", n, safe)
    lst = lists.new_list(b, item, sections)
    loop = Loop(b, i64(0), sections)
    i = loop.index
    longer = b.cmp("lt", i, extras)
    start = b.binop("add", b.binop("mul", i, each), b.select(longer, i, extras))
    size = b.binop("add", each, b.select(longer, i64(1), i64(0)))
    lists.append(b, lst, _part(b, a, axis, item, start, size))
    loop.finish()
    return lst


# (The generic differential tests draw small ints for the splits and tril/triu_indices:
# NumPy's split of a drawn 2**62 sections, or an n x n mask, asks for any amount of memory.)
_SPLIT_PARAMS = "ary: array, indices_or_sections: int | tuple | list | intarray"
_SPLIT_NOTES = (
    "a list of views; the split points are an int (sections, not only a constant), a tuple "
    "or typed list of ints, or a 1-D integer array"
)

register_function(np.split, params=f"{_SPLIT_PARAMS}, axis?: axis", notes=_SPLIT_NOTES)(
    _split_rule("np.split", equal=True)
)
register_function(np.array_split, params=f"{_SPLIT_PARAMS}, axis?: axis", notes=_SPLIT_NOTES)(
    _split_rule("np.array_split", equal=False)
)
register_function(np.hsplit, params=_SPLIT_PARAMS, notes=_SPLIT_NOTES)(
    _split_rule("np.hsplit", equal=True, axis_of=lambda nd: 1 if nd > 1 else 0, min_ndim=1)
)
register_function(np.vsplit, params=_SPLIT_PARAMS, notes=_SPLIT_NOTES)(
    _split_rule("np.vsplit", equal=True, axis_of=lambda nd: 0, min_ndim=2)
)
register_function(np.dsplit, params=_SPLIT_PARAMS, notes=_SPLIT_NOTES)(
    _split_rule("np.dsplit", equal=True, axis_of=lambda nd: 2, min_ndim=3)
)


# --- broadcast_arrays -------------------------------------------------------------------------


@register_function(
    np.broadcast_arrays,
    params="*args: number | array",
    notes="a tuple of views (a number becomes a 0-d array first); NumPy makes the views it "
    "broadcasts read-only, jitcore does not stop writes to them",
)
def _broadcast_arrays(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """np.broadcast_arrays: each argument viewed with the shape they broadcast to (strides 0
    along the axes that grow)."""
    what = "np.broadcast_arrays"
    kw = dict(kwargs)
    subok = kw.pop("subok", None)
    if kw:
        raise TypingError(f"{what}: unexpected keyword argument {sorted(kw)[0]!r}")
    if subok is not None and not (subok.is_const and subok.const is False):
        raise TypingError(f"{what}: only subok=False is supported", hint="leave subok out")
    dtypes: list[T.Scalar] = []
    for k, op in enumerate(args):
        t = op.type
        if isinstance(t, T.Array):
            dtypes.append(t.dtype)
        elif isinstance(t, T.Scalar):
            dtypes.append(t)  # np.asarray of a number keeps its type (int64 of a Python int)
        else:
            raise TypingError(
                f"{what}: argument {k + 1} must be an array or a number, not {t}",
                hint="wrap a tuple in np.array(...) first",
            )
    ndim = max([op.type.ndim for op in args if isinstance(op.type, T.Array)] + [0])
    ret = T.Tuple(tuple(T.Array(d, ndim, "A") for d in dtypes))

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        arrays = []
        for x, dtype in zip(v, dtypes):
            if not isinstance(x.type, T.Array):
                one = L.allocate(b, dtype, [], "C")
                L.store(b, L.data_of(b, one), b.cast(x, dtype))
                x = one
            arrays.append(x)
        shape: list[ir.Value] = [i64(1)] * ndim
        for x in arrays:
            offset = ndim - x.type.ndim  # type: ignore[union-attr]
            for k, n in enumerate(L.shapes_of(b, x)):
                cur = shape[k + offset]
                ok = b.or_(
                    b.or_(b.cmp("eq", cur, n), b.cmp("eq", cur, i64(1))), b.cmp("eq", n, i64(1))
                )
                b.raise_if(
                    b.not_(ok),
                    ValueError,
                    "shape mismatch: objects cannot be broadcast to a single shape",
                )
                shape[k + offset] = b.select(b.cmp("eq", cur, i64(1)), n, cur)
        widest = max((d.dtype.itemsize for d in dtypes), default=1)
        L.check_view_shape(b, shape, widest)
        views = []
        for x, item in zip(arrays, ret.items):
            offset = ndim - x.type.ndim  # type: ignore[union-attr]
            strides: list[ir.Value] = [i64(0)] * offset
            for n, st in zip(L.shapes_of(b, x), L.strides_of(b, x)):
                strides.append(b.select(b.cmp("eq", n, i64(1)), i64(0), st))
            views.append(L.make_view(b, x, item, L.data_of(b, x), shape, strides))  # type: ignore[arg-type]
        return b.make_tuple(views)

    return resolved_operation(args, kwargs, ret, lower)


# --- nanmedian, nanquantile, nanpercentile ---------------------------------------------------


def _real_array(op: Operand | None, what: str) -> T.Array:
    t = _array(op, what, "a")
    if t.dtype.is_complex:
        raise TypingError(
            f"{what}: a must be an array of real numbers, not {t.dtype}",
            hint="take the statistic of the real and imaginary parts separately",
        )
    return t


def _refuse_out(ops: dict[str, Operand | None], what: str) -> None:
    if not is_none(ops.get("out")):
        raise TypingError(
            f"{what}: the out argument is not supported", hint="assign the result instead"
        )


_NANMEDIAN = ["a", "axis", "out", "overwrite_input", "keepdims"]


@register_function(
    np.nanmedian,
    params="a: array, axis?: axis | tuple | None, *, keepdims?: bool",
    notes="a lane of NaNs only (or of no items) gives NaN without NumPy's warning; "
    "overwrite_input= is accepted and the input left as it is; no out=",
)
def _nanmedian(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """np.nanmedian: the median of the items that are not NaN, along axes."""
    what = "np.nanmedian"
    ops = bind_operands(args, kwargs, _NANMEDIAN, what)
    t = _real_array(ops["a"], what)
    _refuse_out(ops, what)
    const_flag(ops["overwrite_input"], "overwrite_input")
    axes = axes_arg(ops["axis"], t.ndim, what)
    keepdims = const_flag(ops["keepdims"], "keepdims")
    dtype = npsort._float_of(t.dtype)
    # NumPy's masked-array median serves the lanes along axes of an array with axes left
    masked = axes is not None and len(axes) < t.ndim
    k = call_kernel(
        npextrak.nanmedian_rows, [T.Array(dtype, 2, "C"), T.Array(dtype, 1, "C"), T.BOOL]
    )

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a = lowered_by_name(v, kw, args, _NANMEDIAN)["a"]
        assert a is not None
        r = rows(b, a, axes, dtype, copy=True)
        out = L.allocate(b, dtype, [r.count], "C")
        _call(k, b, [r.rows, out, ir.Const(masked, type=T.BOOL)])
        return npsort._unrows(b, out, r, t.ndim, axes, keepdims)

    return resolved_operation(args, kwargs, npsort._reduced(dtype, t.ndim, axes, keepdims), lower)


_NANQUANTILE = ["a", "q", "axis", "out", "overwrite_input", "method", "keepdims", "weights"]


def _nanquantile_rule(name: str, scale: float) -> Callable[..., Resolved]:
    what = f"np.{name}"

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        ops = bind_operands(args, kwargs, _NANQUANTILE, what)
        t = _real_array(ops["a"], what)
        q = ops["q"]
        qt = None if q is None else q.type
        if q is None or not (
            isinstance(qt, T.Scalar) or (isinstance(qt, T.Array) and qt.dtype.kind != "c")
        ):
            raise TypingError(
                f"{what}: q must be a real number or an array of them, not {qt}",
                hint="pass q as a float or a NumPy array of floats",
            )
        if isinstance(qt, T.Scalar) and qt.is_complex:
            raise TypingError(f"{what}: q must be a real number, not {qt}")
        _refuse_out(ops, what)
        if not is_none(ops["weights"]):
            raise TypingError(
                f"{what}: the weights argument is not supported", hint="leave weights out"
            )
        method = ops["method"]
        if method is not None and not (method.is_const and method.const == "linear"):
            raise TypingError(
                f"{what}: only method='linear' (the default) is supported",
                hint="leave method out",
            )
        const_flag(ops["overwrite_input"], "overwrite_input")
        axes = axes_arg(ops["axis"], t.ndim, what)
        keepdims = const_flag(ops["keepdims"], "keepdims")
        dtype, exact = npsort.quantile_dtype(t, q, percentile=scale != 1.0)
        q_dtype = qt.dtype if isinstance(qt, T.Array) else qt
        divide_t = q_dtype if q_dtype.is_float and not q.weak else T.F64
        check = call_kernel(npsortk.check_quantiles, [_F64_VEC, T.F64])
        k = call_kernel(
            npextrak.nanquantile_rows,
            [
                T.Array(npsort.kernel_dtype(t.dtype), 2, "C"),
                _F64_VEC,
                T.Array(npsort.kernel_dtype(dtype), 2, "C"),
                T.BOOL,
            ],
        )
        reduced = npsort._reduced(dtype, t.ndim, axes, keepdims)
        q_ndim = qt.ndim if isinstance(qt, T.Array) else 0
        result: T.Type = reduced
        if q_ndim:
            rnd = reduced.ndim if isinstance(reduced, T.Array) else 0
            result = T.Array(dtype, q_ndim + rnd, "C")

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            vals = lowered_by_name(v, kw, args, _NANQUANTILE)
            a, qv = vals["a"], vals["q"]
            assert a is not None and qv is not None
            if isinstance(qv.type, T.Scalar):
                qs = L.allocate(b, T.F64, [i64(1)], "C")
                L.store(b, L.data_of(b, qs), b.cast(qv, T.F64))
            else:
                qs = L.allocate(b, T.F64, [L.size_of(b, L.shapes_of(b, qv))], "C")
                elementwise(b, [flat1(b, qv, T.F64)], T.F64, lambda bb, xs: xs[0], out=qs)
            _call(check, b, [qs, ir.Const(scale, type=T.F64)])
            if scale != 1.0:  # NumPy divides in q's float dtype (float64 for integers)
                hundred = ir.Const(scale, type=divide_t)

                def divide(bb: LowBuilder, xs: list[ir.Value]) -> ir.Value:
                    return bb.cast(bb.binop("div", bb.cast(xs[0], divide_t), hundred), T.F64)

                elementwise(b, [qs], T.F64, divide, out=qs)
            out, r = npsort.quantile_rows_of(b, k, a, axes, t, dtype, exact, qs)
            if not q_ndim:
                size = i64(dtype.dtype.itemsize)
                first = L.make_view(
                    b, out, T.Array(dtype, 1, "C"), L.data_of(b, out), [r.count], [size]
                )
                return npsort._unrows(b, first, r, t.ndim, axes, keepdims)
            rest: list[ir.Value] = []
            if isinstance(reduced, T.Array):
                along = list(range(t.ndim)) if axes is None else axes
                kept = iter(r.kept)
                rest = [
                    i64(1) if (keepdims and d in along) else next(kept)
                    for d in range(t.ndim)
                    if keepdims or d not in along
                ]
            shapes = L.shapes_of(b, qv) + rest
            assert isinstance(result, T.Array)
            strides = L.contiguous_strides(b, shapes, dtype.dtype.itemsize, "C")
            return L.make_view(b, out, result, L.data_of(b, out), shapes, strides)

        return resolved_operation(args, kwargs, result, lower)

    return rule


_F64_VEC = T.Array(T.F64, 1, "C")
_NANQ_PARAMS = "a: array, q: float | array, axis?: axis | tuple | None, *, keepdims?: bool"
_NANQ_NOTES = (
    "method='linear' only, no weights= or out=; a lane of NaNs only gives NaN without "
    "NumPy's warning; of an empty array, NaN in each lane for each q (NumPy returns its "
    "nanmean, without q's axes; with integer items and q a ValueError, as the result is of "
    "integers)"
)
register_function(np.nanquantile, params=_NANQ_PARAMS, notes=_NANQ_NOTES)(
    _nanquantile_rule("nanquantile", 1.0)
)
register_function(np.nanpercentile, params=_NANQ_PARAMS, notes=_NANQ_NOTES)(
    _nanquantile_rule("nanpercentile", 100.0)
)


# --- angle ----------------------------------------------------------------------------------


@register_function(
    np.angle,
    params="z: number | array, deg?: bool",
    notes="NumPy's dtypes: arctan2(0, z) of real z (float16 results are not supported)",
)
def _angle(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """np.angle: arctan2(z.imag, z.real) (of a real z, arctan2(0, z)), in degrees if deg."""
    what = "np.angle"
    ops = bind_operands(args, kwargs, ["z", "deg"], what)
    z, deg = ops["z"], ops["deg"]
    t = None if z is None else z.type
    element = t.dtype if isinstance(t, T.Array) else t
    if z is None or not isinstance(element, T.Scalar):
        raise TypingError(
            f"{what}: z must be a number or an array, not {t}",
            hint="wrap a tuple in np.array(...) first",
        )
    if deg is not None and not isinstance(deg.type, T.Scalar):
        raise TypingError(f"{what}: deg must be True or False, not {deg.type}")
    if element.is_complex:
        dtype = T.complex_part(element)
    else:  # np.asarray(z) first: a Python number is not weak here
        zero = Operand(T.I64, 0, weak=True)
        try:
            dtype = ufuncs.loop_dtypes(np.arctan2, [zero, Operand(element)])[-1]
        except UnsupportedError:
            raise TypingError(
                f"{what}: NumPy gives z of {element} float16 angles, which compiled code does "
                "not support",
                hint="convert z first: z.astype(np.float32)",
            ) from None
    const_deg = False if deg is None else (bool(deg.const) if deg.is_const else None)
    to_degrees = ir.Const(180 / math.pi, type=dtype)

    def fn(b: LowBuilder, xs: list[ir.Value]) -> ir.Value:
        x = xs[0]
        if element.is_complex:
            a = b.intrinsic("atan2", [b.cast(b.imag(x), dtype), b.cast(b.real(x), dtype)], dtype)
        else:
            a = b.intrinsic("atan2", [ir.Const(0.0, type=dtype), b.cast(x, dtype)], dtype)
        if const_deg is False:
            return a
        scaled = b.binop("mul", a, to_degrees)
        return scaled if const_deg else b.select(b.cast(xs[1], T.BOOL), scaled, a)

    ndim = t.ndim if isinstance(t, T.Array) else 0
    ret: T.Type = T.Array(dtype, ndim, "C") if ndim else dtype

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, ["z", "deg"])
        x = vals["z"]
        assert x is not None
        inputs = [x] if const_deg is not None else [x, cast(ir.Value, vals["deg"])]
        if not ndim:
            if isinstance(x.type, T.Array):  # a 0-d array: NumPy returns a NumPy scalar
                inputs[0] = L.load(b, L.data_of(b, x), element)
            return fn(b, inputs)
        return elementwise(b, inputs, dtype, fn)

    return Resolved((None,) * len(args), ret, lower, kwargs=dict.fromkeys(kwargs))


# --- np.linalg.matrix_power, np.linalg.cond ------------------------------------------------------


def _stack3(b: LowBuilder, a: ir.Value, dtype: T.Scalar) -> ir.Value:
    """The matrices of `a` (ndim >= 2) as a (count, m, n) C stack of dtype (a view when it
    is one already)."""
    t = a.type
    assert isinstance(t, T.Array)
    if t.dtype != dtype:
        a = copy_as(b, a, dtype)
    shapes = L.shapes_of(b, a)
    return S.c_view_or_copy(b, a, [L.size_of(b, shapes[:-2]), *shapes[-2:]])


def _unstack3(b: LowBuilder, out: ir.Value, batch: list[ir.Value], ret: T.Array) -> ir.Value:
    """A (count, ...) C result viewed with the stack's leading axes `batch`."""
    shapes = [*batch, *L.shapes_of(b, out)[1:]]
    strides = L.contiguous_strides(b, shapes, ret.dtype.dtype.itemsize, "C")
    return L.make_view(b, out, ret, L.data_of(b, out), shapes, strides)


@register_function(
    np.linalg.matrix_power,
    listed_as="np.linalg.matrix_power",
    params="a: array, n: int",
    notes="stacks of square matrices; a new array (NumPy returns `a` itself for n=1); an "
    "integer matrix to a negative n needs n constant (its result is float64), else a "
    "TypeError when n < 0; negative n needs SciPy's LAPACK (the inverse)",
)
def _matrix_power(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """np.linalg.matrix_power: a @ a @ ... (n times) by NumPy's products, of the inverse
    for n < 0, the identity for n = 0."""
    what = "np.linalg.matrix_power"
    ops = bind_operands(args, kwargs, ["a", "n"], what)
    t = lapack._matrix(ops["a"], what)
    lapack._two_d(t, what, stacks=True)
    n = ops["n"]
    if n is None or not (isinstance(n.type, T.Scalar) and (n.type.is_int or n.type.is_bool)):
        raise TypingError(
            f"{what}: the exponent n must be an integer, not {None if n is None else n.type}",
            hint="pass an int as n",
        )
    const_n = int(n.const) if n.is_const else None  # type: ignore[call-overload]
    if const_n is None or const_n < 0:
        lapack._check_available(f"{what} with a negative n")
    work = T.C128 if t.dtype.is_complex else T.F64
    inexact = t.dtype.is_float or t.dtype.is_complex
    dtype = t.dtype if inexact or const_n is None or const_n >= 0 else T.F64
    k = call_kernel(
        npextrak.matrix_power_stack,
        [T.Array(t.dtype, 3, "C"), T.I64, T.Array(work, 1, "C"), T.Array(dtype, 1, "C")],
    )
    ret = T.Array(dtype, t.ndim, "C")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, ["a", "n"])
        a, power = vals["a"], vals["n"]
        assert a is not None and power is not None
        a3 = _stack3(b, a, t.dtype)
        protos = [L.allocate(b, d, [i64(0)], "C") for d in (work, dtype)]
        out = _call(k, b, [a3, b.cast(power, T.I64), *protos])
        return _unstack3(b, out, L.shapes_of(b, a)[:-2], ret)

    return resolved_operation(args, kwargs, ret, lower)


@register_function(
    np.linalg.cond,
    listed_as="np.linalg.cond",
    params="x: array, p?: const",
    notes="p None, 2 or -2 (singular values through SciPy's LAPACK ?gesdd); stacks of "
    "matrices; other p are not supported",
)
def _cond(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """np.linalg.cond: the ratio of the largest to the smallest singular value (p=-2: the
    reverse); inf where it is 0 / 0."""
    what = "np.linalg.cond"
    ops = bind_operands(args, kwargs, ["x", "p"], what)
    t = lapack._matrix(ops["x"], what, "x")
    lapack._two_d(t, what, stacks=True)
    p = ops["p"]
    if not is_none(p) and not (p is not None and p.is_const and p.const in (2, -2)):
        raise TypingError(
            f"{what}: p must be None, 2 or -2 (a constant); other norms are not supported",
            hint="leave p out for the 2-norm condition number",
        )
    lapack._check_available(what)
    minus = p is not None and p.is_const and p.const == -2
    work, single = lapack._common(t)
    dtype = T.F32 if single else T.F64
    k = call_kernel(npextrak.cond_stack, [T.Array(work, 3, "C"), T.BOOL, T.BOOL])
    ret: T.Type = dtype if t.ndim == 2 else T.Array(dtype, t.ndim - 2, "C")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        x = lowered_by_name(v, kw, args, ["x", "p"])["x"]
        assert x is not None
        flags = [ir.Const(minus, type=T.BOOL), ir.Const(single, type=T.BOOL)]
        out = _call(k, b, [_stack3(b, x, work), *flags])
        if single:
            out = copy_as(b, out, T.F32)
        if t.ndim == 2:
            return L.load(b, L.data_of(b, out), dtype)
        assert isinstance(ret, T.Array)
        return _unstack3(b, out, L.shapes_of(b, x)[:-2], ret)

    return resolved_operation(args, kwargs, ret, lower)


# --- triu_indices, tril_indices (and _from) ---------------------------------------------------

_INDEX_PAIR = T.Tuple((T.Array(T.I64, 1, "C"), T.Array(T.I64, 1, "C")))


def _int_arg(op: Operand | None, what: str, name: str, none: bool = False) -> None:
    """TypingError unless the argument is not given, an integer, or (`none`) None."""
    if op is not None and not (none and is_none(op)):
        t = op.type
        if not (isinstance(t, T.Scalar) and (t.is_int or t.is_bool)):
            raise TypingError(
                f"{what}: {name} must be an integer, not {t}", hint=f"pass an int {name}"
            )


def _tri_indices_rule(upper: bool) -> Callable[..., Resolved]:
    what = f"np.{'triu' if upper else 'tril'}_indices"

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        ops = bind_operands(args, kwargs, ["n", "k", "m"], what)
        if ops["n"] is None:
            raise TypingError(f"{what} needs n", hint=f"call {what}(n)")
        for name in ("n", "k", "m"):
            _int_arg(ops[name], what, name, none=name == "m")
        k = call_kernel(npextrak.tri_indices, [T.I64, T.I64, T.I64, T.BOOL])

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            vals = lowered_by_name(v, kw, args, ["n", "k", "m"])
            n = b.cast(cast(ir.Value, vals["n"]), T.I64)
            diag, m = vals["k"], vals["m"]
            diag = i64(0) if diag is None else b.cast(diag, T.I64)
            m = n if m is None or isinstance(m.type, T.NoneType) else b.cast(m, T.I64)
            return _call(k, b, [n, diag, m, ir.Const(upper, type=T.BOOL)])

        return resolved_operation(args, kwargs, _INDEX_PAIR, lower)

    return rule


def _tri_indices_from_rule(upper: bool) -> Callable[..., Resolved]:
    what = f"np.{'triu' if upper else 'tril'}_indices_from"

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        ops = bind_operands(args, kwargs, ["arr", "k"], what)
        t = _array(ops["arr"], what, "arr")
        _int_arg(ops["k"], what, "k")
        k = call_kernel(npextrak.tri_indices, [T.I64, T.I64, T.I64, T.BOOL])

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            vals = lowered_by_name(v, kw, args, ["arr", "k"])
            a, diag = vals["arr"], vals["k"]
            assert a is not None
            n: ir.Value
            m: ir.Value
            if t.ndim != 2:  # NumPy's error, when the call runs
                b.raise_if(ir.Const(True, type=T.BOOL), ValueError, "input array must be 2-d")
                n = m = i64(0)
            else:
                n, m = L.shapes_of(b, a)
            diag = i64(0) if diag is None else b.cast(diag, T.I64)
            return _call(k, b, [n, diag, m, ir.Const(upper, type=T.BOOL)])

        return resolved_operation(args, kwargs, _INDEX_PAIR, lower)

    return rule


_TRI_NOTES = "two int64 arrays: the rows and the columns, in C order"
_TRI_PARAMS = "n: int, k?: int, m?: int | None"
_TRI_N_NOTES = f"{_TRI_NOTES}; n need not be a constant"
register_function(np.tril_indices, params=_TRI_PARAMS, notes=_TRI_N_NOTES)(
    _tri_indices_rule(False)
)
register_function(np.triu_indices, params=_TRI_PARAMS, notes=_TRI_N_NOTES)(_tri_indices_rule(True))
register_function(np.tril_indices_from, params="arr: array, k?: int", notes=_TRI_NOTES)(
    _tri_indices_from_rule(False)
)
register_function(np.triu_indices_from, params="arr: array, k?: int", notes=_TRI_NOTES)(
    _tri_indices_from_rule(True)
)


# --- gradient ---------------------------------------------------------------------------------


def _gradient_axes(op: Operand | None, ndim: int, what: str) -> tuple[list[int], bool]:
    """The axes NumPy differentiates along, in its order, and whether it returns one array
    (an int axis, or a 1-D array) rather than a tuple."""
    if is_none(op):
        return list(range(ndim)), ndim == 1
    assert op is not None
    value = op.const if op.is_const else None
    single = isinstance(value, int) and not isinstance(value, bool)
    items = (value,) if single else value
    if not isinstance(items, tuple) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in items
    ):
        raise TypingError(
            f"{what}: axis must be a constant int or tuple of ints",
            hint="write axis=0 or axis=(0, 1)",
        )
    axes: list[int] = []
    for x in items:
        if not -ndim <= x < ndim:
            raise TypingError(f"{what}: axis {x} is out of bounds for array of dimension {ndim}")
        if x % ndim in axes:
            raise TypingError(f"{what}: repeated axis in axis={value}")
        axes.append(x % ndim)
    return axes, single or len(axes) == 1


@register_function(
    np.gradient,
    params="f: array, *varargs: real, axis?: axis | tuple | None, edge_order?: int",
    notes="one uniform spacing for every axis (a number; no coordinate arrays); edge_order "
    "a constant 1 or 2",
)
def _gradient(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """np.gradient: central differences inside, one-sided ones at the ends, along each axis."""
    what = "np.gradient"
    kw = dict(kwargs)
    axis_op, edge_op = kw.pop("axis", None), kw.pop("edge_order", None)
    if kw:
        raise TypingError(f"{what}: unexpected keyword argument {sorted(kw)[0]!r}")
    t = _array(args[0] if args else None, what, "f")
    if len(args) > 2:
        raise TypingError(
            f"{what}: one spacing per axis is not supported",
            hint="pass one number as the spacing of every axis",
        )
    spacing = args[1] if len(args) == 2 else Operand(T.F64, 1.0, weak=True)
    st = spacing.type
    if not (isinstance(st, T.Scalar) and not st.is_complex):
        raise TypingError(
            f"{what}: the spacing must be a real number, not {st} (coordinate arrays are not "
            "supported)",
            hint="pass a number",
        )
    if t.dtype.is_bool:
        raise TypingError(
            f"{what} of a bool array: NumPy cannot subtract booleans",
            hint="convert f first: f.astype(np.float64)",
        )
    if t.dtype.is_complex:
        raise TypingError(
            f"{what} of complex arrays is not supported in compiled code",
            hint="take the gradients of f.real and f.imag",
        )
    edge = 1 if edge_op is None else edge_op.const
    if edge not in (1, 2) or isinstance(edge, bool):
        raise TypingError(
            f"{what}: edge_order must be the constant 1 or 2", hint="write edge_order=2"
        )
    axes, single = _gradient_axes(axis_op, t.ndim, what)
    out_t = t.dtype if t.dtype.is_float else T.F64  # NumPy computes integers in float64
    # the spacing: a Python number is weak (float32 stays float32), a NumPy one is not
    dx_t = out_t if spacing.weak else T.from_dtype(np.result_type(out_t.dtype, st.dtype))
    k = call_kernel(
        npextrak.gradient_rows,
        [T.Array(out_t, 2, "C"), dx_t, T.I64, T.Array(out_t, 2, "C")],
    )
    items = tuple(lane_type(out_t, t.ndim, axis) for axis in axes)
    ret: T.Type = items[0] if single else T.Tuple(items)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        f = v[0]
        dx = b.cast(v[1], dx_t) if len(v) > 1 else ir.Const(1.0, type=dx_t)
        outs = []
        for axis in axes:
            r = rows(b, f, [axis], out_t)
            out = L.allocate(b, out_t, [r.count, r.length], "C")
            _call(k, b, [r.rows, dx, i64(edge), out])
            outs.append(unrows_lanes(b, out, r, t.ndim, axis))
        return outs[0] if single else b.make_tuple(outs)

    return resolved_operation(args, kwargs, ret, lower)


# --- nanprod, nancumsum, nancumprod ------------------------------------------------------------


def _nan_replaced_rule(name: str, inner: object, fill: float) -> Callable[..., Resolved]:
    """np.<name>: NumPy's own definition, `inner` (np.prod, np.cumsum, np.cumprod) of the array
    with its NaNs replaced by `fill` (integer and boolean arrays as they are)."""
    what = f"np.{name}"
    names = ["a", "axis", "keepdims"] if name == "nanprod" else ["a", "axis"]

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        ops = bind_operands(args, kwargs, names, what)
        t = _array(ops["a"], what, "a")
        if t.dtype.is_complex:
            raise TypingError(
                f"{what} of complex arrays is not supported",
                hint="replace the NaNs yourself (np.where(np.isnan(a), 0, a))",
            )
        inexact = t.dtype.is_float
        replaced = T.Array(t.dtype, t.ndim, "C") if inexact else t
        rule_of = lookup_function(inner)
        assert rule_of is not None
        given = {k: op for k, op in ops.items() if k != "a" and op is not None}
        resolved = rule_of([Operand(replaced)], given)
        assert resolved is not None and resolved.lower is not None
        inner_lower = resolved.lower
        value = ir.Const(fill, type=t.dtype) if inexact else None

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            vals = lowered_by_name(v, kw, args, names)
            a = vals["a"]
            assert a is not None
            if inexact:

                def fix(bb: LowBuilder, xs: list[ir.Value]) -> ir.Value:
                    return bb.select(bb.isnan(xs[0]), cast(ir.Value, value), xs[0])

                a = elementwise(b, [a], t.dtype, fix)
            rest = {k: x for k, x in vals.items() if k != "a" and x is not None}
            for k, x in rest.items():
                want = resolved.kwargs.get(k)
                rest[k] = x if want is None else b.cast(x, want)
            return inner_lower(b, [a], rest)

        return resolved_operation(args, kwargs, resolved.ret, lower)

    return rule


_NAN_NOTES = "NumPy's definition: {} of the array with NaN replaced by {}"
register_function(
    np.nanprod,
    params="a: array, axis?: axis | tuple | None, keepdims?: bool",
    notes=_NAN_NOTES.format("np.prod", 1),
)(_nan_replaced_rule("nanprod", np.prod, 1.0))
register_function(
    np.nancumsum, params="a: array, axis?: axis | None", notes=_NAN_NOTES.format("np.cumsum", 0)
)(_nan_replaced_rule("nancumsum", np.cumsum, 0.0))
register_function(
    np.nancumprod,
    params="a: array, axis?: axis | None",
    notes=_NAN_NOTES.format("np.cumprod", 1),
)(_nan_replaced_rule("nancumprod", np.cumprod, 1.0))


# --- iscomplexobj, isrealobj, isscalar ---------------------------------------------------------


def _one_operand(args: list[Operand], kwargs: dict[str, Operand], what: str) -> T.Scalar:
    """The dtype of the one array or number argument."""
    ops = bind_operands(args, kwargs, ["x"], what)
    x = ops["x"]
    t = None if x is None else x.type
    dtype = t.dtype if isinstance(t, T.Array) else t
    if not isinstance(dtype, T.Scalar):
        raise TypingError(f"{what}: the argument must be an array or a number, not {t}")
    return dtype


def _known(value: object, args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """A result known while compiling (the argument is not evaluated again)."""
    return Resolved(
        (None,) * len(args),
        T.BOOL,
        lambda b, v, kw: ir.Const(value, type=T.BOOL),
        kwargs=dict.fromkeys(kwargs),
        origin=True,  # a Python bool, as NumPy returns
    )


@register_function(np.iscomplexobj, params="x: number | array", notes="known while compiling")
def _iscomplexobj(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """np.iscomplexobj: whether the dtype is complex (not whether any value has an imaginary
    part)."""
    return _known(_one_operand(args, kwargs, "np.iscomplexobj").is_complex, args, kwargs)


@register_function(np.isrealobj, params="x: number | array", notes="known while compiling")
def _isrealobj(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """np.isrealobj: whether the dtype is not complex."""
    return _known(not _one_operand(args, kwargs, "np.isrealobj").is_complex, args, kwargs)


@register_function(
    np.isscalar,
    params="element: number | array",
    notes="known while compiling: numbers are scalars, arrays (0-d ones too) are not",
)
def _isscalar(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """np.isscalar: True for numbers, False for arrays."""
    ops = bind_operands(args, kwargs, ["element"], "np.isscalar")
    x = ops["element"]
    if x is None or not isinstance(x.type, T.Scalar | T.Array):
        raise TypingError(
            f"np.isscalar of {None if x is None else x.type} is not supported",
            hint="pass a number or an array",
        )
    return _known(isinstance(x.type, T.Scalar), args, kwargs)


# --- diagonal -------------------------------------------------------------------------------


def _diagonal_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """np.diagonal / ndarray.diagonal: the view of the items a[..., i, i + offset] (axis1 and
    axis2 removed, the diagonal last), as NumPy's read-only view (writes are not stopped)."""
    what = "np.diagonal"
    names = ["a", "offset", "axis1", "axis2"]
    ops = bind_operands(args, kwargs, names, what)
    t = _array(ops["a"], what, "a")
    _int_arg(ops["offset"], what, "offset")
    axes = []
    for name, default in (("axis1", 0), ("axis2", 1)):
        op = ops[name]
        value = default if op is None else op.const
        if not (isinstance(value, int) and not isinstance(value, bool)):
            raise TypingError(f"{what}: {name} must be a constant int", hint=f"write {name}=0")
        axes.append(value)
    nd = t.ndim
    ret = T.Array(t.dtype, max(nd - 1, 0), "A")
    p, q = 0, 1
    if nd >= 2:  # (else NumPy's ValueError, raised when the call runs)
        for x in axes:
            if not -nd <= x < nd:
                raise TypingError(f"{what}: axis {x} is out of bounds for array of dimension {nd}")
        p, q = axes[0] % nd, axes[1] % nd
        if p == q:
            raise TypingError(f"{what}: axis1 and axis2 cannot be the same")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, names)
        a, off = vals["a"], vals["offset"]
        assert a is not None
        offset = i64(0) if off is None else b.cast(off, T.I64)
        # NumPy takes the offset as a C int, first
        big = "signed integer is greater than maximum"
        b.raise_if(b.cmp("gt", offset, i64(2**31 - 1)), OverflowError, big)
        small = "signed integer is less than minimum"
        b.raise_if(b.cmp("lt", offset, i64(-(2**31))), OverflowError, small)
        if nd < 2:
            message = "diag requires an array of at least two dimensions"
            return S.always_raise(ValueError, message, ret)(b, [a], {})
        shapes, strides = L.shapes_of(b, a), L.strides_of(b, a)
        negative = b.cmp("lt", offset, i64(0))
        # the length: min(n1 + offset, n2) below the diagonal, min(n1, n2 - offset) above
        below = b.binop("add", shapes[p], offset)
        above = b.binop("sub", shapes[q], offset)
        n1 = b.select(negative, below, shapes[p])
        n2 = b.select(negative, shapes[q], above)
        length = b.select(b.cmp("lt", n1, n2), n1, n2)
        some = b.cmp("gt", length, i64(0))
        length = b.select(some, length, i64(0))
        minus = b.emit(ir.UnaryOp("neg", offset, type=T.I64))
        start = b.select(
            negative,
            b.binop("mul", minus, strides[p]),
            b.binop("mul", offset, strides[q]),
        )
        data = b.ptr_add(L.data_of(b, a), b.select(some, start, i64(0)))
        kept = [k for k in range(nd) if k not in (p, q)]
        new_shapes = [shapes[k] for k in kept] + [length]
        new_strides = [strides[k] for k in kept] + [b.binop("add", strides[p], strides[q])]
        return L.make_view(b, a, ret, data, new_shapes, new_strides)

    return resolved_operation(args, kwargs, ret, lower)


_DIAGONAL_NOTES = (
    "a view (NumPy makes it read-only, compiled code does not stop writes); axis1 and axis2 "
    "constants"
)
register_function(
    np.diagonal, params="a: array, offset?: int, axis1?: axis, axis2?: axis", notes=_DIAGONAL_NOTES
)(_diagonal_rule)
register_method(
    T.Array, "diagonal", params="offset?: int, axis1?: axis, axis2?: axis", notes=_DIAGONAL_NOTES
)(_diagonal_rule)


# --- asarray_chkfinite ----------------------------------------------------------------------


@register_function(
    np.asarray_chkfinite,
    params="a: array",
    notes="of arrays: the array itself (no dtype= or order=)",
)
def _asarray_chkfinite(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """np.asarray_chkfinite: the array, after NumPy's ValueError if it holds an inf or NaN."""
    what = "np.asarray_chkfinite"
    ops = bind_operands(args, kwargs, ["a", "dtype", "order"], what)
    t = _array(ops["a"], what, "a")
    for name in ("dtype", "order"):
        if not is_none(ops[name]):
            raise TypingError(
                f"{what}: the {name} argument is not supported", hint=f"leave {name} out"
            )
    inexact = t.dtype.is_float or t.dtype.is_complex
    k = call_kernel(npextrak.all_finite_flat, [T.Array(t.dtype, 1, "C")]) if inexact else None

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a = v[0]
        if k is not None:
            ok = _call(k, b, [flat1(b, a, t.dtype)])
            b.raise_if(b.not_(ok), ValueError, "array must not contain infs or NaNs")
        return L.make_view(b, a, t, L.data_of(b, a), L.shapes_of(b, a), L.strides_of(b, a))

    return resolved_operation(args, kwargs, t, lower)


# --- trim_zeros -------------------------------------------------------------------------------


@register_function(
    np.trim_zeros,
    params="filt: array, trim?: str, axis?: axis | tuple | None",
    notes="trim= and axis= constants; a view",
)
def _trim_zeros(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """np.trim_zeros: the view of filt inside the bounding box of its nonzero items (along the
    axes asked, from the front 'f' and/or the back 'b')."""
    what = "np.trim_zeros"
    names = ["filt", "trim", "axis"]
    ops = bind_operands(args, kwargs, names, what)
    t = _array(ops["filt"], what, "filt")
    trim_op = ops["trim"]
    trim = "fb" if trim_op is None else trim_op.const
    if not isinstance(trim, str):
        raise TypingError(f"{what}: trim must be a constant string", hint="write trim='fb'")
    ret = T.Array(t.dtype, t.ndim, "A")
    if trim.lower() not in ("fb", "bf", "f", "b"):  # NumPy's error, raised when the call runs
        message = f"unexpected character(s) in `trim`: {trim.lower()!r}"
        return resolved_operation(args, kwargs, ret, S.always_raise(ValueError, message, ret))
    front, back = "f" in trim.lower(), "b" in trim.lower()
    axes = axes_arg(ops["axis"], t.ndim, what) if t.ndim else []
    trimmed = list(range(t.ndim)) if axes is None else axes
    vec = T.Array(T.I64, 1, "C")
    k = call_kernel(npextrak.nonzero_box, [T.Array(t.dtype, 1, "C"), vec])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a = v[0]
        shapes, strides = L.shapes_of(b, a), L.strides_of(b, a)
        if not trimmed:
            return L.make_view(b, a, ret, L.data_of(b, a), shapes, strides)
        dims = L.allocate(b, T.I64, [i64(t.ndim)], "C")
        for d, n in enumerate(shapes):
            L.store(b, b.ptr_add(L.data_of(b, dims), i64(8 * d)), n)
        box = _call(k, b, [flat1(b, a, t.dtype), dims])
        offset: ir.Value = i64(0)
        new_shapes = list(shapes)
        for d in trimmed:
            first = L.load(b, b.ptr_add(L.data_of(b, box), i64(8 * d)), T.I64)
            stop = L.load(b, b.ptr_add(L.data_of(b, box), i64(8 * (t.ndim + d))), T.I64)
            # (no nonzero item: the box is all zeros, and NumPy keeps nothing of any axis)
            start = first if front else i64(0)
            end = stop if back else b.select(b.cmp("eq", stop, i64(0)), i64(0), shapes[d])
            new_shapes[d] = b.binop("sub", end, start)
            offset = b.binop("add", offset, b.binop("mul", start, strides[d]))
        data = b.ptr_add(L.data_of(b, a), offset)
        return L.make_view(b, a, ret, data, new_shapes, strides)

    return resolved_operation(args, kwargs, ret, lower)


# --- fill_diagonal --------------------------------------------------------------------------


@register_function(
    np.fill_diagonal,
    params="a: array, val: number | array, wrap?: bool",
    notes="in place; values converted as NumPy's a.flat[...] = val converts them (a Python "
    "int must fit, NaN cannot go into integers); wrap a constant",
)
def _fill_diagonal(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    """np.fill_diagonal: a[i, i, ..., i] = val (repeated as needed), in place; with wrap=True
    a tall matrix's diagonal starts again below each square block."""
    what = "np.fill_diagonal"
    names = ["a", "val", "wrap"]
    ops = bind_operands(args, kwargs, names, what)
    t = _array(ops["a"], what, "a")
    val = ops["val"]
    vt = None if val is None else val.type
    v_dtype = vt.dtype if isinstance(vt, T.Array) else vt
    if val is None or not isinstance(v_dtype, T.Scalar):
        raise TypingError(
            f"{what}: val must be a number or an array, not {vt}",
            hint="pass a number or a NumPy array",
        )
    if v_dtype.is_complex and not t.dtype.is_complex:
        raise TypingError(
            f"{what}: cannot put complex values into a {t.dtype} array",
            hint="take .real of the values first",
        )
    wrap = const_flag(ops["wrap"], "wrap")
    nd = t.ndim
    vec = T.Array(t.dtype, 1, "C")
    fill = call_kernel(npextrak.fill_cyclic, [T.Array(t.dtype, 1, "A"), vec])
    wrapped = call_kernel(npextrak.fill_wrapped, [t, vec]) if wrap and nd == 2 else None

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, names)
        a, x = vals["a"], vals["val"]
        assert a is not None and x is not None
        none = ir.Const(None, type=T.NONE)
        if nd < 2:  # NumPy's error, when the call runs
            b.raise_if(ir.Const(True, type=T.BOOL), ValueError, "array must be at least 2-d")
            return none
        shapes, strides = L.shapes_of(b, a), L.strides_of(b, a)
        if nd > 2:
            equal: ir.Value = ir.Const(True, type=T.BOOL)
            for n in shapes[1:]:
                equal = b.and_(equal, b.cmp("eq", n, shapes[0]))
            message = "All dimensions of input must be of equal length"
            b.raise_if(b.not_(equal), ValueError, message)
        if isinstance(x.type, T.Array):
            values = flat1(b, x, t.dtype)
        else:
            # a Python int must fit, NaN cannot go in; a NumPy int is cast (NumPy's a.flat[...])
            check_stored_number(b, x, t.dtype, python=val.weak, one_value=False)
            values = L.allocate(b, t.dtype, [i64(1)], "C")
            L.store(b, L.data_of(b, values), b.cast(x, t.dtype))
        if wrapped is not None:
            _call(wrapped, b, [a, values])
            return none
        n = shapes[0]
        for m in shapes[1:]:  # (the diagonal of a wide or tall matrix: min of the two)
            n = b.select(b.cmp("lt", m, n), m, n)
        step: ir.Value = i64(0)
        for st in strides:
            step = b.binop("add", step, st)
        d = L.make_view(b, a, T.Array(t.dtype, 1, "A"), L.data_of(b, a), [n], [step])
        _call(fill, b, [d, values])
        return none

    return resolved_operation(args, kwargs, T.NONE, lower)
