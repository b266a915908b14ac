"""`print` in compiled code (`codegen/pyprint.py`): Python's own print, called under the GIL with
the values boxed as results are, so the text equals Python's (and NumPy's) for every kind of
value; in `nogil` functions and prange loops too (the launcher lets go of the GIL while its
threads run)."""

from __future__ import annotations

import io
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import TypingError, get_num_threads, jit, prange, set_num_threads
from tests.jitcore.support import assert_ran_compiled


def prints_everything(x, n, a, s):  # noqa: ANN001, ANN201
    print("x =", x, "n:", n, a, s)
    print((n, x), [n, n + 1], None, True, x > 0, 1 + 2j, np.float32(0.1), a[0], a[1:])
    print(x, n, sep=" | ", end="!\n")
    print({n: x}, {n}, sep="", end="")
    print()
    print(n, flush=True)
    return n


def _both(capsys: pytest.CaptureFixture[str], f, *args) -> tuple[str, str]:  # noqa: ANN001
    compiled = jit(f, mode="compiled")
    compiled(*args)
    assert_ran_compiled(compiled, args)
    got = capsys.readouterr().out
    f(*args)
    return got, capsys.readouterr().out


COMPILED = jit(prints_everything, mode="compiled")


@given(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**62), 2**62),  # n + 1 stays in int64 (beyond, it wraps: documented)
    st.text(max_size=5),
)
def test_print_writes_what_python_writes(x: float, n: int, s: str) -> None:
    a = np.array([x, 2.5, -0.0])
    texts = []
    for f in (COMPILED, prints_everything):
        out = io.StringIO()
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(sys, "stdout", out)
            f(x, n, a, s)
        texts.append(out.getvalue())
    assert texts[0] == texts[1]


def test_print_goes_to_the_current_sys_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    got, want = _both(capsys, prints_everything, 0.1, 3, np.arange(3.0), "é")
    assert got == want and got.startswith("x = 0.1 n: 3 [0. 1. 2.] é\n")


def prints_in_prange(n):  # noqa: ANN001, ANN201
    s = 0
    for i in prange(n):
        print("item", i)
        s += i
    return s


def prints_without_gil(x):  # noqa: ANN001, ANN201
    print("no gil", x)
    return x


def test_print_in_prange_threads_and_without_the_gil(capsys: pytest.CaptureFixture[str]) -> None:
    before = get_num_threads()
    set_num_threads(2)
    try:
        f = jit(prints_in_prange, mode="compiled", parallel=True)
        assert f(6) == 15
    finally:
        set_num_threads(before)
    lines = capsys.readouterr().out.splitlines()
    assert sorted(lines) == sorted(f"item {i}" for i in range(6))  # threads interleave lines
    g = jit(prints_without_gil, mode="compiled", nogil=True)
    assert g(2.5) == 2.5
    assert capsys.readouterr().out == "no gil 2.5\n"


class _Broken:
    def write(self, text: str) -> int:
        raise OSError("stdout is gone")

    def flush(self) -> None:
        pass


def prints_then_returns(x):  # noqa: ANN001, ANN201
    print(x)
    return x + 1.0


def test_an_error_inside_print_is_reported_as_unraisable_and_the_function_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", lambda info: seen.append(info.exc_value))
    monkeypatch.setattr(sys, "stdout", _Broken())
    assert jit(prints_then_returns, mode="compiled")(1.0) == 2.0
    assert len(seen) == 1 and "stdout is gone" in str(seen[0])


def prints_to_a_file(x):  # noqa: ANN001, ANN201
    print(x, file=None)


def prints_a_function(x):  # noqa: ANN001, ANN201
    print(np.sin)


@pytest.mark.parametrize(
    ("f", "message"),
    [(prints_to_a_file, "file= is not supported"), (prints_a_function, "cannot be printed")],
)
def test_what_print_refuses(f, message: str) -> None:  # noqa: ANN001
    with pytest.raises(TypingError, match=message):
        jit(f, mode="compiled")(1.0)


def prints_an_optional(x):  # noqa: ANN001, ANN201
    v = None
    if x > 0:
        v = x
    print("v =", v)
    return x


def test_print_of_a_value_that_may_be_none(capsys: pytest.CaptureFixture[str]) -> None:
    for x in (1.5, -1.0):
        got, want = _both(capsys, prints_an_optional, x)
        assert got == want


def prints_with_a_bad_sep(x):  # noqa: ANN001, ANN201
    print(x, sep=1)


def test_print_keywords_of_the_wrong_type_are_typing_errors() -> None:
    with pytest.raises(TypingError, match="sep= must be a string or None"):
        jit(prints_with_a_bad_sep, mode="compiled")(1.0)
