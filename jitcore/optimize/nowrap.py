"""The `nowraparound` pass, run for library kernels that declare their indices non-negative
(`registry.nonnegative_kernel`, which compiles them with `boundscheck=False, wraparound=False`).

Requires typed SSA with `checkindex` before array indexing (`typeinfer` puts them there);
preserves the CFG and types. Every `checkindex` whose index is already i64 (or a tuple whose
integer items are) goes: the index is used as it is, neither checked nor wrapped, so a
negative index reads or writes before the array (undefined, as in C). It runs first, before
`inline`, so only the function's own indexing is affected: an inlined callee keeps what its
own options made of its indices. Without it, `noboundscheck` leaves a `wrapindex` on every
index it cannot prove non-negative, whose select costs a compare and an add per access in
the inner loops of sorting and searching (and a longer dependency chain for `keys[idx[j]]`).

    t5 = checkindex a i {axes={0}} : i64; t6 = getitem a [t5]   ->   t6 = getitem a [i]
"""

from __future__ import annotations

from jitcore.ir import nodes as ir


def drop_index_wrapping(fn: ir.Function) -> bool:
    changed = False
    for block in fn.blocks:
        kept: list[ir.Instr] = []
        for instr in block.instrs:
            if isinstance(instr, ir.IndexCheck) and instr.index.type == instr.type:
                fn.replace_all_uses(instr, instr.index)
                changed = True
                continue
            kept.append(instr)
        block.instrs = kept
    return changed
