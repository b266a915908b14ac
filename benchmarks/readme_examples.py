"""The examples shown in README.md, kept here so that `make test` checks them with
`pytest --jit-diff` (see `jit_diff_modules` in pyproject.toml)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from jitcheck import jitcheck
from jitcore import Array, jit, prange


# Finite bounds: beyond them sin(inf) and exp(-x) raise in Python and compiled code alike, on
# about half of all examples over the whole float line (a check that proves little).
@jitcheck(a=st.floats(-700, 700), b=st.floats(-700, 700), n=st.integers(1, 2000))
@jit
def integrate(a: float, b: float, n: int) -> float:
    """Midpoint rule for the integral of sin(x) * exp(-x) over [a, b]."""
    h = (b - a) / n
    total = 0.0
    for i in range(n):
        x = a + (i + 0.5) * h
        total += math.sin(x) * math.exp(-x)
    return total * h


@jit
def horner(x: float, n: int) -> float:
    """Sum of x**k for k < n, by Horner's rule."""
    total = 0.0
    for _ in range(n):
        total = total * x + 1.0
    return total


@jitcheck(n=st.integers(0, 22))  # naive recursion: keep n small
@jit
def fib(n: int) -> int:
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@jitcheck(rtol=1e-12, bench_args=lambda: (np.linspace(-3.0, 3.0, 100_000),))
@jit
def softplus_sum(a: Array[np.float64, 1]) -> float:
    total = 0.0
    for i in range(a.shape[0]):
        total += math.log1p(math.exp(-abs(a[i]))) + max(a[i], 0.0)
    return total


@jitcheck(shapes="v:(n,) w:(n,)")
@jit
def decay_pair(v: Array[np.float64, 1], w: Array[np.float64, 1], rate: float) -> float:
    """README "Where the inputs come from": two state arrays updated in place, `v` read back
    after `w` is written. jitcheck also passes the same array as both (then the write to
    `w[k]` changes `v[k]`), so a compiler that forwards `v[k]` past it is caught."""
    total = 0.0
    for k in range(v.shape[0]):
        v[k] = v[k] * rate
        w[k] = w[k] + v[k]
        total += v[k]
    return total


@jitcheck(shapes="a:(n,)")
@jit(parallel=True)
def parallel_stats(a: Array[np.float64, 1], t: float) -> tuple:
    """README "Scale out": a prange loop with three reductions (compared with the fast-math
    tolerance: the float sum is summed per thread)."""
    n = 0
    s = 0.0
    hi = a[0]
    for i in prange(a.shape[0]):
        if a[i] > t:
            n += 1
        s += a[i]
        hi = max(hi, a[i])
    return n, s, hi


@jit(mode="compiled")
def first_above(a: Array[np.float64, 1], t: float) -> int | None:
    """README "Optional values": an index, or None when no element exceeds `t`."""
    idx = None
    for i in range(a.shape[0]):
        if a[i] > t:
            idx = i
            break
    return idx
