"""Errors raised by jitcore, each carrying the user's source coordinates.

A user error reads like a compiler's::

    kernels.py:12:13: TypingError: `r` is i64 on one path and tuple(i64, i64) on another
            r = (n, -n)
                ^~~~~~~
    hint: give `r` one type on every path
    note: while compiling pick(n: i64)
"""

from __future__ import annotations

import linecache
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SourceLoc:
    """A position in the user's file: 1-based line, 0-based column, as `ast` counts them."""

    file: str
    line: int
    col: int = 0
    end_col: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col + 1}"

    def excerpt(self) -> str:
        """The source line with a caret (and tildes) under the span, or '' if unavailable."""
        text = linecache.getline(self.file, self.line).rstrip("\n")
        if not text:
            return ""
        width = 1
        if self.end_col is not None and self.end_col > self.col:
            width = self.end_col - self.col
        marker = " " * self.col + "^" + "~" * (width - 1)
        return f"    {text}\n    {marker}"


UNKNOWN_LOC = SourceLoc("<unknown>", 0, 0)


class JitError(Exception):
    """Base of every error jitcore raises while compiling."""

    def __init__(
        self,
        message: str,
        loc: SourceLoc | None = None,
        hint: str | None = None,
        note: str | None = None,
    ) -> None:
        self.message = message
        self.loc = loc
        self.hint = hint
        self.note = note
        super().__init__(self._render())

    def _render(self) -> str:
        kind = type(self).__name__
        head = f"{self.loc}: {kind}: {self.message}" if self.loc else f"{kind}: {self.message}"
        lines = [head]
        if self.loc is not None:
            excerpt = self.loc.excerpt()
            if excerpt:
                lines.append(excerpt)
        if self.hint:
            lines.append(f"hint: {self.hint}")
        if self.note:
            lines.append(f"note: {self.note}")
        return "\n".join(lines)

    def located(self, loc: SourceLoc) -> JitError:
        """Give the error `loc` if it has no location yet (an error raised by a typing rule
        or a callee binding is placed at the call that used it)."""
        if self.loc is None:
            self.loc = loc
            self.args = (self._render(),)
        return self

    def with_note(self, note: str) -> JitError:
        """Attach `note` (keeping the first one: the innermost compile is the useful one)."""
        if self.note is None:
            self.note = note
            self.args = (self._render(),)
        return self

    def __str__(self) -> str:
        return self._render()


class UnsupportedError(JitError):
    """The function uses syntax or a library call that jitcore does not compile."""


class TypingError(JitError):
    """The function's values cannot be given one consistent type."""


class InternalCompilerError(JitError):
    """A jitcore bug: an exception escaped a stage. The original is the `__cause__`."""


class JitFallbackWarning(UserWarning):
    """AUTO mode ran a function as Python because it could not be compiled."""
