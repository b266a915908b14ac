"""`pytest --jit-diff` end to end, in child pytest runs: discovery, checking, failures."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from tests.jitcheck.support import FAST_TIMING, function, run, write_module

EXAMPLES = "--jit-diff-max-examples=8"

CORRECT = """
@jit
def sub(a: float, b: float) -> float:
    return a - b


@jit
def poly(x: float, n: int) -> float:
    total = 0.0
    for i in range(n % 8):
        total = total * x + i
    return total
"""


def test_every_option_and_ini_setting_has_help(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_inprocess("--help")
    result.stdout.fnmatch_lines(["jitcheck: differential testing of jitted functions:"])
    for option in (
        "--jit-diff ", "--jit-diff-module=MODULE", "--jit-diff-modes=LIST",
        "--jit-diff-max-examples=N", "--jit-diff-bench", "--jit-diff-isolate",
        "--jit-diff-timeout=SECONDS", "--jit-diff-report=PATH.json", "--jit-diff-report-md=PATH",
        "--jit-diff-report-html=PATH", "--jit-diff-baseline=OLD.json",
        "--jit-diff-max-regression=[STAT:]PCT",
    ):  # fmt: skip
        assert option in result.stdout.str(), option
    for ini in ("jit_diff_modules", "jit_diff_modes", "jit_diff_max_examples", "jit_diff_bench"):
        result.stdout.fnmatch_lines([f"  {ini} *"])


def test_the_plugin_imports_nothing_heavy() -> None:
    """pytest loads the plugin in every run: collection without --jit-diff stays fast."""
    code = "import sys, jitcheck.plugin; print(sorted(set(sys.modules) & {HEAVY}))"
    heavy = {"numpy", "hypothesis", "jitcore", "llvmlite", "pytest_benchmark"}
    done = subprocess.run(
        [sys.executable, "-c", code.replace("{HEAVY}", repr(heavy))],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert done.stdout.strip() == "[]"


FALLS_BACK = """
def untypeable(x: int):
    return x if x > 0 else (x, x)  # an int on one path, a tuple on another


def test_calls_it():
    assert jit(untypeable)(1) == 1
"""


def test_a_fallback_to_python_is_an_error_in_child_sessions_too(
    pytester: pytest.Pytester,
) -> None:
    # an in-process child runs inside this test's warning filters, which make
    # JitFallbackWarning an error (pyproject.toml); subprocess children get `-W` (test_xdist)
    write_module(pytester, "test_fallback", FALLS_BACK)
    result = pytester.runpytest_inprocess()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*JitFallbackWarning: jitcore: running untypeable as Python*"])


def test_reports_are_written_even_when_nothing_was_checked(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_nothing="def test_plain():\n    pass\n")
    result = pytester.runpytest_inprocess("--jit-diff", "--jit-diff-report-md=empty.md")
    result.assert_outcomes(passed=1)
    assert (pytester.path / "empty.md").read_text().startswith("## jitcheck: 0 functions")


def test_correct_functions_pass_and_are_summarised(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_kernels", CORRECT + "\n\ndef test_plain():\n    assert True\n")
    result, report = run(pytester, "--jit-diff", EXAMPLES)
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(
        [
            "*= jit-diff summary =*",
            "function*outcome*examples*rejected*",
            "test_kernels.poly*passed*8*0*",
            "test_kernels.sub*passed*8*0*",
            "compile ms*mode*parse*ssa*typeinfer*optimize*lower*codegen*llvm-opt*machine-code*",
        ]
    )
    assert function(report, "sub")["inputs"] == "annotations"


def test_a_miscompilation_is_caught_with_a_shrunk_example(
    pytester: pytest.Pytester, miscompile: None
) -> None:
    write_module(pytester, "test_kernels", CORRECT)
    result, report = run(pytester, "--jit-diff", "--jit-diff-max-examples=50")
    result.assert_outcomes(passed=1, failed=1)  # poly has no float subtraction
    output = result.stdout.str()
    example = re.search(r"example: +(sub\(a=.*, b=.*\))", output)
    assert example is not None, output
    assert re.fullmatch(r"sub\(a=-?[01]\.0, b=-?[01]\.0\)", example.group(1)), "not shrunk"
    result.stdout.fnmatch_lines(
        [
            "`sub` disagrees with Python in mode O3",
            "  python: *",
            "  O3: *",
            "  first difference: result: python *, compiled *: relative error * (tolerance 4 *)",
        ]
    )
    assert function(report, "sub")["diff"]["failures"][0]["mode"] == "O3"
    # Hypothesis saved the example: the next run fails on it again, first thing
    again, _ = run(pytester, "--jit-diff", "--jit-diff-max-examples=50")
    assert f"example: {example.group(1)}" in re.sub(r" +", " ", again.stdout.str())


def test_the_reference_is_python_all_the_way_down(
    pytester: pytest.Pytester, miscompile: None
) -> None:
    write_module(
        pytester,
        "test_calls",
        """
