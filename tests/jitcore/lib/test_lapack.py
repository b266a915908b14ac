"""np.linalg through SciPy's LAPACK (jitcore/lib/lapack.py), compiled vs NumPy on Hypothesis
matrices: float64, float32, complex and int dtypes; C, Fortran, strided and reversed layouts;
empty and 1x1 matrices, singular ones and NaN; NumPy's LinAlgError and shape errors. Where
NumPy's result is deterministic (same LAPACK routine on the same Fortran-ordered copy) it is
compared directly; eigenvectors and singular vectors, whose signs LAPACK builds may choose
differently, are compared by reconstruction. Without SciPy: an UnsupportedError naming the
extra."""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jitcore.lib.catalog  # noqa: F401 - every rule registered first, in the README's order
from jitcore import TypingError, UnsupportedError, jit
from jitcore.lib import blas, lapack
from jitcore.runtime import externs
from tests.jitcore.lib.arrays_strategy import laid_out
from tests.jitcore.support import compiled

pytestmark = pytest.mark.skipif(not blas.available(), reason="SciPy is not installed")

LinAlgError = np.linalg.LinAlgError
DTYPES = ("float64", "float32", "complex128", "complex64", "int64")
LAYOUTS = ("C", "F", "strided", "reversed")


def solve(a, b):
    return np.linalg.solve(a, b)


def inv(a):
    return np.linalg.inv(a)


def det(a):
    return np.linalg.det(a)


def slogdet(a):
    return np.linalg.slogdet(a)


def cholesky(a):
    return np.linalg.cholesky(a)


def cholesky_upper(a):
    return np.linalg.cholesky(a, upper=True)


def eigh(a):
    return np.linalg.eigh(a)


def eigh_upper(a):
    return np.linalg.eigh(a, UPLO="U")


def eigvalsh(a):
    return np.linalg.eigvalsh(a)


def eig(a):
    return np.linalg.eig(a)


def eigvals(a):
    return np.linalg.eigvals(a)


def svd(a):
    return np.linalg.svd(a)


def svd_reduced(a):
    return np.linalg.svd(a, full_matrices=False)


def singular_values(a):
    return np.linalg.svd(a, compute_uv=False)


def qr(a):
    return np.linalg.qr(a)


def qr_complete(a):
    return np.linalg.qr(a, mode="complete")


def qr_r(a):
    return np.linalg.qr(a, mode="r")


def lstsq(a, b):
    return np.linalg.lstsq(a, b)


def lstsq_rcond(a, b, rcond):
    return np.linalg.lstsq(a, b, rcond=rcond)


def pinv(a):
    return np.linalg.pinv(a)


def matrix_rank(a):
    return np.linalg.matrix_rank(a)


def matrix_rank_tol(a, tol):
    return np.linalg.matrix_rank(a, tol)


