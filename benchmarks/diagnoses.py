"""Kernels that exercise the performance diagnoses of issue 17, one shape of code each.

Each was written to stress one thing the generated code once did worse than Numba: a range with
a run-time step, a float raised to a run-time int power, strided and broadcast operands, axis
reductions of views, stencils whose indices come from clamps, fast-math distance reductions and
sliding dot products. `test_diagnoses.py` times each as jitcore and Numba (and NumPy where the
kernel is NumPy code) in one process; `python -m benchmarks.diagnoses` prints the ratios.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from jitcore import jit


def sieve_steps(n: int) -> int:
    """Primes <= n: the inner loop's step is the prime, known only at run time."""
    flags = np.ones(n + 1, dtype=np.bool_)
    count = 0
    for i in range(2, n + 1):
        if flags[i]:
            count += 1
            for j in range(i * i, n + 1, i):
                flags[j] = False
    return count


def minkowski(X: np.ndarray, p: int) -> np.ndarray:
    """Pairwise Minkowski distances: `abs(d) ** p` with an int p known only at run time."""
    n, d = X.shape
    out = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            s = 0.0
            for k in range(d):
                s += abs(X[i, k] - X[j, k]) ** p
            out[i, j] = s ** (1.0 / p)
    return out


def strided_expression(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """An array expression of every other element: strided operands, one fused loop."""
    return a[::2] * 2.0 + b[1::2]


def broadcast_center(X: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """Rows minus a vector: a broadcast operand with stride 0 along the rows."""
    return (X - mu) * 0.5


def center_in_place(X: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """Rows minus a vector, in place: the destination is read where it is written, which
    LLVM's run-time overlap test took for a conflict (the loop ran scalar until session 6)."""
    X -= mu
    return X


def reverse_cumsum(x: np.ndarray) -> np.ndarray:
    """A scan of a reversed view (diagnosis 6, hidden copies): read in place, not copied."""
    return np.cumsum(x[::-1])[::-1]


def count_above(x: np.ndarray) -> int:
    """The sum of a bool array: read as bools, added as int64 (it was converted first)."""
    return int((x > 0.5).sum())


def float_max(x: np.ndarray) -> float:
    """A NaN-propagating float maximum: one exit-free loop of IEEE maximums (it left the loop
    at each NaN test and ran scalar)."""
    return float(x.max())


def variance(x: np.ndarray) -> float:
    """NumPy's var: squared deviations summed pairwise as they are read, no temporary."""
    return float(x.var())


def outer_distance(x: np.ndarray, y: np.ndarray) -> float:
    """An outer difference (each side broadcast along one axis), then its maximum."""
    return float(np.abs(x[:, None] - y[None, :]).max())


def column_sums_of_view(X: np.ndarray) -> np.ndarray:
    """A reduction along axis 0 of a strided view."""
    return np.sum(X[:, ::2], axis=0)


def stencil_clamped(a: np.ndarray, out: np.ndarray) -> None:
    """A three-point stencil whose neighbours are clamped to the array: the indices come from
    min/max, so a static proof cannot drop their bounds checks."""
    n = a.shape[0]
    for i in range(n):
        out[i] = a[max(i - 1, 0)] + a[i] + a[min(i + 1, n - 1)]


def squared_distance(a: np.ndarray, b: np.ndarray) -> float:
    """A fast-math sum of squares of differences (compiled with fastmath=True)."""
    s = 0.0
    for i in range(a.shape[0]):
        s += (a[i] - b[i]) ** 2
    return s


def manhattan_distance(a: np.ndarray, b: np.ndarray) -> float:
    """A fast-math sum of absolute differences (compiled with fastmath=True)."""
    s = 0.0
    for i in range(a.shape[0]):
        s += abs(a[i] - b[i])
    return s


def sliding_dot(a: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The dot product of `q` with every window of `a` (stumpy's sliding dot product)."""
    m = q.shape[0]
    n = a.shape[0] - m + 1
    out = np.empty(n)
    for i in range(n):
        s = 0.0
        for k in range(m):
            s += a[i + k] * q[k]
        out[i] = s
    return out


def exp_chain(x: float, n: int) -> float:
    """`x = exp(-x)` n times: each exp waits for the previous one (latency, diagnosis 3)."""
    for _ in range(n):
        x = math.exp(-x)
    return x


def exp_sum(a: np.ndarray) -> float:
    """`math.exp` of each element summed: its OverflowError check is an exit per element, so
    the loop runs element by element (throughput of a scalar exp)."""
    s = 0.0
    for i in range(a.shape[0]):
        s += math.exp(a[i])
    return s


def exp_elementwise(a: np.ndarray, out: np.ndarray) -> None:
    """`np.exp` of each element into `out` (no exception: the loop may vectorize)."""
    for i in range(a.shape[0]):
        out[i] = np.exp(a[i])


def tanh_elementwise(a: np.ndarray, out: np.ndarray) -> None:
    """`math.tanh` of each element into `out`: `out`'s bounds check is guarded, and the
    unchecked copy of the loop vectorizes only if LLVM unswitches a body this large."""
    for i in range(a.shape[0]):
        out[i] = math.tanh(a[i])


def sqrt_elementwise(a: np.ndarray, out: np.ndarray) -> None:
    """`math.sqrt` of each element into `out` (diagnosis 4): Python raises ValueError for a
    negative element, so compiled code tests each one (Numba returns NaN instead)."""
    for i in range(a.shape[0]):
        out[i] = math.sqrt(a[i])


@dataclass(frozen=True)
class Diagnosis:
    """One kernel, how to build its inputs, and the jit options it is compiled with."""

    name: str
    kernel: Callable[..., Any]
    inputs: Callable[[], tuple[Any, ...]]
    options: dict[str, Any] = field(default_factory=dict)
    numpy_code: bool = False  # the kernel is NumPy array code: time it as NumPy too


def _rng() -> np.random.Generator:
    return np.random.default_rng(17)


DIAGNOSES = [
    Diagnosis("sieve_steps", sieve_steps, lambda: (1_000_000,)),
    Diagnosis("minkowski", minkowski, lambda: (_rng().random((200, 8)), 3)),
    Diagnosis(
        "strided_expression",
        strided_expression,
        lambda: (_rng().random(2_000_000), _rng().random(2_000_001)),
        numpy_code=True,
    ),
    Diagnosis(
        "broadcast_center",
        broadcast_center,
        lambda: (_rng().random((2000, 500)), _rng().random(500)),
        numpy_code=True,
    ),
    Diagnosis(
        "center_in_place",
        center_in_place,
        lambda: (_rng().random((2000, 500)), _rng().random(500)),
        numpy_code=True,
    ),
    Diagnosis(
        "reverse_cumsum", reverse_cumsum, lambda: (_rng().random(1_000_000),), numpy_code=True
    ),
    Diagnosis("count_above", count_above, lambda: (_rng().random(1_000_000),), numpy_code=True),
    Diagnosis("float_max", float_max, lambda: (_rng().random(1_000_000),), numpy_code=True),
    Diagnosis("variance", variance, lambda: (_rng().random(1_000_000),), numpy_code=True),
    Diagnosis(
        "outer_distance",
        outer_distance,
        lambda: (_rng().random(1000), _rng().random(1000)),
        numpy_code=True,
    ),
    Diagnosis(
        "column_sums_of_view",
        column_sums_of_view,
        lambda: (_rng().random((2000, 1000)),),
        numpy_code=True,
    ),
    Diagnosis(
        "stencil_clamped",
        stencil_clamped,
        lambda: (_rng().random(2_000_000), np.empty(2_000_000)),
    ),
    Diagnosis(
        "squared_distance",
        squared_distance,
        lambda: (_rng().random(2_000_000), _rng().random(2_000_000)),
        {"fastmath": True},
    ),
    Diagnosis(
        "manhattan_distance",
        manhattan_distance,
        lambda: (_rng().random(2_000_000), _rng().random(2_000_000)),
        {"fastmath": True},
    ),
    Diagnosis("sliding_dot", sliding_dot, lambda: (_rng().random(200_000), _rng().random(64))),
    Diagnosis("exp_chain", exp_chain, lambda: (0.5, 1_000_000)),
    Diagnosis("exp_sum", exp_sum, lambda: (_rng().uniform(-5.0, 5.0, 1_000_000),)),
    Diagnosis(
        "exp_elementwise",
        exp_elementwise,
        lambda: (_rng().uniform(-5.0, 5.0, 1_000_000), np.empty(1_000_000)),
    ),
    Diagnosis(
        "tanh_elementwise",
        tanh_elementwise,
        lambda: (_rng().uniform(-5.0, 5.0, 1_000_000), np.empty(1_000_000)),
    ),
    Diagnosis(
        "sqrt_elementwise",
        sqrt_elementwise,
        lambda: (_rng().random(1_000_000), np.empty(1_000_000)),
    ),
]
BY_NAME = {d.name: d for d in DIAGNOSES}


def jitcore_version(d: Diagnosis) -> Callable[..., Any]:
    """Compiled mode: a diagnosis kernel that fell back to Python would time the wrong thing."""
    return jit(d.kernel, mode="compiled", **d.options)


def numba_version(d: Diagnosis) -> Callable[..., Any]:
    import numba

    return numba.njit(d.kernel, **d.options)


def _best(fn: Callable[..., Any], args: tuple[Any, ...], repeats: int) -> float:
    fn(*args)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def main(names: list[str]) -> None:
    """Print jitcore's and Numba's best times and their ratio (> 1: jitcore is faster)."""
    for d in [BY_NAME[n] for n in names] if names else DIAGNOSES:
        args = d.inputs()
        ours = _best(jitcore_version(d), args, 10)
        theirs = _best(numba_version(d), args, 10)
        print(
            f"{d.name:20s} jitcore {ours * 1e3:9.3f} ms  numba {theirs * 1e3:9.3f} ms"
            f"  numba/jitcore {theirs / ours:5.2f}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
