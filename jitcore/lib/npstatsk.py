"""Library kernels for statistics and array algorithms (see `npkernels`): NaN-ignoring
reductions, scans and differences along rows (`nprows`), counting and binning (`bincount`,
`histogram`, `digitize`), `interp`, weighted averages, closeness tests and the small products
(`trace`, `outer`, `cross`, `kron`, `convolve`). Each follows NumPy's own algorithm where the
order of floating-point operations shows in the result.
"""

from __future__ import annotations

import numpy as np

from jitcore.lib.npkernels import cumprod_flat, cumsum_flat, pairwise_sum, sum_flat
from jitcore.lib.npsortk import search_right, searchsorted_flat
from jitcore.lib.registry import library_kernel as _lib
from jitcore.lib.registry import nonnegative_kernel as _nonneg

# --- NaN-ignoring reductions over rows --------------------------------------------------------


@_lib
def nan_to_zero(row, tmp):  # noqa: ANN001, ANN201
    """tmp = row with NaN replaced by 0; the count of the others."""
    count = 0
    for i in range(row.shape[0]):
        x = row[i]
        if x != x:
            tmp[i] = 0
        else:
            tmp[i] = x
            count += 1
    return count


@_lib
def nansum_rows(a, out, mean):  # noqa: ANN001, ANN201
    """NumPy's nansum (NaN as 0, pairwise) or nanmean (that sum over the count) of each row."""
    if a.shape[0] == 0:
        return out
    tmp = np.empty_like(a[0])
    for r in range(a.shape[0]):
        count = nan_to_zero(a[r], tmp)
        s = pairwise_sum(tmp, 0, tmp.shape[0])
        out[r] = np.divide(s, count) if mean else s
    return out


@_lib
def nanvar_rows(a, out, ddof, root):  # noqa: ANN001, ANN201
    """NumPy's nanvar/nanstd: NaN lanes count as 0 deviation; NaN when count - ddof <= 0."""
    n = a.shape[1]
    if a.shape[0] == 0:
        return out
    tmp = np.empty_like(a[0])
    for r in range(a.shape[0]):
        row = a[r]
        count = nan_to_zero(row, tmp)
        mean = np.divide(pairwise_sum(tmp, 0, n), count)
        for i in range(n):
            x = row[i]
            if x == x:
                d = x - mean
                tmp[i] = d * d
            else:
                tmp[i] = 0
        dof = count - ddof
        if dof <= 0:
            v = np.nan * tmp.dtype.type(1)
        else:
            v = np.divide(pairwise_sum(tmp, 0, n), dof)
        out[r] = np.sqrt(v) if root else v
    return out


@_lib
def nanminmax_rows(a, out, biggest):  # noqa: ANN001, ANN201
    """fmin/fmax reduction: NaN ignored, NaN for an all-NaN row."""
    n = a.shape[1]
    if n == 0:
        if biggest:
            raise ValueError("zero-size array to reduction operation fmax which has no identity")
        raise ValueError("zero-size array to reduction operation fmin which has no identity")
    for r in range(a.shape[0]):
        row = a[r]
        m = row[0]
        for i in range(1, n):
            x = row[i]
            if m != m or (biggest and x > m) or (not biggest and x < m):
                m = x
        out[r] = m
    return out


@_lib
def nanarg_rows(a, out, biggest):  # noqa: ANN001, ANN201
    """nanargmin/nanargmax as NumPy computes them: NaN counts as -inf (nanargmax) or +inf
    (nanargmin), so the first extreme index may be a NaN's when the extreme is that infinity
    ([nan, -inf] gives 0); ValueError for an all-NaN row, and for an empty axis even when
    there are no rows (NumPy's argmin of the result raises then)."""
    n = a.shape[1]
    if n == 0:
        if biggest:
            raise ValueError("attempt to get argmax of an empty sequence")
        raise ValueError("attempt to get argmin of an empty sequence")
    for r in range(a.shape[0]):
        row = a[r]
        best = -1
        best_value = row.dtype.type(0)
        seen = False
        for i in range(n):
            x = row[i]
            if x != x:
                x = -np.inf if biggest else np.inf
            else:
                seen = True
            if best < 0 or (biggest and x > best_value) or (not biggest and x < best_value):
                best = i
                best_value = x
        if not seen:
            raise ValueError("All-NaN slice encountered")
        out[r] = best
    return out


