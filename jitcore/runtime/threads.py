"""How many threads prange loops use by default (the runtime's `jitcore_rt_num_threads` is set
to this when it is linked; `jitcore.set_num_threads` changes it)."""

from __future__ import annotations

import os

from jitcore.options import num_threads_from_env

MAX_THREADS = 64  # the launcher's fixed arrays of per-chunk results hold this many


def default_num_threads() -> int:
    """`JITCORE_NUM_THREADS`, else the CPUs this process may run on (1 to MAX_THREADS)."""
    configured = num_threads_from_env()
    if configured is not None:
        return min(configured, MAX_THREADS)
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_THREADS))
