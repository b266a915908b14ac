"""Optional values: a variable or a result that is `None` on some paths and a number, an array
or a tuple of them on others (`T.Optional`).

In memory an optional value is `{bool present, inner value}` (all zeros when None, so an
absent array holds a null block that reference counting skips). `typeinfer` joins `None`
with a value into an optional where paths meet, and types every other use of an optional as
a use of its inner value through a `Cast` to the inner type, which `lower_cast` expands into
a check: Python raises TypeError when None meets arithmetic, indexing or a call that wants a
number, and so does the compiled code. `x is None`, `x is not None`, `bool(x)`/`if x:` and
returning or passing the value on need no check.

There is no narrowing by flow: after `if x is None: return`, `x` is still optional, and its
uses check a flag that is always set (one predictable branch).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.ir.markers import MISSING
from jitcore.lib.registry import Operand, Resolved

NONE_USED = "a value that is None here was used as a number or an array"


def involves_optional(cast: ir.Cast) -> bool:
    """Whether `lower` must expand this cast here (into or out of an optional, also inside
    tuples)."""
    return _has_optional(cast.type) or _has_optional(cast.value.type)


def _has_optional(t: T.Type | None) -> bool:
    if isinstance(t, T.Tuple):
        return any(_has_optional(i) for i in t.items)
    return isinstance(t, T.Optional)


def lower_cast(b: LowBuilder, value: ir.Value, to: T.Type) -> ir.Value:
    """`value` converted into or out of an optional (see the module docstring)."""
    source = value.type
    if source == to:
        return value
    if isinstance(to, T.Optional):
        if isinstance(source, T.NoneType):
            return ir.Const(None, type=to)
        if isinstance(source, T.Optional):  # optionals of joined inner types
            present = _present(b, value)
            inner = lower_cast(b, _inner(b, value), to.inner)
            return b.emit(ir.MakeTuple([present, inner], type=to))
        inner = lower_cast(b, value, to.inner)
        return b.emit(ir.MakeTuple([ir.Const(True, type=T.BOOL), inner], type=to))
    if isinstance(source, T.Optional):
        b.raise_if(b.not_(_present(b, value)), TypeError, NONE_USED)
        return lower_cast(b, _inner(b, value), to)
    if isinstance(source, T.Tuple) and isinstance(to, T.Tuple) and _has_optional(to):
        items = [lower_cast(b, b.extract(value, i), t) for i, t in enumerate(to.items)]
        return b.emit(ir.MakeTuple(items, type=to))
    return b.cast(value, to)


def against_none(a: T.Type, b: T.Type) -> bool:
    """An optional compared with None (`x == None` means `x is None` for numbers and arrays)."""
    pair = (type(a), type(b))
    return pair in {(T.Optional, T.NoneType), (T.NoneType, T.Optional)}


def resolve_identity(op: str, a: T.Type, b: T.Type) -> Resolved:
    """`x is None` / `x is not None` of an optional (either side): its flag."""
    if not (isinstance(a, T.NoneType) or isinstance(b, T.NoneType)):
        raise TypingError(
            "`is` compares an optional value only with None",
            hint="write `x is None` or `x is not None`",
        )
    position = 0 if isinstance(a, T.Optional) else 1
    negate = op == "is"

    def lower(bb: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        present = _present(bb, args[position])
        return bb.not_(present) if negate else present

    return Resolved((None, None), T.BOOL, lower)


def resolve_truth(
    op: str, t: T.Optional, resolve_unary: Callable[[str, Operand, Any], Resolved]
) -> Resolved:
    """`bool(x)`, `if x:` and `not x` of an optional: None is false, else the value's truth
    (`resolve_unary` is the operators' rule, which types the value's own truth)."""
    if isinstance(t.inner, T.Array):
        raise TypingError(
            "the truth of an array that may be None is ambiguous",
            hint="test `x is not None` (and then the array's own truth, if you mean it)",
        )
    inner = resolve_unary("truth", Operand(t.inner), None)  # type: ignore[arg-type]
    negate = op == "not"

    def lower(bb: LowBuilder, args: list[ir.Value], kwargs: dict) -> ir.Value:
        present = _present(bb, args[0])
        if inner.const is not MISSING:  # a tuple: its truth is its length's
            truth = present if inner.const else ir.Const(False, type=T.BOOL)
        else:
            value = inner.lower(bb, [_inner(bb, args[0])], {})  # type: ignore[misc]
            truth = bb.and_(present, value)
        return bb.not_(truth) if negate else truth

    return Resolved((None,), T.BOOL, lower)


def _present(b: LowBuilder, value: ir.Value) -> ir.Value:
    return b.emit(ir.Extract(value, 0, type=T.BOOL))


def _inner(b: LowBuilder, value: ir.Value) -> ir.Value:
    t = value.type
    assert isinstance(t, T.Optional)
    return b.emit(ir.Extract(value, 1, type=t.inner))
