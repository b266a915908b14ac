"""The session report: JSON (versioned schema), Markdown, and the comparison with a baseline.

The JSON report is the source of every other view; its schema ships as
`jitcheck/report.schema.json` (read it for the meaning of each field) and `SCHEMA_VERSION`
changes whenever a field changes meaning. A baseline is simply an earlier JSON report:
speedups (Python time over compiled time, measured in one run) are compared function by
function and mode by mode, so a baseline from a faster or slower machine still compares fairly.
"""

from __future__ import annotations

import datetime as dt
import json
import platform
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from jitcheck.bench import SPEEDUP_STAT
from jitcheck.settings import RunSettings, SessionState

SCHEMA_ID = "jitcheck-report"
SCHEMA_VERSION = 1
STAGES = ("parse", "ssa", "typeinfer", "optimize", "lower", "codegen", "llvm-opt", "machine-code")


# --- building and writing ------------------------------------------------------------------


def finish_session(state: SessionState) -> bool:
    """Build the report, compare it with the baseline, write the requested files; True if
    the session must fail (a regression beyond the threshold, or an unreadable baseline)."""
    run = state.run
    report = build_report(state.results.values(), run)
    state.report = report
    if run.baseline:
        try:
            baseline = load_report(run.baseline)
        except (OSError, ValueError) as exc:
            state.baseline_error = f"cannot read the baseline {run.baseline}: {exc}"
        else:
            state.comparison = compare_reports(baseline, report, run.max_regression)
            report["baseline"] = state.comparison.as_dict(run.baseline)
    if run.report_json:
        write_json(report, run.report_json)
    if run.report_md:
        _write_text(run.report_md, markdown(report))
    if run.report_html:
        from jitcheck.html import render_html

        _write_text(run.report_html, render_html(report))
    return bool(state.baseline_error) or bool(state.comparison and state.comparison.regressions)


def grouped_failures(fn: dict[str, Any]) -> list[tuple[str, str, str]]:
    """A function's failures as (modes, example, difference), modes that failed alike
    sharing one entry."""
    groups: dict[tuple[str, str], list[str]] = {}
    for failure in (fn.get("diff") or {}).get("failures", []):
        groups.setdefault((failure["example"], failure["difference"]), []).append(failure["mode"])
    return [(", ".join(modes), example, diff) for (example, diff), modes in groups.items()]


def build_report(records: Iterable[dict[str, Any]], run: RunSettings) -> dict[str, Any]:
    """The JSON report of one session from the functions' records."""
    functions = {r["name"]: r for r in sorted(records, key=lambda r: r["name"])}
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
        },
        "summary": {"functions": len(functions), **{k: outcomes.get(k, 0) for k in _OUTCOMES}},
        "functions": functions,
    }


_OUTCOMES = ("passed", "failed", "skipped", "xfailed", "xpassed", "error")


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
    }


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"


def write_json(report: dict[str, Any], path: str | Path) -> None:
    _write_text(path, json.dumps(report, indent=2, sort_keys=False, allow_nan=False) + "\n")


def _write_text(path: str | Path, text: str) -> None:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


def load_report(path: str | Path) -> dict[str, Any]:
    """Read a JSON report; ValueError if it is not one (or has another schema version)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("schema") != SCHEMA_ID:
        raise ValueError(f"{path} is not a jitcheck report")
    if data.get("schema_version") != SCHEMA_VERSION:
        raise ValueError(
            f"{path} has schema version {data.get('schema_version')}, "
            f"this jitcheck reads version {SCHEMA_VERSION}"
        )
    return data


# --- comparing with a baseline -------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """How one function's speedup in one mode moved from the baseline."""

    function: str
    mode: str
    old: float
    new: float

    @property
    def change(self) -> float:
        """Relative change of the speedup: -0.25 means it fell by 25%."""
        return self.new / self.old - 1.0

    def __str__(self) -> str:
        return (
            f"{self.function} [{self.mode}]: speedup {self.old:.2f}x -> {self.new:.2f}x "
            f"({self.change:+.1%})"
        )


