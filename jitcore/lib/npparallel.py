"""Library kernels of `parallel=True` functions: reductions whose chunks run on native threads.

A `parallel=True` function's `np.sum` of a large array calls these instead of the serial
kernels of `npkernels` (`reductions`). They give the serial kernels' results bit for bit:

* a float sum cuts the array along NumPy's own pairwise-summation tree (`pairwise_sum` halves
  a range at `n // 2` rounded down to a multiple of 8) into its 64 subtrees at depth 6, sums
  those on the threads, and adds the 64 partial sums back up the same tree, so every addition
  NumPy does is done, on the same operands;
* an integer sum wraps, so any order gives the same total.

Arrays below `PARALLEL_MIN_ITERATIONS` elements (`jitcore.lib.outlining`) are summed serially:
starting the threads would cost more than it saves.
"""

from __future__ import annotations

import numpy as np

from jitcore.lib.npkernels import pairwise_sum
from jitcore.lib.registry import parallel_library_kernel as _par
from jitcore.parallel.api import prange

SUBTREES = 64  # 2**6: at least as many chunks as threads (at most 64, runtime.threads)


@_par
def sum_flat_parallel(a):  # noqa: ANN001, ANN201
    """NumPy's pairwise sum of a contiguous 1-D array, its 64 subtrees summed in parallel."""
    n = a.shape[0]
    if n < 32768:
        return pairwise_sum(a, 0, n)
    starts = np.empty(64, np.int64)
    sizes = np.empty(64, np.int64)
    starts[0] = 0
    sizes[0] = n
    count = 1
    while count < 64:  # split every node in two, from the back so nothing is overwritten
        for j in range(count - 1, -1, -1):
            lo = starts[j]
            m = sizes[j]
            half = m // 2
            half -= half % 8
            starts[2 * j] = lo
            sizes[2 * j] = half
            starts[2 * j + 1] = lo + half
            sizes[2 * j + 1] = m - half
        count *= 2
    parts = np.empty(64, a.dtype)
    for k in prange(64):
        parts[k] = pairwise_sum(a, starts[k], sizes[k])
    while count > 1:  # and add them up the same tree
        count //= 2
        for j in range(count):
            parts[j] = parts[2 * j] + parts[2 * j + 1]
    return parts[0]


@_par
def sum_ints_parallel(a):  # noqa: ANN001, ANN201
    """An integer sum (wrapping, so its order does not matter) on the threads."""
    s = a.dtype.type(0)
    if a.shape[0] < 32768:
        for i in range(a.shape[0]):
            s += a[i]
        return s
    for i in prange(a.shape[0]):
        s += a[i]
    return s


PARALLEL_KERNELS = {"sum_flat": sum_flat_parallel, "sum_ints": sum_ints_parallel}
