"""Arrays made in compiled code are freed when dead, and returned ones when NumPy collects them:
the runtime's live-byte counter stays flat over many calls."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from jitcore import jit, runtime
from tests.jitcore.support import assert_ran_compiled


def make_and_drop(n):  # noqa: ANN001, ANN201
    tmp = np.ones(n)  # 1 MB for n = 131072
    return tmp[0] + tmp[-1]


def temporaries_in_a_loop(a, steps):  # noqa: ANN001, ANN201
    total = 0.0
    for _ in range(steps):
        b = a * 2.0 + 1.0  # two temporaries per iteration
        total += b[0]
    return total


def returns_views(a):  # noqa: ANN001, ANN201
    t = a * 3
    return t[1:], (t, a[::2])


def raises_midway(n):  # noqa: ANN001, ANN201
    tmp = np.zeros(n)
    if n > 10:
        raise ValueError("too big")
    return tmp.sum()


def test_a_dropped_megabyte_100000_times_keeps_memory_flat() -> None:
    f = jit(make_and_drop, mode="compiled")
    before = runtime.live_bytes()
    for _ in range(100_000):
        assert f(131072) == 2.0
    assert runtime.live_bytes() == before
    assert_ran_compiled(f, (131072,))  # Python would keep memory flat too


def test_temporaries_in_loops_are_freed_each_iteration() -> None:
    f = jit(temporaries_in_a_loop, mode="compiled")
    a = np.arange(1000.0)
    before = runtime.live_bytes()
    assert f(a, 500) == 500.0
    assert runtime.live_bytes() == before
    assert_ran_compiled(f, (a, 500))


def test_returned_arrays_own_their_memory_until_collected() -> None:
    f = jit(returns_views, mode="compiled")
    a = np.arange(10.0)
    before = runtime.live_bytes()
    view, (whole, strided) = f(a)
    assert runtime.live_bytes() == before + 80  # one block of 10 float64, shared by two views
    np.testing.assert_array_equal(view, (a * 3)[1:])
    np.testing.assert_array_equal(strided, a[::2])
    del whole
    gc.collect()
    assert runtime.live_bytes() == before + 80  # `view` still holds the block
    del view
    gc.collect()
    assert runtime.live_bytes() == before
    strided[0] = 42.0  # a view of the argument: keeps the argument alive and writes to it
    assert a[0] == 42.0


def test_exceptions_release_live_arrays() -> None:
    f = jit(raises_midway, mode="compiled")
    before = runtime.live_blocks()
    for _ in range(100):
        with pytest.raises(ValueError):
            f(1000)
    assert f(5) == 0.0
    assert runtime.live_blocks() == before
    assert_ran_compiled(f, (5,))
