"""Strings beyond comparison (`lib.strmethods`, `codegen.strops`, `codegen.pystrcall`):
indexing, slicing, iteration, `*`, `ord`, `chr`, the methods, `str`/`repr`/`format`, f-strings,
`int(s)` and `float(s)` compiled vs Python, over Unicode text (non-ASCII, astral, empty), with
Python's exceptions and messages; no leaks; wrong uses are compile-time errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import TypingError, jit, prange, runtime
from tests.jitcore.support import assert_same, ci_examples, compiled

# Text from everywhere (ASCII, Latin, CJK, astral), with letters the tests search for.
CHARS = st.one_of(
    st.sampled_from("ab ,éÉß\t\n"),
    st.characters(exclude_categories=("Cs",), max_codepoint=0x1FFFF),
)
TEXT = st.text(CHARS, max_size=8)
SMALL = st.integers(-12, 12)
INDEX = st.one_of(SMALL, st.sampled_from([-(2**63), 2**63 - 1, 2**40, -(2**40)]))
PART = st.one_of(st.none(), INDEX)


def outcome(f, *args):  # noqa: ANN001, ANN201
    try:
        return ("returned", f(*args))
    except Exception as exc:  # noqa: BLE001 - the exception is the result compared
        return (type(exc).__name__, str(exc))


def same(f, *args):  # noqa: ANN001, ANN201
    """Compiled and Python agree on the result, or on the exception's class and message."""
    got, want = outcome(compiled(f), *args), outcome(f, *args)
    assert got == want, args
    return got


# --- indexing, slicing, iteration, repetition ------------------------------------------------


def item(s: str, i: int) -> str:
    return s[i]


def cut(s: str, a: int | None, b: int | None, c: int | None) -> str:
    return s[a:b:c]


def walk(s: str) -> tuple:
    out, codes = "", 0
    for c in s:
        out = c + out
        codes = codes * 3 + ord(c)
    return out, codes % 1000003


def repeat(s: str, n: int) -> tuple:
    return s * n, n * s


@given(s=TEXT, i=INDEX)
@ci_examples(15)
def test_indexing_by_code_point(s: str, i: int) -> None:
    got = same(item, s, i)
    if got[0] != "returned":
        assert got == ("IndexError", "string index out of range")


@given(s=TEXT, a=PART, b=PART, c=st.one_of(st.none(), st.integers(-4, 4)))
@ci_examples(15)
def test_slicing(s: str, a: int | None, b: int | None, c: int | None) -> None:
    same(cut, s, a, b, c)  # a step of 0 is ValueError("slice step cannot be zero")


def test_constant_slices_and_steps() -> None:
    for s in ("héllo wörld", "\U0001f600a\U0001f601b", "abc", ""):
        for c in (None, 1, 2, -1, -2, 3):
            assert_same(cut, s, None, None, c)
            assert_same(cut, s, -2, 1, c)


@given(s=TEXT)
@ci_examples(15)
def test_iteration(s: str) -> None:
    assert_same(walk, s)


def loops(s: str) -> tuple:
    vowels = sum(1 for c in s if c in "aeioué")
    pairs = [(i, c + d) for i, (c, d) in enumerate(zip(s, s[::-1]))]
    counts = {c: s.count(c) for c in s}
    return vowels, pairs, counts, len(set(s)), "".join([c.upper() for c in reversed(s)])


@given(s=TEXT)
@ci_examples(15)
def test_strings_in_comprehensions_and_iteration_builtins(s: str) -> None:
    assert_same(loops, s)


@given(s=st.text(CHARS, max_size=3), n=st.integers(-3, 5))
@ci_examples(15)
def test_repetition(s: str, n: int) -> None:
    assert_same(repeat, s, n)


def test_huge_repetition_raises() -> None:
    same(repeat, "ab", 2**62)  # OverflowError: repeated string is too long
    assert outcome(compiled(repeat), "ab", 2**59)[0] == "MemoryError"


def test_an_empty_string_repeated_any_number_of_times_is_empty_at_once() -> None:
    """It copied nothing n times (10 s for n = 4e9) and raised MemoryError beyond 2**60."""
    for n in (2**40, 2**62, 2**63 - 1):
        assert same(repeat, "", n) == outcome(repeat, "", n)


def to_chr(n: int) -> str:
    return chr(n)


def to_ord(s: str) -> int:
    return ord(s)


@given(n=st.one_of(st.integers(-3, 0x110003), st.sampled_from([0xD800, 2**40, -(2**63)])))
@ci_examples(15)
def test_chr_and_ord(n: int) -> None:
    got = same(to_chr, n)
    if got[0] == "returned":
        same(to_ord, got[1])


