"""The rows scheme's result types (jitcore/lib/nprows.py): a reduction of a 0-d array with
keepdims=True is a NumPy scalar, as NumPy's ufunc reductions unwrap it (the compiled code used
to type it as a 0-d array and return the scalar in its place, a crash)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.jitcore.support import assert_same


def reductions_keepdims(a):
    return (
        np.sum(a, keepdims=True),
        a.prod(keepdims=True),
        np.mean(a, keepdims=True),
        np.var(a, keepdims=True),
        a.std(keepdims=True),
        np.min(a, keepdims=True),
        a.max(axis=None, keepdims=True),
        np.argmin(a, keepdims=True),
        a.argmax(keepdims=True),
        np.any(a, keepdims=True),
        np.all(a, keepdims=True),
        np.linalg.norm(a, keepdims=True),
    )


def statistics_keepdims(a):
    return (
        np.nansum(a, keepdims=True),
        np.nanmean(a, keepdims=True),
        np.nanmin(a, keepdims=True),
        np.nanmax(a, keepdims=True),
        np.nanvar(a, keepdims=True),
        np.nanstd(a, keepdims=True),
        np.nanargmin(a, keepdims=True),
        np.nanargmax(a, keepdims=True),
        np.ptp(a, keepdims=True),
        np.count_nonzero(a, keepdims=True),
        np.average(a, keepdims=True),
        np.average(a, weights=a, keepdims=True),
    )


@pytest.mark.parametrize("a", [np.array(1.5), np.array(np.nan), np.array(-4, np.int32)])
@pytest.mark.parametrize("f", [reductions_keepdims, statistics_keepdims])
def test_keepdims_reduces_a_0d_array_to_a_scalar(f, a: np.ndarray) -> None:  # noqa: ANN001
    assert_same(f, a)
