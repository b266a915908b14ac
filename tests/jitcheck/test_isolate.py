"""`--jit-diff-isolate`: a crash or a hang in compiled code fails that function, with the mode
and the example, and the session goes on.

The kernels' module registers, only inside the isolation child, a compiler pass that kills
the child (SIGSEGV, as a wild store would) or hangs while compiling one chosen function: the
parent sees exactly what a crash or a hang in compiled code looks like.
"""

from __future__ import annotations

import pytest

from tests.jitcheck.support import function, run, write_module

KERNELS = """
import os
import signal
import sys
import time

from jitcore.optimize import Pass, register_pass


def _sabotage(fn):
    if fn.name.endswith("crashes"):
        os.kill(os.getpid(), signal.SIGSEGV)
    if fn.name.endswith("hangs"):
        time.sleep(60)
    return False


if getattr(sys.modules["__main__"].__spec__, "name", "") == "jitcheck.isolate":
    register_pass(Pass("sabotage", _sabotage))


@jit
def crashes(x: float) -> float:
    return x + 1.0


@jit
def hangs(x: float) -> float:
    return x + 2.0


@jit
def fine(x: float) -> float:
    return x + 3.0
"""


@pytest.mark.slow  # child processes: a few seconds
def test_a_crash_or_hang_fails_its_function_and_the_session_goes_on(
    pytester: pytest.Pytester,
) -> None:
    write_module(pytester, "test_isolated", KERNELS)
    result, report = run(
        pytester,
        "--jit-diff",
        "--jit-diff-isolate",
        "--jit-diff-timeout=2",
        "--jit-diff-max-examples=5",
    )
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*_ crashes::jit-diff _*",
            "compiled code crashed the process (SIGSEGV) in mode O3 on",
            "  crashes(x=*)",
            "*_ hangs::jit-diff _*",
            "compiled code did not return within 2 s in mode O3 on",
            "  hangs(x=*)",
        ]
    )
    assert function(report, "fine")["diff"]["examples"] == 5
