"""Library kernels for `npextra` (see `npkernels`): the bounds of the parts of a split by
indices, the NaN-aware medians and quantiles (on the selections and quantiles of `npsortk`),
matrix powers, condition numbers and the matrix norms of singular values (on `lapack`).
The rules in `npextra` pass operands already converted to the dtypes named here.
"""

from __future__ import annotations

import numpy as np

from jitcore.lib.lapack import N_, LinAlgError, inv_kernel, svd_kernel
from jitcore.lib.npkernels import pairwise_sum
from jitcore.lib.npsortk import intro_select, largest_before, median_rows, quantile_rows
from jitcore.lib.registry import library_kernel as _lib
from jitcore.lib.registry import nonnegative_kernel as _nonneg

# --- split ------------------------------------------------------------------------------------


@_lib
def clipped(x, n):  # noqa: ANN001, ANN201
    """Where a slice bound `x` of Python's `a[x:]` lands in a length-n axis."""
    if x < 0:
        x += n
        if x < 0:
            x = 0
    elif x > n:
        x = n
    return x


@_lib
def split_bounds(idx, n):  # noqa: ANN001, ANN201
    """(start, length) of each of the len(idx) + 1 parts `a[0:idx[0]]`, `a[idx[0]:idx[1]]`,
    ..., `a[idx[-1]:n]` of a length-n axis, flat: NumPy's array_split by indices, each part a
    Python slice (negative indices count from the end, bounds clip, a stop before its start
    gives an empty part)."""
    m = idx.shape[0]
    out = np.empty(2 * (m + 1), np.int64)
    for i in range(m + 1):
        start = 0
        if i > 0:
            start = clipped(idx[i - 1], n)
        stop = n
        if i < m:
            stop = clipped(idx[i], n)
        out[2 * i] = start
        out[2 * i + 1] = stop - start if stop > start else 0
    return out


@_lib
def int_list_array(items):  # noqa: ANN001, ANN201
    """A typed list of ints as a 1-D int64 array."""
    out = np.empty(len(items), np.int64)
    for i in range(len(items)):
        out[i] = items[i]
    return out


# --- nanmedian, nanquantile, nanpercentile ------------------------------------------------------


@_nonneg
def compact_numbers(row):  # noqa: ANN001, ANN201
    """Move the items of `row` that are not NaN to its front, in order; how many there are."""
    c = 0
    for i in range(row.shape[0]):
        x = row[i]
        if x == x:
            row[c] = x
            c += 1
    return c


@_lib
def nanmedian_rows(a, out, masked):  # noqa: ANN001, ANN201
    """NumPy's nanmedian of each row of a (a float copy, rearranged here): NaN for a row of
    NaNs only, else the median of the other items. NumPy computes it two ways: its median of
    them (a 1-D array, axis=None, a row of 600 items or more), or, along an axis of a larger
    array (`masked`), the masked-array median, which halves the sum of the two middle items,
    the middle one twice for an odd count (so a middle item beyond half the largest float
    gives inf, as it does in NumPy)."""
    n = a.shape[1]
    for r in range(a.shape[0]):
        row = a[r]
        c = compact_numbers(row)
        if c == 0:
            out[r] = np.nan
        elif masked and n < 600:
            h = c // 2
            intro_select(row, 0, c, h)
            hi = row[h]
            lo = hi
            if c % 2 == 0:
                lo = largest_before(row, h)
            out[r] = (lo + hi) / 2
        else:
            median_rows(a[r : r + 1, :c], out[r : r + 1])
    return out


@_lib
def nanquantile_rows(a, q, out, exact):  # noqa: ANN001, ANN201
    """out[j, r] = NumPy's linear quantile q[j] of the items of row r of a that are not NaN
    (`quantile_rows` of them; `exact`: q of integers, items taken without interpolating); NaN
    for a row of NaNs only."""
    for r in range(a.shape[0]):
        c = compact_numbers(a[r])
        if c == 0:
            if out.dtype.kind != "f":
                raise ValueError(
                    "nanquantile of no items with integer q: NumPy returns NaN (the nanmean "
                    "of an empty array), which the integer result cannot hold"
                )
            for j in range(q.shape[0]):
                out[j, r] = np.nan
        else:
            quantile_rows(a[r : r + 1, :c], q, out[:, r : r + 1], exact)
    return out


# --- np.linalg: matrix_power, cond, the matrix norms of singular values --------------------------


