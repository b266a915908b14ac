"""Library kernels written in Python and compiled by jitcore itself.

Reductions, scans and products are loops over 1-D (or 2-D) arrays; writing them here as
ordinary jitted Python keeps them readable and lets the same compiler optimize them. Each runs
on arrays the `reductions` rules prepare (contiguous, already of the accumulation dtype), so
the loops are simple and bounds checks are off (the loop bounds come from the shapes).

Summation follows NumPy's pairwise algorithm (blocks of 8, halving above 128 items), so
`np.sum` agrees with NumPy to rounding; other reductions are sequential, as in NumPy.
"""

from __future__ import annotations

import numpy as np

from jitcore.lib.ieeeminmax import ieee_maximum, ieee_minimum
from jitcore.lib.registry import library_kernel as _lib
from jitcore.lib.registry import nonnegative_kernel as _nonnegative

PAIRWISE_BLOCK = 128


@_nonnegative
def pairwise_sum(a, lo, n):  # noqa: ANN001, ANN201
    """NumPy's pairwise_sum over a[lo:lo+n] of a contiguous 1-D array."""
    zero = a.dtype.type(0)
    if n < 8:
        s = zero
        for i in range(lo, lo + n):
            s += a[i]
        return s
    if n <= PAIRWISE_BLOCK:
        r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
        r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
        end = lo + n - n % 8
        for i in range(lo + 8, end, 8):
            r0 += a[i]
            r1 += a[i + 1]
            r2 += a[i + 2]
            r3 += a[i + 3]
            r4 += a[i + 4]
            r5 += a[i + 5]
            r6 += a[i + 6]
            r7 += a[i + 7]
        s = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        for i in range(end, lo + n):
            s += a[i]
        return zero + s  # NumPy adds the block to its start, 0: -0.0 becomes 0.0
    half = n // 2
    half -= half % 8
    return pairwise_sum(a, lo, half) + pairwise_sum(a, lo + half, n - half)


@_nonnegative
def pairwise_sq_dev(a, mean, lo, n):  # noqa: ANN001, ANN201
    """`pairwise_sum` of (a[i] - mean)**2 over a[lo:lo+n], computed as it is read: the same
    additions in the same order as NumPy's var (which sums an array of squared deviations),
    without that array (x.var() ran at 0.37x Numba with it)."""
    if n < 8:
        s = (a[lo] - mean) * (a[lo] - mean) if n > 0 else (mean - mean) * 0
        for i in range(lo + 1, lo + n):
            d = a[i] - mean
            s += d * d
        return s
    if n <= PAIRWISE_BLOCK:
        d0, d1, d2, d3 = a[lo] - mean, a[lo + 1] - mean, a[lo + 2] - mean, a[lo + 3] - mean
        d4, d5, d6, d7 = a[lo + 4] - mean, a[lo + 5] - mean, a[lo + 6] - mean, a[lo + 7] - mean
        r0, r1, r2, r3 = d0 * d0, d1 * d1, d2 * d2, d3 * d3
        r4, r5, r6, r7 = d4 * d4, d5 * d5, d6 * d6, d7 * d7
        end = lo + n - n % 8
        for i in range(lo + 8, end, 8):
            d0, d1, d2, d3 = a[i] - mean, a[i + 1] - mean, a[i + 2] - mean, a[i + 3] - mean
            d4, d5, d6, d7 = a[i + 4] - mean, a[i + 5] - mean, a[i + 6] - mean, a[i + 7] - mean
            r0 += d0 * d0
            r1 += d1 * d1
            r2 += d2 * d2
            r3 += d3 * d3
            r4 += d4 * d4
            r5 += d5 * d5
            r6 += d6 * d6
            r7 += d7 * d7
        s = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        for i in range(end, lo + n):
            d = a[i] - mean
            s += d * d
        return s
    half = n // 2
    half -= half % 8
    return pairwise_sq_dev(a, mean, lo, half) + pairwise_sq_dev(a, mean, lo + half, n - half)


@_lib
def sum_flat(a):  # noqa: ANN001, ANN201
    return pairwise_sum(a, 0, a.shape[0])


