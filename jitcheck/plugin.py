"""jitcheck's pytest hooks (the `pytest11` entry point): options, collection, reporting.

This module imports only pytest (and jitcheck's standard-library modules), because pytest
loads it in every run of the environment: collection must stay fast without `--jit-diff`.
The check, the strategies and the reports are imported when they are needed.

Results travel on pytest's own test reports (`report.jitcheck`, a JSON-able dict), so the
same path serves a single process and pytest-xdist: a worker's reports reach the controller,
which merges them into one report, even when a worker crashes halfway.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from jitcheck.decorator import check_share
from jitcheck.modes import parse_mode, split_modes
from jitcheck.results import empty_result, first_line
from jitcheck.settings import (
    DEFAULT_MAX_REGRESSION,
    DEFAULT_MAX_REJECTED,
    DEFAULT_MIN_RETURNED,
    DEFAULT_TIMEOUT,
    JIT_DIFF_KEY,
    RunSettings,
    SessionState,
    parse_threshold,
)

# (option, ini name, kind, metavar, help); kind: flag, append, value, int, float
_OPTIONS: tuple[tuple[str, str, str, str | None, str], ...] = (
    ("--jit-diff", "jit_diff", "flag", None,
     "differentially test every jitted function defined in a collected module (and in the "
     "--jit-diff-module modules) against Python; without it only @jitcheck functions are"),
    ("--jit-diff-module", "jit_diff_modules", "append", "MODULE",
     "also check the jitted functions of this importable module (repeatable; implies "
     "--jit-diff)"),
    ("--jit-diff-modes", "jit_diff_modes", "value", "LIST",
     "compiled modes to compare besides each function's own options, comma-separated: "
     "O0, O1, O2, O3, fastmath, noboundscheck, parallel, or combinations like O0+fastmath"),
    ("--jit-diff-max-examples", "jit_diff_max_examples", "int", "N",
     "Hypothesis examples per function (default: the Hypothesis profile's max_examples)"),
    ("--jit-diff-library", "jit_diff_library", "flag", None,
     "also check every operation of jitcore's registry (functions, methods, operators) "
     "against Python on corner-biased inputs: one item per operation and type profile "
     "(implies --jit-diff)"),
    ("--jit-diff-bench", "jit_diff_bench", "flag", None,
     "time Python and each compiled mode with pytest-benchmark's timers "
     "(--benchmark-max-time etc. apply) and record speedups and compile time per stage"),
    ("--jit-diff-isolate", "jit_diff_isolate", "flag", None,
     "run compiled code in a child process per function, so a crash or hang fails that "
     "function with the mode and example, and the session goes on"),
    ("--jit-diff-min-returned", "jit_diff_min_returned", "value", "SHARE",
     f"fail a function when Python returned normally (did not raise) on fewer than this share "
     f"of its examples, 0 to 1 or a percentage; @jitcheck(min_returned=...) overrides it "
     f"(default {DEFAULT_MIN_RETURNED:g})"),
    ("--jit-diff-max-rejected", "jit_diff_max_rejected", "value", "SHARE",
     f"fail a function when more than this share of its examples fell outside the compiled "
     f"domain (documented differences); @jitcheck(max_rejected=...) overrides it "
     f"(default {DEFAULT_MAX_REJECTED:g})"),
    ("--jit-diff-timeout", "jit_diff_timeout", "float", "SECONDS",
     f"limit per call of the Python reference (and of isolated compiled code); 0 for none "
     f"(default {DEFAULT_TIMEOUT:g})"),
    ("--jit-diff-replay", "jit_diff_replay", "value", "BLOB",
     "rerun exactly one failing example, given by the blob a failure prints (with its "
     "item's node id: the failure says the whole command)"),
    ("--jit-diff-report", "jit_diff_report", "value", "PATH.json",
     "write the JSON report (schema: jitcheck/report.schema.json)"),
    ("--jit-diff-report-md", "jit_diff_report_md", "value", "PATH",
     "write a Markdown summary (for a CI job summary page)"),
    ("--jit-diff-report-html", "jit_diff_report_html", "value", "PATH",
     "write a self-contained HTML report with sortable tables and charts"),
    ("--jit-diff-baseline", "jit_diff_baseline", "value", "OLD.json",
     "compare speedups with this earlier JSON report and fail on a regression beyond "
     "--jit-diff-max-regression (implies --jit-diff-bench)"),
    ("--jit-diff-allow-missing", "jit_diff_allow_missing", "flag", None,
     "let the baseline comparison pass when a function or mode timed in the baseline is not "
     "timed now (renamed mode, skipped or failing function); without it that fails"),
    ("--jit-diff-max-regression", "jit_diff_max_regression", "value", "[STAT:]PCT",
     f"largest allowed worsening against the baseline, as pytest-benchmark's compare-fail "
     f"writes it: 10% compares minimums, median:10% medians (min, median, mean, max) "
     f"(default {DEFAULT_MAX_REGRESSION:.0%})"),
)  # fmt: skip


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("jitcheck", "jitcheck: differential testing of jitted functions")
    for option, ini, kind, metavar, text in _OPTIONS:
        dest = option.lstrip("-").replace("-", "_")
        help_text = text.replace("%", "%%")  # argparse formats help with %
        if kind == "flag":
            group.addoption(option, action="store_true", default=None, dest=dest, help=help_text)
        elif kind == "append":
            group.addoption(option, action="append", default=[], dest=dest, metavar=metavar,
                            help=help_text)  # fmt: skip
        else:
            convert = {"int": int, "float": float}.get(kind, str)
            group.addoption(option, type=convert, default=None, dest=dest, metavar=metavar,
                            help=help_text)  # fmt: skip
        ini_type = {"flag": "bool", "append": "args"}.get(kind, "string")
        default = {"flag": False, "append": []}.get(kind)
        parser.addini(ini, f"{text} (ini for {option})", type=ini_type, default=default)  # type: ignore[arg-type]


def _setting(config: pytest.Config, option: str, ini: str) -> Any:
    """The command line's value, else the ini file's."""
    value = config.getoption(option.lstrip("-").replace("-", "_"))
    if value not in (None, []):
        return value
    ini_value = config.getini(ini)
    return ini_value if ini_value not in ("", []) else None


def _run_settings(config: pytest.Config) -> RunSettings:
    values = {ini: _setting(config, option, ini) for option, ini, *_ in _OPTIONS}
    modules = tuple(values["jit_diff_modules"] or ())
    modes = tuple(split_modes(values["jit_diff_modes"] or ()))
    for mode in modes:
        try:
            parse_mode(mode)
        except ValueError as exc:
            raise pytest.UsageError(f"--jit-diff-modes: {exc}") from None
    try:
        stat, max_regression = parse_threshold(str(values["jit_diff_max_regression"] or "10"))
    except ValueError as exc:
        raise pytest.UsageError(f"--jit-diff-max-regression: {exc}") from None
    timeout = values["jit_diff_timeout"]
    shares = {}
    for ini, default in (
        ("jit_diff_min_returned", DEFAULT_MIN_RETURNED),
        ("jit_diff_max_rejected", DEFAULT_MAX_REJECTED),
    ):
        option = "--" + ini.replace("_", "-")
        try:
            shares[ini] = default if values[ini] is None else check_share(option, values[ini])
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from None
    return RunSettings(
        enabled=bool(values["jit_diff"])
        or bool(config.getoption("jit_diff_module"))
        or bool(values["jit_diff_library"]),
        library=bool(values["jit_diff_library"]),
        modules=modules,
        modes=modes,
        max_examples=int(values["jit_diff_max_examples"] or 0) or None,
        bench=bool(values["jit_diff_bench"]) or bool(values["jit_diff_baseline"]),
        isolate=bool(values["jit_diff_isolate"]),
        timeout=DEFAULT_TIMEOUT if timeout is None else float(timeout),
        report_json=values["jit_diff_report"],
        report_md=values["jit_diff_report_md"],
        report_html=values["jit_diff_report_html"],
        baseline=values["jit_diff_baseline"],
        max_regression=max_regression,
        regression_stat=stat,
        allow_missing=bool(values["jit_diff_allow_missing"]),
        replay=values["jit_diff_replay"],
        min_returned=shares["jit_diff_min_returned"],
        max_rejected=shares["jit_diff_max_rejected"],
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "jitcheck(**settings): on every jit-diff item (select them with -m jitcheck); with "
        "keywords (e.g. a module's pytestmark), defaults for @jitcheck settings",
    )
    config.stash[JIT_DIFF_KEY] = SessionState(run=_run_settings(config))
    config.pluginmanager.register(_SessionReporter(config), "jitcheck-session")
    config.pluginmanager.register(_StatisticsReporter(config), "jitcheck-statistics")


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    run = config.stash[JIT_DIFF_KEY].run
    if not run.enabled:
        return None
    extras = [f"modes: own{''.join(', ' + m for m in run.modes)}"]
    extras += ["timing on"] * run.bench + ["isolated"] * run.isolate
    header = [f"jitcheck: --jit-diff ({'; '.join(extras)})"]
    if run.baseline:
        from jitcheck.finish import baseline_warnings

        header += [f"jitcheck: WARNING: {w}" for w in baseline_warnings(run.baseline)]
    return header


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: object) -> Any:
    if not isinstance(collector, pytest.Module) or not _maybe_ours(obj):
        return None  # the common case, decided without importing anything
    from jitcheck.collect import make_item

    return make_item(collector, name, obj)


def _maybe_ours(obj: object) -> bool:
    """A dispatcher or an `@jitcheck` function, maybe; any module global is asked, and a
    proxy object may raise anything from `__getattr__`."""
    try:
        return getattr(obj, "__jitcore_dispatcher__", False) is True or hasattr(
            obj, "__jitcheck__"
        )
    except Exception:  # noqa: BLE001 - an object that cannot answer is not ours
        return False


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect items
def pytest_collection_modifyitems(session: pytest.Session, items: list[pytest.Item]) -> None:
    state = session.config.stash[JIT_DIFF_KEY]
    if state.run.enabled and state.run.modules:
        from jitcheck.collect import explicit_module_items

        items.extend(explicit_module_items(session, state))
    if state.run.library:
        from jitcheck.library import library_items

        items.extend(library_items(session))


@pytest.hookimpl(wrapper=True)  # a wrapper runs before the skipping plugin reads markers
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    prepare = getattr(item, "prepare", None)
    if prepare is not None and getattr(item, "jitcheck_result", None) is not None:
        prepare()
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    result = getattr(item, "jitcheck_result", None)
    if result is not None and report.skipped and isinstance(report.longrepr, tuple):
        # a skip raised inside jitcheck (a compile failure in a function that falls back to
        # Python) would point at jitcheck's own line: point at the user's function instead
        path, line, _ = item.reportinfo()
        if line is not None:
            report.longrepr = (str(path), line + 1, report.longrepr[2])
    if result is not None and (call.when == "call" or report.outcome != "passed"):
        record = result.as_dict()
        record["outcome"], record["reason"] = _outcome(report, call, record["reason"])
        report.jitcheck = record  # type: ignore[attr-defined]
        if result.statistics:  # a plain string: it crosses from xdist workers with the report
            report.jitcheck_statistics = result.statistics  # type: ignore[attr-defined]
    return report


def _outcome(report: pytest.TestReport, call: pytest.CallInfo[None], reason: str) -> tuple:
    if hasattr(report, "wasxfail"):
        return ("xfailed" if report.skipped else "xpassed"), first_line(report.wasxfail)
    if report.skipped:
        longrepr = report.longrepr
        text = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        return "skipped", first_line(reason or text.removeprefix("Skipped: "))
    if report.failed:
        text = str(call.excinfo.value) if call.excinfo else str(report.longrepr)
        return ("failed" if call.when == "call" else "error"), first_line(text)
    return "passed", ""


class _SessionReporter:
    """Per-session hooks that need the config: registered by `pytest_configure`, so an
    in-process pytester run inside a test session keeps its own records."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Collect records; under xdist this runs on the controller for every worker."""
        state = self.config.stash[JIT_DIFF_KEY]
        record = getattr(report, "jitcheck", None)
        if record is not None:
            state.results[report.nodeid] = record
        elif report.failed and report.nodeid.endswith("::jit-diff"):
            # an xdist worker died running it: no record came, but the item must show
            reason = f"the worker running it crashed: {first_line(str(report.longrepr))}"
            state.results.setdefault(report.nodeid, empty_result(report.nodeid, "error", reason))

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """On the controller (or the only process): merge, write reports, apply the baseline."""
        state = self.config.stash[JIT_DIFF_KEY]
        run = state.run
        wanted = run.report_json or run.report_md or run.report_html or run.baseline
        if hasattr(self.config, "workerinput") or not (state.results or wanted):
            return  # an xdist worker's records go to the controller on its test reports
        from jitcheck.finish import finish_session

        if finish_session(state) and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        state = self.config.stash[JIT_DIFF_KEY]
        # nothing collected here (under xdist the controller collects nothing itself, but
        # records arrive from the workers) and no record arrived: say why and how
        quiet = state.seen or state.results or self.config.getoption("collectonly")
        if state.run.enabled and not quiet and not hasattr(self.config, "workerinput"):
            from jitcheck.collect import no_functions_hint

            hint = no_functions_hint(state)
            if hint:
                terminalreporter.write_line(hint, yellow=True)
        if state.report is None:
            return
        from jitcheck.summary import write_terminal_summary

        write_terminal_summary(terminalreporter, state)


class _StatisticsReporter:
    """Prints the jit-diff items' Hypothesis statistics after Hypothesis's own section."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    @pytest.hookimpl(trylast=True)
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """With `--hypothesis-show-statistics`, each jit-diff item's Hypothesis statistics:
        Hypothesis's plugin reports only tests it ran itself, and the check's `@given` test
        is jitcheck's own, so jitcheck collects them and prints them the same way (with the
        events: Python returned or raised, rejections by reason; and the largest ULP distance
        of each mode as a target)."""
        try:
            wanted = self.config.getoption("hypothesis_show_statistics")
        except ValueError:  # Hypothesis's plugin not loaded
            return
        texts = [
            getattr(report, "jitcheck_statistics", "")
            for reports in terminalreporter.stats.values()
            for report in reports
        ]
        texts = [t for t in texts if t]
        if wanted and texts:
            for text in texts:
                terminalreporter.write_line(text + "\n")
