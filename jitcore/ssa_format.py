"""Formatted exception messages for `ssa`: `raise E(f"...{x}...")`, `raise E("..." % (a, b))`,
`raise E(x)` and `assert c, f"..."` become a template, its style and the expressions of its
values (`jitcore.lib.excformat` types them; Python formats the message when the exception
reaches it, `jitcore.runtime.excring`).

An f-string becomes the `str.format` template that gives the same text (`f"{x!r:>8}"` ->
`"{!r:>8}"`, literal braces doubled); `"..." % v` keeps its template for `%`; any other message
expression is formatted as `"{}"`, which is `str(x)`, what `E(x)` shows.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from jitcore.runtime.excring import FORMAT, PERCENT, VALUE

if TYPE_CHECKING:
    from jitcore.ssa import _Builder


def formatted_message(b: _Builder, message: ast.expr) -> tuple[str, int, list[ast.expr]]:
    """`(template, style, value expressions)` of a message that is not a constant string."""
    if isinstance(message, ast.JoinedStr):
        return _fstring(b, message)
    if (
        isinstance(message, ast.BinOp)
        and isinstance(message.op, ast.Mod)
        and isinstance(message.left, ast.Constant)
        and isinstance(message.left.value, str)
    ):
        right = message.right
        values = list(right.elts) if isinstance(right, ast.Tuple) else [right]
        return message.left.value, PERCENT, values
    return "{}", VALUE, [message]


def _fstring(b: _Builder, node: ast.JoinedStr) -> tuple[str, int, list[ast.expr]]:
    parts: list[str] = []
    values: list[ast.expr] = []
    for piece in node.values:
        if isinstance(piece, ast.Constant):
            parts.append(str(piece.value).replace("{", "{{").replace("}", "}}"))
            continue
        assert isinstance(piece, ast.FormattedValue)
        conversion = "" if piece.conversion == -1 else "!" + chr(piece.conversion)
        spec = ""
        if piece.format_spec is not None:
            fields = piece.format_spec
            if not (
                isinstance(fields, ast.JoinedStr)
                and all(isinstance(v, ast.Constant) for v in fields.values)
            ):
                raise b.unsupported(
                    fields,
                    "a format spec computed from values (`{x:{width}}`) is not supported",
                    'write the width or precision as a constant: f"{x:8.3f}"',
                )
            spec = ":" + "".join(str(v.value) for v in fields.values)  # type: ignore[attr-defined]
        parts.append("{" + conversion + spec + "}")
        values.append(piece.value)
    return "".join(parts), FORMAT, values
