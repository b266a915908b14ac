"""Loop versioning for guarded checks: an unchecked fast loop and a cold checked copy.

Run by `lower` on low IR, after reference counting. A bounds or domain check that a loop-invariant
guard can decide (`optimize.guards`, `optimize.domainguards`) is lowered as

    br guard, skip, check        (inside the loop; `guard` is computed before it)

This pass makes the choice once, before the loop, and gives each outcome its own loop:

    version:  br (guard1 and guard2 ...), header, header.checked
    header ...          the original loop: every guard branch jumps to `skip`
    header.checked ...  a copy: every guard branch jumps to `check`; `coldloop` marks it

The copy runs only when some index of some iteration may be out of range (the loop will raise,
or an index wraps), so codegen asks LLVM not to vectorize, interleave or unroll it, and calls
the C library's maths functions there (`codegen.loopid`). Before this pass LLVM's loop
unswitching made the same two copies from the invariant branches, but optimized both alike:
two vectorized loops (with their remainder loops) where one is needed. On `gelu_loop` that was
a fifth of the first call (55 -> 45 ms; issue 17).

Which loops get versions is `_verdict`'s: innermost loops of at most
`MAX_VERSIONED_INSTRUCTIONS` that LLVM could vectorize. Outer loops and loops calling other
kernels make their checks inline instead: the guard saves nothing there, and LLVM's unswitching
used to copy them for it (a whole nest, for an outer loop). Other loops keep their guard
branches for LLVM's unswitching to weigh.

A loop whose fast version has no checks left and whose indices are clamped to the loop's range
(`a[max(i - 1, 0)]`, `a[min(i + 1, n - 1)]`: a conditional move, which does not vectorize) is
then split by index sets (`split_clamped_loops`): the iterations before every `max` lets its
value through, those where no clamp is active (there the index is `i - 1`: consecutive
elements), and the rest, as three loops in a row; the first and last are cold copies.

Values the loop defines and code after it uses get phis where the two versions meet
(`_Reaching`: Braun et al.'s on-demand SSA construction, restricted to one value).
Results and errors are unchanged: a check the fast loop skips is one its guard proved could not
fire, and the checked copy does exactly what the loop did before.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.analysis import dominators, natural_loops
from jitcore.ir.builder import LowBuilder
from jitcore.ir.clone import clone_terminator, copy_instr
from jitcore.optimize.bce import source
from jitcore.optimize.guards import BoundsGuards, CountedLoop

# A function with more loops to version than this keeps the rest as they are (LLVM unswitches
# those as before): each versioning copies a loop, and a generated function can have hundreds.
MAX_VERSIONED_LOOPS = 32
# Loops larger than this (low-IR instructions) keep their guard branches, and LLVM's loop
# unswitching decides (it weighs its own cost threshold, `llvm_opt.UNSWITCH_THRESHOLD`):
# `gelu_loop`'s loop has 38, `nbody_step`'s inner loop 149.
MAX_VERSIONED_INSTRUCTIONS = 100
# Loops carrying a float sum up to this size keep their guard branch: LLVM's check-free copy of
# them is unrolled (`dot_loop`'s loop has 33 low-IR instructions, `matmul`'s innermost 46).
MAX_UNROLLED_INSTRUCTIONS = 60


def version_guarded_loops(
    fn: ir.Function,
    guards: set[ir.Value],
    float_sums_vectorize: bool = False,
    clamps: list[Clamp] | None = None,
) -> None:
    """Decide every guard branch (`guards`: the guard values `lower` made) by its loop's
    `_verdict`: version the loop, check inline, or keep the branch for LLVM; then split the
    loops with clamped indices (`clamps`, low IR) whose fast version has no checks left.
    `float_sums_vectorize`: fast-math, where LLVM may reorder a loop's float sum."""
    if guards and _branches_on(fn, guards):
        _decide_guards(fn, guards, float_sums_vectorize)
    if clamps:
        split_clamped_loops(fn, clamps, guards)


