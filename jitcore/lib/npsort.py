"""Sorting and searching: `np.sort`, `argsort`, `searchsorted`, `unique`, `nonzero` and friends,
`partition`, `median`, `percentile`, `quantile`.

The typing rules here pick NumPy's result types and bring the array to 2-D rows (`nprows`);
the work is done by the library kernels of `npsortk`. Sorting runs along one axis (-1 by
default, None flattens); NaN sorts last, as in NumPy.
"""

from __future__ import annotations

import numpy as np

from jitcore.errors import TypingError, UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.lib import layout as L
from jitcore.lib import npsortk
from jitcore.lib.arrays import assign, copy_as
from jitcore.lib.nprows import (
    Rows,
    axes_arg,
    reduced_type,
    rows,
    take_args,
    unrows_lanes,
    unrows_reduced,
)
from jitcore.lib.registry import (
    Operand,
    Resolved,
    call_kernel,
    register_function,
    register_method,
)

_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")

_TIES = (
    "the default kind sorts indices stably; NumPy's quicksort may order equal keys "
    "differently (`kind='stable'` matches NumPy exactly)"
)


def _kernel(name: str, arg_types: list[T.Type]) -> Resolved:
    return call_kernel(getattr(npsortk, name), arg_types)


def _sortable(args: list[Operand], what: str) -> T.Array:
    if not args or not isinstance(args[0].type, T.Array):
        raise TypingError(f"{what} needs an array argument")
    t = args[0].type
    if t.dtype.is_complex:
        raise UnsupportedError(
            f"{what} of complex arrays is not supported",
            hint="sort the real and imaginary parts as floats",
        )
    return t


def _const(op: Operand | None, default: object, what: str) -> object:
    if op is None:
        return default
    if not op.is_const:
        raise TypingError(f"{what} must be a compile-time constant")
    return op.const


def _kind(op: Operand | None) -> object:
    kind = _const(op, None, "kind")
    if kind not in _KINDS:
        raise TypingError(
            f"sort kind must be one of 'quicksort', 'mergesort', 'heapsort' or 'stable', "
            f"not {kind!r}"
        )
    return kind


def _sort_axis(op: Operand | None, ndim: int, what: str, default: int | None = -1) -> int | None:
    """The one axis of a sort (None flattens). A 0-d array has no axis -1 to sort along:
    NumPy's AxisError, a TypingError here as for any constant axis out of bounds."""
    if op is None:
        if default is not None and ndim == 0:
            raise TypingError(
                f"{what}: axis {default} is out of bounds for array of dimension 0",
                hint="flatten it with axis=None, or sort np.atleast_1d(a)",
            )
        return None if default is None else default % ndim
    axes = axes_arg(op, ndim, what)
    if axes is not None and isinstance(op.const, tuple):
        raise TypingError(f"{what}: axis must be an integer, not a tuple")
    return None if axes is None else axes[0]


def _raveled(t: T.Array) -> T.Array:
    """The array argsort and argpartition work on: a 0-d array as the 1-d array of its item,
    as NumPy's PyArray_CheckAxis ravels it (so axis 0, -1 and None all give array([0]))."""
    return T.Array(t.dtype, 1, "C") if t.ndim == 0 else t


def _ravel_0d(b: LowBuilder, a: ir.Value) -> ir.Value:
    """`a` viewed as `_raveled` types it."""
    t = a.type
    assert isinstance(t, T.Array)
    if t.ndim != 0:
        return a
    return L.make_view(b, a, _raveled(t), L.data_of(b, a), [i64(1)], [i64(t.dtype.dtype.itemsize)])


def _lanes(b: LowBuilder, a: ir.Value, axis: int | None, *, copy: bool):  # noqa: ANN202
    t = a.type
    assert isinstance(t, T.Array)
    return rows(b, a, None if axis is None else [axis], t.dtype, copy=copy)