@dataclass
class Comparison:
    """Speedups of a report against a baseline."""

    max_regression: float
    regressions: list[Change]
    improvements: list[Change]
    unchanged: list[Change]
    missing: list[str]  # "function [mode]" timed in the baseline but not now

    def as_dict(self, baseline_path: str) -> dict[str, Any]:
        return {
            "path": str(baseline_path),
            "max_regression": self.max_regression,
            "regressions": [asdict(c) | {"change": c.change} for c in self.regressions],
            "improvements": [asdict(c) | {"change": c.change} for c in self.improvements],
            "unchanged": len(self.unchanged),
            "missing": self.missing,
        }


def compare_reports(old: dict[str, Any], new: dict[str, Any], max_regression: float) -> Comparison:
    """Compare speedups mode by mode; a fall of more than `max_regression` is a regression."""
    result = Comparison(max_regression, [], [], [], [])
    for name, old_fn in old.get("functions", {}).items():
        new_fn = new.get("functions", {}).get(name, {})
        for mode, old_speedup in (old_fn.get("speedup") or {}).items():
            new_speedup = (new_fn.get("speedup") or {}).get(mode)
            if not old_speedup:
                continue
            if not new_speedup:
                result.missing.append(f"{name} [{mode}]")
                continue
            change = Change(name, mode, float(old_speedup), float(new_speedup))
            if change.change < -max_regression:
                result.regressions.append(change)
            elif change.change > max_regression:
                result.improvements.append(change)
            else:
                result.unchanged.append(change)
    result.regressions.sort(key=lambda c: c.change)
    result.improvements.sort(key=lambda c: -c.change)
    return result


def comparison_lines(comparison: Comparison, baseline: str) -> list[str]:
    """The comparison as text: the plugin's summary and `python -m jitcheck compare` share it."""
    threshold = f"{comparison.max_regression:.0%}"
    checked = len(comparison.regressions) + len(comparison.improvements)
    checked += len(comparison.unchanged)
    lines = [f"speedups against baseline {baseline} ({checked} compared, threshold {threshold}):"]
    for change in comparison.regressions:
        lines.append(f"  REGRESSION {change}")
    for change in comparison.improvements:
        lines.append(f"  improved   {change}")
    for missing in comparison.missing:
        lines.append(f"  not timed now: {missing}")
    if comparison.regressions:
        lines.append(
            f"FAILED: {len(comparison.regressions)} speedup(s) fell by more than {threshold}"
        )
    else:
        lines.append(f"OK: no speedup fell by more than {threshold}")
    return lines


# --- Markdown ------------------------------------------------------------------------------


def markdown(report: dict[str, Any]) -> str:
    """A summary for a CI job summary page (GitHub's `$GITHUB_STEP_SUMMARY`)."""
    functions = list(report["functions"].values())
    summary = report["summary"]
    counts = ", ".join(f"{summary[k]} {k}" for k in _OUTCOMES if summary.get(k))
    lines = [f"## jitcheck: {summary['functions']} functions ({counts or 'none run'})", ""]
    lines += _markdown_results(functions)
    lines += _markdown_compile(functions)
    lines += _markdown_failures(functions)
    if report.get("baseline"):
        lines += _markdown_baseline(report["baseline"])
    machine = report["machine"]
    lines += [
        "",
        f"<sub>{machine['cpu']['name']} · Python {machine['python']} · NumPy {machine['numpy']}"
        f" · LLVM {machine['llvm']} · jitcore {machine['jitcore']} · {report['created']}</sub>",
        "",
    ]
    return "\n".join(lines)


_ICONS = {"passed": "✅", "failed": "❌", "error": "💥", "skipped": "⏭️", "xfailed": "➖",
          "xpassed": "⚠️"}  # fmt: skip


