"""CFG simplification: remove unreachable blocks and merge a block into its only predecessor
when that predecessor jumps only to it.

Requires SSA; preserves types.  `a: ...; jump b`  `b: (one pred) ...`  ->  one block `a`.
Blocks of different `try` parts (`fn.exc_regions`, see `jitcore.ssa_try`) stay apart: merged,
the code after a `try` whose handler returns would raise into that handler.
"""

from __future__ import annotations

from jitcore.ir import nodes as ir


def simplify_cfg(fn: ir.Function) -> bool:
    changed = fn.remove_unreachable_blocks()
    merged = True
    while merged:
        merged = False
        preds = fn.predecessors()
        for block in fn.blocks:
            term = block.terminator
            if not isinstance(term, ir.Jump):
                continue
            succ = term.target
            if succ is block or succ is fn.entry or preds[succ] != [block]:
                continue
            if _other_part(fn, block, succ):
                continue
            for phi in list(succ.phis()):
                fn.replace_all_uses(phi, phi.incoming[block])
                succ.instrs.remove(phi)
            block.instrs.extend(succ.instrs)
            block.terminator = succ.terminator
            for nxt in succ.successors():
                for phi in nxt.phis():
                    if succ in phi.incoming:
                        phi.incoming = {
                            (block if p is succ else p): v for p, v in phi.incoming.items()
                        }
            fn.blocks.remove(succ)
            merged = changed = True
            break
    return changed


def _other_part(fn: ir.Function, block: ir.Block, succ: ir.Block) -> bool:
    """Whether `succ` was recorded in another protected part (or outside any) than `block`."""
    if succ not in fn.exc_regions or block not in fn.exc_regions:
        return False  # made by the optimizer: it belongs to its dominator's part
    return fn.exc_regions[succ] is not fn.exc_regions[block]
