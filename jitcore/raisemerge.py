"""One block per distinct way of raising: the last step of `lower`.

Every check that can fail (an index out of range, a domain error, a division by zero) gets a
block of its own that releases the references live there and raises. In a kernel holding a few
arrays those blocks are identical: the same releases (each one an atomic decrement, a test and a
call in LLVM), the same exception and message. nbody_step had 29 of them, a third of its LLVM
IR, which LLVM optimized and compiled one by one before merging them itself at the very end.
Merging them here, while the IR is small, costs a dictionary lookup per block.

Two blocks are the same when neither has phis, both only release references (the same values,
in any order: releasing one reference never depends on another) and both raise the same
exception class with the same message. `codegen` lowers a `raise` to a return of the
exception's constant descriptor and nothing else, so the merged block behaves as each did.
"""

from __future__ import annotations

from jitcore.ir import nodes as ir


def merge_identical_raises(fn: ir.Function) -> bool:
    """Redirect every jump to a raising block to the first block identical to it, and drop the
    copies. True if anything changed."""
    first: dict[tuple[object, ...], ir.Block] = {}
    copies: dict[ir.Block, ir.Block] = {}
    for block in fn.blocks[1:]:
        key = _raise_key(block)
        if key is None:
            continue
        kept = first.setdefault(key, block)
        if kept is not block:
            copies[block] = kept
    if not copies:
        return False
    for block in fn.blocks:
        term = block.terminator
        if term is None:
            continue
        for succ in term.successors():
            if succ in copies:
                term.replace_successor(succ, copies[succ])
    fn.blocks = [block for block in fn.blocks if block not in copies]
    return True


def _raise_key(block: ir.Block) -> tuple[object, ...] | None:
    term = block.terminator
    if not isinstance(term, ir.Raise):
        return None
    if not all(isinstance(instr, ir.Decref) for instr in block.instrs):
        return None
    released = sorted(id(instr.value) for instr in block.instrs)  # type: ignore[attr-defined]
    return (term.exc, term.message, *released)
