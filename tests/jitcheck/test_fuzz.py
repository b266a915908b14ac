"""The fuzzer itself (`python -m jitcheck fuzz`): its programs are valid Python that
terminates and stays in int64; a planted miscompile is found, shrunk and written as a
regression test that fails with the bug and passes without it; a crash of compiled code is
a finding, not the end of the campaign.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from jitcheck.compare import INT64_MAX, INT64_MIN
from jitcheck.fuzz import assert_compiled_matches_python, cli
from jitcheck.fuzz.campaign import Campaign, Options
from jitcheck.fuzz.grammar import HEADER, Case, Program, cases
from jitcheck.fuzz.reduce import reduce_program, valid_python
from jitcheck.fuzz.runner import Runner, normalize
from tests.jitcheck import fuzz_plant

PLANT = "tests.jitcheck.fuzz_plant"
# what a generated program may raise in Python: its own raises, and the runtime errors of
# arithmetic, indexing, math domains and empty reductions; never a NameError, TypeError,
# UnboundLocalError or RecursionError (the generator's bugs)
EXPECTED = (ValueError, ZeroDivisionError, IndexError, OverflowError, RuntimeError)


class _IntOverflow(Exception):
    pass


def _in_int64(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        if not INT64_MIN <= value <= INT64_MAX:
            raise _IntOverflow(value)
    return value


class _CheckInts(ast.NodeTransformer):
    """Wraps every arithmetic expression in `_in_int64(...)`: an int beyond int64 anywhere,
    not only in a result, is a generator bug (compiled code would wrap there)."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:  # noqa: N802 - ast's visitor names
        self.generic_visit(node)
        return ast.Call(ast.Name("_in_int64", ast.Load()), [node], [])

    visit_UnaryOp = visit_BinOp  # type: ignore[assignment]  # noqa: N815


def _python(case: Case) -> list[Any]:
    namespace: dict[str, Any] = {"_in_int64": _in_int64}
    tree = ast.fix_missing_locations(_CheckInts().visit(ast.parse(case.program.source)))
    exec(compile(tree, "<fuzz>", "exec"), namespace)
    results = []
    for args in case.inputs:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            try:
                results.append(namespace[case.program.entry](*args))
            except EXPECTED as exc:
                results.append(exc)
    return results


def _ints(value: Any) -> list[int]:
    if isinstance(value, tuple):
        return [i for v in value for i in _ints(v)]
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        return [int(value)]
    return []


@settings(max_examples=300, suppress_health_check=list(HealthCheck), database=None)
@given(cases())
def test_programs_are_valid_python_that_terminates_within_int64(case: Case) -> None:
    ast.parse(case.program.source)
    start = time.perf_counter()
    results = _python(case)
    assert time.perf_counter() - start < 5.0, case.program.source
    for value in results:
        assert all(INT64_MIN <= i <= INT64_MAX for i in _ints(value)), case.program.source


def test_a_correct_compiler_gives_no_findings() -> None:
    program = Program(
        HEADER + "def f(p0, p1):\n    return p0 - float(np.sum(p1))\n",
        "f",
        ("float", "f1"),
        ((), ("n",)),
        ("p0", "p1"),
    )
    with Runner() as runner:
        result = runner.run(program, [(1.5, np.arange(3.0)), (0.0, np.zeros(0))])
    assert result.status == "compiled" and result.examples == 2


def test_a_rejected_program_is_counted_with_its_reason() -> None:
    source = "def f(p0):\n    global G\n    return p0\n"
    program = Program(HEADER + source, "f", ("float",), ((),), ())
    with Runner() as runner:
        result = runner.run(program, [(1.0,)])
    assert result.status == "rejected"
    assert result.reason.startswith("UnsupportedError")


def test_a_crash_of_compiled_code_is_a_finding_and_the_next_program_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(fuzz_plant.ENV, "crash")
    crash = Program(
        HEADER + "def crash(p0):\n    return p0 + 1.0\n", "crash", ("float",), ((),), ()
    )
    fine = Program(HEADER + "def f(p0):\n    return p0 + 1.0\n", "f", ("float",), ((),), ())
    with Runner(preload=[PLANT]) as runner:
        crashed = runner.run(crash, [(1.0,)])
        after = runner.run(fine, [(1.0,)])
    assert crashed.status == "finding" and crashed.finding is not None
    assert crashed.finding.kind == "crash"
    assert "SIGSEGV" in crashed.finding.detail
    assert after.status == "compiled"