def _decide_guards(fn: ir.Function, guards: set[ir.Value], float_sums_vectorize: bool) -> None:
    rejected: set[ir.Block] = set()  # loops without a single entry edge
    for _ in range(MAX_VERSIONED_LOOPS):
        found = [
            (header, body, branches)
            for header, body, branches, verdict in _guarded_loops(fn, guards, float_sums_vectorize)
            if verdict == "version" and header not in rejected
        ]
        if not found:
            break
        header, body, branches = found[0]
        if not _version(fn, header, body, branches, guards):
            rejected.add(header)
    checked = False
    for _, _, branches, verdict in _guarded_loops(fn, guards, float_sums_vectorize):
        if verdict == "check":
            for block in branches:
                block.take_branch(False)
                checked = True
    if checked:
        fn.remove_unreachable_blocks()


def _branches_on(fn: ir.Function, guards: set[ir.Value]) -> bool:
    return any(
        isinstance(b.terminator, ir.Branch) and b.terminator.cond in guards for b in fn.blocks
    )


def _guarded_loops(
    fn: ir.Function, guards: set[ir.Value], float_sums_vectorize: bool
) -> list[tuple[ir.Block, set[ir.Block], list[ir.Block], str]]:
    """(header, body, the blocks ending in a branch on one of its guards, `_verdict`) of each
    loop that owns a guard branch, innermost first. A guard belongs to the outermost loop that
    holds its branch but not its definition (the loop whose preheader computed it)."""
    idom = dominators(fn)
    loops = natural_loops(fn, idom)  # outermost first
    defined_in: dict[ir.Value, ir.Block] = {
        instr: block for block in fn.blocks for instr in block.instrs
    }
    owned: dict[ir.Block, list[ir.Block]] = {}
    for block in fn.blocks:
        term = block.terminator
        if not isinstance(term, ir.Branch) or term.cond not in guards:
            continue
        where = defined_in.get(term.cond)
        for header, body in loops:
            if block in body and where not in body:
                owned.setdefault(header, []).append(block)
                break
    return [
        (header, body, owned[header], _verdict(header, body, loops, float_sums_vectorize))
        for header, body in reversed(loops)  # innermost last in `loops`
        if header in owned
    ]


def _verdict(
    header: ir.Block, body: set[ir.Block], loops: list, float_sums_vectorize: bool
) -> str:
    """What to do with a loop's guard branches:

    - "check" (make the checks inline, no guard): a loop holding other loops (its checks run
      once per iteration of the inner ones), and a loop calling another kernel (a call costs
      more than a check). LLVM's unswitching used to copy them for the guard, a whole loop
      nest for an outer loop, at a cost in compile time and no gain in speed: `matmul`'s first
      call took 62 ms instead of 54.
    - "version": an innermost loop LLVM could vectorize: at most `MAX_VERSIONED_INSTRUCTIONS`
      and no float carried from one iteration to the next (a sum in Python's order, which LLVM
      keeps without fast-math).
    - "keep" (the branch, for LLVM's unswitching to weigh): a small loop carrying a float
      sum (at most `MAX_UNROLLED_INSTRUCTIONS`), and a large loop without one. A float sum
      does not vectorize, but a small loop's check-free copy is unrolled: a short window sum
      (`for k in range(m): s += a[i + k]`) checked inline ran 27% slower, and versioned here
      `dot_loop` compiled 10% slower than LLVM's own copy.
    - "check" again: a larger loop carrying a float sum, which LLVM neither vectorizes nor
      unrolls; unswitched, `nbody_step`'s inner loop doubled the machine code (first call 108
      ms; 86 checked inline, at the same speed).
    """
    if any(other is not header and other in body for other, _ in loops):
        return "check"
    if any(isinstance(i, ir.NativeCall) for b in body for i in b.instrs):
        # besides, code after the loop names such a call itself (a `reraise` of its
        # exception), which no phi could merge
        return "check"
    size = sum(len(b.instrs) for b in body)
    if not float_sums_vectorize and any(
        isinstance(phi.type, T.Scalar) and phi.type.kind in "fc" for phi in header.phis()
    ):
        return "keep" if size <= MAX_UNROLLED_INSTRUCTIONS else "check"
    return "keep" if size > MAX_VERSIONED_INSTRUCTIONS else "version"


