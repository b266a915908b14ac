"""Deriving inputs: strategies from types, annotations, signatures; copies that keep layout."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, find, given, seed, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from jitcheck.strategies import (
    ARRAY_BUDGET,
    BENCH_ELEMENTS,
    INT_BOUND,
    Underivable,
    arrays,
    derive_plan,
    for_type,
    timing_input,
    type_from_annotation,
)
from jitcheck.values import fresh_copy, pack, unpack
from jitcore import Array, jit
from jitcore.ir import types as T

FIND = settings(max_examples=2000, database=None, suppress_health_check=list(HealthCheck))


def _sample(strategy: st.SearchStrategy, n: int = 300) -> list:
    """The first `n` values a fixed-seed Hypothesis run generates (no shrinking: fast)."""
    drawn: list = []

    @seed(0)
    @settings(max_examples=n, database=None, phases=[Phase.generate], deadline=None)
    @given(strategy)
    def draw(value: object) -> None:
        drawn.append(value)

    draw()
    return drawn


# --- arrays --------------------------------------------------------------------------------


@given(arrays(np.float64, 2))
def test_arrays_have_the_dtype_ndim_and_size_budget(a: np.ndarray) -> None:
    assert a.dtype == np.float64 and a.ndim == 2
    assert a.size <= ARRAY_BUDGET + 2 * math.ceil(ARRAY_BUDGET**0.5)


def test_arrays_cover_empty_orders_strided_views_and_special_floats() -> None:
    drawn = _sample(arrays(np.float64, 2))
    assert any(x.size == 0 for x in drawn)
    assert any(x.size > 1 and x.flags.c_contiguous and not x.flags.f_contiguous for x in drawn)
    assert any(x.size > 1 and x.flags.f_contiguous and not x.flags.c_contiguous for x in drawn)
    assert any(x.size > 1 and not (x.flags.c_contiguous or x.flags.f_contiguous) for x in drawn)
    assert any(any(s < 0 for s in x.strides) for x in drawn)
    assert any(np.isnan(x).any() for x in drawn) and any(np.isinf(x).any() for x in drawn)


@given(arrays(np.int32, 1, "C"), arrays(np.float32, 3, "F"))
def test_contiguous_layouts_are_honoured(c: np.ndarray, f: np.ndarray) -> None:
    assert c.flags.c_contiguous and c.dtype == np.int32
    assert f.flags.f_contiguous and f.dtype == np.float32 and f.ndim == 3


@given(for_type(T.I64), for_type(T.Tuple((T.F32, T.BOOL, T.NONE))), for_type(T.C128))
def test_scalars_are_bounded_ints_and_typed_values(
    n: int, t: tuple[np.float32, bool, None], z: complex
) -> None:
    assert type(n) is int and -INT_BOUND <= n <= INT_BOUND
    assert type(t[0]) is np.float32 and type(t[1]) is bool and t[2] is None
    assert type(z) is complex


def test_small_dtypes_keep_their_own_range() -> None:
    drawn = _sample(for_type(T.U8), 100)
    assert all(type(x) is np.uint8 for x in drawn) and np.uint8(255) in drawn


# --- annotations and signatures ------------------------------------------------------------


@pytest.mark.parametrize(
    ("annotation", "ndim", "expected"),
    [
        (int, None, T.I64),
        (float, None, T.F64),
        (bool, None, T.BOOL),
        (complex, None, T.C128),
        (np.float32, None, T.F32),
        (tuple[int, float], None, T.Tuple((T.I64, T.F64))),
        (Array[np.float64, 2, "F"], None, T.Array(T.F64, 2, "F")),
        (Array[np.int32, 1], None, T.Array(T.I32, 1, "A")),
        (NDArray[np.float64], None, T.Array(T.F64, 1, "A")),
        (NDArray[np.int16], 3, T.Array(T.I16, 3, "A")),
    ],
)
def test_annotations_name_ir_types(annotation: object, ndim: int | None, expected: T.Type) -> None:
    assert type_from_annotation(annotation, ndim) == expected


@pytest.mark.parametrize("annotation", [str, list[int], "Undefined", NDArray])
def test_other_annotations_are_underivable(annotation: object) -> None:
    with pytest.raises(Underivable):
        type_from_annotation(annotation)


def test_signatures_are_read_by_jitcores_own_parser() -> None:
    # every spelling `jit(signatures=...)` accepts types the inputs alike: text, tuple and array
    # types, Python and NumPy types, IR types
    def g(t: object, a: object, x: object) -> object:
        return t

    spellings = [
        "tuple(i64, f64), array(f32, 2d, C), bool",
        ("tuple(i64, f64)", "array(f32, 2d, C)", bool),
        (T.Tuple((T.I64, T.F64)), T.Array(T.F32, 2, "C"), np.bool_),
    ]
    for signature in spellings:
        plan = derive_plan(jit(signatures=[signature])(g), {}, {})
        assert plan.source == "jit signatures"
        want = {"t": T.Tuple((T.I64, T.F64)), "a": T.Array(T.F32, 2, "C"), "x": T.BOOL}
        assert plan.types == (want,)


# --- where inputs come from ----------------------------------------------------------------


def _f(x: float, n: int, scale: float = 2.0) -> float:
    return x * n * scale


def _untyped(a, b=3):  # noqa: ANN001, ANN202
    return a + b


def test_annotations_type_every_parameter_including_defaults() -> None:
    plan = derive_plan(jit(_f), {}, {})
    assert plan.source == "annotations" and plan.params == ("x", "n", "scale")
    assert plan.types == ({"x": T.F64, "n": T.I64, "scale": T.F64},)


def test_strategies_override_and_signatures_come_before_annotations() -> None:
    plan = derive_plan(jit(signatures=["f32, i32, f64"])(_f), {"n": st.just(3)}, {})
    assert plan.source == "@jitcheck strategies + jit signatures"
    assert plan.types == ({"x": T.F32, "scale": T.F64},)
    values = find(st.fixed_dictionaries(plan.alternatives[0]), lambda v: True, settings=FIND)
    assert values["n"] == 3 and type(values["x"]) is np.float32


def test_compiled_signatures_are_the_last_resort_and_defaults_fill_gaps() -> None:
    d = jit(_untyped)
    with pytest.raises(Underivable, match=r"parameter `a` has no annotation; annotate it"):
        derive_plan(d, {}, {})
    d(1.5)  # compiles (f64, i64)
    plan = derive_plan(d, {}, {})
    assert plan.source == "compiled signatures" and plan.types == ({"a": T.F64, "b": T.I64},)
    only_a = derive_plan(jit(_untyped), {"a": st.just(1)}, {})
    assert only_a.params == ("a",) and only_a.call_args({"a": 1}) == (1,)


def test_strategies_for_unknown_parameters_are_an_error() -> None:
    with pytest.raises(Underivable, match=r"strategies for `y`, but _f has no such parameter"):
        derive_plan(jit(_f), {"y": st.just(1)}, {})


def test_timing_input_is_deterministic_and_sized() -> None:
    def kernel(a: Array[np.float64, 2], n: int, x: float) -> float:  # type: ignore[valid-type]
        return 0.0

    plan = derive_plan(jit(kernel), {"n": st.integers(0, 30)}, {})
    first, second = timing_input(plan, {"n": 1}), timing_input(plan, {"n": 1})
    assert first[0].shape == (100, 100) and first[0].size == BENCH_ELEMENTS
    assert np.array_equal(first[0], second[0]) and first[1:] == second[1:]
    assert first[1] == 30  # the largest of the strategy's fixed-seed sample
    assert np.isfinite(first[0]).all()


# --- copies that keep the memory layout ----------------------------------------------------


def _layout(a: np.ndarray) -> tuple:
    """What addressing depends on: strides of the axes longer than 1 (none if empty)."""
    if a.size == 0:
        return (a.shape,)
    return a.shape, tuple(s for s, n in zip(a.strides, a.shape) if n > 1)


@given(arrays(np.float64, 2))
def test_fresh_copies_keep_strides_and_do_not_share_memory(a: np.ndarray) -> None:
    for copy in (fresh_copy(a), unpack(pack(a))):
        assert _layout(copy) == _layout(a)
        assert np.array_equal(copy, a, equal_nan=True)
        assert not np.shares_memory(copy, a)
    nested = fresh_copy((a, 1))
    assert nested[1] == 1 and _layout(nested[0]) == _layout(a)