def _pytest(path: str, *args: str, env: dict[str, str] | None = None) -> Any:
    environ = {k: v for k, v in os.environ.items() if k != fuzz_plant.ENV}
    environ["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", path, *args]
    return subprocess.run(
        command, env={**environ, **(env or {})}, capture_output=True, text=True, timeout=300
    )


def _load(path: str) -> Any:
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # a campaign with a child process, shrinking and reducing: about 30 s
def test_a_planted_miscompile_is_found_shrunk_and_written_as_a_failing_test(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(fuzz_plant.ENV, "sub")
    options = Options(
        seconds=120,
        seed=3,
        out=str(tmp_path),
        preload=[PLANT],
        max_findings=1,
        shrink_programs=30,
        reduce_seconds=15,
    )
    stats = Campaign(options, log=lambda line: None).run()
    monkeypatch.delenv(fuzz_plant.ENV)
    assert stats.findings >= 1 and stats.written, stats.as_dict()
    written = stats.written[0]
    assert written.kind in ("wrong result", "different exception")
    assert written.source.count("\n") <= 6, written.source  # shrunk to a few lines
    # the written file is a pytest test: it passes without the bug and fails with it (planted
    # in that pytest process: the bug may sit in a NumPy function jitcore compiles once)
    assert _pytest(written.path).returncode == 0
    planted = _pytest(written.path, "-p", PLANT, env={fuzz_plant.ENV: "sub"})
    assert planted.returncode == 1, planted.stdout
    assert "disagrees with Python" in planted.stdout
    counts = json.loads((tmp_path / "campaign.json").read_text())
    assert counts["findings"] == stats.findings and counts["minutes"]


def test_the_regression_assertion_isolates_a_crash(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "crash_case.py"
    path.write_text(HEADER + "def crash_me(p0):\n    return p0 * 2.0\n")
    crash_me = _load(str(path)).crash_me
    assert_compiled_matches_python(crash_me, (1.5,), isolate=True)
    monkeypatch.setenv(fuzz_plant.ENV, "crash")
    monkeypatch.setenv("JITCHECK_FUZZ_PRELOAD", PLANT)
    with pytest.raises(AssertionError, match="crash: compiled code crashed"):
        assert_compiled_matches_python(crash_me, (1.5,), isolate=True)


def test_the_command_counts_programs_and_exits_0_without_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["--seconds", "60", "--max-programs", "8", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "8 programs" in out and "rejected" in out
    counts = json.loads((tmp_path / "campaign.json").read_text())
    assert counts["programs"] == 8


def test_reasons_are_normalized() -> None:
    a = normalize("f.py:3:5: TypingError: `v12` is i64 on one path and f64 on another\nhint")
    b = normalize("g.py:9:1: TypingError: `v3` is i64 on one path and f64 on another")
    assert a == b == "TypingError: `_` is i64 on one path and f64 on another"


def _program(body: str, params: tuple[str, ...]) -> Program:
    shapes = tuple(() for _ in params)
    names = tuple(f"p{k}" for k in range(len(params)))
    return Program(HEADER + body, "f", params, shapes, names)


def test_the_reducer_deletes_statements_and_functions_that_do_not_matter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(fuzz_plant.ENV, "sub")
    redundant = _program(
        "def g0(p0):\n    return p0 * 2.0\n\n\n"
        "def f(p0, p1):\n    v1 = p0 + 1.0\n    for i2 in range(3):\n        v1 = v1 * 2.0\n"
        "    if p1:\n        v2 = g0(p0)\n    return p0 - 2.0\n",
        ("float", "bool"),
    )
    with Runner(preload=[PLANT]) as runner:
        small, finding = reduce_program(
            runner, redundant, (1.0, True), lambda f: f.kind == "wrong result"
        )
    assert finding is not None
    assert small.function_source() == "def f(p0, p1):\n    return p0 - 2.0\n"


def test_the_reducer_refuses_programs_whose_ints_leave_int64() -> None:
    loop = "def f(p0):\n    v1 = 3\n    for i2 in range(8):\n        v1 = v1 * v1\n{}"
    wrapped = _program(loop.format("        v1 = v1 % 1000\n    return p0\n"), ("float",))
    growing = _program(loop.format("    return p0\n"), ("float",))  # 3 ** 256
    undefined = _program("def f(p0):\n    return v1\n", ("float",))
    assert valid_python(wrapped, (0.5,))
    assert not valid_python(growing, (0.5,))  # compiled code would wrap: not a program
    assert not valid_python(undefined, (0.5,))
