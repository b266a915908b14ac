"""Memory stays flat (DESIGN.md section 3): a kernel that creates and drops a 1 MiB array,
called 100,000 times, must not grow the process.

Two ways an array dies: as a temporary inside compiled code (`alloc_temporary`), and as a
result handed to Python and collected there (`alloc_returned`). A leak of either would be
100 GB; the loop stops early, and fails, once the growth passes `LIMIT`, so a leak cannot take
the machine down. RSS before and after goes into `extra_info`.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchmarks import kernels
from benchmarks.harness import first_line
from jitcore import JitError

ELEMENTS = (1 << 20) // 8  # float64 elements in 1 MiB
CALLS = 100_000
LIMIT = 64 << 20  # growth tolerated: allocator caches and the like, never a leak's worth
CHECK_EVERY = 100  # a leak overshoots LIMIT by at most this many arrays

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/statm").exists(), reason="reads RSS from /proc/self/statm (Linux)"
)


def rss() -> int:
    """Resident set size of this process in bytes."""
    resident_pages = int(Path("/proc/self/statm").read_text().split()[1])
    return resident_pages * os.sysconf("SC_PAGE_SIZE")


def churn(fn: Any, start: int) -> int:
    """Call `fn` up to CALLS times; how many calls ran before RSS grew past LIMIT (or all)."""
    for i in range(CALLS):
        fn(ELEMENTS)
        if i % CHECK_EVERY == 0 and rss() - start > LIMIT:
            return i + 1
    return CALLS


def compiled(kernel: Any) -> Any:
    """The kernel in COMPILED mode; skips while jitcore cannot compile array creation."""
    fn = kernel.with_options(mode="compiled")
    try:
        fn(ELEMENTS)
    except (JitError, TypeError) as exc:
        pytest.skip(f"jitcore cannot compile array creation yet: {first_line(str(exc))}")
    return fn


@pytest.mark.parametrize("kernel", ["alloc_temporary", "alloc_returned"])
def test_memory_stays_flat(benchmark: Any, kernel: str) -> None:
    benchmark.group = "memory"
    fn = compiled(getattr(kernels, kernel))
    gc.collect()  # what earlier tests left for the collector is not this test's growth
    before = rss()
    calls = benchmark.pedantic(churn, args=(fn, before), rounds=1, iterations=1)
    after = rss()
    benchmark.extra_info.update(
        kind="memory",
        kernel=kernel,
        impl="jitcore",
        calls=calls,
        array_bytes=ELEMENTS * 8,
        rss_before_mb=before / 2**20,
        rss_after_mb=after / 2**20,
        growth_mb=(after - before) / 2**20,
    )
    assert calls == CALLS and after - before <= LIMIT, (
        f"RSS grew by {(after - before) / 2**20:.1f} MiB over {calls:,} calls of {kernel}"
    )


def test_a_leak_stops_the_loop_early() -> None:
    """The guard itself: a function that keeps every array is stopped well before CALLS."""
    kept: list[np.ndarray] = []
    calls = churn(lambda n: kept.append(np.ones(n)), rss())
    assert calls < CALLS and len(kept) == calls
