"""Loop-invariant code motion: a computation that gives the same value in every iteration moves
to the loop's preheader, so it runs once.

Requires typed SSA; preserves types. Only operations that cannot raise and read no array memory
move (arithmetic that cannot fail, conversions, comparisons, tuple items, array shapes), since a
loop may run zero times and must then have no effect.

    for i in range(n): s += x * y + a.shape[0]   ->   t = x * y; u = a.shape[0] before the loop
"""

from __future__ import annotations

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.analysis import natural_loops
from jitcore.optimize.dce import is_removable

_ARRAY_FIELDS = {"shape", "size", "ndim", "strides", "itemsize", "nbytes"}


def hoist_loop_invariants(fn: ir.Function) -> bool:
    changed = False
    for header, body in sorted(natural_loops(fn), key=lambda item: len(item[1])):
        preheader = _preheader(fn, header, body)
        if preheader is None:
            continue
        defined_inside = {instr for block in body for instr in block.instrs}
        moved = True
        while moved:
            moved = False
            for block in fn.reverse_postorder():
                if block not in body:
                    continue
                for instr in list(block.instrs):
                    if _invariant(instr, defined_inside):
                        block.instrs.remove(instr)
                        preheader.instrs.append(instr)
                        defined_inside.discard(instr)
                        moved = changed = True
    return changed


def _preheader(fn: ir.Function, header: ir.Block, body: set[ir.Block]) -> ir.Block | None:
    outside = [p for p in fn.predecessors()[header] if p not in body]
    if len(outside) != 1 or outside[0].successors() != (header,):
        return None
    return outside[0]


def _invariant(instr: ir.Instr, defined_inside: set[ir.Instr]) -> bool:
    if isinstance(instr, ir.Phi) or any(op in defined_inside for op in instr.operands()):
        return False
    if isinstance(instr, ir.GetAttr) and isinstance(instr.obj.type, T.Array):
        return instr.attr in _ARRAY_FIELDS
    if isinstance(instr, ir.Call) and isinstance(instr.func, ir.Const) and instr.func.value is len:
        return not isinstance(instr.args[0].type, T.List)  # a list's length may change
    return is_removable(instr)
