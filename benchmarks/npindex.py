"""Indexing kernels of issue 15 (masked reduction, fancy gather, masked write) timed as
jitcore, Numba and NumPy: each kernel is NumPy array code, so NumPy runs it as written.

`test_npindex.py` times them with pytest-benchmark (one group per kernel, each result checked
against NumPy's first); `python -m benchmarks.npindex` prints the best times and ratios.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jitcore import jit


def masked_sum(a: np.ndarray) -> float:
    """A boolean mask read and reduced: the selection is a new array, as in NumPy."""
    return a[a > 0.5].sum()  # type: ignore[no-any-return]


def fancy_gather(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """An integer index array into a 1-D array (negative indices included)."""
    return a[idx]


def fancy_gather_rows(x: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Rows of a 2-D array picked by an index array."""
    return x[idx]


def masked_write(a: np.ndarray) -> np.ndarray:
    """A boolean mask written: every element below 0.1 becomes 0."""
    a[a < 0.1] = 0.0
    return a


@dataclass(frozen=True)
class Case:
    name: str
    kernel: Callable[..., Any]
    inputs: Callable[[], tuple[Any, ...]]


def _rng() -> np.random.Generator:
    return np.random.default_rng(15)


N = 1_000_000
CASES = [
    Case("masked_sum", masked_sum, lambda: (_rng().random(N),)),
    Case(
        "fancy_gather",
        fancy_gather,
        lambda: (_rng().random(N), _rng().integers(-N, N, N)),
    ),
    Case(
        "fancy_gather_rows",
        fancy_gather_rows,
        lambda: (_rng().random((20_000, 32)), _rng().integers(0, 20_000, 20_000)),
    ),
    Case("masked_write", masked_write, lambda: (_rng().random(N),)),
]
BY_NAME = {c.name: c for c in CASES}


def jitcore_version(c: Case) -> Callable[..., Any]:
    return jit(c.kernel, mode="compiled")


def numba_version(c: Case) -> Callable[..., Any]:
    import numba

    return numba.njit(c.kernel)


def _best(fn: Callable[..., Any], args: tuple[Any, ...], repeats: int) -> float:
    fn(*args)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def main(names: list[str]) -> None:
    """Print the best of 20 for jitcore, Numba and NumPy (ratios > 1: jitcore is faster)."""
    for c in [BY_NAME[n] for n in names] if names else CASES:
        args = c.inputs()
        ours = _best(jitcore_version(c), args, 20)
        numba = _best(numba_version(c), args, 20)
        numpy = _best(c.kernel, args, 20)
        print(
            f"{c.name:18s} jitcore {ours * 1e3:8.3f} ms  numba {numba * 1e3:8.3f} ms  "
            f"numpy {numpy * 1e3:8.3f} ms  numba/jitcore {numba / ours:5.2f}  "
            f"numpy/jitcore {numpy / ours:5.2f}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
