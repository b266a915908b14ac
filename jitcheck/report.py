"""The session report's model: the JSON-ready dict every view is drawn from.

`build_report` turns the functions' records into the report; its schema ships as
`jitcheck/report.schema.json` (read it for the meaning of each field) and `SCHEMA_VERSION`
changes whenever a field changes meaning. The accessors and number formats below are shared by
every view, so the terminal, Markdown and HTML always show the same numbers.

The report is split along its seams, each module importing this one and never the reverse:

* `report_json`: writing and reading the JSON file;
* `baseline`: comparing speedups with an earlier report;
* `markdown`, `html`, `summary`: the views;
* `finish`: the session finisher that builds the report and writes every requested file.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
from collections import Counter
from collections.abc import Iterable
from importlib import metadata
from typing import Any

from jitcheck.bench import SPEEDUP_STAT
from jitcheck.settings import RunSettings

SCHEMA_ID = "jitcheck-report"
SCHEMA_VERSION = 2
STAGES = ("parse", "ssa", "typeinfer", "optimize", "lower", "codegen", "llvm-opt", "machine-code")
OUTCOMES = ("passed", "failed", "skipped", "xfailed", "xpassed", "error")


def build_report(records: Iterable[dict[str, Any]], run: RunSettings) -> dict[str, Any]:
    """The JSON report of one session from the functions' records."""
    functions = {r["name"]: r for r in sorted(_unique_names(records), key=lambda r: r["name"])}
    outcomes = Counter(r["outcome"] for r in functions.values())
    return {
        "schema": SCHEMA_ID,
        "schema_version": SCHEMA_VERSION,
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": machine_info(),
        "settings": {
            "modes": list(run.modes),
            "max_examples": run.max_examples,
            "bench": run.bench,
            "isolate": run.isolate,
            "speedup_statistic": SPEEDUP_STAT,
            "min_returned": run.min_returned,
            "max_rejected": run.max_rejected,
        },
        "summary": {"functions": len(functions), **{k: outcomes.get(k, 0) for k in OUTCOMES}},
        "functions": functions,
    }


def _unique_names(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records keyed by `module.function`, except where two share that name (two files
    `kern.py` in different directories): those are named by node id, so neither vanishes."""
    records = list(records)
    names = Counter(r["name"] for r in records)
    return [
        r if names[r["name"]] == 1 else {**r, "name": r["nodeid"].removesuffix("::jit-diff")}
        for r in records
    ]


def machine_info() -> dict[str, Any]:
    """Where the numbers were measured: CPU name and features, and every version that
    changes generated code or timings."""
    import llvmlite.binding as llvm
    import numpy as np

    from jitcore import __version__ as jitcore_version
    from jitcore.llvm_opt import host_cpu

    cpu_name, features = host_cpu()
    return {
        "cpu": {"name": cpu_name, "features": features},
        "platform": platform.platform(),
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "numpy": np.__version__,
        "llvm": ".".join(map(str, llvm.llvm_version_info)),
        "llvmlite": _version("llvmlite"),
        "jitcore": jitcore_version,
        "hypothesis": _version("hypothesis"),
        "pytest_benchmark": _version("pytest-benchmark"),
        "jitcore_env": {k: v for k, v in sorted(os.environ.items()) if k.startswith("JITCORE_")},
    }


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"


# --- accessors shared by every view --------------------------------------------------------


def grouped_failures(fn: dict[str, Any]) -> list[tuple[str, str, str]]:
    """A function's failures as (modes, example, difference), modes that failed alike
    sharing one entry."""
    groups: dict[tuple[str, str], list[str]] = {}
    for failure in (fn.get("diff") or {}).get("failures", []):
        groups.setdefault((failure["example"], failure["difference"]), []).append(failure["mode"])
    return [(", ".join(modes), example, diff) for (example, diff), modes in groups.items()]


def mode_columns(functions: list[dict[str, Any]]) -> list[str]:
    """Every mode label in the order functions first list it (own modes first)."""
    labels: dict[str, None] = {}
    for fn in functions:
        labels.update(dict.fromkeys(fn.get("modes", [])))
    return list(labels)


def returned_raised(fn: dict[str, Any]) -> tuple[str, str, float | None]:
    """Examples on which Python returned normally (with the share, `58 (97%)`) and raised,
    as cells, and the share; dashes when the check never compared an example."""
    diff = fn.get("diff") or {}
    python = (diff.get("outcomes") or {}).get("python")
    if not python:
        return "–", "–", None
    returned, raised = python["returned"], sum(python["raised"].values())
    share = diff.get("returned_share")
    text = f"{returned} ({share:.0%})" if share is not None else str(returned)
    return text, str(raised), share


def python_time(fn: dict[str, Any]) -> float | None:
    """The Python reference's time per call (the statistic speedups use), if it was timed."""
    return ((fn.get("timing") or {}).get("python") or {}).get("stats", {}).get(SPEEDUP_STAT)


# --- number formatting shared by every view ------------------------------------------------


def format_seconds(seconds: float | None) -> str:
    """A duration with a unit that keeps 3 significant digits: `812 ns`, `1.23 ms`."""
    if seconds is None:
        return "–"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def format_speedup(speedup: float | None) -> str:
    return "–" if speedup is None else f"{speedup:.1f}×" if speedup < 100 else f"{speedup:.0f}×"


def format_change_value(change: dict[str, Any], which: str) -> str:
    """A baseline change's `old` or `new` value: a speedup (`12.3×`) or a compiled time."""
    value = change[which]
    return format_seconds(value) if change.get("kind") == "time" else format_speedup(value)


def format_ms(seconds: float | None) -> str:
    return "–" if seconds is None else f"{seconds * 1e3:.2f}"
