"""One release path per set of live references: the last step of `lower`.

Every check that can fail (an index out of range, a domain error, a division by zero, a
callee's exception) gets a block of its own that releases the references live there and
raises. In a kernel holding a few arrays those blocks release the same references (each one
an atomic decrement, a test and a call in LLVM) and differ only in the exception. logreg_step
had 20 of them, more than half of its LLVM IR, which LLVM optimized and compiled one by one
before merging them itself at the very end. Merging them here, while the IR is small, costs a
dictionary lookup per block.

Two steps:

1. Blocks that are the same (no phis, the same releases in any order, the same exception
   class and message) become one: every jump to a copy goes to the first.
2. Raising blocks that release the same set of references share one release block: each
   computes its exception descriptor (`ExcRaised`, a callee's `CallStatus`, or the value it
   raised already) and jumps there; the shared block takes the descriptor in a phi, releases,
   and raises it (`RaiseValue`). Releasing one reference never depends on another, and every
   released value dominates each raising block, so it dominates their join as well.

`codegen` lowers a raise to a return of the exception's descriptor and nothing else, so the
shared block behaves as each raising block did.
"""

from __future__ import annotations

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.lower_try import exception_value


def merge_identical_raises(fn: ir.Function) -> bool:
    """Merge identical raising blocks, then share the releases of the rest (see the module's
    docstring). True if anything changed."""
    merged = _merge_copies(fn)
    shared = _share_releases(fn)
    return merged or shared


def _merge_copies(fn: ir.Function) -> bool:
    """Redirect every jump to a raising block to the first block identical to it, and drop the
    copies."""
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
    return (term.exc, term.message, *_released(block.instrs))


def _released(decrefs: list[ir.Instr]) -> tuple[int, ...]:
    return tuple(sorted(id(instr.value) for instr in decrefs))  # type: ignore[attr-defined]


def _share_releases(fn: ir.Function) -> bool:
    """Give raising blocks that release the same references one release block between them."""
    groups: dict[tuple[int, ...], list[tuple[ir.Block, list[ir.Instr]]]] = {}
    for block in fn.blocks[1:]:
        decrefs = _release_tail(block)
        if decrefs:
            groups.setdefault(_released(decrefs), []).append((block, decrefs))
    changed = False
    for tails in groups.values():
        if len(tails) > 1:
            _funnel(fn, tails)
            changed = True
    return changed


def _release_tail(block: ir.Block) -> list[ir.Instr]:
    """The releases a raising block ends with (none for any other block, or one with phis:
    its releases may depend on where control came from)."""
    if not isinstance(block.terminator, (ir.Raise, ir.Reraise, ir.RaiseValue)):
        return []
    if any(True for _ in block.phis()):
        return []
    tail: list[ir.Instr] = []
    for instr in reversed(block.instrs):
        if not isinstance(instr, ir.Decref):
            break
        tail.append(instr)
    tail.reverse()
    return tail


def _funnel(fn: ir.Function, tails: list[tuple[ir.Block, list[ir.Instr]]]) -> None:
    """One block releasing what each of the raising blocks releases (its tail of releases)
    and raising what it raised."""
    first, first_tail = tails[0]
    shared = fn.new_block("release")
    descriptor = ir.Phi({}, name=fn.fresh_name("exc"), type=T.PTR)
    shared.instrs = [descriptor, *first_tail]
    shared.terminator = ir.RaiseValue(descriptor, loc=first.terminator.loc)  # type: ignore[union-attr]
    for block, tail in tails:
        block.instrs = block.instrs[: len(block.instrs) - len(tail)]
        value = exception_value(fn, block)
        assert value is not None  # a raising block
        descriptor.incoming[block] = value
        block.terminator = ir.Jump(shared, loc=block.terminator.loc)  # type: ignore[union-attr]