@_lib
def ptp_rows(a, out):  # noqa: ANN001, ANN201
    """max - min of each row (NaN propagates; integers wrap as NumPy's subtract does)."""
    n = a.shape[1]
    if n == 0:
        raise ValueError("zero-size array to reduction operation maximum which has no identity")
    for r in range(a.shape[0]):
        row = a[r]
        lo = row[0]
        hi = row[0]
        for i in range(1, n):
            x = row[i]
            if x != x:
                lo = x
                hi = x
                break
            if x < lo:
                lo = x
            if x > hi:
                hi = x
        out[r] = hi - lo
    return out


@_lib
def count_rows(a, out):  # noqa: ANN001, ANN201
    for r in range(a.shape[0]):
        row = a[r]
        n = 0
        for i in range(row.shape[0]):
            if row[i]:
                n += 1
        out[r] = n
    return out


# --- scans and differences along rows --------------------------------------------------------


@_lib
def scan_rows(a, out, multiply):  # noqa: ANN001, ANN201
    for r in range(a.shape[0]):
        if multiply:
            cumprod_flat(a[r], out[r])
        else:
            cumsum_flat(a[r], out[r])
    return out


@_lib
def diff_rows(a, out, n, work):  # noqa: ANN001, ANN201
    """The n-th difference of each row into out (its rows have length max(len - n, 0)).
    `work` holds one row."""
    m = a.shape[1]
    for r in range(a.shape[0]):
        row = a[r]
        for i in range(m):
            work[i] = row[i]
        length = m
        for _ in range(n):
            if length == 0:
                break
            for i in range(length - 1):
                work[i] = work[i + 1] - work[i]
            length -= 1
        for i in range(out.shape[1]):
            out[r, i] = work[i]
    return out


@_lib
def diff_rows_bool(a, out, n, work):  # noqa: ANN001, ANN201
    """`diff_rows` of booleans, which differ by `!=` as in NumPy's diff (NumPy refuses `-`
    of booleans)."""
    m = a.shape[1]
    for r in range(a.shape[0]):
        row = a[r]
        for i in range(m):
            work[i] = row[i]
        length = m
        for _ in range(n):
            if length == 0:
                break
            for i in range(length - 1):
                work[i] = work[i + 1] != work[i]
            length -= 1
        for i in range(out.shape[1]):
            out[r, i] = work[i]
    return out


# --- counting and binning ----------------------------------------------------------------


@_lib
def bincount_k(x, minlength):  # noqa: ANN001, ANN201
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    top = -1
    for i in range(x.shape[0]):
        v = x[i]
        if v < 0:
            raise ValueError("'list' argument must have no negative elements")
        if v > top:
            top = v
    out = np.zeros(max(top + 1, minlength), np.int64)
    for i in range(x.shape[0]):
        out[x[i]] += 1
    return out


@_lib
def bincount_weights(x, w, minlength):  # noqa: ANN001, ANN201
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if w.shape[0] != x.shape[0]:
        raise ValueError("The weights and list don't have the same length.")
    top = -1
    for i in range(x.shape[0]):
        v = x[i]
        if v < 0:
            raise ValueError("'list' argument must have no negative elements")
        if v > top:
            top = v
    out = np.zeros(max(top + 1, minlength), np.float64)
    for i in range(x.shape[0]):
        out[x[i]] += w[i]
    return out


@_lib
def monotonic(a):  # noqa: ANN001, ANN201
    """NumPy's check_array_monotonic: 1 increasing (or all equal), -1 decreasing, 0 neither.

    Step by step as NumPy's, on the values as float64 (NumPy converts the bins to double, so
    int64 bins differing beyond 2**53 count as equal): past the leading run of equal values,
    a first step that does not increase (a NaN on either side of it included) makes the bins
    decreasing, and after that only a step the wrong way round breaks the order; a NaN
    compares false either way, so it never does."""
    n = a.shape[0]
    if n == 0:
        return 1
    last = float(a[0])
    i = 1
    while i < n and float(a[i]) == last:
        i += 1
    if i == n:
        return 1
    nxt = float(a[i])
    if last < nxt:
        for k in range(i + 1, n):
            last = nxt
            nxt = float(a[k])
            if last > nxt:
                return 0
        return 1
    for k in range(i + 1, n):
        last = nxt
        nxt = float(a[k])
        if last < nxt:
            return 0
    return -1


