"""prange and parallel=True: results equal the serial loop's, every reduction operator,
errors raised in worker threads, nested prange, and what cannot be parallelized."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jitcore
from jitcore import UnsupportedError, get_num_threads, jit, prange, set_num_threads
from tests.jitcore.support import assert_same, compiled


@pytest.fixture(autouse=True, params=[2, 3], ids=["2threads", "3threads"])
def threads(request: pytest.FixtureRequest) -> Iterator[int]:
    """Every test runs with 2 and with 3 threads (more chunks than cores is fine)."""
    before = get_num_threads()
    set_num_threads(request.param)
    yield request.param
    set_num_threads(before)


def parallel(f):  # noqa: ANN001, ANN201
    return compiled(f, parallel=True)


def serial(f):  # noqa: ANN001, ANN201
    return compiled(f)


# --- kernels ----------------------------------------------------------------------------------


def count_sum_max(a, t):  # noqa: ANN001, ANN201
    n = 0
    s = 0.0
    m = a[0]
    for i in prange(a.shape[0]):
        if a[i] > t:
            n += 1
        s += a[i]
        m = max(m, a[i])
    return n, s, m


def int_reductions(a):  # noqa: ANN001, ANN201
    total = 7
    diff = 100
    prod = 1
    bits_or = 0
    bits_and = -1
    bits_xor = 5
    lo = a[0]
    hi = a[0]
    for i in prange(a.shape[0]):
        x = a[i]
        total += x
        diff -= x
        prod *= 1 - 2 * (x % 2)
        bits_or |= x
        bits_and &= x | 1
        bits_xor ^= x
        lo = min(lo, x)
        hi = max(x, hi)
    return total, diff, prod, bits_or, bits_and, bits_xor, lo, hi


def assign_forms(a):  # noqa: ANN001, ANN201
    s = 0
    p = 1
    for i in prange(a.shape[0]):
        s = s + a[i]
        p = (a[i] % 2 + 1) * p
    return s, p


def bool_reductions(a):  # noqa: ANN001, ANN201
    anyneg = False
    allpos = True
    for i in prange(a.shape[0]):
        anyneg |= a[i] < 0
        allpos &= a[i] > 0
    return anyneg, allpos


def scale_into(out, a, k):  # noqa: ANN001, ANN201
    for i in prange(a.shape[0]):
        out[i] = a[i] * k + i


def strided(out, start, stop, step):  # noqa: ANN001, ANN201
    c = 0
    for i in prange(start, stop, step):
        out[i] += 1
        c += i
    return c


def rows(a):  # noqa: ANN001, ANN201
    """Nested prange: the outer loop is parallel, the inner one runs serially in a worker."""
    out = np.zeros(a.shape[0])
    total = 0.0
    for i in prange(a.shape[0]):
        acc = 0.0
        for j in prange(a.shape[1]):
            acc += a[i, j] * a[i, j]
        out[i] = acc
        total += acc
    return out, total


def private_temps(a):  # noqa: ANN001, ANN201
    out = np.empty_like(a)
    for i in prange(a.shape[0]):
        t = a[i] * 2.0
        if t > 1.0:
            t = 1.0
        out[i] = t
    return out


def bounds_error(a, n):  # noqa: ANN001, ANN201
    s = 0.0
    for i in prange(n):
        s += a[i]
    return s


def zero_step(n, step):  # noqa: ANN001, ANN201
    s = 0
    for i in prange(0, n, step):
        s += i
    return s


def allocating(n):  # noqa: ANN001, ANN201
    """Each iteration makes and drops an array: the runtime's counts are shared by threads."""
    s = 0.0
    for i in prange(n):
        tmp = np.arange(i % 7 + 1) * 1.0
        s += tmp.sum()
    return s


def in_outer_loop(a, reps):  # noqa: ANN001, ANN201
    s = 0
    for r in range(reps):
        for i in prange(a.shape[0]):
            s += a[i] * r
    return s


# --- tests ------------------------------------------------------------------------------------

ints = hnp.arrays(np.int64, st.integers(1, 200), elements=st.integers(-(2**20), 2**20))
floats = hnp.arrays(
    np.float64, st.integers(1, 200), elements=st.floats(-1e6, 1e6, allow_nan=False)
)


