"""The terminal summary at the end of a jit-diff session: compact, aligned tables.

    function       outcome  examples  returned  raised  rejected  python     O3    O0  note
    kernels.saxpy  passed         40  38 (95%)       2         0  1.2 µs  14.1×  3.2×
    compile ms         mode   parse   ssa  typeinfer  ...  machine-code   total  cache

Numbers come from the JSON report, so the terminal and the files always agree.
"""

from __future__ import annotations

from typing import Any

from jitcheck.baseline import comparison_lines
from jitcheck.report import (
    STAGES,
    format_ms,
    format_seconds,
    format_speedup,
    mode_columns,
    python_time,
    returned_raised,
)
from jitcheck.settings import SessionState

NOTE_WIDTH = 70


def write_terminal_summary(tr: Any, state: SessionState) -> None:
    """Write the summary through pytest's TerminalReporter `tr`."""
    report = state.report
    assert report is not None
    functions = list(report["functions"].values())
    tr.write_sep("=", "jit-diff summary")
    if not functions:
        tr.write_line("no jitted function was checked (see --jit-diff and @jitcheck)")
    for line, markup in results_table(functions) if functions else []:
        tr.write_line(line, **markup)
    compile_rows = compile_table(functions)
    if compile_rows:
        tr.write_line("")
        for line in compile_rows:
            tr.write_line(line)
    if state.baseline_error:
        tr.write_line("")
        tr.write_line(f"FAILED: {state.baseline_error}", red=True, bold=True)
    elif state.comparison is not None:
        tr.write_line("")
        for line in comparison_lines(state.comparison, str(state.run.baseline)):
            bad = line.startswith(("  REGRESSION", "FAILED", "  MISSING", "WARNING"))
            tr.write_line(
                line,
                red=bad,
                bold=line.startswith(("FAILED", "OK", "WARNING")),
                green=line.startswith("OK"),
            )
    written = [p for p in (state.run.report_json, state.run.report_md, state.run.report_html) if p]
    if written:
        tr.write_line(f"jit-diff reports: {', '.join(written)}")


def results_table(functions: list[dict[str, Any]]) -> list[tuple[str, dict[str, bool]]]:
    """One line per function: outcome, example counts, Python time, speedup per mode, and
    a note (why it was skipped or failed); each with its terminal markup."""
    modes = mode_columns(functions)
    timed = any(fn.get("timing") for fn in functions)
    head = ["function", "outcome", "examples", "returned", "raised", "rejected"]
    head += ["python", *modes] if timed else []
    rows = [head + ["note"]]
    for fn in functions:
        diff = fn.get("diff") or {}
        row = [
            fn["name"],
            fn["outcome"],
            _count(diff.get("examples")),
            *returned_raised(fn)[:2],
            _count(diff.get("rejected")),
        ]
        if timed:
            python = python_time(fn)
            row.append(format_seconds(python) if python else "–")
            row += [format_speedup((fn.get("speedup") or {}).get(m)) for m in modes]
        rows.append(row + [_note(fn)])
    lines = _align(rows, left=2)
    markups = [{"bold": True}] + [_markup(fn["outcome"]) for fn in functions]
    return list(zip(lines, markups))


def compile_table(functions: list[dict[str, Any]]) -> list[str]:
    """Compile milliseconds per pipeline stage, per function and mode."""
    rows = [["compile ms", "mode", *STAGES, "total", "cache"]]
    for fn in functions:
        for mode, stats in (fn.get("compile") or {}).items():
            stages = stats.get("stages", {})
            if stats.get("cache_hit"):
                cells = [format_ms(stages.get("parse"))] + [""] * (len(STAGES) - 1)
            else:
                cells = [format_ms(stages.get(s)) for s in STAGES]
            cache = "hit" if stats.get("cache_hit") else ""
            rows.append([fn["name"], mode, *cells, format_ms(stats.get("total")), cache])
    return _align(rows, left=2) if len(rows) > 1 else []


def _note(fn: dict[str, Any]) -> str:
    text = fn.get("reason") or fn.get("bench_error") or ""
    return text if len(text) <= NOTE_WIDTH else text[: NOTE_WIDTH - 1] + "…"


def _count(value: Any) -> str:
    return "–" if value is None else str(value)


def _markup(outcome: str) -> dict[str, bool]:
    if outcome in ("failed", "error", "xpassed"):
        return {"red": True}
    if outcome in ("skipped", "xfailed"):
        return {"yellow": True}
    return {}


def _align(rows: list[list[str]], left: int) -> list[str]:
    """Columns padded to their widest cell: the first `left` (and the last) to the left,
    numbers to the right."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    last = len(widths) - 1
    lines = []
    for row in rows:
        cells = [
            cell.ljust(w) if i < left or i == last else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths))
        ]
        lines.append("  ".join(cells).rstrip())
    return lines
