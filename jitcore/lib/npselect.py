"""Selecting and locating elements: rules for NumPy functions that pick elements by index, by
condition or by set membership (filled in by the functions that follow; each rule's docstring
names the NumPy function and what differs).

`take`, `compress`, `extract`, `put`, `take_along_axis`, `nan_to_num`, `unravel_index`,
`ravel_multi_index`, `ediff1d`, `isin` and the sorted-set functions (`intersect1d`, `union1d`,
`setdiff1d`, `setxor1d`). The rules pick NumPy's result types and bring operands to flat or
blocked C arrays (`nprows`); the kernels of `npselectk` (and the sorts of `npsortk`) do the
work. `select` is one elementwise loop (a chain of selects) for a tuple of arrays, a kernel for
a list.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.lib import layout as L
from jitcore.lib import npselectk, npsortk
from jitcore.lib.arrays import assign, check_stored_number
from jitcore.lib.loops import elementwise
from jitcore.lib.nprows import (
    axes_arg,
    bind_operands,
    const_flag,
    is_none,
    rows,
    unrows_lanes,
)
from jitcore.lib.npstats import flat1
from jitcore.lib.registry import (
    Operand,
    Resolved,
    call_kernel,
    register_function,
    register_method,
)

Lower = Callable[[LowBuilder, list[ir.Value], dict], ir.Value]
_I64_VEC = T.Array(T.I64, 1, "C")


def _kernel(name: str, arg_types: list[T.Type]) -> Resolved:
    module = npselectk if hasattr(npselectk, name) else npsortk
    return call_kernel(getattr(module, name), arg_types)


def _call(k: Resolved, b: LowBuilder, args: list[ir.Value]) -> ir.Value:
    assert k.lower is not None
    return k.lower(b, args, {})


def _vec(dtype: T.Scalar) -> T.Array:
    return T.Array(dtype, 1, "C")


# --- operands -------------------------------------------------------------------------------


def lowered_by_name(
    v: list[ir.Value], kw: dict, args: list[Operand], names: list[str]
) -> dict[str, ir.Value | None]:
    """The lowered operands by parameter name (None for those not given)."""
    return {n: v[i] if i < len(args) else kw.get(n) for i, n in enumerate(names)}


def resolved_operation(
    args: list[Operand], kwargs: dict[str, Operand], ret: T.Type, lower: Lower
) -> Resolved:
    """A call's resolution that passes every operand as it is (the lowering casts)."""
    return Resolved((None,) * len(args), ret, lower, kwargs=dict.fromkeys(kwargs), may_raise=True)


def _array(op: Operand | None, what: str, name: str) -> T.Array:
    if op is None or not isinstance(op.type, T.Array):
        got = "nothing" if op is None else str(op.type)
        raise TypingError(
            f"{what}: {name} must be an array, not {got}",
            hint="wrap a number or a tuple in np.array(...) first",
        )
    return op.type


def _array_or_number(op: Operand | None, what: str, name: str) -> T.Scalar:
    """The dtype of an array or number operand."""
    t = None if op is None else op.type
    if isinstance(t, T.Array):
        return t.dtype
    if isinstance(t, T.Scalar):
        return t
    raise TypingError(
        f"{what}: {name} must be an array or a number, not {t}",
        hint="wrap a tuple in np.array(...) first",
    )


def _index_dtype(dtype: T.Scalar, what: str, name: str) -> None:
    """NumPy casts index arrays to intp under 'same_kind': integers and bools only."""
    if not (dtype.is_int or dtype.is_bool):
        raise TypingError(
            f"{what}: {name} must be integers, not {dtype}",
            hint="convert them with .astype(np.int64)",
        )


def _none_or(op: Operand | None, allowed: tuple[object, ...], what: str, name: str) -> None:
    """An argument that may only be left out, or given as one of `allowed` constants."""
    if op is None or (op.is_const and op.const in allowed):
        return
    if is_none(op) and None in allowed:
        return
    shown = " or ".join(repr(a) for a in allowed)
    raise TypingError(
        f"{what}: {name}= is only supported as {shown}",
        hint=f"leave {name}= out",
    )


def _flat(b: LowBuilder, x: ir.Value, dtype: T.Scalar) -> ir.Value:
    """An array's items in C order, or a number, as a 1-D C array of dtype."""
    if isinstance(x.type, T.Array):
        return flat1(b, x, dtype)
    one = L.allocate(b, dtype, [i64(1)], "C")
    L.store(b, L.data_of(b, one), b.cast(x, dtype))
    return one


def _shaped(b: LowBuilder, a: ir.Value, shapes: list[ir.Value]) -> ir.Value:
    """The C-contiguous array a (its data, from the start) viewed with other shapes."""
    t = a.type
    assert isinstance(t, T.Array)
    size = t.dtype.dtype.itemsize
    strides = L.contiguous_strides(b, shapes, size, "C")
    return L.make_view(b, a, T.Array(t.dtype, len(shapes), "C"), L.data_of(b, a), shapes, strides)


