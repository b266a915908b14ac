"""Library kernels for selecting and locating elements (see `npkernels`): `take` on (before,
axis, after) blocks, `put`, `take_along_axis` on rows, `nan_to_num`, index (un)raveling and the
sorted-set operations. The rules of `npselect` bring their operands to the flat or blocked C
arrays these kernels take; sorting and uniqueness come from `npsortk`.
"""

from __future__ import annotations

import numpy as np

from jitcore.lib.npsortk import search_left, sort_rows, unique_sorted
from jitcore.lib.registry import library_kernel as _lib

# --- take, put, take_along_axis ---------------------------------------------------------------


@_lib
def take_blocks(a, idx, out, axis):  # noqa: ANN001, ANN201
    """out[i, j, k] = a[i, idx[j], k]: NumPy's take along the middle axis of (before, n,
    after) blocks, with its errors (an index is checked once per block, as NumPy's loop does;
    none when there is no block)."""
    n = a.shape[1]
    if n == 0 and out.size != 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    for i in range(a.shape[0]):
        for j in range(idx.shape[0]):
            k = idx[j]
            if k < -n or k >= n:
                raise IndexError(f"index {k} is out of bounds for axis {axis} with size {n}")
            if k < 0:
                k += n
            for m in range(a.shape[2]):
                out[i, j, m] = a[i, k, m]
    return out


@_lib
def put_flat(a, idx, v):  # noqa: ANN001, ANN201
    """a[idx[i]] = v[i % len(v)] on the flat C array a, NumPy's put with mode='raise'."""
    n = a.shape[0]
    nv = v.shape[0]
    if n == 0 and idx.shape[0] > 0:
        raise IndexError("cannot replace elements of an empty array")
    if nv == 0:
        return
    for i in range(idx.shape[0]):
        k = idx[i]
        if k < -n or k >= n:
            raise IndexError(f"index {k} is out of bounds for axis 0 with size {n}")
        if k < 0:
            k += n
        a[k] = v[i % nv]


@_lib
def take_rows(a, idx, out, axis):  # noqa: ANN001, ANN201
    """out[r, j] = a[r, idx[r, j]] for rows of the same count (take_along_axis)."""
    n = a.shape[1]
    for r in range(idx.shape[0]):
        for j in range(idx.shape[1]):
            k = idx[r, j]
            if k < -n or k >= n:
                raise IndexError(f"index {k} is out of bounds for axis {axis} with size {n}")
            if k < 0:
                k += n
            out[r, j] = a[r, k]
    return out


# --- nan_to_num ------------------------------------------------------------------------------


@_lib
def nan_to_num_flat(x, out, nan, posinf, neginf):  # noqa: ANN001, ANN201
    """out = x with NaN, +inf and -inf replaced (real items; complex arrays come as their
    real and imaginary parts)."""
    for i in range(x.shape[0]):
        v = x[i]
        if v != v:
            out[i] = nan
        elif v == np.inf:
            out[i] = posinf
        elif v == -np.inf:
            out[i] = neginf
        else:
            out[i] = v
    return out


@_lib
def nan_to_num_real(v, nan, posinf, neginf):  # noqa: ANN001, ANN201
    if v != v:
        return nan
    if v == np.inf:
        return posinf
    if v == -np.inf:
        return neginf
    return v


# --- unravel_index, ravel_multi_index --------------------------------------------------------


@_lib
def unravel_flat(idx, dims, out):  # noqa: ANN001, ANN201
    """out[d, i] = the d-th coordinate of flat index idx[i] in a C array of shape dims."""
    nd = dims.shape[0]
    size = 1
    for d in range(nd):
        size *= dims[d]
    for i in range(idx.shape[0]):
        k = idx[i]
        if k < 0 or k >= size:
            raise ValueError(f"index {k} is out of bounds for array with size {size}")
        for d in range(nd - 1, -1, -1):
            out[d, i] = k % dims[d]
            k //= dims[d]
    return out


@_lib
def ravel_step(acc, coord, dim, first):  # noqa: ANN001, ANN201
    """acc = acc * dim + coord (acc = coord for the first axis), checking 0 <= coord < dim."""
    for i in range(acc.shape[0]):
        c = coord[i]
        if c < 0 or c >= dim:
            raise ValueError("invalid entry in coordinates array")
        acc[i] = c if first else acc[i] * dim + c
    return acc


