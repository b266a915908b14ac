"""NumPy arrays: indexing, views, attributes, allocation and assignment.

An array value is `{block, data, shape[ndim], strides[ndim]}` (strides in bytes, as NumPy's).
Indexing wraps negative indices and checks bounds (IndexError) in an explicit `checkindex`
op before it (`insert_index_checks`), which `bce` removes where a loop proves the index in
range and `boundscheck=False` turns into a `wrapindex`; basic slicing makes views that share
the parent's memory block. For C- and F-ordered arrays the strides are computed from the
shape, so LLVM sees unit-stride inner loops and vectorizes.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from jitcore.errors import SourceLoc, TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import Loop, LowBuilder, i64
from jitcore.ir.markers import MISSING
from jitcore.lib.layout import (
    Layout,
    allocate,
    byte_span,
    contiguous_strides,
    data_of,
    element_ptr,
    index_values,
    itemsize,
    load,
    make_view,
    raw_strides_of,
    shape_of,
    shapes_of,
    size_of,
    store,
    strides_of,
)
from jitcore.lib.loops import elementwise
from jitcore.lib.registry import (
    Operand,
    Resolved,
    constant,
    describe,
    register_function,
    register_method,
)
from jitcore.lib.scalar import truth

# --- slices -------------------------------------------------------------------------------


@register_function(slice, params="start: int | None, stop: int | None, step: int | None")
def _slice(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or len(args) != 3:
        return None
    items: list[T.Type] = []
    casts: list[T.Type | None] = []
    for a in args:
        if isinstance(a.type, T.NoneType):
            items.append(T.NONE)
        elif isinstance(a.type, T.Scalar) and a.type.kind in "iub":
            items.append(T.I64)
        else:
            raise TypingError(f"slice indices must be integers or None, not {a.type}")
        casts.append(None if a.type == T.U64 else items[-1])
    t = T.Slice(tuple(items))  # type: ignore[arg-type]

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        # a uint64 bound beyond int64 is a huge bound (Python clamps it), not a negative one
        parts = [_saturated(b, x) if a.type == T.U64 else x for a, x in zip(args, v, strict=True)]
        return b.emit(ir.MakeTuple(parts, type=t))

    return Resolved(tuple(casts), t, lower)


def _saturated(b: LowBuilder, x: ir.Value) -> ir.Value:
    """uint64 `x` as int64, the values beyond 2**63 - 1 as 2**63 - 1."""
    big = b.cmp("gt", x, ir.Const(2**63 - 1, type=T.U64))
    return b.select(big, i64(2**63 - 1), b.cast(x, T.I64))


def _slice_part(b: LowBuilder, s: ir.Value, k: int) -> ir.Value | None:
    t = s.type.items[k]  # type: ignore[union-attr]
    if isinstance(t, T.NoneType):
        return None
    if isinstance(s, ir.MakeTuple):
        return s.items[k]
    return b.extract(s, k)


def resolve_slice(b: LowBuilder, s: ir.Value, n: ir.Value) -> tuple[ir.Value, ir.Value, ir.Value]:
    """(start, length, step) of slice `s` on an axis of length `n`, as `slice.indices` computes."""
    start, stop, step = (_slice_part(b, s, k) for k in range(3))
    zero, one = i64(0), i64(1)
    if step is None:
        step = one
    elif not (isinstance(step, ir.Const) and step.value != 0):
        b.raise_if(b.cmp("eq", step, zero), ValueError, "slice step cannot be zero")
    if not isinstance(step, ir.Const):  # CPython clamps a step of -2**63 to -(2**63 - 1)
        lowest = i64(-(2**63))
        step = b.select(b.cmp("eq", step, lowest), i64(-(2**63) + 1), step)
    positive = b.cmp("gt", step, zero)
    lower = b.select(positive, zero, i64(-1))
    upper = b.select(positive, n, b.binop("sub", n, one))

    def clamp(v: ir.Value | None, default: ir.Value) -> ir.Value:
        if v is None:
            return default
        neg = b.binop("add", v, n)
        low = b.select(b.cmp("lt", neg, lower), lower, neg)
        high = b.select(b.cmp("gt", v, upper), upper, v)
        return b.select(b.cmp("lt", v, zero), low, high)

    start_v = clamp(start, b.select(positive, lower, upper))
    stop_v = clamp(stop, b.select(positive, upper, lower))
    up_len = b.binop(
        "add", _floordiv_pos(b, b.binop("sub", b.binop("sub", stop_v, start_v), one), step), one
    )
    down_len = b.binop(
        "add",
        _floordiv_pos(
            b,
            b.binop("sub", b.binop("sub", start_v, stop_v), one),
            b.emit(ir.UnaryOp("neg", step, type=T.I64)),
        ),
        one,
    )
    up = b.select(b.cmp("gt", stop_v, start_v), up_len, zero)
    down = b.select(b.cmp("gt", start_v, stop_v), down_len, zero)
    return start_v, b.select(positive, up, down), step


def _floordiv_pos(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    """x // y for x >= 0 and y > 0 (as used above; other lanes are discarded by selects)."""
    safe = b.select(b.cmp("gt", y, i64(0)), y, i64(1))
    return b.binop("tdiv", x, safe)


# --- indexing -----------------------------------------------------------------------------


def _index_items(index: Operand, loc: SourceLoc) -> list[T.Type]:
    t = index.type
    items = list(t.items) if isinstance(t, T.Tuple) else [t]
    for item in items:
        ok = isinstance(item, T.Slice) or (isinstance(item, T.Scalar) and item.kind in "iu")
        if not ok:
            raise TypingError(
                f"arrays are indexed by integers and slices here, not {item}",
                loc=loc,
                hint="index with integers, slices, None, ..., an integer array "
                "(np.array([...]), not a list) or a boolean mask",
            )
    return items


def _result_of_index(t: T.Array, items: list[T.Type], loc: SourceLoc) -> T.Type:
    if len(items) > t.ndim:
        raise TypingError(f"too many indices for a {t.ndim}-d array", loc=loc)
    kept = sum(1 for i in items if isinstance(i, T.Slice)) + (t.ndim - len(items))
    if kept == 0:
        return t.dtype
    return T.Array(t.dtype, kept, _view_layout(t, items))


