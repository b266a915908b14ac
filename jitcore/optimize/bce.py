"""Bounds-check elimination: an array index proven in range needs no wrap and no check.

Requires typed SSA with `checkindex`/`wrapindex` before array indexing (`typeinfer` puts them
there); preserves the CFG and types. A proven axis leaves the op's `axes`; an op left with none
is removed and the indexing uses the index itself. The proof is the usual counted loop: `i`
starts at a constant >= 0, grows by a constant > 0, and the loop runs while `i < n`, where `n`
is `len(a)` or `a.shape[k]` of the very array value `a` indexed by `i` on axis k inside the
loop (dominated by the loop's body entry).

    for i in range(a.shape[0]): s += a[i]
        t5 = checkindex a i {axes={0}} : i64; t6 = getitem a [t5]   ->   t6 = getitem a [i]
"""

from __future__ import annotations

from typing import cast

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.analysis import dominates, dominators, natural_loops
from jitcore.ir.markers import range_bounds, range_count, range_item, range_more


def eliminate_bounds_checks(fn: ir.Function) -> bool:
    idom = dominators(fn)
    changed = False
    for header, body in natural_loops(fn):
        loop = counted_loop(header, body)
        if loop is None:
            continue
        counter, stop, entry = loop
        stop = source(stop)
        for block in body:
            if not dominates(idom, entry, block):
                continue
            for instr in list(block.instrs):
                if not isinstance(instr, ir.IndexCheck | ir.WrapIndex):
                    continue
                proven = _proven_axes(instr, counter, stop) & instr.axes
                if not proven:
                    continue
                instr.axes = instr.axes - proven
                changed = True
                if not instr.axes:
                    block.instrs.remove(instr)
                    fn.replace_all_uses(instr, instr.index)
    return changed


def counted_loop(
    header: ir.Block, body: set[ir.Block]
) -> tuple[ir.Phi, ir.Value, ir.Block] | None:
    """(counter, stop, first body block) when `header` tests `counter < stop` for a counter
    that starts at a constant >= 0 and steps by a positive constant. `stop` is the value the
    loop compares with (`source` of it finds where it came from).

    A `while i < stop` loop counts only if `stop` is a signed integer (a float stop of 4.5 lets
    the counter reach 4, which a guard computed from int(4.5) - 1 = 3 would not cover; a uint64
    stop of 2**63 or more read as int64 is negative, which said "no iteration") and the
    counter cannot wrap past int64's maximum while below `stop`: a step of 1, or a step up to
    2**32 below an array's extent (no array has 2**48 items). `range()` loops count their
    iterations, which cannot wrap."""
    term = header.terminator
    if not isinstance(term, ir.Branch) or term.if_true not in body:
        return None
    cond = term.cond
    if isinstance(cond, ir.Compare) and cond.op == "lt":
        counter, stop, step = cond.lhs, cond.rhs, None
        if not (isinstance(stop.type, T.Scalar) and stop.type.is_signed):
            return None  # a uint64 stop of 2**63 or more is negative as the guards' int64
    elif isinstance(cond, ir.Call) and _is(cond.func, range_more):
        counter, stop, step = cond.args[0], cond.args[1], cond.args[2]
    else:
        return None
    if not isinstance(counter, ir.Phi) or counter not in header.instrs:
        return None
    for pred, value in counter.incoming.items():
        if pred in body:
            if not (
                isinstance(value, ir.BinOp)
                and value.op in {"add", "iadd"}
                and value.lhs is counter
                and _positive_constant(value.rhs)
            ):
                return None
            if step is None and not _cannot_wrap(constant(value.rhs), source(stop)):
                return None
            if (
                step is not None
                and source(step) is not source(value.rhs)
                and not _positive_constant(step)
            ):
                return None
        elif not _nonnegative_constant(value) and not _nonnegative_max(value):
            return None
    return counter, stop, term.if_true


def _cannot_wrap(step: object, stop: ir.Value) -> bool:
    """A counter below `stop` stepping by `step` stays within int64 (see `counted_loop`)."""
    if step == 1:
        return True
    extent = _extent_of(stop)
    return (
        isinstance(step, int)
        and step <= 2**32
        and extent is not None
        and isinstance(extent[0].type, T.Array)
    )


