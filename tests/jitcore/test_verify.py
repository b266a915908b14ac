"""The IR verifier reports every broken invariant at once, with where it is, and checks what
each stage promises (types after typeinfer, only low IR and no impl after lower)."""

from __future__ import annotations

import pytest

from jitcore.errors import InternalCompilerError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.parser import parse_ir
from jitcore.ir.verify import check, verify

pytestmark = pytest.mark.internal_error_expected  # the verifier raises them on purpose

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


def messages(fn: ir.Function, *, typed: bool = True, low: bool = False) -> list[str]:
    return [str(p) for p in check(fn, typed=typed, low=low)]


def test_valid_function_passes() -> None:
    verify(parse_ir(GOOD), typed=True, stage="test")
    assert messages(parse_ir(GOOD), low=True) == []


def test_missing_terminator() -> None:
    fn = parse_ir(GOOD)
    fn.blocks[1].terminator = None
    with pytest.raises(InternalCompilerError, match="after `mypass`(.|\n)*no terminator"):
        verify(fn, typed=True, stage="mypass")


def test_a_terminator_among_the_instructions() -> None:
    fn = parse_ir(GOOD)
    fn.blocks[1].instrs.append(ir.Jump(fn.blocks[2]))  # type: ignore[arg-type]
    assert any("Jump among the instructions" in m for m in messages(fn))


def test_phi_arity_must_match_predecessors() -> None:
    fn = parse_ir(GOOD)
    phi = fn.blocks[2].instrs[0]
    assert isinstance(phi, ir.Phi)
    phi.incoming.pop(fn.blocks[0])
    assert messages(fn) == [
        "y: `p = phi [x: t1] : i64`: inputs from ['x'], but the predecessors are ['entry', 'x']"
    ]


def test_use_must_be_dominated_by_definition() -> None:
    fn = parse_ir(GOOD)
    t1 = fn.blocks[1].instrs[0]
    fn.blocks[2].terminator = ir.Return(t1)
    with pytest.raises(InternalCompilerError, match="does not dominate"):
        verify(fn, typed=True, stage="test")


def test_types_required_after_typeinfer() -> None:
    fn = parse_ir(GOOD)
    fn.blocks[1].instrs[0].type = None
    with pytest.raises(InternalCompilerError, match="no type"):
        verify(fn, typed=True, stage="test")
    verify(fn, typed=False, stage="ssa")


def test_every_problem_is_reported_with_its_place() -> None:
    fn = parse_ir(GOOD)
    entry, x, y = fn.blocks
    x.instrs[0].type = None  # untyped after typeinfer
    y.terminator = None  # no terminator
    stray = ir.BinOp("add", ir.Arg("z", 0, T.I64), ir.Const(1, type=T.I64), name="t9")
    stray.type = T.I64
    x.instrs.append(stray)  # an argument of another function
    found = messages(fn)
    assert found == [
        "x: `t1 = add a 1`: no type",
        "x: `t9 = add z 1 : i64`: uses argument z of another function",
        "y: the block has no terminator",
    ]
    with pytest.raises(InternalCompilerError, match="3 problems") as info:
        verify(fn, typed=True, stage="test")
    assert all(m in str(info.value) for m in found)


def test_after_lower_only_low_ir_without_impl() -> None:
    fn = parse_ir(
        "func f(a: array(f64, 1d, C), i: i64) -> f64 {\nentry:\n"
        "  t1 = getitem a [i] : f64\n  return t1\n}"
    )
    fn.blocks[0].instrs[0].impl = object()
    found = messages(fn, low=True)
    assert found == [
        "entry: `t1 = getitem a [i] : f64`: an implementation is left to expand",
        "entry: `t1 = getitem a [i] : f64`: GetItem is not low IR (codegen takes LOW_IR)",
    ]
    with pytest.raises(InternalCompilerError, match="not low IR"):
        verify(fn, typed=True, stage="lower")
    verify(fn, typed=True, stage="optimize")  # high-level IR is fine before lower


def test_duplicate_names_and_labels() -> None:
    fn = parse_ir(GOOD)
    fn.blocks[1].label = "y"
    fn.blocks[1].instrs[0].name = "p"
    found = messages(fn)
    assert "y: two blocks have this label" in found
    assert any("p is also defined in" in m for m in found)