@given(ints)
def test_every_integer_reduction_operator_equals_serial_and_python(a: np.ndarray) -> None:
    assert parallel(int_reductions)(a) == serial(int_reductions)(a) == int_reductions(a)
    assert_same(int_reductions, a, parallel=True)


@given(ints)
def test_assignment_forms_of_reductions(a: np.ndarray) -> None:
    assert_same(assign_forms, a, parallel=True)


@given(ints)
def test_bool_reductions(a: np.ndarray) -> None:
    assert_same(bool_reductions, a, parallel=True)


@given(floats, st.floats(-1e6, 1e6))
def test_float_reductions_equal_serial_within_the_sum_order(a: np.ndarray, t: float) -> None:
    n, s, m = parallel(count_sum_max)(a, t)
    sn, ss, sm = serial(count_sum_max)(a, t)
    assert (n, m) == (sn, sm)  # counts and max do not depend on the order
    assert s == pytest.approx(ss, rel=1e-9, abs=1e-6 * float(np.abs(a).sum()))
    assert type(n) is type(sn) and type(s) is type(ss)


@given(floats, st.floats(-10, 10))
def test_distinct_index_writes(a: np.ndarray, k: float) -> None:
    out_p, out_s = np.zeros_like(a), np.zeros_like(a)
    parallel(scale_into)(out_p, a, k)
    scale_into(out_s, a, k)
    np.testing.assert_array_equal(out_p, out_s)


@given(st.integers(-60, 60), st.integers(-60, 60), st.integers(-9, 9).filter(bool))
def test_start_stop_step_like_range(start: int, stop: int, step: int) -> None:
    out_p, out_s = np.zeros(200, np.int64), np.zeros(200, np.int64)
    shift = 70
    assert parallel(strided)(out_p, start + shift, stop + shift, step) == strided(
        out_s, start + shift, stop + shift, step
    )
    np.testing.assert_array_equal(out_p, out_s)


def test_empty_range_gives_the_initial_values() -> None:
    assert parallel(strided)(np.zeros(3, np.int64), 5, 5, 1) == 0
    a = np.arange(4)
    assert parallel(in_outer_loop)(a, 0) == 0


def test_nested_prange_runs_the_inner_loop_serially() -> None:
    a = np.random.default_rng(1).random((37, 5))
    out, total = parallel(rows)(a)
    np.testing.assert_allclose(out, (a * a).sum(axis=1), rtol=1e-13)
    assert total == pytest.approx(out.sum(), rel=1e-12)
    assert list(parallel(rows)._prange_bodies) == ["__jitcore_prange_0__"]


def test_private_temporaries() -> None:
    a = np.linspace(0, 1, 101)
    np.testing.assert_array_equal(parallel(private_temps)(a), private_temps(a))


def test_prange_inside_a_serial_loop() -> None:
    a = np.arange(50)
    assert parallel(in_outer_loop)(a, 4) == in_outer_loop(a, 4)


def test_bounds_error_in_a_worker_raises_the_same_exception() -> None:
    a = np.arange(10.0)
    with pytest.raises(IndexError) as serial_error:
        serial(bounds_error)(a, 11)
    with pytest.raises(IndexError) as parallel_error:
        parallel(bounds_error)(a, 11)
    assert str(parallel_error.value) == str(serial_error.value)
    assert parallel(bounds_error)(a, 10) == a.sum()  # and the next call is fine


def test_zero_step_raises_like_range() -> None:
    with pytest.raises(ValueError, match="must not be zero"):
        parallel(zero_step)(10, 0)
    assert parallel(zero_step)(10, 3) == zero_step(10, 3)


def test_allocations_in_workers_balance() -> None:
    from jitcore import runtime

    f = parallel(allocating)
    f(10)
    before = runtime.live_blocks(), runtime.live_bytes()
    assert f(5000) == allocating(5000)
    assert (runtime.live_blocks(), runtime.live_bytes()) == before


def test_without_parallel_prange_is_range() -> None:
    a = np.arange(20)
    assert serial(int_reductions)(a) == int_reductions(a)
    assert serial(int_reductions)._prange_bodies == {}
    assert list(prange(2, 10, 3)) == [2, 5, 8]


def dotted_prange(a):  # noqa: ANN001, ANN201
    s = 0
    for i in jitcore.prange(a.shape[0]):
        s += a[i] * i
    return s


