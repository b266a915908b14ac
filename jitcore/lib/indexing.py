"""NumPy's indexing beyond integers and slices: `None` (`np.newaxis`), `...`, boolean masks and
integer index arrays, read (`a[m]`) and written (`a[m] = x`).

An index is planned while typing (`plan`): `...` expands to full slices, and each item says
which axes of the array it consumes and which of the result it makes. Lowering first applies
the basic items (integers, slices, `None`) to the array's shape and strides, as a view would,
leaving full slices where the advanced items (one mask, or index arrays) sit; they then select
along their axes:

- an integer array `i` of any shape on one axis: result axes `i.shape` in its place (NumPy's
  rule for a single advanced index); negative indices count from the end, and every index is
  checked before anything is read or written (IndexError, as NumPy); several integer arrays
  (`a[i, j]`) broadcast together and select one element per broadcast position, their axes
  where the arrays are when they are adjacent, else first (NumPy's rule);
- a boolean mask `m` on `m.ndim` axes, whose shape must equal theirs (IndexError otherwise):
  one result axis of `m.sum()` elements, in C order of the mask.

Reads copy into a new C-ordered array, as NumPy copies; writes store in the same order
(a repeated index keeps the last value, as in NumPy), a value array broadcast to the
selection and copied first when it overlaps the target. Without an advanced item the result
is a view (`a[None, ..., ::-1]`), or a 0-d view when `...` meets only integers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, cast

from jitcore.errors import SourceLoc, TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import Loop, LowBuilder, i64
from jitcore.ir.markers import flat_get, flat_set
from jitcore.lib import arrays as A
from jitcore.lib.layout import (
    data_of,
    index_int,
    index_values,
    load,
    make_view,
    shapes_of,
    size_of,
    store,
    strides_of,
)
from jitcore.lib.registry import Operand, Resolved, register_function
from jitcore.lib.scalar import truth

ELLIPSIS = T.Opaque(Ellipsis)
Kind = Literal["int", "slice", "full", "none", "ints", "mask"]


def is_advanced_index(t: T.Type) -> bool:
    """Whether an index type needs this module (`None`, `...` or an array among its items)."""
    items = t.items if isinstance(t, T.Tuple) else (t,)
    return any(isinstance(i, T.NoneType | T.Array) or i == ELLIPSIS for i in items)


@dataclass(frozen=True, slots=True)
class Item:
    """One item of an expanded index: its kind, the operand item it comes from (None for the
    full slices `...` and the missing trailing items stand for) and how many array axes it
    consumes."""

    kind: Kind
    source: int | None
    axes: int


@dataclass(frozen=True, slots=True)
class Plan:
    items: tuple[Item, ...]
    out: T.Type  # the element type (every axis taken by an integer) or the result array

    @property
    def advanced(self) -> Item | None:
        """The one advanced item (None without, or with several: see `several`)."""
        found = [i for i in self.items if i.kind in ("ints", "mask")]
        return found[0] if len(found) == 1 else None

    @property
    def several(self) -> list[Item]:
        """Two or more integer index arrays (broadcast together), else []."""
        found = [i for i in self.items if i.kind == "ints"]
        return found if len(found) > 1 else []

    @property
    def adjacent(self) -> bool:
        """Whether the advanced items are next to each other (NumPy then puts the broadcast
        axes where they are; otherwise first). NumPy counts an integer among index arrays as
        one too: `b[0, :, idx]` puts idx's axes first."""
        at = [k for k, i in enumerate(self.items) if i.kind in ("ints", "mask", "int")]
        return at == list(range(at[0], at[0] + len(at)))

    @property
    def advanced_first(self) -> bool:
        """The one index array's (or mask's) axes come first in the result: integers and it
        are not next to each other."""
        return self.advanced is not None and not self.adjacent


