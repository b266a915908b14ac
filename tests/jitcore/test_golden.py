"""Stable IR text of a few functions after `ssa` and `typeinfer`.

Run `pytest --update-golden` to rewrite the listings, then read the diff line by line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jitcore.ir import types as T
from jitcore.ir.printer import print_ir
from jitcore.parse import parse_function
from jitcore.ssa import build_ssa
from jitcore.typeinfer import infer_types
from tests.jitcore.golden import cases

GOLDEN = Path(__file__).parent / "golden"
SIGNATURES = {
    "add": (T.I64, T.F64),
    "branch": (T.I64,),
    "loop": (T.I64,),
    "short_circuit": (T.I64, T.F64),
    "promote": (T.I64, T.F64),
}


def _no_callees(*args: object) -> object:
    raise AssertionError("golden cases call no jitted functions")


def stage_text(name: str, stage: str) -> str:
    fn = build_ssa(parse_function(getattr(cases, name)))
    if stage == "typeinfer":
        infer_types(fn, SIGNATURES[name], _no_callees)  # type: ignore[arg-type]
    return print_ir(fn) + "\n"


@pytest.mark.parametrize("stage", ["ssa", "typeinfer"])
@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_golden_ir(name: str, stage: str, request: pytest.FixtureRequest) -> None:
    path = GOLDEN / stage / f"{name}.ir"
    text = stage_text(name, stage)
    if request.config.getoption("--update-golden"):
        path.write_text(text)
    assert path.exists(), f"missing {path}; run pytest --update-golden"
    assert text == path.read_text()
