"""Summarize a pytest-benchmark JSON report: jitcore's speed relative to Python, NumPy, Numba.

    python -m benchmarks.table reports/bench.json

Times are medians per call. Rows measured at a smaller size (pure Python, or jitcore falling
back to Python) are scaled to the benchmark size by the work the kernel does (see `cases.py`)
and marked `~`; jitcore rows that ran as Python because jitcore cannot compile the kernel yet
are marked `*`. A ratio "vs X" is X's time over jitcore's: above 1 means jitcore is faster.

Then, when the report has them: compile latency, memory, call overhead of warm tiny functions
(`test_dispatch.py`, ns per call), and fresh-process startup with a warm or empty disk cache
and the slowest imports (`test_startup.py`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

IMPLS = ("python", "numpy", "jitcore", "numba")
SCALED, FALLBACK = "~", "*"


@dataclass(frozen=True)
class Timing:
    """One implementation of one kernel: median seconds per call at the benchmark size."""

    seconds: float
    scaled_from: str | None  # the size actually measured, when it was not the benchmark size
    scale: float
    fallback: str | None  # why jitcore ran the kernel as Python

    @property
    def marks(self) -> str:
        return (SCALED if self.scaled_from else "") + (FALLBACK if self.fallback else "")


def format_seconds(seconds: float) -> str:
    """Three significant digits in the unit that keeps the number readable."""
    for unit, factor in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= factor:
            return f"{seconds / factor:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def format_ratio(ratio: float | None) -> str:
    if ratio is None:
        return "-"
    return f"{ratio:.3g}x" if ratio < 100 else f"{ratio:,.0f}x"


def _timing(bench: dict[str, Any]) -> Timing:
    info = bench["extra_info"]
    scale = float(info.get("scale", 1.0))
    scaled = info["measured"] if info.get("n") != info.get("size") else None
    fallback = info.get("reason") if info.get("jitcore") == "fallback" else None
    return Timing(bench["stats"]["median"] * scale, scaled, scale, fallback)


def collect(benchmarks: Iterable[dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    """kernel -> implementation -> benchmark entry, for entries of one kind, in report order."""
    table: dict[str, dict[str, Any]] = {}
    for bench in benchmarks:
        info = bench.get("extra_info", {})
        if info.get("kind") == kind:
            table.setdefault(info["kernel"], {})[info["impl"]] = bench
    return table


def render(headers: Sequence[str], rows: Sequence[Sequence[str]], align: str = "") -> list[str]:
    """Columns two spaces apart, aligned by `align`: "l" or "r" per column, the columns it
    leaves out right-aligned (the default: names and sizes left, numbers right)."""
    align = (align or "ll").ljust(len(headers), "r")
    widths = [max(len(r[i]) for r in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(cells, widths, align)
        ).rstrip()

    return [line(headers), line(["-" * w for w in widths]), *map(line, rows)]


def _ratio(other: Timing | None, jit: Timing | None) -> float | None:
    if other is None or jit is None or jit.seconds <= 0:
        return None
    return other.seconds / jit.seconds


def run_section(benchmarks: list[dict[str, Any]]) -> list[str]:
    """The main table, then the notes its marks refer to and a geometric mean."""
    kernels = collect(benchmarks, "run")
    if not kernels:
        return []
    rows: list[list[str]] = []
    speedups: dict[str, list[float]] = {impl: [] for impl in IMPLS if impl != "jitcore"}
    scaled: dict[str, list[str]] = {}  # "kernel at size (xscale)" -> implementations
    fallbacks: dict[str, list[str]] = {}
    for kernel, impls in kernels.items():
        timings = {impl: _timing(b) for impl, b in impls.items()}
        label = next(iter(impls.values()))["extra_info"]["label"]
        cells = [kernel, label]
        cells += [
            format_seconds(t.seconds) + t.marks if (t := timings.get(i)) else "-" for i in IMPLS
        ]
        jit = timings.get("jitcore")
        for impl in speedups:
            ratio = _ratio(timings.get(impl), jit)
            mark = FALLBACK if ratio is not None and jit and jit.fallback else ""
            cells.append(format_ratio(ratio) + mark)
            if ratio is not None and jit and not jit.fallback:
                speedups[impl].append(ratio)
        rows.append(cells)
        for impl, t in timings.items():
            if t.scaled_from:
                scaled.setdefault(f"{kernel} at {t.scaled_from} (x{t.scale:.3g})", []).append(impl)
        if jit and jit.fallback:
            fallbacks.setdefault(jit.fallback, []).append(kernel)
    headers = ["kernel", "size", *IMPLS, *(f"vs {impl}" for impl in speedups)]
    lines = [
        "Run time per call (median). 'vs X' = X's time / jitcore's time: above 1, jitcore wins.",
        "",
        *render(headers, rows),
        "",
    ]
    if scaled:
        lines.append(f"{SCALED} measured at a smaller size and scaled by the kernel's work:")
        lines += [f"    {where}: {', '.join(impls)}" for where, impls in scaled.items()]
    for reason, names in fallbacks.items():
        lines.append(f"{FALLBACK} jitcore cannot compile yet, ran as Python: {', '.join(names)}")
        lines.append(f"    because: {reason}")
    means = [
        f"{format_ratio(geometric_mean(v))} vs {impl} ({len(v)})"
        for impl, v in speedups.items()
        if v
    ]
    if means:
        lines.append("geometric mean speedup of compiled kernels: " + ", ".join(means))
    return lines


def geometric_mean(values: Sequence[float]) -> float:
    return math.exp(sum(map(math.log, values)) / len(values))


def compile_section(benchmarks: list[dict[str, Any]]) -> list[str]:
    """First-call latency of fresh functions, with jitcore's own time per pipeline stage."""
    kernels = collect(benchmarks, "compile")
    if not kernels:
        return []
    stages: list[str] = []
    for impls in kernels.values():
        for stage in impls.get("jitcore", {}).get("extra_info", {}).get("stages_ms", {}):
            if stage not in stages:
                stages.append(stage)
    rows = []
    for kernel, impls in kernels.items():
        times = {impl: b["stats"]["median"] for impl, b in impls.items()}
        jit, numba = times.get("jitcore"), times.get("numba")
        final = times.get("jitcore-final")
        stage_ms = impls.get("jitcore", {}).get("extra_info", {}).get("stages_ms", {})
        rows.append(
            [
                kernel,
                format_seconds(jit) if jit else "-",
                format_seconds(final) if final else "-",
                format_seconds(numba) if numba else "-",
                format_ratio(numba / jit) if jit and numba else "-",
                format_ratio(numba / final) if final and numba else "-",
                *(f"{stage_ms[s]:.1f}" if s in stage_ms else "-" for s in stages),
            ]
        )
    headers = ["kernel", "jitcore", "jitcore final", "numba", "numba/jitcore", "numba/final"]
    return [
        "Compile latency: first call of a fresh function on tiny inputs (median): jitcore's",
        "first-tier code (what tiny inputs get), its final (O3) code compiled at once",
        "(`tiered=False`, what large inputs get), and the jitcore kernel's stages in ms (first",
        "tier; a jitted callee is compiled within its caller's typeinfer).",
        "",
        *render([*headers, *stages], rows, align="l"),
    ]


