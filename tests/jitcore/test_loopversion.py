"""Loop versioning (`jitcore.loopversion`): a loop with guarded bounds or domain checks runs an
unchecked version when its guard holds and a checked cold copy otherwise; either way it
computes what Python computes and raises where Python raises, after the same writes."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from jitcore import jit, prange
from tests.jitcore.support import assert_same, ci_examples, compiled, lowered_text

FLOATS = st.floats(-1e6, 1e6, allow_nan=False)


def smooth(a, out):  # noqa: ANN001, ANN201
    """A stencil: every index is guarded, none is provable by `bce`."""
    for i in range(1, a.shape[0] - 1):
        out[i] = a[i - 1] + a[i + 1]
    return out


def clamped(a, out, k):  # noqa: ANN001, ANN201
    """Clamped indices: the guard fails when a clamp is active, yet nothing raises."""
    n = a.shape[0]
    for i in range(out.shape[0]):
        out[i] = a[min(i + k, n - 1)] - a[max(i - k, 0)]
    return out


def last_seen(a, b):  # noqa: ANN001, ANN201
    """Values the loop defines, used after it: phis where the two versions meet. (Integers:
    a loop carrying a float sum is not versioned, it could not vectorize.)"""
    x = -1
    s = 0
    for i in range(a.shape[0]):
        x = b[i + 1]
        s += a[i] * x
    return s + x


def first_negative(a, b):  # noqa: ANN001, ANN201
    """Several exits (`return` inside the loop) in both versions."""
    for i in range(a.shape[0]):
        if b[i + 1] < 0:
            return i
        a[i] = b[i + 1]
    return -1


def matmul(a, b, out):  # noqa: ANN001, ANN201
    """Nested loops, each with guarded checks (the shapes are not known to agree)."""
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            out[i, j] = s
    return out


def add2d(a, b, out):  # noqa: ANN001, ANN201
    """An elementwise nest: the inner loop vectorizes once unchecked."""
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            out[i, j] = a[i, j] + b[i, j]
    return out


def roots(a, out):  # noqa: ANN001, ANN201
    """A domain-guarded loop: `math.sqrt` raises ValueError on a negative element."""
    for i in range(a.shape[0]):
        out[i] = math.sqrt(a[i])
    return out


def caught(a, out):  # noqa: ANN001, ANN201
    """A loop inside `try` (its checks raise into the handler: no guard, no versions)."""
    try:
        for i in range(a.shape[0]):
            out[i] = a[i] * 2.0
    except IndexError:
        return -1
    return 0


@jit
def fact(k):  # noqa: ANN001, ANN201
    """Recursive (never inlined) and raising: its calls `reraise` from inside the loop."""
    if k < 0:
        raise ValueError("negative")
    return 1 if k <= 1 else k * fact(k - 1)


def calls(a, out):  # noqa: ANN001, ANN201
    """A guarded loop calling another kernel: not versioned (a call does not vectorize)."""
    for i in range(a.shape[0]):
        out[i + 1] = fact(a[i])
    return out


def parallel_shift(a, out):  # noqa: ANN001, ANN201
    """A prange loop: each thread's chunk loop is versioned on its own."""
    for i in prange(a.shape[0]):
        out[i + 1] = a[i] * 2.0
    return out


def test_a_guarded_loop_has_a_fast_version_and_a_cold_checked_copy() -> None:
    a, out = np.arange(6.0), np.zeros(6)
    text = lowered_text(smooth, a, out)
    assert text.count("coldloop") == 1
    assert re.search(r"^version\.\d+:$", text, re.M)
    optimized = compiled(smooth).inspect("llvm-opt")
    # one vectorized loop (with its vectorized epilogue): the checked copy is scalar
    assert len(re.findall(r"^vector\.body:", optimized, re.M)) == 1
    assert 'llvm.loop.vectorize.enable", i1 false' in optimized


VERSIONED = {
    smooth: (np.arange(6.0), np.zeros(6)),
    clamped: (np.arange(6.0), np.zeros(6), 2),
    last_seen: (np.arange(4), np.arange(5)),
    first_negative: (np.arange(4), np.arange(5)),
    roots: (np.arange(4.0), np.zeros(4)),
}


@pytest.mark.parametrize("f", VERSIONED, ids=lambda f: f.__name__)
def test_the_properties_below_run_versioned_loops(f) -> None:  # noqa: ANN001
    assert lowered_text(f, *VERSIONED[f]).count("coldloop") == 1


