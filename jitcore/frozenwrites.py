"""Writes into arrays frozen into compiled code are refused while typing (`typeinfer` asks).

A module-level array (or one held in a constant tuple, a Module's tuple attribute) is copied
into the compiled code as a constant: a write there would change a hidden copy that Python
never sees, so it is a `TypingError` at the line that writes. A write is `a[i] = x`, an
augmented assignment to an array, a method that writes into its receiver (`sort`, `fill`),
a function that writes into its first argument (`np.copyto`, `np.fill_diagonal`) or into its
`out=`; the array written may be the constant itself or a view of it (an item of a tuple, a
slice, `.T`, `reshape`, `np.split`'s parts, ...).

Not covered (README: a documented hole): a frozen array passed to a jitted callee that writes
into its parameter, written through `.flat`, through a list holding it, or by
`np.nan_to_num(copy=False)`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import cast

import numpy as np

from jitcore.errors import SourceLoc, TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.lib.registry import Operand, Resolved

# Array methods that write into their receiver.
WRITING_METHODS = frozenset({"sort", "fill", "partition", "put", "itemset", "resize"})
# Functions that write into their first argument (and any function's `out=`).
WRITING_FUNCTIONS = frozenset(
    {np.copyto, np.put, np.place, np.putmask, np.fill_diagonal, np.random.shuffle}
)
# Operations whose result may be a view of their first array operand (a write through it
# writes there), by implementation name; for the splits and `broadcast_arrays`, the parts of
# the list or tuple they return are such views.
VIEWS = frozenset(
    f"{prefix}.{name}"
    for prefix in ("np", "array")
    for name in (
        "reshape", "ravel", "transpose", "swapaxes", "squeeze", "view", "asarray",
        "ascontiguousarray", "asfortranarray", "moveaxis", "expand_dims", "atleast_1d",
        "atleast_2d", "atleast_3d", "broadcast_to", "flip", "fliplr", "flipud", "rot90",
        "diagonal", "real", "imag", "split", "array_split", "hsplit", "vsplit", "dsplit",
        "broadcast_arrays", "trim_zeros",
    )
)  # fmt: skip


def refuse(v: ir.Value, operand: Callable[[ir.Value], Operand], loc: SourceLoc) -> None:
    """A TypingError if array `v`, which is written at `loc`, is frozen into the code."""
    if in_constant(v, operand):
        raise TypingError(
            "an array frozen into compiled code (a module-level array, or one held in a "
            "constant tuple) is read-only there",
            loc=loc,
            hint="pass the array as an argument to write into it",
        )


def writes_receiver(method: str, receiver: T.Type) -> bool:
    """Whether calling array method `method` writes into its receiver."""
    return method in WRITING_METHODS and isinstance(receiver, T.Array)


def written_arguments(func: object, call: ir.Call) -> Iterator[ir.Value]:
    """The arguments a call of `func` writes into (its `out=`, its first argument)."""
    if "out" in call.kwargs:
        yield call.kwargs["out"]
    if func in WRITING_FUNCTIONS and call.args:
        yield call.args[0]


def in_constant(v: ir.Value, operand: Callable[[ir.Value], Operand]) -> bool:
    """Whether array `v` is (a part or view of) a constant frozen into the compiled code."""
    while True:
        if isinstance(v, ir.Const) or operand(v).is_const:
            return True
        if isinstance(v, ir.GetItem):
            v = v.obj
        elif isinstance(v, ir.GetAttr) and v.attr in ("T", "real", "imag"):
            v = v.obj
        elif isinstance(v, ir.Call) and view_source(v) is not None:
            v = cast(ir.Value, view_source(v))
        else:
            return False


def view_source(call: ir.Call) -> ir.Value | None:
    """The array `call` may return a view of (`TABLE.reshape(3)`, `np.asarray(TABLE)`)."""
    impl = call.impl
    if not isinstance(impl, Resolved) or impl.name not in VIEWS:
        return None
    func = call.func
    if isinstance(func, ir.GetAttr):  # a method: the receiver
        return func.obj
    return call.args[0] if call.args else None
