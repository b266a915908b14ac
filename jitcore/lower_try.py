"""Part of stage `lower`: the raises inside a `try` go to its dispatch block.

`ssa` (`jitcore.ssa_try`) cut each `try` body into protected parts, each starting with a branch
on an `excpending` marker whose false edge reaches the dispatch block with the values the
variables have when the part starts. Once the operations are expanded, every raise is visible:
`raise` terminators (from `raise` statements and runtime checks), `reraise` of a failed kernel
call, `raisevalue` of an exception no inner handler matched. Each raise in a part becomes a jump
to the part's dispatch block carrying the exception (its descriptor pointer) and the part's
values; the placeholder edges go, and each dispatch block's `caughtexc` becomes the phi of the
exceptions that arrive. This runs before reference counting, so arrays live in a handler stay
alive on those edges and the others are released.
"""

from __future__ import annotations

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.analysis import dominators

Part = ir.Instr | None  # the `excpending` marker of a protected part, or None


def typed_parts(fn: ir.Function) -> dict[ir.Block, Part]:
    """Each typed block's protected part: as `ssa` recorded it, or for blocks the optimizer
    made (an inlined body, a loop preheader), that of their nearest recorded dominator."""
    if not fn.exc_regions:
        return {}
    idom = dominators(fn)
    parts: dict[ir.Block, Part] = {}
    for block in fn.blocks:
        b: ir.Block | None = block
        while b is not None and b not in fn.exc_regions:
            b = idom.get(b)
        parts[block] = fn.exc_regions[b] if b is not None else None
    return parts


def redirect_raises(fn: ir.Function, part_of: dict[ir.Block, Part]) -> None:
    """Send each raise of a protected part to its `try`'s dispatch block (see the module)."""
    if not fn.exc_regions:
        return
    state_of: dict[ir.Instr, ir.Block] = {}
    for block in fn.blocks:
        term = block.terminator
        if isinstance(term, ir.Branch) and isinstance(term.cond, ir.ExcPending):
            state_of[term.cond] = block
    arrivals: dict[ir.Block, dict[ir.Block, ir.Value]] = {}
    for block in list(fn.blocks):
        marker = part_of.get(block)
        if marker is None or marker not in state_of:
            continue
        value = exception_value(fn, block)
        if value is None:
            continue
        state = state_of[marker]
        dispatch = state.terminator.if_false  # type: ignore[union-attr]
        block.terminator = ir.Jump(dispatch, loc=block.terminator.loc)  # type: ignore[union-attr]
        for phi in dispatch.phis():
            phi.incoming[block] = phi.incoming[state]
        arrivals.setdefault(dispatch, {})[block] = value
    _drop_placeholders(state_of)
    _phis_of_caught(fn, arrivals)
    fn.remove_unreachable_blocks()
    fn.exc_regions.clear()


def exception_value(fn: ir.Function, block: ir.Block) -> ir.Value | None:
    """The descriptor `block` raises (appending what computes it), or None if it raises
    nothing: what a `try` dispatches on, and what a shared release block (`raisemerge`)
    raises."""
    term = block.terminator
    if isinstance(term, ir.Raise):
        desc = ir.ExcRaised(term.exc, term.message, name=fn.fresh_name("exc"), type=T.PTR)
        desc.loc = term.loc
        block.instrs.append(desc)
        return desc
    if isinstance(term, ir.Reraise):
        status = ir.CallStatus(term.call, name=fn.fresh_name("exc"), type=T.PTR, loc=term.loc)
        block.instrs.append(status)
        return status
    if isinstance(term, ir.RaiseValue):
        return term.value
    return None


def _drop_placeholders(state_of: dict[ir.Instr, ir.Block]) -> None:
    for state in state_of.values():
        branch = state.terminator
        assert isinstance(branch, ir.Branch)
        for phi in branch.if_false.phis():
            phi.incoming.pop(state, None)
        state.terminator = ir.Jump(branch.if_true, loc=branch.loc)
    for state in state_of.values():
        state.instrs = [i for i in state.instrs if not isinstance(i, ir.ExcPending)]


def _phis_of_caught(fn: ir.Function, arrivals: dict[ir.Block, dict[ir.Block, ir.Value]]) -> None:
    """Each `caughtexc` becomes the phi of the exceptions arriving at its block. An arriving
    exception may itself be another `try`'s `caughtexc` (`raise e` or a bare `raise` inside a
    nested `try` of a handler), so every phi is made before any is given its incoming values."""
    phis: dict[ir.Value, tuple[ir.Block, ir.Phi]] = {}
    for block in fn.blocks:
        for instr in list(block.instrs):
            if isinstance(instr, ir.ExcPending):
                block.instrs.remove(instr)  # a marker whose branch an optimization removed
            if not isinstance(instr, ir.CaughtExc):
                continue
            phi = ir.Phi({}, name=instr.name, type=T.PTR)
            phi.loc = instr.loc
            block.instrs.remove(instr)
            block.instrs.insert(0, phi)
            phis[instr] = (block, phi)
    for caught, (block, phi) in phis.items():
        phi.incoming = {
            pred: phis[value][1] if value in phis else value
            for pred, value in arrivals.get(block, {}).items()
        }
        fn.replace_all_uses(caught, phi)
