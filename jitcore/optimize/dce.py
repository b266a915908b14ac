"""Dead code elimination: drop instructions whose value is never used and that cannot raise.

Requires SSA; preserves the CFG and all types.   `t = add a a : i64` with `t` unused -> removed.
An unused `a // b` stays: Python would raise ZeroDivisionError there, and so must we.
"""

from __future__ import annotations

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.lib.registry import Resolved

# Operations that never raise on scalars and tuples.
_SAFE_BINOPS = {
    "add",
    "sub",
    "mul",
    "and",
    "or",
    "xor",
    "iadd",
    "isub",
    "imul",
    "iand",
    "ior",
    "ixor",
}


def is_removable(instr: ir.Instr) -> bool:
    """True if dropping `instr` (when unused) cannot change what the function does: it has no
    side effects and cannot raise ("pure")."""
    if instr.has_side_effects:
        return False
    if isinstance(instr.impl, Resolved) and instr.impl.may_raise:
        return False
    if not all(_plain(op.type) for op in instr.operands()) or not _plain(instr.type):
        return False
    match instr:
        case ir.Phi() | ir.Cast() | ir.Compare() | ir.MakeTuple() | ir.Select() | ir.GetAttr():
            return True
        case ir.UnaryOp():
            return True
        case ir.BinOp(op=op):
            return op in _SAFE_BINOPS
        case ir.GetItem(index=index):
            return isinstance(index, ir.Const)
        case ir.Intrinsic(fn=fn):
            return fn in {
                "extract",
                "creal",
                "cimag",
                "complex",
                "fabs",
                "copysign",
                "floor",
                "ceil",
                "trunc",
                "roundeven",
                "sqrt",
                "minnum",
                "maxnum",
            }
    return False


def _plain(t: T.Type | None) -> bool:
    return isinstance(t, T.Scalar | T.Tuple | T.NoneType)


def eliminate_dead_code(fn: ir.Function) -> bool:
    """Remove dead instructions until none are left; return True if anything changed."""
    changed_any = False
    while True:
        used: set[int] = set()
        for block in fn.blocks:
            for instr in block.instrs:
                for op in instr.operands():
                    if op is not instr:
                        used.add(id(op))
            if block.terminator is not None:
                used.update(id(op) for op in block.terminator.operands())
        changed = False
        for block in fn.blocks:
            keep = [i for i in block.instrs if id(i) in used or not is_removable(i)]
            if len(keep) != len(block.instrs):
                block.instrs = keep
                changed = True
        if not changed:
            return changed_any
        changed_any = True
