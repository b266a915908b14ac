"""Raising blocks merged after reference counting (`jitcore.raisemerge`): identical ones
become one, and those releasing the same references share one release block. Fewer blocks for
LLVM, and every check still raises its own exception, releasing what it held."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import jit, runtime
from tests.jitcore.support import assert_ran_compiled, assert_same_arrays


def gather(a, b, idx, out):  # noqa: ANN001, ANN201
    """Each element of `idx` indexes both arrays: many checks, few distinct ways to fail."""
    for k in range(idx.shape[0]):
        i = idx[k]
        out[k] = a[i, 0] + a[i, 1] + b[i] * a[i, 2]
    return out


def two_messages(a, i, j):  # noqa: ANN001, ANN201
    return a[i, j] + a[j, i] + a[i, i] + a[j, j]


def test_the_copies_are_gone_from_the_lowered_code() -> None:
    f = jit(gather, mode="compiled")
    f(np.zeros((3, 3)), np.zeros(3), np.array([0, 2]), np.zeros(2))
    raises = [line for line in f.inspect("lower").splitlines() if line.startswith("  raise ")]
    assert len(raises) == len(set(raises))  # one block per exception and message


@given(
    st.integers(0, 4),
    st.integers(1, 4),
    st.lists(st.integers(-6, 6), max_size=6),
)
def test_every_check_still_raises_like_python(rows: int, cols: int, idx: list[int]) -> None:
    a = np.arange(rows * cols, dtype=np.float64).reshape(rows, cols)
    assert_same_arrays(gather, a, np.ones(rows), np.array(idx, dtype=np.int64), np.zeros(len(idx)))


@pytest.mark.parametrize(("i", "j"), [(0, 5), (5, 0), (-4, 1), (1, -4), (2, 2)])
def test_the_message_names_the_axis(i: int, j: int) -> None:
    a = np.ones((3, 4))
    assert_same_arrays(two_messages, a, i, j)


def many_ways_to_fail(a, b, k, d):  # noqa: ANN001, ANN201
    """Temporaries alive across checks that raise different exceptions."""
    t = a * 2.0
    u = t + b  # ValueError when the shapes do not broadcast
    v = np.empty(k)  # ValueError for a negative size
    s = float(u[k]) + v.size  # IndexError
    return s / d + t[0]  # ZeroDivisionError


def _raising_blocks(listing: str) -> list[list[str]]:
    """The lines of each block of a lowered listing that ends by raising."""
    blocks: list[list[str]] = []
    for line in listing.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            blocks.append([])
        elif blocks:
            blocks[-1].append(line.strip())
    return [b for b in blocks if b and b[-1].startswith(("raise", "reraise"))]


def test_raising_blocks_share_their_releases() -> None:
    f = jit(many_ways_to_fail, mode="compiled")
    f(np.ones(3), np.ones(3), 1, 2.0)
    released = [
        frozenset(line.split()[-3] for line in block if " = decref " in line)
        for block in _raising_blocks(f.inspect("lower"))
    ]
    releasing = [r for r in released if r]
    assert releasing  # the temporaries are released on the way out
    assert len(releasing) == len(set(releasing))  # one block per set of references


@pytest.mark.parametrize(
    ("b", "k", "d", "error"),
    [
        (np.ones(4), 1, 2.0, ValueError),
        (np.ones(3), -1, 2.0, ValueError),
        (np.ones(3), 5, 2.0, IndexError),
        (np.ones(3), 1, 0.0, ZeroDivisionError),
    ],
)
def test_each_shared_release_raises_its_own_exception(b, k, d, error) -> None:  # noqa: ANN001
    f = jit(many_ways_to_fail, mode="compiled")
    a = np.ones(3)
    with pytest.raises(error) as python:
        many_ways_to_fail(a, b, k, d)
    before = runtime.live_blocks()
    for _ in range(20):
        with pytest.raises(error) as compiled:
            f(a, b, k, d)
        assert type(compiled.value) is type(python.value)
    assert runtime.live_blocks() == before  # every temporary released on every path
    assert_ran_compiled(f, (a, np.ones(3), 1, 2.0))
