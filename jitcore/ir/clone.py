"""Copying a function's IR (for the inliner) or some of its blocks (`ir.loopcopy`): new blocks
and instructions, the same constants, types and implementations."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import cast

from jitcore.ir import nodes as ir


def clone_function(fn: ir.Function) -> ir.Function:
    """A deep copy of `fn`'s blocks and instructions (arguments included)."""
    blocks = {b: ir.Block(b.label) for b in fn.blocks}
    values: dict[ir.Value, ir.Value] = {a: dataclasses.replace(a) for a in fn.args}
    copy_blocks(fn.blocks, blocks, values)
    out = ir.Function(
        fn.name,
        [cast(ir.Arg, values[a]) for a in fn.args],
        [blocks[b] for b in fn.blocks],
        fn.return_type,
        fn.loc,
        fn.python_result,
    )
    out.exc_regions = {  # `try` parts (ssa_try), on the copies
        blocks[b]: (values.get(m, m) if m is not None else None)  # type: ignore[misc]
        for b, m in fn.exc_regions.items()
        if b in blocks
    }
    return out


def copy_blocks(
    blocks: list[ir.Block],
    new_blocks: dict[ir.Block, ir.Block],
    values: dict[ir.Value, ir.Value],
    name: Callable[[ir.Instr], str] | None = None,
) -> None:
    """Copy the instructions and terminators of `blocks` into `new_blocks[b]`. Operands map
    through `values` (given ones, such as arguments, and each instruction's copy, added here)
    and blocks through `new_blocks`; anything else is shared (a loop copy's entry and exits).
    `name`: a new SSA name for each copy (copies in the same function need their own)."""
    for block in blocks:
        for instr in block.instrs:
            copy = copy_instr(instr)
            if name is not None:
                copy.name = name(instr)
            values[instr] = copy
    for block in blocks:
        new_block = new_blocks[block]
        for instr in block.instrs:
            copy = cast(ir.Instr, values[instr])
            if isinstance(copy, ir.Phi):
                copy.incoming = {
                    new_blocks.get(p, p): values.get(v, v)
                    for p, v in instr.incoming.items()  # type: ignore[attr-defined]
                }
            else:
                for op in set(instr.operands()):
                    if op in values:
                        copy.replace_operand(op, values[op])
            new_block.instrs.append(copy)
        new_block.terminator = clone_terminator(block.terminator, new_blocks, values)  # type: ignore[arg-type]


def copy_instr(instr: ir.Instr) -> ir.Instr:
    """A shallow copy whose operand lists and dicts are its own: a pass that edits a list in
    place (`call.args[0] = ...`) must not change the copy."""
    copy = dataclasses.replace(instr)
    for name in instr._operand_fields():
        current = getattr(copy, name)
        if isinstance(current, list | dict):
            setattr(copy, name, type(current)(current))
    return copy


def clone_terminator(term: ir.Terminator, blocks: dict, values: dict) -> ir.Terminator:
    copy = dataclasses.replace(term)
    for old, new in blocks.items():
        copy.replace_successor(old, new)
    for op in term.operands():
        if op in values:
            copy.replace_operand(op, values[op])
    return copy
