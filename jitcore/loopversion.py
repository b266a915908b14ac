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

A fast version whose indices are clamped is then split by index sets (`jitcore.loopsplit`).

Values the loop defines and code after it uses get phis where the two versions meet
(`ir.loopcopy`).
Results and errors are unchanged: a check the fast loop skips is one its guard proved could not
fire, and the checked copy does exactly what the loop did before.
"""

from __future__ import annotations

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.analysis import dominators, natural_loops
from jitcore.ir.builder import LowBuilder
from jitcore.ir.loopcopy import LoopCopy, repair_uses_after

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
    fn: ir.Function, guards: set[ir.Value], float_sums_vectorize: bool = False
) -> None:
    """Decide every guard branch (`guards`: the guard values `lower` made) by its loop's
    `_verdict`: version the loop, check inline, or keep the branch for LLVM.
    `float_sums_vectorize`: fast-math, where LLVM may reorder a loop's float sum."""
    if not guards or not _branches_on(fn, guards):
        return
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
    copy = LoopCopy(fn, header, body)
    choose = fn.new_block("version")
    b = LowBuilder(fn)
    b.position(choose)
    choose.terminator = ir.Branch(all_hold(b, branches), header, copy.blocks[header])
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
    mark_cold(fn, copy.blocks[header])  # an innermost loop: the copy holds no other
    repair_uses_after(fn, copy)
    return True


def all_hold(b: LowBuilder, branches: list[ir.Block]) -> ir.Value:
    """At `b`: whether every guard the blocks `branches` end by branching on holds."""
    conds = list(dict.fromkeys(blk.terminator.cond for blk in branches))  # type: ignore[union-attr]
    holds = conds[0]
    for cond in conds[1:]:
        holds = b.and_(holds, cond)
    return holds


def mark_cold(fn: ir.Function, header: ir.Block) -> None:
    """A `coldloop` at the head of the loop `header` (after its phis): codegen's `loopid`
    asks LLVM not to vectorize or unroll it."""
    at = len(list(header.phis()))
    header.instrs.insert(at, ir.ColdLoop(name=fn.fresh_name("cold"), type=T.NONE))
