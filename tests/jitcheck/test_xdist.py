"""Under pytest-xdist: each function is checked once, on one worker, and the workers' records
merge into one report; a worker that crashes still leaves its function in the report."""

from __future__ import annotations

import json

import pytest

from jitcheck.schema import validate
from tests.jitcheck.support import FAST_TIMING, write_module

KERNELS = "\n".join(
    f"@jit\ndef k{i}(x: float, n: int) -> float:\n    return x * n + {i}\n" for i in range(6)
)

CRASHER = """
import os
import signal

from jitcore.optimize import Pass, register_pass


def _crash_worker(fn):
    if fn.name.endswith("crashes"):
        os.kill(os.getpid(), signal.SIGSEGV)
    return False


if os.environ.get("PYTEST_XDIST_WORKER"):
    register_pass(Pass("crash-worker", _crash_worker))


@jit
def crashes(x: float) -> float:
    return x
"""


@pytest.mark.slow  # child processes: a few seconds
def test_two_workers_merge_their_results_into_one_report(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_many", KERNELS)
    write_module(pytester, "test_crash", CRASHER)
    result = pytester.runpytest_subprocess(
        "-n", "2", "-p", "no:faulthandler", "-W", "error::jitcore.errors.JitFallbackWarning",
        "--jit-diff", "--jit-diff-bench",
        "--jit-diff-max-examples=5", "--jit-diff-report=merged.json", *FAST_TIMING,
    )  # fmt: skip
    result.assert_outcomes(passed=6, failed=1)
    report = json.loads((pytester.path / "merged.json").read_text())
    assert validate(report) == []
    functions = report["functions"]
    assert sorted(functions) == ["test_crash.crashes", *(f"test_many.k{i}" for i in range(6))]
    assert all(functions[f"test_many.k{i}"]["speedup"]["O3"] > 0 for i in range(6))
    crashed = functions["test_crash.crashes"]
    assert crashed["outcome"] == "error" and "the worker running it crashed" in crashed["reason"]
    result.stdout.fnmatch_lines(["*= jit-diff summary =*", "test_many.k5 *passed*"])
