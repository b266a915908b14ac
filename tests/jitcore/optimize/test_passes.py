"""Unit tests of the optimization passes on IR text, and property tests that each pass keeps
results (compiled with the pass against compiled without it, on Hypothesis inputs)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import jit
from jitcore.ir.parser import parse_ir
from jitcore.ir.printer import print_ir
from jitcore.ir.verify import verify
from jitcore.optimize import PASSES, Pass, pass_order, register_pass, run_passes, unregister_pass
from jitcore.optimize.constfold import fold_constants
from jitcore.optimize.copyprop import propagate_copies
from jitcore.optimize.cse import eliminate_common_subexpressions
from jitcore.optimize.dce import eliminate_dead_code
from jitcore.optimize.simplifycfg import simplify_cfg
from tests.jitcore.support import assert_ran_compiled


def ir(text: str):  # noqa: ANN201
    fn = parse_ir(text)
    verify(fn, typed=True, stage="test input")
    return fn


def test_dce_removes_unused_add() -> None:
    fn = ir("func f(a: i64) -> i64 {\nentry:\n  t = add a a : i64\n  return a\n}")
    assert eliminate_dead_code(fn) and "add" not in print_ir(fn)


def test_dce_keeps_operations_that_can_raise() -> None:
    fn = ir("func f(a: i64, b: i64) -> i64 {\nentry:\n  t = floordiv a b : i64\n  return a\n}")
    assert not eliminate_dead_code(fn) and "floordiv" in print_ir(fn)


def test_constfold_folds_and_resolves_branches() -> None:
    fn = ir(
        """func f(a: i64) -> i64 {
entry:
  t1 = add 2 3 : i64
  c = cmp lt t1 4 : bool
  br c yes no
yes:
  return a
no:
  t2 = mul t1 a : i64
  return t2
}"""
    )
    assert fold_constants(fn)
    text = print_ir(fn)
    assert "br" not in text and "yes:" not in text and "t2 = mul 5 a : i64" in text


def test_constfold_folds_float_division_and_sqrt_of_constants() -> None:
    fn = ir(
        """func f() -> f64 {
entry:
  t1 = div 2.0 3.141592653589793 : f64
  t2 = call @math.sqrt(t1) : f64
  t3 = div 1 3 : f64
  t4 = add t2 t3 : f64
  return t4
}"""
    )
    assert fold_constants(fn)
    assert print_ir(fn).splitlines()[2].strip() == f"return {math.sqrt(2 / math.pi) + 1 / 3!r}"


@pytest.mark.parametrize(
    "expr",
    [
        "div 1.0 0.0",  # ZeroDivisionError at run time
        "div 9007199254740993 3",  # beyond 2**53: the machine rounds the int first
        "call @math.sqrt(-1.0)",  # ValueError at run time
    ],
)
def test_constfold_leaves_division_and_sqrt_that_raise_or_round(expr: str) -> None:
    fn = ir(f"func f() -> f64 {{\nentry:\n  t1 = {expr} : f64\n  return t1\n}}")
    fold_constants(fn)
    assert expr in print_ir(fn)


@pytest.mark.parametrize("x", [2.0, 0.0, -0.0, 1e-300, 2**53 + 1, -3.0])
def test_folded_division_and_sqrt_equal_the_compiled_ones(x: float) -> None:
    def sqrt_of_ratio(y):  # noqa: ANN001, ANN202
        return math.sqrt(2 / 3.0) + y / 7, 1 / 3 + 2**53 / 3

    f = jit(sqrt_of_ratio, mode="compiled")
    assert f(x) == sqrt_of_ratio(x)


def test_constfold_wraps_ints_and_leaves_division_by_zero() -> None:
    fn = ir(
        "func f() -> i64 {\nentry:\n  t1 = add 9223372036854775807 1 : i64\n"
        "  t2 = floordiv t1 0 : i64\n  return t2\n}"
    )
    fold_constants(fn)
    assert "floordiv -9223372036854775808 0" in print_ir(fn)


def test_copyprop_removes_same_type_casts_and_single_value_phis() -> None:
    fn = ir(
        """func f(a: i64, c: bool) -> i64 {
entry:
  t1 = cast a : i64
  br c x y
x:
  jump y
y:
  p = phi [entry: t1, x: t1] : i64
  return p
}"""
    )
    assert propagate_copies(fn)
    assert print_ir(fn).endswith("return a\n}")


def test_cse_reuses_dominating_computation() -> None:
    fn = ir(
        """func f(a: f64, b: f64) -> f64 {
entry:
  t1 = mul a b : f64
  t2 = mul a b : f64
  t3 = add t1 t2 : f64
  return t3
}"""
    )
    assert eliminate_common_subexpressions(fn)
    assert "t3 = add t1 t1 : f64" in print_ir(fn)


def test_cse_does_not_reuse_across_sibling_branches() -> None:
    fn = ir(
        """func f(a: f64, c: bool) -> f64 {
entry:
  br c x y
x:
  t1 = mul a a : f64
  return t1
y:
  t2 = mul a a : f64
  return t2
}"""
    )
    assert not eliminate_common_subexpressions(fn)


def test_simplifycfg_merges_straight_line_blocks() -> None:
    fn = ir("func f(a: i64) -> i64 {\nentry:\n  jump b\nb:\n  t = add a 1 : i64\n  return t\n}")
    assert simplify_cfg(fn)
    assert [b.label for b in fn.blocks] == ["entry"]


def test_pass_order_is_written_once_and_extra_passes_register() -> None:
    seen: list[str] = []
    extra = Pass("test-recorder", lambda fn: seen.append(fn.name) or False)
    register_pass(extra, after="cse")
    try:
        names = [p.name for p in pass_order()]
        assert names.index("test-recorder") == names.index("cse") + 1
        with pytest.raises(ValueError):
            register_pass(extra)

        def g(x):  # noqa: ANN001, ANN202
            return x + 1

        jit(g, mode="compiled")(1)
        assert seen == ["test_pass_order_is_written_once_and_extra_passes_register.<locals>.g"]
    finally:
        unregister_pass("test-recorder")
    assert "test-recorder" not in [p.name for p in pass_order()]


def test_disabled_passes_are_skipped_and_unknown_names_rejected() -> None:
    fn = ir("func f(a: i64) -> i64 {\nentry:\n  t = add a a : i64\n  return a\n}")
    records = run_passes(fn, disabled={"dce"})
    assert "dce" not in [r.name for r in records] and "add" in print_ir(fn)
    with pytest.raises(ValueError, match="unknown passes"):
        run_passes(fn, disabled={"no-such-pass"})


def kernel(a, b, n):  # noqa: ANN001, ANN201
    s = 0.0
    for i in range(n):
        t = a * i + b
        u = a * i + b
        if i % 3 == 0 and (2 + 3) > 4:
            s += t - u * 0.5
        else:
            s -= b // (i + 1)
    return s


@pytest.mark.parametrize("name", [p.name for p in PASSES])
@given(st.floats(-100, 100), st.floats(-100, 100), st.integers(0, 30))
def test_each_pass_preserves_results(name: str, a: float, b: float, n: int) -> None:
    with_pass = _compiled(())
    without = _compiled((name,))
    assert with_pass(a, b, n) == without(a, b, n) == kernel(a, b, n)
    assert_ran_compiled(with_pass, (a, b, n))
    assert_ran_compiled(without, (a, b, n))


_CACHE: dict = {}


def _compiled(disabled: tuple[str, ...]):  # noqa: ANN202
    if disabled not in _CACHE:
        _CACHE[disabled] = jit(kernel, mode="compiled", disable_passes=disabled)
    return _CACHE[disabled]
