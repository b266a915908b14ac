"""Find the guilty pass: which optimization pass makes a compiled mode disagree.

When a mode disagrees with Python on the (shrunk) failing example, the example is compiled
again with only a prefix of jitcore's pass sequence enabled (`jit(disable_passes=...)` for
the rest; registered passes included) and the prefix is bisected: with no pass the result
must agree, with every pass it disagrees, so some pass is the first after which it differs.
Its IR before and after (`inspect("optimize:<pass>")`) goes into the failure message. If
the result disagrees with no optimization pass at all, the passes are not to blame: the
difference comes from lowering, code generation or LLVM, and the message says so.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jitcheck.compare import Outcome
from jitcheck.values import fresh_copy

MAX_DIFF_LINES = 40


@dataclass(frozen=True)
class Culprit:
    """The bisection's answer: the pass (None if the passes are not to blame), how many
    passes were bisected, and the pass's IR diff."""

    name: str | None
    passes: int
    ir_diff: str = ""

    def __str__(self) -> str:
        if self.name is None:
            return (
                "the disagreement remains with every optimization pass disabled: it comes "
                "from lowering, code generation or LLVM, not from a jitcore pass"
            )
        text = (
            f"disagreement introduced by pass `{self.name}` (bisected {self.passes} passes: "
            f"the first after which the result differs)"
        )
        return text + (
            f"\nIR before and after `{self.name}`:\n{self.ir_diff}" if self.ir_diff else ""
        )


def find_guilty_pass(
    dispatcher: Any, args: tuple[Any, ...], agrees: Callable[[Outcome], bool]
) -> Culprit | None:
    """Bisect the pass sequence of `dispatcher` (a compiled mode) on `args`; None when the
    example does not reproduce (it agrees with every pass enabled) or cannot be rerun."""
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
    lines = list(difflib.unified_diff(before, after, "before", "after", lineterm="", n=1))
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"... ({len(lines) - MAX_DIFF_LINES} more lines)"]
    return "\n".join("    " + line for line in lines)