@jit
def helper(a: float, b: float) -> float:
    return a - b


@jitcheck
@jit
def outer(a: float, b: float) -> float:
    return helper(a, b) * 2.0
""",
    )
    result = pytester.runpytest_inprocess(EXAMPLES)  # no --jit-diff: only outer
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["`outer` disagrees with Python in mode O3"])


def test_discovery_collects_each_function_once(pytester: pytest.Pytester) -> None:
    kernels = "\n".join(
        f"@jit\ndef k{i}(x: float) -> float:\n    return x + {i}\n" for i in range(12)
    )
    write_module(pytester, "kernels", kernels)
    write_module(
        pytester, "test_kernels", "@jit\ndef collected(x: float) -> float:\n    return x\n"
    )
    for user in ("test_a", "test_b"):
        write_module(
            pytester,
            user,
            "from kernels import *\nfrom test_kernels import collected\n\n"
            f"@jit\ndef own_{user}(n: int) -> int:\n    return n\n",
        )
    pytester.syspathinsert()
    pytester.makeini("[pytest]\njit_diff_modules = test_kernels\n")
    result = pytester.runpytest_inprocess(
        "--collect-only", "-q", "--jit-diff", "--jit-diff-module=kernels"
    )
    items = [line for line in result.outlines if line.endswith("::jit-diff")]
    expected = [f"kernels.py::k{i}::jit-diff" for i in range(12)]
    expected += ["test_a.py::own_test_a::jit-diff", "test_b.py::own_test_b::jit-diff"]
    assert sorted(items) == sorted([*expected, "test_kernels.py::collected::jit-diff"])


def test_without_jit_diff_only_jitcheck_functions_are_collected(pytester: pytest.Pytester) -> None:
    write_module(
        pytester,
        "test_opt_in",
        """
@jit
def plain(x: float) -> float:
    return x


@jitcheck
@jit
def above(x: float) -> float:
    return x * 2.0


@jit
@jitcheck(x=st.floats(0, 1))
def below(x: float) -> float:
    return x * 3.0


@jitcheck(skip="waiting for jitcore#7")
@jit
def skipped(x: float) -> float:
    return x


@jitcheck(xfail="known: jitcore#8")
@jit
def expected_to_fail(x: float) -> float:
    return x


@jitcheck
def not_jitted(x: float) -> float:
    return x
""",
    )
    result, report = run(pytester, EXAMPLES, "-rsxf")
    result.assert_outcomes(passed=2, skipped=1, xpassed=1, failed=1)
    assert set(report["functions"]) == {
        f"test_opt_in.{n}" for n in ("above", "below", "skipped", "expected_to_fail", "not_jitted")
    }
    assert function(report, "below")["inputs"] == "@jitcheck strategies"
    assert function(report, "skipped")["reason"] == "waiting for jitcore#7"
    result.stdout.fnmatch_lines(
        ["@jitcheck is on `not_jitted`, which is not jitted: put @jit above or below @jitcheck"]
    )
    selected = pytester.runpytest_inprocess(
        EXAMPLES, "--jit-diff", "-m", "jitcheck", "-k", "plain"
    )
    selected.assert_outcomes(passed=1)


def test_marks_on_a_function_apply_to_its_item(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nmarkers =\n    slow: a slow test\n")
    write_module(
        pytester,
        "test_marks",
        "@pytest.mark.slow\n@jit\ndef above(x: float) -> float:\n    return x\n\n\n"
        "@jit\n@pytest.mark.slow\ndef below(x: float) -> float:\n    return x\n\n\n"
        "@jit\ndef quick(x: float) -> float:\n    return x\n",
    )
    result = pytester.runpytest_inprocess("--jit-diff", EXAMPLES, "-m", "not slow")
    result.assert_outcomes(passed=1, deselected=2)


def test_a_function_without_derivable_inputs_is_skipped_with_how_to(
    pytester: pytest.Pytester,
) -> None:
    write_module(pytester, "test_untyped", "@jit\ndef untyped(a, b: int):\n    return a * b\n")
    result = pytester.runpytest_inprocess("--jit-diff", "-rs")
    result.assert_outcomes(skipped=1)
    assert (
        "cannot derive inputs for `untyped`: parameter `a` has no annotation; annotate it "
        "(`x: float`, `n: int`, `a: jitcore.Array[np.float64, 1]`), list jit signatures "
        "(`@jit(signatures=['f64, i64'])`), or give a strategy "
        "(`@jitcheck(n=st.integers(0, 100))`)"
    ) in result.stdout.str()


def test_a_compile_failure_skips_auto_functions_and_fails_compiled_ones(
    pytester: pytest.Pytester,
) -> None:
    body = "    with x:\n        return x\n"
    write_module(
        pytester,
        "test_unsupported",
        f"@jit\ndef auto(x: float) -> float:\n{body}\n\n"
        f"@jit(mode='compiled')\ndef strict(x: float) -> float:\n{body}",
    )
    result, report = run(pytester, "--jit-diff", EXAMPLES)
    result.assert_outcomes(skipped=1, failed=1)
    assert function(report, "auto")["reason"].startswith(
        "jitcore cannot compile `auto` (UnsupportedError: "
    )
    result.stdout.fnmatch_lines(
        ["jitcore cannot compile `strict` in mode O3 on", "  strict(x=*)", "*`with` statements*"]
    )


def test_examples_outside_the_compiled_domain_are_rejected_and_counted(
    pytester: pytest.Pytester,
) -> None:
    write_module(
        pytester,
        "test_domain",
        """
