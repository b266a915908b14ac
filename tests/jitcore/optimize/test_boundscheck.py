"""Bounds checks are IR: `typeinfer` puts a `checkindex` before array indexing, `bce` removes the
ones a counted loop proves in range, and `boundscheck=False` turns the rest into `wrapindex`
(negative indices still count from the end)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import jit
from jitcore.ir import nodes as ir
from jitcore.ir.parser import parse_ir
from jitcore.ir.printer import print_ir
from jitcore.lower import lower_function
from jitcore.optimize.bce import eliminate_bounds_checks
from jitcore.optimize.boundscheck import drop_bounds_checks
from jitcore.optimize.nowrap import drop_index_wrapping
from tests.jitcore.support import assert_same_arrays


def pick(a, i, j):  # noqa: ANN001, ANN201
    return a[i] + a[j, 1]


def total(a):  # noqa: ANN001, ANN201
    s = 0.0
    for i in range(len(a)):
        s += a[i]
    return s


def store_at(a, i, v):  # noqa: ANN001, ANN201
    a[i] = v
    return a[-1]


def column(a, i):  # noqa: ANN001, ANN201
    return a[0, i]


def optimized(f, **options):  # noqa: ANN001, ANN003, ANN201
    return jit(f, mode="compiled", **options)


def test_checks_are_ops_in_optimize_and_boundscheck_false_drops_them() -> None:
    a = np.arange(6.0).reshape(3, 2)
    checked = optimized(pick)
    checked(a, 1, 2)
    text = checked.inspect("optimize")
    assert "checkindex a i {axes={0}} : i64" in text
    assert "checkindex a t" in text and "{axes={0, 1}} : tuple(i64, i64)" in text  # a[j, 1]
    unchecked = optimized(pick, boundscheck=False)
    unchecked(a, 1, 2)
    free = unchecked.inspect("optimize")
    assert "checkindex" not in free and "wrapindex a i {axes={0}}" in free
    assert "{axes={0}} : tuple(i64, i64)" in free  # the constant 1 needs no wrap
    assert text != free
    assert "IndexError" in checked.inspect("lower")
    assert "IndexError" not in unchecked.inspect("lower")


def test_bce_removes_the_check_of_a_range_len_loop() -> None:
    f = optimized(total)
    f(np.ones(4))
    assert "checkindex a" in f.inspect("optimize:licm")  # there before bce
    after = f.inspect("optimize:bce")
    assert "checkindex" not in after and "getitem a [$range1.1]" in after
    assert "IndexError" not in f.inspect("lower")


def every_third(a):  # noqa: ANN001, ANN201
    s = 0.0
    for i in range(1, a.shape[0], 3):
        s += a[i]
    return s


def every_third_of_n(a, n):  # noqa: ANN001, ANN201
    s = 0.0
    for i in range(1, n, 3):
        s += a[i]
    return s


def test_bce_proves_a_loop_with_a_larger_constant_step() -> None:
    """A step other than +-1 counts items 0..range_count and computes each as range_item:
    the check goes when start >= 0, step > 0 and stop is the array's extent."""
    f = optimized(every_third)
    assert f(np.arange(10.0)) == every_third(np.arange(10.0))
    assert "range_item" in f.inspect("optimize:bce")
    assert "checkindex" not in f.inspect("optimize:bce")
    g = optimized(every_third_of_n)  # stop is not the extent: the check stays
    assert g(np.arange(10.0), 10) == every_third_of_n(np.arange(10.0), 10)
    assert "checkindex" in g.inspect("optimize:bce")
    with pytest.raises(IndexError):
        g(np.arange(10.0), 11)


@given(st.integers(-8, 8))
def test_out_of_range_indices_raise_index_error_like_python(i: int) -> None:
    a = np.arange(5.0)
    assert_same_arrays(store_at, a, i, 2.5)
    assert_same_arrays(pick, a.reshape(5, 1).repeat(2, axis=1), i, -i)


def test_index_error_message_names_the_axis() -> None:
    f = optimized(pick)
    with pytest.raises(IndexError, match="index out of bounds for axis 0"):
        f(np.ones((3, 2)), 0, 3)
    with pytest.raises(IndexError, match="index out of bounds for axis 1"):
        optimized(column)(np.ones((3, 2)), -3)


