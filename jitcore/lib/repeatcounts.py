"""`np.repeat(a, counts)` with an array of counts: item i (along `axis`, or of the flattened
array) repeated counts[i] times, as NumPy.

`counts` is 0-d or 1-D, of length 1 (every item the same count) or the length of the axis;
NumPy's ValueErrors for a negative count and for a length that does not broadcast. The array is
viewed as (outer, n, inner) C-ordered blocks around the axis, so one kernel serves every ndim.
"""

from __future__ import annotations

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.lib import arrays as A
from jitcore.lib import layout as L
from jitcore.lib import shapes as S
from jitcore.lib.registry import Resolved, call_kernel
from jitcore.lib.registry import library_kernel as _lib

INT64_MAX = 2**63 - 1


@_lib
def repeat_total(counts, n):  # noqa: ANN001, ANN201
    """The length of the repeated axis: the sum of the counts (broadcast to n items)."""
    m = counts.shape[0]
    if m != n and m != 1:
        raise ValueError("operands could not be broadcast together")
    total = 0
    for i in range(n):
        c = counts[i] if m > 1 else counts[0]
        if c < 0:
            raise ValueError("repeats may not contain negative values.")
        if total > INT64_MAX - c:
            raise ValueError("array is too big")
        total += c
    return total  # (nothing to repeat: NumPy looks at no count, negative or not)


@_lib
def repeat_blocks(a3, counts, out3):  # noqa: ANN001, ANN201
    """out3[o, j, :] = a3[o, i, :] for each of the counts[i] positions j of item i."""
    outer, n, inner = a3.shape
    m = counts.shape[0]
    for o in range(outer):
        j = 0
        for i in range(n):
            c = counts[i] if m > 1 else counts[0]
            for _ in range(c):
                for q in range(inner):
                    out3[o, j, q] = a3[o, i, q]
                j += 1
    return out3


def resolve(t: T.Array, counts: T.Array, axis: int | None, nargs: int) -> Resolved:
    """np.repeat of an array `t` by the array `counts` along `axis` (None: flattened)."""
    if counts.ndim > 1:
        raise TypingError("repeat: repeats must be an int or a 1-D array of ints")
    if counts.dtype.kind not in "iub":
        raise TypingError("repeat: repeats must be integers")
    ndim = max(t.ndim, 1) if axis is not None else 1  # a 0-d array as the 1-d one of its item
    out_t = T.Array(t.dtype, ndim, "C")
    vec = T.Array(T.I64, 1, "C")
    block = T.Array(t.dtype, 3, "C")
    total_k = call_kernel(repeat_total, [vec, T.I64])
    blocks_k = call_kernel(repeat_blocks, [block, vec, block])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a = v[0]
        if axis is None or t.ndim == 0:
            a = S.c_view_or_copy(b, a, [L.size_of(b, L.shapes_of(b, a))])
        k = axis or 0
        c = A.copy_as(b, v[1], T.I64)
        if counts.ndim == 0:
            c = L.make_view(b, c, vec, L.data_of(b, c), [i64(1)], [i64(8)])
        shapes = L.shapes_of(b, a)
        outer, inner = L.size_of(b, shapes[:k]), L.size_of(b, shapes[k + 1 :])
        a3 = S.c_view_or_copy(b, a, [outer, shapes[k], inner])
        total = total_k.lower(b, [c, shapes[k]], {})  # type: ignore[misc]
        out_shapes = [*shapes[:k], total, *shapes[k + 1 :]]
        out = L.allocate(b, t.dtype, out_shapes, "C")
        three = [outer, total, inner]
        strides = L.contiguous_strides(b, three, t.dtype.dtype.itemsize, "C")
        out3 = L.make_view(b, out, block, L.data_of(b, out), three, strides)
        blocks_k.lower(b, [a3, c, out3], {})  # type: ignore[misc]
        return out

    return Resolved((None,) * nargs, out_t, lower, kwargs={"axis": None}, may_raise=True)