def plan(array: T.Array, index: T.Type, loc: SourceLoc) -> Plan:
    """Expand `index` for `array` and type the result, as NumPy does (errors it reports at
    run time for any array of this type are TypingErrors here)."""
    given = list(index.items) if isinstance(index, T.Tuple) else [index]
    items: list[Item] = []
    ellipsis_at: int | None = None
    for k, t in enumerate(given):
        items.append(_item(t, k, loc))
        if t == ELLIPSIS:
            if ellipsis_at is not None:
                raise TypingError("an index can only have a single ellipsis ('...')", loc=loc)
            ellipsis_at = len(items) - 1
    used = sum(i.axes for i in items)
    if used > array.ndim:
        raise TypingError(
            f"too many indices for array: array is {array.ndim}-dimensional, "
            f"but {used} were indexed",
            loc=loc,
        )
    fill = [Item("full", None, 1)] * (array.ndim - used)
    if ellipsis_at is None:
        items += fill
    else:
        items[ellipsis_at : ellipsis_at + 1] = fill
    advanced = [i for i in items if i.kind in ("ints", "mask")]
    if len(advanced) > 1 and any(i.kind == "mask" for i in advanced):
        raise TypingError(
            "a boolean mask together with other index arrays is not supported",
            loc=loc,
            hint="index with one mask at a time: a[m][:, j]",
        )
    ndim = 0
    for item in items:
        if item.kind in ("slice", "full", "none"):
            ndim += 1
        elif item.kind == "mask":
            ndim += 1
    ints = [cast(T.Array, given[cast(int, i.source)]).ndim for i in advanced if i.kind == "ints"]
    ndim += max(ints, default=0)
    if ndim == 0 and ellipsis_at is None:
        return Plan(tuple(items), array.dtype)
    return Plan(tuple(items), T.Array(array.dtype, ndim, "C" if advanced else "A"))


def _item(t: T.Type, k: int, loc: SourceLoc) -> Item:
    if isinstance(t, T.Slice):
        return Item("full" if t.is_full else "slice", k, 1)
    if isinstance(t, T.Scalar) and t.kind in "iu":
        return Item("int", k, 1)
    if isinstance(t, T.Array) and t.dtype.kind in "iu" and t.ndim == 0:
        return Item("int", k, 1)  # NumPy takes a 0-d integer array for the integer it holds
    if isinstance(t, T.NoneType):
        return Item("none", k, 0)
    if t == ELLIPSIS:
        return Item("full", None, 0)  # a placeholder, replaced by the expansion
    if isinstance(t, T.Array) and t.dtype.is_bool:
        if t.ndim == 0:
            raise TypingError("a 0-d boolean index is not supported", loc=loc)
        return Item("mask", k, t.ndim)
    if isinstance(t, T.Array) and t.dtype.kind in "iu":
        return Item("ints", k, 1)
    raise TypingError(
        f"arrays are indexed by integers, slices, None, ..., boolean masks and integer "
        f"arrays, not {t}",
        loc=loc,
        hint="arrays used as indices must be of integer (or boolean) type",
    )


# --- the basic part -------------------------------------------------------------------------


@dataclass
class Selection:
    """The array after the basic items: data pointer, shape and strides, with the advanced
    item's axes still whole at position `at` (its axes are `shapes[at:at + width]`)."""

    data: ir.Value
    shapes: list[ir.Value]
    strides: list[ir.Value]
    at: int = 0
    width: int = 0
    adv_axes: list[int] = field(default_factory=list)  # each index array's axis


def _basic(b: LowBuilder, a: ir.Value, p: Plan, values: list[ir.Value]) -> Selection:
    shapes, strides = shapes_of(b, a), strides_of(b, a)
    offset: ir.Value = i64(0)
    sel = Selection(data_of(b, a), [], [])
    axis = 0
    for item in p.items:
        value = values[item.source] if item.source is not None else None
        if item.kind == "none":
            sel.shapes.append(i64(1))
            sel.strides.append(i64(0))
        elif item.kind == "int":
            value = cast(ir.Value, value)
            if isinstance(value.type, T.Array):  # a 0-d integer array: its integer
                value = load(b, data_of(b, value), value.type.dtype)
            i = wrap_checked(b, value, shapes[axis], axis)
            offset = b.binop("add", offset, b.binop("mul", i, strides[axis]))
        elif item.kind == "slice":
            start, length, step = A.resolve_slice(b, cast(ir.Value, value), shapes[axis])
            offset = b.binop("add", offset, b.binop("mul", start, strides[axis]))
            sel.shapes.append(length)
            sel.strides.append(b.binop("mul", strides[axis], step))
        else:
            if item.kind in ("ints", "mask"):
                sel.at, sel.width = len(sel.shapes), item.axes
                sel.adv_axes.append(len(sel.shapes))
            sel.shapes += shapes[axis : axis + item.axes]
            sel.strides += strides[axis : axis + item.axes]
        axis += item.axes
    sel.data = b.ptr_add(sel.data, offset)
    if p.advanced_first:  # the array's axes move to the front of the selection
        span = slice(sel.at, sel.at + sel.width)
        sel.shapes = sel.shapes[span] + sel.shapes[: sel.at] + sel.shapes[span.stop :]
        sel.strides = sel.strides[span] + sel.strides[: sel.at] + sel.strides[span.stop :]
        sel.at, sel.adv_axes = 0, [0]
    return sel


