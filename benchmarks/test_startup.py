"""Startup: import-to-first-result of a small jitted module in a fresh process, with the disk
cache warm (`cache=True`, filled by an earlier process) or empty, jitcore vs Numba, and plain
Python as the floor (the interpreter, NumPy and the module's pure-Python run).

Each round is a whole process running `startup.TIMED`; pytest-benchmark times the process
(wall), and the time the process measured itself, from before `import mod` to `main`'s result,
goes into `extra_info["in_process_s"]` (median of the rounds). Untimed probe runs afterwards
record where that time goes (`phases_ms`), check that the cache did what the row claims, and
keep jitcore's per-stage times (`stages_ms`: `parse` and `cache-load` on a hit).

`test_import_time` times `python -c "import X"` and records the slowest imports; the plain
test at the end checks the `-X importtime` parser (`python -m benchmarks.startup` prints the
same summary by hand).
"""

from __future__ import annotations

import shutil
import statistics
import time
from pathlib import Path
from typing import Any

import pytest

from benchmarks import startup
from benchmarks.variants import numba_available

N = 1000  # elements of main's array: the kernels' own run time is microseconds
ROUNDS = 5
PROBES = 3

STARTUP = [
    pytest.param("python", "none", id="python"),
    pytest.param("jitcore", "warm", id="jitcore-warm"),
    pytest.param("jitcore", "cold", id="jitcore-cold"),
    pytest.param("numba", "warm", id="numba-warm"),
    pytest.param("numba", "cold", id="numba-cold"),
]


def _require(impl: str) -> None:
    if impl == "numba" and not numba_available():
        pytest.skip("numba is not installed (optional: pip install numba)")


def _check_cache(impl: str, cache: str, kernels: dict[str, Any]) -> None:
    """The probe's cache report agrees with the row: all hits when warm, none when cold."""
    if impl == "python":
        return
    # A callee may live in its caller's cache entry (Numba; jitcore when it inlines it).
    assert set(startup.CALLED_FROM_PYTHON) <= set(kernels), kernels
    if impl == "jitcore":
        hits = {k: v["cache_hit"] for k, v in kernels.items()}
        assert all(hits.values()) if cache == "warm" else not any(hits.values()), hits
    else:
        called = [kernels[k] for k in startup.CALLED_FROM_PYTHON]
        warm = all(v["hits"] and not v["misses"] for v in called)
        cold = all(v["misses"] and not v["hits"] for v in called)
        assert warm if cache == "warm" else cold, kernels


@pytest.mark.parametrize(("impl", "cache"), STARTUP)
def test_startup(benchmark: Any, tmp_path: Path, impl: str, cache: str) -> None:
    _require(impl)
    benchmark.group = "startup"
    source = tmp_path / "src"
    startup.write_module(source, impl)
    caches = tmp_path / "caches"
    serial = iter(range(1_000_000))

    def environment() -> dict[str, str]:
        """A warm row reuses one cache directory; a cold one gets an empty one each time."""
        name = "shared" if cache != "cold" else f"empty-{next(serial)}"
        directory = caches / name
        if cache == "cold":
            shutil.rmtree(directory, ignore_errors=True)
        extra = {startup.CACHE_ENV[impl]: str(directory)} if impl in startup.CACHE_ENV else {}
        return startup.clean_env(**extra)

    code = startup.TIMED.format(n=N)
    in_process: list[float] = []

    def run(env: dict[str, str]) -> None:
        done = startup.run_python(code, source, env)
        in_process.append(float(done.stdout.split()[-1]))

    run(environment())  # fills the cache (warm) and the module's .pyc, warms the OS caches
    in_process.clear()
    benchmark.pedantic(run, setup=lambda: ((environment(),), {}), rounds=ROUNDS, iterations=1)

    probes = [startup.probe(source, impl, environment(), N) for _ in range(PROBES)]
    expected = startup.expected_result(N)
    for p in probes:
        assert p["result"] == pytest.approx(expected, rel=1e-12), p["result"]
        _check_cache(impl, cache, p["kernels"])
    phases = {
        phase: 1e3 * statistics.median(p["phases"][phase] for p in probes)
        for phase in probes[0]["phases"]
    }
    benchmark.extra_info.update(
        kind="startup",
        kernel="startup",
        impl=impl,
        cache=cache,
        n=N,
        in_process_s=statistics.median(in_process),
        in_process_rounds_s=in_process,
        phases_ms=phases,
    )
    if impl == "jitcore":
        benchmark.extra_info["stages_ms"] = {
            kernel: {stage: 1e3 * s for stage, s in stats["stages"].items()}
            for kernel, stats in probes[-1]["kernels"].items()
        }


