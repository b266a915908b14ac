"""Calls with `*args` of a tuple (`f(*t)`, `f(a, *t[1:])`): spread at compile time.

`ssa` wraps each starred argument in a call of `spread` (typed as the tuple itself); typing
resolves the call as if each tuple item were an argument of its own, and the emitter takes the
items out of the tuples before calling the real implementation. A tuple's length is known when
the function is compiled, so this is Python's `f(*t)` for any tuple.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.lib.registry import Operand, Resolved, register_function

if TYPE_CHECKING:
    from jitcore.typeinfer import _Inference


def spread(items: tuple) -> tuple:
    """Marks a starred argument (`*items`) in a call; never called at run time."""
    return items


@register_function(spread)
def _spread(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    t = args[0].type
    if not isinstance(t, T.Tuple):
        raise TypingError(
            f"`*` in a call takes a tuple here, not {t}",
            hint="pass a tuple (its length is known when compiling), or the items one by one",
        )
    return Resolved((None,), t, lambda b, v, kw: v[0])


def is_spread(v: ir.Value) -> bool:
    return isinstance(v, ir.Call) and isinstance(v.func, ir.Const) and v.func.value is spread


def resolve_spread_call(inference: _Inference, call: ir.Call) -> Resolved:
    """Type `f(a, *t, b)` as `f(a, t[0], t[1], ..., b)`."""
    flat: list[ir.Value] = []
    widths: list[int | None] = []  # None: a plain argument; n: a tuple of n items spread
    for arg in call.args:
        if not is_spread(arg):
            flat.append(arg)
            widths.append(None)
            continue
        t = cast(T.Tuple, inference.type_of(arg))
        origin = inference.origin_of(arg)
        for k, item in enumerate(t.items):
            stand_in = ir.Cast(arg, type=item)  # never emitted: it only carries a type
            inference.origin[stand_in] = origin[k] if isinstance(origin, tuple) else origin
            flat.append(stand_in)
        widths.append(len(t.items))
    inner = inference.resolve_call(ir.Call(call.func, flat, dict(call.kwargs), loc=call.loc))
    inner_lower = inner.lower
    if inner_lower is None:
        return Resolved((None,) * len(call.args), inner.ret, const=inner.const)

    def lower(b: LowBuilder, vals: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        items: list[ir.Value] = []
        for v, width in zip(vals, widths):
            items.extend([v] if width is None else [b.extract(v, k) for k in range(width)])
        items = [
            b.cast(v, t) if t is not None else v
            for v, t in zip(items, [*inner.args, *[None] * len(items)])
        ]
        kw = {k: _cast(b, v, inner.kwargs.get(k)) for k, v in kw.items()}
        return inner_lower(b, items, kw)

    return Resolved(
        (None,) * len(call.args),
        inner.ret,
        lower,
        kwargs=dict(inner.kwargs),
        python_result=inner.python_result,
        may_raise=inner.may_raise,
    )


def _cast(b: LowBuilder, v: ir.Value, t: T.Type | None) -> ir.Value:
    return v if t is None else b.cast(v, t)
