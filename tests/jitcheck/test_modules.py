"""`@jitcheck` on a jitcore.Module class: the state compared after every step (issue 16)."""

from __future__ import annotations

import pytest

from tests.jitcheck.support import run, write_module

DRIFT = """
from jitcore import Module, Variable


@jitcheck(I=st.floats(1, 10), n_steps=st.integers(1, 8), max_examples=30)
class Drift(Module):
    def __init__(self, n=3):
        self.v = Variable(np.zeros(n))
        self.count = Variable(0)
        self.rate = 0.5

    def update(self, I):
        self.count += 1
        self.v += self.rate
        if self.count >= 3:
            self.v[1] = self.v[1] - I
        return self.v[0]
"""


def test_a_correct_module_passes(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_drift", DRIFT)
    result, _ = run(pytester)
    result.assert_outcomes(passed=1)


def test_a_planted_divergence_names_the_step_and_variable(
    pytester: pytest.Pytester, miscompile: None
) -> None:
    write_module(pytester, "test_drift", DRIFT)
    result, _ = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "Drift diverges at step 3 of 3: Variable `v`[[]1[]]: python *, compiled *",
            "  model: Drift()",
            "  inputs of step 3: update(I=1.0)",
        ]
    )


def test_a_step_parameter_without_a_strategy_is_a_usage_error(
    pytester: pytest.Pytester,
) -> None:
    write_module(pytester, "test_drift", DRIFT.replace("I=st.floats(1, 10), ", ""))
    result, _ = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*give a strategy for update() parameter `I`*"])