def _unwrap(b: LowBuilder, out: ir.Value) -> ir.Value:
    """A 0-d result as its scalar (NumPy returns one), other arrays as they are."""
    t = out.type
    assert isinstance(t, T.Array)
    return L.load(b, L.data_of(b, out), t.dtype) if t.ndim == 0 else out


def _result(dtype: T.Scalar, ndim: int) -> T.Type:
    return dtype if ndim == 0 else T.Array(dtype, ndim, "C")


def _one_axis(op: Operand | None, ndim: int, what: str) -> int | None:
    if op is not None and isinstance(op.const, tuple):
        raise TypingError(f"{what}: axis must be an integer or None, not a tuple")
    axes = axes_arg(op, ndim, what)
    return None if axes is None else axes[0]


# --- take, compress, extract ------------------------------------------------------------------


def _take_into(
    b: LowBuilder,
    a: ir.Value,
    axis: int | None,
    idx: ir.Value,
    idx_shapes: list[ir.Value],
) -> ir.Value:
    """np.take(a, idx, axis) with idx a flat C int64 array holding idx_shapes; an array (0-d
    when no dimension is left)."""
    t = a.type
    assert isinstance(t, T.Array)
    r = rows(b, a, None, t.dtype)
    shapes = L.shapes_of(b, a)
    before: ir.Value = i64(1)
    n, after = r.length, before
    kept_before: list[ir.Value] = []
    kept_after: list[ir.Value] = []
    if axis is not None:
        before, n = L.size_of(b, shapes[:axis]), shapes[axis]
        after = L.size_of(b, shapes[axis + 1 :])
        kept_before, kept_after = shapes[:axis], shapes[axis + 1 :]
    blocks = _shaped(b, r.rows, [before, n, after])
    out = L.allocate(b, t.dtype, kept_before + idx_shapes + kept_after, "C")
    m = L.shape_of(b, idx, 0)
    take = _kernel(
        "take_blocks", [T.Array(t.dtype, 3, "C"), _I64_VEC, T.Array(t.dtype, 3, "C"), T.I64]
    )
    _call(take, b, [blocks, idx, _shaped(b, out, [before, m, after]), i64(axis or 0)])
    return out


_TAKE = ["a", "indices", "axis", "out", "mode"]


def _take_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    what = "np.take"
    ops = bind_operands(args, kwargs, _TAKE, what)
    t = _array(ops["a"], what, "a")
    _none_or(ops["out"], (None,), what, "out")
    _none_or(ops["mode"], ("raise",), what, "mode")
    idx_dtype = _array_or_number(ops["indices"], what, "indices")
    _index_dtype(idx_dtype, what, "indices")
    it = ops["indices"].type  # type: ignore[union-attr]
    k = it.ndim if isinstance(it, T.Array) else 0
    axis = _one_axis(ops["axis"], t.ndim, what)
    ndim = k if axis is None else t.ndim - 1 + k

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, _TAKE)
        idx = vals["indices"]
        assert vals["a"] is not None and idx is not None
        shapes = L.shapes_of(b, idx) if isinstance(idx.type, T.Array) else []
        out = _take_into(b, vals["a"], axis, _flat(b, idx, T.I64), shapes)
        return _unwrap(b, out)

    return resolved_operation(args, kwargs, _result(t.dtype, ndim), lower)


register_function(
    np.take,
    params="a: array, indices: int | intarray, axis?: axis | None",
    notes="mode= only 'raise'; no out=",
)(_take_rule)
register_method(T.Array, "take", params="indices: int | intarray, axis?: axis | None")(_take_rule)


def _nonzero_of(b: LowBuilder, cond: ir.Value) -> ir.Value:
    """The flat indices of cond's true items (in C order), an int64 C array."""
    t = cond.type
    assert isinstance(t, T.Array)
    k = _kernel("flatnonzero_flat", [_vec(t.dtype)])
    return _call(k, b, [flat1(b, cond, t.dtype)])


_COMPRESS = ["condition", "a", "axis", "out"]


@register_function(
    np.compress, params="condition: array, a: array, axis?: axis | None", notes="no out="
)
def _compress(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """np.compress: the items (or slices along axis) where the 1-D condition is true."""
    what = "np.compress"
    ops = bind_operands(args, kwargs, _COMPRESS, what)
    cond = _array(ops["condition"], what, "condition")
    t = _array(ops["a"], what, "a")
    _none_or(ops["out"], (None,), what, "out")
    if cond.ndim != 1:
        raise TypingError(
            f"{what}: condition must be a 1-d array, not {cond.ndim}-d",
            hint="flatten it with .ravel()",
        )
    axis = _one_axis(ops["axis"], t.ndim, what)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, _COMPRESS)
        assert vals["condition"] is not None and vals["a"] is not None
        idx = _nonzero_of(b, vals["condition"])
        return _take_into(b, vals["a"], axis, idx, [L.shape_of(b, idx, 0)])

    return resolved_operation(
        args, kwargs, T.Array(t.dtype, 1 if axis is None else t.ndim, "C"), lower
    )


