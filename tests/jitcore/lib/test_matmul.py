"""`@`/np.dot of 2-D arrays through the blocked kernel (jitcore/lib/npkernels.py dot_mm):
shapes that cross the block edges and the 4-row register tiles, ints exactly, floats to
rounding (BLAS sums in another order)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.jitcore.support import compiled


def matmul(a, b):
    return a @ b


def dot(a, b):
    return np.dot(a, b)


@settings(max_examples=12)
@given(
    n=st.integers(0, 9) | st.integers(125, 135),
    m=st.integers(0, 9) | st.integers(126, 260),
    p=st.integers(0, 9) | st.integers(250, 262),
    seed=st.integers(0, 2**32 - 1),
)
def test_blocked_matmul_matches_numpy(n: int, m: int, p: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a, b = rng.random((n, m)), rng.random((m, p))
    np.testing.assert_allclose(compiled(matmul)(a, b), a @ b, rtol=1e-12, atol=1e-12)
    ai, bi = rng.integers(-9, 9, (n, m)), rng.integers(-9, 9, (m, p))
    assert np.array_equal(compiled(dot)(ai, bi), ai @ bi)
    f = np.asfortranarray(a)
    np.testing.assert_allclose(
        compiled(matmul)(f, b[:, ::-1]), f @ b[:, ::-1], rtol=1e-12, atol=1e-12
    )