def test_negative_indices_wrap_without_bounds_checks() -> None:
    f = optimized(store_at, boundscheck=False)
    a = np.arange(5.0)
    assert f(a, -2, 9.0) == 4.0 and a[3] == 9.0


# Pass-level tests start from IR text, independent of `ssa` and `typeinfer`.
LOOP = """
func f(a: array(f64, 1d, C), k: i64) -> f64 {
entry:
  n = call @len(a) : i64
  jump loop
loop:
  i = phi [entry: 0, body: i2] : i64
  s = phi [entry: 0.0, body: s2] : f64
  c = cmp lt i n : bool
  br c body done
body:
  t1 = checkindex a i {axes={0}} : i64
  x = getitem a [t1] : f64
  t2 = checkindex a k {axes={0}} : i64
  y = getitem a [t2] : f64
  s2 = add s x : f64
  i2 = add i 1 : i64
  jump loop
done:
  return s
}
"""


def _ops(fn: ir.Function, cls: type) -> list[ir.Instr]:
    return [i for _, i in fn.instructions() if isinstance(i, cls)]


def test_bce_pass_drops_only_the_proven_check() -> None:
    fn = parse_ir(LOOP)
    assert eliminate_bounds_checks(fn)
    (left,) = _ops(fn, ir.IndexCheck)
    assert isinstance(left, ir.IndexCheck)
    assert isinstance(left.index, ir.Arg) and left.index.name == "k"
    assert "getitem a [i]" in print_ir(fn)
    assert not eliminate_bounds_checks(fn)


def test_noboundscheck_pass_turns_checks_into_wraps() -> None:
    fn = parse_ir(LOOP)
    assert drop_bounds_checks(fn)
    # `k` may be negative: it still wraps; the loop counter `i` cannot be: no wrap at all
    (wrap,) = _ops(fn, ir.WrapIndex)
    assert not _ops(fn, ir.IndexCheck) and isinstance(wrap.index, ir.Arg)
    assert "getitem a [i]" in print_ir(fn)
    assert not drop_bounds_checks(fn)


def test_nowraparound_pass_indexes_with_the_index_itself() -> None:
    fn = parse_ir(LOOP)
    assert drop_index_wrapping(fn)
    text = print_ir(fn)
    assert not _ops(fn, ir.IndexCheck) and "getitem a [i]" in text and "getitem a [k]" in text
    assert not drop_index_wrapping(fn)
    lower_function(fn)
    assert "IndexError" not in print_ir(fn) and "select" not in print_ir(fn)


def test_only_nonnegative_library_kernels_skip_the_wrap() -> None:
    """`registry.nonnegative_kernel` compiles with wraparound=False; other library kernels and
    user functions keep wrapping negative indices under boundscheck=False."""
    from jitcore.lib import npsortk, npstatsk
    from jitcore.lib.registry import kernel_dispatcher

    def sort_and_diff(a):  # noqa: ANN001, ANN202
        return np.sort(a), np.diff(a)

    jit(sort_and_diff, mode="compiled")(np.arange(5.0))
    sort = kernel_dispatcher(npsortk.intro_sort)
    assert not sort.options.wraparound and "wrapindex" not in sort.inspect("optimize")
    diff = kernel_dispatcher(npstatsk.diff_rows)
    assert diff.options.wraparound and "wrapindex" in diff.inspect("optimize")

    def item(a, i):  # noqa: ANN001, ANN202
        return a[i]

    assert jit(item, mode="compiled", boundscheck=False)(np.arange(3.0), -1) == 2.0


def test_lowering_a_check_branches_to_index_error_and_a_wrap_does_not() -> None:
    checked = parse_ir(LOOP)
    lower_function(checked)
    assert "raise IndexError 'index out of bounds for axis 0'" in print_ir(checked)
    wrapped = parse_ir(LOOP)
    drop_bounds_checks(wrapped)
    lower_function(wrapped)
    text = print_ir(wrapped)
    assert "IndexError" not in text and "select" in text
