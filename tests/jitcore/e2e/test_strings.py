"""Strings in compiled code: constants, arguments, comparisons, `len`, `in`, `+`, options
(`if kind == "l2"`), string defaults of callees, strings returned to Python; compiled vs
Python on Hypothesis text (any Unicode without lone surrogates)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from jitcore import jit, runtime
from tests.jitcore.support import assert_same

# Lone surrogates ("Cs") included: a valid Python str, with no strict UTF-8 of its own.
TEXT = st.text(st.one_of(st.characters(), st.characters(categories=["Cs"])), max_size=12)


def compare_all(a: str, b: str) -> tuple:
    return (a == b, a != b, a < b, a <= b, a > b, a >= b, a in b, b in a, len(a), len(a + b))


def concat(a: str, b: str) -> str:
    s = a + "-" + b
    if len(s) > 3:
        s = s + "!"
    return s


@given(a=TEXT, b=TEXT)
def test_comparisons_len_in_concat_match_python(a: str, b: str) -> None:
    assert_same(compare_all, a, b)
    assert_same(concat, a, b)


@given(a=TEXT)
def test_a_string_against_itself_and_constants(a: str) -> None:
    assert_same(compare_all, a, a)
    assert_same(compare_all, a, "é")


def norm(x: np.ndarray, kind: str = "l2") -> float:
    if kind == "l2":
        return float(np.sqrt(np.sum(x * x)))
    elif kind == "l1":
        return float(np.sum(np.abs(x)))
    raise ValueError("unknown norm")


@jit(mode="compiled")
def pick(x: float, method: str = "average") -> float:
    if method == "average":
        return x / 2
    if method in ("max", "maximum"):
        return x
    return -x


def uses_default(x: float) -> tuple:
    return pick(x), pick(x, "max"), pick(x, method="other")


def test_string_options_and_defaults_of_callees() -> None:
    x = np.array([3.0, -4.0])
    for kind in ("l2", "l1", "lmax"):
        assert_same(norm, x, kind)
    assert_same(uses_default, 3.0)


def constant_folding() -> tuple:
    s = "abc"
    return s == "abc", "b" in s, len(s), s + "d", s < "abd", not s, bool("")


def test_constant_strings_fold_and_return() -> None:
    assert assert_same(constant_folding) == (True, True, 3, "abcd", True, False, False)


def mixed_equality(s: str, x: int) -> tuple:
    return s == x, s != x, s == None  # noqa: E711


def test_a_string_never_equals_a_number() -> None:
    assert_same(mixed_equality, "1", 1)


def test_strings_do_not_leak() -> None:
    f = jit(mode="compiled")(concat)
    f("a", "b")
    before = runtime.live_bytes(), runtime.live_blocks()
    for _ in range(200):
        assert f("héllo", "wörld") == "héllo-wörld!"
    assert (runtime.live_bytes(), runtime.live_blocks()) == before


def surrogate_constant(a: str) -> tuple:
    return a + "\udcff", "\ud800" in a, {a: len(a)}, [a, "x\udfff"]


def test_lone_surrogates_cross_the_boundary_both_ways() -> None:
    for a in ("\ud800", "a\udfffb\ud83d", "\ud83d\ude00"):
        assert_same(surrogate_constant, a)
        assert_same(compare_all, a, "\ud801")


def _lengths(items: list, d: dict, key: str) -> tuple:
    n = 0
    for x in items:
        n += len(x)
    return n, d[key], key.upper() + "!"


@given(a=TEXT, b=TEXT)
def test_numpy_str_scalars_are_strings(a: str, b: str) -> None:
    # `np.str_` (what indexing an array of strings gives) is a str subclass
    items = [np.str_(a), b, np.str_(b)]
    d = {np.str_(a): 1.0, b: 2.0}
    assert_same(_lengths, items, d, np.str_(b))
    assert_same(concat, np.str_(a), np.str_(b))
