"""`np.linalg` through SciPy's LAPACK: solve, inv, det, slogdet, cholesky, eigh, eigvalsh,
svd, qr, lstsq, eig, eigvals, pinv, matrix_rank (the optional extra `jitcore[linalg]`).

As NumPy (`numpy.linalg._commonType`), every routine computes in float64 or complex128 (`d`
and `z` routines) and the result is cast back to float32/complex64 when every input was
single precision; integer and boolean inputs become float64. Each kernel copies its input
into a column-major buffer (LAPACK overwrites it, and NumPy hands LAPACK the same Fortran-
ordered copy, so factorizations agree with NumPy's to rounding), queries the routine's
workspace size, calls it, and raises NumPy's `LinAlgError` when `info` says the matrix is
singular, not positive definite, or the iteration did not converge. Results that LAPACK leaves
column-major are returned as their transposed (Fortran-ordered) views. 2-D operands; stacks
(ndim > 2) for all but lstsq, which NumPy gives none either (a loop over the matrices;
solve broadcasts the stacks).

Without SciPy every one of these is an UnsupportedError at compile time naming the extra.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jitcore.errors import TypingError, UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.lib import arrays as A
from jitcore.lib import blas
from jitcore.lib import layout as L
from jitcore.lib import shapes as S
from jitcore.lib.matmul import broadcast_batch, broadcast_view
from jitcore.lib.nprows import take_args
from jitcore.lib.registry import Operand, Resolved, call_kernel, register_function
from jitcore.lib.registry import library_kernel as _lib
from jitcore.runtime.externs import EXTRA_HINT

LinAlgError = np.linalg.LinAlgError
# Fortran's character arguments, as their codes.
N_, V_, L_, U_, A_, S_ = 78, 86, 76, 85, 65, 83

# --- kernels ------------------------------------------------------------------------------


@_lib
def column_major(a, rows, cols):  # noqa: ANN001, ANN201
    """A (cols, rows) C array holding a's values column-major: LAPACK's copy of a."""
    out = np.empty((cols, rows), a.dtype)
    for i in range(rows):
        for j in range(cols):
            out[j, i] = a[i, j]
    return out


@_lib
def square(a):  # noqa: ANN001, ANN201
    n = a.shape[0]
    if a.shape[1] != n:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    return n


@_lib
def has_nan(a):  # noqa: ANN001, ANN201
    """Whether some |x| of a 2-D a is NaN: ?gesdd's test (its ?lange('M') is NaN), on which
    it returns info = -4 without computing anything. A complex inf + nan*j has |x| = inf."""
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            x = abs(a[i, j])
            if x != x:
                return True
    return False


@_lib
def all_finite(a):  # noqa: ANN001, ANN201
    """Whether every item of a 2-D a is finite (both parts of a complex one), as NumPy's
    `isfinite(a).all()`."""
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            x = a[i, j]
            if not (abs(x.real) < math.inf and abs(x.imag) < math.inf):
                return False
    return True


@_lib
def solve_matrix(a, b):  # noqa: ANN001, ANN201
    n = square(a)
    if b.shape[0] != n:
        raise ValueError("solve: Input operand 1 has a mismatch in its core dimension 0")
    k = b.shape[1]
    fa = column_major(a, n, n)
    fb = column_major(b, n, k)
    if n > 0:  # no right-hand sides (k == 0) still factors a: a singular one raises
        ipiv = np.empty(n, np.int32)  # (OpenBLAS's gesv returns at once for k == 0)
        info = blas.gesv(n, k, fa, n, ipiv, fb, n) if k > 0 else blas.getrf(n, n, fa, n, ipiv)
        if info > 0:
            raise LinAlgError("Singular matrix")
    return fb.T


@_lib
def solve_vector(a, b):  # noqa: ANN001, ANN201
    n = square(a)
    if b.shape[0] != n:
        raise ValueError("solve1: Input operand 1 has a mismatch in its core dimension 0")
    fa = column_major(a, n, n)
    fb = np.empty((1, n), a.dtype)
    for i in range(n):
        fb[0, i] = b[i]
    if n > 0:
        ipiv = np.empty(n, np.int32)
        if blas.gesv(n, 1, fa, n, ipiv, fb, n) > 0:
            raise LinAlgError("Singular matrix")
    return fb[0]


@_lib
def inv_kernel(a):  # noqa: ANN001, ANN201
    """NumPy's inv: gesv against the identity."""
    n = square(a)
    fa = column_major(a, n, n)
    fb = np.zeros((n, n), a.dtype)
    for i in range(n):
        fb[i, i] = 1
    if n > 0:
        ipiv = np.empty(n, np.int32)
        if blas.gesv(n, n, fa, n, ipiv, fb, n) > 0:
            raise LinAlgError("Singular matrix")
    return fb.T


@_lib
def slogdet_kernel(a, cplx):  # noqa: ANN001, ANN201
    """(sign, log|det|) from getrf's LU, as NumPy's slogdet_single_element: the sign from
    the pivots and the diagonal, the logarithm summed in order; (0, -inf) if singular. A
    real d flips the sign when negative (NumPy tests `d < 0`: a NaN or an inf keeps a sign,
    where d / |d| would be NaN); a complex one multiplies it by d / |d|, as NumPy."""
    n = square(a)
    fa = column_major(a, n, n)
    sign = a.dtype.type(1)
    logdet = 0.0
    if n == 0:
        return sign, logdet
    ipiv = np.empty(n, np.int32)
    if blas.getrf(n, n, fa, n, ipiv) != 0:
        return a.dtype.type(0), -math.inf
    for i in range(n):
        if ipiv[i] != i + 1:
            sign = -sign
    for i in range(n):
        d = fa[i, i]
        mag = abs(d)
        if cplx:
            sign = sign * (d / mag)
        elif d < 0:
            sign = -sign
        logdet += math.log(mag)
    return sign, logdet


@_lib
def det_kernel(a, cplx):  # noqa: ANN001, ANN201
    """NumPy's det: sign * exp(logdet) of slogdet."""
    sign, logdet = slogdet_kernel(a, cplx)
    return sign * np.exp(logdet)