# --- inputs ---------------------------------------------------------------------------------


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    if dtype.startswith("int"):
        return rng.integers(-5, 6, shape).astype(dtype)
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@st.composite
def matrices(
    draw: st.DrawFn, square: bool = True, kinds: tuple[str, ...] = ("plain", "singular", "nan")
) -> np.ndarray:
    dtype = draw(st.sampled_from(DTYPES))
    m = draw(st.integers(0, 5))
    n = m if square else draw(st.integers(0, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    a = _values(rng, (m, n), dtype)
    kind = draw(st.sampled_from(kinds))
    if kind == "singular" and m > 1:
        a[-1] = a[0]
    if kind == "nan" and a.size and a.dtype.kind in "fc":
        a.flat[rng.integers(a.size)] = np.nan
    return laid_out(a, draw(st.sampled_from(LAYOUTS)))


def _hermitian(a: np.ndarray, shift: float) -> np.ndarray:
    """A Hermitian (positive definite for a large shift) matrix of a's dtype and layout."""
    h = a @ a.conj().T if a.dtype.kind in "fc" else (a @ a.T).astype(np.float64)
    h = h + shift * np.eye(a.shape[0], dtype=h.dtype)
    return laid_out(np.ascontiguousarray(h), "F" if a.flags.f_contiguous else "C")


def _eps(*arrays: np.ndarray) -> float:
    single = all(x.dtype in (np.float32, np.complex64) for x in arrays)
    return float(np.finfo(np.float32 if single else np.float64).eps)


def _outcome(f: Any, *args: Any) -> tuple[str, Any]:
    try:
        return "value", f(*args)
    except (LinAlgError, ValueError) as exc:
        return type(exc).__name__, exc


def _same_outcome(f: Any, *args: Any) -> tuple[Any, Any] | None:
    """NumPy's and the compiled result, or None when both raised the same exception."""
    kind, expected = _outcome(f, *args)
    got_kind, got = _outcome(compiled(f), *[x.copy() if hasattr(x, "copy") else x for x in args])
    assert got_kind == kind, f"{f.__name__}: NumPy {kind} {expected!r}, compiled {got!r}"
    return None if kind != "value" else (got, expected)


def _close(got: Any, expected: Any, eps: float, scale: float = 1.0) -> None:
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    finite = np.isfinite(expected)
    assert np.array_equal(np.isnan(got), np.isnan(expected))
    tol = 1e3 * eps * max(scale, 1.0)
    np.testing.assert_allclose(got[finite], expected[finite], rtol=tol, atol=tol)


def _cond(a: np.ndarray) -> float:
    if a.size == 0:
        return 1.0
    if not np.isfinite(a).all():
        return np.inf
    with np.errstate(all="ignore"):
        c = np.linalg.cond(a.astype(np.complex128))
    return float(c) if np.isfinite(c) else np.inf


# --- solve, inv, det, slogdet ---------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(a=matrices(), k=st.integers(0, 3), vector=st.booleans(), seed=st.integers(0, 99))
def test_solve_and_inv_match_numpy(a: np.ndarray, k: int, vector: bool, seed: int) -> None:
    b = _values(
        np.random.default_rng(seed), (a.shape[0],) if vector else (a.shape[0], k), "float64"
    )
    cond = _cond(a)
    for f, args in ((solve, (a, b)), (inv, (a,))):
        both = _same_outcome(f, *args)
        if both is not None and cond < 1e6:
            _close(*both, _eps(*args), cond)


@settings(max_examples=30, deadline=None)
@given(a=matrices())
def test_det_and_slogdet_match_numpy(a: np.ndarray) -> None:
    eps = _eps(a)
    both = _same_outcome(det, a)
    assert both is not None
    got, expected = both
    assert np.asarray(got).dtype == np.asarray(expected).dtype
    scale = float(np.abs(expected)) if np.isfinite(expected) else 1.0
    np.testing.assert_allclose(got, expected, rtol=1e3 * eps, atol=1e3 * eps * max(scale, 1))
    both = _same_outcome(slogdet, a)
    assert both is not None
    (sign, logdet), expected = both
    _close(sign, expected.sign, eps)
    if np.isfinite(expected.logabsdet):
        _close(logdet, expected.logabsdet, eps, abs(expected.logabsdet))
    else:
        assert np.array_equal(logdet, expected.logabsdet, equal_nan=True)


def test_singular_matrices_raise_linalg_error() -> None:
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    for f, args in ((solve, (a, np.ones(2))), (inv, (a,))):
        with pytest.raises(LinAlgError, match="Singular matrix"):
            f(*args)
        with pytest.raises(LinAlgError, match="Singular matrix"):
            compiled(f)(*args)
    assert compiled(det)(a) == det(a) == 0.0
    assert compiled(slogdet)(a) == (0.0, -np.inf)


@pytest.mark.parametrize("f", [inv, det, slogdet, cholesky, eigh, eig])
def test_non_square_matrices_raise_linalg_error(f: Any) -> None:
    a = np.ones((2, 3))
    with pytest.raises(LinAlgError, match="square"):
        f(a)
    with pytest.raises(LinAlgError, match="square"):
        compiled(f)(a)


def test_solve_shape_mismatch_raises_value_error() -> None:
    a, b = np.eye(3), np.ones((4, 2))
    with pytest.raises(ValueError):
        solve(a, b)
    with pytest.raises(ValueError):
        compiled(solve)(a, b)


def test_one_dimensional_input_is_a_typing_error() -> None:
    with pytest.raises(LinAlgError):
        inv(np.ones(3))
    with pytest.raises(TypingError, match="two-dimensional"):
        compiled(inv)(np.ones(3))


def test_a_linalg_error_is_a_value_error_inside_compiled_code() -> None:
    def guarded(a):
        try:
            return np.linalg.inv(a)
        except ValueError:
            return np.zeros((2, 2))

    assert np.array_equal(compiled(guarded)(np.ones((2, 2))), np.zeros((2, 2)))


# --- cholesky, eigh, eig ------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(a=matrices(kinds=("plain",)), definite=st.booleans())
def test_cholesky_matches_numpy(a: np.ndarray, definite: bool) -> None:
    h = _hermitian(a, 1.0 if definite else -50.0)
    for f in (cholesky, cholesky_upper):
        both = _same_outcome(f, h)
        if both is not None:
            _close(*both, _eps(h), float(np.abs(h).max(initial=1.0)))


def _check_eigh(h: np.ndarray, result: Any, expected: Any) -> None:
    (w, v), (ew, ev) = result, expected
    eps = _eps(h)
    scale = float(np.abs(h).max(initial=1.0))
    _close(w, ew, eps, scale)
    assert v.dtype == ev.dtype and v.shape == ev.shape
    tol = 1e3 * eps * scale
    np.testing.assert_allclose(h @ v, v * w, atol=tol)
    np.testing.assert_allclose(v.conj().T @ v, np.eye(len(w)), atol=1e3 * eps)


@settings(max_examples=25, deadline=None)
@given(a=matrices(kinds=("plain",)), shift=st.sampled_from([0.0, 1.0, -3.0]))
def test_eigh_and_eigvalsh_match_numpy(a: np.ndarray, shift: float) -> None:
    h = _hermitian(a, shift)
    for f in (eigh, eigh_upper):
        both = _same_outcome(f, h)
        assert both is not None
        _check_eigh(h, *both)
    both = _same_outcome(eigvalsh, h)
    assert both is not None
    _close(*both, _eps(h), float(np.abs(h).max(initial=1.0)))


@settings(max_examples=20, deadline=None)
@given(a=matrices(kinds=("plain",)))
def test_eig_of_complex_and_of_symmetric_matrices(a: np.ndarray) -> None:
    if a.dtype.kind != "c":
        a = _hermitian(a, 0.0)  # real symmetric: real eigenvalues, a real result as NumPy's
    got_w, got_v = compiled(eig)(a)
    w, v = eig(a)
    assert got_w.dtype == w.dtype and got_v.dtype == v.dtype and got_v.shape == v.shape
    eps = _eps(a)
    scale = float(np.abs(a).max(initial=1.0))
    order, got_order = np.lexsort((w.imag, w.real)), np.lexsort((got_w.imag, got_w.real))
    np.testing.assert_allclose(got_w[got_order], w[order], atol=1e4 * eps * scale)
    np.testing.assert_allclose(a @ got_v, got_v * got_w, atol=1e4 * eps * scale)
    np.testing.assert_allclose(compiled(eigvals)(a), got_w, atol=1e3 * eps * scale)


def test_eig_of_a_real_matrix_with_complex_eigenvalues_raises() -> None:
    rotation = np.array([[0.0, -1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match="complex"):
        compiled(eig)(rotation)
    w, _ = compiled(eig)(rotation.astype(np.complex128))
    np.testing.assert_allclose(sorted(w.imag), [-1.0, 1.0])


# --- svd, qr, lstsq, pinv, matrix_rank ----------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(a=matrices(square=False, kinds=("plain", "singular")))
def test_svd_matches_numpy_by_reconstruction(a: np.ndarray) -> None:
    eps = _eps(a)
    scale = float(np.abs(a).max(initial=1.0))
    for f in (svd, svd_reduced):
        (u, s, vh), (eu, es, evh) = _same_outcome(f, a)  # type: ignore[misc]
        for got, exp in ((u, eu), (s, es), (vh, evh)):
            assert got.dtype == exp.dtype and got.shape == exp.shape
        _close(s, es, eps, scale)
        k = len(s)
        np.testing.assert_allclose((u[:, :k] * s) @ vh[:k], a, atol=1e3 * eps * scale)
        np.testing.assert_allclose(u.conj().T @ u, np.eye(u.shape[1]), atol=1e3 * eps)
    both = _same_outcome(singular_values, a)
    assert both is not None
    _close(*both, eps, scale)


@settings(max_examples=25, deadline=None)
@given(a=matrices(square=False, kinds=("plain", "singular")))
def test_qr_matches_numpy(a: np.ndarray) -> None:
    eps = _eps(a)
    scale = float(np.abs(a).max(initial=1.0))
    for f in (qr, qr_complete):
        (q, r), (eq, er) = _same_outcome(f, a)  # type: ignore[misc]
        assert q.dtype == eq.dtype and q.shape == eq.shape and r.shape == er.shape
        np.testing.assert_allclose(q @ r, a, atol=1e3 * eps * scale)
        assert np.array_equal(np.triu(r), r)
        _close(r, er, eps, scale)  # the same Householder reflectors: the same signs
    both = _same_outcome(qr_r, a)
    assert both is not None
    _close(*both, eps, scale)


@settings(max_examples=25, deadline=None)
@given(
    a=matrices(square=False, kinds=("plain", "singular")),
    k=st.integers(0, 2),
    vector=st.booleans(),
    seed=st.integers(0, 99),
)
def test_lstsq_matches_numpy(a: np.ndarray, k: int, vector: bool, seed: int) -> None:
    m = a.shape[0]
    b = _values(np.random.default_rng(seed), (m,) if vector else (m, k), "float64")
    eps = _eps(a, b)
    (x, res, rank, s), (ex, eres, erank, es) = _same_outcome(lstsq, a, b)  # type: ignore[misc]
    assert rank == erank and type(rank) is type(erank)
    scale = float(np.abs(a).max(initial=1.0)) * float(np.abs(b).max(initial=1.0))
    _close(s, es, eps, scale)
    _close(res, eres, eps, scale**2 * 10)
    if _cond(a) < 1e5:
        _close(x, ex, eps, scale * _cond(a))


def test_lstsq_with_rcond() -> None:
    a = np.array([[1.0, 0.0], [0.0, 1e-8], [0.0, 0.0]])
    b = np.array([1.0, 1.0, 1.0])
    x, res, rank, s = compiled(lstsq_rcond)(a, b, 1e-6)
    ex, eres, erank, es = lstsq_rcond(a, b, 1e-6)
    assert rank == erank == 1
    np.testing.assert_allclose(x, ex)
    assert res.shape == eres.shape


@settings(max_examples=20, deadline=None)
@given(a=matrices(square=False, kinds=("plain", "singular")))
def test_pinv_and_matrix_rank_match_numpy(a: np.ndarray) -> None:
    eps = _eps(a)
    both = _same_outcome(pinv, a)
    assert both is not None
    got, expected = both
    if a.size == 0 and a.dtype.kind == "i":  # documented: NumPy keeps an empty int matrix's
        expected = expected.astype(np.float64)  # dtype, jitcore's result is float64 always
    cond = _cond(a)
    if cond < 1e6:
        _close(got, expected, eps, cond * max(1.0, float(np.abs(expected).max(initial=1.0))))
    both = _same_outcome(matrix_rank, a)
    assert both is not None
    assert both[0] == both[1] and type(both[0]) is type(both[1])
    assert compiled(matrix_rank_tol)(a, 0.5) == matrix_rank_tol(a, 0.5)


# --- the Python side and SciPy's absence ----------------------------------------------------


def test_the_kernels_run_as_python_too() -> None:
    """The kernels are plain Python: run as such they call the same routines through ctypes."""
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((4, 4)), rng.standard_normal((4, 2))
    np.testing.assert_allclose(lapack.solve_matrix(a, b), np.linalg.solve(a, b))
    w, v = lapack.eigh_kernel(a + a.T, lapack.L_, True)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a + a.T))


def test_without_scipy_linalg_is_an_unsupported_error_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(externs, "scipy_available", lambda: False)

    def solve_it(a, b):
        return np.linalg.solve(a, b)

    with pytest.raises(UnsupportedError, match=r"pip install jitcore\[linalg\]"):
        jit(mode="compiled")(solve_it)(np.eye(2), np.ones(2))


# --- stacks of matrices -----------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(
    batch=st.lists(st.integers(0, 3), min_size=1, max_size=2),
    n=st.integers(0, 4),
    dtype=st.sampled_from(DTYPES),
    layout=st.sampled_from(LAYOUTS),
    seed=st.integers(0, 99),
)
def test_stacks_of_matrices(batch: list, n: int, dtype: str, layout: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = laid_out(_values(rng, (*batch, n, n), dtype), layout)
    h = a @ np.swapaxes(a.conj(), -1, -2) + 3 * np.eye(n, dtype=a.dtype)
    h = laid_out(np.ascontiguousarray(h), layout)
    eps = _eps(a)
    for f, x in ((inv, a), (det, a), (cholesky, h), (eigvalsh, h)):
        both = _same_outcome(f, x)
        if both is None:
            continue
        got, expected = both
        matrices = a.reshape(-1, n, n) if a.size else []
        if f is inv and not all(_cond(m) < 1e6 for m in matrices):
            continue
        scale = float(np.abs(expected[np.isfinite(expected)]).max(initial=1.0))
        _close(got, expected, eps, scale)
    (sign, logdet), expected = _same_outcome(slogdet, a)  # type: ignore[misc]
    _close(sign, expected.sign, eps * 10)
    _close(logdet, expected.logabsdet, eps, float(np.abs(expected.logabsdet).max(initial=1.0)))
    (w, v), (ew, ev) = _same_outcome(eigh, h)  # type: ignore[misc]
    _close(w, ew, eps, float(np.abs(h).max(initial=1.0)))
    assert v.shape == ev.shape and v.dtype == ev.dtype
    np.testing.assert_allclose(h @ v, v * w[..., None, :], atol=1e3 * eps * max(1.0, n * 10.0))


def test_a_stack_of_non_square_matrices_raises() -> None:
    with pytest.raises(LinAlgError):
        compiled(inv)(np.ones((2, 3, 4)))
    with pytest.raises(LinAlgError):  # NumPy's lstsq takes no stacks: a compile-time error
        lstsq(np.ones((2, 3, 3)), np.ones((2, 3, 1)))
    with pytest.raises(TypingError, match="two-dimensional"):
        compiled(lstsq)(np.ones((2, 3, 3)), np.ones((2, 3, 1)))


@settings(max_examples=15, deadline=None)
@given(
    batch=st.lists(st.integers(0, 3), min_size=1, max_size=2),
    m=st.integers(0, 4),
    n=st.integers(0, 4),
    dtype=st.sampled_from(DTYPES),
    seed=st.integers(0, 99),
)
def test_stacks_of_rectangular_matrices(
    batch: list, m: int, n: int, dtype: str, seed: int
) -> None:
    a = _values(np.random.default_rng(seed), (*batch, m, n), dtype)
    eps = _eps(a)
    scale = float(np.abs(a).max(initial=1.0))
    (u, s, vh), (eu, es, evh) = _same_outcome(svd_reduced, a)  # type: ignore[misc]
    assert u.shape == eu.shape and vh.shape == evh.shape and u.dtype == eu.dtype
    _close(s, es, eps, scale)
    np.testing.assert_allclose((u * s[..., None, :]) @ vh, a, atol=1e3 * eps * scale)
    _close(*_same_outcome(singular_values, a), eps, scale)  # type: ignore[misc]
    (q, r), (eq, er) = _same_outcome(qr_complete, a)  # type: ignore[misc]
    assert q.shape == eq.shape and r.shape == er.shape
    np.testing.assert_allclose(q @ r, a, atol=1e3 * eps * scale)
    ranks = _same_outcome(matrix_rank, a)
    assert ranks is not None and np.array_equal(*ranks)
    got, expected = _same_outcome(pinv, a)  # type: ignore[misc]
    assert got.shape == expected.shape
    if a.size and all(_cond(x) < 1e4 for x in a.reshape(-1, m, n)):
        _close(got, expected, eps, 1e4 * max(1.0, float(np.abs(expected).max(initial=1.0))))
    if m == n:
        w = compiled(eigvals)(a.astype(np.complex128))
        ew = eigvals(a.astype(np.complex128))
        np.testing.assert_allclose(
            np.sort_complex(w.ravel()), np.sort_complex(ew.ravel()), atol=1e4 * eps * scale
        )


@settings(max_examples=15, deadline=None)
@given(
    batch_a=st.lists(st.integers(1, 3), max_size=2),
    batch_b=st.lists(st.integers(1, 3), max_size=2),
    n=st.integers(0, 3),
    k=st.sampled_from([None, 0, 2]),
    dtype=st.sampled_from(DTYPES),
    seed=st.integers(0, 99),
)
def test_solve_of_stacks_broadcasts(
    batch_a: list, batch_b: list, n: int, k: int | None, dtype: str, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    for i in range(1, min(len(batch_a), len(batch_b)) + 1):  # broadcastable batches
        if 1 not in (batch_a[-i], batch_b[-i]):
            batch_b[-i] = batch_a[-i]
    a = _values(rng, (*batch_a, n, n), dtype) + 4 * np.eye(n, dtype=dtype)
    b = _values(rng, (n,) if k is None else (*batch_b, n, k), dtype)
    if a.ndim < 3 and b.ndim < 3:
        a = a[None]
    both = _same_outcome(solve, a, b)
    if both is not None:
        _close(*both, _eps(a, b), 10.0)


# --- NaN and inf, and tolerances near the largest float ----------------------------------------


def pinv_rtol(a, rtol):
    return np.linalg.pinv(a, rtol=rtol)


def pinv_rtol_none(a):
    return np.linalg.pinv(a, rtol=None)


def matrix_rank_rtol(a, rtol):
    return np.linalg.matrix_rank(a, rtol=rtol)


def lstsq_vector_rhs(a):
    return np.linalg.lstsq(a, np.ones(a.shape[0]))


def lstsq_no_rhs(a):
    return np.linalg.lstsq(a, np.zeros((a.shape[0], 0)))


def _drain(capfd: pytest.CaptureFixture[str]) -> str:
    """What was written to stdout and stderr since the last call, C's buffered stdout (where
    LAPACK's xerbla prints) flushed first."""
    ctypes.CDLL(None).fflush(None)
    out, err = capfd.readouterr()
    return out + err


def _lapack_said_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    """LAPACK's xerbla prints "On entry to DLASCL parameter number 4 had an illegal value"
    when handed a NaN (NumPy's own lstsq does): compiled code must not get that far."""
    said = _drain(capfd)
    assert "illegal value" not in said, said


NAN_MATRICES = [
    np.array([[np.nan, 1.0], [1.0, 1.0]]),
    np.array([[1.0, 2.0], [np.nan, 1.0], [0.0, 1.0]]),
    np.array([[np.inf, np.nan], [1.0, 1.0]]),
    np.array([[np.nan, 1.0], [1.0, 1.0]], dtype=np.complex128),
    np.array([[1.0, np.nan], [1.0, 1.0]], dtype=np.float32),
]


@pytest.mark.parametrize("f", [svd, svd_reduced, singular_values, matrix_rank, pinv])
@pytest.mark.parametrize("a", NAN_MATRICES, ids=range(len(NAN_MATRICES)))
def test_svd_of_a_matrix_with_nan_raises_as_numpy(
    f: Any, a: np.ndarray, capfd: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(LinAlgError, match="SVD did not converge"):
        f(a)
    _drain(capfd)
    with pytest.raises(LinAlgError, match="SVD did not converge"):
        compiled(f)(a)
    _lapack_said_nothing(capfd)


def test_svd_of_a_stack_with_nan_raises_as_numpy() -> None:
    a = np.ones((3, 2, 2))
    a[1, 0, 1] = np.nan
    for f in (singular_values, matrix_rank, pinv):
        with pytest.raises(LinAlgError, match="SVD did not converge"):
            f(a)
        with pytest.raises(LinAlgError, match="SVD did not converge"):
            compiled(f)(a)


INF_MATRICES = [
    np.array([[np.inf, 1.0], [1.0, 1.0]]),
    np.array([[-np.inf, 1.0], [1.0, 1.0]], dtype=np.float32),
    np.array([[np.inf, 1.0], [1.0, 1.0]], dtype=np.complex128),
]


@pytest.mark.parametrize("a", INF_MATRICES, ids=range(len(INF_MATRICES)))
def test_svd_of_a_matrix_with_inf_is_nan_as_numpys(a: np.ndarray) -> None:
    """?gesdd does not fail for an inf: NumPy's singular values are NaN, its rank 0, and
    pinv, which drops every NaN value but still multiplies their (here NaN, for the complex
    matrix) vectors by 0, NaN or 0 as its u is."""
    for f in (singular_values, matrix_rank, pinv, pinv_rtol_none):
        both = _same_outcome(f, a)
        assert both is not None
        got, expected = both
        assert np.asarray(got).dtype == np.asarray(expected).dtype
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("f", [lstsq_vector_rhs, lstsq_no_rhs])
@pytest.mark.parametrize(
    "a", [*NAN_MATRICES, *INF_MATRICES], ids=range(len(NAN_MATRICES) + len(INF_MATRICES))
)
def test_lstsq_of_a_matrix_with_nan_or_inf_raises_as_numpy(
    f: Any, a: np.ndarray, capfd: pytest.CaptureFixture[str]
) -> None:
    """NumPy's ?gelsd fails (info -4, after LAPACK prints its complaints) for an inf as for a
    NaN, with right-hand sides or without (NumPy gives it one zero column then)."""
    with pytest.raises(LinAlgError, match="SVD did not converge in Linear Least Squares"):
        f(a)
    _drain(capfd)
    with pytest.raises(LinAlgError, match="SVD did not converge in Linear Least Squares"):
        compiled(f)(a)
    _lapack_said_nothing(capfd)


def test_lstsq_of_a_nan_right_hand_side_is_nan_as_numpys() -> None:
    a = np.array([[2.0, 1.0], [1.0, 1.0], [0.0, 1.0]])
    b = np.array([np.nan, 1.0, 2.0])
    (x, res, rank, s), (ex, eres, erank, es) = _same_outcome(lstsq, a, b)  # type: ignore[misc]
    assert np.isnan(x).all() and np.isnan(ex).all()
    assert rank == erank == 2
    np.testing.assert_allclose(s, es, rtol=1e-14)
    assert res.shape == eres.shape


def test_lstsq_without_right_hand_sides_ranks_as_gelsd() -> None:
    """A negative rcond makes gelsd use eps: NumPy's rank of diag(1, 1e-20) is 1 even with
    no right-hand sides (it hands gelsd one zero column)."""
    a = np.array([[1.0, 0.0], [0.0, 1e-20]])
    b = np.zeros((2, 0))
    x, res, rank, s = compiled(lstsq_rcond)(a, b, -1.0)
    ex, eres, erank, es = lstsq_rcond(a, b, -1.0)
    assert rank == erank == 1
    assert x.shape == ex.shape and res.shape == eres.shape
    np.testing.assert_array_equal(s, es)


@pytest.mark.parametrize("f", [eig, eigvals])
@pytest.mark.parametrize(
    "a", [*NAN_MATRICES[::2], *INF_MATRICES], ids=range(3 + len(INF_MATRICES))
)
def test_eig_of_a_matrix_with_nan_or_inf_raises_as_numpy(f: Any, a: np.ndarray) -> None:
    with pytest.raises(LinAlgError, match="Array must not contain infs or NaNs"):
        f(a)
    with pytest.raises(LinAlgError, match="Array must not contain infs or NaNs"):
        compiled(f)(a)


def test_eig_of_a_stack_checks_every_matrix_first() -> None:
    """A NaN in a later matrix raises NumPy's LinAlgError before an earlier matrix's complex
    eigenvalues would raise compiled code's ValueError."""
    a = np.array([[[0.0, -1.0], [1.0, 0.0]], [[np.nan, 0.0], [0.0, 1.0]]])
    for f in (eig, eigvals):
        with pytest.raises(LinAlgError, match="Array must not contain infs or NaNs"):
            f(a)
        with pytest.raises(LinAlgError, match="Array must not contain infs or NaNs"):
            compiled(f)(a)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_det_and_slogdet_of_an_infinite_diagonal_keep_the_sign(dtype: str) -> None:
    """NumPy flips a real slogdet's sign for a negative pivot (d < 0): an inf one keeps a
    sign where d / |d| would make it NaN."""
    for a in (
        np.array([[np.inf, 1.0], [1.0, 1.0]], dtype=dtype),
        np.array([[-np.inf, 1.0], [1.0, 1.0]], dtype=dtype),
        np.array([[np.inf, 0.0], [0.0, -2.0]], dtype=dtype),
        np.array([[[np.inf, 0.0], [0.0, -2.0]], [[1.0, 2.0], [3.0, 4.0]]], dtype=dtype),
    ):
        got, expected = _same_outcome(det, a)  # type: ignore[misc]
        assert np.asarray(got).dtype == np.asarray(expected).dtype
        np.testing.assert_allclose(got, expected, rtol=1e-6)
        (sign, logdet), expected = _same_outcome(slogdet, a)  # type: ignore[misc]
        assert np.asarray(sign).dtype == np.asarray(expected.sign).dtype
        np.testing.assert_array_equal(sign, expected.sign)
        np.testing.assert_allclose(logdet, expected.logabsdet, rtol=1e-6)


def test_matrix_rank_tolerance_does_not_overflow_near_the_largest_float() -> None:
    """NumPy's default tol is S.max() * (max(M, N) * eps): S.max() * max(M, N) first is inf
    for a singular value near 1.8e308, and drops every value."""
    a = np.array([[1e308, 1e308], [1.0, 2.0]])
    assert compiled(matrix_rank)(a) == matrix_rank(a) == 1
    stack = np.stack([a, a[::-1]])
    assert np.array_equal(compiled(matrix_rank)(stack), matrix_rank(stack))
    assert compiled(matrix_rank_rtol)(a, 1e-10) == matrix_rank_rtol(a, 1e-10) == 1
    got, expected = _same_outcome(pinv, a)  # type: ignore[misc]
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-300)


def test_single_precision_rank_and_pinv_decide_on_float32_singular_values() -> None:
    """For a float32 matrix NumPy's singular values are float32 (rounded from its float64
    SVD): a tol between a value and its rounding gives NumPy's rank, not the float64
    value's."""
    a = np.array([[0.35, 0.82, 0.33], [-1.3, 0.91, 0.45], [-0.54, 0.58, 0.36]], np.float32)
    s64 = np.linalg.svd(a.astype(np.float64), compute_uv=False)
    s32 = s64.astype(np.float32).astype(np.float64)
    assert s32[1] != s64[1]
    tol = float(s32[1] + s64[1]) / 2
    assert compiled(matrix_rank_tol)(a, tol) == matrix_rank_tol(a, tol)
    assert compiled(matrix_rank_rtol)(a, tol / s32[0]) == matrix_rank_rtol(a, tol / s32[0])
    got, expected = _same_outcome(pinv_rtol, a, tol / s32[0])  # type: ignore[misc]
    assert got.dtype == expected.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
