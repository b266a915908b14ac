"""Typing of formatted exception messages (`raise ValueError(f"n={n}")`, `"... %d" % n`,
`raise ValueError(x)`, `assert c, f"..."`): `ssa` turns the message into a template and its
values, a call of the `formatted_exception` marker whose result the function raises; this rule
checks the values (numbers, bools, strings) and lowers it to `excformatted`, which writes them
into the runtime's ring for Python to format (`jitcore.runtime.excring`)."""

from __future__ import annotations

from typing import cast

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.ir.markers import formatted_exception
from jitcore.lib.registry import Operand, Resolved, register_function
from jitcore.runtime.excring import MAX_VALUES


@register_function(formatted_exception)
def _formatted_exception(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    exc, template, style = cast(type, args[0].const), str(args[1].const), int(args[2].const)  # type: ignore[call-overload]
    values = args[3:]
    if len(values) > MAX_VALUES:
        raise TypingError(
            f"an exception message formats at most {MAX_VALUES} values",
            hint="build the message from fewer values",
        )
    codes = ",".join(_code(v) for v in values)

    def lower(b: LowBuilder, operands: list[ir.Value], kw: dict) -> ir.Value:
        return b.emit(
            ir.ExcFormatted(
                exc,
                template,
                style,
                codes,
                list(operands[3:]),
                type=T.PTR,
            )
        )

    return Resolved((None,) * len(args), T.PTR, lower)


def _code(value: Operand) -> str:
    """How Python reads the value back: `str`, or `<dtype>:py` (a Python number: what Python
    formats for a value computed from Python numbers) / `<dtype>:np` (a NumPy scalar)."""
    t = value.type
    if isinstance(t, T.Str):
        return "str"
    if isinstance(t, T.NoneType):
        return "none"
    if isinstance(t, T.Scalar) and not t.is_complex:
        return f"{t.dtype.str}:{'py' if value.weak else 'np'}"
    raise TypingError(
        f"an exception message cannot format a value of type {t}",
        hint="format numbers, bools and strings (the parts of a complex number separately)",
    )