def shifted_dot(a, b):  # noqa: ANN001, ANN201
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i + 1]
    return s


GUARD_BRANCH = re.compile(r"^\s+br \S+ inbounds\.\d+ boundscheck\.\d+$", re.M)


def row_sums(a, out):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        t = 0.0
        for j in range(a.shape[1]):
            t += a[i, j]  # proven in range (bce)
        out[i] = t  # guarded, in the outer loop
    return out


def test_outer_loops_check_inline_and_float_sums_keep_their_guard() -> None:
    """An outer loop's checks run once per row: inline, no guard branch for LLVM to unswitch
    (which copied the whole nest). An innermost float sum cannot vectorize but its check-free
    copy unrolls: it keeps the guard branch, for LLVM's unswitching."""
    text = lowered_text(row_sums, np.ones((2, 3)), np.zeros(2))
    assert "coldloop" not in text and not GUARD_BRANCH.search(text)
    text = lowered_text(shifted_dot, np.ones(3), np.ones(4))
    assert "coldloop" not in text and GUARD_BRANCH.search(text)


@ci_examples(40)
@given(a=arrays(np.float64, st.tuples(st.integers(0, 5), st.integers(0, 5)), elements=FLOATS))
def test_row_sums_match_python(a: np.ndarray) -> None:
    assert_same(row_sums, a, np.zeros(max(a.shape[0] - 1, 0)))
    assert_same(row_sums, a, np.zeros(a.shape[0]))


def test_with_fastmath_a_float_sum_is_versioned_and_vectorizes() -> None:
    f = compiled(shifted_dot, fastmath=True)
    assert f(np.ones(3), np.ones(4)) == 3.0
    assert f.inspect("lower").count("coldloop") == 1
    assert len(re.findall(r"^vector\.body:", f.inspect("llvm-opt"), re.M)) == 1


@ci_examples(40)
@given(
    a=arrays(np.float64, st.integers(0, 12), elements=st.integers(-100, 100).map(float)),
    extra=st.integers(-2, 2),
)
def test_fastmath_versions_match_python(a: np.ndarray, extra: int) -> None:
    b = np.arange(max(a.shape[0] + extra, 0), dtype=np.float64)
    assert_same(shifted_dot, a, b)  # small integers: any order of the sum is exact
    assert_same(shifted_dot, a, b, fastmath=True)


def test_only_the_innermost_loop_of_a_nest_is_versioned() -> None:
    a = np.ones((2, 3))
    text = lowered_text(add2d, a, a, np.zeros((2, 3)))
    assert text.count("coldloop") == 1  # the outer loop holds the inner one's two versions


def test_without_bounds_checks_counters_need_no_wrap_and_no_version() -> None:
    f = compiled(smooth, boundscheck=False)
    a, out = np.arange(6.0), np.zeros(6)
    f(a, out)
    # `a[i - 1]` may still be negative (a wrap guard), but `out[i]` is the counter itself
    assert f.inspect("lower").count("coldloop") <= 1
    f2 = compiled(roots, boundscheck=False)
    f2(np.ones(3), np.zeros(3))
    assert "wrapindex" not in f2.inspect("optimize")


@ci_examples(60)
@given(a=arrays(np.float64, st.integers(0, 12), elements=FLOATS), extra=st.integers(-3, 3))
def test_stencil_matches_python_in_and_out_of_range(a: np.ndarray, extra: int) -> None:
    out = np.zeros(max(a.shape[0] + extra, 0))
    assert_same(smooth, a, out)


@ci_examples(60)
@given(
    a=arrays(np.float64, st.integers(1, 12), elements=FLOATS),
    m=st.integers(0, 14),
    k=st.integers(-3, 15),
)
def test_clamped_indices_match_python(a: np.ndarray, m: int, k: int) -> None:
    assert_same(clamped, a, np.zeros(m), k)


@ci_examples(60)
@given(
    a=arrays(np.int64, st.integers(0, 10), elements=st.integers(-1000, 1000)),
    b=arrays(np.int64, st.integers(0, 12), elements=st.integers(-1000, 1000)),
)
def test_values_defined_in_the_loop_reach_code_after_it(a: np.ndarray, b: np.ndarray) -> None:
    assert_same(last_seen, a, b)
    assert_same(first_negative, a, b)