@_lib
def digitize_k(x, bins, out, right):  # noqa: ANN001, ANN201
    """NumPy's digitize: its searchsorted on increasing bins, from the end on decreasing ones.
    That is NumPy's binsearch (each search starting from the last one's bounds), so bins that
    `monotonic` lets through unsorted, with a NaN among them, give NumPy's bins too."""
    mono = monotonic(bins)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    if mono == 1:
        return searchsorted_flat(bins, x, out, not right)
    searchsorted_flat(bins[::-1].copy(), x, out, not right)
    n = bins.shape[0]
    for i in range(x.shape[0]):
        out[i] = n - out[i]
    return out


@_lib
def linspace_edges(first, last, bins):  # noqa: ANN001, ANN201
    """np.linspace(first, last, bins + 1) in float64, as NumPy computes it."""
    num = bins + 1
    edges = np.empty(num, np.float64)
    delta = last - first
    step = delta / bins
    for i in range(num):
        if step == 0:
            edges[i] = i / bins * delta + first
        else:
            edges[i] = i * step + first
    edges[num - 1] = last
    return edges


@_nonneg
def min_max(a):  # noqa: ANN001, ANN201
    """(min, max, has_nan) of the non-empty a, in float64, with four minima and maxima in
    flight (one chain of compares and selects is latency bound). Each is the value the
    sequential scan `if x < first: first = x` finds; only the sign of a zero could differ,
    so a zero result is replaced by the first item equal to it, as that scan would keep."""
    n = a.shape[0]
    lo0 = np.float64(a[0])
    lo1, lo2, lo3 = lo0, lo0, lo0
    hi0, hi1, hi2, hi3 = lo0, lo0, lo0, lo0
    nan = False
    m = n - n % 4
    for i in range(0, m, 4):
        y0 = np.float64(a[i])
        y1 = np.float64(a[i + 1])
        y2 = np.float64(a[i + 2])
        y3 = np.float64(a[i + 3])
        nan = nan | (y0 != y0) | (y1 != y1) | (y2 != y2) | (y3 != y3)
        lo0 = y0 if y0 < lo0 else lo0
        lo1 = y1 if y1 < lo1 else lo1
        lo2 = y2 if y2 < lo2 else lo2
        lo3 = y3 if y3 < lo3 else lo3
        hi0 = y0 if y0 > hi0 else hi0
        hi1 = y1 if y1 > hi1 else hi1
        hi2 = y2 if y2 > hi2 else hi2
        hi3 = y3 if y3 > hi3 else hi3
    for i in range(m, n):
        y = np.float64(a[i])
        nan = nan | (y != y)
        lo0 = y if y < lo0 else lo0
        hi0 = y if y > hi0 else hi0
    lo01 = lo1 if lo1 < lo0 else lo0
    lo23 = lo3 if lo3 < lo2 else lo2
    lo = lo23 if lo23 < lo01 else lo01
    hi01 = hi1 if hi1 > hi0 else hi0
    hi23 = hi3 if hi3 > hi2 else hi2
    hi = hi23 if hi23 > hi01 else hi01
    if lo == 0:
        lo = first_equal(a, lo)
    if hi == 0:
        hi = first_equal(a, hi)
    return lo, hi, nan


@_nonneg
def first_equal(a, v):  # noqa: ANN001, ANN201
    """The first item of a equal to v (one is), as float64: which zero, -0.0 or 0.0."""
    for i in range(a.shape[0]):
        x = np.float64(a[i])
        if x == v:
            return x
    return v


@_lib
def histogram_range(a, has_range, lo, hi):  # noqa: ANN001, ANN201
    """The outer edges: the given range, or the data's min and max (NumPy's errors)."""
    if has_range:
        first = lo
        last = hi
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError("supplied range is not finite")
    elif a.shape[0] == 0:
        first = np.float64(0.0)
        last = np.float64(1.0)
    else:
        first, last, nan = min_max(a)
        if nan or not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError("autodetected range is not finite")
    if first == last:
        first = first - 0.5
        last = last + 0.5
    return first, last


