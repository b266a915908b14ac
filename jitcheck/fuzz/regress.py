"""A shrunk finding as a ready-to-paste pytest regression test, and the assertion it makes.

The written file holds the generated functions verbatim (jitcore compiles them from the
file, as from any module), the failing arguments rebuilt exactly (`jitcheck.values.exact`:
floats by repr, arrays with dtype, order and strides) and one call:

    assert_compiled_matches_python(f, args)

which runs Python and `jit(mode="compiled")` on fresh copies and judges them by jitcheck's
rules (`jitcheck.judge`): it fails while the bug is there and passes once it is fixed. A
crash or a hang is checked the same way in a child process (`isolate=True`), so the test
fails instead of killing pytest. A finding that was an InternalCompilerError passes when
jitcore compiles the program correctly *or* refuses it cleanly (`allow_rejection=True`).
"""

from __future__ import annotations

import hashlib
import os
import textwrap
from typing import Any

from jitcheck.compare import Tolerance
from jitcheck.execute import invoke
from jitcheck.fuzz.grammar import HEADER, Program
from jitcheck.fuzz.runner import COMPILED, Finding, Runner
from jitcheck.judge import judge
from jitcheck.values import exact, fresh_copy
from jitcore import ExecutionMode, jit
from jitcore.errors import InternalCompilerError, JitError


def assert_compiled_matches_python(
    func: Any,
    args: tuple[Any, ...],
    *,
    isolate: bool = False,
    allow_rejection: bool = False,
) -> None:
    """Assert that `jit(mode="compiled")(func)(*args)` agrees with `func(*args)` by
    jitcheck's rules (results, exceptions, arguments after the call).

    `isolate` runs the compiled call in a child process (a crash fails the assertion);
    `allow_rejection` accepts a clean UnsupportedError or TypingError instead of a result.
    """
    if isolate:
        _assert_isolated(func, args, allow_rejection)
        return
    python = invoke(func, fresh_copy(args))
    dispatcher = jit(mode=ExecutionMode.COMPILED)(func)
    compiled = invoke(dispatcher, fresh_copy(args))
    error = compiled.error_type
    if error is not None and issubclass(error, JitError):
        if allow_rejection and not issubclass(error, InternalCompilerError):
            return
        raise AssertionError(f"jitcore could not compile it: {compiled.describe()}")
    _assert_agree(args, python, compiled)


def _assert_agree(args: tuple[Any, ...], python: Any, compiled: Any) -> None:
    verdict = judge(COMPILED, args, python, compiled, Tolerance())
    if verdict.difference is not None:
        raise AssertionError(
            f"compiled code disagrees with Python: {verdict.difference}\n"
            f"  python:   {python.describe()}\n  compiled: {compiled.describe()}"
        )


def _assert_isolated(func: Any, args: tuple[Any, ...], allow_rejection: bool) -> None:
    with open(func.__code__.co_filename, encoding="utf-8") as f:
        source = f.read()
    program = Program(source, func.__name__, (), (), ())
    with Runner() as runner:
        result = runner.run(program, [args])
    if result.status == "rejected" and allow_rejection:
        return
    if result.status == "rejected":
        raise AssertionError(f"jitcore could not compile it: {result.reason}")
    if result.finding is not None:
        found = result.finding
        raise AssertionError(
            f"{found.kind}: {found.detail}\n"
            f"  python:   {found.python}\n  compiled: {found.compiled}"
        )


def regression_source(program: Program, args: tuple[Any, ...], finding: Finding, seed: int) -> str:
    """The text of a pytest file that fails while `finding` reproduces."""
    digest = hashlib.sha1((program.source + exact(args)).encode()).hexdigest()[:10]
    options = []
    if finding.kind in ("crash", "hang"):
        options.append("isolate=True")
    if finding.kind == "internal error":
        options.append("allow_rejection=True")
    call = ", ".join([program.entry, "ARGS", *options])
    detail = finding.detail if len(finding.detail) <= 600 else finding.detail[:600] + " ..."
    summary = textwrap.indent(textwrap.fill(f"{finding.kind}: {detail}", 92), "    ")
    details = "\n".join(
        f"    {label}: {text}"
        for label, text in (("python", finding.python), ("compiled", finding.compiled))
        if text
    )
    summary, details = _docstring_safe(summary), _docstring_safe(details)
    return (
        "# ruff: noqa  (generated code: unused variables and redundant parentheses are normal)\n"
        f'"""Found by `python -m jitcheck fuzz` (batch seed {seed}), shrunk by Hypothesis.\n\n'
        f"{summary}\n{details}\n"
        f'"""\n\n'
        f"{HEADER}"
        f"from jitcheck.fuzz import assert_compiled_matches_python\n\n\n"
        f"{program.function_source()}\n\n"
        f"ARGS = {exact(args)}\n\n\n"
        f"def test_fuzz_{digest}() -> None:\n"
        f"    assert_compiled_matches_python({call})\n"
    )


def write_regression_test(
    out: str, program: Program, args: tuple[Any, ...], finding: Finding, seed: int
) -> str:
    """Write the regression test into directory `out`; its path."""
    os.makedirs(out, exist_ok=True)
    text = regression_source(program, args, finding, seed)
    name = text.split("def test_fuzz_", 1)[1].split("(", 1)[0]
    path = os.path.join(out, f"test_fuzz_{name}.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def _docstring_safe(text: str) -> str:
    """`text` as it may stand inside a triple-quoted docstring."""
    return text.replace("\\", "\\\\").replace('"""', "'''")
