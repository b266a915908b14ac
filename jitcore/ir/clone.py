"""Copying a function's IR (for the inliner): new blocks and instructions, the same constants,
types and implementations."""

from __future__ import annotations

import dataclasses
from typing import cast

from jitcore.ir import nodes as ir


def clone_function(fn: ir.Function) -> ir.Function:
    """A deep copy of `fn`'s blocks and instructions (arguments included)."""
    blocks = {b: ir.Block(b.label) for b in fn.blocks}
    values: dict[ir.Value, ir.Value] = {a: dataclasses.replace(a) for a in fn.args}
    for block in fn.blocks:
        for instr in block.instrs:
            values[instr] = copy_instr(instr)
    for block in fn.blocks:
        new_block = blocks[block]
        for instr in block.instrs:
            copy = values[instr]
            assert isinstance(copy, ir.Instr)
            if isinstance(copy, ir.Phi):
                copy.incoming = {blocks[p]: values.get(v, v) for p, v in instr.incoming.items()}  # type: ignore[attr-defined]
            else:
                for op in set(instr.operands()):
                    if op in values:
                        copy.replace_operand(op, values[op])
            new_block.instrs.append(copy)
        new_block.terminator = clone_terminator(block.terminator, blocks, values)  # type: ignore[arg-type]
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