def mode_columns(functions: list[dict[str, Any]]) -> list[str]:
    """Every mode label in the order functions first list it (own modes first)."""
    labels: dict[str, None] = {}
    for fn in functions:
        labels.update(dict.fromkeys(fn.get("modes", [])))
    return list(labels)


def _markdown_results(functions: list[dict[str, Any]]) -> list[str]:
    modes = mode_columns(functions)
    timed = any(fn.get("timing") for fn in functions)
    head = ["function", "outcome", "examples", "rejected"] + (
        ["python", *(f"{m} speedup" for m in modes)] if timed else []
    )
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join(["---"] * 2 + ["--:"] * (len(head) - 2)) + "|",
    ]
    for fn in functions:
        diff = fn.get("diff") or {}
        row = [
            f"`{fn['name']}`",
            f"{_ICONS.get(fn['outcome'], '')} {fn['outcome']}",
            str(diff.get("examples", "–")),
            str(diff.get("rejected", "–")),
        ]
        if timed:
            row.append(format_seconds(_python_time(fn)))
            row += [format_speedup((fn.get("speedup") or {}).get(m)) for m in modes]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def _markdown_compile(functions: list[dict[str, Any]]) -> list[str]:
    rows = [
        (fn["name"], mode, s) for fn in functions for mode, s in (fn.get("compile") or {}).items()
    ]
    if not rows:
        return []
    head = ["function", "mode", *STAGES, "total", "cache"]
    lines = ["", "<details><summary>Compile time per stage (ms)</summary>", ""]
    lines += ["| " + " | ".join(head) + " |", "|---|---|" + "--:|" * (len(STAGES) + 1) + ":-:|"]
    for name, mode, stats in rows:
        stages = stats.get("stages", {})
        cells = [format_ms(stages.get(s)) for s in STAGES]
        cache = "hit" if stats.get("cache_hit") else ""
        lines.append(
            f"| `{name}` | {mode} | "
            + " | ".join(cells)
            + f" | {format_ms(stats.get('total'))} | {cache} |"
        )
    return [*lines, "", "</details>"]


def _markdown_failures(functions: list[dict[str, Any]]) -> list[str]:
    bad = [fn for fn in functions if fn["outcome"] in ("failed", "error", "xpassed")]
    skipped = [fn for fn in functions if fn["outcome"] == "skipped"]
    lines: list[str] = []
    if bad:
        lines += ["", "### Failures", ""]
        for fn in bad:
            lines.append(f"- `{fn['name']}`: {fn['reason']}")
            for modes, example, difference in grouped_failures(fn):
                lines.append(f"  - {modes}: `{example}`: {difference}")
    if skipped:
        lines += ["", "### Skipped", ""]
        lines += [f"- `{fn['name']}`: {fn['reason']}" for fn in skipped]
    return lines


def _markdown_baseline(baseline: dict[str, Any]) -> list[str]:
    threshold = f"{baseline['max_regression']:.0%}"
    lines = ["", f"### Speedups against the baseline (threshold {threshold})", ""]
    if not baseline["regressions"] and not baseline["improvements"]:
        lines.append(f"No speedup moved by more than {threshold}.")
    for kind in ("regressions", "improvements"):
        for c in baseline[kind]:
            sign = "❌" if kind == "regressions" else "🚀"
            lines.append(
                f"- {sign} `{c['function']}` [{c['mode']}]: {c['old']:.2f}× → {c['new']:.2f}× "
                f"({c['change']:+.1%})"
            )
    return lines


# --- number formatting shared by every view ------------------------------------------------


def _python_time(fn: dict[str, Any]) -> float | None:
    return ((fn.get("timing") or {}).get("python") or {}).get("stats", {}).get(SPEEDUP_STAT)


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


def format_ms(seconds: float | None) -> str:
    return "–" if seconds is None else f"{seconds * 1e3:.2f}"
