"""The timing input's size: the default, unless Python would take far too long on it.

The default timing input has arrays of `BENCH_ELEMENTS` elements. For a kernel whose work
grows faster than its input (pairwise interactions, matrix products: n**2, n**3 work), that
input makes one Python call take seconds or minutes, and the benchmark rounds of the Python
reference then dominate the whole run (an n-body step on 10,000 bodies: 10**8 interactions
in Python per call, more than a minute).

So the array size is chosen by the work Python does on it: starting at 1/256 of the default,
each step quadruples the elements while the next step's predicted work stays within
`LINE_BUDGET` executed lines of Python. The prediction multiplies the last count by the
growth seen over the last step (at least 4: linear). Work is counted in executed lines (a
trace function), not in seconds, so the choice is the same on every run and every machine:
a baseline and the run gated on it time the same input. A kernel whose work is linear in its
arrays, or done by NumPy, keeps the default size. `@jitcheck(bench_args=...)` still overrides
all of this.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from types import FrameType
from typing import Any

import numpy as np

from jitcheck.strategies import BENCH_ELEMENTS, InputPlan, timing_input
from jitcheck.values import fresh_copy

# Executed Python lines one timing call may cost: about 20-60 ms of CPython, enough rounds
# fit in pytest-benchmark's time budget, and compiled code still has work worth timing.
LINE_BUDGET = 400_000
STEPS = 4  # quadruplings below the default size tried: 1/256, 1/64, 1/16, 1/4 of it
LINEAR = 4.0  # growth of the work when the elements quadruple, at least


def sized_timing_input(
    plan: InputPlan,
    explicit: Mapping[str, Any],
    python: Callable[..., Any],
) -> tuple[Any, ...]:
    """The timing input with arrays as large as `LINE_BUDGET` allows, up to the default size;
    `python` is the Python reference that the lines are counted in."""
    full = timing_input(plan, explicit)
    if not _has_arrays(full):
        return full
    previous: int | None = None
    for step in range(STEPS, 0, -1):
        args = timing_input(plan, explicit, max(1, BENCH_ELEMENTS // 4**step))
        lines = count_lines(python, args, LINE_BUDGET)
        if lines is None:
            return full  # Python raised: judge the default input as before
        growth = max(LINEAR, lines / previous) if previous else LINEAR
        if lines * growth > LINE_BUDGET:
            return args
        previous = lines
    return full


def count_lines(python: Callable[..., Any], args: tuple[Any, ...], limit: int) -> int | None:
    """How many lines of Python `python(*args)` executes (on a copy of `args`), counted up to
    a little over `limit` (then the call finishes untraced); None if the call raised."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
            if count > limit:
                frame.f_trace = None
                return None
        return local

    def global_(frame: FrameType, event: str, arg: Any) -> Any:
        return local if count <= limit else None

    copied = fresh_copy(args)
    previous = sys.gettrace()
    sys.settrace(global_)
    try:
        python(*copied)
    except Exception:  # noqa: BLE001 - a raising input is sized by the caller's default
        return None
    finally:
        sys.settrace(previous)
    return count


def _has_arrays(args: tuple[Any, ...]) -> bool:
    return any(
        isinstance(a, np.ndarray) or (isinstance(a, tuple) and _has_arrays(a)) for a in args
    )
