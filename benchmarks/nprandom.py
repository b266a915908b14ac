"""np.random kernels (issue 15) as plain NumPy functions that jitcore and Numba compile:
`python -m benchmarks.nprandom` prints one line per kernel with the times of NumPy, jitcore
and Numba (best of several runs) and the ratios; `pytest benchmarks/test_nprandom.py
--benchmark-only` times them with pytest-benchmark.

Every kernel seeds the generator first, so the three draw the same stream: NumPy's legacy
`RandomState`, which jitcore and Numba both reproduce, and the results are checked equal bit
for bit before anything is timed."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmarks.variants import numba_available
from jitcore import jit

N = 1_000_000
SEED = 15


def fill_random(n):
    np.random.seed(SEED)
    return np.random.random(n)


def fill_randn(n):
    np.random.seed(SEED)
    return np.random.randn(n)


def fill_randint(n):
    np.random.seed(SEED)
    return np.random.randint(0, 1000, n)


def fill_normal(n):
    np.random.seed(SEED)
    return np.random.normal(2.0, 3.0, n)


def scalar_loop(n):
    """One scalar call per draw: what the call costs inside a compiled loop."""
    np.random.seed(SEED)
    s = 0.0
    for _ in range(n):
        s += np.random.random()
    return s


def choice(n):
    np.random.seed(SEED)
    return np.random.choice(1000, n)


def shuffle(a):
    np.random.seed(SEED)
    np.random.shuffle(a)
    return a


def permutation(n):
    np.random.seed(SEED)
    return np.random.permutation(n)


def generator_random(g, n):
    """A np.random.Generator passed in: drawn from in place."""
    return g.random(n)


def generator_integers(g, n):
    return g.integers(0, 1000, n)


def generator_standard_normal(g, n):
    """NumPy's ziggurat: jitcore calls NumPy's own C function per draw."""
    return g.standard_normal(n)


def generator_normal(g, n):
    return g.normal(2.0, 3.0, n)


@dataclass(frozen=True)
class Case:
    name: str
    kernel: Callable[..., Any]
    inputs: Callable[[], tuple[Any, ...]]
    numpy_loops: bool = False  # the NumPy version is a Python loop (timed at a smaller n)


CASES = (
    Case("random 1e6", fill_random, lambda: (N,)),
    Case("randn 1e6", fill_randn, lambda: (N,)),
    Case("randint 1e6 in [0, 1000)", fill_randint, lambda: (N,)),
    Case("normal 1e6", fill_normal, lambda: (N,)),
    Case("scalar random() x 1e6", scalar_loop, lambda: (N,), numpy_loops=True),
    Case("choice 1e6 of 1000", choice, lambda: (N,)),
    Case("shuffle 1e6 float64", shuffle, lambda: (np.arange(float(N)),)),
    Case("permutation 1e6", permutation, lambda: (N,)),
    Case("Generator.random 1e6", generator_random, lambda: (np.random.default_rng(SEED), N)),
    Case("Generator.integers 1e6", generator_integers, lambda: (np.random.default_rng(SEED), N)),
    Case(
        "Generator.standard_normal 1e6",
        generator_standard_normal,
        lambda: (np.random.default_rng(SEED), N),
    ),
    Case("Generator.normal 1e6", generator_normal, lambda: (np.random.default_rng(SEED), N)),
)
BY_NAME = {c.name: c for c in CASES}


def jitcore_version(case: Case) -> Any:
    return jit(mode="compiled")(case.kernel)


def numba_version(case: Case) -> Any:
    import numba

    return numba.njit(case.kernel)


def check(result: Any, expected: Any) -> None:
    """The same numbers, bit for bit (one stream)."""
    assert np.array_equal(result, expected), "not NumPy's stream"


def fresh(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """Copies of array arguments (shuffle works in place) and of Generators (each run draws
    the same stream)."""
    return tuple(
        copy.deepcopy(a) if isinstance(a, np.ndarray | np.random.Generator) else a for a in args
    )


def best_time(fn: Callable[..., Any], args: tuple[Any, ...], repeat: int = 5) -> float:
    fn(*fresh(args))  # compile and warm up
    best = float("inf")
    for _ in range(repeat):
        copies = fresh(args)
        start = time.perf_counter()
        fn(*copies)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    for case in CASES:
        args = case.inputs()
        expected = case.kernel(*fresh(args))
        impls: dict[str, Any] = {"numpy": case.kernel, "jitcore": jitcore_version(case)}
        if numba_available():
            impls["numba"] = numba_version(case)
        times = {}
        for name, fn in impls.items():
            check(fn(*fresh(args)), expected)
            times[name] = best_time(fn, args, 2 if case.numpy_loops and name == "numpy" else 5)
        ratios = "  ".join(
            f"jitcore/{k} {times['jitcore'] / v:5.2f}x" for k, v in times.items() if k != "jitcore"
        )
        line = "  ".join(f"{k} {v * 1e3:8.2f} ms" for k, v in times.items())
        print(f"{case.name:28} {line}  {ratios}")  # noqa: T201


if __name__ == "__main__":
    main()