def wrap_checked(b: LowBuilder, i: ir.Value, n: ir.Value, axis: int) -> ir.Value:
    """Integer index `i` on an axis of length `n`: from the end when negative, IndexError
    unless then inside the axis."""
    i = index_int(b, i)
    i = b.select(b.cmp("lt", i, i64(0)), b.binop("add", i, n), i)
    outside = b.or_(b.cmp("lt", i, i64(0)), b.cmp("ge", i, n))
    b.raise_if(outside, IndexError, f"index out of bounds for axis {axis}")
    return i


# --- loops over a selection ----------------------------------------------------------------

# Called once per selected element: (builder, address in the source, the result's index).
Visit = Callable[[LowBuilder, ir.Value, list[ir.Value]], None]


def _nest(b: LowBuilder, shapes: list[ir.Value]) -> tuple[list[Loop], list[ir.Value]]:
    loops = [Loop(b, i64(0), n) for n in shapes]
    return loops, [loop.index for loop in loops]


def _finish(loops: list[Loop]) -> None:
    for loop in reversed(loops):
        loop.finish()


def _address(b: LowBuilder, base: ir.Value, idx: list[ir.Value], st: list[ir.Value]) -> ir.Value:
    offset: ir.Value = i64(0)
    for i, s in zip(idx, st):
        offset = b.binop("add", offset, b.binop("mul", i, s))
    return b.ptr_add(base, offset)


def _visit(
    b: LowBuilder, sel: Selection, adv: ir.Value, kind: Kind, visit: Visit, check: bool = False
) -> None:
    """Call `visit` for each selected element, in the result's C order; `check`: check the
    integer indices here (the caller did not)."""
    at, width = sel.at, sel.width
    outer, idx_outer = _nest(b, sel.shapes[:at])
    base = _address(b, sel.data, idx_outer, sel.strides[:at])
    inner_shapes, inner_strides = sel.shapes[at + width :], sel.strides[at + width :]

    def rest(b: LowBuilder, ptr: ir.Value, middle: list[ir.Value]) -> None:
        inner, idx_inner = _nest(b, inner_shapes)
        visit(b, _address(b, ptr, idx_inner, inner_strides), idx_outer + middle + idx_inner)
        _finish(inner)

    if kind == "ints":
        n, stride = sel.shapes[at], sel.strides[at]
        loops, idx = _nest(b, shapes_of(b, adv))
        i = load(b, _address(b, data_of(b, adv), idx, strides_of(b, adv)), _dtype(adv))
        if check:
            i = _checked_index(b, i, n, at)
        else:  # checked before
            i = b.cast(i, T.I64)
            i = b.select(b.cmp("lt", i, i64(0)), b.binop("add", i, n), i)
        rest(b, b.ptr_add(base, b.binop("mul", i, stride)), idx)
        _finish(loops)
    else:
        _mask_loops(
            b, adv, lambda b, idx, j: rest(b, _address(b, base, idx, sel.strides[at:]), [j])
        )
    _finish(outer)