@_lib
def cholesky_kernel(a, upper):  # noqa: ANN001, ANN201
    """potrf of the lower triangle (NumPy reads only that one); the other triangle zeroed.
    `upper` returns the conjugate transpose, as NumPy 2's `upper=True`."""
    n = square(a)
    fa = column_major(a, n, n)
    if n > 0 and blas.potrf(L_, n, fa, n) > 0:
        raise LinAlgError("Matrix is not positive definite")
    out = np.zeros((n, n), a.dtype)
    for i in range(n):
        for j in range(i + 1):
            if upper:
                out[j, i] = np.conj(fa[j, i])
            else:
                out[i, j] = fa[j, i]
    return out


@_lib
def eigh_kernel(a, uplo, vectors):  # noqa: ANN001, ANN201
    """dsyevd / zheevd: ascending eigenvalues and (when `vectors`) orthonormal eigenvectors,
    from the triangle `uplo` ('L' or 'U') of a."""
    n = square(a)
    fa = column_major(a, n, n)
    w = np.empty(n, np.float64)
    if n == 0:
        return w, fa.T
    job = V_ if vectors else N_
    work = np.zeros(1, a.dtype)
    rwork = np.zeros(1, np.float64)
    iwork = np.zeros(1, np.int32)
    blas.syevd(job, uplo, n, fa, n, w, work, -1, rwork, -1, iwork, -1)
    lwork = int(work[0].real)
    lrwork = int(rwork[0])
    liwork = int(iwork[0])
    work = np.empty(max(lwork, 1), a.dtype)
    rwork = np.empty(max(lrwork, 1), np.float64)
    iwork = np.empty(max(liwork, 1), np.int32)
    if blas.syevd(job, uplo, n, fa, n, w, work, lwork, rwork, lrwork, iwork, liwork) > 0:
        raise LinAlgError("Eigenvalues did not converge")
    return w, fa.T


@_lib
def svd_kernel(a, job):  # noqa: ANN001, ANN201
    """?gesdd with jobz `job` ('A' full, 'S' reduced, 'N' values only): (u, s, vh)."""
    m, n = a.shape
    k = min(m, n)
    ucols = m if job == A_ else k
    vrows = n if job == A_ else k
    if job == N_:
        ucols = 0
        vrows = 0
    s = np.empty(k, np.float64)
    u = np.zeros((ucols, m), a.dtype)  # column-major m x ucols
    vt = np.zeros((n, vrows), a.dtype)  # column-major vrows x n
    if k == 0:
        for i in range(min(ucols, m)):
            u[i, i] = 1
        for i in range(min(vrows, n)):
            vt[i, i] = 1
        return u.T, s, vt.T
    if has_nan(a):  # checked here, so that no LAPACK build decides it (NumPy's returns -4)
        raise LinAlgError("SVD did not converge")
    fa = column_major(a, m, n)
    ldu = max(m, 1)
    ldvt = max(vrows, 1)
    iwork = np.empty(8 * k, np.int32)
    work = np.zeros(1, a.dtype)
    mx = max(m, n)
    lrwork = max(5 * k * k + 5 * k, 2 * mx * k + 2 * k * k + k) if job != N_ else 7 * k
    rwork = np.empty(max(lrwork, 1), np.float64)  # complex routines only
    blas.gesdd(job, m, n, fa, m, s, u, ldu, vt, ldvt, work, -1, rwork, iwork)
    lwork = int(work[0].real)
    work = np.empty(max(lwork, 1), a.dtype)
    info = blas.gesdd(job, m, n, fa, m, s, u, ldu, vt, ldvt, work, lwork, rwork, iwork)
    if info != 0:  # NumPy raises for any info, as for the -4 of a NaN
        raise LinAlgError("SVD did not converge")
    return u.T, s, vt.T


@_lib
def qr_kernel(a, complete):  # noqa: ANN001, ANN201
    """?geqrf, then ?orgqr/?ungqr: (q, r); `complete` gives the m x m q of mode='complete'."""
    m, n = a.shape
    k = min(m, n)
    mc = m if complete else k
    fa = column_major(a, m, n)
    r = np.zeros((mc, n), a.dtype)
    q = np.zeros((mc, m), a.dtype)  # column-major m x mc
    if k == 0:
        for i in range(min(mc, m)):
            q[i, i] = 1
        return q.T, r
    tau = np.empty(k, a.dtype)
    work = np.zeros(1, a.dtype)
    blas.geqrf(m, n, fa, m, tau, work, -1)
    lwork = int(work[0].real)
    work = np.empty(max(lwork, 1), a.dtype)
    blas.geqrf(m, n, fa, m, tau, work, lwork)
    for i in range(mc):
        for j in range(i, n):
            r[i, j] = fa[j, i]
    for j in range(k):  # the reflectors, below the diagonal of the first k columns
        for i in range(m):
            q[j, i] = fa[j, i]
    blas.orgqr(m, mc, k, q, m, tau, work, -1)
    lwork = int(work[0].real)
    work = np.empty(max(lwork, 1), a.dtype)
    blas.orgqr(m, mc, k, q, m, tau, work, lwork)
    return q.T, r


@_lib
def lstsq_vector(a, b, rcond, given):  # noqa: ANN001, ANN201
    """lstsq of a 1-D b: x is 1-D (the residuals stay 1-D, as NumPy's)."""
    m = b.shape[0]
    b2 = np.empty((m, 1), b.dtype)
    for i in range(m):
        b2[i, 0] = b[i]
    x, resid, rank, s = lstsq_kernel(a, b2, rcond, given)
    return x[:, 0], resid, rank, s