@_lib
def histogram_uniform(a, bins, has_range, lo, hi):  # noqa: ANN001, ANN201
    """NumPy's equal-width histogram: the index from the scaled offset, corrected against
    the edges; values outside the range are dropped, the last edge is inclusive."""
    if bins < 1:
        raise ValueError("`bins` must be positive, when an integer")
    first, last = histogram_range(a, has_range, lo, hi)
    edges = linspace_edges(first, last, bins)
    for i in range(bins):
        if edges[i] >= edges[i + 1]:
            raise ValueError("Too many bins for data range. Cannot create finite-sized bins.")
    counts = np.zeros(bins, np.int64)
    denom = last - first
    if denom < np.inf and bins * (1.0 + max(abs(first), abs(last)) / denom) < CONDITIONED:
        count_scaled(a, first, last, bins / denom, edges, counts)
        return counts, edges
    for i in range(a.shape[0]):
        x = np.float64(a[i])
        if not (x >= first and x <= last):
            continue
        k = int((x - first) / denom * bins)
        if k == bins:
            k -= 1
        if x < edges[k]:
            k -= 1
        elif k != bins - 1 and x >= edges[k + 1]:
            k += 1
        counts[k] += 1
    return counts, edges


# `count_scaled` gives NumPy's bins when bins * (1 + max(|first|, |last|) / (last - first)) is
# below this: then every rounding error, in index units, is below 2**-19 (see there).
CONDITIONED = 2.0**30
# The fraction of a bin within which a value's position is taken as exact (> 2**-19).
FRACTION = 2.0**-16
BLOCK = 256  # values binned at a time by `count_scaled`
OUTSIDE = -(1 << 62)  # `count_scaled`'s code of a value outside [first, last] (or NaN)


@_nonneg
def count_scaled(a, first, last, norm, edges, counts):  # noqa: ANN001, ANN201
    """counts[k] += 1 for each x of a in [first, last] with edges[k] <= x < edges[k + 1] (the
    last bin closed), norm = bins / (last - first): the bins NumPy's histogram gives, with
    neither its division nor its two edge loads per value.

    Why it is exact. Let u = 2**-53, bins * (1 + max(|first|, |last|) / (last - first)) =
    C < CONDITIONED. The position r = (x - first) * norm is within 5u*bins < 5uC of the
    exact (x - first) / (last - first) * bins (four roundings: the two subtractions, the
    division in norm, the product); each linspace edge first + i * step is within
    3.01u*(last - first) + 1.01u*max(|first|, |last|) of first + i * (last - first) / bins,
    that is within 3.01uC bins. So x's bin t (by the edges) has t - 8.01uC < r < t + 1 +
    8.01uC, 8.01uC < 2**-19. When the fraction f = r - int(r) (exact) is in (FRACTION,
    1 - FRACTION), int(r) is therefore t. Otherwise int(r) is within one of t and NumPy's own
    correction against the edges (which this kernel then runs) gives t, as it does in
    NumPy, whose position (x - first) / (last - first) * bins is as close to r.

    In blocks of BLOCK values: first each value's bin, or -1 - int(r) where the edges must
    decide, or OUTSIDE (a loop without branches or loads, which LLVM vectorizes), then the
    counting, where only the rare values near an edge load edges."""
    bins = counts.shape[0]
    n = a.shape[0]
    code = np.empty(BLOCK, np.int64)
    for start in range(0, n, BLOCK):
        m = min(BLOCK, n - start)
        for j in range(m):
            x = np.float64(a[start + j])
            inside = (x >= first) & (x <= last)
            r = (x - first) * norm if inside else 0.5
            k = np.int64(r)  # a float64 value: unchecked, as r is in [0, bins]
            f = r - k
            k = k if (f > FRACTION) & (f < 1.0 - FRACTION) else -1 - k
            code[j] = k if inside else OUTSIDE
        for j in range(m):
            k = code[j]
            if k < 0:
                if k == OUTSIDE:
                    continue
                k = corrected(np.float64(a[start + j]), -1 - k, edges, bins)
            counts[k] += 1


@_nonneg
def corrected(x, k, edges, bins):  # noqa: ANN001, ANN201
    """NumPy's correction of the estimated bin k (in [0, bins]) of x against the edges."""
    if k >= bins:
        k = bins - 1
    if x < edges[k]:
        k -= 1
    elif k != bins - 1 and x >= edges[k + 1]:
        k += 1
    return k


