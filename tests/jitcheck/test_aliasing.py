"""Inputs that alias and inputs at the corners: several arrays of one type are sometimes the
same array, overlapping views or permuted; every mode's copy shares memory as the example
does; float values and int array elements of user kernels reach the corners."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, find, given, seed, settings
from hypothesis.errors import NoSuchExample

from jitcheck.decorator import ShapeSpec
from jitcheck.strategies import (
    alias_groups,
    arrays,
    derive_plan,
    elements_of,
    example_strategy,
    overlapping,
    same_array_variant,
)
from jitcheck.values import aliasing_note, describe_call, fresh_copy
from jitcore import Array, jit
from jitcore.ir import types as T

FIND = settings(max_examples=3000, database=None, suppress_health_check=list(HealthCheck))
Vector = Array[np.float64, 1]


@jit
def two(a: Vector, b: Vector, x: float) -> float:
    return a[0] + b[0] + x


@jit
def mixed(a: Vector, n: Array[np.int64, 1]) -> float:
    return a[0] + n[0]


def _drawn(dispatcher: Any, shapes: str | None = None, n: int = 200) -> list[dict[str, Any]]:
    plan = derive_plan(dispatcher, {}, {}, ShapeSpec.parse(shapes) if shapes else None)
    drawn: list[dict[str, Any]] = []

    @seed(1)
    @settings(max_examples=n, database=None, phases=[Phase.generate], deadline=None)
    @given(example_strategy(plan, 0))
    def draw(values: dict[str, Any]) -> None:
        drawn.append(values)

    draw()
    return drawn


def test_only_arrays_of_one_type_and_one_coupled_shape_alias() -> None:
    vec = T.Array(T.F64, 1, "A")
    same = ShapeSpec.parse("a:(n,) b:(n,) n:(n,) m:(n,n)")
    assert alias_groups({"a": vec, "b": vec, "x": T.F64}, same) == [["a", "b"]]
    assert alias_groups({"a": vec, "n": T.Array(T.I64, 1, "A")}, same) == []
    assert alias_groups({"a": vec, "m": T.Array(T.F64, 2, "A")}, same) == []
    other = ShapeSpec.parse("a:(n,) b:(d,)")
    assert alias_groups({"a": vec, "b": vec}, other) == []
    assert alias_groups({"a": vec, "b": vec}, None) == []  # independent shapes rarely fit
    coupled = ShapeSpec.parse("a:(n,) b:(n,)")
    assert derive_plan(two, {}, {}, coupled).joint and not derive_plan(mixed, {}, {}).joint


def test_examples_pass_the_same_array_overlapping_views_and_permutations() -> None:
    drawn = _drawn(two, "a:(n,) b:(n,)")
    same = [d for d in drawn if d["a"] is d["b"]]
    views = [d for d in drawn if d["a"] is not d["b"] and np.shares_memory(d["a"], d["b"])]
    apart = [d for d in drawn if not np.shares_memory(d["a"], d["b"])]
    assert same and views and apart
    for d in views:
        assert d["a"].shape == d["b"].shape
        assert np.array_equal(d["a"][1:], d["b"][:-1], equal_nan=True)


def test_overlapping_views_share_all_rows_but_one() -> None:
    a = np.arange(6.0).reshape(3, 2)
    first, second = overlapping(a)
    assert np.array_equal(first, a) and first.shape == second.shape == (3, 2)
    first[1, 0] = -1.0
    assert second[0, 0] == -1.0
    empty = overlapping(np.empty(0))
    assert empty[0].shape == empty[1].shape == (0,)


def test_fresh_copies_keep_aliasing_between_arguments() -> None:
    base = np.arange(5.0)
    a, b = base[:-1], base[1:]
    same = np.ones(3)
    copy = fresh_copy((a, b, same, same, 2.0))
    assert np.shares_memory(copy[0], copy[1]) and not np.shares_memory(copy[0], base)
    copy[0][1] = 99.0
    assert copy[1][0] == 99.0 and base[1] == 1.0
    assert copy[2] is not same and np.shares_memory(copy[2], copy[3])
    assert copy[4] == 2.0
    apart = fresh_copy((np.ones(2), np.ones(2)))
    assert not np.shares_memory(apart[0], apart[1])


@given(arrays(np.float64, 1, "A"))
def test_fresh_copies_of_one_strided_view_twice_stay_one_array(a: np.ndarray) -> None:
    copy = fresh_copy((a, a))
    assert np.array_equal(copy[0], a, equal_nan=True) and copy[0].strides == a.strides
    if a.size:
        assert np.shares_memory(copy[0], copy[1]) and not np.shares_memory(copy[0], a)


def test_a_failing_example_says_which_arguments_alias() -> None:
    v = np.ones(2)
    assert describe_call("f", ("v", "w"), (v, v)).endswith("# `w` is the same array as `v`")
    base = np.zeros(3)
    note = aliasing_note(("a", "b"), (base[:-1], base[1:]))
    assert note == "`a` and `b` are overlapping views of one buffer"
    assert aliasing_note(("a", "b"), (np.ones(2), np.ones(2))) == ""


def test_user_kernel_floats_reach_exps_subnormal_range_and_other_corners() -> None:
    floats = elements_of(np.float64)
    assert find(floats, lambda x: -745.13 < x < -708.4, settings=FIND)
    assert find(floats, lambda x: 709 < x < 710, settings=FIND)
    assert find(floats, lambda x: 1e15 <= x < math.inf, settings=FIND)
    assert find(floats, lambda x: 0 < x < 2.2250738585072014e-308, settings=FIND)
    assert find(elements_of(np.float32), lambda x: 88.0 < x < 88.73, settings=FIND)


def test_int_array_elements_reach_the_limits_but_int_parameters_stay_bounded() -> None:
    inside = elements_of(np.int64, in_array=True)
    assert find(inside, lambda n: n >= 2**63 - 3, settings=FIND)
    assert find(inside, lambda n: 2**53 < n < 2**53 + 3, settings=FIND)
    assert find(elements_of(np.int32, in_array=True), lambda n: n == -(2**31), settings=FIND)
    with pytest.raises(NoSuchExample):
        find(elements_of(np.int64), lambda n: abs(n) > 1000, settings=FIND)


def test_every_example_also_runs_with_the_same_array_twice() -> None:
    plan = derive_plan(two, {}, {}, ShapeSpec.parse("a:(n,) b:(n,)"))
    a, b = np.ones(2), np.zeros(2)
    variant = same_array_variant(plan, {"a": a, "b": b, "x": 1.0})
    assert variant is not None and variant["b"] is a and variant["x"] == 1.0
    assert same_array_variant(plan, {"a": a, "b": a, "x": 1.0}) is None  # already one
    assert same_array_variant(plan, {"a": np.ones(0), "b": np.ones(0), "x": 1.0}) is None
    assert same_array_variant(derive_plan(two, {}, {}), {"a": a, "b": b, "x": 1.0}) is None


def test_containers_are_copied_for_each_run() -> None:
    """A run that appends to a list argument must not hand the next run a longer list."""
    items, table, members = [1.0, [2.0]], {"k": [1]}, {1, 2}
    copied = fresh_copy((items, table, members))
    copied[0].append(3.0)
    copied[0][1].append(4.0)
    copied[1]["k"].append(2)
    copied[2].add(3)
    assert (items, table, members) == ([1.0, [2.0]], {"k": [1]}, {1, 2})
