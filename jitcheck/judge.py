"""One compiled outcome judged against Python's: agrees, differs, or is not comparable.

The differential check (`jitcheck.diff`) and the check of the timing input
(`jitcheck.check`) judge the same way, so the timing input's already computed results count
as one more example.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jitcheck.compare import (
    Difference,
    Outcome,
    Tolerance,
    compare_outcomes,
    fastmath_exempt,
    out_of_domain_error,
)
from jitcheck.modes import Mode


@dataclass(frozen=True)
class Verdict:
    """`difference` is set when the outcomes differ; `rejected` names why the example is out
    of the compiled domain; `not_compared` is set for fast-math modes where a NaN or infinity
    appeared (unspecified results)."""

    difference: Difference | None = None
    rejected: str | None = None
    not_compared: bool = False


def judge(
    mode: Mode,
    args: tuple[Any, ...],
    python: Outcome,
    compiled: Outcome,
    tolerance: Tolerance,
    arg_names: tuple[str, ...] = (),
) -> Verdict:
    """Whether `compiled` (mode `mode`, on `args`) agrees with `python`."""
    reason = out_of_domain_error(python, compiled)
    if reason is not None:
        return Verdict(rejected=reason)
    if mode.fastmath and fastmath_exempt(args, python, compiled):
        return Verdict(not_compared=True)
    tol = tolerance.for_fastmath() if mode.fastmath else tolerance
    return Verdict(difference=compare_outcomes(python, compiled, tol, arg_names))
