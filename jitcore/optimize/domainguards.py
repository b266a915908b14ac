"""Loop versioning for the domain check of `math.sqrt` on array elements.

CPython's `math.sqrt(-1.0)` raises ValueError, so compiled code tests every argument, and a
loop with an exit in each iteration does not vectorize (issue 17, diagnosis 4: a plain
`out[i] = math.sqrt(a[i])` loop ran at 0.14x Numba, which returns NaN instead). When the
argument is an element `a[i]` of a loop-invariant 1-D array read at the counter of a counted
loop (`for i in range(start, stop)`), one scan before the loop decides the check for every
iteration:

    guard = the loop runs no iteration
            or (start >= 0, no array the loop stores to overlaps `a`,
                and no element of a[start:min(stop, len(a))] is < 0)

The scan is a reduction without exits, which vectorizes (and reads each element once, so it
costs a fraction of the loop). `lower` emits it at the end of the loop's preheader and lowers
the check as `if not guard: raise_if(x < 0)`; the guard is loop-invariant, so LLVM unswitches
the loop as it does for bounds guards (`guards`): the copy without the check vectorizes.

Why results and errors are unchanged: the loop reads `a` only at indices the scan covered (the
counter rises from `start`; an index past `len(a)` fails its own bounds check first), and
nothing in the loop can change `a`'s memory while it runs: every store is to an array whose
bytes do not overlap `a`'s, and the loop holds no call or in-place operation that takes an
array (those could write to one). So when the guard holds, no check in the loop would fire.

This module analyses typed IR; `lower` calls it while lowering, so the guard is low IR.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import Loop, LowBuilder, i64
from jitcore.lib import layout as L
from jitcore.optimize.guards import BoundsGuards, CountedLoop

# Instructions that read memory or compute without writing any array's elements.
_READ_ONLY = (
    ir.GetItem,
    ir.GetAttr,
    ir.IndexCheck,
    ir.WrapIndex,
    ir.Phi,
    ir.Cast,
    ir.MakeTuple,
    ir.Select,
    ir.Intrinsic,
)
# Instructions that write no array when no operand is one (an in-place `a += 1` is a BinOp).
_SCALAR_ONLY = (ir.BinOp, ir.UnaryOp, ir.Compare, ir.Call)


class DomainGuards:
    """Which `math.sqrt` calls of a function a preheader scan can decide, and the scans."""

    def __init__(self, fn: ir.Function, bounds: BoundsGuards) -> None:
        self.loop_of = bounds.loop_of  # the counted loops, and what is invariant in them
        self.invariant = bounds.invariant
        # Analysed now, on the typed IR (lowering rewrites each block as it goes), for the
        # loops that hold a `math.sqrt` call.
        self._stores: dict[CountedLoop, list[ir.Value] | None] = {}
        for block in fn.blocks:
            loop = self.loop_of.get(block)
            if loop is not None and loop not in self._stores and any(map(is_sqrt, block.instrs)):
                self._stores[loop] = self._find_stores(loop)
        self._made: dict[tuple[CountedLoop, ir.Value, ir.Value], ir.Value] = {}

    def decidable_loops(self) -> list[CountedLoop]:
        """The loops holding a `math.sqrt` call a preheader scan can decide (`guard` would give
        it a guard), each once, in block order."""
        found: dict[CountedLoop, None] = {}
        for loop, stores in self._stores.items():
            if stores is None or not isinstance(loop.preheader.terminator, ir.Jump):
                continue
            for block in loop.blocks:
                if self.loop_of.get(block) is not loop:
                    continue  # an inner loop's block
                for instr in block.instrs:
                    if is_sqrt(instr) and self._element_of(_argument(instr), loop) is not None:
                        found[loop] = None
        return list(found)

    def guard(
        self,
        b: LowBuilder,
        call: ir.Instr,
        block: ir.Block,
        mapped: Callable[[ir.Value], ir.Value],
        lowered_end: dict[ir.Block, ir.Block],
    ) -> ir.Value | None:
        """A bool, computed in the loop's preheader, that holds only if the argument of this
        `math.sqrt` call is not negative in any iteration; None when no scan can decide it."""
        if not is_sqrt(call):
            return None
        loop = self.loop_of.get(block)
        if loop is None or loop.preheader not in lowered_end:
            return None
        assert isinstance(call, ir.Call)
        arg = call.args[0]
        array = self._element_of(_argument(call), loop)
        if array is None:
            return None
        stores = self._stores.get(loop)
        if stores is None:
            return None
        end = lowered_end[loop.preheader]
        if not isinstance(end.terminator, ir.Jump):
            return None
        key = (loop, array, arg)
        if key not in self._made:
            here = b.block
            self._made[key] = _emit_scan(b, end, loop, array, arg, stores, mapped, lowered_end)
            b.position(here)
        return self._made[key]

    # --- analysis of the typed loop ---------------------------------------------------------

    def _element_of(self, v: ir.Value, loop: CountedLoop) -> ir.Value | None:
        """The 1-D array `a` when `v` is `a[counter]` of a loop-invariant `a`."""
        if not isinstance(v, ir.GetItem):
            return None
        array, index = v.obj, v.index
        t = array.type
        if not (isinstance(t, T.Array) and t.ndim == 1 and isinstance(t.dtype, T.Scalar)):
            return None
        if t.dtype.is_complex or not self.invariant(array, loop):
            return None
        if isinstance(index, ir.IndexCheck | ir.WrapIndex) and index.array is array:
            index = index.index
        return array if index is loop.counter else None

    def _find_stores(self, loop: CountedLoop) -> list[ir.Value] | None:
        """The arrays the loop stores elements to (all loop-invariant), or None when the loop
        may write array memory in a way a byte-range test cannot bound."""
        stores: list[ir.Value] = []
        for block in loop.all_blocks:
            for instr in block.instrs:
                if isinstance(instr, ir.SetItem):
                    if isinstance(instr.obj.type, T.Array):
                        if not self.invariant(instr.obj, loop):
                            return None
                        stores.append(instr.obj)
                    elif _holds_arrays(instr.obj.type) or _holds_arrays(instr.value.type):
                        return None
                elif isinstance(instr, _READ_ONLY):
                    continue
                elif isinstance(instr, _SCALAR_ONLY):
                    if any(not _plain(op.type) for op in instr.operands()):
                        return None
                else:
                    return None
        return stores


def _emit_scan(
    b: LowBuilder,
    end: ir.Block,
    loop: CountedLoop,
    array: ir.Value,
    arg: ir.Value,
    stores: list[ir.Value],
    mapped: Callable[[ir.Value], ir.Value],
    lowered_end: dict[ir.Block, ir.Block],
) -> ir.Value:
    """Emit the scan at the end of the preheader's lowered block (moving its jump after it)."""
    jump = end.terminator
    end.terminator = None
    b.position(end)
    a = mapped(array)
    start, stop = b.cast(mapped(loop.start), T.I64), b.cast(mapped(loop.stop), T.I64)
    n = L.shape_of(b, a, 0)
    stop = b.select(b.cmp("lt", stop, n), stop, n)
    empty = b.cmp("ge", start, stop)
    usable: ir.Value = b.cmp("ge", start, i64(0))
    lo, hi = L.byte_span(b, a)
    for dest in stores:
        d_lo, d_hi = L.byte_span(b, mapped(dest))
        overlap = b.and_(b.cmp("lt", lo, d_hi), b.cmp("lt", d_lo, hi))
        usable = b.and_(usable, b.not_(overlap))
    scan, skip, join = b.new_block("domainscan"), b.new_block("noscan"), b.new_block("scanned")
    b.branch(b.and_(usable, b.not_(empty)), scan, skip)
    b.position(scan)
    data, stride = L.data_of(b, a), L.strides_of(b, a)[0]
    dtype = array.type.dtype  # type: ignore[union-attr]
    found: ir.Value = ir.Const(False, type=T.BOOL)
    each = Loop(b, start, stop, carried=[found])
    x = L.load(b, b.ptr_add(data, b.binop("mul", each.index, stride)), dtype)
    if isinstance(arg, ir.Cast):
        x = b.cast(x, arg.type)  # type: ignore[arg-type]
    negative = b.cmp("lt", x, ir.Const(0.0, type=x.type))
    each.finish([b.or_(each.values[0], negative)])
    clean = b.not_(each.values[0])
    scan_end = b.block
    b.jump(join)
    b.position(skip)
    b.jump(join)
    b.position(join)
    guard = b.phi(T.BOOL, {scan_end: clean, skip: empty})
    join.terminator = jump
    lowered_end[loop.preheader] = join
    return guard


def _argument(call: ir.Instr) -> ir.Value:
    """The element a `math.sqrt` call takes, before any conversion to float."""
    arg = call.args[0]  # type: ignore[attr-defined]
    return arg.value if isinstance(arg, ir.Cast) else arg


def is_sqrt(instr: ir.Instr) -> bool:
    return (
        isinstance(instr, ir.Call)
        and isinstance(instr.func, ir.Const)
        and instr.func.value is math.sqrt
        and len(instr.args) == 1
        and not instr.kwargs
    )


def _plain(t: T.Type | None) -> bool:
    """A value that cannot lead to array memory (numbers, strings, ranges, ...)."""
    return t is not None and not _holds_arrays(t)


def _holds_arrays(t: T.Type | None) -> bool:
    """Whether a value of type `t` may lead to an array's memory (conservatively: any type
    not known to hold none, such as objects, lists and dicts, may)."""
    if isinstance(t, T.Scalar | T.NoneType | T.Opaque | T.Str | T.Bottom):
        return False  # an Opaque is a compile-time constant: a function, a module
    if isinstance(t, T.Tuple | T.Slice):
        return any(_holds_arrays(item) for item in t.items)
    if isinstance(t, T.Optional):
        return _holds_arrays(t.inner)
    return True
