"""The IR verifier catches broken invariants and names the stage."""

from __future__ import annotations

import pytest

from jitcore.errors import InternalCompilerError
from jitcore.ir import nodes as ir
from jitcore.ir.parser import parse_ir
from jitcore.ir.verify import verify

GOOD = """func f(a: i64, c: bool) -> i64 {
entry:
  br c x y
x:
  t1 = add a 1 : i64
  jump y
y:
  p = phi [entry: a, x: t1] : i64
  return p
}"""


def test_valid_function_passes() -> None:
    verify(parse_ir(GOOD), typed=True, stage="test")


def test_missing_terminator() -> None:
    fn = parse_ir(GOOD)
    fn.blocks[1].terminator = None
    with pytest.raises(InternalCompilerError, match="after `mypass`.*no terminator"):
        verify(fn, typed=True, stage="mypass")


def test_phi_arity_must_match_predecessors() -> None:
    fn = parse_ir(GOOD)
    phi = fn.blocks[2].instrs[0]
    assert isinstance(phi, ir.Phi)
    phi.incoming.pop(fn.blocks[0])
    with pytest.raises(InternalCompilerError, match="predecessors"):
        verify(fn, typed=True, stage="test")


def test_use_must_be_dominated_by_definition() -> None:
    fn = parse_ir(GOOD)
    t1 = fn.blocks[1].instrs[0]
    fn.blocks[2].terminator = ir.Return(t1)
    with pytest.raises(InternalCompilerError, match="does not dominate"):
        verify(fn, typed=True, stage="test")


def test_types_required_after_typeinfer() -> None:
    fn = parse_ir(GOOD)
    fn.blocks[1].instrs[0].type = None
    with pytest.raises(InternalCompilerError, match="untyped"):
        verify(fn, typed=True, stage="test")
    verify(fn, typed=False, stage="ssa")
