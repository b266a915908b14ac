"""Compiled code's random numbers, seen from Python: `jitcore.random.seed(s)`.

Compiled `np.random.*` calls draw from a generator of their own, one MT19937 state per thread
in the native runtime (see `jitcore.lib.nprandom` and `jitcore.runtime.rngstate`), as Numba's
do: Python's `np.random.seed(s)` seeds NumPy's global `RandomState`, not compiled code's.
Seed compiled code's generator with `np.random.seed(s)` inside a jitted function, or with
`seed(s)` here from Python: either seeds the calling thread's state, after which compiled code
draws exactly what NumPy's legacy functions draw after `np.random.seed(s)`.

Forked processes do not repeat their parent's numbers: in a child made by `os.fork`
(multiprocessing's default on Linux), every thread's state is re-seeded from the OS's entropy
at its next use (`jitcore.runtime.rngstate.count_forks`, registered when the runtime is linked,
whether or not this module was imported).
"""

from __future__ import annotations

import numpy as np

from jitcore.api import jit
from jitcore.options import ExecutionMode

__all__ = ["seed"]


@jit(mode=ExecutionMode.COMPILED)
def _seed(s: int) -> None:
    np.random.seed(s)


def seed(s: int) -> None:
    """Seed compiled code's generator for the calling thread with an int in [0, 2**32), as
    `np.random.seed(s)` inside a jitted function does."""
    if isinstance(s, bool) or not isinstance(s, int | np.integer):
        raise TypeError(f"the seed must be an int, not {type(s).__name__}")
    if not 0 <= int(s) <= 0xFFFFFFFF:
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    _seed(int(s))
