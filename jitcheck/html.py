"""`--jit-diff-report-html`: one self-contained HTML file (no network resources).

It holds two inline-SVG charts (speedup over Python per function and mode, on a log scale
around 1x; compile milliseconds per pipeline stage, stacked, for each function's own mode),
the results and compile tables (click a header to sort), failures, skips, and the baseline
comparison. Everything is drawn from the JSON report.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from jitcheck.report import (
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

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f")
CHART_WIDTH = 1020
LABEL_WIDTH = 300  # room for module.function names of about 40 characters
BAR = 16
GAP = 12
NOTE_LENGTH = 90  # characters of a note shown in the results table (all of it on hover)


def render_html(report: dict[str, Any]) -> str:
    """The whole page."""
    functions = list(report["functions"].values())
    modes = mode_columns(functions)
    body = [
        _header(report),
        _section("Speedup over Python", _speedup_chart(functions, modes)),
        _section("Compile time per stage (each function's own mode)", _compile_chart(functions)),
        _section("Results", _results_table(functions, modes)),
        _section("Compile time per stage, every mode (ms)", _compile_table(functions)),
        _problems(functions),
        _baseline(report.get("baseline")),
    ]
    return _PAGE.format(style=_STYLE, script=_SCRIPT, body="\n".join(b for b in body if b))


def _section(title: str, content: str) -> str:
    return f"<section><h2>{escape(title)}</h2>\n{content}\n</section>" if content else ""


def _header(report: dict[str, Any]) -> str:
    summary, machine = report["summary"], report["machine"]
    chips = "".join(
        f'<span class="chip {k}">{summary[k]} {k}</span>'
        for k in ("passed", "failed", "error", "skipped", "xfailed", "xpassed")
        if summary.get(k)
    )
    facts = (
        f"{machine['cpu']['name']} · Python {machine['python']} · NumPy {machine['numpy']} · "
        f"LLVM {machine['llvm']} · jitcore {machine['jitcore']} · {report['created']}"
    )
    return (
        f'<header><h1>jitcheck report</h1><p class="chips">{summary["functions"]} functions '
        f'{chips}</p><p class="machine">{escape(facts)}</p></header>'
    )


# --- charts --------------------------------------------------------------------------------


def _speedup_chart(functions: list[dict[str, Any]], modes: list[str]) -> str:
    rows = [(fn["name"], fn.get("speedup") or {}) for fn in functions if fn.get("speedup")]
    if not rows:
        return '<p class="note">No timings: run with --jit-diff-bench to time each mode.</p>'
    values = [v for _, s in rows for v in s.values() if v]
    low = math.floor(math.log10(min([0.5, *values])))
    high = math.ceil(math.log10(max([2.0, *values])))
    plot = CHART_WIDTH - LABEL_WIDTH - 70

    def x(v: float) -> float:
        return LABEL_WIDTH + (math.log10(v) - low) / (high - low) * plot

    group = len(modes) * BAR + GAP
    height = 30 + len(rows) * group + 10
    parts = [_legend(modes, 4)]
    for decade in range(low, high + 1):
        tick = 10.0**decade
        parts.append(
            f'<line class="grid" x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="24" y2="{height - 6}"/>'
            f'<text class="tick" x="{x(tick):.1f}" y="{height + 8}" text-anchor="middle">'
            f"{tick:g}×</text>"
        )
    one = x(1.0)
    for i, (name, speedups) in enumerate(rows):
        top = 30 + i * group
        parts.append(
            f'<text class="label" x="{LABEL_WIDTH - 8}" y="{top + len(modes) * BAR / 2 + 4:.1f}" '
            f'text-anchor="end">{escape(name)}</text>'
        )
        for j, mode in enumerate(modes):
            value = speedups.get(mode)
            if not value:
                continue
            left, right = sorted((one, x(value)))
            y = top + j * BAR
            parts.append(
                f'<rect x="{left:.1f}" y="{y + 1}" width="{max(right - left, 1):.1f}" '
                f'height="{BAR - 2}" fill="{PALETTE[j % len(PALETTE)]}" rx="2">'
                f"<title>{escape(name)} [{escape(mode)}]: {format_speedup(value)}</title></rect>"
                f'<text class="value" x="{right + 4:.1f}" y="{y + BAR - 4}">'
                f"{format_speedup(value)}</text>"
            )
    parts.append(f'<line class="one" x1="{one:.1f}" x2="{one:.1f}" y1="24" y2="{height - 6}"/>')
    return _svg(height + 14, parts, "Speedup of each compiled mode over Python (log scale)")


def _compile_chart(functions: list[dict[str, Any]]) -> str:
    rows = []
    for fn in functions:
        compiled = fn.get("compile") or {}
        own = next((m for m in fn.get("modes", []) if m in compiled), None)
        if own is not None:
            rows.append((f"{fn['name']} [{own}]", compiled[own]))
    if not rows:
        return ""
    longest = max(stats.get("total", 0.0) for _, stats in rows) or 1e-3
    plot = CHART_WIDTH - LABEL_WIDTH - 80
    height = 30 + len(rows) * (BAR + 6) + 10
    parts = [_legend(list(STAGES), 4)]
    for tick in _linear_ticks(longest * 1e3):
        tx = LABEL_WIDTH + tick / (longest * 1e3) * plot
        parts.append(
            f'<line class="grid" x1="{tx:.1f}" x2="{tx:.1f}" y1="24" y2="{height - 6}"/>'
            f'<text class="tick" x="{tx:.1f}" y="{height + 8}" text-anchor="middle">'
            f"{tick:g} ms</text>"
        )
    for i, (label, stats) in enumerate(rows):
        y = 30 + i * (BAR + 6)
        parts.append(
            f'<text class="label" x="{LABEL_WIDTH - 8}" y="{y + BAR - 4}" text-anchor="end">'
            f"{escape(label)}</text>"
        )
        left = float(LABEL_WIDTH)
        for k, stage in enumerate(STAGES):
            seconds = stats.get("stages", {}).get(stage, 0.0)
            width = seconds / longest * plot
            if width <= 0:
                continue
            parts.append(
                f'<rect x="{left:.1f}" y="{y}" width="{width:.1f}" height="{BAR}" '
                f'fill="{PALETTE[k % len(PALETTE)]}"><title>{escape(label)}: {stage} '
                f"{format_ms(seconds)} ms</title></rect>"
            )
            left += width
        total = (
            format_ms(stats.get("total")) + " ms" + (" (cache)" if stats.get("cache_hit") else "")
        )
        parts.append(f'<text class="value" x="{left + 4:.1f}" y="{y + BAR - 4}">{total}</text>')
    return _svg(height + 14, parts, "Compile milliseconds per pipeline stage")


def _linear_ticks(top: float) -> list[float]:
    """About five round tick values from 0 to `top`."""
    raw = top / 5
    step = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    for factor in (1, 2, 5, 10):
        if raw <= step * factor:
            step *= factor
            break
    return [round(i * step, 6) for i in range(int(top / step) + 1)]


def _legend(names: list[str], y: int) -> str:
    items, x = [], LABEL_WIDTH
    for i, name in enumerate(names):
        color = PALETTE[i % len(PALETTE)]
        items.append(
            f'<rect x="{x}" y="{y}" width="12" height="12" rx="2" fill="{color}"/>'
            f'<text class="legend" x="{x + 16}" y="{y + 10}">{escape(name)}</text>'
        )
        x += 26 + round(6.5 * len(name))
    return "".join(items)


def _svg(height: float, parts: list[str], title: str) -> str:
    return (
        f'<svg class="chart" viewBox="0 0 {CHART_WIDTH} {height:.0f}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(title)}</title>{''.join(parts)}</svg>"
    )


# --- tables --------------------------------------------------------------------------------


def _results_table(functions: list[dict[str, Any]], modes: list[str]) -> str:
    timed = any(fn.get("timing") for fn in functions)
    head = ["function", "outcome", "inputs", "examples", "returned", "raised", "rejected"]
    head += (["python", *(f"{m} speedup" for m in modes)] if timed else []) + ["note"]
    rows = []
    for fn in functions:
        diff = fn.get("diff") or {}
        cells = [
            _cell(fn["name"], cls="name"),
            _cell(fn["outcome"], cls=f"outcome {fn['outcome']}"),
            _cell(fn.get("inputs", "")),
            _num(diff.get("examples"), str(diff.get("examples", "–"))),
            _num(returned_raised(fn)[2], returned_raised(fn)[0]),
            _num(None, returned_raised(fn)[1]),
            _num(diff.get("rejected"), str(diff.get("rejected", "–"))),
        ]
        if timed:
            python = python_time(fn)
            cells.append(_num(python, format_seconds(python)))
            for mode in modes:
                value = (fn.get("speedup") or {}).get(mode)
                cells.append(_num(value, format_speedup(value)))
        note = fn.get("reason") or fn.get("bench_error") or ""
        short = note if len(note) <= NOTE_LENGTH else note[: NOTE_LENGTH - 1] + "…"
        cells.append(f'<td class="note" title="{escape(note)}">{escape(short)}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return _table(head, rows)


def _compile_table(functions: list[dict[str, Any]]) -> str:
    rows = []
    for fn in functions:
        for mode, stats in (fn.get("compile") or {}).items():
            stages = stats.get("stages", {})
            cells = [_cell(fn["name"], cls="name"), _cell(mode)]
            cells += [_num(stages.get(s), format_ms(stages.get(s))) for s in STAGES]
            cells.append(_num(stats.get("total"), format_ms(stats.get("total"))))
            cells.append(_cell("hit" if stats.get("cache_hit") else ""))
            rows.append("<tr>" + "".join(cells) + "</tr>")
    if not rows:
        return ""
    return _table(["function", "mode", *STAGES, "total", "cache"], rows)


def _table(head: list[str], rows: list[str]) -> str:
    header = "".join(f"<th>{escape(h)}</th>" for h in head)
    return (
        f'<table class="sortable"><thead><tr>{header}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _cell(text: str, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<td{attr}>{escape(str(text))}</td>"


def _num(value: float | None, text: str) -> str:
    sort_key = "" if value is None else f"{value!r}"
    return f'<td class="num" data-v="{sort_key}">{escape(text)}</td>'


def _problems(functions: list[dict[str, Any]]) -> str:
    items = []
    for fn in functions:
        if fn["outcome"] not in ("failed", "error", "xpassed", "skipped"):
            continue
        details = "".join(
            f"<li><b>{escape(modes)}</b>: <code>{escape(example)}</code><br>"
            f"{escape(difference)}</li>"
            for modes, example, difference in grouped_failures(fn)
        )
        items.append(
            f'<li><span class="outcome {fn["outcome"]}">{fn["outcome"]}</span> '
            f"<code>{escape(fn['name'])}</code>: {escape(fn.get('reason', ''))}"
            f"{f'<ul>{details}</ul>' if details else ''}</li>"
        )
    return (
        _section("Failures and skips", f'<ul class="problems">{"".join(items)}</ul>')
        if items
        else ""
    )


def _baseline(baseline: dict[str, Any] | None) -> str:
    if not baseline:
        return ""
    threshold = f"{baseline['max_regression']:.0%}"
    rows = []
    for kind in ("regressions", "improvements"):
        for c in baseline[kind]:
            change = f"{c['change']:+.1%}"
            what = "compiled time" if c.get("kind") == "time" else "speedup"
            rows.append(
                f'<tr class="{kind}">{_cell(c["function"], cls="name")}{_cell(c["mode"])}'
                f"{_cell(what)}{_num(c['old'], format_change_value(c, 'old'))}"
                f"{_num(c['new'], format_change_value(c, 'new'))}{_num(c['change'], change)}</tr>"
            )
    fallen = len(baseline["regressions"])
    warnings = "".join(f'<p class="bad">Warning: {escape(w)}</p>' for w in baseline["warnings"])
    missing = "".join(
        f'<p class="bad">Missing now: {escape(m)}</p>' for m in baseline.get("missing", [])
    )
    verdict = (
        warnings
        + (
            f'<p class="bad">{fallen} speedup(s) fell by more than {threshold}.</p>'
            if fallen
            else f'<p class="good">No speedup fell by more than {threshold}.</p>'
        )
        + missing
    )
    head = ["function", "mode", "what", "baseline", "now", "change"]
    table = _table(head, rows) if rows else ""
    return _section(f"Against the baseline {baseline['path']}", verdict + table)


_STYLE = """
:root { --fg: #1f2328; --muted: #656d76; --line: #d0d7de; --bg: #fff; --head: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px 32px 48px; max-width: 1100px; color: var(--fg);
       background: var(--bg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 24px; margin: 0 0 6px; }
h2 { font-size: 17px; margin: 28px 0 10px; padding-bottom: 4px;
     border-bottom: 1px solid var(--line); }
.chips { margin: 4px 0; }
.chip { display: inline-block; margin-left: 6px; padding: 1px 9px; border-radius: 10px;
        font-size: 12px; font-weight: 600; background: #eaeef2; }
.chip.passed { background: #dafbe1; color: #116329; }
.chip.failed, .chip.error, .chip.xpassed { background: #ffebe9; color: #a40e26; }
.chip.skipped, .chip.xfailed { background: #fff8c5; color: #7d4e00; }
.machine, .note { color: var(--muted); font-size: 12px; }
svg.chart { width: 100%; height: auto; display: block; }
svg .label { font-size: 12px; fill: var(--fg); }
svg .value, svg .tick, svg .legend { font-size: 11px; fill: var(--muted); }
svg .grid { stroke: #eaeef2; }
svg .one { stroke: #1f2328; stroke-width: 1.5; stroke-dasharray: 3 3; }
table { border-collapse: collapse; width: 100%; font-size: 13px; margin: 4px 0 8px; }
th, td { padding: 5px 8px; border-bottom: 1px solid var(--line); text-align: left;
         vertical-align: top; }
th { background: var(--head); cursor: pointer; user-select: none; white-space: nowrap;
     position: sticky; top: 0; }
th:hover { background: #eaeef2; }
th[data-dir=asc]::after { content: " \\25B2"; }
th[data-dir=desc]::after { content: " \\25BC"; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.name, code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
                font-size: 12px; }
td.note { color: var(--muted); font-size: 12px; max-width: 420px; }
.outcome { font-weight: 600; }
.outcome.passed { color: #1a7f37; }
.outcome.failed, .outcome.error, .outcome.xpassed { color: #cf222e; }
.outcome.skipped, .outcome.xfailed { color: #9a6700; }
tr.regressions td { background: #fff5f5; }
tr.improvements td { background: #f3fbf5; }
.bad { color: #cf222e; font-weight: 600; }
.good { color: #1a7f37; font-weight: 600; }
ul.problems li { margin-bottom: 6px; }
"""

_SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("th").forEach(function (th, col) {
    th.title = "click to sort";
    th.addEventListener("click", function () {
      var dir = th.dataset.dir === "asc" ? "desc" : "asc";
      table.querySelectorAll("th").forEach(function (h) { delete h.dataset.dir; });
      th.dataset.dir = dir;
      var key = function (row) {
        var cell = row.cells[col];
        var raw = cell.dataset.v !== undefined ? cell.dataset.v : cell.textContent;
        var n = parseFloat(raw);
        return isNaN(n) ? [1, raw.toLowerCase()] : [0, n];
      };
      var body = table.tBodies[0];
      Array.from(body.rows).sort(function (a, b) {
        var x = key(a), y = key(b);
        var order = x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0);
        return dir === "asc" ? order : -order;
      }).forEach(function (row) { body.appendChild(row); });
    });
  });
});
"""

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>jitcheck report</title>
<style>{style}</style></head>
<body>
{body}
<script>{script}</script>
</body></html>
"""
