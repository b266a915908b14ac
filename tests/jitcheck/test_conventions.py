"""pytest's conventions kept: node ids without brackets (`--lf` works), unique per module
path, `--collect-only` counts the items, `--benchmark-disable` is honoured, and
pytest-benchmark's session (storage, compare) sees jitcheck's timings."""

from __future__ import annotations

import pytest

from jitcheck.report import build_report
from jitcheck.settings import RunSettings
from tests.jitcheck.support import FAST_TIMING, HEADER, function, run, write_module

KERNELS = """
@jit
def good(a: float, b: float) -> float:
    return a + b


@jit
def bad(a: float, b: float) -> float:
    return a - b
"""


def test_last_failed_reruns_only_the_failed_item(
    pytester: pytest.Pytester, miscompile: None
) -> None:
    write_module(pytester, "test_k", KERNELS + "\n\ndef test_plain():\n    pass\n")
    first = pytester.runpytest_inprocess("-p", "cacheprovider", "--jit-diff")
    first.assert_outcomes(passed=2, failed=1)
    first.stdout.fnmatch_lines(["FAILED test_k.py::bad::jit-diff - *"])
    again = pytester.runpytest_inprocess("-p", "cacheprovider", "--jit-diff", "--lf")
    again.assert_outcomes(failed=1, deselected=2)
    again.stdout.fnmatch_lines(["run-last-failure: rerun previous 1 failure*"])
    one = pytester.runpytest_inprocess("--jit-diff", "test_k.py::good")  # by function
    one.assert_outcomes(passed=1)


def test_same_named_modules_outside_the_rootdir_both_appear(pytester: pytest.Pytester) -> None:
    for package in ("one", "two"):
        directory = pytester.path / "lib" / package
        directory.mkdir(parents=True)
        (directory / "__init__.py").write_text("")
        (directory / "kern.py").write_text(
            HEADER + "@jit\ndef f(x: float) -> float:\n    return x\n"
        )
    pytester.mkdir("run")
    pytester.syspathinsert(pytester.path / "lib")
    result, report = run(
        pytester, "--rootdir=run", "--jit-diff-module=one.kern", "--jit-diff-module=two.kern",
        "--jit-diff-max-examples=3",
    )  # fmt: skip
    result.assert_outcomes(passed=2)
    nodeids = sorted(fn["nodeid"] for fn in report["functions"].values())
    assert nodeids == ["../lib/one/kern.py::f::jit-diff", "../lib/two/kern.py::f::jit-diff"]
    assert sorted(report["functions"]) == ["one.kern.f", "two.kern.f"]


def test_records_with_the_same_name_are_kept_apart() -> None:
    records = [
        {"name": "kern.f", "nodeid": f"{d}/kern.py::f::jit-diff", "outcome": "passed"}
        for d in ("a", "b")
    ]
    report = build_report(records, RunSettings())
    assert sorted(report["functions"]) == ["a/kern.py::f", "b/kern.py::f"]


def test_collect_only_counts_the_items_of_named_modules(pytester: pytest.Pytester) -> None:
    write_module(pytester, "kernels", KERNELS)
    pytester.syspathinsert()
    result = pytester.runpytest_inprocess("--collect-only", "-q", "--jit-diff-module=kernels")
    result.stdout.fnmatch_lines(["kernels.py::good::jit-diff", "2 tests collected*"])
    assert "no tests collected" not in result.stdout.str()


def test_benchmark_disable_turns_timing_off(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_k", KERNELS)
    result, report = run(pytester, "--jit-diff", "--jit-diff-bench", "--benchmark-disable",
                         "--jit-diff-max-examples=3", "-k", "good")  # fmt: skip
    result.assert_outcomes(passed=1)
    good = function(report, "good")
    assert good["timing"] == {} and good["bench_error"] == "not timed: --benchmark-disable"


def test_benchmark_compare_sees_jitchecks_timings(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pytest-benchmark disables itself in an xdist worker; this child runs no workers
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    write_module(pytester, "test_k", KERNELS)
    args = ("--jit-diff", "--jit-diff-bench", "--jit-diff-max-examples=3", "-k", "good")
    saved = pytester.runpytest_inprocess(*args, *FAST_TIMING, "--benchmark-autosave")
    saved.assert_outcomes(passed=1)
    saved.stdout.fnmatch_lines(["*benchmark 'jitcheck': 2 tests*"])
    stored = list((pytester.path / ".benchmarks").rglob("0001_*.json"))
    assert len(stored) == 1 and "good::jit-diff[O3]" in stored[0].read_text()
    again = pytester.runpytest_inprocess(*args, *FAST_TIMING, "--benchmark-compare")
    again.stdout.fnmatch_lines(["*benchmark 'jitcheck': 4 tests*"])  # now and saved
    text = again.stdout.str()
    assert "test_k.py::good::jit-diff[O3] (NOW)" in text
    assert "test_k.py::good::jit-diff[O3] (0001_" in text
