"""Find the guilty pass: which optimization pass makes a compiled mode disagree.

When a mode disagrees with Python on the (shrunk) failing example, two methods look for the
pass, the first that can answer wins:

1. **The IR interpreter** (`jitcore.interpret`, Parakeet's `find_broken_transform`,
   PyTensor's `BadOptimization`): the typed IR after `typeinfer` and after each pass is run
   directly in Python, independent of lowering, code generation and LLVM. The first pass
   after which the interpreter's result differs from Python's is the guilty one; when every
   stage's IR computes Python's result, the passes are not to blame. It cannot answer when the
   IR holds an instruction it does not run, when the interpreted `typeinfer` output already
   differs from Python (the interpreter's semantics are not the reference for that example),
   or when the example is too long to interpret.
2. **Compiling with passes disabled**: the example is compiled again with only a prefix of
   jitcore's pass sequence enabled (`jit(disable_passes=...)` for the rest; registered passes
   included) and the prefix is bisected: with no pass the result must agree, with every pass
   it disagrees, so some pass is the first after which it differs. If the result disagrees
   with no optimization pass at all, the difference comes from lowering, code generation or
   LLVM, and the message says so.
3. **LLVM's own passes** (`jitcheck.llvmbisect`): when no jitcore pass is to blame, the
   function is compiled in forked children with only the first N of LLVM's optional pass
   runs (`-opt-bisect-limit`), bisecting N: the first LLVM pass run after which the result
   differs, with the LLVM IR before and after it, or "already with no LLVM pass": then the
   difference is in jitcore's lowering or code generation.

Either way the pass's IR before and after (`inspect("optimize:<pass>")`) goes into the failure
message: "disagreement introduced by pass `fusion` (IR diff below)".
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jitcheck.compare import Outcome
from jitcheck.values import fresh_copy

MAX_DIFF_LINES = 40
# Instructions the interpreter may run per stage before giving up (falls back to compiling).
INTERPRETER_BUDGET = 3_000_000

INTERPRETER = "interpreter"
COMPILING = "compiling"


@dataclass(frozen=True)
class Culprit:
    """The answer: the pass (None if the passes are not to blame), how many passes were
    examined, the pass's IR diff, and the method that found it (`INTERPRETER`, whose
    results after each pass were compared with Python's, or `COMPILING`)."""

    name: str | None
    passes: int
    ir_diff: str = ""
    method: str = COMPILING
    # Why the interpreter could not answer, when the compiled bisection did.
    fallback_reason: str = ""
    # Library operations the interpreter ran as their Python originals (their own compiled
    # code, an emitter or a library kernel, is not interpreted).
    operations: tuple[str, ...] = ()
    # When no jitcore pass is to blame: what bisecting LLVM's own passes found.
    llvm: Any = None

    def __str__(self) -> str:
        return (
            self._headline()
            + (f"\nIR before and after `{self.name}`:\n{self.ir_diff}" if self.ir_diff else "")
            + (f"\n{self.llvm}" if self.llvm is not None else "")
        )

    def _headline(self) -> str:
        if self.name is None:
            if self.method == INTERPRETER:
                return (
                    f"the typed IR after typeinfer and after each of {self.passes} passes "
                    "computes Python's result (IR interpreter): the disagreement comes from "
                    "lowering, code generation or LLVM, not from a pass over this function"
                    + self._operations()
                )
            return (
                "the disagreement remains with every optimization pass disabled: it comes "
                "from lowering, code generation or LLVM, not from a jitcore pass"
                + self._fallback()
            )
        if self.method == INTERPRETER:
            how = (
                f"IR interpreter: the typed IR computes Python's result up to the pass before "
                f"it and a different one after it, of {self.passes} passes"
            )
        else:
            how = (
                f"bisected {self.passes} passes by compiling: the first after which the "
                f"result differs{self._fallback()}"
            )
        return f"disagreement introduced by pass `{self.name}` (IR diff below; {how})"

    def _operations(self) -> str:
        if not self.operations:
            return ""
        shown = ", ".join(f"`{name}`" for name in self.operations[:4])
        more = ", ..." if len(self.operations) > 4 else ""
        return (
            f"; or from the compiled code of a library operation it calls ({shown}{more}: the "
            "interpreter runs them as Python; a library kernel's own IR goes through the "
            "passes too)"
        )

    def _fallback(self) -> str:
        return f"; {self.fallback_reason}" if self.fallback_reason else ""


def find_guilty_pass(
    dispatcher: Any, args: tuple[Any, ...], agrees: Callable[[Outcome], bool]
) -> Culprit | None:
    """The pass that makes `dispatcher` (a compiled mode) disagree on `args`; None when the
    example does not reproduce (it agrees with every pass enabled) or cannot be rerun."""
    from jitcheck.execute import invoke

    try:
        if agrees(invoke(dispatcher, fresh_copy(args))):
            return None
    except Exception:  # noqa: BLE001 - bisection is a diagnosis: never hide the failure
        return None
    culprit = _jitcore_pass(dispatcher, args, agrees)
    if culprit is None or culprit.name is not None:
        return culprit
    from jitcheck.llvmbisect import bisect_llvm_passes

    try:
        llvm = bisect_llvm_passes(dispatcher, args, agrees)
    except Exception:  # noqa: BLE001 - a diagnosis: never hide the failure itself
        llvm = None
    return dataclasses.replace(culprit, llvm=llvm) if llvm is not None else culprit


