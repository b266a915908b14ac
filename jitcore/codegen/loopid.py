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

The checked copy of a versioned loop (`jitcore.loopversion`, marked by a `coldloop` in its
header) and every loop inside it say `llvm.loop.vectorize.enable` false, interleave count 1 and
`llvm.loop.unroll.disable`: that copy runs only when a bounds or domain check may fire, and
vectorizing it would double the work LLVM does on the loop for no run that matters.
"""

from __future__ import annotations

from llvmlite import ir as ll

from jitcore.ir import nodes as ir
from jitcore.ir.analysis import dominates, dominators, natural_loops

Property = tuple[str] | tuple[str, int]  # a name, or a name and an i32 / i1 value

OUTERMOST_LOOP: tuple[Property, ...] = (("llvm.loop.unroll.runtime.disable",),)
COLD_LOOP: tuple[Property, ...] = (
    ("llvm.loop.vectorize.enable", 0),
    ("llvm.loop.interleave.count", 1),
    ("llvm.loop.unroll.disable",),
)


class LoopID(ll.values.MDValue):  # type: ignore[misc]
    """`distinct !{!self, !props...}`: one per loop, compared and hashed by identity."""

    def __init__(self, module: ll.Module, properties: list[ll.values.MDValue]) -> None:
        super().__init__(module, properties, name=str(len(module.metadata)))

    @classmethod
    def make(cls, module: ll.Module, properties: tuple[Property, ...]) -> LoopID:
        """A new loop's node with these properties."""
        nodes = []
        for prop in properties:
            operands: list[ll.Value] = [ll.MetaDataString(module, prop[0])]
            if len(prop) == 2:
                width = 1 if prop[0].endswith(".enable") else 32
                operands.append(ll.Constant(ll.IntType(width), prop[1]))  # type: ignore[misc]
            nodes.append(module.add_metadata(operands))
        return cls(module, nodes)

    def descr(self, buf: list[str]) -> None:
        refs = ", ".join([self.get_reference(), *(p.get_reference() for p in self.operands)])
        buf += (f"distinct !{{ {refs} }}", "\n")

    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:
        return self is other


def marked_back_edges(fn: ir.Function) -> dict[tuple[ir.Block, ir.Block], tuple[Property, ...]]:
    """The edges (block, header) of `fn` that close a loop (the header dominates the block)
    and get loop metadata, with its properties: cold loops (`coldloop` in the header, and the
    loops inside one) `COLD_LOOP`, other loops not inside another loop `OUTERMOST_LOOP`."""
    idom = dominators(fn)
    edges = {
        (block, succ)
        for block in fn.reverse_postorder()
        for succ in block.successors()
        if dominates(idom, succ, block)
    }
    headers = {h for _, h in edges}
    cold_heads = set(filter(_is_cold, headers))
    if len(headers) < 2:
        return {edge: COLD_LOOP if edge[1] in cold_heads else OUTERMOST_LOOP for edge in edges}
    loops = natural_loops(fn, idom)
    nested = {
        header
        for outer, body in loops
        for header in headers
        if header is not outer and header in body
    }
    cold = {header for outer, body in loops if outer in cold_heads for header in headers & body}
    marked: dict[tuple[ir.Block, ir.Block], tuple[Property, ...]] = {}
    for block, header in edges:
        if header in cold:
            marked[block, header] = COLD_LOOP
        elif header not in nested:
            marked[block, header] = OUTERMOST_LOOP
    return marked


def cold_loop_blocks(fn: ir.Function) -> set[ir.Block]:
    """The blocks of the loops marked `coldloop` (none: the usual case, found without any
    analysis)."""
    heads = set(filter(_is_cold, fn.blocks))
    if not heads:
        return set()
    return {block for header, body in natural_loops(fn) if header in heads for block in body}


def _is_cold(header: ir.Block) -> bool:
    """`header` holds a `coldloop` (`jitcore.loopversion.mark_cold`)."""
    return any(isinstance(i, ir.ColdLoop) for i in header.instrs)
