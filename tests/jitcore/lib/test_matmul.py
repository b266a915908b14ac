"""`@`/np.dot of 2-D arrays through the blocked kernel (jitcore/lib/npkernels.py dot_mm):
shapes that cross the block edges and the 4-row register tiles, ints exactly, floats to
rounding (BLAS sums in another order). Float products go to SciPy's BLAS when SciPy is
installed (tests/jitcore/lib/test_blas.py), so the float cases here compile as if SciPy were
missing: the blocked kernel stays tested either way."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from jitcheck import jitcheck
from jitcore import jit
from jitcore.runtime import externs
from tests.jitcore.support import compiled


def matmul(a, b):
    return a @ b


def dot(a, b):
    return np.dot(a, b)


def _blocked(f: Any) -> Any:
    """`f` compiled while SciPy counts as missing (its float products then run dot_mm)."""
    real = externs.scipy_available
    externs.scipy_available = lambda: False  # type: ignore[assignment]
    try:
        compiled_f = jit(mode="compiled")(f)
        compiled_f.compile("array(f64, 2d, C), array(f64, 2d, C)")
        compiled_f.compile("array(f64, 2d, F), array(f64, 2d, A)")
    finally:
        externs.scipy_available = real  # type: ignore[assignment]
    return compiled_f


# `pytest --jit-diff` checks it too, on operands whose shapes fit (most others raise). Python's
# `a @ b` is BLAS, which adds the products in another order: near float64's limit one order
# overflows where the other does not (1.0*MAX + (-MAX)*2.0), so finite elements stay below
# 1e150 (their products and sums cannot overflow); NaN and infinities are drawn too.
_NOT_OVERFLOWING = st.one_of(st.floats(-1e150, 1e150), st.sampled_from([np.nan, np.inf, -np.inf]))
BLOCKED_MATMUL = jitcheck(shapes="a:(n,k) b:(k,m)", a=_NOT_OVERFLOWING, b=_NOT_OVERFLOWING)(
    _blocked(matmul)
)


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
    np.testing.assert_allclose(BLOCKED_MATMUL(a, b), a @ b, rtol=1e-12, atol=1e-12)
    ai, bi = rng.integers(-9, 9, (n, m)), rng.integers(-9, 9, (m, p))
    assert np.array_equal(compiled(dot)(ai, bi), ai @ bi)
    f = np.asfortranarray(a)
    np.testing.assert_allclose(
        BLOCKED_MATMUL(f, b[:, ::-1]), f @ b[:, ::-1], rtol=1e-12, atol=1e-12
    )


def test_the_blocked_version_calls_no_blas() -> None:
    assert "jitcore.scipy" not in BLOCKED_MATMUL.inspect("llvm", BLOCKED_MATMUL.signatures[0])
