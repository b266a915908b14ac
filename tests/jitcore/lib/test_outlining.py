"""Array expressions and sums of `parallel=True` functions on native threads
(`jitcore.lib.outlining`, `jitcore.lib.npparallel`): the same results as serial compiled code,
NumPy and Python, bit for bit, errors included, for any thread count."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitcore import get_num_threads, set_num_threads
from jitcore.lib.outlining import PARALLEL_MIN_ITERATIONS
from tests.jitcore.support import assert_ran_compiled, compiled

BIG = PARALLEL_MIN_ITERATIONS


@pytest.fixture(autouse=True, params=[1, 2, 3], ids=["1thread", "2threads", "3threads"])
def threads(request: pytest.FixtureRequest) -> Iterator[int]:
    before = get_num_threads()
    set_num_threads(request.param)
    yield request.param
    set_num_threads(before)


def expression(a, b):  # noqa: ANN001, ANN201
    return np.sin(a) * 2.0 + np.sqrt(np.abs(b)) * a - 1.5


def int_expression(a, b):  # noqa: ANN001, ANN201
    return (a * 3 + b) ^ (a >> 2)


def total(a):  # noqa: ANN001, ANN201
    return np.sum(a)


def mean_of_expression(a, b):  # noqa: ANN001, ANN201
    return np.sum(a * b) / a.shape[0]


def power(a, b):  # noqa: ANN001, ANN201
    return a**b + 1


def run_both(f, *args):  # noqa: ANN001, ANN201
    """The parallel and the serial compiled results of `f`, after checking both compiled."""
    par, ser = compiled(f, parallel=True), compiled(f)
    out_par, out_ser = par(*args), ser(*args)
    assert_ran_compiled(par, args)
    assert_ran_compiled(ser, args)
    return out_par, out_ser


sizes = st.one_of(st.integers(0, 40), st.integers(BIG - 3, BIG + 70), st.just(5 * BIG + 1))


def arrays(n: int, seed: int, dtype: type = np.float64) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a, b = rng.normal(0, 100, n), rng.normal(0, 1e6, n)
    if dtype is not np.float64:
        return a.astype(dtype), b.astype(dtype)
    a[rng.integers(0, n, n // 1000 + 1) if n else []] = np.nan
    return a, b


@settings(max_examples=12, deadline=None)
@given(sizes, st.integers(0, 2**32 - 1))
def test_float_expression_equals_serial_and_python(n: int, seed: int) -> None:
    a, b = arrays(n, seed)
    par, ser = run_both(expression, a, b)
    np.testing.assert_array_equal(par, ser)
    np.testing.assert_array_equal(par, expression(a, b))


@settings(max_examples=8, deadline=None)
@given(sizes, st.integers(0, 2**32 - 1), st.sampled_from([np.int64, np.int32, np.uint8]))
def test_int_expression_equals_serial_and_python(n: int, seed: int, dtype: type) -> None:
    a, b = arrays(n, seed, dtype)
    par, ser = run_both(int_expression, a, b)
    assert par.dtype == ser.dtype == int_expression(a, b).dtype
    np.testing.assert_array_equal(par, ser)
    np.testing.assert_array_equal(par, int_expression(a, b))


@settings(max_examples=12, deadline=None)
@given(
    sizes,
    st.integers(0, 2**32 - 1),
    st.sampled_from([np.float64, np.float32, np.int64, np.int32, np.bool_]),
)
def test_sum_is_numpys_bit_for_bit(n: int, seed: int, dtype: type) -> None:
    """The parallel float sum walks NumPy's pairwise tree: the same total, not a close one."""
    a = np.random.default_rng(seed).normal(0, 1e3, n).astype(dtype)
    par, ser = run_both(total, a)
    assert par == ser == np.sum(a) or (np.isnan(par) and np.isnan(np.sum(a)))
    assert type(par) is type(np.sum(a))


def test_sum_of_fused_expression() -> None:
    a, b = arrays(3 * BIG + 5, 7)
    a = np.nan_to_num(a)
    par, ser = run_both(mean_of_expression, a, b)
    assert par == ser == mean_of_expression(a, b)


def test_error_in_a_chunk_is_raised_as_serially() -> None:
    """The first error in element order is the one raised, with the serial message."""
    a = np.arange(4 * BIG, dtype=np.int64)
    b = np.ones(4 * BIG, dtype=np.int64)
    b[3 * BIG + 11] = -1
    b[BIG + 5] = -2
    with pytest.raises(ValueError) as python_error:
        power(a, b)
    with pytest.raises(ValueError) as serial_error:
        compiled(power)(a, b)
    with pytest.raises(ValueError) as parallel_error:
        compiled(power, parallel=True)(a, b)
    assert str(parallel_error.value) == str(serial_error.value) == str(python_error.value)
    b[:] = 2
    np.testing.assert_array_equal(compiled(power, parallel=True)(a, b), power(a, b))


def test_broadcast_and_strided_operands_stay_serial_and_right() -> None:
    a, b = arrays(2 * BIG, 3)
    col = b[: 2 * BIG : 2]
    par, ser = run_both(expression, a[::2], col)
    np.testing.assert_array_equal(par, ser)
    par, ser = run_both(expression, a.reshape(2, -1), b[:BIG])
    np.testing.assert_array_equal(par, ser)


def test_the_loops_are_outlined_only_under_parallel() -> None:
    vectors = "array(f64, 1d, C), array(f64, 1d, C)"
    par_text = compiled(expression, parallel=True).inspect("lower", vectors)
    assert ".par0(lo: i64, hi: i64" in par_text
    assert ".par0" not in compiled(expression).inspect("lower", vectors)
    assert "sum_flat_parallel" in compiled(total, parallel=True).inspect(
        "lower", "array(f64, 1d, C)"
    )