@_lib
def sum_ints(a):  # noqa: ANN001, ANN201
    """Integer sums: order does not matter, so one vectorizable loop."""
    s = a.dtype.type(0)
    for i in range(a.shape[0]):
        s += a[i]
    return s


@_lib
def sum_ints_as_int64(a):  # noqa: ANN001, ANN201
    """`sum_ints` of narrower signed ints and bools, added as int64 as they are read:
    converting the array first cost an 8-byte copy of every item (a bool array's sum ran at
    0.18x Numba)."""
    s = np.int64(0)
    for i in range(a.shape[0]):
        s += a[i]
    return s


@_lib
def sum_ints_as_uint64(a):  # noqa: ANN001, ANN201
    """`sum_ints_as_int64` for narrower unsigned ints, added as uint64."""
    s = np.uint64(0)
    for i in range(a.shape[0]):
        s += a[i]
    return s


@_lib
def prod_flat(a):  # noqa: ANN001, ANN201
    s = a.dtype.type(1)
    for i in range(a.shape[0]):
        s *= a[i]
    return s


@_lib
def min_flat(a):  # noqa: ANN001, ANN201
    """NumPy's minimum reduction: NaN propagates; empty arrays raise."""
    n = a.shape[0]
    if n == 0:
        raise ValueError("zero-size array to reduction operation minimum which has no identity")
    m = a[0]
    for i in range(1, n):
        if m != m:  # the first NaN wins (a complex one keeps its other part)
            return m
        x = a[i]
        if x < m or x != x:
            m = x
    return m


@_lib
def max_flat(a):  # noqa: ANN001, ANN201
    n = a.shape[0]
    if n == 0:
        raise ValueError("zero-size array to reduction operation maximum which has no identity")
    m = a[0]
    for i in range(1, n):
        if m != m:  # the first NaN wins (a complex one keeps its other part)
            return m
        x = a[i]
        if x > m or x != x:
            m = x
    return m


@_lib
def min_floats(a):  # noqa: ANN001, ANN201
    """`min_flat` of floats: one exit-free loop of IEEE minimums, which LLVM vectorizes."""
    n = a.shape[0]
    if n == 0:
        raise ValueError("zero-size array to reduction operation minimum which has no identity")
    m = a[0]
    for i in range(1, n):
        m = ieee_minimum(m, a[i])
    return m


@_lib
def max_floats(a):  # noqa: ANN001, ANN201
    """`max_flat` of floats (`ieeeminmax`)."""
    n = a.shape[0]
    if n == 0:
        raise ValueError("zero-size array to reduction operation maximum which has no identity")
    m = a[0]
    for i in range(1, n):
        m = ieee_maximum(m, a[i])
    return m


@_lib
def argmin_flat(a):  # noqa: ANN001, ANN201
    n = a.shape[0]
    if n == 0:
        raise ValueError("attempt to get argmin of an empty sequence")
    best = 0
    m = a[0]
    if m != m:
        return 0
    for i in range(1, n):
        x = a[i]
        if x != x:
            return i
        if x < m:
            m = x
            best = i
    return best


@_lib
def argmax_flat(a):  # noqa: ANN001, ANN201
    n = a.shape[0]
    if n == 0:
        raise ValueError("attempt to get argmax of an empty sequence")
    best = 0
    m = a[0]
    if m != m:
        return 0
    for i in range(1, n):
        x = a[i]
        if x != x:
            return i
        if x > m:
            m = x
            best = i
    return best


@_lib
def any_flat(a):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        if a[i]:
            return True
    return False


@_lib
def all_flat(a):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        if not a[i]:
            return False
    return True


@_lib
def mean_flat(a):  # noqa: ANN001, ANN201
    return np.divide(sum_flat(a), a.shape[0])  # NumPy division: nan for an empty array


@_lib
def var_flat(a):  # noqa: ANN001, ANN201
    """NumPy's var: mean, then the pairwise sum of squared deviations, over n (ddof=0)."""
    n = a.shape[0]
    mean = np.divide(sum_flat(a), n)
    return np.divide(pairwise_sq_dev(a, mean, 0, n), n)