@_lib
def mat_power(base, n):  # noqa: ANN001, ANN201
    """base ** n (n >= 1) by NumPy's products, in its order: n = 1, 2, 3 directly, else the
    bits of n from the lowest, squaring as it goes (the order shows in float rounding)."""
    if n == 1:
        return base.copy()
    if n == 2:
        return base @ base
    if n == 3:
        return (base @ base) @ base
    z = base
    result = base
    started = False
    first = True
    while n > 0:
        if started:
            z = z @ z
        started = True
        bit = n % 2
        n = n // 2
        if bit == 1:
            if first:
                result = z
                first = False
            else:
                result = result @ z
    return result


@_lib
def matrix_power_stack(a3, n, work, proto):  # noqa: ANN001, ANN201
    """NumPy's matrix_power of each matrix of the (count, m, m) stack a3, in proto's dtype:
    the identity for n = 0; for n < 0 the power of the inverse (computed in work's dtype, the
    LAPACK one); a LinAlgError for a stack of non-square matrices or a singular one."""
    count = a3.shape[0]
    m = a3.shape[1]
    if a3.shape[2] != m:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    out = np.empty((count, m, m), proto.dtype)
    inexact = proto.dtype.kind == "f" or proto.dtype.kind == "c"
    if n < 0 and not inexact:
        raise TypeError(
            "matrix_power of an integer matrix to a negative power: its result type is "
            "the matrix's (pass n as a constant, or a float matrix)"
        )
    for c in range(count):
        a = a3[c]
        if n == 0:
            for i in range(m):
                for j in range(m):
                    out[c, i, j] = 1 if i == j else 0
            continue
        base = np.empty((m, m), proto.dtype)
        k = n
        if n < 0:
            w = np.empty((m, m), work.dtype)
            for i in range(m):
                for j in range(m):
                    w[i, j] = a[i, j]
            inverse = inv_kernel(w)
            for i in range(m):
                for j in range(m):
                    base[i, j] = inverse[i, j]
            k = -n
        else:
            for i in range(m):
                for j in range(m):
                    base[i, j] = a[i, j]
        p = mat_power(base, k)
        for i in range(m):
            for j in range(m):
                out[c, i, j] = p[i, j]
    return out


@_lib
def singular_ratio(s, minus, single):  # noqa: ANN001, ANN201
    """NumPy's cond from singular values s (largest first): s[0] / s[-1] (the reverse if
    `minus`, p=-2), in float32 when `single` (NumPy's s is float32 then); NaN (0 / 0) is inf."""
    hi = s[0]
    lo = s[s.shape[0] - 1]
    if single:
        h32 = np.float32(hi)
        l32 = np.float32(lo)
        r = np.float64(l32 / h32) if minus else np.float64(h32 / l32)
    else:
        r = lo / hi if minus else hi / lo
    if r != r:
        r = np.inf
    return r


@_lib
def cond_stack(a3, minus, single):  # noqa: ANN001, ANN201
    """NumPy's cond (p None, 2 or -2) of each matrix of the (count, m, n) stack a3 (in the
    LAPACK dtype): LinAlgError for empty matrices."""
    if a3.shape[1] == 0 or a3.shape[2] == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    out = np.empty(a3.shape[0], np.float64)
    for c in range(a3.shape[0]):
        u, s, vt = svd_kernel(a3[c], N_)
        out[c] = singular_ratio(s, minus, single)
    return out


@_lib
def svd_norm_rows(a, nrows, ncols, code, out, work):  # noqa: ANN001, ANN201
    """The matrix norm of each row of a (a (nrows, ncols) matrix, flat) from its singular
    values (computed in work's dtype, rounded to out's as NumPy's svd rounds them): code 2
    the largest (0 of none), -2 the smallest, 0 their sum ('nuc', summed as NumPy's sum)."""
    k = min(nrows, ncols)
    if k == 0 and code == -2:  # NumPy's max has initial=0, its min none
        raise ValueError("zero-size array to reduction operation minimum which has no identity")
    m = np.empty((nrows, ncols), work.dtype)
    sv = np.empty(k, out.dtype)
    for r in range(a.shape[0]):
        for i in range(nrows):
            for j in range(ncols):
                m[i, j] = a[r, i * ncols + j]
        u, s, vt = svd_kernel(m, N_)
        for i in range(k):
            sv[i] = s[i]
        if code == 0 or k == 0:
            out[r] = pairwise_sum(sv, 0, k)
        else:
            x = sv[0]
            for i in range(1, k):
                y = sv[i]
                if (code == 2 and y > x) or (code == -2 and y < x):
                    x = y
            out[r] = x
    return out


