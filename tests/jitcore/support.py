"""Helpers shared by jitcore's tests: run a function as Python and compiled, and compare.

The comparison is jitcheck's equivalence policy (`jitcheck.compare`), the one `pytest
--jit-diff` applies, so a hand-written test and the plugin agree on what "the same" means:
exception types, ints and bools exactly, floats within ULPs of their own precision, NumPy
scalars and arrays of the same dtype, arguments compared after the call. Examples outside the
compiled domain (an int result beyond int64, and the documented exceptions of
`out_of_domain_error`) are rejected, as the plugin rejects them (and fail a test that is not
a Hypothesis test).

These helpers only add what a hand-written test needs: one compiled dispatcher per function
and options (so Hypothesis examples reuse it), the Python reference in the dispatcher's Python
mode (jitted callees run as Python too), fresh copies of array arguments, and a check that the
call really ran compiled code, so no test passes by running Python against itself.
"""

from __future__ import annotations

import json
import linecache
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import currently_in_test_context, reject, settings

from jitcheck.compare import (
    DEFAULT_ULPS,
    Outcome,
    Tolerance,
    compare_outcomes,
    out_of_domain_error,
    out_of_domain_result,
)
from jitcheck.execute import invoke, signature_of
from jitcheck.values import describe_call, fresh_copy
from jitcore import ExecutionMode, JitError, jit

_COMPILED: dict[tuple, Any] = {}


def compiled(f: Callable[..., Any], **options: Any) -> Any:
    """One compiled dispatcher per (function, options), so Hypothesis examples reuse it."""
    key = (f, tuple(sorted(options.items())))
    if key not in _COMPILED:
        _COMPILED[key] = jit(mode="compiled", **options)(f)
    return _COMPILED[key]


def assert_same(
    f: Callable[..., Any],
    *args: Any,
    ulps: float = DEFAULT_ULPS,
    atol: float = 0.0,
    **options: Any,
) -> Any:
    """Compile `f` (mode compiled) and check it behaves like Python on `args`; the compiled
    result."""
    return _assert_same(f, args, Tolerance(ulps, atol=atol), options)


def assert_same_arrays(
    f: Callable[..., Any], *args: Any, ulps: float = DEFAULT_ULPS, **options: Any
) -> Any:
    """Like `assert_same`, for kernels that take arrays: Python and compiled code run on
    separate copies of `args` (which keep their layout), and the arrays are compared after
    the call too, since kernels write into their inputs."""
    return _assert_same(f, args, Tolerance(ulps), options)


def _assert_same(
    f: Callable[..., Any], args: tuple[Any, ...], tol: Tolerance, options: dict[str, Any]
) -> Any:
    dispatcher = compiled(f, **options)
    with np.errstate(all="ignore"):
        python = invoke(_reference(dispatcher), fresh_copy(args))
        if not python.raised:
            _reject_if(out_of_domain_result(python.value), f, args)
        got = _call_compiled(dispatcher, fresh_copy(args))
    _reject_if(out_of_domain_error(python, got), f, args)
    names = tuple(dispatcher.py_func.__code__.co_varnames[: len(args)])
    diff = compare_outcomes(python, got, tol, names)
    assert diff is None, f"{describe_call(f.__name__, names, args)}: {diff}"
    return got.value


def _reject_if(reason: str | None, f: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """Reject an example outside the compiled domain (jitcheck.compare says why) as the
    plugin does; outside Hypothesis such an example is the test's mistake."""
    if reason is None:
        return
    if currently_in_test_context():
        reject()
    raise AssertionError(f"{f.__name__}{args} is outside the compiled domain: {reason}")


def _reference(dispatcher: Any) -> Callable[..., Any]:
    def reference(*args: Any) -> Any:
        return dispatcher.run(*args, mode=ExecutionMode.PYTHON)

    return reference


def _call_compiled(dispatcher: Any, args: tuple[Any, ...]) -> Outcome:
    """The compiled call's outcome. A compile error fails the test with its own message, and
    so does a call that compiled nothing (`assert_ran_compiled`)."""
    outcome = invoke(dispatcher, args)
    if outcome.error_type is not None and issubclass(outcome.error_type, JitError):
        raise AssertionError(f"compiling failed: {outcome.error_text}")
    assert_ran_compiled(dispatcher, args)
    return outcome


def assert_ran_compiled(dispatcher: Any, args: tuple[Any, ...]) -> None:
    """Fail unless the dispatcher holds a compiled specialization for `args`: a dispatcher
    that ran Python instead (`JITCORE_DISABLE_JIT` makes even mode "compiled" do so) would
    make a compiled-vs-Python test compare Python with itself."""
    signature = signature_of(args)
    assert signature is None or signature in dispatcher.signatures, (
        f"{dispatcher.py_func.__name__}{signature} ran without being compiled "
        f"(mode {dispatcher.options.mode.value}); these tests compare compiled code with Python"
    )


def in_int64(*values: int) -> bool:
    return all(-(2**63) <= v < 2**63 for v in values)


__all__ = ["assert_ran_compiled", "assert_same", "assert_same_arrays", "compiled", "in_int64"]


def function_from_source(
    source: str, name: str, filename: str, namespace: dict[str, Any]
) -> Callable[..., Any]:
    """The function `name` defined by generated `source` in `namespace`, with the source
    registered in linecache under `filename`: jitcore compiles from source, which a function
    made by `exec` otherwise lacks."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - generated test function
    return namespace[name]  # type: ignore[no-any-return]


def run_twice_on_one_cache(
    tmp_path: Path, module_source: str, child: str, timeout: float
) -> list[dict[str, Any]]:
    """Write `module_source` as `kernels.py` in `tmp_path` and run the `child` script in two
    fresh processes that share one disk cache there (the first compiles, the second should
    load); each run's last line of output, read as JSON."""
    (tmp_path / "kernels.py").write_text(module_source)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path), env.get("PYTHONPATH")]))
    env["JITCORE_CACHE_DIR"] = str(tmp_path / "cache")
    runs = []
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", child], env=env, capture_output=True, text=True, timeout=timeout
        )
        assert out.returncode == 0, out.stderr
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return runs


def lowered_text(f: Callable[..., Any], *args: Any) -> str:
    """The `lower` listing of `f` compiled (`compiled`), after calling it on `args`."""
    dispatcher = compiled(f)
    dispatcher(*args)
    return dispatcher.inspect("lower")


def ci_examples(n: int) -> settings:
    """Hypothesis settings with at most `n` examples, except under the `thorough` profile,
    which keeps its own count: for properties whose every example is costly (a compile, a
    child process), so that `make test` stays within CI's time."""
    current = settings().max_examples
    return settings(max_examples=current if current >= 1000 else min(n, current))
