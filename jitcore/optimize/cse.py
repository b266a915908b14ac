"""Common subexpression elimination: an operation identical to one that dominates it reuses
that result.

Requires typed SSA; preserves the CFG and types. Only operations without side effects whose
result depends on nothing but their operands (no memory reads) are candidates.
    `t1 = mul a b : f64; t2 = mul a b : f64; t3 = add t1 t2`  ->  `t3 = add t1 t1`
"""

from __future__ import annotations

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.analysis import dominator_tree


def eliminate_common_subexpressions(fn: ir.Function) -> bool:
    tree = dominator_tree(fn)
    changed = False
    available: list[dict[tuple, ir.Instr]] = [{}]
    replacements: dict[ir.Instr, ir.Instr] = {}

    def lookup(key: tuple) -> ir.Instr | None:
        for scope in reversed(available):
            if key in scope:
                return scope[key]
        return None

    def visit(block: ir.Block) -> None:
        nonlocal changed
        available.append({})
        for instr in list(block.instrs):
            for op in instr.operands():
                if op in replacements:
                    instr.replace_operand(op, replacements[op])  # type: ignore[index]
            key = _key(instr)
            if key is None:
                continue
            found = lookup(key)
            if found is None:
                available[-1][key] = instr
            else:
                block.instrs.remove(instr)
                replacements[instr] = found
                changed = True
        if block.terminator is not None:
            for op in block.terminator.operands():
                if op in replacements:
                    block.terminator.replace_operand(op, replacements[op])  # type: ignore[index]
        for child in tree.get(block, []):
            visit(child)
        available.pop()

    visit(fn.entry)
    if replacements:
        for block in fn.blocks:  # phis may use values from blocks visited later
            for instr in block.instrs:
                for op in instr.operands():
                    if op in replacements:
                        instr.replace_operand(op, replacements[op])  # type: ignore[index]
    return changed


def _operand_key(v: ir.Value) -> object:
    if isinstance(v, ir.Const):
        return ("const", repr(v.value), v.type)
    return id(v)


def _key(instr: ir.Instr) -> tuple | None:
    if instr.has_side_effects or isinstance(instr, ir.Phi):
        return None
    if isinstance(instr, ir.GetAttr) and isinstance(instr.obj.type, T.Array):
        if instr.attr in {"shape", "size", "ndim", "strides"}:  # fixed for an array value
            return (ir.GetAttr, instr.attr, id(instr.obj))
        return None
    if not all(isinstance(op.type, T.Scalar | T.Tuple) for op in instr.operands()):
        return None
    if not isinstance(instr.type, T.Scalar | T.Tuple):
        return None
    operands = tuple(_operand_key(v) for v in instr.operands())
    match instr:
        case ir.BinOp(op=op) | ir.UnaryOp(op=op) | ir.Compare(op=op):
            return (type(instr), op, operands, instr.type)
        case ir.Cast() | ir.MakeTuple() | ir.Select():
            return (type(instr), operands, instr.type)
        case ir.GetItem():
            return (type(instr), operands, instr.type)
        case ir.Intrinsic(fn=fn):
            return (type(instr), fn, operands, instr.type)
    return None