def _back(b: LowBuilder, out: ir.Value, r, ndim: int, axis: int | None) -> ir.Value:  # noqa: ANN001
    """A per-lane result of shape (rows, n) in NumPy's shape (1-D when flattened)."""
    if axis is None:
        t = out.type
        assert isinstance(t, T.Array)
        return L.make_view(
            b,
            out,
            T.Array(t.dtype, 1, "C"),
            L.data_of(b, out),
            [r.length],
            [i64(t.dtype.dtype.itemsize)],
        )
    return unrows_lanes(b, out, r, ndim, axis)


def _result_t(dtype: T.Scalar, ndim: int, axis: int | None) -> T.Array:
    if axis is None or ndim == 1:
        return T.Array(dtype, 1, "C")
    return T.Array(dtype, ndim, "C" if axis == ndim - 1 else "A")


# --- sort and argsort -------------------------------------------------------------------


def _sort_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    t = _sortable(args, "np.sort")
    ops = take_args(args, kwargs, ["axis", "kind", "order", "stable"], "np.sort")
    _kind(ops["kind"])
    _no_order(ops["order"])
    axis = _sort_axis(ops["axis"], t.ndim, "np.sort")
    sort = _kernel("sort_rows", [T.Array(t.dtype, 2, "C")])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        r = _lanes(b, v[0], axis, copy=True)
        sort.lower(b, [r.rows], {})  # type: ignore[misc]
        return _back(b, r.rows, r, t.ndim, axis)

    return Resolved(
        (None,) * len(args), _result_t(t.dtype, t.ndim, axis), lower, kwargs=dict.fromkeys(kwargs)
    )


def _no_order(op: Operand | None) -> None:
    if op is not None and not (op.is_const and op.const is None):
        raise UnsupportedError("order= (sorting structured arrays by field) is not supported")


