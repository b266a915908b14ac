"""Stage `lower`: typed IR -> low IR.

In:  typed, optimized IR whose instructions carry their `jitcore.lib` implementation.
Out: low IR: only the machine-level classes of `ir.LOW_IR`, which `codegen` maps one to one
     onto LLVM: `binop` (add sub mul div tdiv trem and or xor shl shr), `cmp`, `cast`,
     `select`, `unary neg`, `tuple`, `phi`, `ncall`, maths `intrinsic`s, and the memory,
     array and runtime operations (`load`, `store`, `ptradd`, `arrayfield`, `makearray`,
     `alloc`, `incref`, `decref`, `extract`, ...); error checks become branches to `raise`
     blocks. Python semantics (floor division, domain errors, ...) are spelled out here. Bounds
     checks were decided in `optimize` and fast-math is `codegen`'s; the one option `lower`
     reads is whether fast-math lets LLVM reorder float sums, which decides which loops with
     guarded checks are worth two versions (`loopversion`).
Holds afterwards: no instruction has an `impl`; phi inputs name the block that now ends each
     expanded predecessor; every array reference is balanced (`refcount`); a loop with guarded
     checks that could vectorize has an unchecked version and a checked cold one, and the
     checks of loops that could not are inline (`loopversion`); a loop with clamped indices
     runs as three, the middle one unclamped and unchecked (`loopsplit`); identical raising
     blocks are one (`raisemerge`).
"""

from __future__ import annotations

from collections.abc import Callable

from jitcore.errors import UNKNOWN_LOC
from jitcore.ir import nodes as ir
from jitcore.ir.builder import LowBuilder
from jitcore.lib import optional
from jitcore.lib.layout import normalize_index, shape_of
from jitcore.loopsplit import find_clamps, split_clamped_loops
from jitcore.loopversion import version_guarded_loops
from jitcore.lower_try import redirect_raises, typed_parts
from jitcore.optimize.domainguards import DomainGuards
from jitcore.optimize.guards import BoundsGuards
from jitcore.optimize.stripmine import strip_mine_domain_loops
from jitcore.raisemerge import merge_identical_raises
from jitcore.refcount import insert_refcounts

# Instructions that are already low level after typeinfer.
_PASS_THROUGH = (ir.Phi, ir.Cast, ir.MakeTuple, ir.Select, ir.Intrinsic, ir.NativeCall)


def lower_function(fn: ir.Function, fastmath: bool = False) -> ir.Function:
    """Expand every typed operation into low IR, in place (the `lower` stage). `fastmath`:
    LLVM may reorder float sums, so a loop carrying one may vectorize (`loopversion`)."""
    strip_mine_domain_loops(fn)  # before the guards are analysed: it makes their loops
    builder = LowBuilder(fn)
    guards = BoundsGuards(fn)  # analysed on the typed IR, before it is rewritten
    domains = DomainGuards(fn, guards)
    clamps = find_clamps(fn, guards)
    value_map: dict[ir.Value, ir.Value] = {}
    made_guards: set[ir.Value] = set()  # for `loopversion`
    last_block: dict[ir.Block, ir.Block] = {}

    def mapped(v: ir.Value) -> ir.Value:
        return value_map.get(v, v)

    # The typed IR's phis name typed blocks as predecessors; the phis emitters make (loops)
    # already name the low blocks, and must keep them.
    typed_phis = [phi for block in fn.blocks for phi in block.phis()]
    parts = typed_parts(fn)  # `try` parts of the typed blocks (lower_try)
    part_of: dict[ir.Block, object] = {}
    # Reverse postorder visits a definition before its uses (phis are patched at the end).
    for block in fn.reverse_postorder():
        made_before = len(fn.blocks)
        old_instrs, terminator = block.instrs, block.terminator
        block.instrs, block.terminator = [], None
        builder.position(block)
        for instr in old_instrs:
            builder.loc = instr.loc
            if isinstance(instr, ir.IndexCheck | ir.WrapIndex):
                check = isinstance(instr, ir.IndexCheck)
                array, index = mapped(instr.array), mapped(instr.index)
                axis_guards = _guards_of(builder, guards, instr, block, mapped, last_block)
                made_guards.update(axis_guards.values())
                value_map[instr] = normalize_index(
                    builder, array, index, instr.axes, check, axis_guards
                )
                continue
            if isinstance(instr, ir.Cast) and optional.involves_optional(instr):
                value_map[instr] = optional.lower_cast(builder, mapped(instr.value), instr.type)  # type: ignore[arg-type]
                continue
            if isinstance(instr, _PASS_THROUGH) or instr.impl is None:
                for op in instr.operands():
                    if op in value_map:
                        instr.replace_operand(op, value_map[op])
                instr.impl = None  # a tuple's trivial one: nothing to expand
                builder.block.instrs.append(instr)
                continue
            impl = instr.impl
            args, kwargs = _operands(instr)
            builder.domain_guard = domains.guard(builder, instr, block, mapped, last_block)
            if builder.domain_guard is not None:
                made_guards.add(builder.domain_guard)
            result = impl.lower(  # type: ignore[attr-defined]
                builder, [mapped(a) for a in args], {k: mapped(v) for k, v in kwargs.items()}
            )
            builder.domain_guard = None
            instr.impl = None
            if result is not None:
                value_map[instr] = result
        assert terminator is not None
        for op in terminator.operands():
            if op in value_map:
                terminator.replace_operand(op, value_map[op])
        builder.block.terminator = terminator
        last_block[block] = builder.block
        builder.loc = UNKNOWN_LOC
        if parts:  # the blocks expanding `block` raise where it would
            for made in [block, *fn.blocks[made_before:]]:
                part_of[made] = parts.get(block)
    for phi in typed_phis:
        phi.incoming = {last_block.get(p, p): mapped(v) for p, v in phi.incoming.items()}
    redirect_raises(fn, part_of)  # type: ignore[arg-type]
    insert_refcounts(fn)
    split_clamped_loops(fn, [clamp.lowered(mapped) for clamp in clamps], made_guards)
    version_guarded_loops(fn, made_guards, float_sums_vectorize=fastmath)
    merge_identical_raises(fn)
    return fn


def _guards_of(
    b: LowBuilder,
    guards: BoundsGuards,
    instr: ir.IndexCheck | ir.WrapIndex,
    block: ir.Block,
    mapped: Callable[[ir.Value], ir.Value],
    last_block: dict[ir.Block, ir.Block],
) -> dict[int, ir.Value]:
    """A preheader guard for each checked axis whose index a guard can decide."""
    found = {}
    for axis in sorted(instr.axes):

        def extent(array: ir.Value, axis: int = axis) -> ir.Value:
            return shape_of(b, array, axis)

        guard = guards.guard(b, instr, block, axis, mapped, last_block, extent)
        if guard is not None:
            found[axis] = guard
    return found


def _operands(instr: ir.Instr) -> tuple[list[ir.Value], dict[str, ir.Value]]:
    """The operands an emitter receives, in the order its rule declared them."""
    match instr:
        case ir.Call(args=args, kwargs=kwargs):
            return list(args), dict(kwargs)
        case ir.BinOp(lhs=lhs, rhs=rhs) | ir.Compare(lhs=lhs, rhs=rhs):
            return [lhs, rhs], {}
        case ir.UnaryOp(operand=x):
            return [x], {}
        case ir.GetItem(obj=obj, index=index):
            return [obj, index], {}
        case ir.SetItem(obj=obj, index=index, value=value):
            return [obj, index, value], {}
        case ir.GetAttr(obj=obj):
            return [obj], {}
    return list(instr.operands()), {}