@_lib
def histogram_edges(a, edges):  # noqa: ANN001, ANN201
    """Histogram over given edges (increasing; the last bin closed), by searching each value
    as NumPy's searchsorted over the sorted data does."""
    m = edges.shape[0]
    if m == 0:
        raise ValueError("`bins` must be 1d, when an array")
    for i in range(1, m):
        if edges[i] < edges[i - 1]:
            raise ValueError("`bins` must increase monotonically, when an array")
    counts = np.zeros(max(m - 1, 0), np.int64)
    for i in range(a.shape[0]):
        x = a[i]
        k = search_right(edges, x) - 1
        if k == m - 1 and x == edges[m - 1]:
            k = m - 2  # the last bin is closed
        if 0 <= k < m - 1:
            counts[k] += 1
    return counts


# --- interp, average, closeness -----------------------------------------------------------


LIKELY_IN_CACHE_SIZE = 8


@_lib
def search_with_guess(key, arr, n, guess):  # noqa: ANN001, ANN201
    """NumPy's binary_search_with_guess (compiled_base.c), step for step, so that results
    on unsorted sample points are NumPy's too: the j with arr[j] <= key < arr[j + 1], -1
    below, n above."""
    imin = 0
    imax = n
    if key > arr[n - 1]:
        return n
    if key < arr[0]:
        return -1
    if n <= 4:
        i = 1
        while i < n and key >= arr[i]:
            i += 1
        return i - 1
    if guess > n - 3:
        guess = n - 3
    if guess < 1:
        guess = 1
    if key < arr[guess]:
        if key < arr[guess - 1]:
            imax = guess - 1
            if guess > LIKELY_IN_CACHE_SIZE and key >= arr[guess - LIKELY_IN_CACHE_SIZE]:
                imin = guess - LIKELY_IN_CACHE_SIZE
        else:
            return guess - 1
    else:
        if key < arr[guess + 1]:
            return guess
        if key < arr[guess + 2]:
            return guess + 1
        imin = guess + 2
        if guess < n - LIKELY_IN_CACHE_SIZE - 1 and key < arr[guess + LIKELY_IN_CACHE_SIZE]:
            imax = guess + LIKELY_IN_CACHE_SIZE
    while imin < imax:
        imid = imin + ((imax - imin) >> 1)
        if key >= arr[imid]:
            imin = imid + 1
        else:
            imax = imid
    return imin - 1


@_lib
def interp_k(x, xp, fp, out, left, right, has_left, has_right):  # noqa: ANN001, ANN201
    """NumPy's interp (compiled_base.c): the bracketing pair by binary search, the slope from
    the left point (from the right one if that gives NaN)."""
    n = xp.shape[0]
    if n == 0:
        raise ValueError("array of sample points is empty")
    if fp.shape[0] != n:
        raise ValueError("fp and xp are not of the same length.")
    lval = left if has_left else fp[0]
    rval = right if has_right else fp[n - 1]
    j = 0
    for i in range(x.shape[0]):
        v = x[i]
        if n == 1:
            out[i] = lval if v < xp[0] else (rval if v > xp[0] else fp[0])
            continue
        if v != v:
            out[i] = v
            continue
        j = search_with_guess(v, xp, n, j)
        if j == -1:
            out[i] = lval
        elif j == n:
            out[i] = rval
        elif j == n - 1:
            out[i] = fp[j]
        elif xp[j] == v:
            out[i] = fp[j]
        else:
            slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j])
            res = slope * (v - xp[j]) + fp[j]
            if res != res:
                res = slope * (v - xp[j + 1]) + fp[j + 1]
                if res != res and fp[j] == fp[j + 1]:
                    res = fp[j]
            out[i] = res
    return out


@_lib
def average_rows(a, w, out):  # noqa: ANN001, ANN201
    """sum(a * w) / sum(w) per row, pairwise sums as NumPy's; ZeroDivisionError if a weight
    sum is 0."""
    scale = np.empty_like(out)
    for r in range(a.shape[0]):
        scale[r] = sum_flat(w[r])
        if scale[r] == 0:
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    for r in range(a.shape[0]):
        out[r] = sum_flat(a[r] * w[r]) / scale[r]
    return out


@_lib
def isclose_k(a, b, rtol, atol, equal_nan):  # noqa: ANN001, ANN201
    """NumPy 2's isclose: |a - b| <= atol + rtol * |b| for finite b, or a == b."""
    y = b * 1.0
    result = (np.abs(a - y) <= atol + rtol * np.abs(y)) & np.isfinite(y) | (a == y)
    if equal_nan:
        result = result | (np.isnan(a) & np.isnan(y))
    return result


