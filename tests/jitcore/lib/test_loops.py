"""The broadcast loop nest is versioned on its innermost axis (`lib.loops._general_loops`):
with unit strides there, a copy with the stride constant runs and vectorizes; any other
layout takes the strided copy. Both compute NumPy's result."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore import jit
from tests.jitcore.support import assert_same


@jit(mode="compiled")
def center(X: np.ndarray, mu: np.ndarray) -> np.ndarray:
    return (X - mu) * 0.5


def test_a_row_broadcast_runs_the_unit_stride_copy_which_vectorizes() -> None:
    X, mu = np.arange(12.0).reshape(3, 4), np.array([1.0, -2.0, 0.5, 3.0])
    np.testing.assert_array_equal(center(X, mu), (X - mu) * 0.5)
    assert re.search(r"<\d+ x double>", center.inspect("llvm-opt"))
    assert "unitinner" in center.inspect("lower")


_LAYOUTS = st.sampled_from(["C", "F", "step", "column", "row-of-one", "empty"])


def _layout(X: np.ndarray, mu: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray]:
    if kind == "F":
        return np.asfortranarray(X), mu
    if kind == "step":
        return X[:, ::2], mu[::2]
    if kind == "column":
        return X[:, :1], mu  # X broadcast along the inner axis: stride 0 there
    if kind == "row-of-one":
        return X, mu[:1]
    if kind == "empty":
        return X[:0], mu
    return X, mu


@given(
    st.integers(1, 6),
    st.integers(2, 9),
    _LAYOUTS,
    st.floats(allow_nan=True, allow_infinity=True, width=64),
)
def test_every_layout_computes_numpys_result(rows: int, cols: int, kind: str, x: float) -> None:
    X = np.arange(rows * cols * 2, dtype=np.float64).reshape(rows, cols * 2) - x
    mu = np.linspace(-3.0, 3.0, cols * 2)
    X, mu = _layout(X, mu, kind)
    with np.errstate(all="ignore"):
        expected = (X - mu) * 0.5
    np.testing.assert_array_equal(center(X, mu), expected)


def outer_difference(x, y):  # noqa: ANN001, ANN201
    """A binary operation broadcast along the innermost axis on one side: a versioned loop
    with that operand's stride 0 there (`loops._inner_strides_are`)."""
    return np.abs(x[:, None] - y[None, :]), y[None, :] * x[:, None]


@given(
    x=hnp.arrays(np.float64, st.integers(0, 6), elements=st.floats(-10, 10)),
    y=hnp.arrays(np.float64, st.integers(0, 6), elements=st.floats(-10, 10)),
    step=st.sampled_from([1, -1, 2]),
)
def test_outer_operations_broadcast_either_side(x: np.ndarray, y: np.ndarray, step: int) -> None:
    assert_same(outer_difference, x[::step], y)
    assert_same(outer_difference, x, y[::step])


def test_an_outer_operation_gets_a_copy_per_broadcast_side() -> None:
    f = jit(outer_difference, mode="compiled")
    x = np.arange(3.0)
    f(x, x)
    lowered = f.inspect("lower")
    # each of the two operations: all unit strides, x broadcast, y broadcast (then general)
    assert len(re.findall(r"^unitinner\.\d+:", lowered, re.M)) == 6
