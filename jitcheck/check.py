"""One function's whole check: derive inputs, compare every mode with Python, then time.

`check_function` fills a `FunctionResult` as it goes, so whatever happens (a skip, a
mismatch, a crash in the isolation child) the record says how far it got; the plugin adds the
outcome from pytest's report.
"""

from __future__ import annotations

import functools
import inspect
import os
from typing import Any

import numpy as np
from hypothesis import settings as hypothesis_settings

from jitcheck.bench import BenchOptions
from jitcheck.compare import DEFAULT_ULPS, Outcome, Tolerance, show, unchecked_exempt
from jitcheck.decorator import CheckConfig
from jitcheck.diff import DiffSpec, DiffStats, Mismatch, mismatch_message, run_differential
from jitcheck.execute import LocalExecutor, plain_python
from jitcheck.isolate import IsolatedExecutor
from jitcheck.judge import judge
from jitcheck.modes import Mode, resolve_modes
from jitcheck.results import FunctionResult
from jitcheck.settings import RunSettings
from jitcheck.sizing import sized_timing_input
from jitcheck.strategies import InputPlan, Underivable, derive_plan
from jitcheck.values import describe_call
from jitcore import ExecutionMode

NO_TIMEOUT = 24 * 3600.0  # what "no timeout" means for an isolated call: a day


def input_plan(target: Any, config: CheckConfig) -> InputPlan:
    """How to generate `target`'s arguments; Underivable (with how to fix it) if unknown."""
    return derive_plan(target, config.strategies, config.ndim, config.shapes)


def check_function(
    target: Any,
    binding: str,
    plan: InputPlan,
    config: CheckConfig,
    run: RunSettings,
    result: FunctionResult,
    pytest_config: Any,
) -> None:
    """Check `target` (a dispatcher bound to `binding` in its module); raises on failure."""
    result.inputs = plan.source
    modes = resolve_modes(target.options, [*run.modes, *config.modes])
    result.modes = [m.label for m in modes]
    spec = DiffSpec(
        name=binding,
        key=f"{target.py_func.__code__.co_filename}::{target.__module__}.{binding}",
        plan=plan,
        modes=modes,
        tolerance=Tolerance(
            DEFAULT_ULPS if config.ulps is None else config.ulps,
            config.rtol or 0.0,
            config.atol or 0.0,
        ),
        max_examples=config.max_examples or run.max_examples or hypothesis_settings().max_examples,
        timeout=run.timeout or None,
        may_skip=target.options.mode is not ExecutionMode.COMPILED,
        min_returned=run.min_returned if config.min_returned is None else config.min_returned,
        max_rejected=run.max_rejected if config.max_rejected is None else config.max_rejected,
        nodeid=result.nodeid,
        replay=run.replay,
    )
    executor = _executor(target, binding, modes, run)
    stats = DiffStats()
    try:
        run_differential(spec, executor, stats)
        if run.bench and _benchmark_disabled(pytest_config):
            result.bench_error = "not timed: --benchmark-disable"
        elif run.bench:
            options = BenchOptions.from_config(pytest_config)
            sink = _benchmark_sink(pytest_config)
            outcomes, args = _time(executor, target, plan, config, binding, result, options, sink)
            if run.baseline and result.timing:
                confirm_timing(executor, args, options, result, run)
            example = describe_call(binding, plan.positional, args)
            _check_timing_results(spec, outcomes, f"the timing input {example}")
    finally:
        result.diff = stats.as_dict()
        result.statistics = stats.statistics
        result.compile = result.compile or executor.compile_stats()
        executor.close()


def _benchmark_sink(pytest_config: Any) -> Any:
    """Where pytest-benchmark collects this session's benchmarks, when it is running them
    (it disables itself under xdist and `--benchmark-disable`): its session object is only
    reachable as `config._benchmarksession`, which its own hooks use too."""
    session = getattr(pytest_config, "_benchmarksession", None)
    if session is None or session.disabled:
        return None
    return session.benchmarks.append


def _benchmark_disabled(pytest_config: Any) -> bool:
    """pytest-benchmark's `--benchmark-disable`: jitcheck does not time either (the
    differential check still runs). `--benchmark-skip` skips pytest-benchmark's own tests
    and leaves jitcheck's timing alone (`make demo` relies on that)."""
    try:
        return bool(pytest_config.getoption("benchmark_disable"))
    except ValueError:  # pytest-benchmark not loaded (-p no:benchmark)
        return False


def _executor(target: Any, binding: str, modes: list[Mode], run: RunSettings) -> Any:
    if run.isolate:
        return IsolatedExecutor(target, binding, modes, run.timeout or NO_TIMEOUT)
    return LocalExecutor(target, modes)


