"""The broadcast loop nest is versioned on its innermost axis (`lib.loops._general_loops`):
with unit strides there, a copy with the stride constant runs and vectorizes; any other
layout takes the strided copy. Both compute NumPy's result."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from jitcore import jit


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
