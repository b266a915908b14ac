"""Reference counting (`jitcore.refcount`): array arguments are borrowed, and every way a
callee hands an argument on (return, a phi, a tuple, a list, a raise) keeps the counts
balanced. The arrays are made in compiled code, so they have runtime blocks to count."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import jit, runtime
from tests.jitcore.support import ci_examples


@jit(mode="compiled")
def same(a):
    return a


@jit(mode="compiled")
def either(a, b, first):
    x = a
    if not first:
        x = b
    return x


@jit(mode="compiled")
def last_of(a, b, n):
    x = a
    for _ in range(n):
        x = b
    return x


@jit(mode="compiled")
def in_tuple(a):
    return a, a.shape[0]


@jit(mode="compiled")
def in_list(a):
    out = [a]
    out.append(a)
    return out


@jit(mode="compiled")
def raise_after_use(a, k):
    if a[0] > k:
        raise ValueError("too big")
    return a


@jit(mode="compiled")
def callers(n, k, first):
    """Arrays made here (runtime blocks), handed to each callee, every result summed."""
    a = np.ones(n)
    b = np.zeros(n)
    total = same(a).sum() + either(a, b, first).sum() + last_of(a, b, k).sum()
    t = in_tuple(b)
    total += t[0].sum() + t[1]
    for x in in_list(a):
        total += x.sum()
    try:
        total += raise_after_use(a, k).sum()
    except ValueError:
        total -= 1.0
    return total, same(np.arange(n * 1.0))


@given(n=st.integers(1, 20), k=st.integers(0, 3), first=st.booleans())
@ci_examples(40)
def test_handing_on_an_argument_balances_every_reference(n: int, k: int, first: bool) -> None:
    before = runtime.live_blocks()
    total, kept = callers(n, k, first)
    assert total == callers.py_func(n, k, first)[0]
    np.testing.assert_array_equal(kept, np.arange(n * 1.0))
    assert runtime.live_blocks() == before + 1  # only `kept`, owned by Python now
    del kept
    assert runtime.live_blocks() == before


@pytest.mark.parametrize("fn", [same, raise_after_use])
def test_an_argument_is_only_increfed_to_be_returned(fn: object) -> None:
    a = np.ones(3)
    fn(a, 5) if fn is raise_after_use else fn(a)  # type: ignore[operator]
    lines = [line.strip() for line in fn.inspect("lower").splitlines()]  # type: ignore
    assert not any(line.endswith("decref a : none") for line in lines)
    increfs = [k for k, line in enumerate(lines) if line.endswith("incref a : none")]
    assert increfs and all(lines[k + 1] == "return a" for k in increfs)


def test_a_returned_argument_outlives_the_caller_that_made_it() -> None:
    @jit(mode="compiled")
    def make_and_return(n):
        return same(np.full(n, 2.0))

    before = runtime.live_blocks()
    out = make_and_return(4)
    np.testing.assert_array_equal(out, np.full(4, 2.0))
    del out
    assert runtime.live_blocks() == before
