"""Branches decided while typing: which blocks `typeinfer` types at all.

A branch whose condition is known at compile time (`if a.ndim == 1:`, `if isinstance(x,
np.ndarray):`, `if out is None:` for an argument that is None, a module-level flag) takes one
way for every call of the specialization; the other way is dead. Typing the dead way would
reject code that is correct for the types it is written for (`x.sum()` under `if
isinstance(x, np.ndarray)` when `x` is a float), so `typeinfer` types only the blocks this
module finds live, skips phi inputs that arrive along dead edges, and afterwards `prune` turns
each decided branch into a jump and drops the dead blocks (as Numba's dead-branch pruning does).

A condition is known when it is a constant, an operation typing folded to a constant (its
`Resolved.const`), or `not`/truth/a comparison of known plain values (None, bools, ints,
floats, strings), compared with Python's own operators, which is what compiled code computes
for them.
"""

from __future__ import annotations

from jitcore.ir import nodes as ir
from jitcore.ir.markers import MISSING
from jitcore.lib.registry import Resolved

_PLAIN = (bool, int, float, str, type(None))


def known_value(v: ir.Value) -> object:
    """The value `v` has whenever it runs, if typing knows it (else MISSING)."""
    if isinstance(v, ir.Const):
        return v.value if isinstance(v.value, _PLAIN) else MISSING
    if not isinstance(v, ir.Instr) or v.type is None:
        return MISSING
    if isinstance(v.impl, Resolved) and v.impl.const is not MISSING:
        return v.impl.const if isinstance(v.impl.const, _PLAIN) else MISSING
    match v:
        case ir.UnaryOp(op="not" | "truth", operand=x):
            value = known_value(x)
            if value is MISSING:
                return MISSING
            return (not value) if v.op == "not" else bool(value)
        case ir.Compare(op=op, lhs=lhs, rhs=rhs):
            return _known_comparison(op, known_value(lhs), known_value(rhs))
    return MISSING


def _known_comparison(op: str, a: object, b: object) -> object:
    if a is MISSING or b is MISSING:
        return MISSING
    if op in ("is", "isnot") and (a is None or b is None):
        return (a is b) == (op == "is")
    if op not in ir.COMPARISONS or isinstance(a, str) != isinstance(b, str):
        return MISSING  # `"1" == 1` and friends: left to the operators' own rules
    if (a is None or b is None) and op not in ("eq", "ne"):
        return MISSING
    return bool(ir.COMPARISONS[op](a, b))


def live_successors(block: ir.Block) -> tuple[ir.Block, ...]:
    """The successors of `block` that some run can reach from it."""
    term = block.terminator
    if isinstance(term, ir.Branch):
        value = known_value(term.cond)
        if value is not MISSING:
            return (term.if_true if value else term.if_false,)
    return block.successors() if term is not None else ()


class Liveness:
    """The live blocks and the dead edges of one sweep over the blocks in reverse postorder.

    Blocks are visited in that order, so a block's forward predecessors are settled before it;
    a loop's back edge, visited after its header, counts as live until its block is reached."""

    def __init__(self, entry: ir.Block) -> None:
        self.live: set[ir.Block] = {entry}
        self.dead_edges: set[tuple[ir.Block, ir.Block]] = set()

    def is_live(self, block: ir.Block) -> bool:
        return block in self.live

    def leave(self, block: ir.Block) -> None:
        """Record where control can go from `block` (visited: typed if live, else skipped)."""
        live = live_successors(block) if block in self.live else ()
        for succ in block.successors() if block.terminator is not None else ():
            if succ in live:
                self.live.add(succ)
            else:
                self.dead_edges.add((block, succ))

    def edge_is_dead(self, pred: ir.Block, block: ir.Block) -> bool:
        return (pred, block) in self.dead_edges


def prune(fn: ir.Function) -> bool:
    """Make every decided branch a jump and drop the blocks no run reaches (with the phi
    inputs that came from them)."""
    changed = False
    for block in fn.blocks:
        term = block.terminator
        if not isinstance(term, ir.Branch):
            continue
        value = known_value(term.cond)
        if value is MISSING:
            continue
        block.take_branch(value)
        changed = True
    return fn.remove_unreachable_blocks() or changed
