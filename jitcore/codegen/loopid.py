"""Loop metadata (`!llvm.loop`) on the back edges of the loops jitcore emits.

Every loop of a kernel says `llvm.loop.unroll.runtime.disable`: LLVM may still unroll a loop
whose trip count it knows and vectorize (and interleave) any loop, but it does not make the
runtime-unrolled copy of a loop whose trip count is only known when it runs. Measured on the
bundled kernels (`benchmarks/`, this repository's issue 17 note): that copy never made a kernel
faster (the vectorizer interleaves the loops where more independent work per iteration pays,
and the out-of-order core hides a scalar loop's own overhead), `pairwise_distances` ran 9%
faster and `dot_loop` 6% faster without it, and it cost a fifth to a third of the first call's
compile time (`dot_loop` 33 -> 23 ms, `matmul` 63 -> 53 ms). A process-wide LLVM option
(`-unroll-runtime=false`) would do the same for Numba compiling in the same process; the
metadata keeps it to jitcore's loops.

LLVM finds a loop's properties through a distinct node whose first operand is itself (a
legacy rule LLVM still checks); llvmlite's metadata nodes are uniqued by content and cannot
refer to themselves, hence `LoopID`.
"""

from __future__ import annotations

from llvmlite import ir as ll

from jitcore.ir import nodes as ir
from jitcore.ir.analysis import dominates, dominators

LOOP_PROPERTIES = ("llvm.loop.unroll.runtime.disable",)


class LoopID(ll.values.MDValue):  # type: ignore[misc]
    """`distinct !{!self, !props...}`: one per loop, compared and hashed by identity."""

    def __init__(self, module: ll.Module, properties: list[ll.values.MDValue]) -> None:
        super().__init__(module, properties, name=str(len(module.metadata)))

    def descr(self, buf: list[str]) -> None:
        refs = ", ".join([self.get_reference(), *(p.get_reference() for p in self.operands)])
        buf += (f"distinct !{{ {refs} }}", "\n")

    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:
        return self is other


def back_edges(fn: ir.Function) -> set[tuple[ir.Block, ir.Block]]:
    """Edges (block, header) of `fn` that close a loop: the header dominates the block."""
    idom = dominators(fn)
    return {
        (block, succ)
        for block in fn.reverse_postorder()
        for succ in block.successors()
        if dominates(idom, succ, block)
    }


def loop_id(module: ll.Module) -> LoopID:
    """A new loop's metadata node, with `LOOP_PROPERTIES`."""
    properties = [module.add_metadata([ll.MetaDataString(module, p)]) for p in LOOP_PROPERTIES]
    return LoopID(module, properties)
