"""The IR verifier: checks what each stage promises about its output, and reports every problem.

Runs between stages and passes when debugging is on (`JITCORE_DEBUG=1`; the test suite turns
it on). `check` returns every problem found, each with where it is (block, instruction, source
location); `verify` raises one InternalCompilerError listing them all.

Every stage: the function has blocks with distinct labels; each block ends in exactly one
terminator, whose successors are blocks of the function; no instruction is a terminator or
appears twice, and no two define the same name; phis come first and have one input per
predecessor; every operand is a constant, an argument of this function, or an instruction
that dominates its use (a phi's input dominates the end of its predecessor).
After `typeinfer` (`typed`): every argument, instruction and constant operand has a type, and
the return type is set (bottom is a type here: a recursive call still being typed).
After `lower` (`low`): no instruction has an `impl` left to expand, and every instruction is
of a class `codegen` accepts (`nodes.LOW_IR`).
"""

from __future__ import annotations

from dataclasses import dataclass

from jitcore.errors import InternalCompilerError, SourceLoc
from jitcore.ir import nodes as ir
from jitcore.ir.analysis import dominates, dominators
from jitcore.ir.printer import format_instr, format_terminator


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken invariant: what, where in the IR, and the source location if known."""

    message: str
    where: str
    loc: SourceLoc | None = None

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def verify(fn: ir.Function, *, typed: bool, stage: str, low: bool | None = None) -> None:
    """Raise InternalCompilerError naming `stage` and listing every problem of `fn`. `low`
    defaults to whether `stage` is `lower`."""
    problems = check(fn, typed=typed, low=stage == "lower" if low is None else low)
    if problems:
        listing = "\n".join(f"  {p}" for p in problems)
        first = next((p.loc for p in problems if p.loc is not None), None)
        raise InternalCompilerError(
            f"IR verification failed after `{stage}` in {fn.name}: "
            f"{len(problems)} problem{'s' if len(problems) > 1 else ''}\n{listing}",
            loc=first,
        )


def check(fn: ir.Function, *, typed: bool, low: bool = False) -> list[Problem]:
    """Every problem of `fn` (empty if it is well formed for the stage)."""
    return _Checker(fn, typed, low).run()


class _Checker:
    def __init__(self, fn: ir.Function, typed: bool, low: bool) -> None:
        self.fn, self.typed, self.low = fn, typed, low
        self.problems: list[Problem] = []

    def problem(self, where: str, message: str, loc: SourceLoc | None = None) -> None:
        self.problems.append(Problem(message, where, loc))

    def run(self) -> list[Problem]:
        fn = self.fn
        if not fn.blocks:
            self.problem(fn.name, "the function has no blocks")
            return self.problems
        seen_labels: set[str] = set()
        for block in fn.blocks:
            if block.label in seen_labels:
                self.problem(block.label, "two blocks have this label")
            seen_labels.add(block.label)
        self.check_signature()
        self.index_definitions()
        blocks = set(fn.blocks)
        foreign = False
        for block in fn.blocks:
            for succ in block.successors():
                if succ not in blocks:
                    where = self.where(block, block.terminator)
                    self.problem(where, f"jumps to {succ.label}, not in the function")
                    foreign = True
        if foreign:  # no control-flow graph to check the rest against
            return self.problems
        self.preds = fn.predecessors()
        self.idom = dominators(fn)
        for block in fn.blocks:
            self.check_block(block)
        return self.problems

    def check_signature(self) -> None:
        if not self.typed:
            return
        for arg in self.fn.args:
            if arg.type is None:
                self.problem(self.fn.name, f"argument {arg.name} has no type")
        if self.fn.return_type is None:
            self.problem(self.fn.name, "no return type")

    def index_definitions(self) -> None:
        self.defined_in: dict[ir.Value, ir.Block] = {}
        self.position: dict[ir.Value, int] = {}
        names: dict[str, str] = {}
        for block in self.fn.blocks:
            for i, instr in enumerate(block.instrs):
                if not isinstance(instr, ir.Instr):
                    continue  # reported with the block
                where = self.where(block, instr)
                if instr in self.defined_in:
                    self.problem(where, "the same instruction appears twice", instr.loc)
                    continue
                self.defined_in[instr] = block
                self.position[instr] = i
                if instr.name and instr.name in names:
                    self.problem(where, f"{instr.name} is also defined in {names[instr.name]}")
                names.setdefault(instr.name, block.label)
        self.args = set(self.fn.args)

    @staticmethod
    def where(block: ir.Block, node: ir.Instr | ir.Terminator | None = None) -> str:
        if node is None:
            return block.label
        if isinstance(node, ir.Terminator):
            return f"{block.label}: `{format_terminator(node)}`"
        try:
            text = format_instr(node)
        except Exception:  # noqa: BLE001 - a broken node must not hide the other problems
            text = f"{type(node).__name__} {getattr(node, 'name', '')}"
        return f"{block.label}: `{text}`"

    def check_block(self, block: ir.Block) -> None:
        term = block.terminator
        if term is None:
            self.problem(block.label, "the block has no terminator")
        seen_non_phi = False
        for i, instr in enumerate(block.instrs):
            if not isinstance(instr, ir.Instr):
                self.problem(
                    block.label,
                    f"a {type(instr).__name__} among the instructions (one "
                    "terminator per block, at its end)",
                )
                continue
            where = self.where(block, instr)
            if isinstance(instr, ir.Phi):
                if seen_non_phi:
                    self.problem(where, "a phi after a non-phi instruction", instr.loc)
                self.check_phi(block, instr, where)
            else:
                seen_non_phi = True
            self.check_stage(instr, where)
            for op in instr.operands():
                self.check_operand(op, instr, block, i, where)
        if term is not None:
            where = self.where(block, term)
            for op in term.operands():
                self.check_operand(op, None, block, len(block.instrs), where)

    def check_phi(self, block: ir.Block, phi: ir.Phi, where: str) -> None:
        if block not in self.idom:
            return  # unreachable: nothing flows in
        got = {b.label for b in phi.incoming}
        want = {b.label for b in self.preds.get(block, [])}
        if got != want:
            self.problem(
                where,
                f"inputs from {sorted(got)}, but the predecessors are {sorted(want)}",
                phi.loc,
            )

    def check_stage(self, instr: ir.Instr, where: str) -> None:
        if self.typed:
            if instr.type is None:
                self.problem(where, "no type", instr.loc)
        if self.low:
            if instr.impl is not None:
                self.problem(where, "an implementation is left to expand", instr.loc)
            if type(instr) not in ir.LOW_IR:
                self.problem(
                    where,
                    f"{type(instr).__name__} is not low IR (codegen takes LOW_IR)",
                    instr.loc,
                )

    def check_operand(
        self, op: ir.Value, user: ir.Instr | None, block: ir.Block, index: int, where: str
    ) -> None:
        loc = user.loc if user is not None else None
        if isinstance(op, ir.Const):
            if self.typed and op.type is None:
                self.problem(where, f"the constant {op.value!r} has no type", loc)
            return
        if isinstance(op, ir.Arg):
            if op not in self.args:
                self.problem(where, f"uses argument {op.name} of another function", loc)
            return
        name = op.name if isinstance(op, ir.Instr) else type(op).__name__
        if op not in self.defined_in:
            self.problem(where, f"uses {name}, which no instruction of the function defines", loc)
            return
        if block not in self.idom:
            return  # unreachable code is not checked for dominance
        def_block = self.defined_in[op]
        if isinstance(user, ir.Phi):
            for pred, v in user.incoming.items():
                if (
                    v is op
                    and def_block in self.idom
                    and not dominates(self.idom, def_block, pred)
                ):
                    self.problem(where, f"{name} does not dominate the end of {pred.label}", loc)
            return
        if def_block is block:
            if self.position[op] >= index:
                self.problem(where, f"uses {name} before its definition", loc)
        elif not dominates(self.idom, def_block, block):
            self.problem(
                where, f"uses {name}, defined in {def_block.label}, which does not dominate", loc
            )