def _sort_method(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """a.sort(): sorts a in place (through a sorted copy written back)."""
    t = _sortable(args, "ndarray.sort")
    ops = take_args(args, kwargs, ["axis", "kind", "order", "stable"], "ndarray.sort")
    _kind(ops["kind"])
    _no_order(ops["order"])
    axis = _sort_axis(ops["axis"], t.ndim, "ndarray.sort")
    if axis is None:
        raise TypingError("ndarray.sort: axis=None is not allowed (NumPy sorts along an axis)")
    sort = _kernel("sort_rows", [T.Array(t.dtype, 2, "C")])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        r = _lanes(b, v[0], axis, copy=True)
        sort.lower(b, [r.rows], {})  # type: ignore[misc]
        assign(b, v[0], _back(b, r.rows, r, t.ndim, axis), python=False)
        return ir.Const(None, type=T.NONE)

    return Resolved(
        (None,) * len(args), T.NONE, lower, kwargs=dict.fromkeys(kwargs), may_raise=True
    )


def _argsort_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    t = _raveled(_sortable(args, "np.argsort"))
    ops = take_args(args, kwargs, ["axis", "kind", "order", "stable"], "np.argsort")
    _kind(ops["kind"])
    _no_order(ops["order"])
    axis = _sort_axis(ops["axis"], t.ndim, "np.argsort")
    argsort = _kernel("argsort_rows", [T.Array(t.dtype, 2, "C"), T.Array(T.I64, 2, "C")])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        r = _lanes(b, _ravel_0d(b, v[0]), axis, copy=False)
        out = L.allocate(b, T.I64, [r.count, r.length], "C")
        argsort.lower(b, [r.rows, out], {})  # type: ignore[misc]
        return _back(b, out, r, t.ndim, axis)

    return Resolved(
        (None,) * len(args), _result_t(T.I64, t.ndim, axis), lower, kwargs=dict.fromkeys(kwargs)
    )


register_function(
    np.sort,
    params="a: array, axis?: axis | None, *, kind?: str",
    notes="kinds all sort the same way (introsort); NaN last",
)(_sort_rule)
register_method(T.Array, "sort", params="axis?: axis, *, kind?: str", notes="in place")(
    _sort_method
)
register_function(np.argsort, params="a: array, axis?: axis | None, *, kind?: str", notes=_TIES)(
    _argsort_rule
)
register_method(T.Array, "argsort", params="axis?: axis | None, *, kind?: str", notes=_TIES)(
    _argsort_rule
)


# --- partition --------------------------------------------------------------------------


def _partition(name: str, indices: bool):  # noqa: ANN202
    what = f"np.{name}"

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        t = _sortable(args, what)
        if indices:  # argpartition ravels a 0-d array, partition does not (AxisError)
            t = _raveled(t)
        ops = take_args(args, kwargs, ["kth", "axis", "kind", "order"], what)
        kth = ops["kth"]
        if kth is None or not (isinstance(kth.type, T.Scalar) and kth.type.kind in "iub"):
            raise TypingError(
                f"{what}: kth must be an integer", hint="arrays of kth are not supported"
            )
        if ops["kind"] is not None and _const(ops["kind"], None, "kind") != "introselect":
            raise TypingError(f"{what}: kind must be 'introselect'")
        _no_order(ops["order"])
        axis = _sort_axis(ops["axis"], t.ndim, what)
        rows_t = T.Array(t.dtype, 2, "C")
        work = (
            _kernel("argsort_rows", [rows_t, T.Array(T.I64, 2, "C")])
            if indices
            else _kernel("select_rows", [rows_t, T.I64])
        )
        check = _kernel("check_kth", [T.I64, T.I64, T.I64])
        boolean = kth.type.kind == "b"
        out_dtype = T.I64 if indices else t.dtype

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            if boolean:
                b.raise_if(
                    ir.Const(True, type=T.BOOL),
                    ValueError,
                    "Booleans unacceptable as partition index",
                )
            kth_v = b.cast(v[1] if len(args) > 1 else kw["kth"], T.I64)
            r = _lanes(b, _ravel_0d(b, v[0]), axis, copy=not indices)
            check.lower(b, [kth_v, r.length, r.count], {})  # type: ignore[misc]
            if indices:
                out = L.allocate(b, T.I64, [r.count, r.length], "C")
                work.lower(b, [r.rows, out], {})  # type: ignore[misc]
            else:
                out = r.rows
                negative = b.cmp("lt", kth_v, i64(0))
                k = b.select(negative, b.binop("add", kth_v, r.length), kth_v)
                # (an empty array has no valid kth: select nothing)
                safe = b.select(b.cmp("eq", r.length, i64(0)), i64(0), k)
                work.lower(b, [out, safe], {})  # type: ignore[misc]
            return _back(b, out, r, t.ndim, axis)

        return Resolved(
            (None,) * len(args),
            _result_t(out_dtype, t.ndim, axis),
            lower,
            kwargs=dict.fromkeys(kwargs),
            may_raise=True,
        )

    return rule


_PARTITION_NOTES = (
    "kth an int (not a sequence); a valid partition (quickselect; argpartition sorts), but "
    "the elements on each side of kth come in another order than NumPy's (unspecified there)"
)
register_function(
    np.partition, params="a: array, kth: int, axis?: axis | None", notes=_PARTITION_NOTES
)(_partition("partition", False))
register_function(
    np.argpartition, params="a: array, kth: int, axis?: axis | None", notes=_PARTITION_NOTES
)(_partition("argpartition", True))


# --- searchsorted -----------------------------------------------------------------------


def _common_dtype(a: T.Array, v: Operand) -> T.Scalar:
    """NumPy converts v to an array first, so a Python number counts as its default dtype
    (not weak): searching 1e-60 in float32 zeros compares in float64."""
    vt = v.type
    v_dtype = vt.dtype if isinstance(vt, T.Array) else vt
    assert isinstance(v_dtype, T.Scalar)
    return T.from_dtype(np.result_type(a.dtype.dtype, v_dtype.dtype))


def _searchsorted_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    t = _sortable(args, "np.searchsorted")
    ops = take_args(args, kwargs, ["v", "side", "sorter"], "np.searchsorted")
    if t.ndim != 1:
        raise TypingError("np.searchsorted: the sorted array must be 1-D")
    v = ops["v"]
    if v is None or not isinstance(v.type, T.Array | T.Scalar):
        raise TypingError("np.searchsorted: v must be a number or an array")
    side = _const(ops["side"], "left", "side")
    if side not in ("left", "right"):
        raise TypingError(f"side must be 'left' or 'right', not {side!r}")
    if ops["sorter"] is not None and not (ops["sorter"].is_const and ops["sorter"].const is None):
        raise UnsupportedError(
            "np.searchsorted: sorter= is not supported",
            hint="index the array with the sorter first: a[sorter]",
        )
    dtype = _common_dtype(t, v)
    if dtype.is_complex:
        raise UnsupportedError("np.searchsorted of complex numbers is not supported")
    vec = T.Array(dtype, 1, "C")
    search = _kernel("searchsorted_flat", [vec, vec, T.Array(T.I64, 1, "C"), T.BOOL])
    vt = v.type
    v_ndim = vt.ndim if isinstance(vt, T.Array) else 0  # a 0-d v gives a scalar, as a number
    result: T.Type = T.Array(T.I64, v_ndim, "C") if v_ndim else T.I64

    def lower(b: LowBuilder, vals: list[ir.Value], kw: dict) -> ir.Value:
        hay = rows(b, vals[0], None, dtype)
        hay1 = L.make_view(
            b, hay.rows, vec, L.data_of(b, hay.rows), [hay.length], [i64(dtype.dtype.itemsize)]
        )
        needle = vals[1] if len(vals) > 1 and len(args) > 1 else kw["v"]
        if isinstance(needle.type, T.Scalar):
            one = L.allocate(b, dtype, [i64(1)], "C")
            L.store(b, L.data_of(b, one), b.cast(needle, dtype))
            out = L.allocate(b, T.I64, [i64(1)], "C")
            search.lower(b, [hay1, one, out, ir.Const(side == "right", type=T.BOOL)], {})  # type: ignore[misc]
            return L.load(b, L.data_of(b, out), T.I64)
        nr = rows(b, needle, None, dtype)
        flat = L.make_view(
            b, nr.rows, vec, L.data_of(b, nr.rows), [nr.length], [i64(dtype.dtype.itemsize)]
        )
        out = L.allocate(b, T.I64, L.shapes_of(b, needle), "C")
        out1 = L.make_view(
            b, out, T.Array(T.I64, 1, "C"), L.data_of(b, out), [nr.length], [i64(8)]
        )
        search.lower(b, [hay1, flat, out1, ir.Const(side == "right", type=T.BOOL)], {})  # type: ignore[misc]
        return out if v_ndim else L.load(b, L.data_of(b, out), T.I64)

    return Resolved((None,) * len(args), result, lower, kwargs=dict.fromkeys(kwargs))


register_function(np.searchsorted, params="a: array, v: real | array, side?: str")(
    _searchsorted_rule
)
register_method(T.Array, "searchsorted", params="v: real | array, side?: str")(_searchsorted_rule)


# --- unique -----------------------------------------------------------------------------


def _flag(op: Operand | None, what: str) -> bool:
    value = _const(op, False, what)
    if not isinstance(value, bool | int):
        raise TypingError(f"{what} must be a constant True or False")
    return bool(value)


def _unique_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    t = _sortable(args, "np.unique")
    names = ["return_index", "return_inverse", "return_counts", "axis", "equal_nan"]
    ops = take_args(args, kwargs, names, "np.unique")
    if ops["axis"] is not None and not (ops["axis"].is_const and ops["axis"].const is None):
        raise UnsupportedError("np.unique with axis= is not supported")
    if not _flag(ops["equal_nan"], "equal_nan") and ops["equal_nan"] is not None:
        raise UnsupportedError("np.unique(equal_nan=False) is not supported")
    want = [_flag(ops[n], n) for n in names[:3]]
    vec = T.Array(t.dtype, 1, "C")
    ivec = T.Array(T.I64, 1, "C")
    if not any(want):
        sort = _kernel("sort_rows", [T.Array(t.dtype, 2, "C")])
        uniq = _kernel("unique_sorted", [vec])

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            r = rows(b, v[0], None, t.dtype, copy=True)
            sort.lower(b, [r.rows], {})  # type: ignore[misc]
            return uniq.lower(b, [_flat1(b, r)], {})  # type: ignore[misc]

        return Resolved((None,) * len(args), uniq.ret, lower, kwargs=dict.fromkeys(kwargs))
    full = _kernel("unique_full", [vec, ivec, ivec, T.BOOL])
    parts = full.ret
    assert isinstance(parts, T.Tuple)
    inverse_t = T.Array(T.I64, t.ndim, "C")
    items = [parts.items[0]] + [
        inverse_t if k == 1 else parts.items[k + 1] for k in range(3) if want[k]
    ]

    def lower_full(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        r = rows(b, v[0], None, t.dtype)
        flat = _flat1(b, r)
        order = L.allocate(b, T.I64, [r.length], "C")
        tmp = L.allocate(b, T.I64, [r.length], "C")
        res = full.lower(b, [flat, order, tmp, ir.Const(want[2], type=T.BOOL)], {})  # type: ignore[misc]
        out = [b.extract(res, 0)]
        for k in range(3):
            if not want[k]:
                continue
            part = b.extract(res, k + 1)
            if k == 1:  # NumPy 2: the inverse has the input's shape
                shapes = L.shapes_of(b, v[0])
                part = L.make_view(
                    b,
                    part,
                    inverse_t,
                    L.data_of(b, part),
                    shapes,
                    L.contiguous_strides(b, shapes, 8, "C"),
                )
            out.append(part)
        return b.make_tuple(out)

    return Resolved(
        (None,) * len(args), T.Tuple(tuple(items)), lower_full, kwargs=dict.fromkeys(kwargs)
    )


def _flat1(b: LowBuilder, r) -> ir.Value:  # noqa: ANN001
    t = r.rows.type
    return L.make_view(
        b,
        r.rows,
        T.Array(t.dtype, 1, "C"),
        L.data_of(b, r.rows),
        [r.length],
        [i64(t.dtype.dtype.itemsize)],
    )


register_function(
    np.unique,
    params="ar: array, *, return_index?: bool, return_inverse?: bool, return_counts?: bool",
    notes="flattens (no `axis=`); NaNs count as one value (NumPy 2's equal_nan=True)",
)(_unique_rule)


# --- nonzero, argwhere, flatnonzero, where(condition) -------------------------------------


def _truth_array(args: list[Operand], what: str) -> T.Array:
    if len(args) != 1 or not isinstance(args[0].type, T.Array):
        raise TypingError(f"{what} takes one array")
    return args[0].type


def _argwhere_lower(t: T.Array):  # noqa: ANN202
    vec = T.Array(t.dtype, 1, "C")
    count = _kernel("count_true", [vec])
    fill = _kernel("argwhere_flat", [vec, T.Array(T.I64, 1, "C"), T.Array(T.I64, 2, "C")])

    def lower(b: LowBuilder, a: ir.Value) -> tuple[ir.Value, ir.Value]:
        r = rows(b, a, None, t.dtype)
        flat = _flat1(b, r)
        n = count.lower(b, [flat], {})  # type: ignore[misc]
        shape = L.allocate(b, T.I64, [i64(t.ndim)], "C")
        for k, s in enumerate(L.shapes_of(b, a)):
            L.store(b, L.element_ptr(b, L.data_of(b, shape), [i64(k)], [i64(8)]), s)
        out = L.allocate(b, T.I64, [n, i64(t.ndim)], "C")
        fill.lower(b, [flat, shape, out], {})  # type: ignore[misc]
        return out, n

    return lower


@register_function(np.argwhere, params="a: array")
def _argwhere(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    t = _truth_array(args, "np.argwhere")
    if kwargs:
        return None
    body = _argwhere_lower(t)
    return Resolved((None,), T.Array(T.I64, 2, "C"), lambda b, v, kw: body(b, v[0])[0])


def nonzero_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """np.nonzero(a) and np.where(a): a tuple of one index array per dimension."""
    t = _truth_array(args, "np.nonzero")
    if kwargs:
        return None
    if t.ndim == 0:
        return Resolved((None,), T.Tuple(()), _nonzero_0d, may_raise=True)
    body = _argwhere_lower(t)
    col = T.Array(T.I64, 1, "C")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        where, n = body(b, v[0])
        cols = []
        for d in range(t.ndim):
            data = b.ptr_add(L.data_of(b, where), i64(8 * d))
            view_t = T.Array(T.I64, 1, "C" if t.ndim == 1 else "A")
            view = L.make_view(b, where, view_t, data, [n], [i64(8 * t.ndim)])
            if t.ndim > 1:
                copy = L.allocate(b, T.I64, [n], "C")
                from jitcore.lib.loops import elementwise

                elementwise(b, [view], T.I64, lambda bb, xs: xs[0], out=copy)
                view = copy
            cols.append(view)
        return b.make_tuple(cols)

    return Resolved((None,), T.Tuple((col,) * t.ndim), lower)


def _nonzero_0d(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
    """NumPy 2 refuses nonzero of a 0-d array (whose old answer depended on its truth), when
    the call runs."""
    b.raise_if(
        ir.Const(True, type=T.BOOL),
        ValueError,
        "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
        "instead.",
    )
    return b.make_tuple([])


register_function(np.nonzero, params="a: array")(nonzero_rule)
register_method(T.Array, "nonzero", params="")(nonzero_rule)


@register_function(np.flatnonzero, params="a: array")
def _flatnonzero(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    t = _truth_array(args, "np.flatnonzero")
    if kwargs:
        return None
    k = _kernel("flatnonzero_flat", [T.Array(t.dtype, 1, "C")])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        return k.lower(b, [_flat1(b, rows(b, v[0], None, t.dtype))], {})  # type: ignore[misc]

    return Resolved((None,), k.ret, lower)


# --- median, percentile, quantile ---------------------------------------------------------


def _float_of(t: T.Scalar) -> T.Scalar:
    return t if t.is_float else T.F64


def _reduce_axes(
    ops: dict[str, Operand | None], ndim: int, what: str
) -> tuple[list[int] | None, bool]:
    axes = axes_arg(ops.get("axis"), ndim, what)
    keepdims = _flag(ops.get("keepdims"), "keepdims")
    return axes, keepdims


def _median_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    t = _sortable(args, "np.median")
    ops = take_args(args, kwargs, ["axis", "out", "overwrite_input", "keepdims"], "np.median")
    if ops["out"] is not None:
        raise UnsupportedError("np.median: out= is not supported")
    axes, keepdims = _reduce_axes(ops, t.ndim, "np.median")
    dtype = _float_of(t.dtype)
    k = _kernel("median_rows", [T.Array(dtype, 2, "C"), T.Array(dtype, 1, "C")])
    result = _reduced(dtype, t.ndim, axes, keepdims)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        r = rows(b, v[0], axes, dtype, copy=True)
        out = L.allocate(b, dtype, [r.count], "C")
        k.lower(b, [r.rows, out], {})  # type: ignore[misc]
        return _unrows(b, out, r, t.ndim, axes, keepdims)

    return Resolved((None,) * len(args), result, lower, kwargs=dict.fromkeys(kwargs))


def _reduced(dtype: T.Scalar, ndim: int, axes: list[int] | None, keepdims: bool) -> T.Type:
    """NumPy's result type of median and quantile: a reduction's, except that a 0-d array
    stays one under keepdims (they are not ufunc reductions, which unwrap it to a scalar)."""
    if keepdims and ndim == 0:
        return T.Array(dtype, 0, "C")
    return reduced_type(dtype, ndim, axes, keepdims)


def _unrows(
    b: LowBuilder, out: ir.Value, r: Rows, ndim: int, axes: list[int] | None, keepdims: bool
) -> ir.Value:
    """The one value per row in `out` as `_reduced` types it."""
    if keepdims and ndim == 0:
        t = out.type
        assert isinstance(t, T.Array)
        return L.make_view(b, out, T.Array(t.dtype, 0, "C"), L.data_of(b, out), [], [])
    return unrows_reduced(b, out, r, ndim, axes, keepdims)


register_function(
    np.median,
    params="a: array, axis?: axis | None, *, keepdims?: bool",
    notes="an empty lane gives nan (without NumPy's warning)",
)(_median_rule)


def kernel_dtype(d: T.Scalar) -> T.Scalar:
    """The dtype the quantile kernels work in: booleans as uint8 (the kernels cannot
    subtract booleans; an exact quantile only takes items, and any other raises first:
    `quantile_rows_of`)."""
    return T.U8 if d.is_bool else d


def quantile_rows_of(
    b: LowBuilder,
    k: Resolved,
    a: ir.Value,
    axes: list[int] | None,
    t: T.Array,
    dtype: T.Scalar,
    exact: bool,
    qs: ir.Value,
) -> tuple[ir.Value, Rows]:
    """The quantiles `qs` (a float64 vector, checked and scaled to [0, 1]) of each lane of `a`
    along `axes`, by the kernel `k` (lanes, qs, out, exact), as a (len(qs), lanes) array of
    `dtype`, with the lanes. Interpolating booleans raises TypeError, as NumPy's subtraction
    of booleans does. Shared by np.quantile / np.percentile and their nan forms (`npextra`)."""
    if t.dtype.is_bool and not exact:
        b.raise_if(
            ir.Const(True, type=T.BOOL),
            TypeError,
            "numpy boolean subtract, the `-` operator, is not supported",
        )
    r = rows(b, a, axes, kernel_dtype(t.dtype), copy=True)
    nq = L.shape_of(b, qs, 0)
    out = L.allocate(b, kernel_dtype(dtype), [nq, r.count], "C")
    assert k.lower is not None
    k.lower(b, [r.rows, qs, out, ir.Const(exact, type=T.BOOL)], {})
    if kernel_dtype(dtype) != dtype:
        out = copy_as(b, out, dtype)
    return out, r


def quantile_dtype(t: T.Array, q: Operand, percentile: bool) -> tuple[T.Scalar, bool]:
    """NumPy's result dtype of a linear quantile (or percentile) of `t` at `q`, and whether
    the quantiles are items taken without interpolating (an integer or boolean q of
    np.quantile). A Python number q is weak: it does not widen a float32 result; an array or
    a NumPy number does (an int8 array at a float32 q is float32, a float32 array at a
    float64 q float64); np.percentile divides q by 100 first, so an integer q is float64
    there. Shared by np.quantile / np.percentile and their NaN-ignoring forms (`npextra`)."""
    qt = q.type
    q_dtype = qt.dtype if isinstance(qt, T.Array) else qt
    assert isinstance(q_dtype, T.Scalar)
    if percentile and not q_dtype.is_float:
        q_dtype = T.F64
    if not percentile and (q_dtype.is_int or q_dtype.is_bool):
        return t.dtype, True
    if q.weak and isinstance(qt, T.Scalar):
        return _float_of(t.dtype), False
    return _float_of(T.from_dtype(np.result_type(t.dtype.dtype, q_dtype.dtype))), False


def _quantile(name: str, scale: float):  # noqa: ANN202
    what = f"np.{name}"

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        t = _sortable(args, what)
        ops = take_args(
            args,
            kwargs,
            [
                "q",
                "axis",
                "out",
                "overwrite_input",
                "method",
                "keepdims",
                "weights",
                "interpolation",
            ],
            what,
        )
        q = ops["q"]
        if q is None or not isinstance(q.type, T.Array | T.Scalar):
            raise TypingError(f"{what}: q must be a number or an array")
        if _const(ops["method"], "linear", "method") != "linear":
            raise UnsupportedError(f"{what}: only method='linear' (the default) is supported")
        for unsupported in ("out", "weights", "interpolation"):
            if ops[unsupported] is not None:
                raise UnsupportedError(f"{what}: {unsupported}= is not supported")
        axes, keepdims = _reduce_axes(ops, t.ndim, what)
        qt = q.type
        q_dtype = qt.dtype if isinstance(qt, T.Array) else qt
        assert isinstance(q_dtype, T.Scalar)
        if q_dtype.is_complex:
            raise TypingError(f"{what}: q must be real")
        dtype, exact = quantile_dtype(t, q, percentile=scale != 1.0)
        check = _kernel("check_quantiles", [T.Array(T.F64, 1, "C"), T.F64])
        k = _kernel(
            "quantile_rows",
            [
                T.Array(kernel_dtype(t.dtype), 2, "C"),
                T.Array(T.F64, 1, "C"),
                T.Array(kernel_dtype(dtype), 2, "C"),
                T.BOOL,
            ],
        )
        reduced = _reduced(dtype, t.ndim, axes, keepdims)
        q_ndim = qt.ndim if isinstance(qt, T.Array) else 0
        if q_ndim:
            rnd = reduced.ndim if isinstance(reduced, T.Array) else 0
            result: T.Type = T.Array(dtype, q_ndim + rnd, "C")
        else:
            result = reduced

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            qv = v[1] if len(args) > 1 else kw["q"]
            if isinstance(qv.type, T.Scalar):
                qs = L.allocate(b, T.F64, [i64(1)], "C")
                L.store(b, L.data_of(b, qs), b.cast(qv, T.F64))
            else:
                qs = _flat1(b, rows(b, qv, None, T.F64, copy=True))
            check.lower(b, [qs, ir.Const(scale, type=T.F64)], {})  # type: ignore[misc]
            if scale != 1.0:
                from jitcore.lib.loops import elementwise

                elementwise(
                    b,
                    [qs],
                    T.F64,
                    lambda bb, xs: bb.binop("div", xs[0], ir.Const(scale, type=T.F64)),
                    out=qs,
                )
            out, r = quantile_rows_of(b, k, v[0], axes, t, dtype, exact, qs)
            if not q_ndim:
                first = L.make_view(
                    b,
                    out,
                    T.Array(dtype, 1, "C"),
                    L.data_of(b, out),
                    [r.count],
                    [i64(dtype.dtype.itemsize)],
                )
                return _unrows(b, first, r, t.ndim, axes, keepdims)
            qshape = L.shapes_of(b, qv)
            rest: list[ir.Value] = []
            if isinstance(reduced, T.Array):
                along = list(range(t.ndim)) if axes is None else axes
                kept = iter(r.kept)
                rest = [
                    i64(1) if (keepdims and d in along) else next(kept)
                    for d in range(t.ndim)
                    if keepdims or d not in along
                ]
            shapes = qshape + rest
            assert isinstance(result, T.Array)
            return L.make_view(
                b,
                out,
                result,
                L.data_of(b, out),
                shapes,
                L.contiguous_strides(b, shapes, dtype.dtype.itemsize, "C"),
            )

        return Resolved(
            (None,) * len(args), result, lower, kwargs=dict.fromkeys(kwargs), may_raise=True
        )

    return rule


_Q_NOTES = "method='linear' only; q a number or an array"
register_function(
    np.quantile,
    params="a: array, q: float | array, axis?: axis | None, *, keepdims?: bool",
    notes=_Q_NOTES,
)(_quantile("quantile", 1.0))
register_function(
    np.percentile,
    params="a: array, q: float | array, axis?: axis | None, *, keepdims?: bool",
    notes=_Q_NOTES,
)(_quantile("percentile", 100.0))
