"""Timing and reports: JSON (validated against the shipped schema), Markdown, HTML, the
terminal summary, and the baseline gate (in the plugin and as `python -m jitcheck compare`)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from jitcheck.__main__ import main
from jitcheck.report import STAGES, build_report
from jitcheck.schema import report_schema, validate
from jitcheck.settings import RunSettings
from jitcheck.summary import compile_table, results_table
from jitcore.llvm_opt import host_cpu
from tests.jitcheck.support import FAST_TIMING, function, run, write_module

KERNELS = """
@jit
def loop_sum(n: int) -> float:
    total = 0.0
    for i in range(n):
        total += i * 0.5
    return total


@jitcheck(bench_args=lambda: (3.0, 4.0))
@jit
def hypot2(x: float, y: float) -> float:
    return x * x + y * y


@jit
def untyped(a, b):
    return a + b
"""


def _timed_run(pytester: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, dict[str, Any]]:
    write_module(pytester, "test_timed", KERNELS)
    return run(
        pytester, "--jit-diff", "--jit-diff-bench", "--jit-diff-max-examples=5", "-rs",
        "--jit-diff-modes=O0", "--jit-diff-report-md=summary.md", "--jit-diff-report-html=r.html",
        *FAST_TIMING, *args,
    )  # fmt: skip


def _scaled(report: dict[str, Any], factor: float, path: Path) -> Path:
    """A copy of `report` with every speedup multiplied by `factor`, as a baseline file.
    Compiled timings are dropped, so only speedups are compared (by their factor: compiled
    times of two runs on a loaded machine would add noise these tests are not about)."""
    baseline = copy.deepcopy(report)
    for fn in baseline["functions"].values():
        fn["speedup"] = {m: s * factor for m, s in fn["speedup"].items() if s}
        fn["timing"] = {k: t for k, t in fn["timing"].items() if k == "python"}
    path.write_text(json.dumps(baseline))
    return path


def test_the_json_report_follows_its_schema_and_holds_timings(pytester: pytest.Pytester) -> None:
    result, report = _timed_run(pytester)
    result.assert_outcomes(passed=2, skipped=1)
    assert validate(report) == []
    assert report["machine"]["cpu"]["name"] == host_cpu()[0]
    assert report["summary"] == {
        "functions": 3, "passed": 2, "failed": 0, "skipped": 1, "xfailed": 0, "xpassed": 0,
        "error": 0,
    }  # fmt: skip
    loop = function(report, "loop_sum")
    assert loop["modes"] == ["O3", "O0"] and loop["bench_input"] == "loop_sum(n=1000)"
    assert set(loop["timing"]) == {"python", "O3", "O0"}
    python, o3 = loop["timing"]["python"], loop["timing"]["O3"]
    assert python["fullname"].endswith("loop_sum::jit-diff[python]")
    assert o3["stats"]["rounds"] >= 2 and o3["stats"]["iterations"] >= 1
    assert loop["speedup"]["O3"] == pytest.approx(python["stats"]["min"] / o3["stats"]["min"])
    assert list(loop["compile"]["O3"]["stages"]) == list(STAGES)
    assert function(report, "hypot2")["bench_input"] == "hypot2(x=3, y=4)"
    assert function(report, "untyped")["diff"] is None


def test_the_schema_validator_reports_what_is_wrong() -> None:
    report = build_report([], RunSettings())
    assert validate(report) == []
    report["summary"]["passed"] = -1
    report["machine"]["cpu"].pop("features")
    report["settings"]["bench"] = "yes"
    report["functions"]["m.f"] = {"name": "m.f"}
    errors = validate(report)
    assert "$.summary.passed: -1 is less than the minimum 0" in errors
    assert "$.machine.cpu: missing required property 'features'" in errors
    assert '$.settings.bench: "yes" is not of type boolean' in errors
    assert "$.functions.m.f: missing required property 'outcome'" in errors
    with pytest.raises(ValueError, match="does not implement"):
        validate({}, {"type": "object", "patternProperties": {}})
    assert report_schema()["properties"]["schema_version"] == {"const": 2}


def test_markdown_and_html_summaries_show_every_function(pytester: pytest.Pytester) -> None:
    _timed_run(pytester)
    markdown = (pytester.path / "summary.md").read_text()
    assert markdown.startswith("## jitcheck: 3 functions (2 passed, 1 skipped)")
    assert re.search(
        r"\| `test_timed.loop_sum` \| ✅ passed \| 5 \| 5 \(100%\) \| 0 \| 0 \| \S+ \S+ "
        r"\| [\d.]+× \| [\d.]+× \|",
        markdown,
    )
    assert "<summary>Compile time per stage (ms)</summary>" in markdown
    assert "- `test_timed.untyped`: cannot derive inputs for `untyped`" in markdown
    html = (pytester.path / "r.html").read_text()
    assert html.count("<svg") == 2 and html.count('<table class="sortable">') == 2
    assert "test_timed.loop_sum" in html and "O3 speedup" in html
    assert not re.search(r"""(src|href)=["']?https?:""", html)  # self-contained


