"""`table.py` turns a pytest-benchmark report into ratios, with scaled and fallback rows marked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.table import format_ratio, format_seconds, main, summarize


def _bench(kernel: str, impl: str, median: float, **info: Any) -> dict[str, Any]:
    extra = {"kind": "run", "kernel": kernel, "impl": impl, "n": 10, "size": 10, "scale": 1.0}
    extra |= {"label": "n=10", "measured": "n=10"} | info
    return {"stats": {"median": median}, "extra_info": extra}


def _memory() -> dict[str, Any]:
    return {
        "kind": "memory", "kernel": "alloc", "impl": "jitcore", "calls": 100_000,
        "array_bytes": 2**20, "rss_before_mb": 50.0, "rss_after_mb": 51.5, "growth_mb": 1.5,
    }  # fmt: skip


def _report() -> dict[str, Any]:
    return {
        "benchmarks": [
            _bench("dot", "python", 2e-3, n=5, scale=2.0, measured="n=5"),
            _bench("dot", "numpy", 1e-4),
            _bench("dot", "jitcore", 1e-4, jitcore="compiled"),
            _bench("sum", "python", 1e-3),
            _bench("sum", "jitcore", 1e-3, jitcore="fallback", reason="no arrays yet"),
            {"stats": {"median": 0.1}, "extra_info": _memory()},
        ],
        "jitcore": {
            "skipped": [
                {
                    "test": "t.py::test_kernel[x]",
                    "kernel": "sum",
                    "impl": "numba",
                    "reason": "numba is not installed",
                }
            ]
        },
    }


def test_ratios_and_marks() -> None:
    text = summarize(_report())
    dot = next(line for line in text.splitlines() if line.startswith("dot "))
    assert "4 ms~" in dot and "40x" in dot and "1x" in dot  # python scaled x2: 4 ms / 0.1 ms
    sum_ = next(line for line in text.splitlines() if line.startswith("sum "))
    assert "1 ms*" in sum_ and "1x*" in sum_
    assert "jitcore cannot compile yet, ran as Python: sum" in text
    assert "because: no arrays yet" in text
    assert "run time, numba: sum" in text and "numba is not installed" in text
    assert "geometric mean speedup of compiled kernels: 40x vs python (1)" in text
    assert "alloc   100,000  1 MiB    50.0 MiB   51.5 MiB  +1.5 MiB" in text


def test_formats() -> None:
    assert format_seconds(1.5) == "1.5 s"
    assert format_seconds(2.5e-3) == "2.5 ms"
    assert format_seconds(4e-8) == "40 ns"
    assert (
        format_ratio(None) == "-"
        and format_ratio(0.5) == "0.5x"
        and format_ratio(1234) == "1,234x"
    )


def test_main_reads_a_file(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "bench.json"
    path.write_text(json.dumps(_report()))
    assert main([str(path)]) == 0
    assert "dot" in capsys.readouterr().out
    assert main([str(tmp_path / "missing.json")]) == 2


def _timed(kind: str, median: float, **info: Any) -> dict[str, Any]:
    return {"stats": {"median": median}, "extra_info": {"kind": kind, **info}}


def test_dispatch_startup_and_import_sections() -> None:
    def call(impl: str, ns: float, **info: Any) -> dict[str, Any]:
        return _timed("dispatch", ns * 1e-9, kernel="add", impl=impl, label="int, int", **info)

    startup = {"kernel": "startup", "in_process_s": 0.2, "phases_ms": {"import mod": 60.0}}
    report = {
        "benchmarks": [
            call("python", 60), call("jitcore", 50, jitcore="compiled", dispatch="python"),
            call("numba", 150),
            _timed("startup", 0.3, impl="jitcore", cache="warm", **startup,
                   stages_ms={"total": {"parse": 2.5, "cache-load": 1.0}}),
            _timed("import", 0.16, kernel="jitcore", impl="jitcore", in_process_s=0.12,
                   importtime={"slowest": [["numpy._core", 9.0, 80.0, "numpy"]],
                               "packages_ms": {"numpy": 90.0, "jitcore": 3.0}}),
        ]
    }  # fmt: skip
    lines = summarize(report).splitlines()
    add = next(line for line in lines if line.startswith("add "))
    assert add.split() == [
        "add",
        "int,",
        "int",
        "60",
        "ns",
        "50",
        "ns^",
        "150",
        "ns",
        "1.2x",
        "3x",
    ]
    assert any(line.startswith("^ no native __call__") for line in lines)
    warm = next(line for line in lines if line.startswith("jitcore  warm"))
    assert warm.split() == ["jitcore", "warm", "200", "ms", "300", "ms", "60"]
    assert "    jitcore warm, total: parse 2.5, cache-load 1.0" in lines
    assert "    import jitcore: 120 ms / 160 ms" in lines
    assert "        slowest modules (own ms): numpy._core 9.0" in lines
    assert "        by package (own ms): numpy 90.0, jitcore 3.0" in lines
    assert not any(line.startswith("Run time per call") for line in lines)  # no run entries