@_lib
def check_dims(dims):  # noqa: ANN001, ANN201
    for d in range(dims.shape[0]):
        if dims[d] < 0:
            raise ValueError("dimensions must be non-negative")


# --- isin and the set operations -------------------------------------------------------------


@_lib
def sorted_copy(a):  # noqa: ANN001, ANN201
    """a (flat, C) sorted, NaN last, as a new array."""
    s = a.copy()
    sort_rows(s.reshape((1, s.shape[0])))
    return s


@_lib
def unique_of(a):  # noqa: ANN001, ANN201
    """np.unique of the flat array a (NaNs collapse to one)."""
    return unique_sorted(sorted_copy(a))


@_lib
def isin_flat(x, test, out, invert):  # noqa: ANN001, ANN201
    """out[i] = x[i] == some item of test (NaN is in nothing), inverted if asked."""
    s = sorted_copy(test)
    n = s.shape[0]
    for i in range(x.shape[0]):
        v = x[i]
        k = search_left(s, v)
        found = k < n and s[k] == v
        out[i] = found != invert
    return out


@_lib
def joined(a, b):  # noqa: ANN001, ANN201
    out = np.empty(a.shape[0] + b.shape[0], a.dtype)
    out[: a.shape[0]] = a
    out[a.shape[0] :] = b
    return out


@_lib
def union_flat(a, b):  # noqa: ANN001, ANN201
    return unique_of(joined(a, b))


@_lib
def intersect_flat(a, b):  # noqa: ANN001, ANN201
    """NumPy's intersect1d: the sorted uniques of both, items equal to their successor."""
    aux = sorted_copy(joined(unique_of(a), unique_of(b)))
    out = np.empty(aux.shape[0], aux.dtype)
    k = 0
    for i in range(aux.shape[0] - 1):
        if aux[i + 1] == aux[i]:
            out[k] = aux[i]
            k += 1
    return out[:k]


@_lib
def setxor_flat(a, b):  # noqa: ANN001, ANN201
    """NumPy's setxor1d: the sorted uniques of both, items unequal to both neighbours (NaN
    equals nothing, so a NaN in both stays twice, as in NumPy)."""
    aux = sorted_copy(joined(unique_of(a), unique_of(b)))
    n = aux.shape[0]
    out = np.empty(n, aux.dtype)
    k = 0
    for i in range(n):
        if (i == 0 or aux[i] != aux[i - 1]) and (i == n - 1 or aux[i + 1] != aux[i]):
            out[k] = aux[i]
            k += 1
    return out[:k]


@_lib
def setdiff_flat(a, b, assume_unique):  # noqa: ANN001, ANN201
    """NumPy's setdiff1d: the items of a (its uniques unless `assume_unique`) not in b."""
    u = a if assume_unique else unique_of(a)
    keep = isin_flat(u, b, np.empty(u.shape[0], np.bool_), True)
    out = np.empty(u.shape[0], u.dtype)
    k = 0
    for i in range(u.shape[0]):
        if keep[i]:
            out[k] = u[i]
            k += 1
    return out[:k]


# --- ediff1d ---------------------------------------------------------------------------------


@_lib
def ediff_flat(a, begin, end):  # noqa: ANN001, ANN201
    """begin, then a[i + 1] - a[i], then end (all of a's dtype, integers wrap)."""
    n = a.shape[0]
    d = n - 1 if n > 0 else 0
    nb = begin.shape[0]
    out = np.empty(nb + d + end.shape[0], a.dtype)
    for i in range(nb):
        out[i] = begin[i]
    for i in range(d):
        out[nb + i] = a[i + 1] - a[i]
    for i in range(end.shape[0]):
        out[nb + d + i] = end[i]
    return out


# --- select ----------------------------------------------------------------------------------


@_lib
def select_lists(conds, choices, default):  # noqa: ANN001, ANN201
    """np.select of typed lists of arrays of one shape (no broadcasting)."""
    n = len(conds)
    if n != len(choices):
        raise ValueError("list of cases must be same length as list of conditions")
    if n == 0:
        raise ValueError("select with an empty condition list is not possible")
    shape = conds[0].shape
    out = np.full(shape, default)
    for k in range(n - 1, -1, -1):
        c = conds[k]
        ch = choices[k]
        if c.shape != shape or ch.shape != shape:
            raise ValueError(
                "np.select: the arrays of condlist and choicelist must have one shape"
            )
        out[c] = ch[c]
    return out