def _view_layout(t: T.Array, items: list[T.Type]) -> Layout:
    full = [i for i in items if isinstance(i, T.Slice)]
    ints = [i for i in items if not isinstance(i, T.Slice)]
    if t.layout == "C" and all(s.is_full for s in full):  # type: ignore[union-attr]
        leading_ints = all(not isinstance(i, T.Slice) for i in items[: len(ints)])
        if leading_ints:
            return "C"
    if t.layout == "F" and not ints and all(s.is_full for s in full):  # type: ignore[union-attr]
        return "F"
    return "A"


def insert_index_checks(fn: ir.Function) -> None:
    """Put a `checkindex` before every array `getitem`/`setitem` whose index has integer items,
    and index with its result: Python's negative indices and IndexError become explicit typed
    IR, which `bce` and the `noboundscheck` pass can see and remove (`typeinfer` calls this)."""
    for block in fn.blocks:
        new_instrs: list[ir.Instr] = []
        for instr in block.instrs:
            if isinstance(instr, ir.GetItem | ir.SetItem) and isinstance(instr.obj.type, T.Array):
                t = instr.index.type
                items: list[T.Type] = (
                    list(t.items) if isinstance(t, T.Tuple) else [cast(T.Type, t)]
                )
                axes = frozenset(k for k, it in enumerate(items) if not isinstance(it, T.Slice))
                if axes and not _has_advanced_items(items):  # `indexing` checks its own
                    normalized = [T.I64 if k in axes else it for k, it in enumerate(items)]
                    out = T.Tuple(tuple(normalized)) if isinstance(t, T.Tuple) else T.I64
                    check = ir.IndexCheck(
                        instr.obj,
                        instr.index,
                        axes,
                        name=fn.fresh_name("t"),
                        type=out,
                        loc=instr.loc,
                    )
                    new_instrs.append(check)
                    instr.index = check
            new_instrs.append(instr)
        block.instrs = new_instrs


def _has_advanced_items(items: list[T.Type]) -> bool:
    return any(isinstance(i, T.NoneType | T.Array | T.Opaque) for i in items)


def resolve_getitem(obj: Operand, index: Operand, loc: SourceLoc) -> Resolved:
    t = obj.type
    assert isinstance(t, T.Array)
    items = _index_items(index, loc)
    out = _result_of_index(t, items, loc)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        return index_array(b, v[0], v[1], out)

    return Resolved((None, None), out, lower)


def index_array(b: LowBuilder, a: ir.Value, index: ir.Value, out: T.Type) -> ir.Value:
    """`a[index]`: an element load, or a view for slices and partial indices."""
    t = a.type
    assert isinstance(t, T.Array)
    values = index_values(b, index)
    shapes = shapes_of(b, a)
    strides = strides_of(b, a)
    offset: ir.Value = i64(0)
    new_shapes: list[ir.Value] = []
    new_strides: list[ir.Value] = []
    for axis in range(t.ndim):
        if axis >= len(values):
            new_shapes.append(shapes[axis])
            new_strides.append(strides[axis])
            continue
        v = values[axis]
        if isinstance(v.type, T.Slice):
            if v.type.is_full:
                new_shapes.append(shapes[axis])
                new_strides.append(strides[axis])
                continue
            start, length, step = resolve_slice(b, v, shapes[axis])
            offset = b.binop("add", offset, b.binop("mul", start, strides[axis]))
            new_shapes.append(length)
            new_strides.append(b.binop("mul", strides[axis], step))
        else:  # normalized by the `checkindex`/`wrapindex` before
            i = b.cast(v, T.I64)
            offset = b.binop("add", offset, b.binop("mul", i, strides[axis]))
    ptr = b.ptr_add(data_of(b, a), offset)
    if isinstance(out, T.Scalar):
        return load(b, ptr, out)
    assert isinstance(out, T.Array)
    if out.layout != "A":
        new_strides = contiguous_strides(b, new_shapes, itemsize(t), out.layout)
    return make_view(b, a, out, ptr, new_shapes, new_strides)


