"""The small compiled helpers behind Python's iteration builtins (`jitcore.loops` desugars them).

`for` over `enumerate`, `zip`, `reversed` and ranges nested inside them becomes one counted
loop; what the loop needs of a range (its length, its i-th item, membership) is computed by
these library kernels, plain Python that jitcore compiles like any other function, so they
follow Python's integer rules and stay readable.
"""

from __future__ import annotations

from jitcore.lib.registry import library_kernel as _lib


@_lib
def range_length(start, stop, step):  # noqa: ANN001, ANN201
    """len(range(start, stop, step)) for a non-zero step (range_bounds checked it)."""
    if step > 0:
        if start >= stop:
            return 0
        return (stop - start - 1) // step + 1
    if start <= stop:
        return 0
    return (start - stop - 1) // (-step) + 1


@_lib
def range_contains(x, start, stop, step):  # noqa: ANN001, ANN201
    """`x in range(start, stop, step)`: inside the bounds and on the step's grid."""
    if step > 0:
        if not (start <= x < stop):
            return False
    elif not (stop < x <= start):
        return False
    return (x - start) % step == 0
