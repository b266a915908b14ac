"""How an array value is laid out, and the low-IR pieces every array operation is built from.

An array value is `{block, data, shape[ndim], strides[ndim]}` (strides in bytes, as NumPy's);
`block` is the runtime memory block that owns the data. For C- and F-ordered arrays the strides
are computed from the shape (`strides_of`), so LLVM sees constants and unit-stride inner loops.

Layer: depends on `ir` only; `loops`, `arrays`, `ufuncs` and `reductions` build on it.
"""

from __future__ import annotations

from typing import Literal, cast

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64

Layout = Literal["C", "F", "A"]
# NumPy's message when an array's size in bytes does not fit in its index type.
TOO_BIG = (
    "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size."
)


def itemsize(t: T.Array) -> int:
    return t.dtype.dtype.itemsize


def shape_of(b: LowBuilder, a: ir.Value, k: int) -> ir.Value:
    return b.emit(ir.ArrayField(a, "shape", k, type=T.I64))


def shapes_of(b: LowBuilder, a: ir.Value) -> list[ir.Value]:
    return [shape_of(b, a, k) for k in range(a.type.ndim)]  # type: ignore[union-attr]


def data_of(b: LowBuilder, a: ir.Value) -> ir.Value:
    return b.emit(ir.ArrayField(a, "data", type=T.PTR))


def block_of(b: LowBuilder, a: ir.Value) -> ir.Value:
    return b.emit(ir.ArrayField(a, "block", type=T.PTR))


def strides_of(b: LowBuilder, a: ir.Value) -> list[ir.Value]:
    """Byte strides; derived from the shape for contiguous layouts (constants for LLVM)."""
    t = a.type
    assert isinstance(t, T.Array)
    if t.layout == "A":
        return raw_strides_of(b, a)
    shapes = shapes_of(b, a)
    return contiguous_strides(b, shapes, itemsize(t), t.layout)


def raw_strides_of(b: LowBuilder, a: ir.Value) -> list[ir.Value]:
    """The byte strides stored in the array value (what `a.strides` reads)."""
    return [b.emit(ir.ArrayField(a, "stride", k, type=T.I64)) for k in range(a.type.ndim)]  # type: ignore[union-attr]


def contiguous_strides(
    b: LowBuilder, shapes: list[ir.Value], size: int, layout: str
) -> list[ir.Value]:
    n = len(shapes)
    strides: list[ir.Value] = [i64(size)] * n
    order = range(n - 1, -1, -1) if layout == "C" else range(n)
    acc: ir.Value = i64(size)
    for k in order:
        strides[k] = acc
        acc = b.binop("mul", acc, shapes[k])
    return strides


def element_ptr(
    b: LowBuilder, data: ir.Value, indices: list[ir.Value], strides: list[ir.Value]
) -> ir.Value:
    offset: ir.Value = i64(0)
    for index, stride in zip(indices, strides):
        offset = b.binop("add", offset, b.binop("mul", index, stride))
    return b.ptr_add(data, offset)


def load(b: LowBuilder, ptr: ir.Value, dtype: T.Scalar) -> ir.Value:
    return b.emit(ir.Load(ptr, type=dtype))


def store(b: LowBuilder, ptr: ir.Value, value: ir.Value) -> None:
    b.emit(ir.Store(ptr, value, type=T.NONE))


def index_values(b: LowBuilder, index: ir.Value) -> list[ir.Value]:
    """The items of an index: a tuple's items; an integer or a slice is its own only item."""
    t = index.type
    if isinstance(t, T.Tuple):
        if isinstance(index, ir.MakeTuple):
            return list(index.items)
        if isinstance(index, ir.Const):
            return [ir.Const(x, type=it) for x, it in zip(cast(tuple, index.value), t.items)]
        return [b.extract(index, k) for k in range(len(t.items))]
    return [index]


def normalize_index(
    b: LowBuilder,
    array: ir.Value,
    index: ir.Value,
    axes: frozenset[int],
    check: bool,
    guards: dict[int, ir.Value] | None = None,
) -> ir.Value:
    """The low IR of `IndexCheck` (`check`) and `WrapIndex`: each integer item of `index` on
    `axes` counts from the end when negative, and (with `check`) raises IndexError unless it is
    then inside its axis. Returns the index with those items normalized. An axis with a guard
    (a loop-invariant bool that holds only when the index is already in range, see
    `optimize.guards`) skips both when the guard holds."""
    items = index_values(b, index)
    for axis in sorted(axes):
        guard = (guards or {}).get(axis)
        if guard is None:
            items[axis] = _normalize_item(b, array, items[axis], axis, check)
            continue
        raw = b.cast(items[axis], T.I64)
        before, slow, done = b.block, b.new_block("boundscheck"), b.new_block("inbounds")
        b.branch(guard, done, slow)
        b.position(slow)
        normalized = _normalize_item(b, array, raw, axis, check)
        slow_end = b.block
        b.jump(done)
        b.position(done)
        items[axis] = b.phi(T.I64, {before: raw, slow_end: normalized})
    if not isinstance(index.type, T.Tuple):
        return items[0]
    return _index_of(b, items)


def index_int(b: LowBuilder, item: ir.Value, error: type[Exception] = OverflowError) -> ir.Value:
    """An integer index as an i64. A uint64 of 2**63 or more fits no index: Python raises
    (arrays: OverflowError, "Python int too large to convert to C long"; lists and tuples:
    IndexError, "cannot fit 'numpy.uint64' into an index-sized integer") where a plain
    conversion would wrap it to a negative index counted from the end."""
    i = b.cast(item, T.I64)
    if item.type == T.U64 and not isinstance(item, ir.Const):
        message = (
            "Python int too large to convert to C long"
            if error is OverflowError
            else "cannot fit 'numpy.uint64' into an index-sized integer"
        )
        b.raise_if(b.cmp("lt", i, i64(0)), error, message)
    return i


