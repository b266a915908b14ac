"""np.linalg.norm (jitcore/lib/nplinalg.py) compiled vs NumPy: vector norms of every ord along
axes, the flattened 2-norm, matrix norms (over axes in either order, of 2-D and 3-D arrays;
those of singular values too); dtypes, layouts, NaN/inf, empty."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings

from tests.jitcore.lib.arrays_strategy import arrays
from tests.jitcore.support import assert_same, compiled, function_from_source

EXAMPLES = settings(max_examples=25)


def vector_norms(a):
    return (
        np.linalg.norm(a),
        np.linalg.norm(a, axis=-1),
        np.linalg.norm(a, np.inf, axis=0),
        np.linalg.norm(a, 0, axis=-1, keepdims=True),
        np.linalg.norm(a, 1, axis=0),
        np.linalg.norm(a, 3, axis=-1),
        np.linalg.norm(a, 0.5, axis=0),
    )


def min_norm(a):
    return np.linalg.norm(a, -np.inf, axis=-1)


def matrix_norms(m):
    return (
        np.linalg.norm(m, "fro"),
        np.linalg.norm(m, 1),
        np.linalg.norm(m, np.inf),
        np.linalg.norm(m, -1),
        np.linalg.norm(m, -np.inf, keepdims=True),
    )


def spectral(m):
    return np.linalg.norm(m, 2)


@EXAMPLES
@given(a=arrays(dtype="float64") | arrays(dtype="float32") | arrays(dtype="int64"))
def test_vector_norms_match_numpy(a: np.ndarray) -> None:
    assert_same(vector_norms, a, ulps=16)
    assert_same(min_norm, a)


@EXAMPLES
@given(
    m=arrays(dtype="float64", min_dims=2, max_dims=2)
    | arrays(dtype="int32", min_dims=2, max_dims=2)
)
def test_matrix_norms_match_numpy(m: np.ndarray) -> None:
    assert_same(matrix_norms, m, ulps=16)


def svd_norms(m):
    """The norms of singular values (SciPy's LAPACK): the largest, the smallest, their sum."""
    return np.linalg.norm(m, 2), np.linalg.norm(m, -2), np.linalg.norm(m, "nuc")


def test_svd_norms_match_numpy() -> None:
    assert_same(spectral, np.eye(2))
    assert_same(spectral, np.zeros((0, 3)))  # NumPy's max of no singular values is 0
    assert_same(svd_norms, np.zeros((3, 0)))  # ValueError: the min of none
    rng = np.random.default_rng(5)
    for m in (rng.standard_normal((3, 4)), np.arange(6).reshape(3, 2).T, np.ones((2, 2), bool)):
        assert_same(svd_norms, m, ulps=64)
    assert_same(svd_norms, rng.standard_normal((4, 3)).astype(np.float32), ulps=64)


# --- matrix norms over axes given in either order, of any ndim ---------------------------------


def transposed_norms(m):
    """The row axis after the column axis: NumPy's ord=1 over axis=(1, 0) sums along axis 1
    (the max row sum), inf along axis 0, as for the transpose."""
    return (
        np.linalg.norm(m, 1, axis=(1, 0)),
        np.linalg.norm(m, np.inf, axis=(-1, 0)),
        np.linalg.norm(m, -1, axis=(1, -2)),
        np.linalg.norm(m, -np.inf, axis=(-1, -2), keepdims=True),
        np.linalg.norm(m, "fro", axis=(1, 0)),
        np.linalg.norm(m, 1, axis=(0, 1), keepdims=True),
    )


def test_matrix_norm_over_reversed_axes_is_the_transposes() -> None:
    m = np.array([[1.0, -2.0], [3.0, 4.0]])
    assert compiled(transposed_norms)(m)[:2] == (7.0, 6.0)
    assert_same(transposed_norms, m)
    assert_same(transposed_norms, m.astype(np.int8))


@EXAMPLES
@given(
    m=arrays(dtype="float64", min_dims=2, max_dims=2)
    | arrays(dtype="int8", min_dims=2, max_dims=2)
    | arrays(dtype="float32", min_dims=2, max_dims=2)
)
def test_matrix_norms_take_the_axes_in_their_order(m: np.ndarray) -> None:
    assert_same(transposed_norms, m, ulps=16)


_COUNTER = itertools.count()
MATRIX_ORDS = {"1": "1", "-1": "-1", "inf": "np.inf", "-inf": "-np.inf", "fro": "'fro'"}
MATRIX_ORDS["None"] = "None"


def _over_every_pair(name: str) -> Callable[..., Any]:
    """`def norms(x)`: the matrix norm `ord=name` of a 3-D x over each ordered pair of axes
    (some given negative), keepdims on the pairs given backwards, as one tuple."""
    calls = []
    for row, col in itertools.permutations((0, 1, -1), 2):
        backwards = row % 3 > col % 3
        calls.append(
            f"np.linalg.norm(x, {MATRIX_ORDS[name]}, axis=({row}, {col}), keepdims={backwards})"
        )
    source = "def norms(x):\n    return (" + ", ".join(calls) + ",)\n"
    filename = f"<jitcore-nplinalg-{next(_COUNTER)}>"
    return function_from_source(source, "norms", filename, {"np": np})


OVER_EVERY_PAIR = {name: _over_every_pair(name) for name in MATRIX_ORDS}


@pytest.mark.parametrize("name", sorted(OVER_EVERY_PAIR))
def test_matrix_norms_over_any_two_axes_of_a_3d_array(name: str) -> None:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 3, 4))
    with_nan = x.copy()
    with_nan[1, 2, 0] = np.nan
    for a in (x, with_nan, np.zeros((2, 0, 3)), np.zeros((0, 3, 0))):
        assert_same(OVER_EVERY_PAIR[name], a, ulps=16)