@_lib
def allclose_k(a, b, rtol, atol, equal_nan):  # noqa: ANN001, ANN201
    # (isclose of 0-d arrays is a NumPy bool, which np.all takes as a 0-d array)
    return bool(np.all(np.asarray(isclose_k(a, b, rtol, atol, equal_nan))))


@_lib
def array_equal_k(a, b, equal_nan):  # noqa: ANN001, ANN201
    if a.shape != b.shape:
        return False
    if equal_nan:
        return bool(np.all(np.asarray((a == b) | (np.isnan(a) & np.isnan(b)))))
    return bool(np.all(np.asarray(a == b)))  # (a NumPy bool for 0-d arrays)


# --- small products ----------------------------------------------------------------------


@_lib
def trace_k(a, offset, out):  # noqa: ANN001, ANN201
    rows, cols = a.shape
    s = out.dtype.type(0)
    if offset >= 0:
        for i in range(min(rows, cols - offset)):
            s += a[i, i + offset]
    else:
        for i in range(min(rows + offset, cols)):
            s += a[i - offset, i]
    return s


@_lib
def outer_k(x, y, out):  # noqa: ANN001, ANN201
    for i in range(x.shape[0]):
        xi = x[i]
        for j in range(y.shape[0]):
            out[i, j] = xi * y[j]
    return out


@_lib
def kron_k(a, b, out):  # noqa: ANN001, ANN201
    """Kronecker product of 2-D arrays."""
    p, q = b.shape
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            aij = a[i, j]
            for k in range(p):
                for m in range(q):
                    out[i * p + k, j * q + m] = aij * b[k, m]
    return out


@_lib
def cross_k(a, b, out):  # noqa: ANN001, ANN201
    """Cross product of 3-vectors (or 2-vectors, padded with a zero z), NumPy's formulas."""
    na = a.shape[0]
    nb = b.shape[0]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    a0, a1 = a[0], a[1]
    b0, b1 = b[0], b[1]
    if na == 2 and nb == 2:
        raise ValueError(
            "jitcore: the cross product of two 2-vectors (a 0-d result) is not supported"
        )
    zero = out.dtype.type(0)
    a2 = a[2] if na == 3 else zero
    b2 = b[2] if nb == 3 else zero
    if na == 3 and nb == 3:
        out[0] = a1 * b2 - a2 * b1
        out[1] = a2 * b0 - a0 * b2
        out[2] = a0 * b1 - a1 * b0
    elif na == 2:
        out[0] = a1 * b2
        out[1] = -(a0 * b2)
        out[2] = a0 * b1 - a1 * b0
    else:
        out[0] = -(a2 * b1)
        out[1] = a2 * b0
        out[2] = a0 * b1 - a1 * b0
    return out


@_lib
def correlate_k(a, v, out, left):  # noqa: ANN001, ANN201
    """out[k] = sum_j a[k - left + j] * v[j] over the overlap."""
    n = a.shape[0]
    m = v.shape[0]
    for k in range(out.shape[0]):
        start = k - left
        s = out.dtype.type(0)
        for j in range(max(0, -start), min(m, n - start)):
            s += a[start + j] * v[j]
        out[k] = s
    return out


@_lib
def correlate_length(n, m, mode):  # noqa: ANN001, ANN201
    if mode == 0:
        return n + m - 1
    if mode == 1:
        return max(n, m)
    return max(n, m) - min(n, m) + 1


@_lib
def correlate_mode(a, v, out, mode, conv):  # noqa: ANN001, ANN201
    """NumPy's correlate (conv False) or convolve (True) of 1-D arrays into out (of
    `correlate_length`); mode 0 full, 1 same, 2 valid. Convolution is the correlation with v
    reversed, the longer array first."""
    n = a.shape[0]
    m = v.shape[0]
    if conv:
        if n == 0:
            raise ValueError("a cannot be empty")
        if m == 0:
            raise ValueError("v cannot be empty")
        if m > n:
            a, v = v, a
            n, m = m, n
        v = v[::-1].copy()
    else:
        if n == 0:
            raise ValueError("first array argument cannot be empty")
        if m == 0:
            raise ValueError("second array argument cannot be empty")
    if mode == 0:
        left = m - 1
    elif mode == 1:
        left = m // 2 if n >= m else m - 1 - n // 2
    else:
        left = m - min(n, m)
    return correlate_k(a, v, out, left)