def test_ord_of_a_longer_string_is_a_type_error() -> None:
    assert same(to_ord, "ab") == (
        "TypeError",
        "ord() expected a character, but string of length 2 found",
    )
    same(to_ord, "")


# --- methods ---------------------------------------------------------------------------------


def cases(s: str, t: str) -> tuple:
    return (
        s.upper(),
        s.lower(),
        s.casefold(),
        s.capitalize(),
        s.title(),
        s.swapcase(),
        s.isdigit(),
        s.isalpha(),
        s.isspace(),
        s.isalnum(),
        s.isupper(),
        s.islower(),
        s.isdecimal(),
        s.isidentifier(),
    )


def strips(s: str, t: str) -> tuple:
    return (s.strip(), s.lstrip(), s.rstrip(), s.strip(t), s.lstrip(t), s.rstrip(t), s.strip(None))


def searches(s: str, t: str, a: int) -> tuple:
    return (
        s.startswith(t),
        s.endswith(t),
        s.startswith((t, "a")),
        s.endswith(("é", t), a),
        s.startswith(t, a, -1),
        s.find(t),
        s.rfind(t),
        s.find(t, a),
        s.rfind(t, a, None),
        s.count(t),
        s.count(t, a, a + 3),
        s.replace(t, "ß"),
        s.replace(t, "", 1),
        s.removeprefix(t),
        s.removesuffix(t),
        t in s,
    )


def found(s: str, t: str) -> tuple:
    return s.index(t), s.rindex(t)


def splits(s: str, t: str, n: int) -> tuple:
    return (
        s.split(),
        s.rsplit(),
        s.split(None, n),
        s.rsplit(maxsplit=n),
        s.split(t),
        s.rsplit(t, n),
        s.split(sep=t, maxsplit=n),
        s.splitlines(),
        s.partition(t),
        s.rpartition(t),
    )


def joins(s: str, t: str) -> tuple:
    parts = s.split(",")
    return t.join(parts), ",".join((s, t)), t.join(s), "-".join([t])


def pads(s: str, t: str, n: int) -> tuple:
    fill = t[0] if len(t) == 1 else "*"
    return s.center(n), s.ljust(n, fill), s.rjust(n), s.zfill(n), s.center(n, fill)


@given(s=TEXT, t=TEXT)
@ci_examples(15)
def test_case_and_classes_match_python(s: str, t: str) -> None:
    assert_same(cases, s, t)
    assert_same(strips, s, t)
    assert_same(joins, s, t)


@given(s=TEXT, t=st.text(CHARS, max_size=2), a=SMALL)
@ci_examples(15)
def test_searches_match_python(s: str, t: str, a: int) -> None:
    assert_same(searches, s, t, a)
    same(found, s, t)  # ValueError("substring not found")


def last_matches(s: str, t: str, a: int) -> tuple:
    return s.rfind(t), s.rfind(t, a), s.rfind(t, 0, a), s.find(t), s.count(t), t in s


# Few letters, ASCII and not, so that needles match, overlap and repeat (periodic needles are
# where a backward search must not restart from scratch)
FEW = st.text(st.sampled_from("aabé字😀"), max_size=14)


@given(s=FEW, t=st.text(st.sampled_from("aab字😀"), max_size=5), a=SMALL)
@ci_examples(30)
def test_rfind_of_overlapping_and_periodic_needles_matches_python(s: str, t: str, a: int) -> None:
    assert_same(last_matches, s, t, a)
    assert_same(last_matches, s * 3, t * 2, a)  # periodic text and needle
    same(found, s + t + s, t)


def rfind(s: str, t: str) -> int:
    return s.rfind(t)


