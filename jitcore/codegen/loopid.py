"""Loop metadata (`!llvm.loop`) on the back edges of the loops jitcore emits.

A loop that is not inside another loop says `llvm.loop.unroll.runtime.disable`: LLVM may still
unroll it when it knows the trip count and vectorize (and interleave) it, but it does not make
the runtime-unrolled copy, with its remainder loop, of a loop whose trip count is only known when
it runs. Such a loop usually runs long, and its own overhead hides behind the work it carries
from one iteration to the next: on the bundled kernels (`benchmarks/`, measured in issue 17's
note) the copy never made one faster (`pairwise_distances` ran 9% and `dot_loop` 6% faster
without it), and it cost a fifth to a third of the first call's compile time (`dot_loop` 33 ->
21 ms, `sum_loop` 17 -> 13 ms). A loop inside another one keeps LLVM's choice: it is often short
(a window, a small dimension), and there unrolling pays: `sliding_dot`'s 64-step inner loop ran
27% slower without it (fewer instructions per step let the core overlap consecutive outer
iterations). A process-wide LLVM option (`-unroll-runtime=false`) would change Numba's loops in
the same process too; the metadata keeps the choice to jitcore's.

LLVM finds a loop's properties through a distinct node whose first operand is itself (a
legacy rule LLVM still checks); llvmlite's metadata nodes are uniqued by content and cannot
refer to themselves, hence `LoopID`.
"""

from __future__ import annotations

from llvmlite import ir as ll

from jitcore.ir import nodes as ir
from jitcore.ir.analysis import dominates, dominators, natural_loops

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


def outermost_back_edges(fn: ir.Function) -> set[tuple[ir.Block, ir.Block]]:
    """Edges (block, header) of `fn` that close a loop (the header dominates the block) that
    is not inside another loop."""
    idom = dominators(fn)
    edges = {
        (block, succ)
        for block in fn.reverse_postorder()
        for succ in block.successors()
        if dominates(idom, succ, block)
    }
    headers = {h for _, h in edges}
    if len(headers) < 2:
        return edges  # no loop inside another
    nested = {
        header
        for outer, body in natural_loops(fn, idom)
        for header in headers
        if header is not outer and header in body
    }
    return {(block, header) for block, header in edges if header not in nested}


def loop_id(module: ll.Module) -> LoopID:
    """A new loop's metadata node, with `LOOP_PROPERTIES`."""
    properties = [module.add_metadata([ll.MetaDataString(module, p)]) for p in LOOP_PROPERTIES]
    return LoopID(module, properties)