def _jitcore_pass(
    dispatcher: Any, args: tuple[Any, ...], agrees: Callable[[Outcome], bool]
) -> Culprit | None:
    """The jitcore pass to blame (the interpreter first, then compiling with passes off);
    a Culprit without a name when none is."""
    interpreted = interpret_passes(dispatcher, args, agrees)
    if isinstance(interpreted, Culprit) and interpreted.name is not None:
        return interpreted
    compiled = bisect_by_compiling(dispatcher, args, agrees)
    if isinstance(interpreted, Culprit):
        # the interpreter saw no pass change the result: keep that answer unless compiling
        # with passes disabled does name one (a pass whose effect only lowering shows)
        return compiled if compiled is not None and compiled.name is not None else interpreted
    if compiled is not None and interpreted:
        return Culprit(
            compiled.name,
            compiled.passes,
            compiled.ir_diff,
            COMPILING,
            f"the IR interpreter could not decide: {interpreted}",
        )
    return compiled


def interpret_passes(
    dispatcher: Any, args: tuple[Any, ...], agrees: Callable[[Outcome], bool]
) -> Culprit | str:
    """Interpret the typed IR after `typeinfer` and after each pass on `args`; the first pass
    after which the result disagrees with Python, or why the interpreter cannot answer."""
    from jitcheck.execute import invoke, signature_of
    from jitcore.interpret import CannotInterpret, Interpreter, StageIR, box

    signature = signature_of(args)
    if signature is None:
        return "the arguments have no jitcore type"
    source = StageIR()
    try:
        stages = source.stages(dispatcher, signature)
    except Exception as exc:  # noqa: BLE001 - a diagnosis: never hide the failure itself
        return f"the typed IR is not available ({type(exc).__name__}: {exc})"
    names = list(stages)
    operations: set[str] = set()
    for index, stage in enumerate(names):
        fn = stages[stage]

        def run(*call_args: Any, stage: str = stage, fn: Any = fn) -> Any:
            interpreter = Interpreter(source, stage, budget=INTERPRETER_BUDGET)
            try:
                return box(interpreter.call(fn, call_args), fn.python_result)
            finally:
                operations.update(interpreter.python_operations)

        outcome = invoke(run, fresh_copy(args))
        if outcome.error_type is not None and issubclass(outcome.error_type, CannotInterpret):
            return outcome.error_text
        if agrees(outcome):
            continue
        if index == 0:
            return (
                "its result for the typed IR before any pass already differs from Python's "
                f"({outcome.describe()})"
            )
        name = stage.partition(":")[2]
        return Culprit(
            name,
            len(names) - 1,
            _diff(_ir_text(stages[names[index - 1]]), _ir_text(fn)),
            INTERPRETER,
        )
    return Culprit(None, len(names) - 1, method=INTERPRETER, operations=tuple(sorted(operations)))


def _ir_text(fn: Any) -> list[str]:
    from jitcore.ir.printer import print_ir

    return print_ir(fn).splitlines()


def bisect_by_compiling(
    dispatcher: Any, args: tuple[Any, ...], agrees: Callable[[Outcome], bool]
) -> Culprit | None:
    """Bisect the pass sequence of `dispatcher` on `args` by compiling with a prefix of the
    passes enabled; None when the example does not reproduce or cannot be rerun."""
    from jitcheck.execute import invoke
    from jitcore.optimize import pass_order

    names = [p.name for p in pass_order() if not p.optional]

    def disagrees(enabled: int) -> bool:
        trial = dispatcher.with_options(disable_passes=frozenset(names[enabled:]))
        return not agrees(invoke(trial, fresh_copy(args)))

    try:
        if not disagrees(len(names)):
            return None
        if disagrees(0):
            return Culprit(None, len(names))
        low, high = 0, len(names)  # prefix `low` agrees, prefix `high` disagrees
        while high - low > 1:
            mid = (low + high) // 2
            if disagrees(mid):
                high = mid
            else:
                low = mid
    except Exception:  # noqa: BLE001 - bisection is a diagnosis: never hide the failure
        return None
    culprit = names[high - 1]
    return Culprit(culprit, len(names), _ir_diff(dispatcher, args, names, high))


def _ir_diff(dispatcher: Any, args: tuple[Any, ...], names: list[str], high: int) -> str:
    """The IR before and after pass `names[high - 1]`, as a unified diff."""
    from jitcheck.execute import invoke

    trial = dispatcher.with_options(disable_passes=frozenset(names[high:]))
    invoke(trial, fresh_copy(args))
    try:
        before_stage = f"optimize:{names[high - 2]}" if high >= 2 else "typeinfer"
        before = trial.inspect(before_stage).splitlines()
        after = trial.inspect(f"optimize:{names[high - 1]}").splitlines()
    except Exception:  # noqa: BLE001 - no diff rather than no report
        return ""
    return _diff(before, after)


def _diff(before: list[str], after: list[str]) -> str:
    lines = list(difflib.unified_diff(before, after, "before", "after", lineterm="", n=1))
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"... ({len(lines) - MAX_DIFF_LINES} more lines)"]
    return "\n".join("    " + line for line in lines)