def _normalize_item(
    b: LowBuilder, array: ir.Value, item: ir.Value, axis: int, check: bool
) -> ir.Value:
    n = shape_of(b, array, axis)
    i = index_int(b, item)
    nonnegative = isinstance(i, ir.Const) and cast(int, i.value) >= 0
    if not nonnegative:
        i = b.select(b.cmp("lt", i, i64(0)), b.binop("add", i, n), i)
    if check:
        out = b.cmp("ge", i, n)
        if not nonnegative:
            out = b.or_(b.cmp("lt", i, i64(0)), out)
        b.raise_if(out, IndexError, f"index out of bounds for axis {axis}")
    return i


def _index_of(b: LowBuilder, items: list[ir.Value]) -> ir.Value:
    # items proven in range (no longer on `axes`) are i64 too, as the op's type says
    return b.make_tuple([v if isinstance(v.type, T.Slice) else b.cast(v, T.I64) for v in items])


def make_view(
    b: LowBuilder,
    parent: ir.Value,
    t: T.Array,
    data: ir.Value,
    shapes: list[ir.Value],
    strides: list[ir.Value],
) -> ir.Value:
    """A new reference to `parent`'s block with other data pointer, shape and strides."""
    return b.emit(ir.MakeArray(block_of(b, parent), data, list(shapes), list(strides), type=t))


def allocate(
    b: LowBuilder, dtype: T.Scalar, shapes: list[ir.Value], layout: str = "C"
) -> ir.Value:
    """A new uninitialized array owning a fresh runtime block (MemoryError if none), its size
    checked first (`checked_nbytes`): no wrapped size is allocated."""
    shapes = [b.cast(s, T.I64) for s in shapes]
    nbytes = checked_nbytes(b, shapes, dtype.dtype.itemsize)
    block = b.emit(ir.Alloc(nbytes, type=T.PTR))
    b.raise_if(
        b.cmp("eq", block, ir.Const(None, type=T.PTR)), MemoryError, "cannot allocate array memory"
    )
    data = b.emit(ir.BlockData(block, type=T.PTR))
    strides = contiguous_strides(b, shapes, dtype.dtype.itemsize, layout)
    t = T.Array(dtype, len(shapes), cast(Layout, layout) if len(shapes) > 1 else "C")
    return b.emit(ir.MakeArray(block, data, shapes, strides, fresh=True, type=t))


def checked_nbytes(b: LowBuilder, shapes: list[ir.Value], itemsize: int) -> ir.Value:
    """The bytes an array of `shapes` spans, checked as NumPy checks every array it makes,
    views included, dimension by dimension: a negative one is a ValueError, and so is a
    product of the non-zero ones and the item size beyond int64 ("array is too big"), even
    when another dimension is 0 (then 0 bytes)."""
    checked: ir.Value = i64(itemsize)  # item size times the non-zero dimensions
    empty: ir.Value | None = None  # whether some dimension is 0
    for s in shapes:
        b.raise_if(b.cmp("lt", s, i64(0)), ValueError, "negative dimensions are not allowed")
        factor = s
        if len(shapes) > 1:  # (a lone dimension of 0 makes 0 bytes by itself)
            is_zero = b.cmp("eq", s, i64(0))
            factor = b.select(is_zero, i64(1), s)
            empty = is_zero if empty is None else b.or_(empty, is_zero)
        too_big = b.intrinsic("smul_overflows", [checked, factor], T.BOOL)
        b.raise_if(too_big, ValueError, TOO_BIG)
        checked = b.binop("mul", checked, factor)
    return checked if empty is None else b.select(empty, i64(0), checked)


def check_view_shape(b: LowBuilder, shapes: list[ir.Value], itemsize: int) -> None:
    """NumPy's checks of a view given a new shape by broadcasting (`np.broadcast_to`,
    `np.broadcast_arrays`): its size must fit int64 ("iterator is too large", multiplied in
    order), and so must its bytes (`checked_nbytes`). Strides of 0 make any shape cheap, and
    a wrapped size let later copies and reshapes allocate too little and write past it."""
    check_size(b, shapes, "iterator is too large")
    checked_nbytes(b, shapes, itemsize)


def check_size(b: LowBuilder, dims: list[ir.Value], message: str) -> None:
    """NumPy's ValueError(`message`) when the product of dims (in this order) overflows int64
    (negative dims are multiplied in as they are, as NumPy does)."""
    size: ir.Value = i64(1)
    for d in dims:
        b.raise_if(b.intrinsic("smul_overflows", [size, d], T.BOOL), ValueError, message)
        size = b.binop("mul", size, d)


def size_of(b: LowBuilder, shapes: list[ir.Value]) -> ir.Value:
    total: ir.Value = i64(1)
    for s in shapes:
        total = b.binop("mul", total, s)
    return total


def byte_span(b: LowBuilder, a: ir.Value) -> tuple[ir.Value, ir.Value]:
    """[low, high) byte addresses an array can touch (as integers)."""
    t = a.type
    assert isinstance(t, T.Array)
    base: ir.Value = b.emit(ir.PtrToInt(data_of(b, a), type=T.I64))
    low, high = base, b.binop("add", base, i64(itemsize(t)))
    for s, st in zip(shapes_of(b, a), strides_of(b, a)):
        extent = b.binop("mul", b.binop("sub", s, i64(1)), st)
        negative = b.cmp("lt", extent, i64(0))
        low = b.select(negative, b.binop("add", low, extent), low)
        high = b.select(negative, high, b.binop("add", high, extent))
    return low, high