def test_prange_spelled_as_an_attribute_is_parallel() -> None:
    """`jitcore.prange(n)` is outlined like `prange(n)`, and is `range` serially."""
    a = np.arange(1000)
    assert parallel(dotted_prange)(a) == serial(dotted_prange)(a) == dotted_prange(a)
    assert set(parallel(dotted_prange)._prange_bodies) == {"__jitcore_prange_0__"}
    assert serial(dotted_prange)._prange_bodies == {}


def test_the_thread_count_is_a_setting(threads: int) -> None:
    assert get_num_threads() == threads
    for bad in (0, 65, 1.5, True):
        with pytest.raises(ValueError):
            set_num_threads(bad)  # type: ignore[arg-type]


# --- what cannot run in parallel --------------------------------------------------------------


def reads_private_after(a):  # noqa: ANN001, ANN201
    for i in prange(a.shape[0]):
        t = a[i]
    return t


def breaks_out(a):  # noqa: ANN001, ANN201
    for i in prange(a.shape[0]):
        if a[i] > 0:
            break
    return 0


def returns_inside(a):  # noqa: ANN001, ANN201
    for i in prange(a.shape[0]):
        if a[i] > 0:
            return i
    return -1


def loop_else(a):  # noqa: ANN001, ANN201
    s = 0
    for i in prange(a.shape[0]):
        s += i
    else:
        s = -1
    return s


@pytest.mark.parametrize(
    ("f", "words"),
    [
        (reads_private_after, "assigned in a prange loop and read after it"),
        (breaks_out, "`break` cannot leave a prange loop"),
        (returns_inside, "`return` inside a prange loop"),
        (loop_else, "cannot have an `else`"),
    ],
)
def test_unsupported_shapes_are_errors_with_a_location(f, words: str) -> None:  # noqa: ANN001
    with pytest.raises(UnsupportedError, match=words) as info:
        jit(mode="compiled", parallel=True)(f)(np.arange(4.0))
    assert "test_prange.py:" in str(info.value)


def pairwise(X):  # noqa: ANN001, ANN201
    """`n, d = X.shape`: the body recomputes n and d from X (bounds checks then go away)."""
    n, d = X.shape
    D = np.empty((n, n))
    for i in prange(n):
        for j in range(n):
            s = 0.0
            for k in range(d):
                t = X[i, k] - X[j, k]
                s += t * t
            D[i, j] = np.sqrt(s)
    return D


def shifted_param(a):  # noqa: ANN001, ANN201
    """`a` is reassigned: `n` is not recomputed from it in the body, but passed."""
    n = a.shape[0]
    a = a[1:]
    s = 0.0
    for i in prange(n - 1):
        s += a[i]
    return s


@given(
    hnp.arrays(
        np.float64, st.tuples(st.integers(1, 30), st.integers(1, 4)), elements=st.floats(-100, 100)
    )
)
def test_shape_aliases_in_the_body(X: np.ndarray) -> None:
    np.testing.assert_array_equal(parallel(pairwise)(X), serial(pairwise)(X))
    assert_same(shifted_param, np.round(X[:, 0]), parallel=True)  # exact sums: integers


def bool_sum(a, t):  # noqa: ANN001, ANN201
    hit = False
    for i in prange(a.shape[0]):
        hit += a[i] > t
    return hit


def bool_product(a, t):  # noqa: ANN001, ANN201
    ok = True
    for i in prange(a.shape[0]):
        ok *= a[i] > t
    return ok


def bool_parity(a, t):  # noqa: ANN001, ANN201
    odd = False
    for i in prange(a.shape[0]):
        odd ^= a[i] > t
    return odd


@pytest.mark.parametrize("f", [bool_sum, bool_product, bool_parity], ids=lambda f: f.__name__)
@given(hnp.arrays(np.float64, st.integers(0, 300), elements=st.floats(0, 1)), st.floats(0, 1))
def test_reductions_of_numpy_bools_stay_bools(f, a: np.ndarray, t: float) -> None:  # noqa: ANN001
    """NumPy bools add as `or` and multiply as `and`: each chunk starts from False (True for
    `*`) and the partials combine so (an int 0 start made the result int64, 3 for 3 hits)."""
    got, want = parallel(f)(a, t), f(a, t)
    assert got == want
    assert type(got) is np.bool_  # (on an empty array Python's stays a Python bool: README)
