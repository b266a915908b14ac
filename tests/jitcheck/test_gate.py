"""The baseline gate fails closed: missing timings fail, other machines and configurations
warn, thresholds are sane, raw samples are kept and compared with a rank test, and compiled
code is compared with its own baseline time too."""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pytest

from jitcheck.baseline import ALPHA, compare_reports, slower_p_value
from tests.jitcheck.support import FAST_TIMING, run, write_module

KERNEL = """
@jit
def loop_sum(n: int) -> float:
    total = 0.0
    for i in range(n):
        total += i * 0.5
    return total
"""

SKIPPED = '@jitcheck(skip="not today")' + KERNEL


def _timed(pytester: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, dict[str, Any]]:
    return run(
        pytester, "--jit-diff", "--jit-diff-bench", "--jit-diff-max-examples=5", *FAST_TIMING,
        *args,
    )  # fmt: skip


def test_a_baseline_from_o3_fails_a_run_at_o0(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_module(pytester, "test_k", KERNEL)
    _, report = _timed(pytester)
    (pytester.path / "base.json").write_text(json.dumps(report))
    assert list(report["functions"]["test_k.loop_sum"]["speedup"]) == ["O3"]
    monkeypatch.setenv("JITCORE_OPT", "0")
    result, _ = _timed(pytester, "--jit-diff-baseline=base.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "jitcheck: WARNING: jitcore configuration differs: baseline JITCORE_OPT unset, "
            "this run JITCORE_OPT=0",
            "*",
            "WARNING: jitcore configuration differs: *",
            "  MISSING test_k.loop_sum [[]O3] (passed): timed in the baseline, not in this run",
            "FAILED: 1 baseline timing(s) missing (--jit-diff-allow-missing accepts that)",
        ]
    )
    allowed, _ = _timed(pytester, "--jit-diff-baseline=base.json", "--jit-diff-allow-missing")
    assert allowed.ret == pytest.ExitCode.OK
    allowed.stdout.fnmatch_lines(["  missing (allowed) test_k.loop_sum [[]O3] (passed)*"])


def test_a_function_that_is_skipped_now_fails_the_gate(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_k", KERNEL)
    _, report = _timed(pytester)
    (pytester.path / "base.json").write_text(json.dumps(report))
    write_module(pytester, "test_k", SKIPPED)
    result, new = _timed(pytester, "--jit-diff-baseline=base.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["  MISSING test_k.loop_sum [[]O3] (skipped): *"])
    assert new["baseline"]["failed"] is True


@pytest.mark.parametrize("threshold", ["0", "0%", "100%", "150%", "-5"])
def test_thresholds_outside_0_to_100_percent_are_rejected(
    pytester: pytest.Pytester, threshold: str
) -> None:
    result = pytester.runpytest_inprocess("--jit-diff", f"--jit-diff-max-regression={threshold}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*strictly between 0% and 100%*"])


def test_raw_samples_are_kept_in_the_report(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_k", KERNEL)
    _, report = _timed(pytester)
    timing = report["functions"]["test_k.loop_sum"]["timing"]
    for key in ("python", "O3"):
        stats = timing[key]["stats"]
        assert 2 <= len(stats["data"]) <= min(stats["rounds"], 200)
        assert min(stats["data"]) == pytest.approx(stats["min"])


def test_the_rank_test_tells_a_shift_from_noise() -> None:
    rng = np.random.default_rng(1)
    old = rng.lognormal(0.0, 0.3, 50)
    p_shift = slower_p_value(old, rng.lognormal(0.3, 0.3, 50))
    p_same = slower_p_value(old, rng.lognormal(0.0, 0.3, 50))
    p_faster = slower_p_value(old, old * 0.5)
    assert p_shift is not None and p_shift < ALPHA
    assert p_same is not None and p_same > 0.05
    assert p_faster is not None and p_faster > 0.99
    assert slower_p_value(np.ones(5), np.ones(5)) == 1.0
    assert slower_p_value(old[:2], old[:2] * 9) is None  # 2 vs 2 can never reach ALPHA


def _report(python: np.ndarray, compiled: np.ndarray, cpu: str = "znver4") -> dict[str, Any]:
    def bench(data: np.ndarray) -> dict[str, Any]:
        return {"stats": {"min": float(data.min()), "data": data.tolist()}}

    return {
        "machine": {"cpu": {"name": cpu, "features": "+avx2"}, "llvm": "22", "jitcore": "0.1",
                    "jitcore_env": {}},
        "functions": {"m.f": {"outcome": "passed",
                              "speedup": {"O3": python.min() / compiled.min()},
                              "timing": {"python": bench(python), "O3": bench(compiled)}}},
    }  # fmt: skip


def test_a_compiled_only_slowdown_shows_though_python_timing_is_noisy() -> None:
    rng = np.random.default_rng(2)
    compiled, python = 1e-6 * rng.lognormal(0.0, 0.02, 100), 1e-4 * rng.lognormal(0.0, 0.6, 100)
    old = _report(python, compiled)
    # the noisy Python timing happened to be slower by as much: the speedup did not move
    new = _report(python * 1.3, compiled * 1.3)
    comparison = compare_reports(old, new, 0.10)
    assert [(c.kind, c.mode) for c in comparison.regressions] == [("time", "O3")]
    assert comparison.failed and "compiled time" in str(comparison.regressions[0])
    # the same numbers from another CPU: a warning, and absolute times are not compared
    other = compare_reports(old, copy.deepcopy(new) | {"machine": _report(compiled, compiled,
                            "skylake")["machine"]}, 0.10)  # fmt: skip
    assert other.warnings == ["CPU differs: baseline znver4, this run skylake"]
    assert other.regressions == [] and not other.failed


def test_noise_within_the_threshold_or_not_significant_passes() -> None:
    rng = np.random.default_rng(3)
    python, compiled = 1e-4 * rng.lognormal(0.0, 0.1, 40), 1e-6 * rng.lognormal(0.0, 0.1, 40)
    again = 1e-6 * rng.lognormal(0.0, 0.1, 40)
    comparison = compare_reports(_report(python, compiled), _report(python, again), 0.10)
    assert not comparison.failed, [str(c) for c in comparison.regressions]