@_lib
def lstsq_kernel(a, b, rcond, given):  # noqa: ANN001, ANN201
    """?gelsd, as NumPy's lstsq: (x, residuals, rank, s); b is (m, nrhs). Without a given
    rcond, NumPy's default: eps * max(m, n). With no right-hand sides LAPACK gets one zero
    column, as NumPy gives it (so the rank is gelsd's either way). An inf or NaN in a makes
    gelsd fail (info -4, after printing LAPACK's complaints): NumPy raises, and so does this,
    without calling it."""
    m, n = a.shape
    if b.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    if not all_finite(a):
        raise LinAlgError("SVD did not converge in Linear Least Squares")
    if not given:
        rcond = np.finfo(np.float64).eps * max(m, n)
    nrhs = b.shape[1]
    cols = max(nrhs, 1)
    k = min(m, n)
    ldb = max(m, n, 1)
    fa = column_major(a, m, n)
    fb = np.zeros((cols, ldb), a.dtype)  # column-major ldb x cols
    for i in range(m):
        for j in range(nrhs):
            fb[j, i] = b[i, j]
    s = np.empty(k, np.float64)
    rank = np.zeros(1, np.int32)
    if k > 0:
        work = np.zeros(1, a.dtype)
        iwork = np.zeros(1, np.int32)
        rwork = np.zeros(1, np.float64)  # complex routines only
        blas.gelsd(m, n, cols, fa, m, fb, ldb, s, rcond, rank, work, -1, rwork, iwork)
        lwork = int(work[0].real)
        work = np.empty(max(lwork, 1), a.dtype)
        rwork = np.empty(max(int(rwork[0]), 1), np.float64)
        iwork = np.empty(max(int(iwork[0]), 1), np.int32)
        info = blas.gelsd(m, n, cols, fa, m, fb, ldb, s, rcond, rank, work, lwork, rwork, iwork)
        if info != 0:
            raise LinAlgError("SVD did not converge in Linear Least Squares")
    x = np.zeros((n, nrhs), a.dtype)
    if k > 0:
        for i in range(n):
            for j in range(nrhs):
                x[i, j] = fb[j, i]
    if rank[0] == n and m > n:
        resid = np.zeros(nrhs, np.float64)
        for j in range(nrhs):
            acc = 0.0
            for i in range(n, m):
                acc += abs(fb[j, i]) ** 2
            resid[j] = acc
    else:
        resid = np.zeros(0, np.float64)
    return x, resid, rank[0], s


@_lib
def finite(a):  # noqa: ANN001, ANN201
    """NumPy's `_assert_finite` of eig and eigvals: geev would return garbage for them."""
    if not all_finite(a):
        raise LinAlgError("Array must not contain infs or NaNs")


@_lib
def finite_stack(a3):  # noqa: ANN001, ANN201
    """`finite` of every matrix, before any is decomposed: NumPy checks the whole stack first
    (a later NaN raises before an earlier matrix's complex eigenvalues would)."""
    for i in range(a3.shape[0]):
        finite(a3[i])


@_lib
def eig_real(a, vectors):  # noqa: ANN001, ANN201
    """dgeev: eigenvalues (and right eigenvectors), which must all be real (a real result,
    as NumPy gives for them; complex eigenvalues raise, as Numba's eig)."""
    n = square(a)
    finite(a)
    fa = column_major(a, n, n)
    wr = np.empty(n, np.float64)
    wi = np.empty(n, np.float64)
    vr = np.empty((n, n), np.float64)
    if n == 0:
        return wr, vr.T
    job = V_ if vectors else N_
    vl = np.zeros(1, np.float64)
    work = np.zeros(1, np.float64)
    blas.geev(N_, job, n, fa, n, wr, wi, vl, 1, vr, n, work, -1)
    lwork = int(work[0])
    work = np.empty(max(lwork, 1), np.float64)
    if blas.geev(N_, job, n, fa, n, wr, wi, vl, 1, vr, n, work, lwork) > 0:
        raise LinAlgError("Eigenvalues did not converge")
    for i in range(n):
        if wi[i] != 0:
            raise ValueError(
                "eig of a real matrix with complex eigenvalues: pass a complex matrix"
            )
    return wr, vr.T


@_lib
def eig_complex(a, vectors):  # noqa: ANN001, ANN201
    """zgeev: eigenvalues (and right eigenvectors)."""
    n = square(a)
    finite(a)
    fa = column_major(a, n, n)
    w = np.empty(n, np.complex128)
    vr = np.empty((n, n), np.complex128)
    if n == 0:
        return w, vr.T
    job = V_ if vectors else N_
    vl = np.zeros(1, np.complex128)
    work = np.zeros(1, np.complex128)
    rwork = np.empty(2 * n, np.float64)
    blas.geev(N_, job, n, fa, n, w, vl, 1, vr, n, work, -1, rwork)
    lwork = int(work[0].real)
    work = np.empty(max(lwork, 1), np.complex128)
    if blas.geev(N_, job, n, fa, n, w, vl, 1, vr, n, work, lwork, rwork) > 0:
        raise LinAlgError("Eigenvalues did not converge")
    return w, vr.T


@_lib
def max_or_nan(s):  # noqa: ANN001, ANN201
    """NumPy's `s.max(initial=0)` of singular values: NaN if one is (an inf in the matrix
    gives NaN ones, which must drop them all, as NumPy's cutoff does)."""
    top = 0.0
    for i in range(s.shape[0]):
        if s[i] > top or s[i] != s[i]:
            top = s[i]
        if top != top:
            break
    return top


@_lib
def pinv_kernel(a, rcond, scaled, single):  # noqa: ANN001, ANN201
    """NumPy's pinv: the reduced SVD, singular values at most rcond * max(s) dropped (rcond
    times max(m, n) when `scaled`: rtol=None), vh^H (diag(1/s) u^H). A dropped value's 1/s
    is 0 and still multiplies its vectors, as in NumPy's matmul: a NaN in them (from an inf
    in a) makes the result NaN, as NumPy's. `single`: NumPy's s is float32, and so is the
    cutoff of rtol=None (`matrix_rank_kernel`), so which values are dropped is decided on
    those."""
    m, n = a.shape
    if scaled:
        rcond = rcond * max(m, n)
    u, s, vt = svd_kernel(a, S_)
    k = s.shape[0]
    out = np.zeros((n, m), a.dtype)
    if k == 0:
        return out
    if single:
        for p in range(k):
            s[p] = np.float32(s[p])
    cutoff = rcond * max_or_nan(s)
    if single and scaled:
        cutoff = np.float64(np.float32(cutoff))
    scaled_uh = np.empty((k, m), a.dtype)  # diag(1/s) u^H
    for p in range(k):
        inv_s = 1.0 / s[p] if s[p] > cutoff else 0.0
        for j in range(m):
            scaled_uh[p, j] = inv_s * np.conj(u[j, p])
    for p in range(k):
        for i in range(n):
            vi = np.conj(vt[p, i])
            for j in range(m):
                out[i, j] += vi * scaled_uh[p, j]
    return out


