"""Joining and repeating (jitcore/lib/joining.py) on 0-d arrays, compiled vs NumPy: repeat
takes one as the 1-d array of its item, flip gives its item, roll has no axis to roll along;
and concatenate(axis=None) of arrays of different ndims."""

from __future__ import annotations

import numpy as np
import pytest

from jitcore.errors import TypingError
from tests.jitcore.support import assert_same, compiled

ZERO_D = [np.array(1.5), np.array(-3, np.int8), np.array(True)]


def repeats(a, n):
    return np.repeat(a, n), np.repeat(a, n, axis=0), np.repeat(a, n, axis=-1)


@pytest.mark.parametrize("a", ZERO_D)
def test_repeat_of_a_0d_array_is_1d(a: np.ndarray) -> None:
    assert_same(repeats, a, 3)
    assert_same(repeats, a, 0)
    assert_same(repeats, a, -1)  # ValueError


def flips(a):
    return np.flip(a), np.flip(a, axis=None)


def flip_plus_one(a):
    return np.flip(a) + 1


@pytest.mark.parametrize("a", ZERO_D)
def test_flip_of_a_0d_array_is_its_item(a: np.ndarray) -> None:
    """NumPy indexes it with an empty tuple of slices, which gives a NumPy scalar."""
    assert_same(flips, a)
    assert_same(flip_plus_one, a)


def roll_flat(a, shift):
    return np.roll(a, shift)


def roll_axis0(a, shift):
    return np.roll(a, shift, axis=0)


def test_roll_of_a_0d_array() -> None:
    assert_same(roll_flat, np.array(1.5), 3)
    with pytest.raises(TypingError, match="axis 0 is out of bounds for array of dimension 0"):
        compiled(roll_axis0)(np.array(1.5), 1)  # NumPy's AxisError, known while compiling


def flipud(a):
    return np.flipud(a)


def test_flipud_of_a_0d_array_says_what_numpy_says() -> None:
    with pytest.raises(ValueError, match=r"Input must be >= 1-d\."):
        compiled(flipud)(np.array(1.5))


def concatenate_flat(a, b):
    return np.concatenate((a, b), axis=None)


def test_concatenate_flat_takes_arrays_of_any_ndims() -> None:
    assert_same(concatenate_flat, np.array(1.5), np.ones((2, 2), np.int32))
    assert_same(concatenate_flat, np.arange(3), np.array(True))
