"""SciPy's BLAS and LAPACK, callable from library kernels (the optional extra `jitcore[linalg]`).

Each routine family (`gemm`, `gemv`, `dot`, `gesv`...) is a Python function here, taking the
routine's arguments in Fortran's order without the ones the call supplies itself (`alpha`,
`beta`, `info`): ints for characters and sizes, arrays for the buffers (their data pointers
are passed), numbers for reals. In compiled code a call becomes `ncall "jitcore.la.<routine>"`
(`codegen.extcalls`) of the routine of the first array's type (`s`, `d`, `c` or `z`); from
Python, the same routine is called through ctypes. Either way it returns LAPACK's `info`, the
number of `dot`, or None. The caller (a kernel in `matmul` or `lapack`) is responsible for
the buffers' sizes and layouts, as with any BLAS call.

SciPy is imported only when a routine is first used: `available()` says whether it can be.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.lib import layout as L
from jitcore.lib.registry import Operand, Resolved, register_function
from jitcore.runtime import externs

HELPER_PREFIX = "jitcore.la."  # codegen.extcalls.PREFIX: codegen defines these symbols
LETTERS = {T.F32: "s", T.F64: "d", T.C64: "c", T.C128: "z"}
INT32_MAX = 2**31 - 1


def available() -> bool:
    """Whether SciPy's BLAS and LAPACK can be called (SciPy imports)."""
    return externs.scipy_available()


# --- the Python side: the same call through ctypes --------------------------------------------

_REALS = {"s": ctypes.c_float, "d": ctypes.c_double, "c": ctypes.c_float, "z": ctypes.c_double}


def call_routine(routine: str, *args: Any) -> Any:
    """Call SciPy's `routine` (`dgemm`) as compiled code does, with the arguments of its family's
    function here (`gemm`): what that function does when Python runs it."""
    library, kinds, result = externs.routine_spec(routine)
    real = _REALS[routine[0]]
    number: Any = real if routine[0] in "sd" else real * 2
    given = iter(args)
    cells: list[Any] = []
    pointers: list[int] = []
    info = ctypes.c_int(0)
    for kind in kinds:
        if kind == "p":
            pointers.append(np.asarray(next(given)).ctypes.data)
            continue
        if kind in "xy":  # given, not passed (see externs.ROUTINES)
            next(given)
            continue
        if kind == "c":
            cell: Any = ctypes.c_char(bytes([int(next(given))]))
        elif kind == "i":
            cell = ctypes.c_int(int(next(given)))
        elif kind == "r":
            cell = real(float(next(given)))
        elif kind == "o":
            cell = info
        else:
            cell = real(float(kind)) if number is real else number(float(kind), 0.0)
        cells.append(cell)
        pointers.append(ctypes.addressof(cell))
    restype = real if result == "x" else None
    address = externs.routine_address(library, routine)
    fn = ctypes.CFUNCTYPE(restype, *[ctypes.c_void_p] * len(pointers))(address)
    value = fn(*pointers)
    if result == "x":
        return value
    return info.value if "o" in kinds else None


_LETTER_OF = {np.dtype(d): x for d, x in zip("f4 f8 c8 c16".split(), "sdcz")}


def _routine_of(family: str, args: tuple[Any, ...]) -> str:
    first = next(a for a in args if isinstance(a, np.ndarray))
    return externs.routine_name(family, _LETTER_OF[first.dtype])


# --- the routine families ---------------------------------------------------------------------


def gemm(*args: Any) -> Any:
    """?gemm(transa, transb, m, n, k, a, lda, b, ldb, c, ldc): c = op(a) @ op(b) on
    column-major buffers (alpha 1, beta 0; trans 78 'N' or 84 'T')."""
    return call_routine(_routine_of("gemm", args), *args)


def gemv(*args: Any) -> Any:
    """?gemv(trans, m, n, a, lda, x, incx, y, incy): y = op(a) @ x (alpha 1, beta 0)."""
    return call_routine(_routine_of("gemv", args), *args)


def dot(*args: Any) -> Any:
    """?dot(n, x, incx, y, incy) of float32 or float64 vectors."""
    return call_routine(_routine_of("dot", args), *args)


