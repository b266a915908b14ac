"""Strip-mining of the loops whose `math.sqrt` domain check a scan decides.

`domainguards` decides the check of `out[i] = math.sqrt(a[i])` with one scan of `a` before
the loop. Over a large array that scan is a pass of its own, bound by memory, and the loop
after it is bound by the square roots: one waits for the other, and 1M float64 ran at 0.76x of
Numba's loop (which returns NaN instead of raising, so it scans nothing). Cut into chunks of
`CHUNK` iterations, a scan and the roots of a chunk follow each other closely enough for the
processor to overlap them (the next lines stream in while this chunk's roots are computed),
and the scanned chunk is still in the L1 cache when the loop reads it:

    for i in range(start, stop): body

becomes (for a counter that starts at a constant >= 0, as every counted loop's does)

    c = start
    loop:                                 # the outer header
        e = min(c + CHUNK, stop)          # saturating: c + CHUNK never wraps
        for i in range(max(c, 0), e):     # the loop as it was, counted, its own preheader
            body
        if e < stop: c = i; goto loop     # the outer latch, where `for` ended before;
                                          # i >= e is where the counter stopped
    <after the loop>

The inner loop is the original one (same header, phis, body and latch) with its bounds
changed, so everything else sees a counted loop: `domainguards` scans each chunk in the outer
header, and `guards` checks the bounds of each chunk there. Values the loop carries go round
the outer loop through phis of the outer header. A `break` leaves both loops, since it jumps
out of the body as before. `max(c, 0)` is `c`; it is there so the counted-loop analysis (a
start that is a constant >= 0, or a max with one) accepts the chunk's start.

Runs on typed IR at the start of `lower`, before the guards are analysed. Inside a `try`, the
new blocks belong to the protected part of their dominator (`lower_try.typed_parts`), as the
loop's own blocks do; they cannot raise.
"""

from __future__ import annotations

from typing import cast

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.ir.markers import range_more
from jitcore.optimize.domainguards import DomainGuards, is_sqrt
from jitcore.optimize.guards import BoundsGuards, CountedLoop

# Iterations of a chunk. Measured on `sqrt_elementwise` (1M float64, Rocket Lake): 2048 ran
# at 1106 us, 512 at 988, 128 at 840 (Numba 839, no scan at all: 838), 64 at 859. The sqrt
# loop is bound by the square roots, the scan by memory: short chunks keep the hardware
# prefetcher streaming the next lines while the roots of this chunk are computed.
CHUNK = 128
_I64_MAX = 2**63 - 1


def strip_mine_domain_loops(fn: ir.Function) -> bool:
    """Strip-mine every loop whose `math.sqrt` check a scan decides. True if any changed.
    (The loop analyses run only for a function that calls `math.sqrt`: `lower` makes its own
    afterwards, and most functions have nothing to strip-mine.)"""
    if not any(is_sqrt(instr) for _, instr in fn.instructions()):
        return False
    bounds = BoundsGuards(fn)
    changed = False
    for loop in DomainGuards(fn, bounds).decidable_loops():
        changed |= _strip_mine(fn, loop, bounds)
    return changed


def _strip_mine(fn: ir.Function, loop: CountedLoop, bounds: BoundsGuards) -> bool:
    header = _header_of(loop)
    term = header.terminator if header is not None else None
    stop = _stop_tested(term.cond) if isinstance(term, ir.Branch) else None
    if stop is None or loop.counter.type != T.I64 or stop.type != T.I64:
        return False
    if not bounds.invariant(stop, loop):  # (`for x in lst` reads len(lst) at every step)
        return False
    assert header is not None and isinstance(term, ir.Branch)
    preheader, exit_block = loop.preheader, term.if_false
    outer, latch = fn.new_block("chunk"), fn.new_block("nextchunk")
    b = LowBuilder(fn)
    b.loc = term.loc
    b.position(outer)
    carried = {
        phi: b.phi(cast(T.Type, phi.type), {preheader: phi.incoming[preheader]})
        for phi in header.phis()
    }
    chunk_start = carried[loop.counter]
    after = b.binop("add", chunk_start, i64(CHUNK))  # wraps only past the largest int64
    after = b.select(b.cmp("lt", after, chunk_start), i64(_I64_MAX), after)
    chunk_end = b.intrinsic("smin", [after, stop], T.I64)
    first = b.intrinsic("smax", [chunk_start, i64(0)], T.I64)
    b.jump(header)
    for phi, outer_phi in carried.items():
        del phi.incoming[preheader]
        phi.incoming[outer] = first if phi is loop.counter else outer_phi
        outer_phi.incoming[latch] = phi
    b.position(header)
    term.cond = b.cmp("lt", loop.counter, chunk_end)
    term.if_false = latch
    b.position(latch)
    b.branch(b.cmp("lt", chunk_end, stop), outer, exit_block)
    for phi in exit_block.phis():
        if header in phi.incoming:
            phi.incoming[latch] = phi.incoming.pop(header)
    preheader.terminator.replace_successor(header, outer)  # type: ignore[union-attr]
    return True


def _stop_tested(cond: ir.Value) -> ir.Value | None:
    """`stop` when the loop's test is `counter < stop`, or `range_more(counter, stop, step)`
    (a counted loop's step is positive, so that is the same test)."""
    if isinstance(cond, ir.Compare) and cond.op == "lt":
        return cond.rhs
    if isinstance(cond, ir.Call) and isinstance(cond.func, ir.Const):
        if cond.func.value is range_more:
            return cond.args[1]
    return None


def _header_of(loop: CountedLoop) -> ir.Block | None:
    for block in loop.all_blocks:
        if loop.counter in block.instrs:
            return block
    return None
