"""Typed sets compiled vs Python: `set()`, literals, comprehensions, `add`, `discard`,
`remove` (KeyError), `in`, `len`, iteration, `| & - ^`, `set(array)`."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from tests.jitcore.support import assert_same

SMALL = st.lists(st.integers(-8, 8), min_size=1, max_size=25).map(tuple)


def build(xs: tuple, ys: tuple) -> tuple:
    a = set()
    for x in xs:
        a.add(x)
    b = {y for y in ys if y != 0}
    return a | b, a & b, a - b, a ^ b, len(a), 3 in a, 3 not in b


@given(xs=SMALL, ys=SMALL)
def test_set_operations(xs: tuple, ys: tuple) -> None:
    assert_same(build, xs, ys)


def discard_remove(xs: tuple, k: int) -> tuple:
    s = {0, 1}
    for x in xs:
        s.add(x)
    s.discard(k + 1)
    s.remove(k)
    total = 0
    for x in s:
        total += x
    return len(s), total


@given(xs=SMALL, k=st.integers(-9, 9))
def test_discard_and_remove_raise_key_error_like_python(xs: tuple, k: int) -> None:
    assert_same(discard_remove, xs, k)


def from_array(a: np.ndarray) -> tuple:
    s = set(a)
    return len(s), s


@given(a=hnp.arrays(np.int64, st.integers(0, 30), elements=st.integers(-5, 5)))
def test_set_of_an_array(a: np.ndarray) -> None:
    assert_same(from_array, a)


def set_argument(s: set, k: str) -> tuple:
    return k in s, len(s), s | {"z"}


def test_set_arguments_and_string_members() -> None:
    assert_same(set_argument, {"a", "b"}, "a")
    assert_same(set_argument, {"a", "b"}, "q")
