"""The `noboundscheck` pass, run for `jit(boundscheck=False)`: array indices are not checked.

Requires typed SSA with `checkindex` before array indexing (`typeinfer` puts it there);
preserves the CFG and types. Every `checkindex` becomes a `wrapindex`: a negative index still
counts from the end, as in Python, but one out of range is not detected (reading or writing
there is undefined, as in C). A `wrapindex` whose items on its axes are all non-negative
constants, or counters of counted loops (`for i in range(n)`: `bce.counted_loop` proves them
>= 0), has nothing left to do and goes.

    t5 = checkindex a i {axes={0}} : i64   ->   t5 = wrapindex a i {axes={0}} : i64
    t7 = checkindex a 3 {axes={0}} : i64; t8 = getitem a [t7]   ->   t8 = getitem a [3]
"""

from __future__ import annotations

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.analysis import natural_loops
from jitcore.optimize.bce import counted_loop, source


def drop_bounds_checks(fn: ir.Function) -> bool:
    changed = False
    counters = _nonnegative_counters(fn)
    for block in fn.blocks:
        kept: list[ir.Instr] = []
        for instr in block.instrs:
            if isinstance(instr, ir.IndexCheck):
                wrap = ir.WrapIndex(
                    instr.array,
                    instr.index,
                    instr.axes,
                    name=instr.name,
                    type=instr.type,
                    loc=instr.loc,
                )
                fn.replace_all_uses(instr, wrap)
                instr, changed = wrap, True
            if isinstance(instr, ir.WrapIndex):
                axes = frozenset(
                    k for k in instr.axes if not _nonnegative_item(instr.index, k, counters)
                )
                if axes != instr.axes:
                    instr.axes, changed = axes, True
                if not axes:
                    fn.replace_all_uses(instr, instr.index)
                    continue
            kept.append(instr)
        block.instrs = kept
    return changed


def _nonnegative_counters(fn: ir.Function) -> set[ir.Value]:
    """The counters of counted loops: they start at a constant >= 0 and only grow."""
    found: set[ir.Value] = set()
    for header, body in natural_loops(fn):
        loop = counted_loop(header, body)
        if loop is not None:
            found.add(loop[0])
    return found


def _nonnegative_item(index: ir.Value, k: int, counters: set[ir.Value]) -> bool:
    """Whether item k of `index` (the index itself when it is no tuple) is a constant >= 0 or
    one of `counters`."""
    if isinstance(index, ir.MakeTuple):
        item: object = index.items[k]
        if _counter(item, counters):  # type: ignore[arg-type]
            return True
        value = item.value if isinstance(item, ir.Const) else None
    elif _counter(index, counters):
        return True
    elif isinstance(index, ir.Const):
        value = index.value[k] if isinstance(index.value, tuple) else index.value
    else:
        return False
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _counter(item: ir.Value, counters: set[ir.Value]) -> bool:
    """`item` is a loop counter, seen through casts that do not narrow it."""
    return item.type == T.I64 and source(item) in counters