def memory_section(benchmarks: list[dict[str, Any]]) -> list[str]:
    """RSS before and after many calls that create and drop an array."""
    infos = [b["extra_info"] for b in benchmarks if b["extra_info"].get("kind") == "memory"]
    if not infos:
        return []
    rows = [
        [
            i["kernel"],
            f"{i['calls']:,}",
            f"{i['array_bytes'] / 2**20:.0f} MiB",
            f"{i['rss_before_mb']:.1f} MiB",
            f"{i['rss_after_mb']:.1f} MiB",
            f"{i['growth_mb']:+.1f} MiB",
        ]
        for i in infos
    ]
    headers = ["kernel", "calls", "array", "RSS before", "RSS after", "growth"]
    title = "Memory: RSS around repeated array creation in compiled code"
    return [title, "", *render(headers, rows, align="l")]


def dispatch_section(benchmarks: list[dict[str, Any]]) -> list[str]:
    """Time per call of warm tiny functions: what dispatch costs."""
    calls = collect(benchmarks, "dispatch")
    if not calls:
        return []
    impls = ("python", "jitcore", "numba")
    rows, marks = [], {}
    for name, entries in calls.items():
        times = {i: _timing(b) for i, b in entries.items()}
        jit = entries.get("jitcore", {}).get("extra_info", {})
        mark = ""
        if jit.get("jitcore") == "fallback":
            mark = FALLBACK
            marks[mark] = f"{FALLBACK} jitcore ran it as Python: {jit.get('reason')}"
        elif jit.get("dispatch") == "python":
            mark = "^"
            marks[mark] = "^ no native __call__: dispatched by the Python-level dispatcher"
        label = next(iter(entries.values()))["extra_info"]["label"]
        cells = [name, label]
        cells += [
            format_seconds(t.seconds) + (mark if i == "jitcore" else "")
            if (t := times.get(i))
            else "-"
            for i in impls
        ]
        cells += [format_ratio(_ratio(times.get(i), times.get("jitcore"))) for i in impls[::2]]
        rows.append(cells)
    headers = ["call", "arguments", *impls, "vs python", "vs numba"]
    return [
        "Call overhead: time per call of a warm function (median; includes the benchmark's",
        "own loop, the same for all). 'vs X' = X's time / jitcore's time.",
        "",
        *render(headers, rows),
        *marks.values(),
    ]