@_lib
def matrix_rank_kernel(a, tol, mode, eps, single):  # noqa: ANN001, ANN201
    """NumPy's matrix_rank: the singular values above tol; mode 0: tol as given, 1: tol is
    rtol (times S.max()), 2: the default S.max() * (max(M, N) * eps) (eps of the result's
    precision), multiplied in NumPy's order: S.max() * max(M, N) first would overflow to inf
    for a matrix near the largest float. `single`: NumPy's S is float32 (rounded from the
    float64 SVD) and so is its default tol (a float32 product, which the float64 product of
    two float32 values rounds to exactly); a given tol or rtol is a float64 array."""
    m, n = a.shape
    u, s, vt = svd_kernel(a, N_)
    if s.shape[0] == 0:
        return 0
    if single:
        for i in range(s.shape[0]):
            s[i] = np.float32(s[i])
    if mode == 1:
        tol = max_or_nan(s) * tol
    elif mode == 2:
        tol = max_or_nan(s) * (max(m, n) * eps)
        if single:
            tol = np.float64(np.float32(tol))
    count = 0
    for i in range(s.shape[0]):
        if s[i] > tol:
            count += 1
    return count


@_lib
def square_stack(a3):  # noqa: ANN001, ANN201
    if a3.shape[1] != a3.shape[2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    return a3.shape[0], a3.shape[1]


@_lib
def inv_stack(a3):  # noqa: ANN001, ANN201
    """inv of each matrix of a (count, n, n) stack."""
    count, n = square_stack(a3)
    out = np.empty((count, n, n), a3.dtype)
    for i in range(count):
        out[i] = inv_kernel(a3[i])
    return out


@_lib
def det_stack(a3, cplx):  # noqa: ANN001, ANN201
    count, n = square_stack(a3)
    out = np.empty(count, a3.dtype)
    for i in range(count):
        out[i] = det_kernel(a3[i], cplx)
    return out


@_lib
def slogdet_stack(a3, cplx):  # noqa: ANN001, ANN201
    count, n = square_stack(a3)
    signs = np.empty(count, a3.dtype)
    logs = np.empty(count, np.float64)
    for i in range(count):
        sign, logdet = slogdet_kernel(a3[i], cplx)
        signs[i] = sign
        logs[i] = logdet
    return signs, logs


@_lib
def cholesky_stack(a3, upper):  # noqa: ANN001, ANN201
    count, n = square_stack(a3)
    out = np.empty((count, n, n), a3.dtype)
    for i in range(count):
        out[i] = cholesky_kernel(a3[i], upper)
    return out


@_lib
def eigh_stack(a3, uplo, vectors):  # noqa: ANN001, ANN201
    count, n = square_stack(a3)
    ws = np.empty((count, n), np.float64)
    vs = np.empty((count, n, n), a3.dtype)
    for i in range(count):
        w, v = eigh_kernel(a3[i], uplo, vectors)
        ws[i] = w
        if vectors:
            vs[i] = v
    return ws, vs


@_lib
def svd_stack(a3, job):  # noqa: ANN001, ANN201
    count, m, n = a3.shape
    k = min(m, n)
    ucols = m if job == A_ else k
    vrows = n if job == A_ else k
    if job == N_:
        ucols = 0
        vrows = 0
    us = np.empty((count, m, ucols), a3.dtype)
    ss = np.empty((count, k), np.float64)
    vts = np.empty((count, vrows, n), a3.dtype)
    for i in range(count):
        u, s, vt = svd_kernel(a3[i], job)
        us[i] = u
        ss[i] = s
        vts[i] = vt
    return us, ss, vts


@_lib
def qr_stack(a3, complete):  # noqa: ANN001, ANN201
    count, m, n = a3.shape
    mc = m if complete else min(m, n)
    qs = np.empty((count, m, mc), a3.dtype)
    rs = np.empty((count, mc, n), a3.dtype)
    for i in range(count):
        q, r = qr_kernel(a3[i], complete)
        qs[i] = q
        rs[i] = r
    return qs, rs


@_lib
def eig_real_stack(a3, vectors):  # noqa: ANN001, ANN201
    count, n = square_stack(a3)
    finite_stack(a3)
    ws = np.empty((count, n), np.float64)
    vs = np.empty((count, n, n), np.float64)
    for i in range(count):
        w, v = eig_real(a3[i], vectors)
        ws[i] = w
        if vectors:
            vs[i] = v
    return ws, vs


@_lib
def eig_complex_stack(a3, vectors):  # noqa: ANN001, ANN201
    count, n = square_stack(a3)
    finite_stack(a3)
    ws = np.empty((count, n), np.complex128)
    vs = np.empty((count, n, n), np.complex128)
    for i in range(count):
        w, v = eig_complex(a3[i], vectors)
        ws[i] = w
        if vectors:
            vs[i] = v
    return ws, vs


@_lib
def pinv_stack(a3, rcond, scaled, single):  # noqa: ANN001, ANN201
    count, m, n = a3.shape
    out = np.empty((count, n, m), a3.dtype)
    for i in range(count):
        out[i] = pinv_kernel(a3[i], rcond, scaled, single)
    return out


@_lib
def matrix_rank_stack(a3, tol, mode, eps, single):  # noqa: ANN001, ANN201
    count = a3.shape[0]
    out = np.empty(count, np.int64)
    for i in range(count):
        out[i] = matrix_rank_kernel(a3[i], tol, mode, eps, single)
    return out


@_lib
def solve_stack(a3, b3):  # noqa: ANN001, ANN201
    """solve for each (a, b) pair of a (count, n, n) and a (count, n, k) stack."""
    count, n = square_stack(a3)
    out = np.empty(b3.shape, a3.dtype)
    for i in range(count):
        out[i] = solve_matrix(a3[i], b3[i])
    return out


# --- the rules ------------------------------------------------------------------------------


def _check_available(name: str) -> None:
    if not blas.available():
        raise UnsupportedError(
            f"{name} needs SciPy's LAPACK, and SciPy is not installed",
            hint=f"install the optional extra: {EXTRA_HINT}",
        )


def _matrix(op: Operand | None, name: str, what: str = "a") -> T.Array:
    if op is None or not isinstance(op.type, T.Array):
        raise TypingError(f"{name}: {what} must be an array")
    t = op.type
    if t.dtype.is_float and t.dtype.bits < 32:
        raise TypingError(f"{name}: array type float16 is unsupported in linalg")
    return t


def _two_d(t: T.Array, name: str, stacks: bool = False) -> None:
    if t.ndim < 2:
        raise TypingError(
            f"{name}: {t.ndim}-dimensional array given. Array must be at least two-dimensional"
        )
    if t.ndim > 2 and not stacks:
        raise UnsupportedError(
            f"{name} of stacks of matrices ({t.ndim}-d) is not supported",
            hint="call it for each matrix in a loop",
        )


def _common(*types: T.Array) -> tuple[T.Scalar, bool]:
    """(the computation dtype, whether the result is single precision), as NumPy's
    `linalg._commonType`: float64 or complex128; single when every input is."""
    cplx = any(t.dtype.is_complex for t in types)
    single = all(t.dtype in (T.F32, T.C64) for t in types)
    return (T.C128 if cplx else T.F64), single


def _narrowed(t: T.Type, single: bool) -> T.Type:
    """The result type: float64/complex128 parts of `t` in single precision if `single`."""
    if not single:
        return t
    to = {T.F64: T.F32, T.C128: T.C64}
    if isinstance(t, T.Scalar):
        return to.get(t, t)
    if isinstance(t, T.Array):
        return T.Array(to[t.dtype], t.ndim, "C") if t.dtype in to else t
    if isinstance(t, T.Tuple):
        return T.Tuple(tuple(_narrowed(i, single) for i in t.items))
    return t


def _narrow(b: LowBuilder, v: ir.Value, single: bool) -> ir.Value:
    """Convert a kernel's result to `_narrowed` of its type."""
    t = v.type
    assert t is not None
    target = _narrowed(t, single)
    if target == t:
        return v
    if isinstance(t, T.Array):
        assert isinstance(target, T.Array)
        return A.copy_as(b, v, target.dtype)
    if isinstance(t, T.Scalar):
        return b.cast(v, target)
    assert isinstance(t, T.Tuple)
    return b.make_tuple([_narrow(b, b.extract(v, i), single) for i in range(len(t.items))])


Extra = Callable[[LowBuilder, list[ir.Value], dict[str, ir.Value]], Sequence[ir.Value]]


def _resolved(
    kernel: Callable[..., object],
    matrices: list[T.Array],
    work: T.Scalar,
    single: bool,
    nargs: int,
    kwargs: dict[str, Operand],
    extra_types: tuple[T.Type, ...] = (),
    extra: Extra | None = None,
    after: Callable[[LowBuilder, ir.Value], ir.Value] | None = None,
    after_type: Callable[[T.Type], T.Type] | None = None,
    stack: Callable[..., object] | None = None,
) -> Resolved:
    """Call `kernel` on the first len(matrices) operands converted to `work` (then the values
    `extra` computes) and narrow its result; `after` reshapes it (a vector's solution). A
    stack of matrices (one operand of ndim > 2) goes to the `stack` kernel as (count, m, n),
    and each array it returns gets the stack's leading axes back."""
    batch = matrices[0].ndim - 2 if stack is not None else 0
    if batch > 0:
        k = call_kernel(stack, [T.Array(work, 3, "C"), *extra_types])  # type: ignore[arg-type]
        ret = _unstacked(k.ret, batch)
    else:
        kinds = [T.Array(work, t.ndim, t.layout if t.dtype == work else "C") for t in matrices]
        k = call_kernel(kernel, [*kinds, *extra_types])
        ret = k.ret
    ret = ret if after_type is None else after_type(ret)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        values = [_as(b, x, work) for x in v[: len(matrices)]]
        more = extra(b, v, kw) if extra is not None else []
        if batch > 0:
            shapes = L.shapes_of(b, values[0])
            flat = [L.size_of(b, shapes[:batch]), *shapes[batch:]]
            a3 = S.c_view_or_copy(b, values[0], flat)
            result = _unstack(b, k.lower(b, [a3, *more], {}), shapes[:batch])  # type: ignore[misc]
        else:
            result = k.lower(b, [*values, *more], {})  # type: ignore[misc]
        if after is not None:
            result = after(b, result)
        return _narrow(b, result, single)

    return Resolved(
        (None,) * nargs,
        _narrowed(ret, single),
        lower,
        kwargs=dict.fromkeys(kwargs),
        may_raise=True,
    )


def _unstacked(t: T.Type, batch: int) -> T.Type:
    """The type of a stack kernel's result with its leading axis as `batch` axes."""
    if isinstance(t, T.Array):
        return T.Array(t.dtype, t.ndim - 1 + batch, "C")
    if isinstance(t, T.Tuple):
        return T.Tuple(tuple(_unstacked(i, batch) for i in t.items))
    return t


def _unstack(b: LowBuilder, v: ir.Value, batch: list[ir.Value]) -> ir.Value:
    """A stack kernel's result (C arrays of leading axis count) viewed with the batch axes."""
    t = v.type
    if isinstance(t, T.Tuple):
        return b.make_tuple([_unstack(b, b.extract(v, i), batch) for i in range(len(t.items))])
    assert isinstance(t, T.Array)
    shapes = [*batch, *L.shapes_of(b, v)[1:]]
    out_t = _unstacked(t, len(batch))
    assert isinstance(out_t, T.Array)
    strides = L.contiguous_strides(b, shapes, t.dtype.dtype.itemsize, "C")
    return L.make_view(b, v, out_t, L.data_of(b, v), shapes, strides)


def _as(b: LowBuilder, a: ir.Value, dtype: T.Scalar) -> ir.Value:
    t = a.type
    assert isinstance(t, T.Array)
    return a if t.dtype == dtype else A.copy_as(b, a, dtype)


def _params(args: list[Operand], kwargs: dict[str, Operand], names: list[str], name: str):  # noqa: ANN202
    if not args and names[0] in kwargs:
        args = [kwargs[names[0]]]
        kwargs = {k: v for k, v in kwargs.items() if k != names[0]}
    if not args:
        raise TypingError(f"{name} needs an array")
    ops = take_args(args, kwargs, names[1:], name)
    ops[names[0]] = args[0]
    return ops


def _const(op: Operand | None, default: Any, name: str, what: str) -> Any:
    if op is None:
        return default
    if not op.is_const:
        raise TypingError(f"{name}: {what} must be a constant")
    return op.const


def _one_matrix(
    name: str, kernel: Callable[..., object], stack: Callable[..., object], flag: bool = False
):  # noqa: ANN202
    """The rule of a function of one matrix (or a stack of them); `flag`: the kernels also
    take whether the matrix is complex."""

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        _check_available(name)
        ops = _params(args, kwargs, ["a"], name)
        t = _matrix(ops["a"], name)
        _two_d(t, name, stacks=True)
        work, single = _common(t)
        if not flag:
            return _resolved(kernel, [t], work, single, len(args), kwargs, stack=stack)
        cplx = [ir.Const(work.is_complex, type=T.BOOL)]
        return _resolved(
            kernel,
            [t],
            work,
            single,
            len(args),
            kwargs,
            (T.BOOL,),
            lambda b, v, kw: cplx,
            stack=stack,
        )

    return rule


_NOTES = "2-D arrays; SciPy's LAPACK ({}), `pip install jitcore[linalg]`"
_STACK_NOTES = "2-D arrays or stacks of them; SciPy's LAPACK ({}), `pip install jitcore[linalg]`"

register_function(
    np.linalg.inv, listed_as="np.linalg.inv", params="a: array", notes=_STACK_NOTES.format("?gesv")
)(_one_matrix("np.linalg.inv", inv_kernel, inv_stack))
register_function(
    np.linalg.det,
    listed_as="np.linalg.det",
    params="a: array",
    notes=_STACK_NOTES.format("?getrf; sign * exp(logdet)"),
)(_one_matrix("np.linalg.det", det_kernel, det_stack, flag=True))
register_function(
    np.linalg.slogdet,
    listed_as="np.linalg.slogdet",
    params="a: array",
    notes=_STACK_NOTES.format("?getrf") + "; a plain tuple (sign, logabsdet)",
)(_one_matrix("np.linalg.slogdet", slogdet_kernel, slogdet_stack, flag=True))


@register_function(
    np.linalg.solve,
    listed_as="np.linalg.solve",
    params="a: array, b: array",
    notes=_STACK_NOTES.format("?gesv") + "; leading axes broadcast",
)
def _solve(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    name = "np.linalg.solve"
    _check_available(name)
    ops = _params(args, kwargs, ["a", "b"], name)
    ta, tb = _matrix(ops["a"], name), _matrix(ops["b"], name, "b")
    _two_d(ta, name, stacks=True)
    if tb.ndim == 0:
        raise TypingError(f"{name}: b must be at least one-dimensional")
    work, single = _common(ta, tb)
    if ta.ndim > 2 or tb.ndim > 2:
        return _solve_stacks(ta, tb, work, single, len(args), kwargs)
    kernel = solve_vector if tb.ndim == 1 else solve_matrix
    return _resolved(kernel, [ta, tb], work, single, len(args), kwargs)


def _solve_stacks(
    ta: T.Array, tb: T.Array, work: T.Scalar, single: bool, nargs: int, kwargs: dict
) -> Resolved:
    """solve of stacks, as NumPy 2: a (..., n, n); b (n,) (one vector for every matrix) or
    (..., n, k), the leading axes broadcast."""
    vector = tb.ndim == 1
    nb = max(ta.ndim - 2, 0 if vector else tb.ndim - 2)
    stack3 = T.Array(work, 3, "C")
    k = call_kernel(solve_stack, [stack3, stack3])
    ret = T.Array(work, nb + (1 if vector else 2), "C")
    view_t = T.Array(work, nb + 2, "A")
    name = "solve"

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a, rhs = _as(b, v[0], work), _as(b, v[1], work)
        a_shapes, a_strides = L.shapes_of(b, a), L.raw_strides_of(b, a)
        if vector:
            (n,), (stride,) = L.shapes_of(b, rhs), L.raw_strides_of(b, rhs)
            b_shapes, b_strides = [n, i64(1)], [stride, i64(0)]
        else:
            b_shapes, b_strides = L.shapes_of(b, rhs), L.raw_strides_of(b, rhs)
        b.raise_if(
            b.cmp("ne", a_shapes[-1], a_shapes[-2]),
            LinAlgError,
            "Last 2 dimensions of the array must be square",
        )
        b.raise_if(
            b.cmp("ne", b_shapes[-2], a_shapes[-1]),
            ValueError,
            "solve: Input operand 1 has a mismatch in its core dimension 0",
        )
        batch = broadcast_batch(b, a_shapes[:-2], b_shapes[:-2], nb, name)
        count = L.size_of(b, batch)
        av = broadcast_view(b, a, a_shapes, a_strides, batch, view_t)
        bv = broadcast_view(b, rhs, b_shapes, b_strides, batch, view_t)
        a3 = S.c_view_or_copy(b, av, [count, a_shapes[-2], a_shapes[-1]])
        b3 = S.c_view_or_copy(b, bv, [count, b_shapes[-2], b_shapes[-1]])
        out = k.lower(b, [a3, b3], {})  # type: ignore[misc]
        shapes = [*batch, b_shapes[-2]] if vector else [*batch, *b_shapes[-2:]]
        strides = L.contiguous_strides(b, shapes, work.dtype.itemsize, "C")
        return _narrow(b, L.make_view(b, out, ret, L.data_of(b, out), shapes, strides), single)

    return Resolved(
        (None,) * nargs,
        _narrowed(ret, single),
        lower,
        kwargs=dict.fromkeys(kwargs),
        may_raise=True,
    )


@register_function(
    np.linalg.cholesky,
    listed_as="np.linalg.cholesky",
    params="a: array, *, upper?: bool",
    notes=_STACK_NOTES.format("?potrf") + "; reads the lower triangle",
)
def _cholesky(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    name = "np.linalg.cholesky"
    _check_available(name)
    ops = _params(args, kwargs, ["a", "upper"], name)
    t = _matrix(ops["a"], name)
    _two_d(t, name, stacks=True)
    upper = bool(_const(ops["upper"], False, name, "upper"))
    work, single = _common(t)
    flag = ir.Const(upper, type=T.BOOL)
    return _resolved(
        cholesky_kernel,
        [t],
        work,
        single,
        len(args),
        kwargs,
        (T.BOOL,),
        lambda b, v, kw: [flag],
        stack=cholesky_stack,
    )


def _uplo(op: Operand | None, name: str) -> int:
    uplo = _const(op, "L", name, "UPLO")
    if uplo not in ("L", "U"):
        raise TypingError(f"{name}: UPLO argument must be 'L' or 'U'")
    return L_ if uplo == "L" else U_


def _eigh(vectors: bool):  # noqa: ANN202
    name = "np.linalg.eigh" if vectors else "np.linalg.eigvalsh"

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        _check_available(name)
        ops = _params(args, kwargs, ["a", "UPLO"], name)
        t = _matrix(ops["a"], name)
        _two_d(t, name, stacks=True)
        uplo = _uplo(ops["UPLO"], name)
        work, single = _common(t)
        consts = [ir.Const(uplo, type=T.I64), ir.Const(vectors, type=T.BOOL)]

        def first(b: LowBuilder, v: ir.Value) -> ir.Value:
            return b.extract(v, 0)

        return _resolved(
            eigh_kernel,
            [t],
            work,
            single,
            len(args),
            kwargs,
            (T.I64, T.BOOL),
            lambda b, v, kw: consts,
            after=None if vectors else first,
            after_type=None if vectors else (lambda r: r.items[0]),  # type: ignore[attr-defined]
            stack=eigh_stack,
        )

    return rule


register_function(
    np.linalg.eigh,
    listed_as="np.linalg.eigh",
    params="a: array, UPLO?: str",
    notes=_STACK_NOTES.format("?syevd/?heevd") + "; a plain tuple (eigenvalues, eigenvectors)",
)(_eigh(True))
register_function(
    np.linalg.eigvalsh,
    listed_as="np.linalg.eigvalsh",
    params="a: array, UPLO?: str",
    notes=_STACK_NOTES.format("?syevd/?heevd"),
)(_eigh(False))


def _eig(vectors: bool):  # noqa: ANN202
    name = "np.linalg.eig" if vectors else "np.linalg.eigvals"

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        _check_available(name)
        ops = _params(args, kwargs, ["a"], name)
        t = _matrix(ops["a"], name)
        _two_d(t, name, stacks=True)
        work, single = _common(t)
        kernel = eig_complex if work.is_complex else eig_real
        stack = eig_complex_stack if work.is_complex else eig_real_stack
        flag = [ir.Const(vectors, type=T.BOOL)]

        def first(b: LowBuilder, v: ir.Value) -> ir.Value:
            return b.extract(v, 0)

        return _resolved(
            kernel,
            [t],
            work,
            single,
            len(args),
            kwargs,
            (T.BOOL,),
            lambda b, v, kw: flag,
            after=None if vectors else first,
            after_type=None if vectors else (lambda r: r.items[0]),  # type: ignore[attr-defined]
            stack=stack,
        )

    return rule


_EIG_NOTES = (
    "; a real matrix must have real eigenvalues (a real result, as NumPy gives then; "
    "complex ones raise ValueError, as in Numba: pass a complex matrix)"
)
register_function(
    np.linalg.eig,
    listed_as="np.linalg.eig",
    params="a: array",
    notes=_STACK_NOTES.format("?geev")
    + _EIG_NOTES
    + "; a plain tuple (eigenvalues, eigenvectors)",
)(_eig(True))
register_function(
    np.linalg.eigvals,
    listed_as="np.linalg.eigvals",
    params="a: array",
    notes=_STACK_NOTES.format("?geev") + _EIG_NOTES,
)(_eig(False))


@register_function(
    np.linalg.svd,
    listed_as="np.linalg.svd",
    params="a: array, full_matrices?: bool, compute_uv?: bool, hermitian?: bool",
    notes=_STACK_NOTES.format("?gesdd") + "; a plain tuple (U, S, Vh); hermitian=False only",
)
def _svd(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    name = "np.linalg.svd"
    _check_available(name)
    ops = _params(args, kwargs, ["a", "full_matrices", "compute_uv", "hermitian"], name)
    t = _matrix(ops["a"], name)
    _two_d(t, name, stacks=True)
    full = bool(_const(ops["full_matrices"], True, name, "full_matrices"))
    uv = bool(_const(ops["compute_uv"], True, name, "compute_uv"))
    if _const(ops["hermitian"], False, name, "hermitian"):
        raise UnsupportedError(f"{name}(hermitian=True) is not supported")
    work, single = _common(t)
    job = [ir.Const(N_ if not uv else (A_ if full else S_), type=T.I64)]

    def values(b: LowBuilder, v: ir.Value) -> ir.Value:
        return b.extract(v, 1)

    return _resolved(
        svd_kernel,
        [t],
        work,
        single,
        len(args),
        kwargs,
        (T.I64,),
        lambda b, v, kw: job,
        after=None if uv else values,
        after_type=None if uv else (lambda r: r.items[1]),  # type: ignore[attr-defined]
        stack=svd_stack,
    )


@register_function(
    np.linalg.qr,
    listed_as="np.linalg.qr",
    params="a: array, mode?: str",
    notes=_STACK_NOTES.format("?geqrf, ?orgqr/?ungqr")
    + "; mode 'reduced', 'complete' (a plain tuple (Q, R)) or 'r'",
)
def _qr(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    name = "np.linalg.qr"
    _check_available(name)
    ops = _params(args, kwargs, ["a", "mode"], name)
    t = _matrix(ops["a"], name)
    _two_d(t, name, stacks=True)
    mode = _const(ops["mode"], "reduced", name, "mode")
    if mode not in ("reduced", "complete", "r"):
        raise UnsupportedError(f"{name}: mode {mode!r} is not supported")
    work, single = _common(t)
    flag = [ir.Const(mode == "complete", type=T.BOOL)]

    def r_only(b: LowBuilder, v: ir.Value) -> ir.Value:
        return b.extract(v, 1)

    return _resolved(
        qr_kernel,
        [t],
        work,
        single,
        len(args),
        kwargs,
        (T.BOOL,),
        lambda b, v, kw: flag,
        after=r_only if mode == "r" else None,
        after_type=(lambda r: r.items[1]) if mode == "r" else None,  # type: ignore[attr-defined]
        stack=qr_stack,
    )


def _float_arg(b: LowBuilder, v: list[ir.Value], kw: dict, at: int, name: str) -> ir.Value:
    """The float64 value of the argument at position `at` or keyword `name` (0.0 if absent
    or None)."""
    value = kw.get(name) or (v[at] if len(v) > at else None)
    if value is None or isinstance(value.type, T.NoneType):
        return ir.Const(0.0, type=T.F64)
    return b.cast(value, T.F64)


def _real_or_none(op: Operand | None, name: str, what: str) -> bool:
    """Whether a float argument is given (not None); TypingError for another type."""
    if op is None or isinstance(op.type, T.NoneType):
        return False
    t = op.type
    if not (isinstance(t, T.Scalar) and not t.is_complex):
        raise TypingError(f"{name}: {what} must be a real number")
    return True


@register_function(
    np.linalg.lstsq,
    listed_as="np.linalg.lstsq",
    params="a: array, b: array, rcond?: float | None",
    notes=_NOTES.format("?gelsd") + "; a plain tuple (x, residuals, rank, s)",
)
def _lstsq(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    name = "np.linalg.lstsq"
    _check_available(name)
    ops = _params(args, kwargs, ["a", "b", "rcond"], name)
    ta, tb = _matrix(ops["a"], name), _matrix(ops["b"], name, "b")
    if ta.ndim != 2:  # NumPy's lstsq takes no stacks either (a LinAlgError when called)
        raise TypingError(
            f"{name}: {ta.ndim}-dimensional array given. Array must be two-dimensional"
        )
    if tb.ndim not in (1, 2):
        raise TypingError(f"{name}: b must be 1-D or 2-D")
    given = _real_or_none(ops["rcond"], name, "rcond")
    work, single = _common(ta, tb)
    flag = ir.Const(given, type=T.BOOL)

    def extra(b: LowBuilder, v: list[ir.Value], kw: dict) -> list[ir.Value]:
        return [_float_arg(b, v, kw, 2, "rcond"), flag]

    kernel = lstsq_vector if tb.ndim == 1 else lstsq_kernel
    return _resolved(kernel, [ta, tb], work, single, len(args), kwargs, (T.F64, T.BOOL), extra)


@register_function(
    np.linalg.pinv,
    listed_as="np.linalg.pinv",
    params="a: array, rcond?: float, hermitian?: bool, *, rtol?: float | None",
    notes=_STACK_NOTES.format("?gesdd")
    + "; hermitian=False only; an empty int matrix gives float64 (NumPy: its own dtype)",
)
def _pinv(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    name = "np.linalg.pinv"
    _check_available(name)
    ops = _params(args, kwargs, ["a", "rcond", "hermitian", "rtol"], name)
    t = _matrix(ops["a"], name)
    _two_d(t, name, stacks=True)
    if _const(ops["hermitian"], False, name, "hermitian"):
        raise UnsupportedError(f"{name}(hermitian=True) is not supported")
    rcond_given = _real_or_none(ops["rcond"], name, "rcond")
    rtol_op = ops["rtol"]
    if rcond_given and rtol_op is not None:
        raise TypingError(f"{name}: `rtol` and `rcond` can't be both set.")
    scaled = rtol_op is not None and not _real_or_none(rtol_op, name, "rtol")
    if scaled and not (t.dtype.is_float or t.dtype.is_complex):
        raise TypingError(f"{name}: rtol=None takes the precision of a float array")
    eps = float(np.finfo(t.dtype.dtype).eps) if scaled else 0.0
    work, single = _common(t)
    flags = [ir.Const(scaled, type=T.BOOL), ir.Const(single, type=T.BOOL)]

    def extra(b: LowBuilder, v: list[ir.Value], kw: dict) -> list[ir.Value]:
        if scaled:
            return [ir.Const(eps, type=T.F64), *flags]
        if rtol_op is not None:
            return [_float_arg(b, v, kw, 99, "rtol"), *flags]
        if rcond_given:
            return [_float_arg(b, v, kw, 1, "rcond"), *flags]
        return [ir.Const(1e-15, type=T.F64), *flags]

    return _resolved(
        pinv_kernel,
        [t],
        work,
        single,
        len(args),
        kwargs,
        (T.F64, T.BOOL, T.BOOL),
        extra,
        stack=pinv_stack,
    )


@register_function(
    np.linalg.matrix_rank,
    listed_as="np.linalg.matrix_rank",
    params="A: array, tol?: float | None, hermitian?: bool, *, rtol?: float | None",
    notes=_STACK_NOTES.format("?gesdd") + "; hermitian=False only",
)
def _matrix_rank(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    name = "np.linalg.matrix_rank"
    _check_available(name)
    ops = _params(args, kwargs, ["A", "tol", "hermitian", "rtol"], name)
    t = _matrix(ops["A"], name, "A")
    _two_d(t, name, stacks=True)
    if _const(ops["hermitian"], False, name, "hermitian"):
        raise UnsupportedError(f"{name}(hermitian=True) is not supported")
    has_tol = _real_or_none(ops["tol"], name, "tol")
    has_rtol = _real_or_none(ops["rtol"], name, "rtol")
    mode = 0 if has_tol else (1 if has_rtol else 2)
    work, single = _common(t)
    eps = float(np.finfo(np.float32 if single else np.float64).eps)

    def extra(b: LowBuilder, v: list[ir.Value], kw: dict) -> list[ir.Value]:
        tol = _float_arg(b, v, kw, 1, "tol") if has_tol else _float_arg(b, v, kw, 99, "rtol")
        return [
            tol,
            ir.Const(mode, type=T.I64),
            ir.Const(eps, type=T.F64),
            ir.Const(single, type=T.BOOL),
        ]

    return _resolved(
        matrix_rank_kernel,
        [t],
        work,
        single,
        len(args),
        kwargs,
        (T.F64, T.I64, T.F64, T.BOOL),
        extra,
        stack=matrix_rank_stack,
    )
