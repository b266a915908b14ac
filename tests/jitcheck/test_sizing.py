"""The timing input's size follows the work Python does on it, deterministically."""

from __future__ import annotations

import numpy as np

from jitcheck.execute import plain_python
from jitcheck.sizing import LINE_BUDGET, count_lines, sized_timing_input
from jitcheck.strategies import BENCH_ELEMENTS, derive_plan
from jitcore import Array, jit

Vector = Array[np.float64, 1]


def linear(a: Vector) -> float:  # type: ignore[valid-type]
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i]
    return total


def quadratic(a: Vector) -> float:  # type: ignore[valid-type]
    total = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[0]):
            total += a[i] * a[j]
    return total


def raises(a: Vector) -> float:  # type: ignore[valid-type]
    raise ValueError("never")


def _sized(func: object) -> tuple:
    dispatcher = jit(func)
    plan = derive_plan(dispatcher, {}, {})
    return sized_timing_input(plan, {}, plain_python(dispatcher))


def test_count_lines_counts_executed_lines() -> None:
    a = np.ones(50)
    # the loop header and its body once per element, the first and last line once each
    assert 100 <= count_lines(linear, (a,), LINE_BUDGET) <= 105  # type: ignore[operator]
    assert count_lines(raises, (a,), LINE_BUDGET) is None


def test_count_lines_stops_counting_at_the_limit() -> None:
    counted = count_lines(quadratic, (np.ones(1000),), 1000)
    assert counted is not None and 1000 < counted < 1100


def test_linear_work_keeps_the_default_size() -> None:
    (a,) = _sized(linear)
    assert a.size == BENCH_ELEMENTS


def test_quadratic_work_gets_a_smaller_input_the_same_every_time() -> None:
    (a,) = _sized(quadratic)
    assert a.size < BENCH_ELEMENTS
    assert count_lines(quadratic, (a,), 10 * LINE_BUDGET) <= LINE_BUDGET  # type: ignore[operator]
    (again,) = _sized(quadratic)
    assert np.array_equal(a, again)


def test_a_raising_function_gets_the_default_size() -> None:
    (a,) = _sized(raises)
    assert a.size == BENCH_ELEMENTS