def test_the_terminal_summary_is_aligned() -> None:
    records: list[dict[str, Any]] = [
        {"name": "m.short", "outcome": "passed", "modes": ["O3"], "diff": {"examples": 100,
         "rejected": 3, "returned_share": 0.9, "outcomes": {"python": {"returned": 90,
         "raised": {"ValueError": 10}}}}, "timing": {"python": {"stats": {"min": 2e-6}}},
         "speedup": {"O3": 12.34},
         "compile": {"O3": {"stages": dict.fromkeys(STAGES, 0.001), "total": 0.008}}},
        {"name": "m.much_longer_name", "outcome": "skipped", "modes": ["O3"], "diff": None,
         "timing": {}, "speedup": {}, "compile": {}, "reason": "why"},
    ]  # fmt: skip
    lines = [line for line, _ in results_table(records)]
    assert lines[0].split() == [
        "function",
        "outcome",
        "examples",
        "returned",
        "raised",
        "rejected",
        "python",
        "O3",
        "note",
    ]
    assert lines[1].split() == ["m.short", "passed", "100", "90", "(90%)", "10", "3", "2", "µs",
                                "12.3×"]  # fmt: skip
    assert lines[2].split() == ["m.much_longer_name", "skipped", *["–"] * 6, "why"]
    assert lines[1].index("passed") == lines[2].index("skipped") == lines[0].index("outcome")
    o3_end = lines[0].index(" O3") + 3  # numbers align right under their header
    assert lines[1][:o3_end].endswith(" 12.3×") and lines[2][:o3_end].endswith(" –")
    table = compile_table(records)
    assert table[0].split()[:3] == ["compile", "ms", "mode"] and table[1].endswith("8.00")


def test_a_fallen_speedup_fails_the_run_and_says_by_how_much(pytester: pytest.Pytester) -> None:
    _, report = _timed_run(pytester)
    higher = _scaled(report, 100.0, pytester.path / "higher.json")
    result, _ = _timed_run(
        pytester, f"--jit-diff-baseline={higher}", "--jit-diff-max-regression=10%"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(passed=2, skipped=1)
    result.stdout.fnmatch_lines(
        [
            f"timings against baseline {higher} (4 compared, threshold 10%, significance p < *):",
            "  REGRESSION test_timed.*: speedup *x -> *x (-9*%)",  # re-timing keeps the best
            "FAILED: 4 timing(s) worse by more than 10%",
        ]
    )
    html = (pytester.path / "r.html").read_text()
    assert (
        f"Against the baseline {higher}" in html and "4 speedup(s) fell by more than 10%" in html
    )
    assert (
        "### Speedups against the baseline (threshold 10%)"
        in (pytester.path / "summary.md").read_text()
    )


def test_a_baseline_with_lower_speedups_passes(pytester: pytest.Pytester) -> None:
    _, report = _timed_run(pytester)
    lower = _scaled(report, 0.01, pytester.path / "lower.json")
    result, new = _timed_run(pytester, f"--jit-diff-baseline={lower}")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        ["  improved   test_timed.*", "OK: no timing worse by more than 10%"]
    )
    assert len(new["baseline"]["improvements"]) == 4 and validate(new) == []


def test_an_unreadable_baseline_fails_the_run(pytester: pytest.Pytester) -> None:
    result, _ = _timed_run(pytester, "--jit-diff-baseline=missing.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["FAILED: cannot read the baseline missing.json: *"])


def test_the_compare_command_prints_the_same_and_sets_the_exit_code(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    _, report = _timed_run(pytester)
    same = _scaled(report, 1.0, pytester.path / "same.json")
    assert main(["compare", str(same), str(same)]) == 0
    assert capsys.readouterr().out.endswith("OK: no timing worse by more than 10%\n")
    higher = _scaled(report, 1.5, pytester.path / "higher.json")
    assert main(["compare", str(higher), str(same), "--max-regression", "20"]) == 1
    out = capsys.readouterr().out
    assert "REGRESSION test_timed.loop_sum [O3]: speedup" in out and "(-33.3%)" in out
    assert main(["compare", str(higher), str(same), "--max-regression", "50%"]) == 0
    capsys.readouterr()
    assert main(["compare", str(same), "missing.json"]) == 2
    assert "error: " in capsys.readouterr().err
    assert main(["validate", str(same)]) == 0
