"""pytest configuration of the benchmarks: timing, not debugging.

* The repository's conftest turns the IR verifier on (`JITCORE_DEBUG=1`) for tests; it would
  inflate compile latency, so a run that times anything turns it off in `pytest_configure`,
  before any kernel module is imported (`jitcore.options.options_from_env` reads the variable
  when `@jit` runs), and checks that it is off. A run that times nothing (`--benchmark-skip`,
  `--benchmark-disable`: the plain tests in this directory) keeps the verifier on.
* Fewer rounds than pytest-benchmark's defaults keep `make bench` within minutes on two
  cores; an explicit `--benchmark-max-time` or `--benchmark-min-rounds` still wins.
* The machine description jitcore's numbers depend on, and the reasons benchmarks were
  skipped (no Numba, kernels jitcore cannot compile yet), go into the JSON report, whose
  directory is created if missing.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

# pytest-benchmark's defaults, and what the benchmarks use instead when those are left alone.
_DEFAULTS = {"benchmark_max_time": (1.0, 0.5), "benchmark_min_rounds": (5, 3)}
_SKIPPED = pytest.StashKey[list[dict[str, Any]]]()


def _times(config: pytest.Config) -> bool:
    """Whether this run times anything: pytest-benchmark is neither skipping nor disabled."""
    return not (
        config.getoption("benchmark_skip", False) or config.getoption("benchmark_disable", False)
    )


def pytest_configure(config: pytest.Config) -> None:
    from jitcore.options import JitOptions, options_from_env

    if _times(config):
        os.environ["JITCORE_DEBUG"] = "0"
        if options_from_env(JitOptions()).debug:
            raise pytest.UsageError("JITCORE_DEBUG is on: benchmarks would time the verifier")
    for name, (default, ours) in _DEFAULTS.items():
        # The option may still hold its unparsed default string ("1.0").
        if float(getattr(config.option, name, -1)) == default:
            setattr(config.option, name, ours)
    config.stash[_SKIPPED] = []
    report: Path | None = getattr(config.option, "benchmark_json", None)
    if report is not None:
        Path(report).parent.mkdir(parents=True, exist_ok=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Refuse to time a kernel that was decorated while the verifier was on (imported before
    `pytest_configure` ran, say by a plugin)."""
    from benchmarks.cases import CASES

    debug = [case.name for case in CASES if case.kernel.options.debug]
    if debug and items and _times(config):
        raise pytest.UsageError(f"kernels compiled with JITCORE_DEBUG on: {', '.join(debug)}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Remember why a benchmark was skipped: the table says what was not measured."""
    report = yield
    if report.skipped and "benchmark" in getattr(item, "fixturenames", ()):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        params = dict(getattr(getattr(item, "callspec", None), "params", {}))
        item.config.stash[_SKIPPED].append(
            {"test": item.nodeid, "reason": reason.removeprefix("Skipped: "), **params}
        )
    return report


def pytest_benchmark_update_machine_info(config: pytest.Config, machine_info: dict) -> None:
    from benchmarks.machine import describe

    machine_info["jitcore"] = describe()


def pytest_benchmark_update_json(
    config: pytest.Config, benchmarks: Any, output_json: dict
) -> None:
    output_json["jitcore"] = {
        "settings": {
            "max_time": float(config.option.benchmark_max_time),
            "min_rounds": config.option.benchmark_min_rounds,
        },
        "skipped": config.stash[_SKIPPED],
    }