def _proven_axes(
    instr: ir.IndexCheck | ir.WrapIndex, counter: ir.Value, stop: ir.Value
) -> frozenset[int]:
    index = instr.index
    items = index.items if isinstance(index, ir.MakeTuple) else [index]
    axes = set()
    for axis, item in enumerate(items):
        if source(item) is counter and _is_extent(stop, instr.array, axis):
            axes.add(axis)
        elif _counted_item_below(source(item), counter, stop, instr.array, axis):
            axes.add(axis)
    return frozenset(axes)


def _counted_item_below(
    item: ir.Value, counter: ir.Value, count: ir.Value, array: ir.Value, axis: int
) -> bool:
    """`item` is range_item(start, k, step) of a loop `k < range_count(start, stop, step)`
    with a constant start >= 0 and step > 0, and `stop` is the array's extent: every item
    lies in [start, stop)."""
    if not (isinstance(item, ir.Call) and _is(item.func, range_item) and item.args[1] is counter):
        return False
    if not (isinstance(count, ir.Call) and _is(count.func, range_count)):
        return False
    start, stop, step = (source(a) for a in count.args)
    return (
        source(item.args[0]) is start
        and source(item.args[2]) is step
        and _nonnegative_constant(start)
        and _positive_constant(step)
        and _is_extent(stop, array, axis)
    )


def _is_extent(stop: ir.Value, array: ir.Value, axis: int) -> bool:
    """`stop` is `len(array)` (axis 0) or `array.shape[axis]`, or `min(..., <one of those>)`
    (the chunk loops of a prange body: `range(max(lo, 0), min(hi, a.shape[0]))`)."""
    if isinstance(stop, ir.Call) and _is(stop.func, min) and not stop.kwargs:
        return any(_is_extent(source(a), array, axis) for a in stop.args)
    extent = _extent_of(stop)
    return extent is not None and extent[0] is array and extent[1] == axis


def _extent_of(stop: ir.Value) -> tuple[ir.Value, int | None] | None:
    """(x, axis) when `stop` is `len(x)` (axis 0) or `x.shape[axis]` (axis None when it is
    not a constant)."""
    if isinstance(stop, ir.Call) and _is(stop.func, len) and len(stop.args) == 1:
        return stop.args[0], 0
    if (
        isinstance(stop, ir.GetItem)
        and isinstance(stop.obj, ir.GetAttr)
        and stop.obj.attr == "shape"
    ):
        index = stop.index.value if isinstance(stop.index, ir.Const) else None
        return stop.obj.obj, index if type(index) is int else None
    return None


def source(v: ir.Value) -> ir.Value:
    """Look through casts and through the bounds tuple of a range() loop to the original value."""
    while True:
        if isinstance(v, ir.Cast):
            v = v.value
        elif (
            isinstance(v, ir.GetItem)
            and isinstance(v.index, ir.Const)
            and isinstance(v.obj, ir.Call)
            and _is(v.obj.func, range_bounds)
        ):
            v = v.obj.args[cast(int, v.index.value)]
        else:
            return v


def constant(v: ir.Value) -> object:
    """The value of `v` when it is a constant (seen through casts and range bounds), else
    None."""
    v = source(v)
    return v.value if isinstance(v, ir.Const) else None


def _positive_constant(v: ir.Value) -> bool:
    c = constant(v)
    return isinstance(c, int) and not isinstance(c, bool) and c > 0


def _nonnegative_max(v: ir.Value) -> bool:
    """`max(..., c)` with a constant c >= 0 (or `smax`, as `optimize.stripmine` writes it)."""
    v = source(v)
    if isinstance(v, ir.Intrinsic) and v.fn == "smax":
        return any(_nonnegative_constant(a) for a in v.args)
    if not isinstance(v, ir.Call) or not _is(v.func, max) or v.kwargs:
        return False
    return any(_nonnegative_constant(a) for a in v.args)


def _nonnegative_constant(v: ir.Value) -> bool:
    c = constant(v)
    return isinstance(c, int) and not isinstance(c, bool) and c >= 0


def _is(func: ir.Value, target: object) -> bool:
    return isinstance(func, ir.Const) and func.value is target