def _mask_loops(
    b: LowBuilder,
    mask: ir.Value,
    on_true: Callable[[LowBuilder, list[ir.Value], ir.Value], None] | None,
) -> ir.Value:
    """Loop over `mask` in C order, calling `on_true(b, index, j)` where it is true (j counts
    the true elements before this one); returns the number of true elements."""
    shapes = shapes_of(b, mask)
    loops: list[Loop] = []
    j: ir.Value = i64(0)
    for n in shapes:
        loop = Loop(b, i64(0), n, carried=[j])
        loops.append(loop)
        j = loop.values[0]
    idx: list[ir.Value] = [loop.index for loop in loops]
    hit = truth(b, load(b, _address(b, data_of(b, mask), idx, strides_of(b, mask)), _dtype(mask)))
    if on_true is not None:
        then, join = b.new_block("selected"), b.new_block("next")
        b.branch(hit, then, join)
        b.position(then)
        on_true(b, idx, j)
        b.jump(join)
        b.position(join)
    j = b.binop("add", j, b.cast(hit, T.I64))
    for loop in reversed(loops):
        loop.finish([j])
        j = loop.values[0]
    return j


def _dtype(a: ir.Value) -> T.Scalar:
    return cast(T.Array, a.type).dtype


def _checked_index(b: LowBuilder, i: ir.Value, n: ir.Value, axis: int) -> ir.Value:
    t = cast(T.Scalar, i.type)
    if t.kind == "u" and t.bits == 64:
        b.raise_if(
            b.cmp("gt", i, ir.Const(2**63 - 1, type=t)),
            IndexError,
            f"index out of bounds for axis {axis}",
        )
    return wrap_checked(b, i, n, axis)


def _check_advanced(
    b: LowBuilder, sel: Selection, adv: ir.Value, kind: Kind, checked_later: bool = False
) -> list[ir.Value]:
    """Check the advanced item against its axes (every index in range, or the mask's shape
    equal to theirs; `checked_later`: the indices are checked while visiting) and return
    the result's shape."""
    at, width = sel.at, sel.width
    if kind == "ints":
        if not checked_later:
            loops, idx = _nest(b, shapes_of(b, adv))
            i = load(b, _address(b, data_of(b, adv), idx, strides_of(b, adv)), _dtype(adv))
            _checked_index(b, i, sel.shapes[at], at)
            _finish(loops)
        middle = shapes_of(b, adv)
    else:
        mask_shapes = shapes_of(b, adv)
        mismatch: ir.Value = ir.Const(False, type=T.BOOL)
        for k, m in enumerate(mask_shapes):
            mismatch = b.or_(mismatch, b.cmp("ne", m, sel.shapes[at + k]))
        empty = b.cmp("eq", size_of(b, mask_shapes), i64(0))  # NumPy lets an empty mask pass
        b.raise_if(
            b.and_(mismatch, b.not_(empty)),
            IndexError,
            "boolean index did not match indexed array along an axis",
        )
        middle = [_mask_loops(b, adv, None)]
    return sel.shapes[:at] + middle + sel.shapes[at + width :]


# --- rules ------------------------------------------------------------------------------------


def resolve_getitem(obj: Operand, index: Operand, loc: SourceLoc) -> Resolved:
    t = obj.type
    assert isinstance(t, T.Array)
    p = plan(t, index.type, loc)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        return _getitem(b, v[0], index_values(b, v[1]), p)

    return Resolved((None, None), p.out, lower, may_raise=True)


def _getitem(b: LowBuilder, a: ir.Value, values: list[ir.Value], p: Plan) -> ir.Value:
    sel = _basic(b, a, p, values)
    adv = p.advanced
    if p.several:
        out_t = cast(T.Array, p.out)
        multi = _Several(b, sel, [values[cast(int, i.source)] for i in p.several], p.adjacent)
        out = A.allocate(b, out_t.dtype, multi.shape, "C")
        out_data, out_strides = data_of(b, out), strides_of(b, out)

        def copy_one(b: LowBuilder, src: ir.Value, idx: list[ir.Value]) -> None:
            store(b, _address(b, out_data, idx, out_strides), load(b, src, out_t.dtype))

        multi.visit(copy_one)
        return out
    if adv is None:
        if isinstance(p.out, T.Scalar):
            return load(b, sel.data, p.out)
        return make_view(b, a, cast(T.Array, p.out), sel.data, sel.shapes, sel.strides)
    array = values[cast(int, adv.source)]
    out_t = cast(T.Array, p.out)
    # A read with no axes before the index array visits every index once: it checks them
    # as it goes (one pass; an error frees the result). Otherwise all are checked first, as
    # NumPy does, so that an empty outer axis still raises for an index out of bounds.
    one_pass = adv.kind == "ints" and sel.at == 0
    shape = _check_advanced(b, sel, array, adv.kind, checked_later=one_pass)
    out = A.allocate(b, out_t.dtype, shape, "C")
    out_data, out_strides = data_of(b, out), strides_of(b, out)

    def copy(b: LowBuilder, src: ir.Value, idx: list[ir.Value]) -> None:
        store(b, _address(b, out_data, idx, out_strides), load(b, src, out_t.dtype))

    _visit(b, sel, array, adv.kind, copy, check=one_pass)
    return out


