"""JITCORE_COMPILE_LOG (`jitcore.compilelog`) and `jitcore compile-log`: one line per compiled
or rejected specialization, summarized per function."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jitcore import UnsupportedError, jit
from jitcore.cli import main


def good(x):  # noqa: ANN001, ANN201
    return x + 1


def bad(x):  # noqa: ANN001, ANN201
    with open(x) as f:  # noqa: PTH123
        return f.read()


def test_each_compilation_is_logged_and_summarized(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "compile.log"
    monkeypatch.setenv("JITCORE_COMPILE_LOG", str(log))
    f = jit(mode="compiled")(good)
    assert f(1) == 2 and f(1.5) == 2.5
    with pytest.raises(UnsupportedError):
        jit(mode="compiled")(bad)("x")
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["function"], e["outcome"]) for e in lines] == [
        ("good", "compiled"),
        ("good", "compiled"),
        ("bad", "UnsupportedError"),
    ]
    assert lines[0]["signature"] == "i64" and lines[2]["message"]
    assert main(["compile-log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "2 functions: 1 compiled (50%), 1 rejected" in out
    assert "UnsupportedError: 1" in out