def _ms(seconds: float) -> str:
    return f"{1e3 * seconds:.0f} ms"


def startup_section(benchmarks: list[dict[str, Any]]) -> list[str]:
    """Fresh processes: a small jitted module imported and called once, warm or cold cache."""
    rows: list[tuple[dict[str, Any], float]] = []
    phases: list[str] = []
    stages: list[str] = []
    for b in benchmarks:
        info = b["extra_info"]
        if info.get("kind") != "startup":
            continue
        rows.append((info, b["stats"]["median"]))
        phases += [p for p in info.get("phases_ms", {}) if p not in phases]
        for kernel, times in info.get("stages_ms", {}).items():
            cells = ", ".join(f"{stage} {ms:.1f}" for stage, ms in times.items())
            stages.append(f"    {info['impl']} {info['cache']}, {kernel}: {cells}")
    if not rows:
        return []
    table = []
    for info, wall in rows:
        times = info.get("phases_ms", {})
        cells = [info["impl"], info["cache"], _ms(info["in_process_s"]), _ms(wall)]
        table.append(cells + [f"{times[p]:.0f}" if p in times else "-" for p in phases])
    headers = ["impl", "cache", "import to result", "process wall", *phases]
    lines = [
        "Startup: a fresh process imports a small jitted module and calls it once (medians;",
        "'import to result' is timed in the process, its phases (ms) by separate probe runs).",
        "",
        *render(headers, table),
    ]
    if stages:
        lines += ["jitcore's stages of that first call, ms:", *stages]
    return lines


