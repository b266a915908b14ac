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
from jitcheck.compare import Difference, Outcome, Tolerance, compare_outcomes

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
    # How far two correct implementations may drift apart, beyond a few ulps: summation
    # order, and tanh near -1 where 1 + tanh(x) cancels.
    rtol: float = 0.0
    atol: float = 0.0

    def scale(self, n: int) -> float:
        """By how much a time measured at size `n` must be multiplied to stand for `size`."""
        return self.work(self.size) / self.work(n)


def _n(n: int) -> str:
    return f"n={n:,}"


def _kib(n: int) -> str:
    return f"{8 * n // 1024:,} KiB float64"


# A table, so it is laid out as one: sizes first (benchmark, Python, demo, compile latency).
# fmt: off
CASES: tuple[Case, ...] = (
    # Scalar kernels.
    Case("add", k.add, k.add_inputs, size=0, python_size=0, demo_size=0, tiny_size=0,
         label=lambda n: "two floats", work=constant),
    Case("fib", k.fib, k.fib_inputs, size=25, python_size=25, demo_size=22, tiny_size=2,
         label=lambda n: f"fib({n})", work=fib_calls),
    Case("leibniz_pi", k.leibniz_pi, k.leibniz_pi_inputs,
         size=1_000_000, python_size=1_000_000, demo_size=300_000, tiny_size=4,
         label=lambda n: f"{n:,} terms", numpy=ref.leibniz_pi, rtol=1e-12),
    Case("mandel_point", k.mandel_point, k.mandel_point_inputs,
         size=100, python_size=100, demo_size=100, tiny_size=1,
         label=lambda n: f"{n} iterations", work=constant),
    # Loops over arrays.
    Case("count_thresh", k.count_thresh, k.count_thresh_inputs,
         size=1_000_000, python_size=1_000_000, demo_size=300_000, tiny_size=4,
         label=_n, numpy=ref.count_thresh),
    Case("sum_loop", k.sum_loop, k.sum_loop_inputs,
         size=1_000_000, python_size=1_000_000, demo_size=300_000, tiny_size=4,
         label=_n, numpy=ref.sum_loop, rtol=1e-12),
    Case("dot_loop", k.dot_loop, k.dot_loop_inputs,
         size=1_000_000, python_size=1_000_000, demo_size=300_000, tiny_size=4,
         label=_n, numpy=ref.dot_loop, rtol=1e-12),
    Case("prefix_sum", k.prefix_sum, k.prefix_sum_inputs,
         size=1_000_000, python_size=1_000_000, demo_size=300_000, tiny_size=4,
         label=_n, numpy=ref.prefix_sum),
    Case("gelu_loop", k.gelu_loop, k.gelu_loop_inputs,
         size=100_000, python_size=100_000, demo_size=100_000, tiny_size=4,
         label=_n, numpy=ref.gelu_loop, rtol=1e-12, atol=1e-12),
    Case("mandelbrot", k.mandelbrot, k.mandelbrot_inputs,
         size=200, python_size=200, demo_size=100, tiny_size=2,
         label=lambda n: f"{n}x{n}, 100 iter", work=square, numpy=ref.mandelbrot),
    Case("nbody_step", k.nbody_step, k.nbody_step_inputs,
         size=1000, python_size=200, demo_size=200, tiny_size=2,
         label=_n, work=square, numpy=ref.nbody_step, rtol=1e-7),
    Case("pairwise_distances", k.pairwise_distances, k.pairwise_distances_inputs,
         size=1000, python_size=150, demo_size=200, tiny_size=2,
         label=lambda n: f"{n:,} x 3", work=square, numpy=ref.pairwise_distances, rtol=1e-12),
    Case("matmul", k.matmul, k.matmul_inputs,
         size=200, python_size=60, demo_size=60, tiny_size=2,
         label=lambda n: f"{n}x{n}", work=cube, numpy=ref.matmul, rtol=1e-12),
    Case("sieve", k.sieve, k.sieve_inputs,
         size=1_000_000, python_size=1_000_000, demo_size=300_000, tiny_size=2,
         label=lambda n: f"primes <= {n:,}", work=sieve_work, numpy=ref.sieve),
    # Array expressions: the Python version is NumPy code.
    Case("gelu", k.gelu, k.gelu_inputs,
         size=100_000, python_size=100_000, demo_size=100_000, tiny_size=4,
         label=_n, python_is_numpy=True, rtol=1e-12, atol=1e-12),
    Case("fused", k.fused, k.fused_inputs,
         size=10_000_000, python_size=10_000_000, demo_size=1_000_000, tiny_size=4,
         label=_n, python_is_numpy=True),
    Case("logreg_step", k.logreg_step, k.logreg_step_inputs,
         size=2_000_000, python_size=2_000_000, demo_size=200_000, tiny_size=4,
         label=lambda n: f"{n:,} x 10", python_is_numpy=True, resets=(2,), rtol=1e-9),
    # Allocation: what creating and dropping an array costs in the runtime.
    Case("alloc_temporary", k.alloc_temporary, k.alloc_inputs,
         size=131_072, python_size=131_072, demo_size=131_072, tiny_size=4,
         label=_kib, work=constant),
    Case("alloc_returned", k.alloc_returned, k.alloc_inputs,
         size=131_072, python_size=131_072, demo_size=131_072, tiny_size=4,
         label=_kib),
)
# fmt: on

BY_NAME: dict[str, Case] = {case.name: case for case in CASES}


def fresh(args: Inputs) -> Inputs:
    """A copy whose arrays can be written without touching the originals."""
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


def run(fn: Callable[..., Any], args: Inputs) -> Outcome:
    """Call `fn` on a private copy of `args`: what it returned or raised, and the arguments
    afterwards (a kernel's output may be what it wrote into an argument)."""
    mine = fresh(args)
    try:
        value = fn(*mine)
    except Exception as exc:
        return Outcome(error_type=type(exc), error_text=str(exc), args_after=mine)
    return Outcome(value, args_after=mine)


def difference(case: Case, reference: Outcome, other: Outcome) -> Difference | None:
    """Where `other` departs from `reference` by jitcheck's equivalence policy, with the case's
    tolerance for two correct implementations (summation order, ulps of tanh), or None."""
    code = case.kernel.py_func.__code__
    names = code.co_varnames[: code.co_argcount]
    return compare_outcomes(reference, other, Tolerance(rtol=case.rtol, atol=case.atol), names)
