"""Library kernels for sorting and searching, compiled by jitcore itself (see `npkernels`).

Every kernel works on 2-D C-contiguous "rows" (`nprows`): one sort, search or selection per
row. The order is NumPy's: NaN sorts after every number (`lt`), so sorted float arrays end
with their NaNs, as NumPy's do.

- Values (`sort_rows`) are sorted by introsort (median-of-3 quicksort, insertion sort below
  16 items, heapsort past a depth limit): O(n log n) in the worst case, in place.
- Indices (`argsort_rows`) are sorted by a stable merge sort, so `argsort(kind="stable")` is
  exactly NumPy's, and the default kind gives the stable order too (NumPy's quicksort may
  order equal keys differently: documented).

Kernels marked `_nonneg` (`registry.nonnegative_kernel`) index only at positions inside the
rows they were given (loop counters from a non-negative `lo`, partition scans stopped by the
median-of-3 sentinels, binary-search midpoints, `x[i - 1]` only after `i == 0` is excluded),
so they are compiled without wrapping negative indices, as Numba's sorts are.
"""

from __future__ import annotations

import numpy as np

from jitcore.lib.registry import library_kernel as _lib
from jitcore.lib.registry import nonnegative_kernel as _nonneg

SMALL = 16


@_lib
def lt(x, y):  # noqa: ANN001, ANN201
    """x sorts before y: numbers in order, NaN after every number."""
    return x < y or (y != y and x == x)


@_nonneg
def insertion_sort(a, lo, hi):  # noqa: ANN001, ANN201
    for i in range(lo + 1, hi):
        v = a[i]
        j = i - 1
        while j >= lo and lt(v, a[j]):
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


@_nonneg
def sift_down(a, lo, start, end):  # noqa: ANN001, ANN201
    """Heap of a[lo:lo+end] (0-based heap positions): sift position `start` down."""
    root = start
    while 2 * root + 1 < end:
        child = 2 * root + 1
        if child + 1 < end and lt(a[lo + child], a[lo + child + 1]):
            child += 1
        if lt(a[lo + root], a[lo + child]):
            a[lo + root], a[lo + child] = a[lo + child], a[lo + root]
            root = child
        else:
            return


