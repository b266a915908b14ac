"""Unsupported code and type errors point at the user's file, line and column, with a hint."""

from __future__ import annotations

import re

import pytest

from jitcore import TypingError, UnsupportedError, jit
from tests.jitcore import error_cases as cases

FILE = cases.__file__


def compile_error(f, *args):  # noqa: ANN001, ANN201
    with pytest.raises((UnsupportedError, TypingError)) as info:
        jit(mode="compiled")(f)(*args)
    return info.value


def location(err: Exception) -> tuple[str, int, int]:
    m = re.match(r"(.+):(\d+):(\d+): ", str(err))
    assert m, f"no location in {err}"
    return m.group(1), int(m.group(2)), int(m.group(3))


@pytest.mark.parametrize(
    "func, args, line, col, kind, words",
    [
        (cases.uses_with, (1,), 7, 5, UnsupportedError, "`with` statements"),
        (cases.uses_try, (1.0,), 14, 12, UnsupportedError, "built-in exceptions can be"),
        (cases.uses_list, (1,), 19, 10, UnsupportedError, "`*items` in list displays"),
        (cases.uses_comprehension, (3,), 24, 16, UnsupportedError, "`*items` in list displays"),
        (cases.uses_string, (3,), 28, 12, UnsupportedError, "the constant b'%d'"),
        (cases.calls_unsupported, (1.0,), 46, 12, UnsupportedError, "numpy.linalg"),
        (cases.undefined_name, (1,), 50, 16, UnsupportedError, "not_defined_anywhere"),
    ],
)
def test_unsupported_code_points_at_the_column(func, args, line, col, kind, words) -> None:  # noqa: ANN001
    err = compile_error(func, *args)
    assert isinstance(err, kind)
    assert location(err) == (FILE, line, col)
    text = str(err)
    assert words in text
    assert "hint: " in text
    source_line, caret_line = text.splitlines()[1:3]
    assert caret_line.index("^") == source_line.index(source_line.strip()[0]) + (
        col - 1 - (len(source_line) - len(source_line.lstrip()) - 4)
    )
    assert "note: while compiling" in text


def test_conflicting_types_name_the_variable_and_both_types() -> None:
    err = compile_error(cases.conflicting_types, 3)
    assert isinstance(err, TypingError)
    assert "`r` is i64 on one path and tuple(i64, i64) on another" in str(err)
    assert "hint: give `r` one type on every path" in str(err)
    assert location(err)[1] == 35


def test_return_types_that_cannot_be_unified() -> None:
    err = compile_error(cases.returns_two_types, 3)
    assert isinstance(err, TypingError)
    assert location(err)[1] == 42
    assert "f64" in str(err) and "tuple(i64, i64)" in str(err)


def test_column_of_nested_function_in_a_method_counts_the_removed_indent() -> None:
    holder = cases.Holder()
    nested = holder.method.__func__.__code__.co_consts
    inner_code = next(c for c in nested if hasattr(c, "co_name") and c.co_name == "nested")
    import types

    inner = types.FunctionType(inner_code, cases.__dict__)
    err = compile_error(inner, 1)
    assert location(err) == (FILE, 62, 20)


def test_method_source_lines_are_file_lines() -> None:
    err = compile_error(cases.Holder.method, None, 1)
    assert location(err)[1] >= 61


def test_variable_unassigned_on_some_path_raises_unbound_local_error() -> None:
    f = jit(mode="compiled")(cases.unbound_local)
    assert f(3) == 1
    with pytest.raises(UnboundLocalError, match="'y'"):
        f(-3)


def always_unassigned(n):  # noqa: ANN001, ANN201
    if n > 0:
        return 1
    return z  # noqa: F821


def test_variable_never_assigned_is_a_compile_error() -> None:
    err = compile_error(always_unassigned, 1)
    assert "`z` is not defined" in str(err)


def test_generator_is_rejected() -> None:
    err = compile_error(cases.yields, 1)
    assert location(err)[1] == 72


def test_unsupported_argument_type_names_the_argument() -> None:
    def f(a, b):  # noqa: ANN001, ANN202
        return a

    with pytest.raises(TypeError, match=r"argument `b` has unsupported type bytes"):
        jit(mode="compiled")(f)(1, b"12")


def test_lambda_is_rejected_with_hint() -> None:
    with pytest.raises(UnsupportedError, match="def"):
        jit(mode="compiled")(lambda x: x)(1)
