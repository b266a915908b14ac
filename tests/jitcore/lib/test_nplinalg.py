"""np.linalg.norm (jitcore/lib/nplinalg.py) compiled vs NumPy: vector norms of every ord along
axes, the flattened 2-norm, matrix norms without SVD; dtypes, layouts, NaN/inf, empty."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from jitcore.errors import UnsupportedError
from tests.jitcore.lib.arrays_strategy import arrays
from tests.jitcore.support import assert_same, compiled

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


def test_svd_norms_are_unsupported() -> None:
    with pytest.raises(UnsupportedError, match="SVD"):
        compiled(spectral)(np.eye(2))