IMPORTS = ["numpy", "jitcore", "jitcore.dispatcher", "numba"]  # NumPy: the floor


@pytest.mark.parametrize("module", IMPORTS)
def test_import_time(benchmark: Any, module: str) -> None:
    """`import X` in a fresh process, and where its time goes: the 10 slowest modules under
    `-X importtime`. Neither `import jitcore` nor `jitcore.dispatcher` (what `@jit` needs)
    imports the compiler or llvmlite: a call does. NumPy, which all of them import, is the
    floor."""
    package = module.split(".")[0]
    _require(package)
    benchmark.group = "import"
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    in_process: list[float] = []

    def run() -> None:
        in_process.append(float(startup.run_python(code).stdout.split()[-1]))

    run()
    in_process.clear()
    benchmark.pedantic(run, rounds=ROUNDS, iterations=1)
    report = startup.import_report(f"import {module}", runs=ROUNDS, top=10)
    benchmark.extra_info.update(
        kind="import",
        kernel=module,
        impl=package,
        in_process_s=statistics.median(in_process),
        importtime=report,
    )
    print("\n" + "\n".join(startup.format_import_report(f"import {module}", report)))


SAMPLE = """\
import time: self [us] | cumulative | imported package
import time:       120 |        120 |   _io
import time:       100 |        100 |       datetime
import time:      2000 |       2100 |     numpy._core
import time:       300 |       2400 |   numpy
import time:        50 |       2570 | jitcore
import time:        10 |         10 | json
"""


def test_parse_importtime() -> None:
    imports = startup.parse_importtime(SAMPLE)
    assert [(i.module, i.self_us, i.cumulative_us, i.parents, i.owner) for i in imports] == [
        ("_io", 120, 120, ("jitcore",), "_io"),
        ("datetime", 100, 100, ("jitcore", "numpy", "numpy._core"), "numpy"),
        ("numpy._core", 2000, 2100, ("jitcore", "numpy"), "numpy"),
        ("numpy", 300, 2400, ("jitcore",), "numpy"),
        ("jitcore", 50, 2570, (), "jitcore"),
        ("json", 10, 10, (), "json"),
    ]
    report = startup.summarize_imports([imports[1:5], imports[1:5]], top=2)
    assert report["total_ms"] == pytest.approx(2.45)
    assert report["slowest"] == [["numpy._core", 2.0, 2.1, "numpy"], ["numpy", 0.3, 2.4, "numpy"]]
    assert report["packages_ms"] == pytest.approx({"numpy": 2.4, "jitcore": 0.05})
    lines = startup.format_import_report("import jitcore", report)
    assert lines[0].startswith("import jitcore: 2.5 ms in 4 modules")
    assert "numpy 2.4, jitcore 0.1" in lines[1]
    assert lines[3].endswith("numpy._core [numpy]")


def test_module_runs_as_python(tmp_path: Path) -> None:
    """The written module imports and runs in a fresh process, with the expected result."""
    start = time.perf_counter()
    startup.write_module(tmp_path, "python")
    result = startup.probe(tmp_path, "python", startup.clean_env(), 10)
    assert result["result"] == pytest.approx(startup.expected_result(10))
    assert set(result["phases"]) == {"import numpy", "import package", "import mod", "first call"}
    assert time.perf_counter() - start < 60
