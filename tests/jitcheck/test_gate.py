"""The baseline gate fails closed: missing timings fail, other machines and configurations
warn, thresholds are sane, raw samples are kept and compared with a rank test, and compiled
code is compared with its own baseline time too."""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pytest

from jitcheck.baseline import ALPHA, compare_reports, comparison_lines, slower_p_value
from jitcheck.report import SCHEMA_ID, SCHEMA_VERSION
from jitcheck.settings import parse_threshold
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
    compiled, python = 1e-4 * rng.lognormal(0.0, 0.02, 100), 1e-2 * rng.lognormal(0.0, 0.6, 100)
    old = _report(python, compiled)
    # Python's rounds spread so widely that its fastest round fell 30% in this run: by the
    # minimums, the speedup did not move; the compiled time did
    again = np.maximum(1e-2 * rng.lognormal(0.0, 0.6, 100), python.min() * 1.3)
    new = _report(again, compiled * 1.3)
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
    python, compiled = 1e-2 * rng.lognormal(0.0, 0.1, 40), 1e-4 * rng.lognormal(0.0, 0.1, 40)
    again = 1e-4 * rng.lognormal(0.0, 0.1, 40)
    comparison = compare_reports(_report(python, compiled), _report(python, again), 0.10)
    assert not comparison.failed, [str(c) for c in comparison.regressions]


def test_the_statistic_is_chosen_as_pytest_benchmark_writes_it() -> None:
    assert parse_threshold("10%") == ("min", pytest.approx(0.10))
    assert parse_threshold("median:5%") == ("median", pytest.approx(0.05))
    assert parse_threshold("mean:20") == ("mean", pytest.approx(0.20))
    with pytest.raises(ValueError, match="unknown statistic 'stddev'"):
        parse_threshold("stddev:10%")
    rng = np.random.default_rng(4)
    python, compiled = 1e-2 * rng.lognormal(0.0, 0.02, 60), 1e-4 * rng.lognormal(0.0, 0.02, 60)
    # the fastest rounds kept their time, the typical round got 40% slower
    slower = np.where(np.arange(60) < 5, compiled, compiled * 1.4)
    old, new = _report(python, compiled), _report(python, slower)
    for report, data in ((old, compiled), (new, slower)):
        for key, values in (("python", python), ("O3", data)):
            report["functions"]["m.f"]["timing"][key]["stats"]["median"] = float(np.median(values))
    assert not compare_reports(old, new, 0.10).failed  # minimums: unchanged
    by_median = compare_reports(old, new, 0.10, stat="median")
    assert by_median.failed and by_median.stat == "median"
    assert {c.kind for c in by_median.regressions} == {"speedup", "time"}


def test_an_unknown_statistic_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_inprocess("--jit-diff", "--jit-diff-max-regression=iqr:10%")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*unknown statistic 'iqr'*median:10%*"])


def _paired(python: np.ndarray, compiled: np.ndarray) -> dict[str, Any]:
    report = _report(python, compiled)
    timing = report["functions"]["m.f"]["timing"]
    timing["python"]["paired"], timing["O3"]["paired"] = python.tolist(), compiled.tolist()
    return report


def test_paired_ratios_cancel_load_that_hits_both_sides() -> None:
    """Load that slows a whole round slows Python and compiled code alike: their ratio holds,
    so a loaded run is not a regression; a compiled-only slowdown is, with the noise level."""
    rng = np.random.default_rng(5)
    python, compiled = 1e-2 * rng.lognormal(0.0, 0.05, 30), 1e-4 * rng.lognormal(0.0, 0.05, 30)
    load = rng.uniform(1.0, 2.5, 30)  # each round's slowdown by other processes
    old = _paired(python, compiled)
    loaded = _paired(python * load, compiled * load * rng.lognormal(0.0, 0.05, 30))
    loaded["machine"]["cpu"]["name"] = "elsewhere"  # compare speedups only
    calm = compare_reports(old, loaded, 0.10)
    assert not calm.failed, [str(c) for c in calm.regressions]
    assert calm.noise_level() is not None and calm.noise_level() < 0.2
    slow = _paired(python * load, compiled * load * 1.25)
    slow["machine"]["cpu"]["name"] = "elsewhere"
    caught = compare_reports(old, slow, 0.10)
    assert [c.kind for c in caught.regressions] == ["speedup"]
    assert "noise" in str(caught.regressions[0])
    assert any("noise level" in line for line in comparison_lines(caught, "base.json"))