@_lib
def std_flat(a):  # noqa: ANN001, ANN201
    return np.sqrt(var_flat(a))


@_lib
def cumsum_flat(a, out):  # noqa: ANN001, ANN201
    """NumPy's accumulate: from the first item (so [-0.0] stays -0.0), adding in sequence."""
    if a.shape[0] == 0:
        return out
    s = out.dtype.type(a[0])
    out[0] = s
    for i in range(1, a.shape[0]):
        s += a[i]
        out[i] = s
    return out


@_lib
def cumprod_flat(a, out):  # noqa: ANN001, ANN201
    s = out.dtype.type(1)
    for i in range(a.shape[0]):
        s *= a[i]
        out[i] = s
    return out


@_lib
def dot_vv(a, b):  # noqa: ANN001, ANN201
    n = a.shape[0]
    if b.shape[0] != n:
        raise ValueError("shapes not aligned for dot")
    s = a.dtype.type(0)
    for i in range(n):
        s += a[i] * b[i]
    return s


@_lib
def dot_mv(m, v, out):  # noqa: ANN001, ANN201
    rows, cols = m.shape
    if v.shape[0] != cols:
        raise ValueError("shapes not aligned for dot")
    for i in range(rows):
        s = out.dtype.type(0)
        for k in range(cols):
            s += m[i, k] * v[k]
        out[i] = s
    return out


@_lib
def dot_vm(v, m, out):  # noqa: ANN001, ANN201
    """v @ m: accumulate rows of m scaled by v[k] (unit-stride inner loop)."""
    rows, cols = m.shape
    if v.shape[0] != rows:
        raise ValueError("shapes not aligned for dot")
    for j in range(cols):
        out[j] = out.dtype.type(0)
    for k in range(rows):
        vk = v[k]
        for j in range(cols):
            out[j] += vk * m[k, j]
    return out


BLOCK_K = 128
BLOCK_J = 256


@_lib
def dot_mm(a, b, out):  # noqa: ANN001, ANN201
    """i-k-j order, blocked: a panel of BLOCK_K rows by BLOCK_J columns of b (256 KiB of
    float64) stays in cache while every row of a streams past it; the inner loop runs along
    rows of b and out, unit stride, vectorized."""
    n, m = a.shape
    if b.shape[0] != m:
        raise ValueError("shapes not aligned for dot")
    p = b.shape[1]
    for i in range(n):
        for j in range(p):
            out[i, j] = out.dtype.type(0)
    for k0 in range(0, m, BLOCK_K):
        k1 = min(k0 + BLOCK_K, m)
        for j0 in range(0, p, BLOCK_J):
            j1 = min(j0 + BLOCK_J, p)
            width = j1 - j0
            top = n - n % 4
            for i in range(0, top, 4):  # four rows of out per pass over the panel
                r0 = out[i, j0:j1]  # views indexed from 0: no negative-index wrapping
                r1 = out[i + 1, j0:j1]
                r2 = out[i + 2, j0:j1]
                r3 = out[i + 3, j0:j1]
                for k in range(k0, k1):
                    a0 = a[i, k]
                    a1 = a[i + 1, k]
                    a2 = a[i + 2, k]
                    a3 = a[i + 3, k]
                    brow = b[k, j0:j1]
                    for j in range(width):
                        bj = brow[j]
                        r0[j] += a0 * bj
                        r1[j] += a1 * bj
                        r2[j] += a2 * bj
                        r3[j] += a3 * bj
            for i in range(top, n):
                row = out[i, j0:j1]
                for k in range(k0, k1):
                    aik = a[i, k]
                    brow = b[k, j0:j1]
                    for j in range(width):
                        row[j] += aik * brow[j]
    return out


# One kernel per reduction (a run-time `op` would compile all of them, for every dtype, at the
# first `axis=` reduction: seconds of compile time, and ones that cannot exist, such as the
# maximum of complex numbers). Each reduces every row of a 2-D C array into out[i].