def resolve_setitem(obj: Operand, index: Operand, value: Operand, loc: SourceLoc) -> Resolved:
    t = obj.type
    assert isinstance(t, T.Array)
    p = plan(t, index.type, loc)
    vt = value.type
    ndim = p.out.ndim if isinstance(p.out, T.Array) else 0
    extra = 0  # leading axes of the value NumPy drops (they must have length 1)
    if isinstance(vt, T.Array):
        if vt.ndim > ndim and not isinstance(p.out, T.Array):
            raise TypingError(f"cannot assign a {vt.ndim}-d array to a single element", loc=loc)
        extra = max(0, vt.ndim - ndim)
    elif not isinstance(vt, T.Scalar):
        raise TypingError(f"cannot assign {vt} to array elements", loc=loc)
    refused = A.complex_store_error(value, t.dtype)
    if refused is not None:
        return A.raising_store(TypeError, refused)
    it = index.type
    whole_mask = isinstance(it, T.Array) and it.dtype.is_bool and it.ndim == t.ndim
    if whole_mask and isinstance(vt, T.Array) and vt.ndim > 1:
        # NumPy's own rule for `a[mask] = v` with a mask of a's shape (no leading axes dropped)
        message = (
            "NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, "
            f"input has {vt.ndim} dimensions"
        )
        return A.raising_store(TypeError, message)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        source = A.drop_leading_ones(b, v[2], extra) if extra else v[2]
        _setitem(b, v[0], index_values(b, v[1]), source, p, value.weak)
        return ir.Const(None, type=T.NONE)

    store_as = None if isinstance(vt, T.Array) or A.checked_store(vt, t.dtype) else t.dtype
    return Resolved((None, None, store_as), T.NONE, lower, may_raise=True)


def _setitem(
    b: LowBuilder, a: ir.Value, values: list[ir.Value], value: ir.Value, p: Plan, python: bool
) -> None:
    """`a[values] = value`; `python`: a scalar `value` is a Python number (NumPy checks it
    otherwise than a NumPy scalar, see `A.check_stored_number`)."""
    dtype = cast(T.Array, a.type).dtype
    sel = _basic(b, a, p, values)
    adv = p.advanced
    scalar = not isinstance(value.type, T.Array)
    if p.several or adv is not None:
        # index arrays or a mask: NumPy converts the value before it indexes, as an array
        # (a NumPy integer scalar is cast, wrapping)
        if scalar:
            A.check_stored_number(b, value, dtype, python=python, one_value=False)
            value = b.cast(value, dtype)
        if p.several:
            multi = _Several(b, sel, [values[cast(int, i.source)] for i in p.several], p.adjacent)
            multi.visit(_putter(b, a, value, multi.shape))
            return
        assert adv is not None
        array = values[cast(int, adv.source)]
        shape = _check_advanced(b, sel, array, adv.kind)
        _visit(b, sel, array, adv.kind, _putter(b, a, value, shape))
        return
    if isinstance(p.out, T.Scalar):
        A.check_stored_number(b, value, dtype, python=python, one_value=True)
        store(b, sel.data, b.cast(value, dtype))
        return
    view = make_view(b, a, cast(T.Array, p.out), sel.data, sel.shapes, sel.strides)
    A.assign(b, view, value, python=python)