# --- triu_indices, tril_indices, gradient --------------------------------------------------------


@_lib
def tri_indices(n, k, m, upper):  # noqa: ANN001, ANN201
    """The (rows, cols) of the items of an n x m matrix on and below diagonal k (`upper`: on
    and above it), in C order: NumPy's tril_indices / triu_indices (negative sizes give none,
    a size beyond int64 NumPy's error for its mask)."""
    if n < 0:
        n = 0
    if m < 0:
        m = 0
    if m > 0 and n > 9223372036854775807 // m:
        raise ValueError(
            "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
            "possible size."
        )
    k = max(min(k, m), -n)  # the same items, and no overflow in i + k below
    count = 0
    for i in range(n):
        count += row_span(i, k, m, upper)
    rows = np.empty(count, np.int64)
    cols = np.empty(count, np.int64)
    c = 0
    for i in range(n):
        lo = max(i + k, 0) if upper else 0
        hi = m if upper else min(i + k + 1, m)
        for j in range(lo, hi):
            rows[c] = i
            cols[c] = j
            c += 1
    return rows, cols


@_lib
def row_span(i, k, m, upper):  # noqa: ANN001, ANN201
    """How many items of row i of an m-column matrix lie on or below (upper: above) diagonal
    k."""
    if upper:
        return m - min(max(i + k, 0), m)
    return min(max(i + k + 1, 0), m)


@_lib
def gradient_rows(a, dx, edge_order, out):  # noqa: ANN001, ANN201
    """NumPy's gradient along each row of a with uniform spacing dx: central differences
    (f[i+1] - f[i-1]) / (2 dx) inside, one-sided differences of first or second order
    (`edge_order`) at the ends, each computed in NumPy's dtypes and stored in out's."""
    n = a.shape[1]
    if n < edge_order + 1:
        raise ValueError(
            "Shape of array too small to calculate a numerical gradient, at least "
            "(edge_order + 1) elements are required."
        )
    for r in range(a.shape[0]):
        for i in range(1, n - 1):
            out[r, i] = (a[r, i + 1] - a[r, i - 1]) / (2.0 * dx)
        if edge_order == 1:
            out[r, 0] = (a[r, 1] - a[r, 0]) / dx
            out[r, n - 1] = (a[r, n - 1] - a[r, n - 2]) / dx
        else:
            p = -1.5 / dx
            q = 2.0 / dx
            s = -0.5 / dx
            out[r, 0] = p * a[r, 0] + q * a[r, 1] + s * a[r, 2]
            p = 0.5 / dx
            q = -2.0 / dx
            s = 1.5 / dx
            out[r, n - 1] = p * a[r, n - 3] + q * a[r, n - 2] + s * a[r, n - 1]
    return out


@_lib
def all_finite_flat(a):  # noqa: ANN001, ANN201
    """Whether every item of the flat array a is finite (of complex ones, both parts)."""
    for i in range(a.shape[0]):
        if not np.isfinite(a[i]):
            return False
    return True


@_lib
def nonzero_box(flat, dims):  # noqa: ANN001, ANN201
    """The bounding box of the nonzero items of a C-ordered array (its items `flat`, its shape
    `dims`): per axis the first index, then per axis one past the last; all zeros when no item
    is nonzero (NumPy's trim_zeros of an all-zero array keeps nothing)."""
    nd = dims.shape[0]
    box = np.zeros(2 * nd, np.int64)
    found = False
    for i in range(flat.shape[0]):
        if flat[i] != 0:
            k = i
            for d in range(nd - 1, -1, -1):
                c = k % dims[d]
                k //= dims[d]
                if not found or c < box[d]:
                    box[d] = c
                if not found or c + 1 > box[nd + d]:
                    box[nd + d] = c + 1
            found = True
    return box


@_lib
def fill_cyclic(d, vals):  # noqa: ANN001, ANN201
    """d[i] = vals[i % len(vals)]: NumPy's a.flat[...] = vals (nothing for no values)."""
    nv = vals.shape[0]
    if nv == 0:
        return
    for i in range(d.shape[0]):
        d[i] = vals[i % nv]


@_lib
def fill_wrapped(a, vals):  # noqa: ANN001, ANN201
    """np.fill_diagonal(a, vals, wrap=True) of a tall 2-D a: every (m + 1)-th item in C order,
    the diagonal starting again below each square block."""
    n, m = a.shape
    nv = vals.shape[0]
    if nv == 0:
        return
    k = 0
    for p in range(0, n * m, m + 1):
        a[p // m, p % m] = vals[k % nv]
        k += 1
