"""A second shrinker, on the program's syntax: delete statements while the finding stays.

Hypothesis shrinks the choices a program was drawn from; a statement in the middle is hard
to delete that way (the draws after it shift). This pass works on the shrunk program's
syntax tree: it tries, outermost first, to delete each statement (a helper function
included), to replace an `if`/`for`/`while`/`try` by one of its bodies, and keeps an edit
when the program still shows a finding of the same kind on the same input.

An edit may break what the generator guarantees, so a candidate counts only if its Python
run is still valid: no NameError, UnboundLocalError, TypeError or AttributeError, every int
local within int64 at every line (a deleted `% K` could let an int grow past it, where
compiled code wraps), and jitcore does not reject it.
"""

from __future__ import annotations

import ast
import copy
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

from jitcheck.compare import INT64_MAX, INT64_MIN
from jitcheck.fuzz.grammar import HEADER, Program
from jitcheck.fuzz.runner import Finding, Runner
from jitcheck.values import fresh_copy

_INVALID = (NameError, UnboundLocalError, TypeError, AttributeError, RecursionError)
_FILENAME = "<fuzz reduce>"
Edit = tuple[int, int, str]  # (statement list, index in it, what to do)


def reduce_program(
    runner: Runner,
    program: Program,
    args: tuple[Any, ...],
    same_kind: Callable[[Finding], bool],
    seconds: float = 60.0,
) -> tuple[Program, Finding | None]:
    """The smallest program reached by edits that keep a finding accepted by `same_kind`
    on `args`, and that finding (None if no edit was kept)."""
    deadline = time.monotonic() + seconds
    tree = ast.parse(program.function_source())
    kept: Finding | None = None
    progress = True
    while progress and time.monotonic() < deadline:
        progress = False
        text = ast.unparse(tree)
        for edit in _edits(tree):
            if time.monotonic() >= deadline:
                break
            candidate = _apply(tree, edit)
            if candidate is None or ast.unparse(candidate) == text:
                continue  # (deleting the `pass` of an empty body changes nothing)
            reduced = _program(program, candidate)
            finding = _check(runner, reduced, args, same_kind)
            if finding is not None:
                tree, kept, progress = candidate, finding, True
                break
    return _program(program, tree), kept


def _program(program: Program, tree: ast.Module) -> Program:
    functions = "\n\n\n".join(ast.unparse(node) for node in tree.body)
    return Program(
        HEADER + functions + "\n", program.entry, program.params, program.shapes,
        program.param_names,
    )  # fmt: skip


def _check(
    runner: Runner, program: Program, args: tuple[Any, ...], same_kind: Callable[[Finding], bool]
) -> Finding | None:
    if not valid_python(program, args):
        return None
    result = runner.run(program, [args])
    if result.finding is not None and same_kind(result.finding):
        return result.finding
    return None


def valid_python(program: Program, args: tuple[Any, ...]) -> bool:
    """Whether the Python run is one the generator could have made (see the module doc)."""
    namespace: dict[str, Any] = {"__name__": "jitcheck_fuzz_reduce"}
    try:
        exec(compile(program.source, _FILENAME, "exec"), namespace)  # noqa: S102
    except SyntaxError:
        return False
    if program.entry not in namespace:
        return False
    tracer = _IntRange()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        sys.settrace(tracer)
        try:
            namespace[program.entry](*fresh_copy(args))
        except _INVALID:
            return False
        except Exception:  # noqa: BLE001,S110 - the program's own errors are valid outcomes
            pass
        finally:
            sys.settrace(None)
    return tracer.within


class _IntRange:
    """A trace function that records whether every int local of the program's frames stayed
    within int64 at every line."""

    def __init__(self) -> None:
        self.within = True

    def __call__(self, frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename != _FILENAME:
            return None
        self._look(frame)
        return self._line

    def _line(self, frame: FrameType, event: str, arg: Any) -> Any:
        self._look(frame)
        return self._line

    def _look(self, frame: FrameType) -> None:
        for value in frame.f_locals.values():
            if isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
                self.within = False


def _lists(tree: ast.AST) -> Iterator[list[ast.stmt]]:
    """Every statement list in the tree, in a fixed order (outermost first)."""
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            items = getattr(node, name, None)
            if isinstance(items, list) and items and isinstance(items[0], ast.stmt):
                yield items


def _edits(tree: ast.Module) -> Iterator[Edit]:
    for k, items in enumerate(_lists(tree)):
        for i, stmt in enumerate(items):
            if isinstance(stmt, ast.FunctionDef) and stmt.name != "f":
                yield (k, i, "drop")
                continue
            if isinstance(stmt, ast.FunctionDef):
                continue
            yield (k, i, "drop")
            if isinstance(stmt, ast.If | ast.For | ast.While | ast.Try):
                yield (k, i, "body")
            if isinstance(stmt, ast.If) and stmt.orelse:
                yield (k, i, "orelse")
            if isinstance(stmt, ast.Try):
                yield (k, i, "handler")


def _apply(tree: ast.Module, edit: Edit) -> ast.Module | None:
    """A copy of `tree` with `edit` made, or None if it cannot be made."""
    k, i, action = edit
    copied = copy.deepcopy(tree)
    items = list(_lists(copied))[k]
    stmt = items[i]
    if action == "drop":
        replacement: list[ast.stmt] = []
    elif action == "body":
        replacement = list(stmt.body)  # type: ignore[attr-defined]
    elif action == "orelse":
        replacement = list(stmt.orelse)  # type: ignore[attr-defined]
    else:
        replacement = list(stmt.handlers[0].body)  # type: ignore[attr-defined]
    items[i : i + 1] = replacement
    if not items:
        items.append(ast.Pass())
    ast.fix_missing_locations(copied)
    return copied