class _Executor:
    """Times a function as given: one timing per `bench` call, in order."""

    def __init__(self, timings: list[dict[str, Any]]) -> None:
        self.timings = timings
        self.calls = 0

    def bench(self, *args: Any) -> dict[str, Any]:
        timed = self.timings[self.calls]
        self.calls += 1
        return timed


def _fn(report: dict[str, Any]) -> dict[str, Any]:
    fn = report["functions"]["m.f"]
    return {"timing": fn["timing"], "speedup": fn["speedup"], "errors": {}}


def test_a_suspected_regression_is_timed_again_before_it_counts(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jitcheck import check
    from jitcheck.bench import BenchOptions
    from jitcheck.results import FunctionResult
    from jitcheck.settings import RunSettings

    rng = np.random.default_rng(6)
    python, compiled = 1e-2 * rng.lognormal(0.0, 0.02, 40), 1e-4 * rng.lognormal(0.0, 0.02, 40)
    base = _paired(python, compiled) | {"schema": SCHEMA_ID, "schema_version": SCHEMA_VERSION}
    path = tmp_path / "base.json"
    path.write_text(json.dumps(base))
    monkeypatch.setattr(check, "_machine", lambda: base["machine"])
    run_settings = RunSettings(baseline=str(path), max_regression=0.10)

    def result_of(report: dict[str, Any]) -> FunctionResult:
        result = FunctionResult("m.f", "m.py::f::jit-diff", "m", "f")
        result.timing, result.speedup = _fn(report)["timing"], _fn(report)["speedup"]
        return result

    # a burst during the first timing: the second is clean and replaces it
    burst = result_of(_paired(python, compiled * 1.5))
    executor = _Executor([_fn(_paired(python, compiled * 1.01))])
    check.confirm_timing(executor, (), BenchOptions(), burst, run_settings)
    assert burst.retimed == 1 and executor.calls == 1
    assert burst.speedup["O3"] == pytest.approx(python.min() / (compiled.min() * 1.01))
    # a real slowdown shows in every timing: timed RETIMES more times, still a regression
    real = result_of(_paired(python, compiled * 1.3))
    executor = _Executor([_fn(_paired(python, compiled * 1.3))] * check.RETIMES)
    check.confirm_timing(executor, (), BenchOptions(), real, run_settings)
    assert real.retimed == check.RETIMES
    new = {"machine": base["machine"], "functions": {"m.f": real.as_dict()}}
    assert compare_reports(base, new, 0.10).failed
    # no suspicion, no second timing
    fine = result_of(_paired(python, compiled))
    check.confirm_timing(_Executor([]), (), BenchOptions(), fine, run_settings)
    assert fine.retimed == 0


def test_paired_rounds_and_retiming_reach_the_report(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_k", KERNEL)
    _, report = _timed(pytester)
    timing = report["functions"]["test_k.loop_sum"]["timing"]
    assert len(timing["python"]["paired"]) == len(timing["O3"]["paired"]) >= 2
    # a baseline three times as fast as anything this run can do: a regression every time
    fn = report["functions"]["test_k.loop_sum"]
    fn["speedup"]["O3"] *= 3
    for key in ("python", "O3"):
        scale = 3.0 if key == "python" else 1.0
        fn["timing"][key]["stats"]["min"] *= scale
        fn["timing"][key]["paired"] = [x * scale for x in fn["timing"][key]["paired"]]
    (pytester.path / "base.json").write_text(json.dumps(report))
    result, again = _timed(pytester, "--jit-diff-baseline=base.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert again["functions"]["test_k.loop_sum"]["retimed"] == 2
    assert again["baseline"]["statistic"] == "min"
    result.stdout.fnmatch_lines(["*REGRESSION test_k.loop_sum [[]O3[]]: speedup*noise*"])


def test_a_busier_machine_is_not_a_compiled_time_regression() -> None:
    """A CPU hog beside a threaded BLAS call slowed Python and compiled code 2-10x in one run:
    the Python reference (the same code both times) shows the machine changed, so absolute
    compiled times are not compared; the paired speedup, which cancels the load, decides."""
    rng = np.random.default_rng(6)
    python, compiled = 1e-2 * rng.lognormal(0.0, 0.05, 30), 1e-4 * rng.lognormal(0.0, 0.05, 30)
    load = rng.uniform(2.0, 10.0, 30)
    old = _paired(python, compiled)
    busy = _paired(python * load, compiled * load * rng.lognormal(0.0, 0.05, 30))
    comparison = compare_reports(old, busy, 0.10)
    assert not comparison.failed, [str(c) for c in comparison.regressions]
    assert list(comparison.loaded) == ["m.f"]
    assert comparison.loaded["m.f"].startswith("its Python reference ran +")
    assert any("loaded     m.f: its Python reference ran" in line
               for line in comparison_lines(comparison, "base.json"))  # fmt: skip
    # a real slowdown on the busy machine is still caught, by the speedup
    slow = _paired(python * load, compiled * load * 1.3)
    assert [c.kind for c in compare_reports(old, slow, 0.10).regressions] == ["speedup"]


def test_a_parallel_mode_timed_beside_other_work_is_not_compared() -> None:
    """Threads that find a core taken wait by however the scheduler deals the cores: a
    parallel mode timed while another process kept a core busy is not compared, in either
    direction; timed on a free machine, it is."""
    rng = np.random.default_rng(7)
    python, compiled = 1e-2 * rng.lognormal(0.0, 0.05, 30), 1e-4 * rng.lognormal(0.0, 0.05, 30)

    def parallel(python: np.ndarray, compiled: np.ndarray, load: float | None) -> dict:
        report = _paired(python, compiled)
        fn = report["functions"]["m.f"]
        fn["timing"]["O3+parallel"] = fn["timing"].pop("O3")
        fn["speedup"] = {"O3+parallel": fn["speedup"]["O3"]}
        fn["load"] = load
        return report

    old = parallel(python, compiled, 0.0)
    contended = compare_reports(old, parallel(python, compiled * 1.3, 1.0), 0.10)
    assert not contended.failed and list(contended.loaded) == ["m.f [O3+parallel]"]
    assert "kept 0.0 and 1.0 cores busy" in contended.loaded["m.f [O3+parallel]"]
    # a serial mode whose timing used two cores (a threaded BLAS call) counts as parallel
    threaded = parallel(python, compiled * 1.3, 1.0)
    fn = threaded["functions"]["m.f"]
    fn["timing"]["O3"] = fn["timing"].pop("O3+parallel") | {"cores": 1.9}
    fn["speedup"] = {"O3": fn["speedup"]["O3+parallel"]}
    serial = copy.deepcopy(old)
    sfn = serial["functions"]["m.f"]
    sfn["timing"]["O3"] = sfn["timing"].pop("O3+parallel")
    sfn["speedup"] = {"O3": sfn["speedup"]["O3+parallel"]}
    blas = compare_reports(serial, threaded, 0.10)
    assert not blas.failed and list(blas.loaded) == ["m.f [O3]"]
    free = compare_reports(old, parallel(python, compiled * 1.3, 0.1), 0.10)
    assert free.failed and not free.loaded


def test_a_compiled_time_may_drift_as_much_as_the_python_reference() -> None:
    """Between two runs of unchanged code the whole process may run some percent slower
    (beside a CPU hog, 0.1 µs calls moved 8-11%): the same Python code drifting as much says
    it is the run, not the compiler; a compiled time beyond that drift is still a regression."""
    rng = np.random.default_rng(8)
    python, compiled = 1e-2 * rng.lognormal(0.0, 0.01, 200), 2e-5 * rng.lognormal(0.0, 0.01, 200)
    old = _report(python, compiled)
    drifted = compare_reports(old, _report(python * 1.09, compiled * 1.12), 0.10)
    assert not drifted.failed, [str(c) for c in drifted.regressions]
    worse = compare_reports(old, _report(python * 1.09, compiled * 1.35), 0.10)
    (time,) = [c for c in worse.regressions if c.kind == "time"]
    assert "Python reference +9%" in str(time)


def test_a_compiled_call_under_10_us_is_compared_through_its_speedup_only() -> None:
    """Sub-10 µs calls move 10-15% between processes with the allocator's state and code
    placement; their absolute times are not compared, their speedups are."""
    rng = np.random.default_rng(9)
    python, compiled = 1e-5 * rng.lognormal(0.0, 0.01, 200), 1e-7 * rng.lognormal(0.0, 0.01, 200)
    old = _report(python, compiled)
    moved = compare_reports(old, _report(python * 1.15, compiled * 1.15), 0.10)
    assert not moved.failed and all(c.kind == "speedup" for c in moved.changes)
    slower = compare_reports(old, _report(python, compiled * 1.3), 0.10)
    assert [c.kind for c in slower.regressions] == ["speedup"]
