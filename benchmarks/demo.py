"""Compile every bundled kernel, run it beside Python on the same input, and check they agree.

    python -m benchmarks.demo        (or `make demo`)

Each kernel is compiled afresh in COMPILED mode, so a kernel jitcore cannot compile yet says
so (with the first line of the reason) instead of quietly running as Python. Exit status: 0
when every compiled kernel agrees with Python, even if some cannot be compiled yet; 1 if a
compiled kernel returns something else or raises where Python does not, which is a bug.
"""

from __future__ import annotations

import re
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.cases import CASES, Case, Inputs, difference, fresh, run
from benchmarks.harness import first_line
from benchmarks.machine import describe
from benchmarks.table import format_seconds, render
from benchmarks.variants import fresh_jit, pure_python
from jitcore import JitError

# Seconds spent timing each implementation of a kernel (at least one call is always made).
BUDGET = 0.25
MAX_CALLS = 20


@dataclass
class Result:
    """What the demo learned about one kernel."""

    case: Case
    python: float
    compiled: float | None = None
    compile_seconds: float | None = None
    problem: str | None = None  # why it did not compile, or how it disagreed
    bug: bool = False

    def status(self) -> str:
        if self.bug:
            return f"MISMATCH: {self.problem}"
        if self.problem:
            return f"cannot compile yet: {self.problem}"
        return "compiled"

    def row(self) -> list[str]:
        cells = [self.case.name, self.case.label(self.case.demo_size), format_seconds(self.python)]
        if self.compiled is None or self.compile_seconds is None or self.bug:
            cells += ["-", "-", "-"]
        else:
            cells += [
                format_seconds(self.compiled),
                f"{self.python / self.compiled:.3g}x",
                f"{1e3 * self.compile_seconds:.0f} ms",
            ]
        return [*cells, self.status()]


def best_time(fn: Callable[..., Any], args: Inputs) -> float:
    """The fastest of a few calls, each on fresh copies of the arrays (made outside the clock):
    kernels that update their arguments must not drift from one call to the next."""
    best = float("inf")
    spent = 0.0
    for _ in range(MAX_CALLS):
        mine = fresh(args)
        start = time.perf_counter()
        fn(*mine)
        elapsed = time.perf_counter() - start
        best, spent = min(best, elapsed), spent + elapsed
        if spent > BUDGET:
            break
    return best


def first_call(fn: Callable[..., Any], args: Inputs) -> float:
    start = time.perf_counter()
    fn(*fresh(args))
    return time.perf_counter() - start


def reason(exc: Exception) -> str:
    """`TypingError: kernels.py:12:5: ...`: one line, the error's name once, a short path."""
    message = first_line(str(exc), limit=1000)
    message = re.sub(r"^\S*/([^/\s]+:\d+:\d+: )", r"\1", message)
    name = type(exc).__name__
    return first_line(message if name in message else f"{name}: {message}", limit=100)


def run_case(case: Case) -> Result:
    """Time Python, compile, time the compiled kernel, and compare what both produce."""
    args = case.inputs(case.demo_size)
    python = pure_python(case.kernel)
    result = Result(case, best_time(python, args))
    compiled = fresh_jit(case.kernel, mode="compiled")
    try:
        first = first_call(compiled, args)
    except (JitError, TypeError) as exc:  # TypeError: an argument type it does not take yet
        result.problem = reason(exc)
        return result
    except Exception as exc:
        result.problem, result.bug = f"raised {type(exc).__name__}: {first_line(str(exc))}", True
        return result
    result.compiled = best_time(compiled, args)
    result.compile_seconds = max(0.0, first - result.compiled)
    diff = difference(case, run(python, args), run(compiled, args))
    if diff is not None:
        result.problem, result.bug = first_line(str(diff)), True
    return result


def report(results: Sequence[Result]) -> list[str]:
    headers = ["kernel", "input", "python", "compiled", "speedup", "compile", "status"]
    lines = render(headers, [r.row() for r in results], align="llrrrrl")
    compiled = sum(r.compiled is not None and not r.bug for r in results)
    pending = [r.case.name for r in results if r.problem and not r.bug]
    bugs = [r.case.name for r in results if r.bug]
    lines.append("")
    lines.append(f"{compiled} of {len(results)} kernels compiled and agree with Python.")
    if pending:
        lines.append(f"jitcore cannot compile these yet: {', '.join(pending)}.")
    if bugs:
        lines.append(f"BUG: compiled code disagrees with Python for {', '.join(bugs)}.")
    return lines


def main() -> int:
    m = describe()
    intro = (
        f"jitcore {m['jitcore']} on {m['cpu']}: Python {m['python']}, NumPy {m['numpy']}, "
        f"LLVM {m['llvm']}. Each kernel compiled afresh (mode='compiled') and checked against "
        "Python on the same input; times are the best of a few calls."
    )
    print(textwrap.fill(intro, width=99), end="\n\n")
    results = [run_case(case) for case in CASES]
    print("\n".join(report(results)))
    return 1 if any(r.bug for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
