"""`--jit-diff-report-md`: the report as Markdown, for a CI job summary page."""

from __future__ import annotations

from typing import Any

from jitcheck.report import (
    OUTCOMES,
    STAGES,
    format_change_value,
    format_ms,
    format_seconds,
    format_speedup,
    grouped_failures,
    mode_columns,
    python_time,
    returned_raised,
)


def markdown(report: dict[str, Any]) -> str:
    """A summary for a CI job summary page (GitHub's `$GITHUB_STEP_SUMMARY`)."""
    functions = list(report["functions"].values())
    summary = report["summary"]
    counts = ", ".join(f"{summary[k]} {k}" for k in OUTCOMES if summary.get(k))
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


def _markdown_results(functions: list[dict[str, Any]]) -> list[str]:
    modes = mode_columns(functions)
    timed = any(fn.get("timing") for fn in functions)
    head = ["function", "outcome", "examples", "returned", "raised", "rejected"] + (
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
            *returned_raised(fn)[:2],
            str(diff.get("rejected", "–")),
        ]
        if timed:
            row.append(format_seconds(python_time(fn)))
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
    lines += [f"- ⚠️ {w}" for w in baseline.get("warnings", [])]
    if not baseline["regressions"] and not baseline["improvements"]:
        lines.append(f"No speedup moved by more than {threshold}.")
    for kind in ("regressions", "improvements"):
        for c in baseline[kind]:
            sign = "❌" if kind == "regressions" else "🚀"
            what = "compiled time" if c.get("kind") == "time" else "speedup"
            lines.append(
                f"- {sign} `{c['function']}` [{c['mode']}] {what}: "
                f"{format_change_value(c, 'old')} → {format_change_value(c, 'new')} "
                f"({c['change']:+.1%})"
            )
    sign = "➖" if baseline.get("allow_missing") else "❌"
    lines += [f"- {sign} missing now: `{m}`" for m in baseline.get("missing", [])]
    return lines
