"""The user-facing names of parallel loops: `prange` and the thread count."""

from __future__ import annotations


def prange(*args: int) -> range:
    """`range` whose iterations may run in parallel in a function compiled with
    `parallel=True` (each iteration must be independent of the others, apart from the
    reductions `s += ...`, `s *= ...`, `s |= ...`, `s = min(s, ...)`...). Anywhere else it is
    `range`."""
    return range(*args)


def set_num_threads(n: int) -> None:
    """How many threads prange loops use from now on (1 to 64); `JITCORE_NUM_THREADS` sets
    the initial value, else the number of CPUs this process may use."""
    from jitcore import runtime

    runtime.set_num_threads(n)


def get_num_threads() -> int:
    """How many threads prange loops use."""
    from jitcore import runtime

    return runtime.get_num_threads()
