"""Outlined parallel loops in low IR: a loop `for i in range(n)` of a `parallel=True` function
becomes a *chunk function* `(lo, hi, captured...)` that codegen wraps in the same native
launcher as a prange loop's body (`jitcore.codegen.launcher`), so its iterations run on
native threads, one contiguous chunk per thread.

`lower` uses it for the flat loop of an elementwise array expression (`jitcore.lib.loops`):
every iteration writes its own element of a fresh output, so chunks cannot race, and each
element is computed exactly as in the serial loop (results equal bit for bit). The chunk
functions of a function live in `fn.outlined`; codegen emits them into the function's own LLVM
module (so the disk cache stores them with it) under `<symbol>.par<k>`.

Layer: depends on `ir` only; `loops` uses it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64

# Below this many iterations the serial loop runs: starting a thread costs about as much as
# ten thousand additions (measured: ~7 us per thread on a 2-core Zen 4).
PARALLEL_MIN_ITERATIONS = 1 << 15

ChunkBody = Callable[[LowBuilder, ir.Value, ir.Value, list[ir.Value]], None]


def parallel_symbol(b: LowBuilder) -> str | None:
    """The symbol prefix of `b`'s function when its loops may run in parallel, else None."""
    return b.fn.parallel_symbol


def parallel_or_serial(
    b: LowBuilder, n: ir.Value, captured: Sequence[ir.Value], body: ChunkBody
) -> None:
    """Run `body(b, lo, hi, captured)` over `0..n`: as one serial loop when `b`'s function is
    not parallel, when `n` is small, or when `body` reads a value it was not handed (then it
    cannot move to a function of its own); else on native threads."""
    if parallel_symbol(b) is None:
        body(b, i64(0), n, list(captured))
        return
    chunk = _outline(b, captured, body)
    if chunk is None:
        body(b, i64(0), n, list(captured))
        return
    big = b.cmp("ge", n, i64(PARALLEL_MIN_ITERATIONS))
    threads, serial, join = b.new_block("parallel"), b.new_block("serial"), b.new_block("joined")
    b.branch(big, threads, serial)
    b.position(threads)
    b.native_call(chunk.name, [i64(0), n, *captured], T.NONE)
    b.jump(join)
    b.position(serial)
    body(b, i64(0), n, list(captured))
    b.jump(join)
    b.position(join)


def _outline(b: LowBuilder, captured: Sequence[ir.Value], body: ChunkBody) -> ir.Function | None:
    """A chunk function `(lo, hi, captured...)` running `body`, registered in `b.fn.outlined`;
    None if `body` uses a value of the enclosing function it was not handed."""
    outer = b.fn
    index = len(outer.outlined)
    params = [ir.Arg("lo", 0, T.I64), ir.Arg("hi", 1, T.I64)] + [
        ir.Arg(f"c{k}", k + 2, v.type) for k, v in enumerate(captured)
    ]
    chunk = ir.Function(f"{outer.parallel_symbol}.par{index}", params, return_type=T.NONE)
    cb = LowBuilder(chunk)
    cb.loc = b.loc
    body(cb, params[0], params[1], list(params[2:]))
    cb.block.terminator = ir.Return(ir.Const(None, type=T.NONE), loc=b.loc)
    if not _self_contained(chunk):
        return None
    outer.outlined.append(chunk)
    return chunk


def _self_contained(fn: ir.Function) -> bool:
    """Whether every operand in `fn` is a constant, one of its parameters or its own
    instruction."""
    own: set[int] = {id(a) for a in fn.args}
    for block in fn.blocks:
        own.update(id(instr) for instr in block.instrs)
    for block in fn.blocks:
        values: list[ir.Value] = []
        for instr in block.instrs:
            values.extend(instr.operands())
        if block.terminator is not None:
            values.extend(block.terminator.operands())
        for v in values:
            if not isinstance(v, ir.Const) and id(v) not in own:
                return False
    return True
