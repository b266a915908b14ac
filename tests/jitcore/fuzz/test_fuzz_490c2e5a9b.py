# ruff: noqa  (generated code: unused variables and redundant parentheses are normal)
"""Found by `python -m jitcheck fuzz` (batch seed 2007), shrunk by Hypothesis.

    different exception: outcome: python raised ZeroDivisionError: integer division or modulo by
    zero, compiled 0.0: different outcome

The items of a range whose step is not +-1 (`range_item`) were typed as NumPy ints, so
`p0 // i` at i = 0 followed NumPy (0, no error) instead of raising as Python does; a
range's items are Python ints (fixed in typeinfer). Redundant statements deleted by hand.
"""

import math

import numpy as np

from jitcheck.fuzz import assert_compiled_matches_python


def f(p0, p1, p2, p3):
    for i3 in range(0, -12, -3):
        v5 = p0 // i3
    return 0.0


ARGS = (
    0,
    np.array([], dtype=np.float64).reshape((0,)),
    False,
    np.array([], dtype=np.float64).reshape((0,)),
)


def test_fuzz_490c2e5a9b() -> None:
    assert_compiled_matches_python(f, ARGS)


def by_zero(p0, a, b, s):
    total = 0.0
    for i in range(a, b, s):
        total += p0 / i + p0 % i
    return total


def test_the_items_of_a_stepped_range_are_python_ints() -> None:
    assert_compiled_matches_python(by_zero, (5, 0, 12, 3))  # ZeroDivisionError at i = 0
    assert_compiled_matches_python(by_zero, (5, -9, 12, 3))
    assert_compiled_matches_python(by_zero, (5, 7, -12, -2))
