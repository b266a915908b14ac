"""The IR verifier: checks the invariants every stage and pass must preserve.

Runs between stages and passes when debugging is on (`JITCORE_DEBUG=1`; the test suite turns
it on). Checks: every block ends in one terminator; phis come first and have one input per
predecessor; every operand is defined, by an argument or an instruction that dominates its use;
after `typeinfer`, every value has a type.
"""

from __future__ import annotations

from jitcore.errors import InternalCompilerError, SourceLoc
from jitcore.ir import nodes as ir
from jitcore.ir.analysis import dominates, dominators
from jitcore.ir.printer import format_instr


def verify(fn: ir.Function, *, typed: bool, stage: str) -> None:
    """Raise InternalCompilerError naming `stage` if `fn` breaks an invariant."""

    def fail(message: str, loc: SourceLoc | None = None) -> None:
        raise InternalCompilerError(
            f"IR verification failed after `{stage}` in {fn.name}: {message}", loc=loc
        )

    if not fn.blocks:
        fail("function has no blocks")
    labels = [b.label for b in fn.blocks]
    if len(set(labels)) != len(labels):
        fail("duplicate block labels")
    block_set = set(fn.blocks)
    preds = fn.predecessors()
    idom = dominators(fn)
    defined_in: dict[ir.Value, ir.Block] = {}
    position: dict[ir.Value, int] = {}
    for block in fn.blocks:
        for i, instr in enumerate(block.instrs):
            if instr in defined_in:
                fail(f"{instr.name} appears twice")
            defined_in[instr] = block
            position[instr] = i
    args = set(fn.args)
    for block in fn.blocks:
        if block.terminator is None:
            fail(f"block {block.label} has no terminator")
        for succ in block.successors():
            if succ not in block_set:
                fail(f"block {block.label} jumps to {succ.label}, which is not in the function")
        seen_non_phi = False
        for i, instr in enumerate(block.instrs):
            if isinstance(instr, ir.Phi):
                if seen_non_phi:
                    fail(f"phi {instr.name} after a non-phi in {block.label}")
                if set(instr.incoming) != set(preds[block]) and block in idom:
                    got = sorted(b.label for b in instr.incoming)
                    want = sorted(b.label for b in preds[block])
                    fail(f"phi {instr.name} has inputs from {got}, predecessors are {want}")
            else:
                seen_non_phi = True
            if typed and instr.type is None:
                fail(f"untyped instruction `{format_instr(instr)}`", instr.loc)
            for op in instr.operands():
                _check_operand(op, instr, block, i, args, defined_in, position, idom, fail)
        assert block.terminator is not None
        for op in block.terminator.operands():
            _check_operand(
                op, None, block, len(block.instrs), args, defined_in, position, idom, fail
            )


def _check_operand(op, instr, block, index, args, defined_in, position, idom, fail) -> None:  # noqa: ANN001
    if isinstance(op, ir.Const):
        return
    if isinstance(op, ir.Arg):
        if op not in args:
            fail(f"argument {op.name} of another function used")
        return
    if op not in defined_in:
        fail(f"{getattr(op, 'name', op)} is used but not defined in the function")
    if block not in idom:
        return  # unreachable code is not checked for dominance
    if isinstance(instr, ir.Phi):
        pred = next(p for p, v in instr.incoming.items() if v is op)
        if not dominates(idom, defined_in[op], pred) and defined_in[op] in idom:
            fail(f"{op.name} does not dominate the end of {pred.label} (phi {instr.name})")
        return
    def_block = defined_in[op]
    if def_block is block:
        if position[op] >= index:
            fail(f"{op.name} is used before its definition in {block.label}")
    elif not dominates(idom, def_block, block):
        fail(f"{op.name} (in {def_block.label}) does not dominate its use in {block.label}")
