"""Compiled helpers behind Python's iteration builtins (`jitcore.ssa_iteration` emits calls).

Library kernels: plain Python that jitcore compiles like any other function, so they follow
Python's integer rules and stay readable. A range's length and items are `ir.markers`'
`range_count` / `range_item`.
"""

from __future__ import annotations

from jitcore.lib.registry import library_kernel as _lib


@_lib
def range_contains(x, start, stop, step):  # noqa: ANN001, ANN201
    """`x in range(start, stop, step)`: inside the bounds and on the step's grid."""
    if step > 0:
        if not (start <= x < stop):
            return False
    elif not (stop < x <= start):
        return False
    return (x - start) % step == 0
