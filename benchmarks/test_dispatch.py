"""Call overhead (DESIGN.md section 5): a warm call of a tiny function, Python vs jitcore vs
Numba, one pytest-benchmark group per call.

The functions do next to nothing, so what is timed is the call: for jitcore the native
`__call__` that checks the argument types and enters the compiled code, for Numba its
dispatcher, for Python the interpreter's own call. Every implementation is called once before
timing (compilation is not timed) and then `ITERATIONS` times per round, so the medians, which
pytest-benchmark reports per call, are meaningful in nanoseconds. They include the benchmark's
own loop (`for _ in range(n): fn(*args)`), the same for every implementation.

jitcore runs in its default AUTO mode, as a user calls it; `extra_info` records whether it
compiled the function and whether its class got the native `__call__` (a signature the native
dispatcher does not handle, such as a NumPy-scalar result, goes through Python-level dispatch).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from benchmarks.harness import fallback_reason, first_line
from benchmarks.variants import numba_available

IMPLS = ("python", "jitcore", "numba")
ITERATIONS = 10_000
ROUNDS = 50  # short rounds: a few disturbed by other processes do not move the median


def add(a, b):
    return a + b


def first(a):
    return a[0]


def mixed(i, x, flag, a, pair):
    s = a[i] * x + pair[0] - pair[1]
    if flag:
        return s
    return -s


@dataclass(frozen=True)
class Call:
    """A function and the arguments it is called with; `label` is how the table shows it."""

    name: str
    fn: Callable[..., Any]
    args: Callable[[], tuple[Any, ...]]
    label: str


CALLS = [
    Call("add", add, lambda: (1, 2), "int, int"),
    Call("first", first, lambda: (np.arange(8.0),), "float64[8]"),
    Call(
        "mixed",
        mixed,
        lambda: (2, 1.5, True, np.arange(8.0), (0.5, 0.25)),
        "int, float, bool, float64[8], (float, float)",
    ),
]
# Not one of the three overheads asked for, but the path a NumPy-scalar result takes: jitcore
# wraps it (`np.float32(...)`) in Python, so the native `__call__` does not handle it.
CALLS.append(Call("first_f32", first, lambda: (np.arange(8, dtype=np.float32),), "float32[8]"))
BY_NAME = {call.name: call for call in CALLS}


@functools.cache
def jitted(name: str) -> Any:
    """One jitcore dispatcher per function, created when first timed (after `conftest.py` has
    turned the verifier off: `@jit` reads `JITCORE_DEBUG` when it runs)."""
    from jitcore import jit

    return jit(BY_NAME[name].fn)


@functools.cache
def numba_jitted(name: str) -> Any:
    import numba

    return numba.njit(BY_NAME[name].fn)


def has_native_call(dispatcher: Any) -> bool:
    """Whether the dispatcher's class got a generated native `__call__`."""
    from jitcore.dispatcher import Dispatcher

    return type(dispatcher).__call__ is not Dispatcher.__call__


def implementation(call: Call, impl: str, args: tuple[Any, ...]) -> tuple[Any, dict[str, Any]]:
    """The callable to time, already called once (compiled), and what to record about it."""
    if impl == "python":
        return call.fn, {}
    if impl == "jitcore":
        fn = jitted(call.name)
        reason = fallback_reason(fn, args)  # the first call: compiles
        if reason is not None:
            return fn, {"jitcore": "fallback", "reason": reason, "dispatch": "python"}
        return fn, {
            "jitcore": "compiled",
            "dispatch": "native" if has_native_call(fn) else "python",
        }
    if impl == "numba":
        if not numba_available():
            pytest.skip("numba is not installed (optional: pip install numba)")
        fn = numba_jitted(call.name)
        try:
            fn(*args)
        except Exception as exc:
            pytest.skip(f"numba cannot compile this function: {first_line(str(exc))}")
        return fn, {}
    raise ValueError(f"unknown implementation {impl!r}")


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("name", [call.name for call in CALLS])
def test_dispatch(benchmark: Any, name: str, impl: str) -> None:
    call = BY_NAME[name]
    benchmark.group = f"{name} (call overhead)"
    args = call.args()
    fn, info = implementation(call, impl, args)
    expected = call.fn(*args)
    assert fn(*args) == expected, f"{impl} {name}{args} = {fn(*args)!r}, not {expected!r}"
    benchmark.extra_info.update(
        kind="dispatch", kernel=name, impl=impl, label=call.label, iterations=ITERATIONS, **info
    )
    benchmark.pedantic(fn, args=args, rounds=ROUNDS, iterations=ITERATIONS, warmup_rounds=2)