@register_function(np.extract, params="condition: array, arr: array")
def _extract(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """np.extract: arr's items (flat) where the flattened condition is true."""
    what = "np.extract"
    ops = bind_operands(args, kwargs, ["condition", "arr"], what)
    _array(ops["condition"], what, "condition")
    t = _array(ops["arr"], what, "arr")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, ["condition", "arr"])
        assert vals["condition"] is not None and vals["arr"] is not None
        idx = _nonzero_of(b, vals["condition"])
        return _take_into(b, vals["arr"], None, idx, [L.shape_of(b, idx, 0)])

    return resolved_operation(args, kwargs, T.Array(t.dtype, 1, "C"), lower)


# --- put, take_along_axis -------------------------------------------------------------------


@register_function(
    np.put, params="a: array, ind: int | intarray, v: number | array", notes="mode= only 'raise'"
)
def _put(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """np.put: a.flat[ind] = v, v's items repeated as needed; writes into `a`."""
    what = "np.put"
    names = ["a", "ind", "v", "mode"]
    ops = bind_operands(args, kwargs, names, what)
    t = _array(ops["a"], what, "a")
    _index_dtype(_array_or_number(ops["ind"], what, "ind"), what, "ind")
    v_dtype = _array_or_number(ops["v"], what, "v")
    _none_or(ops["mode"], ("raise",), what, "mode")
    if v_dtype.is_complex and not t.dtype.is_complex:
        raise TypingError(
            f"{what}: cannot put complex values into a {t.dtype} array",
            hint="take .real of the values first",
        )
    put = _kernel("put_flat", [_vec(t.dtype), _I64_VEC, _vec(t.dtype)])
    python = bool(ops["v"] and ops["v"].weak)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, names)
        a, ind, values = vals["a"], vals["ind"], vals["v"]
        assert a is not None and ind is not None and values is not None
        if not isinstance(values.type, T.Array):  # a Python int must fit, NaN cannot go in
            check_stored_number(b, values, t.dtype, python=python, one_value=False)
        r = rows(b, a, None, t.dtype)  # a itself when C-contiguous, else a copy
        flat = _shaped(b, r.rows, [r.length])
        _call(put, b, [flat, _flat(b, ind, T.I64), _flat(b, values, t.dtype)])
        if t.layout != "C":
            assign(b, a, _shaped(b, r.rows, L.shapes_of(b, a)), python=False)
        return ir.Const(None, type=T.NONE)

    return resolved_operation(args, kwargs, T.NONE, lower)


def _broadcast_pair(
    b: LowBuilder, x: ir.Value, y: ir.Value, skip: int
) -> tuple[list[ir.Value], list[ir.Value], list[ir.Value]]:
    """The broadcast shapes of x and y (same ndim) except along axis `skip`, and the strides
    of x and y broadcast to them (0 along a length-1 axis that grows); IndexError when they
    do not broadcast, as NumPy's fancy indexing reports it."""
    xs, ys = L.shapes_of(b, x), L.shapes_of(b, y)
    xst, yst = L.strides_of(b, x), L.strides_of(b, y)
    shapes, x_strides, y_strides = [], [], []
    for k, (sx, sy) in enumerate(zip(xs, ys)):
        if k == skip:
            shapes.append(sy)
            x_strides.append(xst[k])
            y_strides.append(yst[k])
            continue
        x_one, y_one = b.cmp("eq", sx, i64(1)), b.cmp("eq", sy, i64(1))
        ok = b.or_(b.cmp("eq", sx, sy), b.or_(x_one, y_one))
        b.raise_if(
            b.not_(ok),
            IndexError,
            "shape mismatch: indexing arrays could not be broadcast together",
        )
        shapes.append(b.select(x_one, sy, sx))
        x_strides.append(b.select(x_one, i64(0), xst[k]))
        y_strides.append(b.select(y_one, i64(0), yst[k]))
    return shapes, x_strides, y_strides


