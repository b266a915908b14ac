"""Inlining of small jitted callees: the callee's optimized IR replaces the call.

Requires typed SSA; preserves types. A callee is inlined when it was compiled in this process,
is small (its optimized IR is kept for this when it has at most `MAX_INSTRUCTIONS`), does not
call itself, has no `try`, and the call passes exactly its parameters by position
(`Resolved.callee_by_position`: a call of a `*args` function packs its operands into a tuple,
which a count of operands does not tell). The call's
block is split: the callee's blocks run in between, each `return v` jumps to the continuation,
where a phi of the returned values replaces the call. A `raise` in the callee raises from the
caller, which is what the call would have propagated.

    t3 = call @scale(x) : f64      ->   (scale's blocks)  ...  t3 = phi [ret.1: t7] : f64
"""

from __future__ import annotations

import itertools
from typing import Any, cast

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.clone import clone_function
from jitcore.lib.registry import Resolved

MAX_INSTRUCTIONS = 40
_counter = itertools.count(1)


def inline_small_callees(fn: ir.Function) -> bool:
    changed = False
    while True:
        site = _find_site(fn)
        if site is None:
            return changed
        block, call, callee_ir = site
        _inline(fn, block, call, callee_ir)
        changed = True


def inlinable_ir(fn: ir.Function) -> bool:
    """Is this optimized function small enough to keep for inlining?"""
    count = sum(len(b.instrs) for b in fn.blocks)
    return count <= MAX_INSTRUCTIONS


def _find_site(fn: ir.Function) -> tuple[ir.Block, ir.Call, ir.Function] | None:
    for block in fn.blocks:
        for instr in block.instrs:
            if not isinstance(instr, ir.Call) or instr.kwargs:
                continue
            impl = instr.impl
            if not isinstance(impl, Resolved) or impl.callee is None:
                continue
            if not impl.callee_by_position:  # `*args` to pack, defaults or keywords to add
                continue
            dispatcher, signature = cast(tuple[Any, Any], impl.callee)
            overload = dispatcher.overload(signature)
            if overload is None or getattr(overload.record, "inline_ir", None) is None:
                continue
            callee_ir = overload.record.inline_ir
            if _calls_itself(callee_ir, dispatcher) or _has_try(callee_ir):
                continue
            return block, instr, callee_ir
    return None


def _has_try(fn: ir.Function) -> bool:
    """Whether `fn` has `try` parts, which are its own (`lower_try`). `ssa` records every
    block it starts in `exc_regions`, unprotected ones with None: those do not count, else no
    callee with a branch or a loop would be inlined."""
    return any(marker is not None for marker in fn.exc_regions.values())


def _calls_itself(fn: ir.Function, dispatcher: object) -> bool:
    for _, instr in fn.instructions():
        impl = instr.impl
        if isinstance(impl, Resolved) and impl.callee is not None and impl.callee[0] is dispatcher:  # type: ignore[index]
            return True
    return False


def _inline(fn: ir.Function, block: ir.Block, call: ir.Call, callee_ir: ir.Function) -> None:
    body = clone_function(callee_ir)
    tag = f"inl{next(_counter)}"
    for b in body.blocks:
        b.label = f"{tag}.{b.label}"
        for instr in b.instrs:
            instr.name = fn.fresh_name(f"{tag}.{instr.name.split('.')[0] or 't'}")
    for param, arg in zip(body.args, call.args):
        for b in body.blocks:
            for instr in b.instrs:
                instr.replace_operand(param, arg)
                if isinstance(instr, ir.Phi):
                    instr.incoming = {
                        p: (arg if v is param else v) for p, v in instr.incoming.items()
                    }
            if b.terminator is not None:
                b.terminator.replace_operand(param, arg)
    # split the caller's block after the call
    index = block.instrs.index(call)
    rest = fn.new_block(f"{tag}.after")
    rest.instrs = block.instrs[index + 1 :]
    rest.terminator = block.terminator
    for succ in rest.successors():
        for phi in succ.phis():
            if block in phi.incoming:
                phi.incoming = {(rest if p is block else p): v for p, v in phi.incoming.items()}
    block.instrs = block.instrs[:index]
    block.terminator = ir.Jump(body.blocks[0], loc=call.loc)
    returns: dict[ir.Block, ir.Value] = {}
    for b in body.blocks:
        if isinstance(b.terminator, ir.Return):
            returns[b] = b.terminator.value
            b.terminator = ir.Jump(rest, loc=b.terminator.loc)
    fn.blocks.extend(body.blocks)
    if isinstance(call.type, T.NoneType) or not returns:
        result: ir.Value = ir.Const(None, type=T.NONE)
    else:
        result = ir.Phi(dict(returns), name=call.name, type=call.type, loc=call.loc)
        rest.instrs.insert(0, result)  # type: ignore[arg-type]
    fn.replace_all_uses(call, result)
