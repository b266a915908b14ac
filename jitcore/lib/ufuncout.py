"""`out=` of NumPy's ufuncs: `np.add(a, b, out=c)` (or `np.add(a, b, c)`) computes into `c` and
returns it, as NumPy does.

The inputs broadcast to `out`'s shape (NumPy's ValueError when they do not); the loop's result
is cast to `out`'s dtype under NumPy's default `casting='same_kind'` (a cast it forbids, such
as float64 into an int64 array, is a compile-time TypingError, where NumPy raises its
UFuncTypeError when called); an input whose memory overlaps `out` other than element for
element is copied first, as NumPy does. `out` may be given as a one-item tuple too.
"""

from __future__ import annotations

import numpy as np

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.lib import arrays as A
from jitcore.lib import layout as L
from jitcore.lib.loops import Recipe, elementwise
from jitcore.lib.registry import Operand, Resolved


def split_out(
    name: str, nin: int, args: list[Operand], kwargs: dict[str, Operand]
) -> tuple[Operand | None, dict[str, Operand]]:
    """The `out` operand of a ufunc call (positional after the inputs, or keyword; None when
    not given or None) and the keyword arguments left. TypingError for a second output."""
    rest = dict(kwargs)
    out = rest.pop("out", None)
    if len(args) > nin + 1:
        raise TypingError(f"np.{name} takes {nin} inputs and one output")
    if len(args) == nin + 1:
        if out is not None:
            raise TypingError(f"np.{name}: cannot specify 'out' as both a positional and keyword")
        out = args[nin]
    if out is not None and isinstance(out.type, T.NoneType):
        return None, rest
    return out, rest


def _out_type(name: str, out: Operand) -> T.Array:
    t = out.type
    if isinstance(t, T.Tuple) and len(t.items) == 1:
        t = t.items[0]
    if not isinstance(t, T.Array):
        raise TypingError(f"np.{name}: out must be an array (or a tuple of one array)")
    return t


def into(
    name: str, recipe: Recipe, args: list[Operand], out: Operand, nin: int, kwargs: dict
) -> Resolved:
    """The ufunc's loop `recipe` computed into the `out` array; the result is `out`."""
    out_t = _out_type(name, out)
    if not np.can_cast(recipe.out.dtype, out_t.dtype.dtype, "same_kind"):
        raise TypingError(
            f"np.{name}: Cannot cast ufunc '{name}' output from {recipe.out.dtype!r} to "
            f"{out_t.dtype.dtype!r} with casting rule 'same_kind'"
        )
    ndims = [a.type.ndim for a in args[:nin] if isinstance(a.type, T.Array)]
    if any(n > out_t.ndim for n in ndims):
        raise TypingError(f"np.{name}: an input has more dimensions than out")
    tupled = isinstance(out.type, T.Tuple)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        target = kw["out"] if "out" in kw else v[nin]
        if tupled:
            target = b.extract(target, 0)
        inputs, full = A.update_operands(b, recipe.prepare(b, v[:nin]), target)
        dtype = out_t.dtype
        elementwise(
            b, inputs, dtype, lambda bb, xs: bb.cast(recipe.fn(bb, xs), dtype), target, full
        )
        return L.make_view(
            b, target, out_t, L.data_of(b, target), L.shapes_of(b, target), L.strides_of(b, target)
        )

    return Resolved(
        (None,) * len(args), out_t, lower, kwargs=dict.fromkeys(kwargs), may_raise=True
    )