@register_function(np.take_along_axis, params="arr: array, indices: intarray, axis?: axis | None")
def _take_along_axis(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """np.take_along_axis: arr[..., indices, ...] along axis, other axes broadcast."""
    what = "np.take_along_axis"
    names = ["arr", "indices", "axis"]
    ops = bind_operands(args, kwargs, names, what)
    t = _array(ops["arr"], what, "arr")
    it = _array(ops["indices"], what, "indices")
    axis_op = ops["axis"]
    flat = axis_op is not None and is_none(axis_op)
    ndim = 1 if flat else t.ndim
    if it.ndim != ndim:
        raise TypingError(
            f"{what}: indices must have {ndim} dimensions "
            f"({'the flattened array' if flat else 'as many as arr'}), not {it.ndim}"
        )
    axis = 0 if flat else _one_axis(axis_op or Operand(T.I64, -1), t.ndim, what)
    assert axis is not None
    if not it.dtype.is_int:
        return resolved_operation(
            args, kwargs, T.Array(t.dtype, ndim, "C"), _not_integers(t.dtype, ndim)
        )
    take = _kernel(
        "take_rows",
        [T.Array(t.dtype, 2, "C"), T.Array(T.I64, 2, "C"), T.Array(t.dtype, 2, "C")] + [T.I64],
    )

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, names)
        arr, idx = vals["arr"], vals["indices"]
        assert arr is not None and idx is not None
        if flat:
            arr = _shaped(b, flat1(b, arr, t.dtype), [L.size_of(b, L.shapes_of(b, arr))])
        shapes, a_strides, i_strides = _broadcast_pair(b, arr, idx, axis)
        a_shapes = list(shapes)
        a_shapes[axis] = L.shape_of(b, arr, axis)
        arr_t, idx_t = T.Array(t.dtype, ndim, "A"), T.Array(it.dtype, ndim, "A")
        a_view = L.make_view(b, arr, arr_t, L.data_of(b, arr), a_shapes, a_strides)
        i_view = L.make_view(b, idx, idx_t, L.data_of(b, idx), shapes, i_strides)
        ra, ri = rows(b, a_view, [axis], t.dtype), rows(b, i_view, [axis], T.I64)
        out = L.allocate(b, t.dtype, [ri.count, ri.length], "C")
        _call(take, b, [ra.rows, ri.rows, out, i64(axis)])
        return unrows_lanes(b, out, ri, ndim, axis)

    return resolved_operation(
        args, kwargs, T.Array(t.dtype, ndim, "C" if axis == ndim - 1 else "A"), lower
    )


def _not_integers(dtype: T.Scalar, ndim: int) -> Lower:
    """NumPy's IndexError for indices of another kind than integers, when the call runs."""

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        b.raise_if(ir.Const(True, type=T.BOOL), IndexError, "`indices` must be an integer array")
        return L.allocate(b, dtype, [i64(0)] * ndim, "C")

    return lower


# --- select ---------------------------------------------------------------------------------


def _weak_or_dtype(op: Operand) -> object:
    """For np.result_type: a Python number as a weak value, as NumPy 2 treats it."""
    t = op.type
    if isinstance(t, T.Array):
        return t.dtype.dtype
    assert isinstance(t, T.Scalar)
    if op.weak and t in (T.I64, T.F64, T.C128):
        return {T.I64: 0, T.F64: 0.0, T.C128: 0j}[t]
    return t.dtype


def _select_items(op: Operand | None, what: str, name: str) -> tuple[T.Array, ...] | T.Array:
    """The types of the arrays of a tuple, or the item type of a list of arrays."""
    t = None if op is None else op.type
    if isinstance(t, T.Tuple) and all(isinstance(x, T.Array) for x in t.items):
        return t.items  # type: ignore[return-value]
    if isinstance(t, T.List) and isinstance(t.item, T.Array):
        return t.item
    raise TypingError(
        f"{what}: {name} must be a list or a tuple of arrays, not {t}",
        hint="write np.select([x < 0, x > 0], [-x, x]) with arrays (not numbers) as choices",
    )