def _putter(b: LowBuilder, a: ir.Value, value: ir.Value, shape: list[ir.Value]) -> Visit:
    """What a write stores at each selected element: the scalar `value` (checked and of the
    array's dtype), or `value`'s element broadcast to the selection's `shape` (from a copy if
    it overlaps `a`)."""
    dtype = cast(T.Array, a.type).dtype
    if isinstance(value.type, T.Array):
        value = A.copy_if_overlapping(b, value, a)
        value_data = data_of(b, value)
        value_strides = _broadcast_strides(b, value, shape)
        value_dtype = _dtype(value)

        def put(b: LowBuilder, dest: ir.Value, idx: list[ir.Value]) -> None:
            src = _address(b, value_data, idx[len(idx) - len(value_strides) :], value_strides)
            store(b, dest, b.cast(load(b, src, value_dtype), dtype))

        return put

    def put_scalar(b: LowBuilder, dest: ir.Value, idx: list[ir.Value]) -> None:
        store(b, dest, value)

    return put_scalar


class _Several:
    """Several integer index arrays, each on its own axis of the selection, broadcast together
    (IndexError when they do not, as NumPy). Then every index is checked where the broadcast
    uses it (NumPy checks none when the broadcast is empty) before any is used. The result's axes
    are the broadcast axes where the arrays are if they are adjacent, else first, followed or
    surrounded by the selection's other axes (NumPy's rule)."""

    def __init__(
        self, b: LowBuilder, sel: Selection, arrays: list[ir.Value], adjacent: bool
    ) -> None:
        self.b, self.sel, self.arrays = b, sel, arrays
        rest = [k for k in range(len(sel.shapes)) if k not in sel.adv_axes]
        first = sel.adv_axes[0]
        self.before = [k for k in rest if k < first] if adjacent else []
        self.after = [k for k in rest if k not in self.before]
        self.common = self._broadcast()
        self.each = [_broadcast_strides(b, a, self.common) for a in arrays]  # they fit
        loops, idx = _nest(b, self.common)
        for arr, axis, strides in zip(arrays, sel.adv_axes, self.each):
            own = idx[len(idx) - len(strides) :]
            i = load(b, _address(b, data_of(b, arr), own, strides), _dtype(arr))
            _checked_index(b, i, sel.shapes[axis], axis)
        _finish(loops)
        self.shape = (
            [sel.shapes[k] for k in self.before]
            + self.common
            + [sel.shapes[k] for k in self.after]
        )

    def _broadcast(self) -> list[ir.Value]:
        b = self.b
        ndim = max(cast(T.Array, a.type).ndim for a in self.arrays)
        shape: list[ir.Value] = [i64(1)] * ndim
        for a in self.arrays:
            own = shapes_of(b, a)
            for k, n in enumerate(own, ndim - len(own)):
                cur = shape[k]
                ok = b.or_(
                    b.or_(b.cmp("eq", cur, n), b.cmp("eq", cur, i64(1))), b.cmp("eq", n, i64(1))
                )
                b.raise_if(
                    b.not_(ok),
                    IndexError,
                    "shape mismatch: indexing arrays could not be broadcast together",
                )
                shape[k] = b.select(b.cmp("eq", cur, i64(1)), n, cur)
        return shape

    def visit(self, visit: Visit) -> None:
        b, sel = self.b, self.sel
        each = self.each
        outer, idx_outer = _nest(b, [sel.shapes[k] for k in self.before])
        base = _address(b, sel.data, idx_outer, [sel.strides[k] for k in self.before])
        middle, idx_middle = _nest(b, self.common)
        offset: ir.Value = i64(0)
        for a, axis, strides in zip(self.arrays, sel.adv_axes, each):
            own = idx_middle[len(idx_middle) - len(strides) :]
            i = b.cast(load(b, _address(b, data_of(b, a), own, strides), _dtype(a)), T.I64)
            n = sel.shapes[axis]
            i = b.select(b.cmp("lt", i, i64(0)), b.binop("add", i, n), i)  # checked before
            offset = b.binop("add", offset, b.binop("mul", i, sel.strides[axis]))
        inner, idx_inner = _nest(b, [sel.shapes[k] for k in self.after])
        ptr = _address(b, b.ptr_add(base, offset), idx_inner, [sel.strides[k] for k in self.after])
        visit(b, ptr, idx_outer + idx_middle + idx_inner)
        _finish(inner)
        _finish(middle)
        _finish(outer)