def _version(
    fn: ir.Function,
    header: ir.Block,
    body: set[ir.Block],
    branches: list[ir.Block],
    guards: set[ir.Value],
) -> bool:
    """Version the loop `header` (`body`); False (nothing changed) if it has no single
    entry edge."""
    outside = [p for p in fn.predecessors()[header] if p not in body]
    if len(outside) != 1:
        return False
    (entry,) = outside
    conds = list(dict.fromkeys(b.terminator.cond for b in branches))  # type: ignore[union-attr]
    copy = _LoopCopy(fn, header, body)
    choose = fn.new_block("version")
    all_hold = conds[0]
    for cond in conds[1:]:
        all_hold = _and(fn, choose, all_hold, cond)
    choose.terminator = ir.Branch(all_hold, header, copy.blocks[header])
    entry.terminator.replace_successor(header, choose)  # type: ignore[union-attr]
    for h in (header, copy.blocks[header]):
        for phi in h.phis():
            phi.incoming = {(choose if p is entry else p): v for p, v in phi.incoming.items()}
    for original, block in copy.blocks.items():  # the copy makes every check
        term = original.terminator
        if isinstance(term, ir.Branch) and term.cond in guards:
            block.take_branch(False)
    for block in branches:  # the fast loop skips its own guarded checks
        block.take_branch(True)
    fn.remove_unreachable_blocks()
    _mark_cold_loops(fn, set(copy.blocks.values()))
    _repair_uses_after(fn, copy)
    return True


def _and(fn: ir.Function, block: ir.Block, a: ir.Value, b: ir.Value) -> ir.Value:
    instr = ir.BinOp("and", a, b, name=fn.fresh_name("t"), type=T.BOOL)
    block.instrs.append(instr)
    return instr


class _LoopCopy:
    """A copy of a loop's blocks in the same function, entered nowhere yet. Edges leaving the
    loop leave the copy too: phis of the blocks they reach get an input from the copy."""

    def __init__(self, fn: ir.Function, header: ir.Block, body: set[ir.Block]) -> None:
        self.fn = fn
        ordered = [b for b in fn.blocks if b in body]
        self.blocks: dict[ir.Block, ir.Block] = {
            b: fn.new_block(f"{_base(b.label)}.checked") for b in ordered
        }
        self.values: dict[ir.Value, ir.Value] = {}
        for block in ordered:
            for instr in block.instrs:
                copy = copy_instr(instr)
                copy.name = fn.fresh_name(_base(instr.name))
                self.values[instr] = copy
        for block in ordered:
            new = self.blocks[block]
            for instr in block.instrs:
                copy = cast(ir.Instr, self.values[instr])
                if isinstance(copy, ir.Phi):
                    copy.incoming = {
                        self.blocks.get(p, p): self.values.get(v, v)
                        for p, v in instr.incoming.items()  # type: ignore[attr-defined]
                    }
                else:
                    for op in set(instr.operands()):
                        if op in self.values:
                            copy.replace_operand(op, self.values[op])
                new.instrs.append(copy)  # type: ignore[arg-type]
            new.terminator = clone_terminator(block.terminator, self.blocks, self.values)  # type: ignore[arg-type]
            for succ in block.successors():
                if succ not in body:  # an exit: its phis hear from the copy as well
                    for phi in succ.phis():
                        if block in phi.incoming:
                            v = phi.incoming[block]
                            phi.incoming[new] = self.values.get(v, v)
        self.body = body


