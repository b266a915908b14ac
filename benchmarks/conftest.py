"""pytest configuration of the benchmarks: timing, not debugging.

* The repository's conftest turns the IR verifier on (`JITCORE_DEBUG=1`) for tests; it would
  inflate compile latency, so it is turned off here, before any kernel module is imported
  (`jitcore.api.options_from_env` reads the variable when `@jit` runs), and checked.
* Fewer rounds than pytest-benchmark's defaults keep `make bench` within minutes on two
  cores; an explicit `--benchmark-max-time` or `--benchmark-min-rounds` still wins.
* The machine description jitcore's numbers depend on goes into the JSON report, and the
  directory of `--benchmark-json` is created if missing.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ["JITCORE_DEBUG"] = "0"

# pytest-benchmark's defaults, and what the benchmarks use instead when those are left alone.
_DEFAULTS = {"benchmark_max_time": (1.0, 0.5), "benchmark_min_rounds": (5, 3)}


def pytest_configure(config: pytest.Config) -> None:
    from jitcore.api import JitOptions, options_from_env

    if options_from_env(JitOptions()).debug:
        raise pytest.UsageError("JITCORE_DEBUG is still on: benchmarks would time the verifier")
    for name, (default, ours) in _DEFAULTS.items():
        if getattr(config.option, name, None) == default:
            setattr(config.option, name, ours)
    report: Path | None = getattr(config.option, "benchmark_json", None)
    if report is not None:
        Path(report).parent.mkdir(parents=True, exist_ok=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Refuse to time a kernel that was decorated while the verifier was on."""
    from benchmarks.cases import CASES

    debug = [case.name for case in CASES if case.kernel.options.debug]
    if debug and items:
        raise pytest.UsageError(f"kernels compiled with JITCORE_DEBUG on: {', '.join(debug)}")


def pytest_benchmark_update_machine_info(config: pytest.Config, machine_info: dict) -> None:
    from benchmarks.machine import describe

    machine_info["jitcore"] = describe()


def pytest_benchmark_update_json(config: pytest.Config, benchmarks: Any, output_json: dict) -> None:
    output_json.setdefault("jitcore", {})["settings"] = {
        "max_time": config.option.benchmark_max_time,
        "min_rounds": config.option.benchmark_min_rounds,
    }
