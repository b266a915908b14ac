"""Strip-mined `math.sqrt` loops (`jitcore.optimize.stripmine`): the loop runs in chunks of
`CHUNK` iterations, each scanned just before it runs. The arrays here are long enough to cross
several chunk boundaries; results, errors, partial writes and the loop variable after the loop
must be Python's wherever a negative element, a `break` or the end falls."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from jitcore import jit
from jitcore.optimize.stripmine import CHUNK
from tests.jitcore.support import assert_same, assert_same_arrays


def roots(a, out):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        out[i] = math.sqrt(a[i])
    return out


def stepped_roots(a, start, stop, step, out):  # noqa: ANN001, ANN201
    for i in range(start, stop, step):
        out[i] = math.sqrt(a[i])
    return out


def roots_until(a, limit, out):  # noqa: ANN001, ANN201
    """A `break`, and the loop variable read after the loop (Python keeps its last value)."""
    i = -1
    for i in range(a.shape[0]):
        r = math.sqrt(a[i])
        if r > limit:
            break
        out[i] = r
    else:
        i = -2
    return i, out


def root_sum(a):  # noqa: ANN001, ANN201
    s = 0.0
    for i in range(a.shape[0]):
        s += math.sqrt(a[i])  # the additions stay in order: the sum is Python's to the bit
    return s


def caught_outside(a, out):  # noqa: ANN001, ANN201
    try:
        for i in range(a.shape[0]):
            out[i] = math.sqrt(a[i])
    except ValueError:
        out[0] = -7.0
    return out


def with_negatives(n: int, negatives: list[int]) -> np.ndarray:
    a = np.linspace(0.0, 9.0, n)
    for k in negatives:
        if k < n:
            a[k] = -1.0
    return a


lengths = st.integers(0, 3 * CHUNK + 5)
positions = st.lists(st.integers(0, 3 * CHUNK + 5), max_size=2)


@given(lengths, positions)
def test_roots_across_chunks(n: int, negatives: list[int]) -> None:
    a = with_negatives(n, negatives)
    assert_same_arrays(roots, a, np.zeros(n))  # partial writes up to the first negative


@given(lengths, positions, st.integers(0, CHUNK + 3), st.integers(1, 5))
def test_stepped_ranges(n: int, negatives: list[int], start: int, step: int) -> None:
    a = with_negatives(n, negatives)
    assert_same_arrays(stepped_roots, a, start, n, step, np.zeros(n))
    assert_same_arrays(stepped_roots, a, start, n + CHUNK, step, np.zeros(n))  # IndexError


@given(lengths, positions, st.floats(0.0, 3.5))
def test_break_and_the_counter_after_the_loop(n: int, negatives: list[int], limit: float) -> None:
    a = with_negatives(n, negatives)
    assert_same(roots_until, a, limit, np.zeros(n))


@given(lengths, positions)
def test_a_sum_of_roots_and_a_handler_around_the_loop(n: int, negatives: list[int]) -> None:
    a = with_negatives(n, negatives)
    assert_same(root_sum, a, ulps=0)
    assert_same_arrays(caught_outside, a, np.zeros(max(n, 1)))


def test_the_loop_runs_in_chunks() -> None:
    f = jit(roots, mode="compiled")
    n = 5 * CHUNK + 1
    np.testing.assert_array_equal(f(np.arange(float(n)), np.zeros(n)), np.sqrt(np.arange(n)))
    lowered = f.inspect("lower")
    assert "nextchunk" in lowered
    assert "domainscan" in lowered
