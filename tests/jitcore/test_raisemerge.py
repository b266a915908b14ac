"""Identical raising blocks merged after reference counting (`jitcore.raisemerge`): fewer
blocks for LLVM, and every check still raises its own exception, releasing what it held."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import jit
from tests.jitcore.support import assert_same_arrays


def gather(a, b, idx, out):  # noqa: ANN001, ANN201
    """Each element of `idx` indexes both arrays: many checks, few distinct ways to fail."""
    for k in range(idx.shape[0]):
        i = idx[k]
        out[k] = a[i, 0] + a[i, 1] + b[i] * a[i, 2]
    return out


def two_messages(a, i, j):  # noqa: ANN001, ANN201
    return a[i, j] + a[j, i] + a[i, i] + a[j, j]


def test_the_copies_are_gone_from_the_lowered_code() -> None:
    f = jit(gather, mode="compiled")
    f(np.zeros((3, 3)), np.zeros(3), np.array([0, 2]), np.zeros(2))
    raises = [line for line in f.inspect("lower").splitlines() if line.startswith("  raise ")]
    assert len(raises) == len(set(raises))  # one block per exception and message


@given(
    st.integers(0, 4),
    st.integers(1, 4),
    st.lists(st.integers(-6, 6), max_size=6),
)
def test_every_check_still_raises_like_python(rows: int, cols: int, idx: list[int]) -> None:
    a = np.arange(rows * cols, dtype=np.float64).reshape(rows, cols)
    assert_same_arrays(gather, a, np.ones(rows), np.array(idx, dtype=np.int64), np.zeros(len(idx)))


@pytest.mark.parametrize(("i", "j"), [(0, 5), (5, 0), (-4, 1), (1, -4), (2, 2)])
def test_the_message_names_the_axis(i: int, j: int) -> None:
    a = np.ones((3, 4))
    assert_same_arrays(two_messages, a, i, j)
