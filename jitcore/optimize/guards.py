"""Loop-invariant guards for the bounds checks that `bce` cannot remove.

A check inside a counted loop (`for k in range(start, stop)`, what `bce` recognizes) whose index
is a non-decreasing function of the counter built from `k`, values defined before the loop,
`+`, `-` (of something loop-invariant) and `min`/`max`, takes its smallest value at the first
iteration and its largest at the last. So one test before the loop decides the check for every
iteration:

    guard = (the loop runs no iteration) or (f(start) >= 0 and f(stop - 1) < n, no overflow)

`lower` emits the guard at the end of the loop's preheader and lowers the check as
`if not guard: <wrap and check as before>`. The guard is loop-invariant, so LLVM's loop
unswitching (O3) makes two copies of the loop: one without checks, which vectorizes, and the
checked one for when the guard fails. Results and errors are unchanged: when the guard holds no
index of any iteration is negative or out of range, so no check would have fired. This covers
stencils (`a[i - 1]`, `a[max(i - 1, 0)]`), windows (`a[i + k]`) and offsets from an outer loop.
(Issue 17, diagnosis 7: versioning instead of per-iteration checks.)

This module analyses typed IR; `lower` calls it while lowering, so the guard is low IR.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.analysis import dominates, dominators, natural_loops
from jitcore.ir.builder import LowBuilder, i64
from jitcore.optimize.bce import counted_loop

_ADD = {"add", "iadd"}
_SUB = {"sub", "isub"}


@dataclass(frozen=True)
class CountedLoop:
    """A loop whose counter runs from `start` upwards while it is below `stop`."""

    blocks: frozenset[ir.Block]  # the body blocks where the counter is known in range
    all_blocks: frozenset[ir.Block]  # every block of the loop (for invariance)
    counter: ir.Phi
    start: ir.Value
    stop: ir.Value
    preheader: ir.Block


class BoundsGuards:
    """Which checks of a function a preheader guard can decide, and the guards' low IR."""

    def __init__(self, fn: ir.Function) -> None:
        self.defined_in: dict[ir.Value, ir.Block] = {
            instr: block for block in fn.blocks for instr in block.instrs
        }
        # Lowering rewrites a tuple's items in place: keep the typed index items of each check.
        self.items: dict[ir.Instr, list[ir.Value]] = {
            instr: _index_items(instr.index)
            for block in fn.blocks
            for instr in block.instrs
            if isinstance(instr, ir.IndexCheck | ir.WrapIndex)
        }
        self.loop_of: dict[ir.Block, CountedLoop] = {}
        idom = dominators(fn)
        preds = fn.predecessors()
        for header, body in natural_loops(fn):  # outermost first: inner loops overwrite
            loop = _counted(header, body, idom, preds)
            # a bound computed in the loop (`for x in lst` reads len(lst) at every step, and
            # the list may grow) is no bound a preheader guard can test
            if loop is not None and self.invariant(loop.stop, loop):
                for block in loop.blocks:
                    self.loop_of[block] = loop

    def guard(
        self,
        b: LowBuilder,
        check: ir.IndexCheck | ir.WrapIndex,
        block: ir.Block,
        axis: int,
        mapped: Callable[[ir.Value], ir.Value],
        lowered_end: dict[ir.Block, ir.Block],
        extent: Callable[[ir.Value], ir.Value],
    ) -> ir.Value | None:
        """A bool, computed in the loop's preheader, that holds only if the index on `axis`
        is in range in every iteration; None when this check cannot be guarded."""
        loop = self.loop_of.get(block)
        if loop is None or loop.preheader not in lowered_end:
            return None
        items = self.items.get(check)
        if items is None or axis >= len(items):
            return None
        item = items[axis]
        if not self.invariant(check.array, loop) or not self._monotone(item, loop):
            return None
        here = b.block
        b.position(lowered_end[loop.preheader])
        start, stop = b.cast(mapped(loop.start), T.I64), b.cast(mapped(loop.stop), T.I64)
        first, first_overflow = self._evaluate(b, item, loop, start, mapped)
        last_k = b.binop("sub", stop, i64(1))
        last, last_overflow = self._evaluate(b, item, loop, last_k, mapped)
        n = extent(mapped(check.array))
        in_range = b.and_(b.cmp("ge", first, i64(0)), b.cmp("lt", last, n))
        exact = b.not_(b.or_(first_overflow, last_overflow))
        guard = b.or_(b.cmp("ge", start, stop), b.and_(exact, in_range))
        b.position(here)
        return guard

    # --- analysis of the typed index --------------------------------------------------------

    def invariant(self, v: ir.Value, loop: CountedLoop) -> bool:
        """`v` is defined outside `loop` (or is no instruction)."""
        block = self.defined_in.get(v)
        return block is None or block not in loop.all_blocks

    def _monotone(self, v: ir.Value, loop: CountedLoop) -> bool:
        """v is a non-decreasing i64 function of the counter (or loop-invariant)."""
        if v.type != T.I64:
            return False
        if v is loop.counter or self.invariant(v, loop):
            return True
        if isinstance(v, ir.BinOp) and v.op in _ADD:
            return self._monotone(v.lhs, loop) and self._monotone(v.rhs, loop)
        if isinstance(v, ir.BinOp) and v.op in _SUB:
            return self._monotone(v.lhs, loop) and self.invariant(v.rhs, loop)
        if is_min_max(v):
            return all(self._monotone(a, loop) for a in v.args)  # type: ignore[attr-defined]
        return False

    def _evaluate(
        self,
        b: LowBuilder,
        v: ir.Value,
        loop: CountedLoop,
        k: ir.Value,
        mapped: Callable[[ir.Value], ir.Value],
    ) -> tuple[ir.Value, ir.Value]:
        """(v with the counter at `k`, whether computing it overflowed int64)."""
        no: ir.Value = ir.Const(False, type=T.BOOL)
        if v is loop.counter:
            return k, no
        if self.invariant(v, loop):
            return b.cast(mapped(v), T.I64), no
        if isinstance(v, ir.BinOp):
            (lhs, o1), (rhs, o2) = (
                self._evaluate(b, v.lhs, loop, k, mapped),
                self._evaluate(b, v.rhs, loop, k, mapped),
            )
            op = "add" if v.op in _ADD else "sub"
            overflow = b.intrinsic(f"s{op}_overflows", [lhs, rhs], T.BOOL)
            return b.binop(op, lhs, rhs), b.or_(b.or_(o1, o2), overflow)
        assert isinstance(v, ir.Call) and is_min_max(v)
        pick = "gt" if v.func.value is max else "lt"  # type: ignore[attr-defined]
        result, overflow = self._evaluate(b, v.args[0], loop, k, mapped)
        for arg in v.args[1:]:
            value, o = self._evaluate(b, arg, loop, k, mapped)
            result = b.select(b.cmp(pick, value, result), value, result)
            overflow = b.or_(overflow, o)
        return result, overflow


def _index_items(index: ir.Value) -> list[ir.Value]:
    """The typed items of an index (none usable for a tuple that is not built in place)."""
    if isinstance(index, ir.MakeTuple):
        return list(index.items)
    return [] if isinstance(index.type, T.Tuple) else [index]


def is_min_max(v: ir.Value) -> bool:
    return (
        isinstance(v, ir.Call)
        and isinstance(v.func, ir.Const)
        and v.func.value in (min, max)
        and not v.kwargs
        and len(v.args) >= 2
    )


def _counted(
    header: ir.Block,
    body: set[ir.Block],
    idom: dict[ir.Block, ir.Block | None],
    preds: dict[ir.Block, list[ir.Block]],
) -> CountedLoop | None:
    found = counted_loop(header, body)
    if found is None:
        return None
    counter, stop, entry = found
    outside = [p for p in preds[header] if p not in body]
    if len(outside) != 1:
        return None
    start = counter.incoming.get(outside[0])
    if start is None:
        return None
    inside = frozenset(block for block in body if dominates(idom, entry, block))
    return CountedLoop(inside, frozenset(body), counter, start, stop, outside[0])
