"""Index-set splitting (`jitcore.loopsplit`): a loop with clamped indices and no checks left
runs as three loops, the middle one without the clamps (it vectorizes); results, errors and
partial writes are Python's."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from tests.jitcore.support import assert_same, ci_examples, compiled, lowered_text

FLOATS = st.floats(-1e6, 1e6, allow_nan=False)


# --- clamped indices -------------------------------------------------


def clamped_stencil(a, out):  # noqa: ANN001, ANN201
    n = a.shape[0]
    for i in range(n):
        out[i] = a[max(i - 1, 0)] + a[i] + a[min(i + 1, n - 1)]
    return out


def clamped_any(a, out, lo, hi, d):  # noqa: ANN001, ANN201
    """Clamps to arbitrary bounds (negative, huge: the split bounds saturate), either order
    of min's arguments, and values used after the loop."""
    last = -1
    for i in range(out.shape[0]):
        j = min(hi, max(i + d, lo))
        last = max(lo, i - 3)
        out[i] = a[j] * 2.0
    return last


def clamped_break(a, out, k):  # noqa: ANN001, ANN201
    n = a.shape[0]
    for i in range(1, out.shape[0]):
        if a[min(i + 2, n - 1)] > k:
            return i
        out[i] = a[max(i - 2, 0)]
    return -1


def clamped_rows(m, out):  # noqa: ANN001, ANN201
    """The inner loop of a nest is split, once per row."""
    n = m.shape[1]
    for r in range(m.shape[0]):
        for i in range(n):
            out[r, i] = m[r, max(i - 1, 0)] - m[r, min(i + 1, n - 1)]
    return out


def test_a_clamped_stencil_runs_its_middle_vectorized() -> None:
    f = compiled(clamped_stencil)
    assert_same(clamped_stencil, np.arange(6.0), np.zeros(6))
    optimized = f.inspect("llvm-opt")
    assert len(re.findall(r"^vector\.body:", optimized, re.M)) == 1
    # the iterations before and after the middle, checked, are cold copies; with a guard
    # failing the first runs them all (no fourth, checked copy of the whole loop)
    assert f.inspect("lower").count("coldloop") == 2


@ci_examples(60)
@given(a=arrays(np.float64, st.integers(0, 40), elements=FLOATS), extra=st.integers(-2, 2))
def test_clamped_stencils_match_python(a: np.ndarray, extra: int) -> None:
    assert_same(clamped_stencil, a, np.zeros(a.shape[0]))
    assert_same(clamped_stencil, a, np.zeros(max(a.shape[0] + extra, 0)))
    assert_same(clamped_stencil, a, np.zeros(a.shape[0]), boundscheck=False)


BOUNDS = st.integers(-5, 25) | st.sampled_from([-(2**63), 2**63 - 1, 2**62, -(2**62)])


@ci_examples(60)
@given(
    a=arrays(np.float64, st.integers(1, 20), elements=FLOATS),
    m=st.integers(0, 24),
    lo=BOUNDS,
    hi=BOUNDS,
    d=st.integers(-4, 4),
)
def test_clamps_to_any_bounds_match_python(
    a: np.ndarray, m: int, lo: int, hi: int, d: int
) -> None:
    assert_same(clamped_any, a, np.zeros(m), lo, hi, d)


@ci_examples(40)
@given(
    a=arrays(np.float64, st.integers(0, 20), elements=st.integers(-9, 9).map(float)),
    m=st.integers(0, 22),
    k=st.integers(-9, 9),
)
def test_split_loops_with_exits_match_python(a: np.ndarray, m: int, k: int) -> None:
    assert_same(clamped_break, a, np.zeros(m), float(k))


@ci_examples(40)
@given(m=arrays(np.float64, st.tuples(st.integers(0, 4), st.integers(0, 9)), elements=FLOATS))
def test_split_inner_loops_of_a_nest_match_python(m: np.ndarray) -> None:
    assert_same(clamped_rows, m, np.zeros(m.shape))


SPLIT = {
    clamped_any: (np.arange(5.0), np.zeros(5), 0, 3, 1),
    clamped_break: (np.arange(5.0), np.zeros(5), 100.0),
    clamped_rows: (np.ones((2, 4)), np.zeros((2, 4))),
}


@pytest.mark.parametrize("f", SPLIT, ids=lambda f: f.__name__)
def test_the_clamp_properties_run_split_loops(f) -> None:  # noqa: ANN001
    text = lowered_text(f, *SPLIT[f])
    assert re.search(r"^split\.\d+:$", text, re.M) and text.count("coldloop") == 2


def while_clamped(a, out, n, k):  # noqa: ANN001, ANN201
    i = 0
    while i < n:
        out[i] = a[min(i + 3, k)]
        i += 1
    return out


def while_clamped_sum(n):  # noqa: ANN001, ANN201
    s = 0
    i = 0
    while i < n:
        s ^= min(i + 2, 3)
        i += 1
    return s


@pytest.mark.parametrize("kind", [np.uint64, np.int32, np.int16, np.uint8, np.uint32, int])
def test_loops_counting_to_other_integer_types_are_not_split(kind: type) -> None:
    """A uint64 stop compares unsigned: split bounds computed in int64 dropped the clamp of
    `a[min(i + 3, k)]` for a negative k (reads past the end); narrower stops were an
    internal error (found by a hostile review)."""
    a = np.arange(1.0, 6.0)
    assert_same(while_clamped, a, np.zeros(5), kind(5), 1)
    assert_same(while_clamped, a, np.zeros(5), kind(5), -3)
    assert_same(while_clamped_sum, kind(5))


def two_loops(a, m, step):  # noqa: ANN001, ANN201
    """The second loop's clamp bound is what the first (split) loop left in `k`."""
    n = a.shape[0]
    k = step * n
    for i in range(n):
        a[i] = a[max(i - 1, 0)]
        k -= step - 1
    out = np.zeros(m)
    for j in range(m):
        out[j] = a[min(j + 1, k) - 1]
    return k, out


@ci_examples(40)
@given(
    a=arrays(np.float64, st.integers(1, 8), elements=FLOATS),
    m=st.integers(0, 12),
    step=st.sampled_from([1, 2, 100, 10**6]),
)
def test_a_split_loop_feeds_the_next_ones_bounds(a: np.ndarray, m: int, step: int) -> None:
    """Splitting the first loop gives `k` a new definition after it; the second loop's split
    bounds read the value recorded before (the first loop's `k` after one iteration): the
    middle loop ran where the clamp was active, reading past the end of `a` unchecked (found
    by a hostile review). Trivial phis the repair made in the second loop's header hid the
    invariant too."""
    assert_same(two_loops, a, m, step)
