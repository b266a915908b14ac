"""What the benchmark suites share: which implementation runs at which size, and whether
jitcore really compiled a kernel or fell back to Python.

Every implementation of a kernel is a group in pytest-benchmark's table, and records in
`extra_info` what `table.py` needs: the kernel, the implementation, the measured size, the
factor that scales its time to the benchmark size, and jitcore's status.
"""

from __future__ import annotations

import functools
import time
import warnings
from collections.abc import Callable
from typing import Any

import pytest

from benchmarks.cases import BY_NAME, Case, Inputs, fresh
from benchmarks.variants import numba_available, numba_version, pure_python
from jitcore.errors import JitFallbackWarning

IMPLEMENTATIONS = ("python", "numpy", "jitcore", "numba")


def applies(case: Case, impl: str) -> bool:
    """Whether a kernel has this implementation at all (Numba is checked at run time).

    A kernel written as NumPy array code has no separate Python version: timing its Python
    function is timing NumPy, so it is reported as "numpy" only.
    """
    if impl == "python":
        return not case.python_is_numpy
    if impl == "numpy":
        return case.python_is_numpy or case.numpy is not None
    return True


@functools.lru_cache(maxsize=4)
def inputs(name: str, n: int) -> Inputs:
    """Inputs built once per size: the implementations of a kernel run one after another."""
    return BY_NAME[name].inputs(n)


def first_line(message: str, limit: int = 160) -> str:
    """One line of an error message, for a skip reason or a table cell."""
    line = message.strip().splitlines()[0] if message.strip() else "no message"
    return line if len(line) <= limit else line[: limit - 3] + "..."


def fallback_reason(kernel: Any, args: Inputs) -> str | None:
    """Call a dispatcher in AUTO mode: None if it ran compiled code, else why it ran Python.

    A fallback shows as no compiled signature (each kernel is called with one set of types);
    the reason is the text of the warning, which the dispatcher gives only once.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", JitFallbackWarning)
        kernel(*args)
    if kernel.signatures:
        return None
    reasons = [str(w.message) for w in caught if issubclass(w.category, JitFallbackWarning)]
    reason = reasons[0].split(" as Python: ", 1)[-1] if reasons else "fell back to Python"
    return first_line(reason)


@functools.cache
def jitcore_fallback(name: str) -> str | None:
    """None if jitcore compiles the bundled kernel, else why not (probed on tiny inputs, which
    have the same types as the real ones; this first call is also the compilation)."""
    case = BY_NAME[name]
    return fallback_reason(case.kernel, case.inputs(case.tiny_size))


@functools.cache
def python_version(name: str) -> Callable[..., Any]:
    return pure_python(BY_NAME[name].kernel)


def implementation(case: Case, impl: str) -> tuple[Callable[..., Any], int, dict[str, Any]]:
    """The function to time, the size to time it at, and what to record about it."""
    if impl == "python":
        return python_version(case.name), case.python_size, {}
    if impl == "numpy":
        fn = case.numpy if case.numpy is not None else python_version(case.name)
        return fn, case.size, {}
    if impl == "jitcore":
        reason = jitcore_fallback(case.name)
        if reason is None:
            return case.kernel, case.size, {"jitcore": "compiled"}
        # Falling back means running Python: time it where Python is timed.
        return case.kernel, case.python_size, {"jitcore": "fallback", "reason": reason}
    if impl == "numba":
        if not numba_available():
            pytest.skip("numba is not installed (optional: pip install numba)")
        return numba_version(case.kernel), case.size, {}
    raise ValueError(f"unknown implementation {impl!r}")


def warm_up(impl: str, fn: Callable[..., Any], args: Inputs) -> None:
    """The first call compiles (jitcore, Numba); it is not part of what is timed."""
    try:
        fn(*fresh(args))
    except Exception as exc:
        if impl != "numba":
            raise
        pytest.skip(f"numba cannot compile this kernel: {first_line(str(exc))}")


def time_once(fn: Callable[..., Any], args: Inputs) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def rounds_for(seconds: float, budget: float, least: int, most: int) -> int:
    """As many rounds as fit in `budget`, within [least, most]."""
    return max(least, min(most, int(budget / max(seconds, 1e-9))))


def run_benchmark(
    benchmark: Any, fn: Callable[..., Any], args: Inputs, resets: tuple[int, ...], budget: float
) -> None:
    """Time `fn(*args)`; arguments listed in `resets` are copied fresh before every round,
    outside the timing (a kernel that updates its input in place would otherwise drift)."""
    if not resets:
        benchmark(fn, *args)
        return

    def setup() -> tuple[Inputs, dict[str, Any]]:
        return tuple(a.copy() if i in resets else a for i, a in enumerate(args)), {}

    rounds = rounds_for(time_once(fn, setup()[0]), budget, 3, 50)
    benchmark.pedantic(fn, setup=setup, rounds=rounds, warmup_rounds=1)
