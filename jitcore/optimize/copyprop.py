"""Copy propagation: uses of a copy are replaced by its source.

Requires SSA; preserves types. Copies are casts to the type the value already has, and phis
whose inputs are all one value (or the phi itself).
    `t2 = cast t1 : i64` (t1 is i64); `return t2`  ->  `return t1`
"""

from __future__ import annotations

from jitcore.ir import nodes as ir
from jitcore.ir.markers import MISSING


def propagate_copies(fn: ir.Function) -> bool:
    changed_any = False
    changed = True
    while changed:
        changed = False
        for block in fn.blocks:
            for instr in list(block.instrs):
                source = _copy_source(instr)
                if source is not None:
                    block.instrs.remove(instr)
                    fn.replace_all_uses(instr, source)
                    changed = changed_any = True
    return changed_any


def _copy_source(instr: ir.Instr) -> ir.Value | None:
    if isinstance(instr, ir.Cast) and instr.value.type == instr.type:
        return instr.value
    if isinstance(instr, ir.Phi):
        values = {id(v): v for v in instr.incoming.values() if v is not instr}
        if len(values) == 1:
            (only,) = values.values()
            if not (isinstance(only, ir.Const) and only.value is _missing()):
                return only
        consts = [v for v in instr.incoming.values() if isinstance(v, ir.Const)]
        if (
            len(consts) == len(instr.incoming)
            and consts
            and all(
                type(c.value) is type(consts[0].value)
                and c.value == consts[0].value
                and c.type == consts[0].type
                for c in consts
            )
        ):
            return consts[0]
    return None


def _missing() -> object:
    return MISSING