@_lib
def sum_rows(a, out):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        out[i] = pairwise_sum(a[i], 0, a.shape[1])
    return out


@_lib
def prod_rows(a, out):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        out[i] = prod_flat(a[i])
    return out


@_lib
def min_rows(a, out):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        out[i] = min_flat(a[i])
    return out


@_lib
def max_rows(a, out):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        out[i] = max_flat(a[i])
    return out


@_lib
def min_rows_floats(a, out):  # noqa: ANN001, ANN201
    """`min_rows` of floats, each row a vectorized `min_floats`."""
    for i in range(a.shape[0]):
        out[i] = min_floats(a[i])
    return out


@_lib
def max_rows_floats(a, out):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        out[i] = max_floats(a[i])
    return out


@_lib
def any_rows(a, out):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        out[i] = any_flat(a[i])
    return out


@_lib
def all_rows(a, out):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        out[i] = all_flat(a[i])
    return out


@_lib
def mean_rows(a, out):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        out[i] = mean_flat(a[i])
    return out


@_lib
def argreduce_rows(a, out, op):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        if op == 0:
            out[i] = argmin_flat(a[i])
        else:
            out[i] = argmax_flat(a[i])
    return out


@_lib
def var_ddof(a, ddof):  # noqa: ANN001, ANN201
    """NumPy's var with ddof: the squared deviations' pairwise sum over max(n - ddof, 0)."""
    n = a.shape[0]
    mean = np.divide(sum_flat(a), n)
    return np.divide(pairwise_sq_dev(a, mean, 0, n), max(n - ddof, 0))


@_lib
def var_rows(a, out, ddof, root):  # noqa: ANN001, ANN201
    """var (or std, `root`) of each row of a 2-D C array with ddof."""
    for i in range(a.shape[0]):
        v = var_ddof(a[i], ddof)
        out[i] = np.sqrt(v) if root else v
    return out


@_nonnegative
def pairwise_sum_complex(a, lo, n):  # noqa: ANN001, ANN201
    """NumPy's pairwise sum of complex numbers over a[lo:lo+n], as (real, imag): NumPy sums
    the 2n floats of the pairs in its float blocks of 8, so for complex items the blocks are
    4 items (4 accumulators for each part, up to 64 items), halving above at a multiple of 4
    items. (Summed like floats in blocks of 8 items, 9 in 10 sums differed from NumPy's.)"""
    if n < 4:
        zero = a.dtype.type(0)
        sr, si = zero.real, zero.imag
        for i in range(lo, lo + n):
            sr += a[i].real
            si += a[i].imag
        return sr, si
    if n <= PAIRWISE_BLOCK // 2:
        x0, x1, x2, x3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
        r0, r1, r2, r3 = x0.real, x1.real, x2.real, x3.real
        i0, i1, i2, i3 = x0.imag, x1.imag, x2.imag, x3.imag
        end = lo + n - n % 4
        for i in range(lo + 4, end, 4):
            x0, x1, x2, x3 = a[i], a[i + 1], a[i + 2], a[i + 3]
            r0 += x0.real
            i0 += x0.imag
            r1 += x1.real
            i1 += x1.imag
            r2 += x2.real
            i2 += x2.imag
            r3 += x3.real
            i3 += x3.imag
        sr, si = (r0 + r1) + (r2 + r3), (i0 + i1) + (i2 + i3)
        for i in range(end, lo + n):
            sr += a[i].real
            si += a[i].imag
        return sr, si
    half = (n - n % 8) // 2
    r0, i0 = pairwise_sum_complex(a, lo, half)
    r1, i1 = pairwise_sum_complex(a, lo + half, n - half)
    return r0 + r1, i0 + i1


@_lib
def sum_complex(a):  # noqa: ANN001, ANN201
    """np.sum of complex numbers: NumPy's start (0, which turns -0.0 into 0.0) plus the
    pairwise sum."""
    sr, si = pairwise_sum_complex(a, 0, a.shape[0])
    zero = a.dtype.type(0)
    return a.dtype.type(complex(zero.real + sr, zero.imag + si))