def test_rfind_of_a_long_periodic_needle() -> None:
    """("a" * n).rfind("a" * (n / 2) + "b") compared the needle at each of n / 2 positions
    (quadratic: 34 ms at n = 80,000, CPython 0.08 ms); its time is measured in
    benchmarks/test_strsearch.py, its results here."""
    f = compiled(rfind)
    n = 200_000
    s, t = "a" * n, "a" * (n // 2) + "b"
    assert f(s, t) == -1 and f(t + s, t) == 0 and f(s + t, t) == n


@given(s=TEXT, t=st.text(CHARS, max_size=2), n=st.integers(-2, 3))
@ci_examples(15)
def test_splits_match_python(s: str, t: str, n: int) -> None:
    same(splits, s, t, n)  # an empty separator is ValueError("empty separator")
    assert_same(pads, s, t, n * 3)


ASCII = st.text(st.characters(max_codepoint=127), max_size=10)


@given(s=ASCII, t=st.text(st.characters(max_codepoint=127), max_size=2))
@ci_examples(15)
def test_ascii_fast_paths_match_python(s: str, t: str) -> None:
    assert_same(cases, s, t)  # \x1c-\x1f and \x0b are spaces, as Python says
    assert_same(strips, s, t)
    assert_same(searches, s, t, 1)


def test_messages_are_pythons() -> None:
    assert same(found, "abc", "z") == ("ValueError", "substring not found")
    assert same(splits, "a b", "", 1) == ("ValueError", "empty separator")
    assert same(parse_int, "x1") == ("ValueError", "invalid literal for int() with base 10: 'x1'")
    assert same(to_chr, -1) == ("ValueError", "chr() arg not in range(0x110000)")
    assert same(cut, "abc", None, None, 0) == ("ValueError", "slice step cannot be zero")


def test_unicode_beyond_ascii() -> None:
    assert_same(cases, "ǅungla ß ǈ Σσς", "")
    assert_same(strips, "\u3000\u2028 x\xa0\u2029", "")
    assert_same(cases, "١٢٣", "")  # Arabic-Indic digits are digits
    assert same(splits, "a\u2003b\x1cc", "", 1)[0] == "ValueError"


# --- str, repr, format, f-strings, int(s), float(s) ---------------------------------------


def texts(n: int, x: float, flag: bool) -> tuple:
    return str(n), repr(n), str(x), repr(x), str(flag), repr(flag), str(), format(x, ".2e")  # noqa: UP018


def fstrings(n: int, x: float, s: str, flag: bool) -> str:
    return (
        f"n={n} {n:>6} {n:#x} {n:+d} x={x} {x!r} {x:.3f} {x:10.2e} "
        f"[{s}] [{s!r}] [{s:>8}] [{s:_^7}] {flag} {flag!r} {{}} {None}"
    )


FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.1, -0.0, 1e16, 1e-5, 5e-324, 1.7976931348623157e308]),
)


@given(n=st.integers(-(2**63), 2**63 - 1), x=FLOATS, flag=st.booleans())
@ci_examples(15)
def test_str_and_repr_of_numbers(n: int, x: float, flag: bool) -> None:
    assert_same(texts, n, x, flag)


@given(n=st.integers(-(2**63), 2**63 - 1), x=FLOATS, s=TEXT, flag=st.booleans())
@ci_examples(15)
def test_fstrings(n: int, x: float, s: str, flag: bool) -> None:
    assert_same(fstrings, n, x, s, flag)


def numpy_scalars(a: np.ndarray, x: float) -> str:
    i = len(a) - 1
    return f"{a[i]!r} {a[i]} {a[i] * 2:.2f} {x!r} {i!r} {np.float32(x)!r} " + repr(a[0])


def test_numpy_scalars_format_as_numpy_does() -> None:
    assert_same(numpy_scalars, np.array([0.5, 2.25]), 1.5)
    assert_same(numpy_scalars, np.array([3, -4]), 1.5)


def plain_fields(n: int, s: str, flag: bool) -> tuple:
    return f"k={s}/{n}/{flag}{s!s}", f"{n}", f"{s}", "{}{}".format(n, flag)  # noqa: UP032


@given(n=st.integers(-(2**63), 2**63 - 1), s=TEXT, flag=st.booleans())
@ci_examples(15)
def test_plain_fields_of_strings_and_ints(n: int, s: str, flag: bool) -> None:
    assert_same(plain_fields, n, s, flag)


def escaped_braces(n: int, s: str) -> tuple:
    return f'{{"n": {n}}}', f"{{{s}}} has {n}", "{{}} {}".format(s), f"{n}{{{n}}}"  # noqa: UP032


@given(n=st.integers(-5, 5), s=TEXT)
@ci_examples(15)
def test_escaped_braces_before_fields(n: int, s: str) -> None:
    """A chunk of literal text only (`{{`) takes no value: the values went to the wrong
    fields (`f'{{"n": {n}}}'` gave `'{"n": '`)."""
    assert_same(escaped_braces, n, s)


def raise_a_made_string(s: str, i: int) -> int:
    try:
        t = s.upper() if i == 0 else s[i]
        raise ValueError(t)
    except ValueError:
        return 1
    return 0


def test_a_string_made_in_a_try_and_raised() -> None:
    """The formatted exception was taken as a pointer into the string it was formatted with,
    which kept the string "live" where it was never made: an internal error."""
    f = compiled(raise_a_made_string)
    before = runtime.live_blocks()
    for _ in range(100):
        assert f("abé", 0) == f("abé", 2) == 1
    assert outcome(f, "ab", 5) == outcome(raise_a_made_string, "ab", 5)
    assert runtime.live_blocks() == before


def attribute_field(n: int) -> str:
    return "{0.foo}".format(n)  # noqa: UP030, UP032


def wide_constant(n: int) -> str:
    if n > 0:
        return "{:>30000000}".format(1)  # noqa: UP032
    return "small"