@jitcheck(a=st.integers(-3, 3), b=st.integers(-4, 70))
@jit
def power(a: int, b: int) -> int:
    return a ** b
""",
    )
    result, report = run(pytester, "--jit-diff", "--jit-diff-max-examples=40")
    result.assert_outcomes(passed=1)
    diff = function(report, "power")["diff"]
    assert diff["examples"] > 0 and diff["rejected"] > 0
    assert set(diff["rejected_by_reason"]) <= {"int result beyond int64", "int ** negative int"}


def test_modes_come_from_the_ini_file_and_the_command_line(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_modes", CORRECT)
    pytester.makeini("[pytest]\njit_diff_modes = O0 fastmath\n")
    _, report = run(pytester, "--jit-diff", EXAMPLES)
    assert function(report, "sub")["modes"] == ["O3", "O0", "O3+fastmath"]
    _, report = run(pytester, "--jit-diff", EXAMPLES, "--jit-diff-modes=O1+noboundscheck,O3")
    assert function(report, "sub")["modes"] == ["O3", "O1+noboundscheck"]
    bad = pytester.runpytest_inprocess("--jit-diff", "--jit-diff-modes=O9")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "unknown jit-diff mode 'O9'" in bad.stderr.str()


def test_the_ini_file_can_hold_every_setting(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_ini", CORRECT)
    pytester.makeini(
        "[pytest]\njit_diff = true\njit_diff_modes = O1\njit_diff_max_examples = 4\n"
        "jit_diff_bench = true\njit_diff_timeout = 30\njit_diff_report = from_ini.json\n"
        "jit_diff_report_md = from_ini.md\n"
    )
    result = pytester.runpytest_inprocess(*FAST_TIMING)
    result.assert_outcomes(passed=2)
    report = json.loads((pytester.path / "from_ini.json").read_text())
    sub = function(report, "sub")
    assert sub["modes"] == ["O3", "O1"] and sub["diff"]["examples"] == 4
    assert set(sub["speedup"]) == {"O3", "O1"} and (pytester.path / "from_ini.md").exists()


def test_a_module_marker_sets_defaults_for_its_functions(pytester: pytest.Pytester) -> None:
    write_module(
        pytester,
        "test_marked",
        "pytestmark = pytest.mark.jitcheck(max_examples=3, modes=['O0'])\n" + CORRECT,
    )
    _, report = run(pytester, "--jit-diff")
    assert function(report, "sub")["diff"]["examples"] == 3
    assert function(report, "sub")["modes"] == ["O3", "O0"]


def test_a_python_reference_that_never_returns_fails_fast(pytester: pytest.Pytester) -> None:
    write_module(
        pytester,
        "test_slow",
        """
@jitcheck(n=st.just(10**9))
@jit
def spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i % 7
    return total
""",
    )
    result = pytester.runpytest_inprocess("--jit-diff-timeout=0.3", EXAMPLES)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["the Python reference did not return within 0.3 s on", "  spin(n=1000000000)"]
    )