@_lib
def mean_complex(a):  # noqa: ANN001, ANN201
    """The sum over n, divided as NumPy's mean divides: by its count, an intp, which makes
    a complex64 sum's division complex128 (then rounded back)."""
    return a.dtype.type(np.divide(sum_complex(a), np.int64(a.shape[0])))


@_nonnegative
def pairwise_abs2_dev(a, mean, lo, n):  # noqa: ANN001, ANN201
    """`pairwise_sq_dev` for complex items: the pairwise sum of |a[i] - mean|**2, each
    computed as NumPy's var does (re*re + im*im of the deviation), a real number."""
    if n < 8:
        s = (mean - mean).real * 0
        for i in range(lo, lo + n):
            d = a[i] - mean
            s += d.real * d.real + d.imag * d.imag
        return s
    if n <= PAIRWISE_BLOCK:
        d0, d1, d2, d3 = a[lo] - mean, a[lo + 1] - mean, a[lo + 2] - mean, a[lo + 3] - mean
        d4, d5, d6, d7 = a[lo + 4] - mean, a[lo + 5] - mean, a[lo + 6] - mean, a[lo + 7] - mean
        r0 = d0.real * d0.real + d0.imag * d0.imag
        r1 = d1.real * d1.real + d1.imag * d1.imag
        r2 = d2.real * d2.real + d2.imag * d2.imag
        r3 = d3.real * d3.real + d3.imag * d3.imag
        r4 = d4.real * d4.real + d4.imag * d4.imag
        r5 = d5.real * d5.real + d5.imag * d5.imag
        r6 = d6.real * d6.real + d6.imag * d6.imag
        r7 = d7.real * d7.real + d7.imag * d7.imag
        end = lo + n - n % 8
        for i in range(lo + 8, end, 8):
            d0, d1, d2, d3 = a[i] - mean, a[i + 1] - mean, a[i + 2] - mean, a[i + 3] - mean
            d4, d5, d6, d7 = a[i + 4] - mean, a[i + 5] - mean, a[i + 6] - mean, a[i + 7] - mean
            r0 += d0.real * d0.real + d0.imag * d0.imag
            r1 += d1.real * d1.real + d1.imag * d1.imag
            r2 += d2.real * d2.real + d2.imag * d2.imag
            r3 += d3.real * d3.real + d3.imag * d3.imag
            r4 += d4.real * d4.real + d4.imag * d4.imag
            r5 += d5.real * d5.real + d5.imag * d5.imag
            r6 += d6.real * d6.real + d6.imag * d6.imag
            r7 += d7.real * d7.real + d7.imag * d7.imag
        s = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        for i in range(end, lo + n):
            d = a[i] - mean
            s += d.real * d.real + d.imag * d.imag
        return s
    half = n // 2
    half -= half % 8
    return pairwise_abs2_dev(a, mean, lo, half) + pairwise_abs2_dev(a, mean, lo + half, n - half)


@_lib
def var_ddof_complex(a, ddof):  # noqa: ANN001, ANN201
    """NumPy's var of complex numbers: the mean, then the pairwise sum of the squared
    magnitudes of the deviations over max(n - ddof, 0); a real number, as NumPy's."""
    n = a.shape[0]
    return np.divide(pairwise_abs2_dev(a, mean_complex(a), 0, n), max(n - ddof, 0))


@_lib
def var_complex(a):  # noqa: ANN001, ANN201
    return var_ddof_complex(a, 0)


@_lib
def std_complex(a):  # noqa: ANN001, ANN201
    return np.sqrt(var_ddof_complex(a, 0))


@_lib
def sum_rows_complex(a, out):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        out[i] = sum_complex(a[i])
    return out


@_lib
def mean_rows_complex(a, out):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        out[i] = mean_complex(a[i])
    return out


@_lib
def var_rows_complex(a, out, ddof, root):  # noqa: ANN001, ANN201
    """var (or std, `root`) of each row of a 2-D C array of complex numbers, with ddof."""
    for i in range(a.shape[0]):
        v = var_ddof_complex(a[i], ddof)
        out[i] = np.sqrt(v) if root else v
    return out