def import_section(benchmarks: list[dict[str, Any]]) -> list[str]:
    """`import X` in a fresh process, and its slowest modules under `-X importtime`."""
    imports = [b for b in benchmarks if b["extra_info"].get("kind") == "import"]
    if not imports:
        return []
    lines = ["Import in a fresh process: median time in the process / of the whole process."]
    for b in imports:
        info = b["extra_info"]
        lines.append(
            f"    import {info['kernel']}: {_ms(info['in_process_s'])} / "
            f"{_ms(b['stats']['median'])}"
        )
        report = info.get("importtime", {})
        slowest = ", ".join(f"{m} {ms:.1f}" for m, ms, *_ in report.get("slowest", []))
        packages = list(report.get("packages_ms", {}).items())[:6]
        if slowest:
            lines.append(f"        slowest modules (own ms): {slowest}")
            lines.append(
                "        by package (own ms): " + ", ".join(f"{p} {ms:.1f}" for p, ms in packages)
            )
    return lines


def machine_section(report: dict[str, Any]) -> list[str]:
    m = report.get("machine_info", {}).get("jitcore")
    if not m:
        return ["machine: not recorded (run with benchmarks/conftest.py)"]
    numba = f", Numba {m['numba']}" if m.get("numba") else ", Numba not installed"
    settings = report.get("jitcore", {}).get("settings", {})
    when = report.get("datetime", "?")
    return [
        f"machine:  {m['cpu']} ({m['processor']}): {m['cpu_features']}",
        f"software: Python {m['python']}, NumPy {m['numpy']}, llvmlite {m['llvmlite']} "
        f"(LLVM {m['llvm']}){numba}, jitcore {m['jitcore']}",
        f"timing:   at least {settings.get('min_rounds', '?')} rounds, "
        f"up to {settings.get('max_time', '?')} s per benchmark; run {when}",
    ]


# What each benchmark function measures, for the list of what was not measured.
KINDS = {
    "test_kernel": "run time",
    "test_compile_latency": "compile latency",
    "test_memory_stays_flat": "memory",
    "test_dispatch": "call overhead",
    "test_startup": "startup",
    "test_import_time": "import time",
}


def skipped_section(report: dict[str, Any]) -> list[str]:
    """Skipped benchmarks, grouped by what was not measured and why. A kernel jitcore cannot
    compile yet has no compile latency; the reason is already under its `*` mark above."""
    fallbacks = set(collect_fallbacks(report.get("benchmarks", [])))
    groups: dict[tuple[str, str], list[str]] = {}
    for s in report.get("jitcore", {}).get("skipped", []):
        function = s["test"].split("::")[-1].split("[")[0]
        impl = s.get("impl") or s.get("compiler") or "jitcore"
        kernel = s.get("kernel") or s.get("name") or s.get("module") or s["test"]
        reason = s["reason"]
        if impl == "jitcore" and kernel in fallbacks:
            reason = f"jitcore cannot compile it yet (see {FALLBACK} above)"
        what = f"{KINDS.get(function, function)}, {impl}"
        groups.setdefault((what, reason), []).append(kernel)
    lines = ["Not measured:"] if groups else []
    for (what, reason), kernels in groups.items():
        lines += [f"    {what}: {', '.join(kernels)}", f"        {reason}"]
    return lines


def collect_fallbacks(benchmarks: list[dict[str, Any]]) -> list[str]:
    """Kernels whose jitcore run fell back to Python."""
    return [
        kernel
        for kernel, impls in collect(benchmarks, "run").items()
        if impls.get("jitcore", {}).get("extra_info", {}).get("jitcore") == "fallback"
    ]


def summarize(report: dict[str, Any]) -> str:
    benchmarks = report.get("benchmarks", [])
    sections = [
        machine_section(report),
        run_section(benchmarks),
        compile_section(benchmarks),
        memory_section(benchmarks),
        dispatch_section(benchmarks),
        startup_section(benchmarks),
        import_section(benchmarks),
        skipped_section(report),
    ]
    return "\n\n".join("\n".join(s) for s in sections if s)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path, help="JSON written by --benchmark-json")
    args = parser.parse_args(argv)
    try:
        report = json.loads(args.report.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        print(f"cannot read {args.report}: {exc}", file=sys.stderr)
        return 2
    print(summarize(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
