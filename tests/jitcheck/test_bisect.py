"""The guilty pass (`jitcheck.bisect`): the IR interpreter names the first pass after which
the typed IR computes something else than Python; compiling with passes disabled is the
fallback when the interpreter cannot run the function."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from benchmarks.mutants import BY_NAME
from jitcheck.bisect import COMPILING, INTERPRETER, find_guilty_pass
from jitcheck.compare import Outcome
from jitcheck.execute import invoke
from jitcore import jit
from tests.jitcheck.conftest import BREAK_SUB
from tests.jitcheck.support import write_module


def _agrees_with(func: Any, args: tuple[Any, ...]) -> Any:
    expected = invoke(func, args)

    def agrees(outcome: Outcome) -> bool:
        if expected.raised or outcome.raised:
            return expected.error_type is outcome.error_type
        return bool(np.allclose(outcome.value, expected.value, equal_nan=True))

    return agrees


def test_the_interpreter_names_a_planted_pass(miscompile: None) -> None:
    @jit(mode="compiled")
    def sub(a: float, b: float) -> float:
        return a * 2.0 - b

    culprit = find_guilty_pass(sub, (3.0, 1.0), _agrees_with(sub.py_func, (3.0, 1.0)))
    assert culprit is not None and culprit.name == BREAK_SUB
    assert culprit.method == INTERPRETER
    text = str(culprit)
    assert text.startswith(f"disagreement introduced by pass `{BREAK_SUB}` (IR diff below;")
    assert "+  t2 = sub t1 t1" in text


def test_compiling_is_the_fallback_when_the_interpreter_cannot_run_it(miscompile: None) -> None:
    @jit(mode="compiled")
    def guarded(a: float, b: float) -> float:
        try:
            return math.sqrt(a) - b
        except ValueError:
            return 0.0

    args = (4.0, 1.0)
    culprit = find_guilty_pass(guarded, args, _agrees_with(guarded.py_func, args))
    assert culprit is not None and culprit.name == BREAK_SUB
    assert culprit.method == COMPILING
    assert "the IR interpreter could not decide: cannot interpret" in str(culprit)


def test_no_pass_is_blamed_when_every_stage_computes_the_python_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    BY_NAME["sqrt-in-float32"].plant(monkeypatch)  # an emitter bug: below the typed IR

    @jit(mode="compiled")
    def root(a: float) -> float:
        return math.sqrt(a)

    culprit = find_guilty_pass(root, (2.0,), lambda outcome: outcome.value == math.sqrt(2.0))
    assert culprit is not None and culprit.name is None and culprit.method == INTERPRETER
    assert "lowering, code generation or LLVM" in str(culprit)
    # the interpreter ran math.sqrt as Python: the message says its compiled code may be it
    assert culprit.operations == ("math.sqrt",) and "(`math.sqrt`: the" in str(culprit)
    # and LLVM's passes are not to blame: the emitted code disagrees before any of them
    assert culprit.llvm is not None and culprit.llvm.index == 0
    assert "already disagrees (LLVM's -opt-bisect-limit=0)" in str(culprit)


def test_an_llvm_pass_is_named_when_only_llvm_changes_the_result() -> None:
    # With fast-math flags LLVM may rewrite (x + y) - y as x; Python rounds x + y first.
    # The typed IR computes Python's result at every stage, so LLVM's passes are bisected.
    @jit(mode="compiled", fastmath=True)
    def cancel(x: float, y: float) -> float:
        return (x + y) - y

    args = (1.0, 1e16)
    assert cancel(*args) != cancel.py_func(*args)
    culprit = find_guilty_pass(cancel, args, _agrees_with_exactly(cancel.py_func, args))
    assert culprit is not None and culprit.name is None and culprit.llvm is not None
    llvm = culprit.llvm
    assert 0 < llvm.index <= llvm.runs and llvm.name.endswith(".cancel")
    text = str(culprit)
    assert f"LLVM's optimizer introduces it: pass run {llvm.index} of {llvm.runs}" in text
    assert "-  %t4 = fsub fast double %t3, %y" in text.replace("\n    ", "\n")


def _agrees_with_exactly(func: Any, args: tuple[Any, ...]) -> Any:
    expected = func(*args)
    return lambda outcome: not outcome.raised and outcome.value == expected


def test_an_example_that_does_not_reproduce_blames_nothing() -> None:
    @jit(mode="compiled")
    def exact(a: float) -> float:
        return a + 1.0

    assert find_guilty_pass(exact, (2.0,), _agrees_with(exact.py_func, (2.0,))) is None


STEP = """
@jit
def smooth(a: Array[np.float64, 1], b: Array[np.float64, 1]) -> float:
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i] - 0.5 * b[i]
    return total
"""


def test_the_failure_message_names_the_pass_and_shows_its_ir_diff(
    pytester: pytest.Pytester, miscompile: None
) -> None:
    write_module(pytester, "test_k", STEP)
    result = pytester.runpytest_inprocess("--jit-diff", "--jit-diff-max-examples=30")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            f"O3: disagreement introduced by pass `{BREAK_SUB}` (IR diff below; IR interpreter:*",
            f"IR before and after `{BREAK_SUB}`:",
            "*-  t* = sub *",
            "*+  t* = sub *",
        ]
    )


def test_an_llvm_trial_that_cannot_judge_gives_no_answer() -> None:
    """A child that raises while compiling or judging reports an error: no answer, never
    a disagreement that would steer the bisection."""
    from jitcheck.llvmbisect import bisect_llvm_passes

    @jit(mode="compiled", fastmath=True)
    def cancel2(x: float, y: float) -> float:
        return (x + y) - y

    def broken(outcome: Outcome) -> bool:
        raise RuntimeError("cannot judge")

    assert bisect_llvm_passes(cancel2, (1.0, 1e16), broken) is None
