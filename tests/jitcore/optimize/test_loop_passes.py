"""LICM, bounds-check elimination and elementwise fusion: IR text checks on compiled kernels,
and property tests that each leaves results unchanged."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore import jit, runtime
from tests.jitcore.support import assert_same_arrays


def row_sums(a):  # noqa: ANN001, ANN201
    out = np.zeros(a.shape[0])
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            out[i] += a[i, j] * a.shape[1]
    return out


def over_len(a, k):  # noqa: ANN001, ANN201
    s = 0.0
    for i in range(len(a)):
        s += a[i] + a[k]  # a[k] is not provably in range: keeps its check
    for x in a:
        s += x
    return s


def expression(a, b, c):  # noqa: ANN001, ANN201
    return 0.5 * a + 0.5 * b * c


def mixed(a, b, n):  # noqa: ANN001, ANN201
    t = np.sqrt(a * a + b * b)
    u = np.where(t > n, t, -t) / 2
    return u + 1


def compiled(f, *disabled):  # noqa: ANN001, ANN201
    return jit(f, mode="compiled", disable_passes=disabled)


def test_bce_removes_index_checks_of_loop_indices_in_range() -> None:
    f = compiled(row_sums)
    f(np.ones((2, 3)))
    text = f.inspect("optimize")
    assert "checkindex a " not in text and "getitem a [t" in text  # a[i, j]: both axes proven
    assert "checkindex out.1 $range1.1 {axes={0}}" in text  # `a.shape[0]` says nothing of out
    unproven = compiled(row_sums, "bce")
    unproven(np.ones((2, 3)))
    assert "checkindex a t" in unproven.inspect("optimize")
    lowered = f.inspect("lower")
    assert lowered.count("IndexError") < compiled(row_sums, "bce").inspect(
        "lower", "array(f64, 2d, C)"
    ).count("IndexError")


def test_bce_keeps_checks_it_cannot_prove() -> None:
    f = compiled(over_len)
    f(np.ones(3), 1)
    text = f.inspect("optimize")
    assert "getitem a [$range1.1] :" in text  # proven: indexes with the counter itself
    assert "checkindex a k {axes={0}}" in text  # unproven: still checked
    assert text.count("checkindex") == 1  # `for x in a` is proven too
    assert "IndexError" in f.inspect("lower")
    with pytest.raises(IndexError):
        f(np.ones(3), 7)


def test_licm_moves_invariant_shape_reads_out_of_the_loop() -> None:
    f = compiled(row_sums)
    f(np.ones((2, 3)))
    text = f.inspect("optimize")
    body = text.split("forbody.2:")[1].split("forelse")[0]
    assert "getattr" not in body and "cast" not in body


def test_fusion_makes_one_loop_and_one_allocation() -> None:
    f = compiled(expression)
    a = np.arange(1000.0)
    f(a, a, a)
    text = f.inspect("optimize")
    assert text.count("fused_elementwise") == 1 and " mul " not in text and " add " not in text
    assert f.inspect("lower").count(" = alloc ") == 1
    unfused = compiled(expression, "fusion")
    unfused(a, a, a)
    assert unfused.inspect("lower").count(" = alloc ") >= 3
    before = runtime.live_bytes()
    np.testing.assert_array_equal(f(a, a, a), 0.5 * a + 0.5 * a * a)
    assert runtime.live_bytes() == before


arrays_2d = hnp.arrays(
    np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=5), elements=st.floats(-100, 100)
)
arrays_1d = hnp.arrays(np.float64, st.integers(0, 6), elements=st.floats(-100, 100))


@pytest.mark.parametrize("disabled", [(), ("licm",), ("bce",), ("licm", "bce", "cse")])
@given(a=arrays_2d)
def test_loop_passes_preserve_results(disabled: tuple[str, ...], a: np.ndarray) -> None:
    assert_same_arrays(row_sums, a, disable_passes=disabled)


@pytest.mark.parametrize("disabled", [(), ("fusion",)])
@given(a=arrays_1d, b=arrays_1d, c=arrays_1d, n=st.floats(-10, 10))
def test_fusion_preserves_results_and_errors(disabled, a, b, c, n) -> None:  # noqa: ANN001
    assert_same_arrays(expression, a, b, c, disable_passes=disabled)  # shape mismatch: ValueError
    assert_same_arrays(mixed, a, b, n, disable_passes=disabled)


def strided_expression(a, b, s):  # noqa: ANN001, ANN201
    return a[::2] * 2.0 + b[1::2]


def runtime_step_expression(a, b, s):  # noqa: ANN001, ANN201
    return a[::2] * 2.0 + b[::s]  # b[::s] raises for s == 0: the multiply must not move past


def test_fusion_moves_past_views_that_cannot_raise() -> None:
    a = np.arange(10.0)
    f = compiled(strided_expression)
    f(a, a, 1)
    assert f.inspect("optimize").count("fused_elementwise") == 1
    g = compiled(runtime_step_expression)
    g(a, a, 2)
    assert "fused_elementwise" not in g.inspect("optimize")


@pytest.mark.parametrize("disabled", [(), ("fusion",)])
@given(a=arrays_1d, b=arrays_1d, s=st.integers(-3, 3))
def test_fusion_across_views_preserves_results_and_errors(disabled, a, b, s) -> None:  # noqa: ANN001
    assert_same_arrays(strided_expression, a, b, s, disable_passes=disabled)
    assert_same_arrays(runtime_step_expression, a, b, s, disable_passes=disabled)


def standardize(x, w):  # noqa: ANN001, ANN201
    return (x - x.mean()) / np.linalg.norm(w) + x @ w


def negated_times_product(X, Y, w):  # noqa: ANN001, ANN201
    return -Y * np.dot(X, w)


def sum_before_a_failing_product(a, b, X, w):  # noqa: ANN001, ANN201
    return (a + b) * np.dot(X, w)  # a + b may fail to broadcast: it stays before the product


def test_fusion_moves_a_producer_that_cannot_raise_past_read_only_calls() -> None:
    x = np.arange(4.0)
    f = compiled(standardize)
    f(x, x)
    text = f.inspect("optimize")
    assert text.count("fused_elementwise") == 1 and " sub " not in text and " div " not in text
    g = compiled(negated_times_product)
    g(np.ones((3, 2)), np.ones(3), np.ones(2))
    assert "neg " not in g.inspect("optimize")
    h = compiled(sum_before_a_failing_product)
    h(x, x, np.ones((4, 2)), np.ones(2))
    assert " add " in h.inspect("optimize")


@pytest.mark.parametrize("disabled", [(), ("fusion",)])
@given(
    a=arrays_1d, b=arrays_1d, rows=st.integers(0, 4), cols=st.integers(0, 3), k=st.integers(0, 3)
)
def test_fusion_past_read_only_calls_preserves_results_and_errors(
    disabled,
    a,
    b,
    rows,
    cols,
    k,  # noqa: ANN001
) -> None:
    X = np.arange(rows * cols, dtype=np.float64).reshape(rows, cols) - 2.5
    w = np.linspace(-1.0, 1.0, k)
    assert_same_arrays(standardize, a, b, disable_passes=disabled)  # x @ w: shapes must agree
    assert_same_arrays(negated_times_product, X, a, w, disable_passes=disabled)
    assert_same_arrays(sum_before_a_failing_product, a, b, X, w, disable_passes=disabled)


def test_inlining_replaces_small_callees_and_keeps_their_exceptions() -> None:
    from tests.jitcore.e2e import calls_helpers as h

    def user(x):  # noqa: ANN001, ANN202
        return h.scale(x, 2) + h.divides(7, 2)

    f = compiled(user)
    assert f(1.5) == user(1.5)
    text = f.inspect("optimize")
    assert "call @" not in text.replace("call @range", "")  # both callees inlined
    assert "ncall" not in f.inspect("lower")
    g = compiled(user, "inline")
    assert g(1.5) == f(1.5) and "ncall" in g.inspect("lower")


def test_callees_with_branches_and_loops_are_inlined() -> None:
    """`ssa` records every block of a function in `exc_regions` (None outside `try`): that alone
    must not keep a callee with a branch, a short-circuit or a loop from being inlined."""
    from tests.jitcore.e2e import calls_helpers as h

    def user(x, n):  # noqa: ANN001, ANN202
        return h.before(x, 1.0) + h.total_to(n) + h.checked_div(n, 2)

    f = compiled(user)
    assert f(0.5, 5) == user(0.5, 5) and f(float("nan"), 3) == user(float("nan"), 3)
    assert "call @" not in f.inspect("optimize").replace("call @range", "")


def test_callees_with_try_are_not_inlined() -> None:
    from tests.jitcore.e2e import calls_helpers as h

    def user(a, b):  # noqa: ANN001, ANN202
        return h.guarded_div(a, b) + 1

    f = compiled(user)
    assert f(7, 2) == 4 and f(7, 0) == 1
    assert "guarded_div" in f.inspect("optimize")


def test_inlined_callee_raises_into_the_callers_try() -> None:
    from tests.jitcore.e2e import calls_helpers as h

    def user(a, b):  # noqa: ANN001, ANN202
        try:
            r = h.checked_div(a, b)
        except ZeroDivisionError:
            r = -1
        return r + h.checked_div(a, 1)

    f = compiled(user)
    assert f(7, 2) == user(7, 2) and f(7, 0) == user(7, 0) == 6
    assert "checked_div" not in f.inspect("optimize")


def test_recursive_callees_are_not_inlined() -> None:
    from tests.jitcore.e2e import calls_helpers as h

    def user(n):  # noqa: ANN001, ANN202
        return h.fib(n) + 1

    f = compiled(user)
    assert f(10) == 56
    assert "ncall" in f.inspect("lower")
