"""Index-set splitting of loops with clamped indices (run by `lower` on low IR, before
`loopversion`).

`a[max(i - 1, 0)]` and `a[min(i + 1, n - 1)]` index with a conditional move, so the loop does
not vectorize, although the clamps are active only in its first and last iterations. An
innermost step-1 counted loop (int64 counter and bounds) whose indices are clamps of the counter
plus a constant to a loop-invariant bound runs as three loops in a row:

    split:   first = max(start, k1 - d1, ...) (each max(i + d1, k1)), bounded by stop;
             last = min(stop, k2 - d2 + 1, ...) (each min(i + d2, k2)), at least first;
             both = stop when one of the loop's bounds guards fails
    header ...          i in [start, first): the original loop, checked (a cold copy)
    header.middle ...   i in [first, last): every clamp replaced by its i + d, no guarded
                        check: it vectorizes
    header.rest ...     i in [last, stop): the original loop again, checked (a cold copy)

Each loop starts from the values the one before left with; code after them gets the last
one's (`ir.loopcopy`). The bounds saturate at int64's limits, so a clamp to a huge or very
negative bound only moves iterations to the outer loops. Results, errors and partial writes
are unchanged: the middle runs only iterations where every clamp returns the value it is
replaced by and, the guards holding, no check would fire; everything else runs checked, in
order. (Issue 17, diagnosis 7: `stencil_clamped` 0.95 -> 1.1x Numba.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.analysis import natural_loops
from jitcore.ir.builder import LowBuilder
from jitcore.ir.loopcopy import LoopCopy, repair_uses_after
from jitcore.loopversion import MAX_VERSIONED_INSTRUCTIONS, all_hold, mark_cold
from jitcore.optimize.bce import constant
from jitcore.optimize.guards import BoundsGuards, CountedLoop, is_min_max


@dataclass(frozen=True)
class Clamp:
    """`max(i + d, k)` (a lower clamp) or `min(i + d, k)` in a counted loop whose counter `i`
    steps by 1 from `start` while below `stop`; `k` is loop-invariant, `d` a constant.
    Found on typed IR (`find_clamps`), then carried over to the low values (`lowered`)."""

    header: ir.Block
    call: ir.Value
    shifted: ir.Value  # i + d
    bound: ir.Value  # k
    offset: int  # d
    lower: bool  # max: i + d < k is clamped up to k
    start: ir.Value
    stop: ir.Value

    def lowered(self, mapped: Callable[[ir.Value], ir.Value]) -> Clamp:
        return dataclasses.replace(
            self,
            call=mapped(self.call),
            shifted=mapped(self.shifted),
            bound=mapped(self.bound),
            start=mapped(self.start),
            stop=mapped(self.stop),
        )


def find_clamps(fn: ir.Function, bounds: BoundsGuards) -> list[Clamp]:
    """The clamped indices of `fn`'s counted loops (typed IR, before `lower`)."""
    found = []
    for block in fn.blocks:
        loop = bounds.loop_of.get(block)
        if loop is None or not _steps_by_one(loop):
            continue
        header = bounds.defined_in.get(loop.counter)
        for instr in block.instrs:
            clamp = _clamp(instr, loop, bounds)
            if clamp is not None and header is not None:
                shifted, bound, offset, lower = clamp
                found.append(
                    Clamp(header, instr, shifted, bound, offset, lower, loop.start, loop.stop)
                )
    return found


def _steps_by_one(loop: CountedLoop) -> bool:
    """The counter is an int64 stepping by 1, from and to int64s (a `while i < n` with a
    uint64 `n` compares unsigned: the split bounds, computed in int64, would not hold)."""
    if not all(v.type == T.I64 for v in (loop.counter, loop.start, loop.stop)):
        return False
    return all(
        isinstance(v, ir.BinOp) and v.lhs is loop.counter and _int_constant(v.rhs) == 1
        for p, v in loop.counter.incoming.items()
        if p in loop.all_blocks
    )


def _int_constant(v: ir.Value) -> int | None:
    c = constant(v)
    return c if type(c) is int else None