def test_an_attribute_error_keeps_its_class() -> None:
    assert same(attribute_field, 1)[0] == "AttributeError"


def test_a_wide_constant_template_is_not_built_while_compiling() -> None:
    """A width in a constant template was formatted while compiling (8 s and 450 MB for this
    branch that never runs); it runs when the call does, if it does."""
    f = compiled(wide_constant)
    assert f(0) == "small"
    assert len(f(1)) == 30_000_000


def percent(n: int, x: float, s: str) -> tuple:
    return "%d|%5.2f|%s|%r" % (n, x, s, s), "%x" % n, "%s%%" % s  # noqa: UP031


@given(n=st.integers(-(2**63), 2**63 - 1), x=FLOATS, s=TEXT)
@ci_examples(15)
def test_percent_formatting(n: int, x: float, s: str) -> None:
    assert_same(percent, n, x, s)


def method_format(n: int, s: str) -> str:
    return "{} {!r} {:>5}|{}".format(n, s, s, "{}")


def test_format_method() -> None:
    assert_same(method_format, -7, "héllo")


def parse_int(s: str) -> int:
    return int(s)


def parse_base(s: str, base: int) -> int:
    return int(s, base)


def parse_float(s: str) -> float:
    return float(s)


NUMBERS = st.one_of(
    TEXT,
    st.integers(-(2**63), 2**63 - 1).map(str),
    st.floats().map(repr),
    st.sampled_from([" 12 ", "1_000", "+5", "0x1f", "١٢", "inf", "-nan", "1e3", "", " "]),
)


@given(s=NUMBERS)
@ci_examples(15)
def test_int_and_float_of_strings(s: str) -> None:
    got = same(parse_int, s)
    if got[0] != "returned":
        assert got[0] == "ValueError"
    if outcome(parse_float, s)[0] == "returned":
        assert_same(parse_float, s)  # NaN equals NaN here
    else:
        same(parse_float, s)


def test_int_with_a_base_and_beyond_int64() -> None:
    same(parse_base, "ff", 16)
    same(parse_base, "0x1F", 0)
    same(parse_base, "12", 1)  # ValueError: int() base must be >= 2 and <= 36, or 0
    assert outcome(compiled(parse_int), "9" * 30)[0] == "OverflowError"


# --- memory, threads and errors ---------------------------------------------------------------


def busy(s: str) -> int:
    total = 0
    for i in range(len(s)):
        c = s[i]
        total += len(s[i:] + c * 2) + len(s.upper().split()) + len(f"{i}{c!r}")
        total += s.find(c) + s.rfind(c) + s.count(c) + len(s.strip()) + s.isalpha()
    return total


def test_nothing_leaks() -> None:
    f = jit(mode="compiled")(busy)
    assert f("héllo wörld") == busy("héllo wörld")
    assert f(" hello world ") == busy(" hello world ")
    before = runtime.live_bytes(), runtime.live_blocks()
    for _ in range(30):
        f("héllo wörld")
        f(" hello world ")
        outcome(compiled(found), "abc", "z")
        outcome(compiled(item), "abc", 5)
    assert (runtime.live_bytes(), runtime.live_blocks()) == before


def test_methods_run_without_the_gil() -> None:
    f = jit(mode="compiled", nogil=True)(busy)
    assert f("Grüße") == busy("Grüße")


def threads(n: int) -> np.ndarray:
    out = np.zeros(n)
    for i in prange(n):
        text = f"{i * 1.5}|{i}"
        out[i] = len(text.upper()) + text.find("5") + len(text.split("|")) + ord(text[0])
    return out


def test_strings_in_prange_threads() -> None:
    assert_same(threads, 200, parallel=True)


def bad_index(s: str) -> str:
    return s[1.5]  # type: ignore[index]


def bad_argument(s: str) -> int:
    return s.find(3)  # type: ignore[arg-type]


def bad_keyword(s: str) -> str:
    return s.strip(chars="x")  # type: ignore[call-arg]


def bad_join(s: str) -> str:
    return s.join([1, 2])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("f", "message"),
    [
        (bad_index, "string indices must be integers"),
        (bad_argument, "argument `sub` must be str"),
        (bad_keyword, "takes no keyword arguments"),
        (bad_join, "must be a list or tuple of str"),
    ],
)
def test_wrong_uses_are_typing_errors(f, message: str) -> None:  # noqa: ANN001
    with pytest.raises(TypingError, match=message):
        jit(mode="compiled")(f)("abc")


def test_constants_fold() -> None:
    def folded() -> tuple:
        return "a,b".upper(), "abc"[1], "x" * 3, chr(233), ord("é"), str(12), int("7")

    f = jit(mode="compiled")(folded)
    assert f() == folded()
    assert "ncall" not in f.inspect(stage="lower")
