"""Helpers for jitcheck's plugin tests: run a child pytest, read its JSON report."""

from __future__ import annotations

import json
from typing import Any

import pytest

HEADER = """\
import numpy as np
import pytest
from hypothesis import strategies as st

from jitcheck import jitcheck
from jitcore import Array, jit
"""

# pytest-benchmark options that make timing take milliseconds, not seconds, per mode
FAST_TIMING = ("--benchmark-max-time=0.002", "--benchmark-min-rounds=2")


def write_module(pytester: pytest.Pytester, name: str, body: str) -> None:
    """A module in the pytester directory, with the imports every kernel file uses."""
    pytester.makepyfile(**{name: HEADER + body})


def run(pytester: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, dict[str, Any]]:
    """Run pytest in-process with a JSON report; return the result and the report."""
    result = pytester.runpytest_inprocess("--jit-diff-report=report.json", *args)
    path = pytester.path / "report.json"
    return result, json.loads(path.read_text()) if path.exists() else {}


def function(report: dict[str, Any], name: str) -> dict[str, Any]:
    """One function's record, by its name within the module (`sub` for `test_k.sub`)."""
    matches = [f for key, f in report["functions"].items() if key.rsplit(".", 1)[-1] == name]
    assert len(matches) == 1, f"{name} not in {list(report['functions'])}"
    return matches[0]
