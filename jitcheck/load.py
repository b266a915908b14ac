"""How busy the rest of the machine was while a function was timed.

Timings are compared across runs, and some comparisons are only fair when the machine was
as free in both: a parallel mode whose threads find a core taken by another process waits for
its slowest thread, by an amount that depends on the scheduler (on a 2-core machine with one
CPU hog, `parallel_stats` measured +23% one run and 0% the next), and no statistic of one
run's rounds can tell that from a regression. So each timing records the cores that *other*
processes kept busy meanwhile: the machine's busy time from /proc/stat minus this process's
own CPU time (its threads included), over the wall time. Linux only; elsewhere it is None and
the gate compares as before.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

PROC_STAT = "/proc/stat"


def _machine_busy_seconds() -> float | None:
    """Seconds of CPU time all processes have used since boot (None without /proc/stat)."""
    try:
        with open(PROC_STAT) as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    ticks = [int(v) for v in fields[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle and iowait
    busy = sum(ticks[:8]) - idle  # user nice system idle iowait irq softirq steal
    return busy / os.sysconf("SC_CLK_TCK")


def _own_seconds() -> float:
    """This process's CPU time, all its threads (nanosecond resolution: os.times() counts in
    10 ms ticks, too coarse for a timing of 50 ms)."""
    return time.process_time()


@contextmanager
def other_load() -> Iterator[list[float | None]]:
    """`with other_load() as load:` ... then `load[0]` holds the cores other processes kept
    busy during the block, on average (None where it cannot be read)."""
    result: list[float | None] = [None]
    start_busy, start_own, start = _machine_busy_seconds(), _own_seconds(), time.monotonic()
    try:
        yield result
    finally:
        end_busy, wall = _machine_busy_seconds(), time.monotonic() - start
        if start_busy is not None and end_busy is not None and wall > 0:
            others = (end_busy - start_busy) - (_own_seconds() - start_own)
            result[0] = round(max(0.0, others / wall), 3)


@contextmanager
def cores_used() -> Iterator[list[float | None]]:
    """`with cores_used() as cores:` ... then `cores[0]` holds this process's CPU time over
    the wall time of the block: about 1 for one busy thread, more for several."""
    result: list[float | None] = [None]
    start_own, start = _own_seconds(), time.monotonic()
    try:
        yield result
    finally:
        wall = time.monotonic() - start
        if wall > 0:
            result[0] = round((_own_seconds() - start_own) / wall, 3)