def _clamp(
    instr: ir.Instr, loop: CountedLoop, bounds: BoundsGuards
) -> tuple[ir.Value, ir.Value, int, bool] | None:
    """(i + d, k, d, is max) when `instr` is `max(i + d, k)` / `min(i + d, k)` (either order)."""
    if not (is_min_max(instr) and instr.type == T.I64 and len(instr.args) == 2):  # type: ignore[attr-defined]
        return None
    assert isinstance(instr, ir.Call) and isinstance(instr.func, ir.Const)
    for shifted, bound in (instr.args, instr.args[::-1]):
        offset = _offset_from(shifted, loop.counter)
        if offset is not None and bound.type == T.I64 and bounds.invariant(bound, loop):
            return shifted, bound, offset, instr.func.value is max
    return None


def _offset_from(v: ir.Value, counter: ir.Value) -> int | None:
    """d when `v` is `counter + d` or `counter - d` for a small constant d."""
    if v is counter:
        return 0
    if not (isinstance(v, ir.BinOp) and v.lhs is counter and v.op in ("add", "sub")):
        return None
    c = _int_constant(v.rhs)
    if c is None or abs(c) > 2**32:
        return None
    return c if v.op == "add" else -c


def split_clamped_loops(fn: ir.Function, clamps: list[Clamp], guards: set[ir.Value]) -> None:
    """Run each innermost loop with clamped indices as three: the iterations before every
    lower clamp lets go, those where no clamp is active (there `max(i - 1, 0)` is `i - 1`:
    consecutive elements, which vectorize), and the rest. The first and last are cold copies
    (a few iterations, usually) that make the loop's guarded checks (`guards`); the middle
    makes none, and runs only when all of the loop's guards hold (else the first loop runs
    every iteration, checked)."""
    by_header: dict[ir.Block, list[Clamp]] = {}
    for clamp in clamps:
        by_header.setdefault(clamp.header, []).append(clamp)
    for header, found in by_header.items():
        loops = natural_loops(fn)
        body = next((b for h, b in loops if h is header), None)
        if body is None or not _splittable(fn, header, body, loops, guards):
            continue
        current = [_as_now(clamp, header, body) for clamp in found]
        if all(c is not None for c in current):
            _split(fn, header, body, current, guards)  # type: ignore[arg-type]


def _as_now(clamp: Clamp, header: ir.Block, body: set[ir.Block]) -> Clamp | None:
    """`clamp` with its bound, start and stop read from the IR as it is now: splitting an
    earlier loop gives the values it computes new definitions after it (`k -= 1` in one loop,
    `min(j + 1, k)` in the next: the second loop's bound is the first loop's last `k` now, no
    longer the value recorded before). None when the IR no longer has the expected shape."""
    select = clamp.call
    if not isinstance(select, ir.Select) or clamp.shifted not in (select.if_true, select.if_false):
        return None
    bound = select.if_false if select.if_true is clamp.shifted else select.if_true
    counter = clamp.shifted if clamp.offset == 0 else getattr(clamp.shifted, "lhs", None)
    if not isinstance(counter, ir.Phi) or counter not in header.instrs:
        return None
    entry = [p for p in counter.incoming if p not in body]
    stops = [
        i.rhs
        for i in header.instrs
        if isinstance(i, ir.Compare) and i.op == "lt" and i.lhs is counter
    ]
    if len(entry) != 1 or len(stops) != 1:
        return None
    inside = {i for block in body for i in block.instrs}
    if bound in inside or stops[0] in inside:
        return None  # not invariant (any more): no split
    return dataclasses.replace(clamp, bound=bound, start=counter.incoming[entry[0]], stop=stops[0])


def _splittable(
    fn: ir.Function,
    header: ir.Block,
    body: set[ir.Block],
    loops: list,
    guards: set[ir.Value],
) -> bool:
    term = header.terminator
    if not isinstance(term, ir.Branch) or sum(s not in body for s in term.successors()) != 1:
        return False
    if len([p for p in fn.predecessors()[header] if p not in body]) != 1:
        return False
    if any(other is not header and other in body for other, _ in loops):
        return False
    instrs = [i for b in body for i in b.instrs]
    if len(instrs) > MAX_VERSIONED_INSTRUCTIONS or any(
        isinstance(i, ir.NativeCall | ir.ColdLoop) for i in instrs
    ):
        return False
    # the loop's own guards only: computed before it (an outer loop's are not its to decide)
    defined = {i for block in body for i in block.instrs}
    return not any(
        blk.terminator.cond in defined  # type: ignore[union-attr]
        for blk in _guarded_blocks(body, guards)
    )


