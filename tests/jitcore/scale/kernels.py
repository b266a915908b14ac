"""Jitted kernels importable by worker processes (pickled by reference in the scale tests).

No `cache=True` here: a test turns the cache on for its workers with JITCORE_CACHE=1 and a
JITCORE_CACHE_DIR of its own, read when a worker imports this module.
"""

from __future__ import annotations

import numpy as np

from jitcore import jit, prange

SCALE = 2.0


@jit(mode="compiled")
def scaled_sum(a: np.ndarray) -> float:
    """A module-level kernel: pickles by reference; reads a module constant."""
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * SCALE
    return s


@jit(mode="compiled")
def chunk_stats(a: np.ndarray) -> tuple:
    """What a Dask task computes per chunk: count above a threshold, and the sum of squares."""
    n = 0
    s = 0.0
    for i in range(a.shape[0]):
        if a[i] > 0.5:
            n += 1
        s += a[i] * a[i]
    return n, s


def make_power_sum(p: int) -> object:
    """A closure over `p` and a jitted helper: not importable, so it pickles by value."""

    @jit(mode="compiled")
    def power(x: float) -> float:
        r = 1.0
        for _ in range(p):
            r *= x
        return r

    @jit(mode="compiled")
    def power_sum(a: np.ndarray, offset: float = 0.0) -> float:
        s = offset
        for i in range(a.shape[0]):
            s += power(a[i]) * SCALE + np.sqrt(abs(a[i]))
        return s

    return power_sum


def run_in_worker(data: tuple) -> tuple:
    """Call a pickled jitted function in a worker; report its result and whether this process
    loaded it from the disk cache."""
    func, arg = data
    result = func(arg)
    return result, func.stats().cache_hit


@jit(mode="compiled", parallel=True)
def parallel_count(a: np.ndarray) -> tuple:
    """A prange kernel: its loop body is a function of its own, found by the cache as
    `parallel_count.__jitcore_prange_0__`."""
    n = 0
    s = 0.0
    for i in prange(a.shape[0]):
        if a[i] > 0.5:
            n += 1
        s += a[i]
    return n, s
