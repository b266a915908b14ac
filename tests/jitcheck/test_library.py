"""`--jit-diff-library` checks every registry operation on corner-biased inputs, and a
disagreement names the optimization pass that introduced it."""

from __future__ import annotations

import math

import pytest
from hypothesis import find, settings

import jitcore
from jitcheck.corners import corner_floats, corner_ints
from jitcheck.library import SKIP, library_cases, undrivable
from tests.import_graph import ROOT
from tests.jitcheck.conftest import BREAK_SUB
from tests.jitcheck.support import write_module


def test_every_operation_is_checked_or_skipped_with_a_reason() -> None:
    checked = {case.name for case in library_cases(every_profile=True)}
    for entry in jitcore.supported():
        if entry.kind != "attribute":
            assert entry.name in checked or entry.name in SKIP or undrivable(entry), entry.name
    assert not set(SKIP) - {e.name for e in jitcore.supported()}, "SKIP names unknown ops"
    ids = [case.id for case in library_cases(every_profile=False)]
    assert "math.tanh(float)" in ids and "+(float, float)" in ids
    assert len(ids) == len(set(ids))


def test_corner_strategies_reach_the_corners() -> None:
    quick = settings(max_examples=2000, database=None)
    assert find(corner_floats(), lambda x: 709 < x < 710, settings=quick)
    assert find(corner_floats(), lambda x: 0 < x < 2.2250738585072014e-308, settings=quick)
    assert find(corner_floats(), lambda x: x >= 1e15 and x < math.inf, settings=quick)
    assert find(corner_floats(32), lambda x: 88.7 < x < 88.8, settings=quick)
    assert find(corner_ints(), lambda n: 2**53 < n < 2**53 + 3, settings=quick)
    assert find(corner_ints(), lambda n: n >= 2**63 - 3, settings=quick)


def _library_run(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, mutant: str, *args: str
) -> pytest.RunResult:
    """A child process (its compiler is fresh) checking library operations, a mutant planted
    by `benchmarks.mutants` when named."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("CI", "true")
    monkeypatch.setenv("JITCHECK_MUTANT", mutant)
    pytester.makeconftest("")
    return pytester.runpytest_subprocess(
        "-p", "benchmarks.mutants", "-p", "no:xdist", "--jit-diff-library", *args
    )


def test_the_library_check_catches_a_tanh_wrong_beyond_10(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No kernel has to call tanh near 10: the operation's own check does."""
    clean = _library_run(
        pytester, monkeypatch, "", "-k", "math and tanh and not atanh and not cmath and float"
    )
    clean.assert_outcomes(passed=1)
    broken = _library_run(
        pytester,
        monkeypatch,
        "tanh-saturates-at-10",
        "-k",
        "math and tanh and not atanh and not cmath and float",
    )
    broken.assert_outcomes(failed=1)
    broken.stdout.fnmatch_lines(["*`math_tanh_float` disagrees with Python in mode O3*"])
    # not a pass: the maths emitter is wrong, and the bisection says where to look instead
    broken.stdout.fnmatch_lines(["*comes from lowering, code generation or LLVM*"])


SUB = """
@jit
def sub(a: float, b: float) -> float:
    return a - b * 2.0
"""


def test_a_planted_miscompiling_pass_is_named_by_the_bisection(
    pytester: pytest.Pytester, miscompile: None
) -> None:
    write_module(pytester, "test_k", SUB)
    result = pytester.runpytest_inprocess("--jit-diff", "--jit-diff-max-examples=30")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            f"O3: disagreement introduced by pass `{BREAK_SUB}` (IR diff below; IR interpreter*",
            f"IR before and after `{BREAK_SUB}`:",
            "*-  t2 = sub a t1 *",
            "*+  t2 = sub a a *",
        ]
    )