@_nonneg
def heap_sort(a, lo, hi):  # noqa: ANN001, ANN201
    n = hi - lo
    for start in range(n // 2 - 1, -1, -1):
        sift_down(a, lo, start, n)
    for end in range(n - 1, 0, -1):
        a[lo], a[lo + end] = a[lo + end], a[lo]
        sift_down(a, lo, 0, end)


@_nonneg
def intro_sort(a, lo, hi, depth):  # noqa: ANN001, ANN201
    """Sort a[lo:hi] in place (a 1-D array)."""
    while hi - lo > SMALL:
        if depth == 0:
            heap_sort(a, lo, hi)
            return
        depth -= 1
        mid = lo + (hi - lo) // 2
        if lt(a[mid], a[lo]):
            a[mid], a[lo] = a[lo], a[mid]
        if lt(a[hi - 1], a[mid]):
            a[mid], a[hi - 1] = a[hi - 1], a[mid]
            if lt(a[mid], a[lo]):
                a[mid], a[lo] = a[lo], a[mid]
        pivot = a[mid]
        i = lo
        j = hi - 1
        while True:
            i += 1
            while lt(a[i], pivot):
                i += 1
            j -= 1
            while lt(pivot, a[j]):
                j -= 1
            if i >= j:
                break
            a[i], a[j] = a[j], a[i]
        if j - lo < hi - j:
            intro_sort(a, lo, j + 1, depth)
            lo = j + 1
        else:
            intro_sort(a, j + 1, hi, depth)
            hi = j + 1
    insertion_sort(a, lo, hi)


@_nonneg
def intro_select(a, lo, hi, k):  # noqa: ANN001, ANN201
    """Rearrange a[lo:hi] so that a[k] is the item a full sort would put there, with no
    greater item before it and no smaller one after (quickselect, heapsort past a depth
    limit): O(n) on average, for median, quantile and partition."""
    depth = depth_limit(hi - lo)
    while hi - lo > SMALL:
        if depth == 0:
            heap_sort(a, lo, hi)
            return
        depth -= 1
        mid = lo + (hi - lo) // 2
        if lt(a[mid], a[lo]):
            a[mid], a[lo] = a[lo], a[mid]
        if lt(a[hi - 1], a[mid]):
            a[mid], a[hi - 1] = a[hi - 1], a[mid]
            if lt(a[mid], a[lo]):
                a[mid], a[lo] = a[lo], a[mid]
        pivot = a[mid]
        i = lo
        j = hi - 1
        while True:
            i += 1
            while lt(a[i], pivot):
                i += 1
            j -= 1
            while lt(pivot, a[j]):
                j -= 1
            if i >= j:
                break
            a[i], a[j] = a[j], a[i]
        if k <= j:
            hi = j + 1
        else:
            lo = j + 1
    insertion_sort(a, lo, hi)


@_nonneg
def smallest_from(a, lo, hi):  # noqa: ANN001, ANN201
    """The smallest of a[lo:hi] (in `lt` order), hi > lo."""
    m = a[lo]
    for i in range(lo + 1, hi):
        if lt(a[i], m):
            m = a[i]
    return m


@_nonneg
def select_rows(a, kth):  # noqa: ANN001, ANN201
    """Partition each row of a 2-D C array around position kth (in range, non-negative)."""
    n = a.shape[1]
    for r in range(a.shape[0]):
        intro_select(a[r], 0, n, kth)
    return a


@_lib
def depth_limit(n):  # noqa: ANN001, ANN201
    depth = 0
    while n > 1:
        n >>= 1
        depth += 2
    return depth


@_nonneg
def sort_rows(a):  # noqa: ANN001, ANN201
    """Sort each row of a 2-D C array in place."""
    n = a.shape[1]
    depth = depth_limit(n)
    for r in range(a.shape[0]):
        intro_sort(a[r], 0, n, depth)
    return a


@_nonneg
def merge_indices(keys, idx, tmp, lo, mid, hi):  # noqa: ANN001, ANN201
    """Merge the sorted runs idx[lo:mid] and idx[mid:hi] (by keys, stably) through tmp."""
    for k in range(lo, mid):
        tmp[k] = idx[k]
    i = lo
    j = mid
    k = lo
    while i < mid and j < hi:
        if lt(keys[idx[j]], keys[tmp[i]]):
            idx[k] = idx[j]
            j += 1
        else:
            idx[k] = tmp[i]
            i += 1
        k += 1
    while i < mid:
        idx[k] = tmp[i]
        i += 1
        k += 1


@_nonneg
def stable_argsort(keys, idx, tmp):  # noqa: ANN001, ANN201
    """idx = the stable sorting permutation of the 1-D array keys (bottom-up merge sort over
    insertion-sorted runs of SMALL)."""
    n = keys.shape[0]
    for i in range(n):
        idx[i] = i
    for lo in range(0, n, SMALL):
        hi = min(lo + SMALL, n)
        for i in range(lo + 1, hi):
            v = idx[i]
            key = keys[v]
            j = i - 1
            while j >= lo and lt(key, keys[idx[j]]):
                idx[j + 1] = idx[j]
                j -= 1
            idx[j + 1] = v
    width = SMALL
    while width < n:
        for lo in range(0, n - width, 2 * width):
            mid = lo + width
            hi = min(lo + 2 * width, n)
            if lt(keys[idx[mid]], keys[idx[mid - 1]]):
                merge_indices(keys, idx, tmp, lo, mid, hi)
        width *= 2


@_nonneg
def argsort_rows(a, out):  # noqa: ANN001, ANN201
    """out[r] = the stable argsort of row r of a (both 2-D C, out int64)."""
    tmp = np.empty(a.shape[1], np.int64)
    for r in range(a.shape[0]):
        stable_argsort(a[r], out[r], tmp)
    return out


@_lib
def check_kth(kth, n, count):  # noqa: ANN001, ANN201
    """NumPy checks kth against the axis length only when there is something to partition."""
    if count > 0 and n > 0 and (kth < -n or kth >= n):
        raise ValueError("kth out of bounds")


@_nonneg
def search_left(a, v):  # noqa: ANN001, ANN201
    """The first i with not a[i] < v (a sorted, NaN last)."""
    lo = 0
    hi = a.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if lt(a[mid], v):
            lo = mid + 1
        else:
            hi = mid
    return lo


@_nonneg
def search_right(a, v):  # noqa: ANN001, ANN201
    """The first i with v < a[i]."""
    lo = 0
    hi = a.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if lt(v, a[mid]):
            hi = mid
        else:
            lo = mid + 1
    return lo


@_nonneg
def searchsorted_flat(a, v, out, right):  # noqa: ANN001, ANN201
    """NumPy's binsearch: each search starts from the previous key's bounds (so results on
    an unsorted `a` are NumPy's too), which it compares as it compares `a`'s items with a key
    (`last <= key` for side='right')."""
    n = a.shape[0]
    lo = 0
    hi = n
    if v.shape[0] == 0:
        return out
    last = v[0]
    for k in range(v.shape[0]):
        key = v[k]
        if (not lt(key, last)) if right else lt(last, key):
            hi = n
        else:
            lo = 0
            hi = hi + 1 if hi < n else n
        last = key
        while lo < hi:
            mid = lo + ((hi - lo) >> 1)
            if (not lt(key, a[mid])) if right else lt(a[mid], key):
                lo = mid + 1
            else:
                hi = mid
        out[k] = lo
    return out


@_nonneg
def unique_sorted(s):  # noqa: ANN001, ANN201
    """The distinct values of the sorted 1-D array s (NaNs collapse to one, as NumPy 2's
    equal_nan=True does)."""
    n = s.shape[0]
    out = np.empty_like(s)
    k = 0
    for i in range(n):
        x = s[i]
        if i == 0 or not (x == s[i - 1] or (x != x and s[i - 1] != s[i - 1])):
            out[k] = x
            k += 1
    return out[:k]


@_nonneg
def unique_full(a, order, tmp, want_counts):  # noqa: ANN001, ANN201
    """unique with index, inverse and counts: a is the flat input, `order` its stable argsort.
    Returns (values, first index, inverse, counts)."""
    n = a.shape[0]
    stable_argsort(a, order, tmp)
    values = np.empty_like(a)
    first = np.empty(n, np.int64)
    inverse = np.empty(n, np.int64)
    counts = np.zeros(n, np.int64)
    k = -1
    for i in range(n):
        j = order[i]
        x = a[j]
        if k < 0 or not (x == values[k] or (x != x and values[k] != values[k])):
            k += 1
            values[k] = x
            first[k] = j
        inverse[j] = k
        counts[k] += 1
    k += 1
    return values[:k], first[:k], inverse, counts[:k]


@_lib
def count_true(a):  # noqa: ANN001, ANN201
    n = 0
    for i in range(a.shape[0]):
        if a[i]:
            n += 1
    return n


@_lib
def argwhere_flat(a, shape, out):  # noqa: ANN001, ANN201
    """Rows of out (count, ndim) = the multi-indices of the true items of flat C array a of
    the given shape (an int64 array)."""
    ndim = shape.shape[0]
    k = 0
    for i in range(a.shape[0]):
        if a[i]:
            rest = i
            for d in range(ndim - 1, -1, -1):
                out[k, d] = rest % shape[d]
                rest //= shape[d]
            k += 1
    return out


@_lib
def flatnonzero_flat(a):  # noqa: ANN001, ANN201
    out = np.empty(count_true(a), np.int64)
    k = 0
    for i in range(a.shape[0]):
        if a[i]:
            out[k] = i
            k += 1
    return out


@_nonneg
def has_nan(row):  # noqa: ANN001, ANN201
    """Whether row has a NaN: tested a block at a time, without a branch per item (a loop
    LLVM vectorizes), returning after the first block with one."""
    n = row.shape[0]
    for start in range(0, n, 1024):
        found = False
        for i in range(start, min(start + 1024, n)):
            found = found | (row[i] != row[i])
        if found:
            return True
    return False


@_nonneg
def largest_before(row, hi):  # noqa: ANN001, ANN201
    """The largest of row[0:hi] (hi > 0, no NaN), as the scan `if row[i] > m: m = row[i]`
    finds it: four maxima in flight (one chain of compares is latency bound), and for a
    zero the first zero, whose sign that scan keeps."""
    m0 = row[0]
    m1, m2, m3 = m0, m0, m0
    k = hi - hi % 4
    for i in range(0, k, 4):
        m0 = row[i] if row[i] > m0 else m0
        m1 = row[i + 1] if row[i + 1] > m1 else m1
        m2 = row[i + 2] if row[i + 2] > m2 else m2
        m3 = row[i + 3] if row[i + 3] > m3 else m3
    for i in range(k, hi):
        m0 = row[i] if row[i] > m0 else m0
    m01 = m1 if m1 > m0 else m0
    m23 = m3 if m3 > m2 else m2
    m = m23 if m23 > m01 else m01
    if m == 0:
        for i in range(hi):
            if row[i] == 0:
                return row[i]
    return m


@_nonneg
def median_rows(a, out):  # noqa: ANN001, ANN201
    """NumPy's median of each row of a (a float copy, rearranged here): NaN if the row has
    one, else the middle item (quickselect), or the mean of the two middle ones."""
    n = a.shape[1]
    for r in range(a.shape[0]):
        row = a[r]
        if n == 0:
            out[r] = np.nan
            continue
        if has_nan(row):
            out[r] = np.nan * row[0]
            continue
        half = n // 2
        intro_select(row, 0, n, half)
        zero = row.dtype.type(0)  # NumPy takes the mean of the middle: 0 + ..., -0.0 is 0.0
        if n % 2 == 1:
            out[r] = zero + row[half]
        else:
            out[r] = (zero + (largest_before(row, half) + row[half])) / 2
    return out


@_lib
def lerp(lo, hi, t, out):  # noqa: ANN001, ANN201
    """NumPy's _lerp from the nearer end (t=1 gives hi exactly): the difference in the items'
    own dtype, the rest in the dtype of `out` (a kernel's float arguments would otherwise
    count as weak Python floats)."""
    cast = out.dtype.type
    d = cast(hi - lo)
    if t >= 0.5:
        return cast(hi) - d * cast(1 - t)
    return cast(lo) + d * cast(t)


@_lib
def check_quantiles(q, scale):  # noqa: ANN001, ANN201
    """NumPy divides percentiles by 100 before it checks them against [0, 1], so -5e-324 (which
    divides to -0.0) is a valid percentile."""
    for i in range(q.shape[0]):
        x = q[i] / scale
        if not (x >= 0 and x <= 1):
            if scale == 1:
                raise ValueError("Quantiles must be in the range [0, 1]")
            raise ValueError("Percentiles must be in the range [0, 100]")


@_lib
def quantile_rows(a, q, out, exact):  # noqa: ANN001, ANN201
    """out[j, r] = the linear-method quantile q[j] of row r of a (sorted here in place).
    `exact`: q is of integers, so NumPy takes the items at (n-1)*q without interpolating."""
    n = a.shape[1]
    if n == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    for r in range(a.shape[0]):
        row = a[r]
        nan = has_nan(row)
        if nan:  # NumPy: the NaN (sorted last) is the result
            intro_select(row, 0, n, n - 1)
        for j in range(q.shape[0]):
            v = (n - 1) * q[j]
            below = np.floor(v)
            if nan:
                out[j, r] = row[n - 1]
            elif exact:
                intro_select(row, 0, n, int(v))
                out[j, r] = row[int(v)]
            elif v >= n - 1:  # NumPy takes both neighbours from the end (inf gives nan)
                intro_select(row, 0, n, n - 1)
                g = v + 1
                out[j, r] = lerp(row[n - 1], row[n - 1], g, out)
            else:
                i = int(below)
                intro_select(row, 0, n, i)
                g = v - below
                out[j, r] = lerp(row[i], smallest_from(row, i + 1, n), g, out)
    return out
