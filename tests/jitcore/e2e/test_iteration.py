"""Iteration builtins (enumerate, zip, reversed, literals, `in range`) and generator
expressions in sum/any/all/min/max, compiled against Python on Hypothesis inputs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore import UnsupportedError, jit
from tests.jitcore.support import assert_same, assert_same_arrays

small = st.integers(-30, 30)
steps = st.integers(-7, 7).filter(lambda s: s != 0)
finite = st.floats(-1e6, 1e6)
vectors = hnp.arrays(np.float64, st.integers(0, 12), elements=finite)
any_floats = hnp.arrays(np.float64, st.integers(0, 8))
int_vectors = hnp.arrays(np.int64, st.integers(0, 12), elements=st.integers(-1000, 1000))


# --- enumerate, zip, reversed -------------------------------------------------------------


def enumerate_weighted(a: np.ndarray, start: int) -> float:
    s = 0.0
    for i, x in enumerate(a, start):
        s += i * x
    for i, x in enumerate(a, start=start):
        s -= 0.5 * i * x
    return s


@given(vectors, small)
def test_enumerate_with_start(a: np.ndarray, start: int) -> None:
    assert_same_arrays(enumerate_weighted, a, start)


def zip_three(a: np.ndarray, b: np.ndarray, n: int) -> float:
    s = 0.0
    for x, y, k in zip(a, b, range(n)):
        s += x * y + k
    return s


@given(vectors, vectors, small)
def test_zip_stops_at_the_shortest(a: np.ndarray, b: np.ndarray, n: int) -> None:
    assert_same_arrays(zip_three, a, b, n)


def zip_tuples(n: int) -> tuple:
    total, count = 0, 0
    for p, q in zip((1, 2, 3), (n, n * 2, n * 3, n * 4)):
        total += p * q
        count += 1
    for _ in zip():
        count += 100
    return total, count


@given(small)
def test_zip_of_tuples_and_of_nothing(n: int) -> None:
    assert_same(zip_tuples, n)


def nested_unpack(a: np.ndarray, b: np.ndarray) -> float:
    s = 0.0
    for i, (x, y) in enumerate(zip(a, b)):
        if i == 2:
            continue
        s += i * x - y
        if s > 1e5:
            break
    else:
        s = -s
    for pair in zip(a, b):
        s += pair[0] - pair[1]
    return s


@given(vectors, vectors)
def test_enumerate_of_zip_with_break_continue_else(a: np.ndarray, b: np.ndarray) -> None:
    assert_same_arrays(nested_unpack, a, b)


def reversed_range(start: int, stop: int, step: int) -> tuple:
    digits, count = 0, 0
    for i in reversed(range(start, stop, step)):
        digits = digits * 3 + i
        count += 1
    return digits, count


@given(small, small, steps)
def test_reversed_range(start: int, stop: int, step: int) -> None:
    assert_same(reversed_range, start, stop, step)


def reversed_zero_step(n: int) -> int:
    s = 0
    for i in reversed(range(0, n, 0)):
        s += i
    return s


def test_reversed_range_of_zero_step_raises() -> None:
    assert_same(reversed_zero_step, 3)


def reversed_array(a: np.ndarray) -> tuple:
    out = np.empty_like(a)
    for i, x in enumerate(reversed(a)):
        out[i] = x
    last = -1.0
    for k in reversed((1.0, 2.0, 3.0)):
        last = last * 10 + k
    return out, last


@given(vectors)
def test_reversed_array_and_tuple(a: np.ndarray) -> None:
    assert_same_arrays(reversed_array, a)


def range_len_forms(a: np.ndarray) -> float:
    s = 0.0
    for i in range(len(a)):
        s += a[i]
    for i in range(len(a) - 1, -1, -1):
        s = s * 0.5 + a[i]
    for i, j in zip(range(len(a)), range(len(a) - 1, -1, -1)):
        s += a[i] - a[j]
    return s


@given(vectors)
def test_range_of_len_forms(a: np.ndarray) -> None:
    assert_same_arrays(range_len_forms, a)


# --- literals ----------------------------------------------------------------------------


def over_literals(x: int, y: float) -> tuple:
    s = 0
    for sign in (1, -1):
        s += sign * x
    t = 0.0
    for k in [1, 2, 3]:
        t += k * y
    kinds = 0
    for v in (x, y, x > 0):  # each item keeps its own type
        kinds = kinds * 2 + (1 if isinstance_int(v) else 0)
        if v == 7:
            break
    else:
        kinds += 100
    for _ in []:
        kinds += 1000
    return s, t, kinds


@jit
def isinstance_int(v) -> bool:  # noqa: ANN001
    return v == int(v)


@given(small, st.floats(-1e3, 1e3))
def test_loops_over_tuple_and_list_literals(x: int, y: float) -> None:
    assert_same(over_literals, x, y)


def long_literal(n: int) -> int:
    s = 0
    for k in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]:
        if k > n:
            break
        s += k
    return s


@given(small)
def test_long_list_literal_loops(n: int) -> None:
    assert_same(long_literal, n)


# --- membership --------------------------------------------------------------------------


def in_range(x: int, start: int, stop: int, step: int) -> tuple:
    return (
        x in range(start, stop, step),
        x not in range(stop),
        x in range(start, stop),
        x in (1, 2, 3),
        x not in (start, stop),
    )


@given(small, small, small, steps)
def test_in_range_and_tuple(x: int, start: int, stop: int, step: int) -> None:
    assert_same(in_range, x, start, stop, step)


def in_range_branch(x: int, n: int) -> int:
    if x in range(0, n, 3):
        return 1
    if x not in range(-n, n):
        return 2
    return 3


@given(small, small)
def test_in_range_as_a_condition(x: int, n: int) -> None:
    assert_same(in_range_branch, x, n)


# --- generator expressions in reductions -------------------------------------------------


def sum_of_squares(a: np.ndarray) -> float:
    return sum(x * x for x in a if x > 0)


@given(vectors)
def test_sum_of_a_generator_with_filter(a: np.ndarray) -> None:
    assert_same_arrays(sum_of_squares, a)


def nested_generator(n: int) -> int:
    return sum(i * j for i in range(n) for j in range(i) if (i + j) % 3 != 0)


@given(st.integers(-3, 25))
def test_nested_generator_sum_stays_int(n: int) -> None:
    assert_same(nested_generator, n)


def python_float_sum(n: int) -> float:
    return sum(1.0 / k for k in range(1, n))


@given(st.integers(-3, 40))
def test_sum_of_python_floats_is_a_python_float(n: int) -> None:
    assert_same(python_float_sum, n)


def counts(a: np.ndarray, t: float) -> tuple:
    return sum(x > t for x in a), sum(1 for x in a if x < t), sum(a < t)


@given(vectors, finite)
def test_sum_of_bools_counts(a: np.ndarray, t: float) -> None:
    assert_same_arrays(counts, a, t)


def any_all(a: np.ndarray, t: float) -> tuple:
    return (
        any(x > t for x in a),
        all(x > t for x in a),
        any(a),
        all(a),
        any(x > t for x in a for y in a if y < x),
    )


@given(vectors, finite)
def test_any_all(a: np.ndarray, t: float) -> None:
    assert_same_arrays(any_all, a, t)


def min_max(a: np.ndarray) -> tuple:
    return min(x for x in a), max(abs(x) - 1 for x in a), min(i for i in range(len(a)))


@given(any_floats)
def test_min_max_of_generators_with_nans_and_empty(a: np.ndarray) -> None:
    assert_same_arrays(min_max, a)


def min_default(a: np.ndarray, t: int) -> tuple:
    return min((x for x in a if x > t), default=t), max((x for x in a), default=-1)


@given(int_vectors, small)
def test_min_max_default(a: np.ndarray, t: int) -> None:
    assert_same_arrays(min_default, a, t)


def builtin_sum(a: np.ndarray, b: np.ndarray, t: tuple) -> tuple:
    return sum(a), sum(a, start=10.0), sum(b), sum(t), sum(t, 0.5)


@given(vectors, int_vectors, st.tuples(small, small, small))
def test_builtin_sum_of_arrays_and_tuples(a: np.ndarray, b: np.ndarray, t: tuple) -> None:
    assert_same_arrays(builtin_sum, a, b, t)


def generator_scope(a: np.ndarray) -> tuple:
    x = 5
    s = sum(x for x in a)
    return x, s, sum(x * k for k in a)


@given(vectors)
def test_generator_variables_do_not_leak(a: np.ndarray) -> None:
    assert_same_arrays(generator_scope, a)


# --- errors ------------------------------------------------------------------------------


def generator_escapes(a: np.ndarray):  # noqa: ANN201
    g = (x for x in a)
    return g


def reversed_enumerate(a: np.ndarray) -> float:
    s = 0.0
    for _i, x in reversed(enumerate(a)):
        s += x
    return s


def min_with_key(a: np.ndarray) -> float:
    return min((x for x in a), key=abs)


@pytest.mark.parametrize(
    "func, words",
    [
        (generator_escapes, "generator expressions are not supported"),
        (reversed_enumerate, "`enumerate` object is not reversible"),
        (min_with_key, "min() keyword argument is not supported"),
    ],
)
def test_unsupported_iteration_is_explained(func, words) -> None:  # noqa: ANN001
    with pytest.raises(UnsupportedError) as info:
        jit(mode="compiled")(func)(np.arange(3.0))
    text = str(info.value)
    assert words in text and "hint: " in text and "GeneratorExp" not in text


def enumerate_growing(n):  # noqa: ANN001, ANN201
    items = [1, 2]
    seen = []
    for i, x in enumerate(items):
        seen.append(x)
        if i < n:
            items.append(x * 10)
    return seen


def zip_shrinking(n):  # noqa: ANN001, ANN201
    items = list(range(n))
    seen = []
    for x, k in zip(items, range(100)):
        seen.append(x + k)
        if items:
            items.pop()
    return seen


@given(st.integers(0, 6))
def test_enumerate_and_zip_see_a_list_change_as_python_does(n: int) -> None:
    """Python's list iterator reads the length at every step: items appended while the loop
    runs are visited, and a shrinking list ends it early (enumerate and zip once took the
    length at the start: items were missed, or an IndexError raised)."""
    assert_same(enumerate_growing, n)
    assert_same(zip_shrinking, n)


def walk_keys(d: dict) -> list:
    pairs = [k * 10 + i for i, k in enumerate(d)]
    for (i, k), v in zip(enumerate(d.keys()), d.values()):
        pairs.append(i + k * v)
    for k, j in zip(reversed(range(len(d))), d):
        pairs.append(k - j)
    return pairs


def test_enumerate_and_zip_walk_dict_keys() -> None:
    """`enumerate(d)` and `zip(d, ...)` walk a dict's keys as `for k in d` does (they once
    indexed the dict with the counter: KeyError 0)."""
    assert_same(walk_keys, {5: 1, 7: 2, -3: 4})


def comprehension_over_map(n):  # noqa: ANN001, ANN201
    return [x for x in map(lambda v: v + 1, range(n))]  # noqa: C417


def test_an_unsupported_call_is_named_not_its_argument() -> None:
    """`range(n)` as a value is unsupported too, and typed first: the error blamed it."""
    with pytest.raises(UnsupportedError, match="calls to `map` are not supported"):
        jit(comprehension_over_map, mode="compiled")(3)