def _broadcast_strides(b: LowBuilder, value: ir.Value, shape: list[ir.Value]) -> list[ir.Value]:
    """The strides that read `value` broadcast to `shape` (0 along its axes of length 1);
    ValueError, as NumPy, when it does not broadcast."""
    vshapes, vstrides = shapes_of(b, value), strides_of(b, value)
    target = shape[len(shape) - len(vshapes) :]
    out: list[ir.Value] = []
    for n, m, st in zip(target, vshapes, vstrides):
        ok = b.or_(b.cmp("eq", m, n), b.cmp("eq", m, i64(1)))
        b.raise_if(
            b.not_(ok),
            ValueError,
            "shape mismatch: value array could not be broadcast to indexing result",
        )
        out.append(b.select(b.cmp("eq", m, i64(1)), i64(0), st))
    return out


def element_count(b: LowBuilder, mask: ir.Value) -> ir.Value:
    """The number of true elements of a boolean array (for other modules' masks)."""
    return _mask_loops(b, mask, None)


# --- a.flat[i] ----------------------------------------------------------------------------------


def _flat_address(b: LowBuilder, a: ir.Value, i: ir.Value) -> ir.Value:
    """The address of element i (C order, from the end when negative) of `a`; IndexError
    outside, as NumPy's flat iterator."""
    shapes, strides = shapes_of(b, a), strides_of(b, a)
    size = size_of(b, shapes)
    i = b.cast(i, T.I64)
    i = b.select(b.cmp("lt", i, i64(0)), b.binop("add", i, size), i)
    outside = b.or_(b.cmp("lt", i, i64(0)), b.cmp("ge", i, size))
    b.raise_if(outside, IndexError, "index out of bounds for the flat iterator")
    offset: ir.Value = i64(0)
    rest = i
    for n, st in zip(reversed(shapes), reversed(strides)):
        safe = b.select(b.cmp("eq", n, i64(0)), i64(1), n)
        offset = b.binop("add", offset, b.binop("mul", b.binop("trem", rest, safe), st))
        rest = b.binop("tdiv", rest, safe)
    return b.ptr_add(data_of(b, a), offset)


def _flat_operands(args: list[Operand], what: str) -> T.Array:
    t = args[0].type
    if not isinstance(t, T.Array):
        raise TypingError(f"{what}: only arrays have .flat, not {t}")
    i = args[1].type
    if not (isinstance(i, T.Scalar) and i.kind in "iu"):
        raise TypingError(
            f"{what}: .flat is indexed by an integer here, not {i}",
            hint="index the array itself with slices or masks",
        )
    return t


@register_function(flat_get, params="a: array, i: int")
def _flat_get(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 2 or kwargs:
        return None
    t = _flat_operands(args, "a.flat[i]")
    return Resolved(
        (None, None),
        t.dtype,
        lambda b, v, kw: load(b, _flat_address(b, v[0], v[1]), t.dtype),
        may_raise=True,
    )


@register_function(flat_set, params="a: array, i: int, value: number")
def _flat_set(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 3 or kwargs:
        return None
    t = _flat_operands(args, "a.flat[i] = x")
    if not isinstance(args[2].type, T.Scalar):
        raise TypingError(f"a.flat[i] = x: x must be a number, not {args[2].type}")
    if A.complex_store_error(args[2], t.dtype) is not None:  # NumPy words it so for `.flat`
        return A.raising_store(ValueError, "Error setting single item of array.")

    python = args[2].weak

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        # NumPy's setitem of the dtype, as a[i] = x; any failure is its ValueError
        A.check_stored_number(b, v[2], t.dtype, python=python, one_value=True, error=A.FLAT_ERROR)
        store(b, _flat_address(b, v[0], v[1]), b.cast(v[2], t.dtype))
        return ir.Const(None, type=T.NONE)

    return Resolved((None, None, None), T.NONE, lower, may_raise=True)
