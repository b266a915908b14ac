"""Library kernels for `shapes`, written in Python and compiled by jitcore itself."""

from __future__ import annotations

import numpy as np

from jitcore.lib.registry import library_kernel as _lib


@_lib
def nocopy_strides(old_shape, old_strides, new_shape, new_strides, itemsize):  # noqa: ANN001, ANN201
    """NumPy's `_attempt_nocopy_reshape` (C order): fill `new_strides` so that a view of the
    old array has `new_shape`, and return True; False if no view can (then reshape copies).
    Axes of length 1 are dropped from the old shape first; each group of old axes whose
    product is one group of new axes must be contiguous among themselves. The sizes are
    equal and non-zero (the caller checked)."""
    n = old_shape.shape[0]
    olddims = np.empty(n, np.int64)
    oldstr = np.empty(n, np.int64)
    oldnd = 0
    for i in range(n):
        if old_shape[i] != 1:
            olddims[oldnd] = old_shape[i]
            oldstr[oldnd] = old_strides[i]
            oldnd += 1
    newnd = new_shape.shape[0]
    oi, oj, ni, nj = 0, 1, 0, 1
    while ni < newnd and oi < oldnd:
        np_ = new_shape[ni]
        op = olddims[oi]
        while np_ != op:
            if np_ < op:
                np_ *= new_shape[nj]
                nj += 1
            else:
                op *= olddims[oj]
                oj += 1
        for ok in range(oi, oj - 1):
            if oldstr[ok] != olddims[ok + 1] * oldstr[ok + 1]:
                return False
        new_strides[nj - 1] = oldstr[oj - 1]
        nk = nj - 1
        while nk > ni:
            new_strides[nk - 1] = new_strides[nk] * new_shape[nk]
            nk -= 1
        ni = nj
        nj += 1
        oi = oj
        oj += 1
    last = itemsize
    if ni >= 1:
        last = new_strides[ni - 1]
    for nk in range(ni, newnd):
        new_strides[nk] = last
    return True