def resolve_setitem(obj: Operand, index: Operand, value: Operand, loc: SourceLoc) -> Resolved:
    t = obj.type
    assert isinstance(t, T.Array)
    items = _index_items(index, loc)
    target = _result_of_index(t, items, loc)
    refused = complex_store_error(value, t.dtype)
    if refused is not None:
        return raising_store(TypeError, refused)
    if isinstance(target, T.Scalar):
        if not isinstance(value.type, T.Scalar):
            raise TypingError(f"cannot store {value.type} into an element of {t}", loc=loc)

        def lower_store(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            element_store(b, v[0], v[1], v[2], value.weak)
            return ir.Const(None, type=T.NONE)

        store_as = None if checked_store(value.type, t.dtype) else t.dtype
        return Resolved((None, None, store_as), T.NONE, lower_store)
    _check_assignable(target, value, loc)  # type: ignore[arg-type]

    def lower_assign(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        view = index_array(b, v[0], v[1], target)
        assign(b, view, v[2], python=value.weak)
        return ir.Const(None, type=T.NONE)

    return Resolved((None, None, None), T.NONE, lower_assign)


# How a.flat[i] = x reports any value it cannot convert (NumPy wraps the conversion's error)
FLAT_ERROR = (ValueError, "Error setting single item of array.")


def check_python_int(
    b: LowBuilder, value: ir.Value, dtype: T.Scalar, error: tuple[type, str] | None = None
) -> None:
    """NumPy 2 refuses to store a Python int that does not fit an integer dtype; a float it
    converts to a Python int first (NaN: ValueError, infinity: OverflowError), which must
    then fit (a plain conversion would be undefined, in practice wrapping). `error` replaces
    the exception and message (`FLAT_ERROR`)."""
    if isinstance(value.type, T.Scalar) and value.type.is_float and dtype.is_int:
        _check_float_to_int(b, value, dtype, error)
        return
    if value.type != T.I64 or not dtype.is_int or dtype == T.I64:
        return
    info = np.iinfo(dtype.dtype)
    if isinstance(value, ir.Const):  # decided now: nothing, or an error whenever it runs
        if int(info.min) <= cast(int, value.value) <= int(info.max):
            return
        b.raise_if(
            ir.Const(True, type=T.BOOL),
            *(
                error
                or (OverflowError, f"Python integer {value.value} out of bounds for {dtype.dtype}")
            ),
        )
        return
    _check_int_range(b, value, dtype, error)


def _check_int_range(
    b: LowBuilder, value: ir.Value, dtype: T.Scalar, error: tuple[type, str] | None
) -> None:
    """OverflowError unless the int64 `value` lies in `dtype`'s range."""
    info = np.iinfo(dtype.dtype)
    low = ir.Const(max(int(info.min), -(2**63)), type=T.I64)
    high = ir.Const(min(int(info.max), 2**63 - 1), type=T.I64)
    b.raise_if(
        b.or_(b.cmp("lt", value, low), b.cmp("gt", value, high)),
        *(error or (OverflowError, f"Python integer out of bounds for {dtype.dtype}")),
    )


def check_stored_number(
    b: LowBuilder,
    value: ir.Value,
    dtype: T.Scalar,
    *,
    python: bool,
    one_value: bool,
    error: tuple[type, str] | None = None,
) -> None:
    """NumPy 2's checks of a number stored into an array of `dtype`, by where it came from
    (`python`: a Python number, else a NumPy scalar) and how it is stored:

    * a float into integers, or a Python int: `check_python_int` (it must fit);
    * a NumPy integer scalar of another type, stored as one value (`a[i] = s`, `a[:] = s`,
      `a[...] = s`, `a.fill(s)`, `a.flat[i] = s`: `one_value`): NumPy's setitem of the
      dtype takes `int(s)`, which must fit a signed dtype (OverflowError) and wraps into an
      unsigned one;
    * a NumPy integer scalar stored into a selection (a mask, index arrays, `np.put`,
      `np.fill_diagonal`, `np.copyto`, `np.insert`): cast as an array is, wrapping.
    """
    vt = value.type
    if not (isinstance(vt, T.Scalar) and dtype.is_int):
        return
    if vt.is_float or python:
        check_python_int(b, value, dtype, error)
        return
    if not (one_value and dtype.is_signed and vt.is_int):
        return
    info, have = np.iinfo(dtype.dtype), np.iinfo(vt.dtype)
    if int(info.min) <= int(have.min) and int(have.max) <= int(info.max):
        return
    if vt == T.U64:  # int(s) of 2**63 and more leaves int64 too
        b.raise_if(
            b.cmp("lt", b.cast(value, T.I64), i64(0)),
            *(error or (OverflowError, "Python int too large to convert to C long")),
        )
    if dtype != T.I64:
        _check_int_range(b, b.cast(value, T.I64), dtype, error)


def _check_float_to_int(
    b: LowBuilder, value: ir.Value, dtype: T.Scalar, error: tuple[type, str] | None = None
) -> None:
    t = cast(T.Scalar, value.type)
    b.raise_if(b.isnan(value), *(error or (ValueError, "cannot convert float NaN to integer")))
    b.raise_if(
        b.isinf(value), *(error or (OverflowError, "cannot convert float infinity to integer"))
    )
    whole = b.intrinsic("trunc", [value], t)
    info = np.iinfo(dtype.dtype)
    # int(x) must lie in [min, max]: compared as floats, the bounds rounded outwards (2**63 and
    # 2**64 are exact; a float32 compares in float64 to keep int32's bounds exact)
    wide = b.cast(whole, T.F64)
    too_low = b.cmp("lt", wide, ir.Const(float(int(info.min)), type=T.F64))
    too_high = b.cmp("ge", wide, ir.Const(float(int(info.max) + 1), type=T.F64))
    message = (
        "Python int too large to convert to C long"
        if dtype == T.I64
        else f"Python integer out of bounds for {dtype.dtype}"
    )
    b.raise_if(b.or_(too_low, too_high), *(error or (OverflowError, message)))


def element_store(
    b: LowBuilder, a: ir.Value, index: ir.Value, value: ir.Value, python: bool
) -> None:
    """`a[index] = value` of one element; `python`: the value is a Python number."""
    t = a.type
    assert isinstance(t, T.Array)
    check_stored_number(b, value, t.dtype, python=python, one_value=True)
    indices = [b.cast(v, T.I64) for v in index_values(b, index)]  # normalized before
    store(b, element_ptr(b, data_of(b, a), indices, strides_of(b, a)), b.cast(value, t.dtype))


def _check_assignable(target: T.Array, value: Operand, loc: SourceLoc) -> None:
    """Numbers and arrays (of any ndim: `assign` drops leading axes of length 1)."""
    vt = value.type
    if isinstance(vt, T.Scalar | T.Array):
        return
    raise TypingError(f"cannot assign {vt} to a {target.ndim}-d array slice", loc=loc)


def drop_leading_ones(b: LowBuilder, value: ir.Value, extra: int) -> ir.Value:
    """`value` without its first `extra` axes, which must have length 1: NumPy assigns a
    (1, n) array to an (n,) selection (ValueError for any other length there)."""
    vt = cast(T.Array, value.type)
    shapes, strides = shapes_of(b, value), strides_of(b, value)
    for n in shapes[:extra]:
        b.raise_if(
            b.cmp("ne", n, i64(1)),
            ValueError,
            "could not broadcast input array into the shape of the selection",
        )
    t = T.Array(vt.dtype, vt.ndim - extra, "A")
    return make_view(b, value, t, data_of(b, value), shapes[extra:], strides[extra:])


def complex_store_error(value: Operand, dtype: T.Scalar) -> str | None:
    """NumPy's TypeError for storing a Python complex into an int or float array (it converts
    the value with `int()` or `float()` first, which refuses a complex); None for any other
    store. A NumPy complex (an element of a complex array) is cast instead, dropping its
    imaginary part, as NumPy does (with a ComplexWarning)."""
    vt = value.type
    if not (value.weak and isinstance(vt, T.Scalar) and vt.is_complex):
        return None
    if dtype.is_float:
        return "float() argument must be a string or a real number, not 'complex'"
    if dtype.is_int:
        return (
            "int() argument must be a string, a bytes-like object or a real number, not 'complex'"
        )
    return None  # a bool array takes bool(value), a complex one the value itself


def raising_store(exc: type, message: str) -> Resolved:
    """A store that raises `exc(message)` whenever it runs (its value cannot be stored)."""

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        b.raise_if(ir.Const(True, type=T.BOOL), exc, message)
        return ir.Const(None, type=T.NONE)

    return Resolved((None, None, None), T.NONE, lower, may_raise=True)


def checked_store(value: T.Type, dtype: T.Scalar) -> bool:
    """Whether a value of this type is checked before it is stored as `dtype` (so reaches the
    store as it is): an int or a float stored into integers (`check_stored_number`)."""
    return dtype.is_int and isinstance(value, T.Scalar) and (value.is_int or value.is_float)


def assign(
    b: LowBuilder, dest: ir.Value, value: ir.Value, *, python: bool, one_value: bool = True
) -> None:
    """`dest[...] = value` with broadcasting (leading axes of `value` beyond `dest`'s must have
    length 1, `drop_leading_ones`); an overlapping source is copied first. A scalar
    `value` is checked as `check_stored_number` says (`python`: it is a Python number;
    `one_value`: NumPy stores it as one value, not as a cast array)."""
    dt = dest.type
    assert isinstance(dt, T.Array)
    if isinstance(value.type, T.Array):
        if value.type.ndim > dt.ndim:
            value = drop_leading_ones(b, value, value.type.ndim - dt.ndim)
        value = copy_if_overlapping(b, value, dest)
        elementwise(b, [value], dt.dtype, lambda bb, xs: bb.cast(xs[0], dt.dtype), out=dest)
    else:
        check_stored_number(b, value, dt.dtype, python=python, one_value=one_value)
        scalar = b.cast(value, dt.dtype)
        elementwise(b, [], dt.dtype, lambda bb, xs: scalar, out=dest)


def copy_if_overlapping(b: LowBuilder, src: ir.Value, dest: ir.Value) -> ir.Value:
    """`src`, or a fresh copy of it when its memory overlaps `dest`'s (NumPy copies then too).

    Overlap is decided conservatively from the spans of bytes the two arrays can touch. Both
    branches hand back one new reference, typed alike (the copy is C-ordered, so unless the
    source is too, the join is typed as any layout)."""
    src_t = cast(T.Array, src.type)
    joined = src_t if src_t.layout == "C" else T.Array(src_t.dtype, src_t.ndim, "A")

    def as_joined(a: ir.Value) -> ir.Value:
        return make_view(b, a, joined, data_of(b, a), shapes_of(b, a), strides_of(b, a))

    lo_s, hi_s = byte_span(b, src)
    lo_d, hi_d = byte_span(b, dest)
    overlap = b.and_(b.cmp("lt", lo_s, hi_d), b.cmp("lt", lo_d, hi_s))
    copy_b, same_b, join = b.new_block("copy"), b.new_block("nocopy"), b.new_block("copied")
    b.branch(overlap, copy_b, same_b)
    b.position(copy_b)
    copied = copy_array(b, src)
    if copied.type != joined:
        copied = as_joined(copied)
    copy_end = b.block
    b.jump(join)
    b.position(same_b)
    alias = as_joined(src)
    same_end = b.block
    b.jump(join)
    b.position(join)
    return b.phi(joined, {copy_end: copied, same_end: alias})


def update_operands(
    b: LowBuilder, operands: list[ir.Value], dest: ir.Value
) -> tuple[list[ir.Value], list[ir.Value]]:
    """The operands of an elementwise update of `dest` (`a += b`, `np.add(x, a, out=a)`), as
    NumPy reads them: `dest` itself from one snapshot (a copy only when its elements share
    memory), any other array from a copy when it overlaps `dest`. Also returns the operands
    that are `dest`'s snapshot, for `elementwise(full=)`: read where they are written, they
    vectorize (`X -= mu` ran scalar behind LLVM's overlap test, `d *= d` copied `d` first)."""
    snapshot: ir.Value | None = None
    read: list[ir.Value] = []
    for x in operands:
        if x is dest:
            if snapshot is None:
                snapshot = snapshot_if_overlapping_itself(b, dest)
            x = snapshot
        elif isinstance(x.type, T.Array):
            x = copy_if_overlapping(b, x, dest)
        read.append(x)
    return read, [] if snapshot is None else [snapshot]


def may_overlap_itself(b: LowBuilder, a: ir.Value) -> ir.Value:
    """Whether two elements of `a` may share memory (a stride of 0, `as_strided` views).

    C- and F-ordered arrays never do. Otherwise `a` surely does not when each axis k of
    length > 1 strides past everything the axes with no larger strides can reach:
    `|stride_k| >= itemsize + sum |stride_j| * (shape_j - 1)` over those axes j != k (in
    increasing order of stride, addresses are then digits of a mixed-radix number). The
    test may answer yes for an array that does not overlap; it never answers no for one
    that does."""
    t = a.type
    assert isinstance(t, T.Array)
    if t.layout != "A":
        return ir.Const(False, type=T.BOOL)
    shapes, strides = shapes_of(b, a), strides_of(b, a)
    sizes = [
        b.select(b.cmp("lt", st, i64(0)), b.emit(ir.UnaryOp("neg", st, type=T.I64)), st)
        for st in strides
    ]
    extents = [b.binop("mul", size, b.binop("sub", n, i64(1))) for size, n in zip(sizes, shapes)]
    overlap: ir.Value = ir.Const(False, type=T.BOOL)
    for k in range(t.ndim):
        reach: ir.Value = i64(itemsize(t))
        for j in range(t.ndim):
            if j != k:
                below = b.cmp("le", sizes[j], sizes[k])
                reach = b.binop("add", reach, b.select(below, extents[j], i64(0)))
        clash = b.and_(b.cmp("gt", shapes[k], i64(1)), b.cmp("lt", sizes[k], reach))
        overlap = b.or_(overlap, clash)
    for n in shapes:  # an empty array has no elements to share
        overlap = b.and_(overlap, b.cmp("ne", n, i64(0)))
    return overlap


def snapshot_if_overlapping_itself(b: LowBuilder, a: ir.Value) -> ir.Value:
    """`a`, or a fresh copy of it when its elements may share memory (`may_overlap_itself`):
    the operand an in-place update reads, so that, as in NumPy, every element is read before
    any is written (`a += 1` on a stride-0 view adds 1 once). A new reference either way,
    typed as `copy_if_overlapping` types its result."""
    t = a.type
    assert isinstance(t, T.Array)
    if t.layout != "A":
        return make_view(b, a, t, data_of(b, a), shapes_of(b, a), strides_of(b, a))
    overlap = may_overlap_itself(b, a)
    copy_b, same_b, join = b.new_block("snapshot"), b.new_block("nosnapshot"), b.new_block("read")
    b.branch(overlap, copy_b, same_b)
    b.position(copy_b)
    copied = copy_array(b, a)
    copied = make_view(
        b, copied, t, data_of(b, copied), shapes_of(b, copied), strides_of(b, copied)
    )
    copy_end = b.block
    b.jump(join)
    b.position(same_b)
    alias = make_view(b, a, t, data_of(b, a), shapes_of(b, a), strides_of(b, a))
    same_end = b.block
    b.jump(join)
    b.position(join)
    return b.phi(t, {copy_end: copied, same_end: alias})


def copy_array(b: LowBuilder, a: ir.Value, layout: str = "C") -> ir.Value:
    t = a.type
    assert isinstance(t, T.Array)
    out = allocate(b, t.dtype, shapes_of(b, a), layout)
    elementwise(b, [a], t.dtype, lambda bb, xs: xs[0], out=out)
    return out


# --- attributes ---------------------------------------------------------------------------


def resolve_getattr(obj: Operand, attr: str, loc: SourceLoc) -> Resolved:
    t = obj.type
    assert isinstance(t, T.Array)
    n = t.ndim
    if attr == "shape":
        return Resolved(
            (None,), T.Tuple((T.I64,) * n), lambda b, v, kw: b.make_tuple(shapes_of(b, v[0]))
        )
    if attr == "ndim":
        return constant(n, T.I64)
    if attr == "size":
        return Resolved((None,), T.I64, lambda b, v, kw: size_of(b, shapes_of(b, v[0])))
    if attr == "itemsize":
        return constant(itemsize(t), T.I64)
    if attr == "nbytes":
        return Resolved(
            (None,),
            T.I64,
            lambda b, v, kw: b.binop("mul", size_of(b, shapes_of(b, v[0])), i64(itemsize(t))),
        )
    if attr == "strides":
        return Resolved(
            (None,),
            T.Tuple((T.I64,) * n),
            lambda b, v, kw: b.make_tuple(raw_strides_of(b, v[0])),
        )
    if attr == "dtype":
        return constant(t.dtype.dtype, T.Opaque(t.dtype.dtype))
    if attr == "T":
        layout = cast(Layout, {"C": "F", "F": "C"}.get(t.layout, "A")) if n > 1 else t.layout
        out = T.Array(t.dtype, n, layout)

        def lower_t(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            a = v[0]
            return make_view(
                b, a, out, data_of(b, a), shapes_of(b, a)[::-1], strides_of(b, a)[::-1]
            )

        return Resolved((None,), out, lower_t)
    if attr in {"real", "imag"} and t.dtype.is_complex:
        part = T.complex_part(t.dtype)
        out = T.Array(part, n, "A")

        def lower_part(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            a = v[0]
            offset = i64(part.dtype.itemsize if attr == "imag" else 0)
            data = b.ptr_add(data_of(b, a), offset)
            return make_view(b, a, out, data, shapes_of(b, a), strides_of(b, a))

        return Resolved((None,), out, lower_part)
    if attr in {"real", "imag"}:
        if attr == "real":
            return Resolved(
                (None,),
                t,
                lambda b, v, kw: make_view(
                    b, v[0], t, data_of(b, v[0]), shapes_of(b, v[0]), strides_of(b, v[0])
                ),
            )
    raise TypingError(
        f"arrays have no attribute `{attr}` in compiled code",
        loc=loc,
        hint="supported: shape, ndim, size, itemsize, nbytes, strides, dtype, T, real, imag",
    )


def resolve_len(a: Operand) -> Resolved:
    t = a.type
    assert isinstance(t, T.Array)
    if t.ndim == 0:
        raise TypingError("len() of a 0-d array")
    return Resolved((None,), T.I64, lambda b, v, kw: shape_of(b, v[0], 0))


def resolve_unpack_check(value: Operand, n: Operand) -> Resolved:
    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        b.raise_if(
            b.cmp("ne", shape_of(b, v[0], 0), i64(cast(int, n.const))),
            ValueError,
            f"cannot unpack array: expected {n.const} values",
        )
        return ir.Const(None, type=T.NONE)

    return Resolved((None, None), T.NONE, lower)


def array_truth(b: LowBuilder, a: ir.Value) -> ir.Value:
    """bool(array): the element of a one-element array, else ValueError, as NumPy."""
    t = a.type
    assert isinstance(t, T.Array)
    shapes = shapes_of(b, a)
    b.raise_if(
        b.cmp("ne", size_of(b, shapes), i64(1)),
        ValueError,
        "The truth value of an array with more than one element is ambiguous",
    )
    return truth(b, load(b, data_of(b, a), t.dtype))


# --- creation -----------------------------------------------------------------------------


def dtype_arg(op: Operand | None, default: np.dtype | type) -> T.Scalar:
    if op is None or (op.is_const and op.const is None):
        return T.from_dtype(default)
    value = op.type.obj if isinstance(op.type, T.Opaque) else op.const  # `a.dtype`, "f8"
    if value is not MISSING:
        try:
            return T.from_dtype(np.dtype(value))  # type: ignore[call-overload]
        except TypeError:
            pass
    raise TypingError(
        f"dtype must be a constant NumPy dtype or type, not {op.type}",
        hint="write dtype=np.float64 (or a module-level constant)",
    )


def _shape_arg(op: Operand) -> int:
    """Number of dimensions of a shape argument (an int or a tuple of ints)."""
    t = op.type
    if isinstance(t, T.Scalar) and t.kind in "iu":
        return 1
    if isinstance(t, T.Tuple) and all(isinstance(i, T.Scalar) and i.kind in "iu" for i in t.items):
        return len(t.items)
    raise TypingError(f"shape must be an int or a tuple of ints, not {t}")


def _shape_values(b: LowBuilder, shape: ir.Value) -> list[ir.Value]:
    if isinstance(shape.type, T.Tuple):
        return [b.cast(x, T.I64) for x in index_values(b, shape)]
    return [b.cast(shape, T.I64)]


def _order_arg(kwargs: dict[str, Operand]) -> Layout:
    order = kwargs.pop("order", None)
    if order is None:
        return "C"
    if order.is_const and order.const in ("C", "F"):
        return order.const  # type: ignore[return-value]
    raise TypingError("order must be the constant 'C' or 'F'")


def _filled(fill: object | None):  # noqa: ANN202
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        kwargs = dict(kwargs)
        order = _order_arg(kwargs)
        if fill == "full":
            if len(args) < 2:
                return None
            shape, value = args[0], args[1]
            default = (
                np.result_type(_python_value(value))
                if not kwargs.get("dtype") and len(args) < 3
                else None
            )
            dtype = dtype_arg(
                kwargs.pop("dtype", args[2] if len(args) > 2 else None), default or np.float64
            )
        else:
            if not 1 <= len(args) <= 2:
                return None
            shape, value = args[0], None
            dtype = dtype_arg(
                kwargs.pop("dtype", args[1] if len(args) > 1 else None), np.dtype(np.float64)
            )
        if kwargs:
            raise TypingError(f"unsupported keyword arguments {sorted(kwargs)}")
        ndim = _shape_arg(shape)
        out = T.Array(dtype, ndim, order if ndim > 1 else "C")

        python_int = fill == "full" and value is not None and value.weak
        python_int = python_int and value.type == T.I64  # type: ignore[union-attr]

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            if python_int:  # np.full(n, 300, dtype=np.int8): NumPy's OverflowError
                check_python_int(b, v[1], dtype)
            arr = allocate(b, dtype, _shape_values(b, v[0]), order)
            if fill is not None:
                scalar = b.cast(v[1], dtype) if fill == "full" else ir.Const(fill, type=dtype)
                fill_contiguous(b, arr, scalar)
            return arr

        # shape, fill value and dtype are all used as they are (no conversion)
        return Resolved((None,) * len(args), out, lower, kwargs={"dtype": None, "order": None})

    return rule


def _python_value(op: Operand) -> int | float | complex | bool | np.dtype:
    t = op.type
    if isinstance(t, T.Scalar):
        if t in (T.I64,):
            return 0
        if t == T.F64:
            return 0.0
        if t == T.C128:
            return 0j
        if t == T.BOOL:
            return False
        return t.dtype
    raise TypingError(f"np.full fill value must be a number, not {t}")


def fill_contiguous(b: LowBuilder, arr: ir.Value, value: ir.Value) -> None:
    """Fill a freshly allocated (contiguous) array with one value: a flat loop LLVM vectorizes,
    or memset for zero."""
    t = arr.type
    assert isinstance(t, T.Array)
    n = size_of(b, shapes_of(b, arr))
    if (
        isinstance(value, ir.Const)
        and value.value == 0
        and not (isinstance(value.value, float) and str(value.value) == "-0.0")
    ):
        nbytes = b.binop("mul", n, i64(itemsize(t)))
        b.emit(ir.MemSet(data_of(b, arr), ir.Const(0, type=T.I8), nbytes, type=T.NONE))
        return
    data = data_of(b, arr)
    loop = Loop(b, i64(0), n)
    store(b, b.ptr_add(data, b.binop("mul", loop.index, i64(itemsize(t)))), value)
    loop.finish()


_FILLED_PARAMS = "shape: shape, dtype?: dtype, *, order?: order"
register_function(np.empty, params=_FILLED_PARAMS)(_filled(None))
register_function(np.zeros, params=_FILLED_PARAMS)(_filled(0))
register_function(np.ones, params=_FILLED_PARAMS)(_filled(1))
register_function(
    np.full, params="shape: shape, fill_value: number, dtype?: dtype, *, order?: order"
)(_filled("full"))


def _like(fill: object | None):  # noqa: ANN202
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if len(args) != 1 or not isinstance(args[0].type, T.Array):
            return None
        kwargs = dict(kwargs)
        src = args[0].type
        dtype = dtype_arg(kwargs.pop("dtype", None), src.dtype.dtype)
        if kwargs:
            raise TypingError(f"unsupported keyword arguments {sorted(kwargs)}")
        layout: Layout = "F" if src.layout == "F" and src.ndim > 1 else "C"
        out = T.Array(dtype, src.ndim, layout)

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            arr = allocate(b, dtype, shapes_of(b, v[0]), layout)
            if fill is not None:
                fill_contiguous(b, arr, ir.Const(fill, type=dtype))
            return arr

        return Resolved((None,), out, lower, kwargs={"dtype": None})

    return rule


_LIKE_PARAMS = "a: array, *, dtype?: dtype"
_LIKE_NOTES = "C order unless `a` is Fortran-ordered"
register_function(np.empty_like, params=_LIKE_PARAMS, notes=_LIKE_NOTES)(_like(None))
register_function(np.zeros_like, params=_LIKE_PARAMS, notes=_LIKE_NOTES)(_like(0))
register_function(np.ones_like, params=_LIKE_PARAMS, notes=_LIKE_NOTES)(_like(1))


def _copy_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 1 or kwargs or not isinstance(args[0].type, T.Array):
        return None
    src = args[0].type
    out = T.Array(src.dtype, src.ndim, "C")
    return Resolved((None,), out, lambda b, v, kw: copy_array(b, v[0]))


register_function(np.copy, params="a: array", notes="the copy is C-ordered")(_copy_rule)
register_method(T.Array, "copy", notes="the copy is C-ordered")(_copy_rule)


def copy_as(b: LowBuilder, a: ir.Value, dtype: T.Scalar) -> ir.Value:
    """A C-contiguous copy of `a` converted to `dtype`."""
    out = allocate(b, dtype, shapes_of(b, a), "C")
    elementwise(b, [a], dtype, lambda bb, xs: xs[0], out=out)
    return out


def _arange_positional(args: list, kwargs: dict, zero: object) -> list:
    """NumPy's arange arguments, given by keyword too (`np.arange(stop=5)`,
    `np.arange(9, step=2)`), as `[start, stop]` or `[start, stop, step]`; `zero` is the start
    when none is given. `kwargs` loses the keywords it used."""
    names = ("start", "stop", "step")
    alone = len(args) == 1 and "stop" not in kwargs  # np.arange(stop) or (stop, step=)
    given = {"stop": args[0]} if alone else dict(zip(names, args))
    for key in names:
        if key in kwargs and key not in given:
            given[key] = kwargs.pop(key)
    if "stop" not in given:
        raise TypingError("arange() requires stop to be specified.")
    start = given.get("start", zero)
    return [start, given["stop"], given["step"]] if "step" in given else [start, given["stop"]]


@register_function(np.arange, params="start: real, stop?: real, step?: real, *, dtype?: dtype")
def _arange(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    kwargs = dict(kwargs)
    if len(args) > 4 or (len(args) == 4 and "dtype" in kwargs):
        return None
    given = list(args)
    # NumPy takes the dtype fourth too: np.arange(0, 9, 2, np.int8) (it was once dropped)
    dtype_op = kwargs.pop("dtype", args[3] if len(args) == 4 else None)
    args = list(args[:3])
    args = _arange_positional(args, kwargs, Operand(T.I64, 0, weak=True))
    if kwargs or not 1 <= len(args) <= 3:
        return None
    for a in args:
        if not (isinstance(a.type, T.Scalar) and not a.type.is_complex):
            raise TypingError(f"np.arange needs real numbers, not {a.type}")
    default = np.result_type(*[0.0 if cast(T.Scalar, a.type).is_float else 0 for a in args])
    if any(a.type == T.U64 and not a.weak for a in args):
        default = np.dtype(np.float64)  # NumPy promotes uint64 with its int64 start or step
    dtype = dtype_arg(dtype_op, default)
    work = T.F64 if default.kind == "f" else T.I64
    python_ints = all(a.weak and a.type == T.I64 for a in args)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        vals = [b.cast(x, work) for x in _arange_positional(v, dict(kw), i64(0))]
        start, stop, step = (
            (ir.Const(0, type=work), vals[0], ir.Const(1, type=work))
            if len(vals) == 1
            else (vals[0], vals[1], ir.Const(1, type=work))
            if len(vals) == 2
            else tuple(vals)
        )
        zero = ir.Const(0, type=work)
        b.raise_if(b.cmp("eq", step, zero), ZeroDivisionError, "arange step cannot be zero")
        n = (_arange_length_f64 if work == T.F64 else _arange_length_i64)(b, start, stop, step)
        if python_ints and dtype.is_int and dtype != T.I64:
            # NumPy converts `start` and `start + step` (the items it writes) to the dtype
            info = np.iinfo(dtype.dtype)
            low, high = i64(int(info.min)), i64(min(int(info.max), 2**63 - 1))
            for k, item in enumerate((start, b.binop("add", start, step))):
                outside = b.or_(b.cmp("lt", item, low), b.cmp("gt", item, high))
                b.raise_if(
                    b.and_(b.cmp("gt", n, i64(k)), outside),
                    OverflowError,
                    f"Python integer out of bounds for {dtype.dtype}",
                )
        out = allocate(b, dtype, [n], "C")
        data = data_of(b, out)
        # NumPy writes `start` and `start + step` in the result's dtype and fills the rest
        # with `first + i * (second - first)` (its dtype's `fill`), which rounds otherwise
        # than `start + i * step` would; ints are computed in int64 and wrap when stored.
        calc = dtype if dtype.is_float or dtype.is_complex else T.I64
        first = b.cast(b.cast(start, dtype), calc)
        second = b.cast(b.cast(b.binop("add", start, step), dtype), calc)
        delta = b.binop("sub", second, first)
        loop = Loop(b, i64(0), n)
        i = loop.index
        later = b.binop("add", first, b.binop("mul", b.cast(i, calc), delta))
        value = b.select(
            b.cmp("eq", i, i64(0)), first, b.select(b.cmp("eq", i, i64(1)), second, later)
        )
        store(
            b,
            b.ptr_add(data, b.binop("mul", i, i64(dtype.dtype.itemsize))),
            b.cast(value, dtype),
        )
        loop.finish()
        return out

    keywords: dict[str, T.Type | None] = {"dtype": None, "start": None, "stop": None}
    keywords["step"] = None
    return Resolved((None,) * len(given), T.Array(dtype, 1, "C"), lower, kwargs=keywords)


def _f64(v: float) -> ir.Const:
    return ir.Const(v, type=T.F64)


def _arange_length(b: LowBuilder, diff: ir.Value, nonzero: ir.Value, step: ir.Value) -> ir.Value:
    """The length of `np.arange` as NumPy computes it, from `diff = stop - start` and `step`
    as float64 (`nonzero`: whether the exact difference is not 0): the ceiling of their ratio,
    NaN is "cannot compute length" and a ceiling beyond int64 "Maximum allowed size exceeded"
    (ValueErrors, whatever the sign); a ratio that underflows (or divides by an infinite
    step) to +0 is one item, -0 none; exactly 2**63 passes NumPy's range check and converts
    to INT64_MIN, so it gives an empty array there, and here."""
    ratio = b.binop("div", diff, step)
    ceil = b.intrinsic("ceil", [ratio], T.F64)
    b.raise_if(b.isnan(ceil), ValueError, "arange: cannot compute length")
    in_range = b.and_(b.cmp("ge", ceil, _f64(-(2.0**63))), b.cmp("le", ceil, _f64(2.0**63)))
    b.raise_if(b.not_(in_range), ValueError, "Maximum allowed size exceeded")
    usable = b.and_(b.cmp("gt", ceil, _f64(0.0)), b.cmp("lt", ceil, _f64(2.0**63)))
    n = b.cast(b.select(usable, ceil, _f64(0.0)), T.I64)
    underflow = b.and_(b.cmp("eq", ratio, _f64(0.0)), nonzero)
    positive = b.cmp("eq", b.intrinsic("copysign", [_f64(1.0), ratio], T.F64), _f64(1.0))
    return b.select(underflow, b.cast(positive, T.I64), n)


def _arange_length_f64(b: LowBuilder, start: ir.Value, stop: ir.Value, step: ir.Value) -> ir.Value:
    diff = b.binop("sub", stop, start)
    return _arange_length(b, diff, b.cmp("ne", diff, _f64(0.0)), step)


def _arange_length_i64(b: LowBuilder, start: ir.Value, stop: ir.Value, step: ir.Value) -> ir.Value:
    """NumPy subtracts Python ints: the exact difference, which may need 65 bits, goes into
    the float64 ratio."""
    diff = b.binop("sub", stop, start)  # wraps when the difference needs 65 bits
    sign_bits = b.binop("and", b.binop("xor", stop, start), b.binop("xor", stop, diff))
    wrapped = b.cmp("lt", sign_bits, i64(0))
    up = b.cmp("ge", stop, i64(0))  # when wrapped, the true difference is positive iff so
    magnitude = b.cast(b.select(up, diff, b.emit(ir.UnaryOp("neg", diff, type=T.I64))), T.U64)
    wide = b.cast(magnitude, T.F64)  # rounded once, from the exact magnitude
    wide = b.select(up, wide, b.emit(ir.UnaryOp("neg", wide, type=T.F64)))
    diff_f = b.select(wrapped, wide, b.cast(diff, T.F64))
    return _arange_length(b, diff_f, b.cmp("ne", diff, i64(0)), b.cast(step, T.F64))


def _linspace_dtype(ends: list[Operand]) -> T.Scalar:
    """The type NumPy's linspace computes in: `result_type(start * 1.0, stop * 1.0, float(num))`,
    float64 unless every endpoint that is not a Python number is a narrower float
    (`np.float32` endpoints give float32 items and step)."""
    strong = []
    for op in ends:
        t = cast(T.Scalar, op.type)
        if not op.weak:
            strong.append(t.dtype if t.is_float else np.dtype(np.float64))
    return T.from_dtype(np.result_type(*strong)) if strong else T.F64


@register_function(
    np.linspace,
    params="start: real, stop: real, num?: int, endpoint?: const, retstep?: const, dtype?: dtype",
    notes="the step `retstep=True` returns is a NumPy float (NumPy: a Python `nan` when there "
    "is no step)",
)
def _linspace(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    kwargs = dict(kwargs)
    kwargs.pop("num", None)  # num is read by position or keyword when lowering
    endpoint = kwargs.pop("endpoint", args[3] if len(args) > 3 else None)
    retstep = kwargs.pop("retstep", args[4] if len(args) > 4 else None)
    dtype_op = kwargs.pop("dtype", args[5] if len(args) > 5 else None)
    if kwargs or not 2 <= len(args) <= 6:
        return None
    for flag, name in ((endpoint, "endpoint"), (retstep, "retstep")):
        if flag is not None and not flag.is_const:
            raise TypingError(f"np.linspace: {name} must be a constant True or False")
    with_end = True if endpoint is None else bool(endpoint.const)
    with_step = retstep is not None and bool(retstep.const)
    calc = _linspace_dtype(args[:2])
    dtype = dtype_arg(dtype_op, calc.dtype)
    result: T.Type = T.Array(dtype, 1, "C")
    if with_step:
        result = T.Tuple((result, calc))

    def const(x: float) -> ir.Const:
        return ir.Const(x, type=calc)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        start, stop = b.cast(v[0], calc), b.cast(v[1], calc)
        n = b.cast(v[2] if len(v) > 2 else kw.get("num", i64(50)), T.I64)
        b.raise_if(b.cmp("lt", n, i64(0)), ValueError, "Number of samples must be non-negative")
        div = b.binop("sub", n, i64(1)) if with_end else n
        divf = b.cast(div, calc)
        delta = b.binop("sub", stop, start)
        step = b.binop("div", delta, b.select(b.cmp("eq", divf, const(0.0)), const(1.0), divf))
        # NumPy starts from `np.arange(0, num)`, whose length is NumPy's float computation
        # (`_arange_length`: a `num` that rounds to 2**63 gives no items at all)
        items = _arange_length(b, b.cast(n, T.F64), b.cmp("ne", n, i64(0)), _f64(1.0))
        out = allocate(b, calc, [items], "C")
        data = data_of(b, out)
        size = i64(calc.dtype.itemsize)
        # a step that underflows to 0 (gh-5437) is applied as `i / div * delta`
        tiny = b.and_(b.cmp("eq", step, const(0.0)), b.cmp("gt", div, i64(0)))
        loop = Loop(b, i64(0), items)
        i = b.cast(loop.index, calc)
        scaled = b.select(
            tiny, b.binop("mul", b.binop("div", i, divf), delta), b.binop("mul", i, step)
        )
        store(b, b.ptr_add(data, b.binop("mul", loop.index, size)), b.binop("add", scaled, start))
        loop.finish()
        if with_end:
            last = b.new_block("last")
            done = b.new_block("done")
            b.branch(b.cmp("gt", n, i64(1)), last, done)
            b.position(last)
            b.raise_if(
                b.cmp("eq", items, i64(0)),
                IndexError,
                "index -1 is out of bounds for axis 0 with size 0",
            )
            store(b, b.ptr_add(data, b.binop("mul", b.binop("sub", n, i64(1)), size)), stop)
            b.jump(done)
            b.position(done)
        if dtype != calc:  # NumPy 2 floors for an integer dtype, then converts
            if dtype.is_int:
                elementwise(b, [out], calc, lambda bb, xs: bb.intrinsic("floor", xs, calc), out)
            out = copy_as(b, out, dtype)
        if not with_step:
            return out
        return b.make_tuple([out, b.select(b.cmp("gt", div, i64(0)), step, const(float("nan")))])

    keywords: dict[str, T.Type | None] = {"num": None, "endpoint": None, "retstep": None}
    keywords["dtype"] = None
    return Resolved((None,) * len(args), result, lower, kwargs=keywords)


# The listing (`jitcore.supported()`): the attributes `resolve_getattr` knows.
for _attr, _notes in (
    ("shape", "a tuple of Python ints"),
    ("ndim", ""),
    ("size", ""),
    ("itemsize", ""),
    ("nbytes", ""),
    ("strides", ""),
    ("dtype", "a compile-time constant"),
    ("T", "a view"),
    ("real", "a view"),
    ("imag", "a view (complex arrays only)"),
):
    describe(f"ndarray.{_attr}", "attribute", "a: array", _notes, module=__name__)