def _base(name: str) -> str:
    """The stem of an SSA name or label, for a fresh one (`t12` -> `t`, `x.3` -> `x`)."""
    if re.fullmatch(r"t\d+", name):
        return "t"
    return name.split(".")[0] or "t"


def _mark_cold_loops(fn: ir.Function, blocks: set[ir.Block]) -> None:
    """A `coldloop` at the head of the loop among `blocks` (the checked copy)."""
    for header, _ in natural_loops(fn):
        if header in blocks and not any(isinstance(i, ir.ColdLoop) for i in header.instrs):
            at = len(list(header.phis()))
            header.instrs.insert(at, ir.ColdLoop(name=fn.fresh_name("cold"), type=T.NONE))


def _repair_uses_after(fn: ir.Function, copy: _LoopCopy, *more: _LoopCopy) -> None:
    """Uses after the loop of a value it defines take the value of whichever copy ran: a
    phi where the copies' paths meet."""
    copies = (copy, *more)
    inside = set(copy.body).union(*(set(c.blocks.values()) for c in copies))
    uses: dict[ir.Value, list[tuple[ir.Block, ir.Instr | ir.Terminator]]] = {}
    for block in fn.blocks:
        if block in inside:
            continue
        for instr in block.instrs:
            if isinstance(instr, ir.Phi):
                continue  # below: a phi uses a value at the end of the block it comes from
            for op in instr.operands():
                if op in copy.values:
                    uses.setdefault(op, []).append((block, instr))
        term = block.terminator
        if term is not None:
            for op in term.operands():
                if op in copy.values:
                    uses.setdefault(op, []).append((block, term))
    for block in fn.blocks:  # phi inputs arriving from outside the loop
        for phi in block.phis():
            for pred, v in phi.incoming.items():
                if v in copy.values and pred not in inside:
                    uses.setdefault(v, []).append((block, phi))
    if not uses:
        return
    preds = fn.predecessors()
    defined_in: dict[ir.Value, ir.Block] = {
        instr: block for block in fn.blocks for instr in block.instrs
    }
    for value, sites in uses.items():
        # a definition may have become unreachable (a check the fast loop skips)
        versions = [value, *(c.values[value] for c in copies)]
        defs = {defined_in[v]: v for v in versions if v in defined_in}
        if not defs:
            continue  # then so did its uses
        reaching = _Reaching(fn, preds, defs)
        for block, user in sites:
            if isinstance(user, ir.Phi):
                user.incoming = {
                    p: (reaching.at_end(p) if v is value and p not in inside else v)
                    for p, v in user.incoming.items()
                }
            else:
                user.replace_operand(value, reaching.at_start(block))
        reaching.finish()


class _Reaching:
    """Which definition of one value reaches each block, making phis where several do (the
    on-demand construction of Braun et al., "Simple and Efficient Construction of Static
    Single Assignment Form", for one variable whose definitions are given)."""

    def __init__(
        self,
        fn: ir.Function,
        preds: dict[ir.Block, list[ir.Block]],
        available: dict[ir.Block, ir.Value],
    ) -> None:
        self.fn = fn
        self.preds = preds
        self.available = dict(available)  # block -> the value at its end
        self.at_entry: dict[ir.Block, ir.Value] = {}
        self.pending: list[tuple[ir.Block, ir.Phi]] = []
        self.value_type = next(iter(available.values())).type

    def at_end(self, block: ir.Block) -> ir.Value:
        found = self.available.get(block)
        return found if found is not None else self.at_start(block)

    def at_start(self, block: ir.Block) -> ir.Value:
        chain = []
        while block not in self.at_entry:
            ps = self.preds[block]
            if len(ps) == 1 and ps[0] not in self.available:
                chain.append(block)
                block = ps[0]
                continue
            if len(ps) == 1:
                self.at_entry[block] = self.available[ps[0]]
                break
            phi = ir.Phi({}, name=self.fn.fresh_name("versions"), type=self.value_type)
            block.instrs.insert(0, phi)
            self.at_entry[block] = phi
            self.pending.append((block, phi))
            break
        value = self.at_entry[block]
        for b in chain:
            self.at_entry[b] = value
        return value

    def finish(self) -> None:
        """Fill in the inputs of the phis made (which may make more)."""
        while self.pending:
            block, phi = self.pending.pop()
            phi.incoming = {p: self.at_end(p) for p in self.preds[block]}


