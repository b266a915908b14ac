"""The issue-15 sorting, searching, statistics and matmul kernels, as plain Python/NumPy
functions that jitcore and Numba compile: `python -m benchmarks.npalgo` prints one line per
kernel with the times of NumPy, jitcore and Numba (best of 7 rounds, the implementations
interleaved in each) and the ratios;
`pytest benchmarks/test_npalgo.py --benchmark-only` times them with pytest-benchmark."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmarks.variants import numba_available
from jitcore import jit


def sort(a):
    return np.sort(a)


def argsort(a):
    return np.argsort(a, kind="stable")


def searchsorted(a, v):
    return np.searchsorted(a, v)


def unique(a):
    return np.unique(a)


def histogram(a):
    return np.histogram(a, 50)


def masked_sum(a):
    return np.sum(np.where(a > 0.5, a, 0.0))


def matmul(a, b):
    return a @ b


def median(a):
    return np.median(a)


@dataclass(frozen=True)
class Case:
    name: str
    kernel: Callable[..., Any]
    inputs: Callable[[], tuple[Any, ...]]


def _rng() -> np.random.Generator:
    return np.random.default_rng(15)


CASES = (
    Case("sort 1e6 float64", sort, lambda: (_rng().random(1_000_000),)),
    Case("argsort 1e6 float64 stable", argsort, lambda: (_rng().random(1_000_000),)),
    Case(
        "searchsorted 1e5 in 1e6",
        searchsorted,
        lambda: (np.sort(_rng().random(1_000_000)), _rng().random(100_000)),
    ),
    Case("unique 1e6 ints", unique, lambda: (_rng().integers(0, 1000, 1_000_000),)),
    Case("histogram 1e6 float64, 50 bins", histogram, lambda: (_rng().random(1_000_000),)),
    Case("median 1e6 float64", median, lambda: (_rng().random(1_000_000),)),
    Case("masked sum 1e6", masked_sum, lambda: (_rng().random(1_000_000),)),
    Case("@ 200x200", matmul, lambda: (_rng().random((200, 200)), _rng().random((200, 200)))),
    Case(
        "@ 1000x1000", matmul, lambda: (_rng().random((1000, 1000)), _rng().random((1000, 1000)))
    ),
)
BY_NAME = {c.name: c for c in CASES}


def jitcore_version(case: Case) -> Any:
    return jit(mode="compiled")(case.kernel)


def numba_version(case: Case) -> Any:
    import numba

    return numba.njit(case.kernel)


def check(result: Any, expected: Any) -> None:
    """Same values (a tuple such as histogram's compared item by item)."""
    if isinstance(expected, tuple):
        for r, e in zip(result, expected, strict=True):
            check(r, e)
        return
    np.testing.assert_allclose(result, expected, rtol=1e-9)


def best_time(fn: Callable[..., Any], args: tuple[Any, ...], repeat: int = 5) -> float:
    fn(*args)  # compile and warm up
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - start)
    return best


def interleaved_best(
    fns: dict[str, Callable[..., Any]], args: tuple[Any, ...], repeat: int = 7
) -> dict[str, float]:
    """Each function's best time over `repeat` rounds, one call of each per round, so that a
    change of the machine's load (2 shared cores) falls on every implementation alike."""
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn(*args)
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main(only: str = "") -> None:
    """Every case, or those whose name contains `only` (`python -m benchmarks.npalgo @`)."""
    for case in CASES:
        if only not in case.name:
            continue
        args = case.inputs()
        expected = case.kernel(*args)
        impls: dict[str, Any] = {"numpy": case.kernel, "jitcore": jitcore_version(case)}
        if numba_available():
            impls["numba"] = numba_version(case)
        working = {}
        for name, fn in impls.items():
            try:
                check(fn(*args), expected)  # compiles and warms up
            except Exception as exc:  # noqa: BLE001 - Numba's @ needs SciPy (an optional extra)
                print(f"{case.name:32} {name}: {type(exc).__name__}: {str(exc)[:60]}")  # noqa: T201
                continue
            working[name] = fn
        times = interleaved_best(working, args)
        ratios = "  ".join(
            f"jitcore/{k} {times['jitcore'] / v:5.2f}x" for k, v in times.items() if k != "jitcore"
        )
        line = "  ".join(f"{k} {v * 1e3:8.2f} ms" for k, v in times.items())
        print(f"{case.name:32} {line}  {ratios}")  # noqa: T201


if __name__ == "__main__":
    import sys

    main(sys.argv[1] if len(sys.argv) > 1 else "")
