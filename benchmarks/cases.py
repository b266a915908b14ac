"""One `Case` per bundled kernel: its sizes, how its work scales, and its NumPy version.

The benchmarks, the demo and the reference tests all iterate over `CASES`, so adding a kernel
here adds it everywhere. Pure Python is far too slow for some benchmark sizes; it runs at
`python_size` instead and its time is scaled by `work(size) / work(python_size)`, which is
exact for the loop nests here (their cost per unit of work does not depend on the size).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmarks import kernels as k
from benchmarks import reference as ref

Inputs = tuple[Any, ...]


def linear(n: int) -> float:
    return float(n)


def square(n: int) -> float:
    return float(n) ** 2


def cube(n: int) -> float:
    return float(n) ** 3


def constant(n: int) -> float:
    return 1.0


def fib_calls(n: int) -> float:
    """Calls made by the naive recursion, which grow like the golden ratio to the n."""
    return ((1 + math.sqrt(5)) / 2) ** n


def sieve_work(n: int) -> float:
    """The sieve's inner loop runs about n log log n times."""
    return n * math.log(math.log(max(n, 3)))


@dataclass(frozen=True)
class Case:
    """A kernel and everything needed to time and check it."""

    name: str
    kernel: Any  # a jitcore dispatcher
    inputs: Callable[[int], Inputs]
    size: int  # the benchmark size
    python_size: int  # where pure Python (and jitcore falling back to it) is timed
    demo_size: int  # a moderate size for the demo
    tiny_size: int  # for compile latency: running takes next to nothing
    label: Callable[[int], str]  # what a size means, for tables
    work: Callable[[int], float] = linear
    numpy: Callable[..., Any] | None = None  # NumPy version with the kernel's signature
    python_is_numpy: bool = False  # the kernel itself is NumPy array code
    resets: tuple[int, ...] = ()  # positions of arguments that drift: fresh copy per round
    rtol: float = 1e-9  # how close Python and NumPy versions must be (summation order)

    def scale(self, n: int) -> float:
        """By how much a time measured at size `n` must be multiplied to stand for `size`."""
        return self.work(self.size) / self.work(n)


def _n(n: int) -> str:
    return f"n={n:,}"


def _grid(n: int) -> str:
    return f"{n}x{n}"


CASES: tuple[Case, ...] = (
    Case("add", k.add, k.add_inputs, 0, 0, 0, 0, lambda n: "two floats", constant),
    Case("fib", k.fib, k.fib_inputs, 25, 25, 22, 2, lambda n: f"fib({n})", fib_calls),
    Case(
        "leibniz_pi", k.leibniz_pi, k.leibniz_pi_inputs, 1_000_000, 100_000, 300_000, 4,
        lambda n: f"{n:,} terms", numpy=ref.leibniz_pi, rtol=1e-12,
    ),
    Case(
        "mandel_point", k.mandel_point, k.mandel_point_inputs, 100, 100, 100, 1,
        lambda n: f"{n} iterations", constant,
    ),
    Case(
        "count_thresh", k.count_thresh, k.count_thresh_inputs, 1_000_000, 100_000, 300_000, 4,
        _n, numpy=ref.count_thresh,
    ),
    Case(
        "sum_loop", k.sum_loop, k.sum_loop_inputs, 1_000_000, 100_000, 300_000, 4, _n,
        numpy=ref.sum_loop, rtol=1e-12,
    ),
    Case(
        "dot_loop", k.dot_loop, k.dot_loop_inputs, 1_000_000, 100_000, 300_000, 4, _n,
        numpy=ref.dot_loop, rtol=1e-12,
    ),
    Case(
        "prefix_sum", k.prefix_sum, k.prefix_sum_inputs, 1_000_000, 100_000, 300_000, 4, _n,
        numpy=ref.prefix_sum,
    ),
    Case(
        "gelu_loop", k.gelu_loop, k.gelu_loop_inputs, 100_000, 100_000, 100_000, 4, _n,
        numpy=ref.gelu_loop, rtol=1e-12,
    ),
    Case(
        "gelu", k.gelu, k.gelu_inputs, 100_000, 100_000, 100_000, 4, _n, python_is_numpy=True
    ),
    Case(
        "fused", k.fused, k.fused_inputs, 10_000_000, 10_000_000, 1_000_000, 4, _n,
        python_is_numpy=True,
    ),
    Case(
        "logreg_step", k.logreg_step, k.logreg_step_inputs, 2_000_000, 2_000_000, 200_000, 4,
        lambda n: f"{n:,} x 10", python_is_numpy=True, resets=(2,),
    ),
    Case(
        "mandelbrot", k.mandelbrot, k.mandelbrot_inputs, 200, 50, 100, 2,
        lambda n: f"{n}x{n}, 100 iter", square, numpy=ref.mandelbrot, rtol=0.0,
    ),
    Case(
        "nbody_step", k.nbody_step, k.nbody_step_inputs, 1000, 150, 300, 2, _n, square,
        numpy=ref.nbody_step, rtol=1e-7,
    ),
    Case(
        "pairwise_distances", k.pairwise_distances, k.pairwise_distances_inputs, 1000, 150,
        300, 2, lambda n: f"{n:,} x 3", square, numpy=ref.pairwise_distances, rtol=1e-12,
    ),
    Case(
        "matmul", k.matmul, k.matmul_inputs, 200, 50, 80, 2, _grid, cube, numpy=ref.matmul,
        rtol=1e-12,
    ),
    Case(
        "sieve", k.sieve, k.sieve_inputs, 1_000_000, 100_000, 300_000, 2,
        lambda n: f"primes <= {n:,}", sieve_work, numpy=ref.sieve,
    ),
)

BY_NAME: dict[str, Case] = {case.name: case for case in CASES}


def fresh(args: Inputs) -> Inputs:
    """A copy whose arrays can be written without touching the originals."""
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


def outcome(fn: Callable[..., Any], args: Inputs) -> tuple[Any, ...]:
    """Call `fn` on a private copy of `args`: its result, then every array argument afterwards
    (a kernel's output may be what it wrote into an argument)."""
    mine = fresh(args)
    result = fn(*mine)
    return (result, *(a for a in mine if isinstance(a, np.ndarray)))


def agree(expected: Any, actual: Any, rtol: float = 1e-12) -> bool:
    """Equal ints, bools, shapes and dtypes; floats equal within `rtol` (NaN equals NaN).

    TODO: use jitcheck.compare (the project's one equivalence policy) once it exists.
    """
    if isinstance(expected, tuple):
        return (
            isinstance(actual, tuple)
            and len(expected) == len(actual)
            and all(agree(e, a, rtol) for e, a in zip(expected, actual))
        )
    if isinstance(expected, np.ndarray) or isinstance(actual, np.ndarray):
        e, a = np.asarray(expected), np.asarray(actual)
        if e.shape != a.shape or e.dtype != a.dtype:
            return False
        if e.dtype.kind in "fc":
            return bool(np.allclose(a, e, rtol=rtol, atol=0.0, equal_nan=True))
        return bool(np.array_equal(a, e))
    if isinstance(expected, float) or isinstance(actual, float):
        return math.isclose(expected, actual, rel_tol=rtol) or (
            math.isnan(expected) and math.isnan(actual)
        )
    return type(expected) is type(actual) and expected == actual