def _time(
    executor: Any,
    target: Any,
    plan: InputPlan,
    config: CheckConfig,
    binding: str,
    result: FunctionResult,
    options: BenchOptions,
    sink: Any,
) -> tuple[dict[str, Outcome], tuple[Any, ...]]:
    """Time every mode on the timing input and record speedups and compile statistics;
    return the first call's outcome of Python and of each mode (keyed `python` and label),
    and the timing input."""
    try:
        args = _timing_args(plan, config, target)
    except Underivable as exc:
        result.bench_error = f"no timing input: {exc}; give @jitcheck(bench_args=...)"
        return {}, ()
    names = tuple(inspect.signature(target.py_func).parameters)
    result.bench_input = summarize_call(binding, names, args)
    timed = executor.bench(args, options, result.nodeid, sink)
    if "error" in timed:
        result.bench_error = timed["error"]
        return {}, args
    result.timing = timed["timing"]
    result.load = timed.get("load")
    result.compile = timed["compile"]
    result.speedup = timed["speedup"]
    if timed["errors"]:
        result.bench_error = "; ".join(f"{m}: {e}" for m, e in timed["errors"].items())
    return dict(timed["outcomes"]), args


RETIMES = 2  # further timings of a function whose timing looks like a regression


def confirm_timing(
    executor: Any,
    args: tuple[Any, ...],
    options: BenchOptions,
    result: FunctionResult,
    run: RunSettings,
) -> None:
    """Time a function again (up to `RETIMES` times) while its timing looks like a
    regression against the baseline, keeping the timing with the fewest and mildest
    regressions: a regression fails the gate only if every timing showed it, so a load burst
    during one measurement does not. `result.retimed` counts the extra timings."""
    from jitcheck.baseline import Comparison, compare_function

    old_fn, same_machine = _baseline_function(run.baseline, result.name)
    if old_fn is None:
        return

    def severity(record: dict[str, Any]) -> tuple[int, float]:
        comparison = Comparison(run.max_regression, stat=run.regression_stat)
        compare_function(comparison, result.name, old_fn, record, same_machine)
        return len(comparison.regressions), sum(c.worse for c in comparison.regressions)

    best = severity(result.as_dict())
    while best[0] and result.retimed < RETIMES:
        result.retimed += 1
        timed = executor.bench(args, options, result.nodeid, None)
        if "error" in timed or timed["errors"]:
            return
        again = severity(
            {"timing": timed["timing"], "speedup": timed["speedup"], "load": timed.get("load")}
        )
        if again < best:
            best = again
            result.timing, result.speedup = timed["timing"], timed["speedup"]
            result.load = timed.get("load")


def _baseline_function(path: str | None, name: str) -> tuple[dict[str, Any] | None, bool]:
    """The baseline's record of `name` and whether it was measured on this machine and
    configuration; (None, False) if there is none or the baseline cannot be read (the end
    of the session reports that)."""
    baseline = _load_baseline(*_file_key(path)) if path else None
    if baseline is None:
        return None, False
    from jitcheck.baseline import configuration_warnings

    same = not configuration_warnings(baseline.get("machine", {}), _machine())
    return baseline.get("functions", {}).get(name), same


def _file_key(path: str) -> tuple[str, int]:
    """The file's absolute path and modification time: the baseline's cache key (a relative
    path names another file after a chdir, and a rewritten file is another baseline)."""
    absolute = os.path.abspath(path)
    try:
        return absolute, os.stat(absolute).st_mtime_ns
    except OSError:
        return absolute, -1


@functools.lru_cache(maxsize=4)
def _load_baseline(path: str, mtime: int) -> dict[str, Any] | None:
    """The baseline report, read once per session (None if unreadable)."""
    from jitcheck.report_json import load_report

    try:
        return load_report(path)
    except (OSError, ValueError):
        return None


@functools.cache
def _machine() -> dict[str, Any]:
    from jitcheck.report import machine_info

    return machine_info()


def _check_timing_results(spec: DiffSpec, outcomes: dict[str, Outcome], example: str) -> None:
    """The timing input's results, already computed, judged like an example: a mode that
    disagrees with Python there fails the check (Hypothesis never drew this input)."""
    python = outcomes.get("python")
    if python is None:
        return
    found = []
    for mode in spec.modes:
        compiled = outcomes.get(mode.label)
        if compiled is None or (not mode.boundscheck and unchecked_exempt(python)):
            continue
        verdict = judge(mode, (), python, compiled, spec.tolerance, spec.plan.positional)
        if verdict.difference is not None:
            found.append((mode, compiled, verdict.difference))
    if found:
        raise Mismatch(mismatch_message(spec, example, python, found))


def _timing_args(plan: InputPlan, config: CheckConfig, target: Any) -> tuple[Any, ...]:
    """`bench_args` when given, else the default timing input sized by Python's work."""
    if config.bench_args is None:
        return sized_timing_input(plan, config.strategies, plain_python(target))
    args = config.bench_args()
    return tuple(args) if isinstance(args, tuple | list) else (args,)


def summarize_call(name: str, params: tuple[str, ...], args: tuple[Any, ...]) -> str:
    """`saxpy(a=float64[10000], x=1.4554)`: a timing input, arrays by dtype and shape."""
    return f"{name}({', '.join(f'{p}={_summary(a)}' for p, a in zip(params, args))})"


def _summary(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"{value.dtype}[{'x'.join(map(str, value.shape))}]"
    if isinstance(value, tuple):
        return "(" + ", ".join(_summary(v) for v in value) + ")"
    if isinstance(value, float):
        return f"{value:.6g}"
    return show(value)