# --- index-set splitting of loops with clamped indices ------------------------------------


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
        isinstance(v, ir.BinOp) and v.lhs is loop.counter and _is_one(source(v.rhs))
        for p, v in loop.counter.incoming.items()
        if p in loop.all_blocks
    )


def _is_one(v: ir.Value) -> bool:
    return isinstance(v, ir.Const) and type(v.value) is int and v.value == 1


def _clamp(
    instr: ir.Instr, loop: CountedLoop, bounds: BoundsGuards
) -> tuple[ir.Value, ir.Value, int, bool] | None:
    """(i + d, k, d, is max) when `instr` is `max(i + d, k)` / `min(i + d, k)` (either order)."""
    if not (isinstance(instr, ir.Call) and instr.type == T.I64 and len(instr.args) == 2):
        return None
    func = instr.func
    if not isinstance(func, ir.Const) or func.value not in (min, max) or instr.kwargs:
        return None
    for shifted, bound in (instr.args, instr.args[::-1]):
        offset = _offset_from(shifted, loop.counter)
        if offset is not None and bound.type == T.I64 and bounds.invariant(bound, loop):
            return shifted, bound, offset, func.value is max
    return None


def _offset_from(v: ir.Value, counter: ir.Value) -> int | None:
    """d when `v` is `counter + d` or `counter - d` for a small constant d."""
    if v is counter:
        return 0
    if not (isinstance(v, ir.BinOp) and v.lhs is counter and v.op in ("add", "sub")):
        return None
    c = source(v.rhs)
    if not isinstance(c, ir.Const) or type(c.value) is not int or abs(c.value) > 2**32:
        return None
    return c.value if v.op == "add" else -c.value


def split_clamped_loops(fn: ir.Function, clamps: list[Clamp], guards: set[ir.Value]) -> None:
    """Run each innermost loop with clamped indices, and no checks left to make, as three:
    the iterations before every lower clamp lets go, those where no clamp is active (there
    `max(i - 1, 0)` is `i - 1`: consecutive elements, which vectorize), and the rest. The
    first and last are cold copies (a few iterations, usually)."""
    by_header: dict[ir.Block, list[Clamp]] = {}
    for clamp in clamps:
        by_header.setdefault(clamp.header, []).append(clamp)
    for header, found in by_header.items():
        loops = natural_loops(fn)
        body = next((b for h, b in loops if h is header), None)
        if body is None or not _splittable(fn, header, body, loops, guards):
            continue
        _split(fn, header, body, found)


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
    return not any(
        isinstance(b.terminator, ir.Branch) and b.terminator.cond in guards for b in body
    )


def _split(fn: ir.Function, header: ir.Block, body: set[ir.Block], clamps: list[Clamp]) -> None:
    (entry,) = [p for p in fn.predecessors()[header] if p not in body]
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
    bounds.terminator = ir.Jump(header)
    entry.terminator.replace_successor(header, bounds)  # type: ignore[union-attr]
    for phi in header.phis():
        phi.incoming = {(bounds if p is entry else p): v for p, v in phi.incoming.items()}
    middle = _LoopCopy(fn, header, body)
    rest = _LoopCopy(fn, header, body)
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
    for head in (header, rest.blocks[header]):
        at = len(list(head.phis()))
        head.instrs.insert(at, ir.ColdLoop(name=fn.fresh_name("cold"), type=T.NONE))
    _repair_uses_after(fn, middle, rest)


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