@ci_examples(40)
@given(
    n=st.integers(0, 4),
    m=st.integers(0, 4),
    p=st.integers(0, 4),
    q=st.integers(0, 5),
    r=st.integers(0, 5),
    data=st.data(),
)
def test_loop_nests_match_python_for_any_shapes(
    n: int, m: int, p: int, q: int, r: int, data: st.DataObject
) -> None:
    a = data.draw(arrays(np.float64, (n, m), elements=FLOATS))
    b = data.draw(arrays(np.float64, (data.draw(st.integers(0, 5)), p), elements=FLOATS))
    assert_same(matmul, a, b, np.zeros((q, r)))
    assert_same(add2d, a, data.draw(arrays(np.float64, (q, r), elements=FLOATS)), np.zeros((p, r)))


@ci_examples(60)
@given(
    a=arrays(np.float64, st.integers(0, 12), elements=st.floats(-5, 1e6) | st.just(math.nan)),
    extra=st.integers(-2, 2),
)
def test_domain_guarded_loops_raise_after_the_same_writes(a: np.ndarray, extra: int) -> None:
    assert_same(roots, a, np.zeros(max(a.shape[0] + extra, 0)))


def test_a_loop_inside_try_still_raises_into_the_handler() -> None:
    assert_same(caught, np.ones(5), np.zeros(3))
    assert_same(caught, np.ones(3), np.zeros(5))


@ci_examples(40)
@given(
    a=arrays(np.int64, st.integers(0, 8), elements=st.integers(-1, 20)),
    extra=st.integers(-2, 2),
)
def test_loops_calling_raising_kernels_match_python(a: np.ndarray, extra: int) -> None:
    assert_same(calls, a, np.zeros(max(a.shape[0] + extra, 0), dtype=np.int64))
    assert "coldloop" not in lowered_text(calls, np.arange(3), np.zeros(4, dtype=np.int64))


@ci_examples(40)
@given(a=arrays(np.float64, st.integers(0, 300), elements=FLOATS), extra=st.integers(-2, 2))
def test_prange_chunks_match_python(a: np.ndarray, extra: int) -> None:
    assert_same(parallel_shift, a, np.zeros(max(a.shape[0] + extra, 0)), parallel=True)


# --- found by a hostile review: loops that only look counted ------------------------------


def while_float_stop(a, out, x):  # noqa: ANN001, ANN201
    i = 0
    while i < x:
        out[i] = a[i + 1]
        i += 1
    return i


def while_float_stop_sqrt(a, out, x):  # noqa: ANN001, ANN201
    i = 0
    while i < x:
        out[i] = math.sqrt(a[i])
        i += 1
    return out


def while_float_stop_sum(a, x):  # noqa: ANN001, ANN201
    i = 0
    s = 0
    while i < x:
        s += a[i]
        i += 1
    return s


def while_huge_step(a, n):  # noqa: ANN001, ANN201
    i = 5
    s = 0
    c = 0
    while i < n:
        s += a[i]
        i += 9223372036854775807  # wraps in compiled code (int64): the next index is negative
        c += 1
        if c > 3:
            break
    return s, c


@pytest.mark.parametrize("x", [4.5, 5.5, 6.0, math.inf, 1e30, -1.0])
def test_a_float_stop_is_no_counted_loop(x: float) -> None:
    """`while i < 4.5` runs i up to 4: a guard from int(4.5) - 1 covered only 3 (reads and
    writes past the end, a segfault at inf), and the sqrt scan missed the last element."""
    assert_same(while_float_stop, np.arange(5.0), np.zeros(6), x)
    assert_same(while_float_stop_sqrt, np.array([1.0, 1, 1, 1, 1, -1]), np.zeros(6), x)
    assert_same(while_float_stop_sum, np.arange(5), x)


def test_a_counter_that_can_wrap_is_checked() -> None:
    """A step that wraps int64 makes the next index negative: compiled code must check it
    (IndexError; Python's unbounded ints go on), never read at -2**63 + 4."""
    f = compiled(while_huge_step)
    with pytest.raises(IndexError):
        f(np.arange(10), 10)


@pytest.mark.parametrize("n", [3, 2**63 + 5, 2**64 - 1])
def test_a_uint64_stop_is_no_counted_loop(n: int) -> None:
    """`while i < np.uint64(2**63 + 5)`: read as int64 the stop is negative, and the guard
    said the loop runs no iteration: unchecked writes until a segfault."""
    assert_same(while_float_stop, np.arange(5.0), np.zeros(5), np.uint64(n))
