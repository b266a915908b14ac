"""Constant folding and propagation: operations on constants become constants, and a branch
on a constant becomes a jump (the untaken edge is removed, with its phi inputs).

Requires typed SSA; preserves types. Folds only operations whose compiled result is certain to
equal the value computed here (wrapping ints, IEEE floats); anything that could raise is left
for run time, so `1 // 0` still raises ZeroDivisionError when executed. Float division and
`math.sqrt` fold too (IEEE rounds both correctly, so Python's result is the machine's): `sqrt(2 /
pi)` in an array expression is then a constant, and the elementwise loops on either side of it
fuse (`optimize.fusion` does not move a loop past a call that may raise).
    `t1 = add 2 3 : i64; return t1`  ->  `return 5`
    `br True a b`  ->  `jump a`
"""

from __future__ import annotations

import math
import operator
from typing import cast

import numpy as np

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.coerce import convert_const
from jitcore.ir.markers import MISSING

_INT_OPS = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "and": operator.and_,
    "or": operator.or_,
    "xor": operator.xor,
}
_FLOAT_OPS = {"add": operator.add, "sub": operator.sub, "mul": operator.mul}


def fold_constants(fn: ir.Function) -> bool:
    changed_any = False
    changed = True
    while changed:
        changed = False
        for block in fn.blocks:
            for instr in list(block.instrs):
                value = _fold(instr)
                if value is not MISSING:
                    block.instrs.remove(instr)
                    fn.replace_all_uses(instr, ir.Const(value, type=instr.type))
                    changed = True
            term = block.terminator
            if isinstance(term, ir.Branch) and isinstance(term.cond, ir.Const):
                block.take_branch(term.cond.value)
                changed = True
        if changed:
            fn.remove_unreachable_blocks()
            changed_any = True
    return changed_any


def _const(v: ir.Value) -> object:
    if isinstance(v, ir.Const) and v.value is not MISSING:
        return v.value
    return MISSING


def _fold(instr: ir.Instr) -> object:
    t = instr.type
    if not isinstance(t, T.Scalar):
        return MISSING
    if isinstance(instr, ir.Call):
        return _fold_sqrt(instr)
    ops = instr.operands()
    values = [_const(v) for v in ops]
    if not ops or any(v is MISSING for v in values):
        return MISSING
    if not all(isinstance(v.type, T.Scalar) for v in ops):
        return MISSING
    match instr:
        case ir.Cast(value=v):
            if v.type.is_float and t.kind in "iu":  # type: ignore[union-attr]
                return MISSING  # float -> int conversions are checked at run time
            if v.type.is_complex and not t.is_complex:  # type: ignore[union-attr]
                return MISSING
            return convert_const(values[0], t)
        case ir.BinOp(op="div" | "idiv") if t == T.F64:
            return _fold_division(*ops)
        case ir.BinOp(op=op):
            return _fold_binop(op, values[0], values[1], ops[0].type, t)  # type: ignore[arg-type]
        case ir.Compare(op=op) if op in ir.COMPARISONS:
            a, b = values
            if isinstance(a, complex) or isinstance(b, complex):
                return MISSING if op not in {"eq", "ne"} else ir.COMPARISONS[op](a, b)
            return bool(ir.COMPARISONS[op](a, b))
        case ir.UnaryOp(op="neg"):
            return convert_const(-values[0], t)  # type: ignore[operator]
        case ir.UnaryOp(op="truth"):
            return bool(values[0])
        case ir.UnaryOp(op="not"):
            return not values[0]
    return MISSING


def _fold_sqrt(call: ir.Call) -> object:
    """`math.sqrt` of a constant that is not negative (a negative one raises ValueError at run
    time), as a float64 constant."""
    if not (isinstance(call.func, ir.Const) and call.func.value is math.sqrt):
        return MISSING
    if call.kwargs or len(call.args) != 1 or call.type != T.F64:
        return MISSING
    x = _exact_float(call.args[0])
    if x is MISSING or not x >= 0.0:  # type: ignore[operator]
        return MISSING
    return math.sqrt(x)  # type: ignore[arg-type]


def _fold_division(a: ir.Value, b: ir.Value) -> object:
    """`a / b` as float64, unless `b` is zero (ZeroDivisionError at run time)."""
    x, y = _exact_float(a), _exact_float(b)
    if x is MISSING or y is MISSING or y == 0.0:
        return MISSING
    return x / y  # type: ignore[operator]


def _exact_float(v: ir.Value) -> object:
    """The constant `v` as the float64 the compiled code converts it to, when that conversion
    is exact (an int beyond 2**53 rounds, where Python computes with the exact int)."""
    value = _const(v)
    if value is MISSING or not isinstance(v.type, T.Scalar) or v.type.is_complex:
        return MISSING
    if v.type.is_float:
        return float(value) if v.type.bits == 64 else MISSING  # type: ignore[arg-type]
    if isinstance(value, bool | int) and abs(int(value)) <= 2**53:
        return float(value)
    return MISSING


def _fold_binop(op: str, a: object, b: object, operand_t: T.Scalar, t: T.Scalar) -> object:
    if op.startswith("i") and op[1:] in _INT_OPS:
        op = op[1:]
    if operand_t.kind in "iub" and t.kind in "iub" and op in _INT_OPS:
        return convert_const(_INT_OPS[op](int(a), int(b)), t)  # type: ignore[call-overload]
    if t.is_float and op in _FLOAT_OPS:
        if t.bits == 64:
            return float(_FLOAT_OPS[op](float(a), float(b)))  # type: ignore[arg-type]
        np_t = np.float32
        with np.errstate(all="ignore"):
            return float(_FLOAT_OPS[op](np_t(cast(float, a)), np_t(cast(float, b))))
    return MISSING
