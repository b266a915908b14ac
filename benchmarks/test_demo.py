"""The demo tells "cannot compile yet" (exit 0) apart from a wrong result (exit 1)."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks import demo
from benchmarks.cases import BY_NAME
from jitcore import SourceLoc, UnsupportedError


def test_a_compiled_kernel_agrees() -> None:
    result = demo.run_case(BY_NAME["fib"])
    assert result.status() == "compiled" and not result.bug
    assert result.compiled is not None and result.compile_seconds is not None


def test_a_wrong_result_is_a_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(demo, "fresh_jit", lambda kernel, **options: lambda n: -1)
    result = demo.run_case(BY_NAME["fib"])
    assert result.bug and result.status().startswith("MISMATCH: result: python 17711")
    monkeypatch.setattr(demo, "CASES", (BY_NAME["fib"],))
    assert demo.main() == 1


def test_a_kernel_that_cannot_compile_is_not_a_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> None:
        raise UnsupportedError("calls to `numpy.ones` are not supported")

    monkeypatch.setattr(demo, "fresh_jit", lambda kernel, **options: refuse)
    monkeypatch.setattr(demo, "CASES", (BY_NAME["sieve"],))
    result = demo.run_case(BY_NAME["sieve"])
    assert not result.bug
    assert result.status() == (
        "cannot compile yet: UnsupportedError: calls to `numpy.ones` are not supported"
    )
    assert demo.main() == 0


def test_reason_is_one_short_line() -> None:
    exc = UnsupportedError("no", loc=SourceLoc("/long/path/to/kernels.py", 12, 4), hint="more")
    assert demo.reason(exc) == "kernels.py:12:5: UnsupportedError: no"
    assert demo.reason(TypeError("argument `a`")) == "TypeError: argument `a`"