def gesv(*args: Any) -> Any:
    """?gesv(n, nrhs, a, lda, ipiv, b, ldb) -> info: solve a x = b in place (LU)."""
    return call_routine(_routine_of("gesv", args), *args)


def getrf(*args: Any) -> Any:
    """?getrf(m, n, a, lda, ipiv) -> info: LU factorization with partial pivoting."""
    return call_routine(_routine_of("getrf", args), *args)


def potrf(*args: Any) -> Any:
    """?potrf(uplo, n, a, lda) -> info: Cholesky factorization."""
    return call_routine(_routine_of("potrf", args), *args)


def syevd(*args: Any) -> Any:
    """dsyevd / zheevd(jobz, uplo, n, a, lda, w, work, lwork, rwork, lrwork, iwork, liwork)
    -> info (the real routine ignores rwork and lrwork)."""
    return call_routine(_routine_of("syevd", args), *args)


def gesdd(*args: Any) -> Any:
    """?gesdd(jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork, iwork) -> info
    (the real routine ignores rwork)."""
    return call_routine(_routine_of("gesdd", args), *args)


def geqrf(*args: Any) -> Any:
    """?geqrf(m, n, a, lda, tau, work, lwork) -> info: QR as Householder reflectors."""
    return call_routine(_routine_of("geqrf", args), *args)


def orgqr(*args: Any) -> Any:
    """dorgqr / zungqr(m, n, k, a, lda, tau, work, lwork) -> info: Q from geqrf's
    reflectors."""
    return call_routine(_routine_of("orgqr", args), *args)


def gelsd(*args: Any) -> Any:
    """?gelsd(m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work, lwork, rwork, iwork) ->
    info: least squares by SVD (the real routine ignores rwork)."""
    return call_routine(_routine_of("gelsd", args), *args)


def geev(*args: Any) -> Any:
    """dgeev(jobvl, jobvr, n, a, lda, wr, wi, vl, ldvl, vr, ldvr, work, lwork) or
    zgeev(jobvl, jobvr, n, a, lda, w, vl, ldvl, vr, ldvr, work, lwork, rwork) -> info."""
    return call_routine(_routine_of("geev", args), *args)


FAMILIES = {
    "gemm": gemm,
    "gemv": gemv,
    "dot": dot,
    "gesv": gesv,
    "getrf": getrf,
    "potrf": potrf,
    "syevd": syevd,
    "gesdd": gesdd,
    "geqrf": geqrf,
    "orgqr": orgqr,
    "gelsd": gelsd,
    "geev": geev,
}


def _rule(base: str):  # noqa: ANN202
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if kwargs:
            return None
        arrays = [a.type for a in args if isinstance(a.type, T.Array)]
        if not arrays or arrays[0].dtype not in LETTERS:
            raise TypingError(f"{base} needs arrays of float32, float64 or complex numbers")
        routine = externs.routine_name(base, LETTERS[arrays[0].dtype])
        _, kinds, result = externs.routine_spec(routine)
        given = [k for k in kinds if k in "ciprxy"]
        if len(args) != len(given):
            raise TypingError(f"{base} takes {len(given)} arguments")
        dtype = arrays[0].dtype
        real = T.F32 if dtype in (T.F32, T.C64) else T.F64
        casts: list[T.Type | None] = []
        for kind, a in zip(given, args):
            if kind in "px":
                if not isinstance(a.type, T.Array):
                    raise TypingError(f"{base}: an array argument expected")
                casts.append(None)
            else:
                casts.append(T.I64 if kind in "ciy" else real)
        ret: T.Type = dtype if result == "x" else (T.I64 if "o" in kinds else T.NONE)

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            values = [L.data_of(b, x) if k in "px" else x for k, x in zip(given, v)]
            return b.native_call(HELPER_PREFIX + routine, values, ret)

        return Resolved(tuple(casts), ret, lower, may_raise=False)

    return rule


for _base, _fn in FAMILIES.items():
    register_function(_fn, params="")(_rule(_base))