def _guarded_blocks(body: set[ir.Block], guards: set[ir.Value]) -> list[ir.Block]:
    """The blocks of `body` that end by branching on a guard."""
    return [b for b in body if isinstance(b.terminator, ir.Branch) and b.terminator.cond in guards]


def _split(
    fn: ir.Function,
    header: ir.Block,
    body: set[ir.Block],
    clamps: list[Clamp],
    guards: set[ir.Value],
) -> None:
    (entry,) = [p for p in fn.predecessors()[header] if p not in body]
    guarded = _guarded_blocks(body, guards)
    (exit_,) = [s for s in header.successors() if s not in body]
    start, stop = clamps[0].start, clamps[0].stop
    # the middle range [first, last): every clamp lets its value through
    bounds = fn.new_block("split")
    b = LowBuilder(fn)
    b.position(bounds)
    first = start
    last = stop
    for clamp in clamps:
        if clamp.lower:  # max(i + d, k) == i + d  <=>  i >= k - d
            first = _larger(b, first, _minus(b, clamp.bound, clamp.offset))
        else:  # min(i + d, k) == i + d  <=>  i < k - d + 1
            last = _smaller(b, last, _minus(b, clamp.bound, clamp.offset - 1))
    first = _smaller(b, first, stop)
    last = _larger(b, last, first)
    if guarded:  # a guard fails: the first loop, checked, runs every iteration
        holds = all_hold(b, guarded)
        first = b.select(holds, first, stop)
        last = b.select(holds, last, stop)
    bounds.terminator = ir.Jump(header)
    entry.terminator.replace_successor(header, bounds)  # type: ignore[union-attr]
    for phi in header.phis():
        phi.incoming = {(bounds if p is entry else p): v for p, v in phi.incoming.items()}
    middle = LoopCopy(fn, header, body, "middle")
    rest = LoopCopy(fn, header, body, "rest")
    # chain the three: header -> middle's header -> rest's header -> the loop's exit; each
    # loop starts from the values the one before it left with
    middle_head, rest_head = middle.blocks[header], rest.blocks[header]
    header.terminator.replace_successor(exit_, middle_head)  # type: ignore[union-attr]
    middle_head.terminator.replace_successor(exit_, rest_head)  # type: ignore[union-attr]
    for phi in list(header.phis()):
        in_middle, in_rest = middle.values[phi], rest.values[phi]
        assert isinstance(in_middle, ir.Phi) and isinstance(in_rest, ir.Phi)
        in_middle.incoming.pop(bounds)
        in_middle.incoming[header] = phi
        in_rest.incoming.pop(bounds)
        in_rest.incoming[middle_head] = in_middle
    for phi in exit_.phis():
        phi.incoming.pop(header, None)
        phi.incoming.pop(middle_head, None)
    _bound_by(header, stop, first)
    _bound_by(middle_head, stop, last)
    for clamp in clamps:  # in the middle, the clamped value is the shifted one
        clamped = middle.values.get(clamp.call)
        shifted = middle.values.get(clamp.shifted, clamp.shifted)
        for block in middle.blocks.values():
            for instr in block.instrs:
                if clamped is not None and clamped in instr.operands():
                    instr.replace_operand(clamped, shifted)
    for original in guarded:
        middle.blocks[original].take_branch(True)  # the middle skips the guarded checks
        rest.blocks[original].take_branch(False)
        original.take_branch(False)
    mark_cold(fn, header)
    mark_cold(fn, rest_head)
    if guarded:
        fn.remove_unreachable_blocks()
    repair_uses_after(fn, middle, rest)


def _bound_by(header: ir.Block, stop: ir.Value, bound: ir.Value) -> None:
    """The loop at `header` runs while its counter is below `bound` instead of `stop`."""
    for instr in header.instrs:
        if isinstance(instr, ir.Compare) and stop in instr.operands():
            instr.replace_operand(stop, bound)


def _minus(b: LowBuilder, k: ir.Value, c: int) -> ir.Value:
    """k - c, saturated to int64's range (c is a constant)."""
    constant = ir.Const(c, type=T.I64)
    difference = b.binop("sub", k, constant)
    overflow = b.intrinsic("ssub_overflows", [k, constant], T.BOOL)
    limit = ir.Const(-(2**63) if c > 0 else 2**63 - 1, type=T.I64)
    return b.select(overflow, limit, difference)


def _larger(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    return b.select(b.cmp("gt", x, y), x, y)


def _smaller(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    return b.select(b.cmp("lt", x, y), x, y)