@register_function(
    np.select,
    params="condlist: tuple | list, choicelist: tuple | list, default?: number",
    notes="choices are arrays and default a number; the arrays of a list must have one shape "
    "(a tuple's broadcast)",
)
def _select(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """np.select: at each position, the choice of the first true condition, else default."""
    what = "np.select"
    names = ["condlist", "choicelist", "default"]
    ops = bind_operands(args, kwargs, names, what)
    conds = _select_items(ops["condlist"], what, "condlist")
    choices = _select_items(ops["choicelist"], what, "choicelist")
    default = ops["default"] or Operand(T.I64, 0, weak=True)
    if not isinstance(default.type, T.Scalar):
        raise TypingError(f"{what}: default must be a number, not {default.type}")
    for c in conds if isinstance(conds, tuple) else (conds,):
        if not c.dtype.is_bool:
            raise TypingError(
                f"{what}: the conditions must be boolean arrays, not {c.dtype}",
                hint="compare to get booleans, e.g. x > 0",
            )
    choice_dtypes = [
        c.dtype.dtype for c in (choices if isinstance(choices, tuple) else (choices,))
    ]
    dtype = T.from_dtype(np.result_type(*choice_dtypes, _weak_or_dtype(default)))  # type: ignore[arg-type]
    if isinstance(conds, tuple) != isinstance(choices, tuple):
        raise TypingError(f"{what}: give condlist and choicelist both as tuples or both as lists")
    if isinstance(conds, tuple) and isinstance(choices, tuple):  # one loop, broadcasting
        if len(conds) != len(choices):
            raise TypingError(f"{what}: list of cases must be same length as list of conditions")
        if not conds:
            raise TypingError(f"{what}: select with an empty condition list is not possible")
        ndim = max(x.ndim for x in (*conds, *choices))
        n = len(conds)

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            vals = lowered_by_name(v, kw, args, names)
            d = vals["default"]
            fill = b.cast(d, dtype) if d is not None else ir.Const(0, type=dtype)
            items = [b.extract(vals["condlist"], k) for k in range(n)]  # type: ignore[arg-type]
            items += [b.extract(vals["choicelist"], k) for k in range(n)]  # type: ignore[arg-type]

            def chain(bb: LowBuilder, xs: list[ir.Value]) -> ir.Value:
                r = fill
                for k in range(n - 1, -1, -1):
                    r = bb.select(xs[k], bb.cast(xs[n + k], dtype), r)
                return r

            return elementwise(b, items, dtype, chain)

        return resolved_operation(args, kwargs, T.Array(dtype, ndim, "C"), lower)
    assert isinstance(conds, T.Array) and isinstance(choices, T.Array)  # typed lists: a kernel
    if conds.ndim != choices.ndim:
        raise TypingError(
            f"{what}: the conditions ({conds.ndim}-d) and choices ({choices.ndim}-d) of lists "
            "must have one shape"
        )
    k = _kernel("select_lists", [ops["condlist"].type, ops["choicelist"].type, dtype])  # type: ignore[union-attr]

    def lower_lists(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, names)
        d = vals["default"]
        fill = b.cast(d, dtype) if d is not None else ir.Const(0, type=dtype)
        return _call(k, b, [vals["condlist"], vals["choicelist"], fill])  # type: ignore[list-item]

    return resolved_operation(args, kwargs, k.ret, lower_lists)


# --- nan_to_num -----------------------------------------------------------------------------


def _real_of(dtype: T.Scalar) -> T.Scalar:
    return T.from_dtype(np.empty(0, dtype.dtype).real.dtype) if dtype.is_complex else dtype


def _as_floats(b: LowBuilder, flat: ir.Value, real: T.Scalar) -> ir.Value:
    """A flat C complex array viewed as the floats of its parts (real, imag, real, ...)."""
    t = flat.type
    assert isinstance(t, T.Array)
    if not t.dtype.is_complex:
        return flat
    n = b.binop("mul", L.shape_of(b, flat, 0), i64(2))
    size = i64(real.dtype.itemsize)
    return L.make_view(b, flat, _vec(real), L.data_of(b, flat), [n], [size])


_NAN_TO_NUM = ["x", "copy", "nan", "posinf", "neginf"]


@register_function(
    np.nan_to_num,
    params="x: number | array, copy?: bool, nan?: float, posinf?: float | None, "
    "neginf?: float | None",
)
def _nan_to_num(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """np.nan_to_num: NaN, +inf, -inf replaced by nan, posinf (the largest float of the
    dtype by default), neginf (the most negative); in place with copy=False."""
    what = "np.nan_to_num"
    ops = bind_operands(args, kwargs, _NAN_TO_NUM, what)
    x = ops["x"]
    dtype = _array_or_number(x, what, "x")
    assert x is not None
    copy = True if ops["copy"] is None else const_flag(ops["copy"], "copy")
    for name in ("nan", "posinf", "neginf"):
        op = ops[name]
        if op is not None and not is_none(op) and not isinstance(op.type, T.Scalar):
            raise TypingError(f"{what}: {name} must be a number, not {op.type}")
        if op is not None and isinstance(op.type, T.Scalar) and op.type.is_complex:
            raise TypingError(f"{what}: {name} must be a real number, not complex")
    t = x.type
    ndim = t.ndim if isinstance(t, T.Array) else 0
    inexact = dtype.is_float or dtype.is_complex
    real = _real_of(dtype)
    ret = _result(dtype, ndim)

    def replacements(b: LowBuilder, vals: dict[str, ir.Value | None]) -> list[ir.Value]:
        info = np.finfo(real.dtype)
        out: list[ir.Value] = []
        for name, default in (("nan", 0.0), ("posinf", info.max), ("neginf", info.min)):
            given = vals[name]
            if given is None or isinstance(given.type, T.NoneType):
                out.append(ir.Const(real.dtype.type(default), type=real))
            else:
                out.append(b.cast(given, real))
        return out

    if not isinstance(t, T.Array):
        one = _kernel("nan_to_num_real", [real] * 4)

        def lower_scalar(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            vals = lowered_by_name(v, kw, args, _NAN_TO_NUM)
            value = vals["x"]
            assert value is not None
            if not inexact:
                return value
            reps = replacements(b, vals)
            if not dtype.is_complex:
                return _call(one, b, [value, *reps])
            re = _call(one, b, [b.real(value), *reps])
            im = _call(one, b, [b.imag(value), *reps])
            return b.complex(re, im, dtype)

        return resolved_operation(args, kwargs, ret, lower_scalar)

    fix = _kernel("nan_to_num_flat", [_vec(real), _vec(real), real, real, real])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, _NAN_TO_NUM)
        a = vals["x"]
        assert a is not None
        shapes = L.shapes_of(b, a)
        in_place = not copy and t.layout == "C"
        r = rows(b, a, None, dtype, copy=copy and not inexact)
        if not inexact:
            return _unwrap(b, a if not copy else _shaped(b, r.rows, shapes))
        src = _shaped(b, r.rows, [r.length])
        out = src if not copy else L.allocate(b, dtype, [r.length], "C")
        reps = replacements(b, vals)
        _call(fix, b, [_as_floats(b, src, real), _as_floats(b, out, real), *reps])
        if copy:
            return _unwrap(b, _shaped(b, out, shapes))
        if not in_place:
            assign(b, a, _shaped(b, out, shapes), python=False)
        return _unwrap(b, a)

    return resolved_operation(args, kwargs, ret if copy or ndim == 0 else t, lower)


# --- unravel_index, ravel_multi_index ---------------------------------------------------------


def _dims(op: Operand | None, what: str, name: str) -> int:
    """How many dimensions a shape operand (an int or a tuple of ints) has."""
    t = None if op is None else op.type
    if isinstance(t, T.Scalar) and (t.is_int or t.is_bool):
        return 1
    if isinstance(t, T.Tuple) and all(isinstance(x, T.Scalar) and x.is_int for x in t.items):
        return len(t.items)
    raise TypingError(
        f"{what}: {name} must be an int or a tuple of ints, not {t}",
        hint="write the shape as a tuple, e.g. (2, 3) or a.shape",
    )


def _dims_array(b: LowBuilder, shape: ir.Value, nd: int) -> tuple[ir.Value, list[ir.Value]]:
    """A shape operand as a 1-D int64 array and as its values."""
    if isinstance(shape.type, T.Tuple):
        items = [b.cast(b.extract(shape, k), T.I64) for k in range(nd)]
    else:
        items = [b.cast(shape, T.I64)]
    out = L.allocate(b, T.I64, [i64(nd)], "C")
    for k, s in enumerate(items):
        L.store(b, L.element_ptr(b, L.data_of(b, out), [i64(k)], [i64(8)]), s)
    return out, items


_UNRAVEL = ["indices", "shape", "order"]
_UNRAVEL_TOO_BIG = (
    "dimensions are too large; arrays and shapes with a total size greater than 'intp' are "
    "not supported."
)
_RAVEL_TOO_BIG = (
    "invalid dims: array size defined by dims is larger than the maximum possible size."
)


@register_function(
    np.unravel_index, params="indices: int | intarray, shape: shape", notes="order= only 'C'"
)
def _unravel_index(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """np.unravel_index: the C-order coordinates of flat indices, a tuple of int64 (arrays)."""
    what = "np.unravel_index"
    ops = bind_operands(args, kwargs, _UNRAVEL, what)
    idx_dtype = _array_or_number(ops["indices"], what, "indices")
    _index_dtype(idx_dtype, what, "indices")
    nd = _dims(ops["shape"], what, "shape")
    _none_or(ops["order"], ("C",), what, "order")
    it = ops["indices"].type  # type: ignore[union-attr]
    ndim = it.ndim if isinstance(it, T.Array) else 0
    k = _kernel("unravel_flat", [_I64_VEC, _I64_VEC, T.Array(T.I64, 2, "C")])
    item = _result(T.I64, ndim)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, _UNRAVEL)
        idx, shape = vals["indices"], vals["shape"]
        assert idx is not None and shape is not None
        dims, items = _dims_array(b, shape, nd)
        if not isinstance(shape.type, T.Tuple):  # NumPy refuses a negative int shape itself
            b.raise_if(b.cmp("lt", items[0], i64(0)), ValueError, _UNRAVEL_TOO_BIG)
        L.check_size(b, items, _UNRAVEL_TOO_BIG)
        flat = _flat(b, idx, T.I64)
        n = L.shape_of(b, flat, 0)
        out = L.allocate(b, T.I64, [i64(nd), n], "C")
        _call(k, b, [flat, dims, out])
        shapes = L.shapes_of(b, idx) if isinstance(idx.type, T.Array) else []
        parts = []
        for d in range(nd):
            data = b.ptr_add(L.data_of(b, out), b.binop("mul", n, i64(8 * d)))
            strides = L.contiguous_strides(b, shapes, 8, "C")
            part = L.make_view(b, out, T.Array(T.I64, ndim, "C"), data, shapes, strides)
            parts.append(_unwrap(b, part))
        return b.make_tuple(parts)

    return resolved_operation(args, kwargs, T.Tuple((item,) * nd), lower)


_RAVEL = ["multi_index", "dims", "mode", "order"]


@register_function(
    np.ravel_multi_index,
    params="multi_index: tuple, dims: shape",
    notes="mode= only 'raise', order= only 'C'",
)
def _ravel_multi_index(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """np.ravel_multi_index: the flat C-order index of coordinates (ints or arrays, which
    broadcast), int64."""
    what = "np.ravel_multi_index"
    ops = bind_operands(args, kwargs, _RAVEL, what)
    mt = None if ops["multi_index"] is None else ops["multi_index"].type
    if not isinstance(mt, T.Tuple):
        raise TypingError(
            f"{what}: multi_index must be a tuple of ints or integer arrays, not {mt}",
            hint="write np.ravel_multi_index((i, j), shape)",
        )
    for x in mt.items:
        _index_dtype(_array_or_number(Operand(x), what, "multi_index"), what, "the coordinates")
    nd = _dims(ops["dims"], what, "dims")
    if nd != len(mt.items):
        raise TypingError(f"{what}: parameter multi_index must be a sequence of length {nd}")
    _none_or(ops["mode"], ("raise",), what, "mode")
    _none_or(ops["order"], ("C",), what, "order")
    ndim = max([x.ndim for x in mt.items if isinstance(x, T.Array)] + [0])
    step = _kernel("ravel_step", [_I64_VEC, _I64_VEC, T.I64, T.BOOL])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, _RAVEL)
        mi, shape = vals["multi_index"], vals["dims"]
        assert mi is not None and shape is not None
        _, dims = _dims_array(b, shape, nd)
        L.check_size(b, dims[::-1], _RAVEL_TOO_BIG)
        coords = [b.extract(mi, k) for k in range(nd)]
        arrays = [c for c in coords if isinstance(c.type, T.Array)]
        if arrays:
            acc = elementwise(b, arrays, T.I64, lambda bb, xs: i64(0))
        else:
            acc = L.allocate(b, T.I64, [], "C")
        acc_flat = flat1(b, acc, T.I64)
        empty_dim: ir.Value = ir.Const(False, type=T.BOOL)
        for dim in dims:
            empty_dim = b.or_(empty_dim, b.cmp("eq", dim, i64(0)))
        count = L.shape_of(b, acc_flat, 0)
        b.raise_if(
            b.and_(empty_dim, b.cmp("ne", count, i64(0))),
            ValueError,
            "cannot unravel if shape has zero entries (is empty).",
        )
        for k, c in enumerate(coords):
            full = elementwise(b, [c, acc], T.I64, lambda bb, xs: bb.cast(xs[0], T.I64))
            first = ir.Const(k == 0, type=T.BOOL)
            _call(step, b, [acc_flat, flat1(b, full, T.I64), dims[k], first])
        return _unwrap(b, acc)

    return resolved_operation(args, kwargs, _result(T.I64, ndim), lower)


# --- isin and the sorted-set functions ---------------------------------------------------------


def _sortable(dtype: T.Scalar, what: str) -> T.Scalar:
    if dtype.is_complex:
        raise TypingError(
            f"{what} of complex numbers is not supported (it sorts)",
            hint="compare the real and imaginary parts separately",
        )
    return dtype


_ISIN = ["element", "test_elements", "assume_unique", "invert", "kind"]


@register_function(
    np.isin,
    params="element: real | array, test_elements: real | array, assume_unique?: bool, "
    "invert?: bool",
    notes="kind= only None or 'sort'",
)
def _isin(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """np.isin: whether each item of element is in test_elements (NaN is in nothing); a
    bool array of element's shape (0-d for a number)."""
    what = "np.isin"
    ops = bind_operands(args, kwargs, _ISIN, what)
    e = _array_or_number(ops["element"], what, "element")
    te = _array_or_number(ops["test_elements"], what, "test_elements")
    const_flag(ops["assume_unique"], "assume_unique")
    invert = const_flag(ops["invert"], "invert")
    _none_or(ops["kind"], (None, "sort"), what, "kind")
    dtype = _sortable(T.from_dtype(np.result_type(e.dtype, te.dtype)), what)
    et = ops["element"].type  # type: ignore[union-attr]
    ndim = et.ndim if isinstance(et, T.Array) else 0
    k = _kernel("isin_flat", [_vec(dtype), _vec(dtype), _vec(T.BOOL), T.BOOL])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, _ISIN)
        x, test = vals["element"], vals["test_elements"]
        assert x is not None and test is not None
        shapes = L.shapes_of(b, x) if isinstance(x.type, T.Array) else []
        out = L.allocate(b, T.BOOL, shapes, "C")
        flat = _shaped(b, out, [L.size_of(b, shapes)])
        _call(
            k, b, [_flat(b, x, dtype), _flat(b, test, dtype), flat, ir.Const(invert, type=T.BOOL)]
        )
        return out

    return resolved_operation(args, kwargs, T.Array(T.BOOL, ndim, "C"), lower)


def _set_rule(name: str, kernel: str, *, own_dtype: bool = False) -> Callable[..., Resolved]:
    what = f"np.{name}"
    names = ["ar1", "ar2", "assume_unique", "return_indices"][: 2 if name == "union1d" else 4]
    if name == "setdiff1d":
        names = names[:3]

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        ops = bind_operands(args, kwargs, names, what)
        d1 = _sortable(_array_or_number(ops["ar1"], what, "ar1"), what)
        d2 = _sortable(_array_or_number(ops["ar2"], what, "ar2"), what)
        assume_unique = const_flag(ops.get("assume_unique"), "assume_unique")
        if assume_unique and not own_dtype:
            raise TypingError(
                f"{what}: assume_unique=True is not supported", hint="leave assume_unique= out"
            )
        if const_flag(ops.get("return_indices"), "return_indices"):
            raise TypingError(
                f"{what}: return_indices=True is not supported",
                hint="find the indices with np.searchsorted on the result",
            )
        if own_dtype:
            t1, t2 = d1, d2
            k = _kernel(kernel, [_vec(t1), _vec(t2), T.BOOL])
        else:
            t1 = t2 = T.from_dtype(np.result_type(d1.dtype, d2.dtype))
            k = _kernel(kernel, [_vec(t1), _vec(t2)])

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            vals = lowered_by_name(v, kw, args, names)
            a1, a2 = vals["ar1"], vals["ar2"]
            assert a1 is not None and a2 is not None
            extra = [ir.Const(assume_unique, type=T.BOOL)] if own_dtype else []
            return _call(k, b, [_flat(b, a1, t1), _flat(b, a2, t2), *extra])

        return resolved_operation(args, kwargs, _vec(t1), lower)

    return rule


register_function(np.union1d, params="ar1: real | array, ar2: real | array")(
    _set_rule("union1d", "union_flat")
)
register_function(
    np.intersect1d,
    params="ar1: real | array, ar2: real | array",
    notes="no assume_unique=True, no return_indices=True",
)(_set_rule("intersect1d", "intersect_flat"))
register_function(
    np.setxor1d, params="ar1: real | array, ar2: real | array", notes="no assume_unique=True"
)(_set_rule("setxor1d", "setxor_flat"))
register_function(
    np.setdiff1d, params="ar1: real | array, ar2: real | array, assume_unique?: bool"
)(_set_rule("setdiff1d", "setdiff_flat", own_dtype=True))


# --- ediff1d ----------------------------------------------------------------------------------

_EDIFF = ["ary", "to_end", "to_begin"]


@register_function(
    np.ediff1d,
    params="ary: array, to_end?: number | array | None, to_begin?: number | array | None",
)
def _ediff1d(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """np.ediff1d: to_begin, the differences of the flattened array, to_end (its dtype)."""
    what = "np.ediff1d"
    ops = bind_operands(args, kwargs, _EDIFF, what)
    t = _array(ops["ary"], what, "ary")
    if t.dtype.is_bool:
        raise TypingError(
            f"{what}: NumPy cannot subtract booleans",
            hint="convert the array with .astype(np.int64) first",
        )
    for name in ("to_begin", "to_end"):
        op = ops[name]
        if op is None or is_none(op):
            continue
        d = _array_or_number(op, what, name)
        if not np.can_cast(d.dtype, t.dtype.dtype, "same_kind"):
            raise TypingError(
                f"{what}: dtype of `{name}` must be compatible with input `ary` under the "
                f"`same_kind` rule ({d} to {t.dtype})",
                hint=f"convert {name} to {t.dtype} first",
            )
    k = _kernel("ediff_flat", [_vec(t.dtype)] * 3)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = lowered_by_name(v, kw, args, _EDIFF)
        a = vals["ary"]
        assert a is not None
        ends = []
        for name in ("to_begin", "to_end"):
            x = vals[name]
            if x is None or isinstance(x.type, T.NoneType):
                ends.append(L.allocate(b, t.dtype, [i64(0)], "C"))
            else:
                ends.append(_flat(b, x, t.dtype))
        return _call(k, b, [flat1(b, a, t.dtype), *ends])

    return resolved_operation(args, kwargs, _vec(t.dtype), lower)
