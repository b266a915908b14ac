"""Fusion of elementwise array expressions: a chain of elementwise operations becomes one loop
with no temporaries.

Requires typed SSA; preserves types and results (each step still converts through the dtype
NumPy would give it). An elementwise operation whose array result is used only by the next one,
in the same block with nothing in between that writes memory or may raise, merges into it: the
merged loop runs where the consumer was, so moving the producer past an instruction that raises
would change which error comes first (`np.power(0, a) * (1 // k)`). A producer that cannot raise
(floats of one array shape: no broadcast error, no integer-power error) also moves past calls
that only read arrays and return a new value, such as reductions and products, which may raise
themselves: `(x - x.mean()) / x.std()` and `-Y * np.dot(X, w)` become one loop each. (Only
running out of memory can tell the difference: the producer's allocation is gone.)

    t1 = mul 0.5 a; t2 = mul 0.5 b; t3 = mul t2 c; t4 = add t1 t3
        ->  t4 = call @fused_elementwise(a, b, c)     (one loop, one allocation)
            [impl=binop.add(binop.mul(0.5, a), binop.mul(binop.mul(0.5, b), c))], with
            the operands' types in place of the names
"""

from __future__ import annotations

from typing import cast

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.lib.loops import fuse, fused_elementwise
from jitcore.lib.registry import Resolved
from jitcore.optimize.dce import is_removable


def fuse_elementwise(fn: ir.Function) -> bool:
    changed = False
    uses = _use_counts(fn)
    for block in fn.blocks:
        index = 0
        while index < len(block.instrs):
            consumer = block.instrs[index]
            producer = _fusable_operand(block, index, uses)
            if producer is None:
                index += 1
                continue
            fused = _fuse(producer, consumer)
            block.instrs[index] = fused
            block.instrs.remove(producer)
            fn.replace_all_uses(consumer, fused)
            uses = _use_counts(fn)
            changed = True
            index = block.instrs.index(fused)
    return changed


def _recipe(instr: ir.Instr):  # noqa: ANN202
    impl = instr.impl
    if (
        isinstance(impl, Resolved)
        and impl.elementwise is not None
        and isinstance(instr.type, T.Array)
    ):
        return impl.elementwise
    return None


def _leaves(instr: ir.Instr) -> list[ir.Value]:
    if isinstance(instr, ir.Call):
        return list(instr.args)
    return list(instr.operands())


def _fusable_operand(block: ir.Block, index: int, uses: dict[ir.Value, int]) -> ir.Instr | None:
    consumer = block.instrs[index]
    if _recipe(consumer) is None or (isinstance(consumer, ir.Call) and consumer.kwargs):
        return None
    for op in _leaves(consumer):
        if not isinstance(op, ir.Instr) or _recipe(op) is None or uses.get(op, 0) != 1:
            continue
        if op not in block.instrs or (isinstance(op, ir.Call) and op.kwargs):
            continue
        between = block.instrs[block.instrs.index(op) + 1 : index]
        if all(_movable_past(i) for i in between):
            return op
        if _cannot_raise(op) and all(_movable_past(i) or _only_reads_arrays(i) for i in between):
            return op
    return None


# Operations that read their array operands and write nothing but the new value they return
# (a scalar, or an array they allocate), by implementation name. They may raise.
_READ_ONLY_CALLS = frozenset(
    f"{prefix}.{name}"
    for prefix in ("np", "array")
    for name in (
        "sum", "prod", "mean", "std", "var", "min", "max", "amin", "amax", "argmin", "argmax",
        "any", "all", "dot", "vdot", "inner", "cumsum", "cumprod", "nansum", "nanmean",
        "nanmin", "nanmax", "median", "count_nonzero", "ptp", "trace",
    )
) | {"np.linalg.norm", "np.matmul and @", "binop.matmul"}  # fmt: skip


def _only_reads_arrays(instr: ir.Instr) -> bool:
    """`instr` writes no memory an array operand of a fused loop could read (it may raise)."""
    impl = instr.impl
    if not isinstance(impl, Resolved) or impl.name not in _READ_ONLY_CALLS:
        return False
    return "out" not in getattr(instr, "kwargs", {})


def _cannot_raise(producer: ir.Instr) -> bool:
    """An elementwise producer that raises in no case: float or complex values only (integer
    powers and divisions may raise) and one array operand (no shapes to disagree)."""
    kinds_ok = all(
        isinstance(v.type, T.Scalar | T.Array) and _dtype(v.type).kind in "fc"
        for v in [*_leaves(producer), producer]
    )
    arrays = {id(v) for v in _leaves(producer) if isinstance(v.type, T.Array)}
    return kinds_ok and len(arrays) == 1


def _dtype(t: T.Type) -> T.Scalar:
    return t.dtype if isinstance(t, T.Array) else cast(T.Scalar, t)


def _movable_past(instr: ir.Instr) -> bool:
    """A fused loop may run after `instr`: it writes nothing and cannot raise. Besides pure
    scalar code, that is building a slice and taking a view with slices whose steps are
    constants other than 0 (`a[::2] * 2.0 + b[::2]` fuses across the view of `b`)."""
    if is_removable(instr):
        return True
    if isinstance(instr, ir.Call):
        return _is_slice_constructor(instr)
    if isinstance(instr, ir.GetItem) and isinstance(instr.obj.type, T.Array):
        items = instr.index.items if isinstance(instr.index, ir.MakeTuple) else [instr.index]
        return all(_is_safe_slice(item) for item in items)
    return False


def _is_slice_constructor(instr: ir.Value) -> bool:
    return (
        isinstance(instr, ir.Call)
        and isinstance(instr.func, ir.Const)
        and instr.func.value is slice
        and not instr.kwargs
    )


def _is_safe_slice(item: ir.Value) -> bool:
    """A slice whose step is absent or a non-zero constant: slicing with it cannot raise."""
    if not isinstance(item.type, T.Slice):
        return False
    if not _is_slice_constructor(item):
        return False
    args = cast(ir.Call, item).args
    if len(args) < 3:
        return True
    step = args[2]
    return isinstance(step, ir.Const) and (step.value is None or step.value != 0)


def _fuse(producer: ir.Instr, consumer: ir.Instr) -> ir.Call:
    consumer_leaves = _leaves(consumer)
    producer_leaves = _leaves(producer)
    position = next(i for i, v in enumerate(consumer_leaves) if v is producer)
    leaves = consumer_leaves[:position] + producer_leaves + consumer_leaves[position + 1 :]
    impl = fuse(cast(Resolved, producer.impl), cast(Resolved, consumer.impl), position)
    assert len(impl.args) == len(leaves)
    return ir.Call(
        ir.Const(fused_elementwise, type=T.Opaque(fused_elementwise)),
        leaves,
        name=consumer.name,
        type=consumer.type,
        loc=consumer.loc,
        impl=impl,
    )


def _use_counts(fn: ir.Function) -> dict[ir.Value, int]:
    counts: dict[ir.Value, int] = {}
    for block in fn.blocks:
        for instr in block.instrs:
            for op in instr.operands():
                counts[op] = counts.get(op, 0) + 1
        if block.terminator is not None:
            for op in block.terminator.operands():
                counts[op] = counts.get(op, 0) + 1
    return counts
