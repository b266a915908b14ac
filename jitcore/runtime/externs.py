"""Symbols compiled code refers to by name whose addresses only this process knows.

Object code is cached on disk and loaded by other processes, where SciPy's BLAS and LAPACK
functions and NumPy's exception classes live at other addresses: machine code never holds such
an address. It names the thing instead, and `machine_code.link` asks `imports_for` which of
these names an object refers to, resolving each in the linking process:

- `jitcore.scipy.blas.<routine>` / `jitcore.scipy.lapack.<routine>`: the C function behind
  SciPy's `scipy.linalg.cython_blas` / `cython_lapack` capsule of that name (the optional extra
  `pip install jitcore[linalg]`);
- `jitcore.exc.<module>.<qualname>`: a cell holding the class object of a non-built-in
  exception that compiled code raises (`numpy.linalg.LinAlgError`), the counterpart of the
  `PyExc_<Name>` globals of the built-in ones;
- `jitcore.numpy.<function>`: one of NumPy's C distribution functions (`runtime.npdists`).

Layer: imports only `jitcore.errors` and `runtime.npdists`; NumPy and SciPy are imported
when asked.
"""

from __future__ import annotations

import ctypes
import functools
import re

from jitcore.errors import UnsupportedError
from jitcore.runtime import npdists

SCIPY_PREFIX = "jitcore.scipy."
EXC_PREFIX = "jitcore.exc."
EXTRA_HINT = "pip install jitcore[linalg]"
_NAMES = re.compile(rb"(jitcore\.(?:scipy|exc|numpy)\.[A-Za-z0-9_.]+)\x00")

_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype = ctypes.c_char_p
_get_name.argtypes = [ctypes.py_object]


def scipy_available() -> bool:
    """Whether SciPy's Cython BLAS/LAPACK can be imported here (the `linalg` extra)."""
    return _scipy_modules() is not None


@functools.cache
def _scipy_modules() -> dict[str, object] | None:
    try:
        from scipy.linalg import cython_blas, cython_lapack
    except ImportError:
        return None
    return {"blas": cython_blas, "lapack": cython_lapack}


def scipy_symbol(library: str, routine: str) -> str:
    """The name compiled code calls SciPy's `library` ("blas"/"lapack") `routine` by."""
    return f"{SCIPY_PREFIX}{library}.{routine}"


def routine_address(library: str, routine: str) -> int:
    """The address of SciPy's `routine` in this process (UnsupportedError without SciPy)."""
    return _scipy_address(scipy_symbol(library, routine))


@functools.cache
def _scipy_address(name: str) -> int:
    library, _, routine = name[len(SCIPY_PREFIX) :].partition(".")
    modules = _scipy_modules()
    if modules is None:
        raise UnsupportedError(
            f"compiled code calls SciPy's {routine}, but SciPy cannot be imported",
            hint=EXTRA_HINT,
        )
    capsule = modules[library].__pyx_capi__[routine]  # type: ignore[attr-defined]
    return int(_get_pointer(capsule, _get_name(capsule)))


# --- exception classes ----------------------------------------------------------------------


@functools.cache
def extra_exceptions() -> tuple[type, ...]:
    """The non-built-in exception classes compiled code may raise (NumPy's `LinAlgError`)."""
    import numpy as np

    return (np.linalg.LinAlgError,)


def exception_symbol(exc: type) -> str | None:
    """The symbol of the cell holding `exc`, if compiled code may raise it (else None)."""
    if exc not in extra_exceptions():
        return None
    return f"{EXC_PREFIX}{exc.__module__}.{exc.__qualname__}"


_cells: dict[str, ctypes.c_void_p] = {}  # symbol -> cell (kept alive: code reads them)


def _exception_cell(name: str) -> int:
    cell = _cells.get(name)
    if cell is None:
        path = name[len(EXC_PREFIX) :]
        for exc in extra_exceptions():
            if f"{exc.__module__}.{exc.__qualname__}" == path:
                cell = _cells[name] = ctypes.c_void_p(id(exc))
                break
        else:
            raise UnsupportedError(f"compiled code raises {path}, which is not known here")
    return ctypes.addressof(cell)


# --- linking --------------------------------------------------------------------------------


def imports_for(object_code: bytes) -> dict[str, int]:
    """Every process-local symbol the object code refers to, with its address here."""
    found: dict[str, int] = {}
    for match in _NAMES.finditer(object_code):
        name = match.group(1).decode()
        if name in found:
            continue
        if name.startswith(SCIPY_PREFIX):
            found[name] = _scipy_address(name)
        elif name.startswith(npdists.PREFIX):
            found[name] = npdists.address(name)
        else:
            found[name] = _exception_cell(name)
    return found


# --- the routines compiled code calls, and how ----------------------------------------------
# Fortran's convention: every argument by pointer. Each routine is described by the kinds of
# its arguments, in order: `c` a character (given as an int, its code), `i` an int (int32 in
# SciPy's LP64 BLAS), `p` an array's data, `r` a real number, `1`/`0` the constant one/zero of
# the routine's type (gemm's alpha and beta), `o` LAPACK's `info` (the call's result); `x` (an
# array) and `y` (an int) are given but not passed: the complex routine's `rwork`/`lrwork`,
# so that the real and complex routines of a family take the same arguments. The routine's
# result: `v` none, `x` a number of its type (dot).
ROUTINES: dict[str, tuple[str, str, str]] = {  # base name -> (library, argument kinds, result)
    "gemm": ("blas", "cciii1pipi0pi", "v"),
    "gemv": ("blas", "cii1pipi0pi", "v"),
    "dot": ("blas", "ipipi", "x"),
    "gesv": ("lapack", "iipippio", "v"),
    "getrf": ("lapack", "iipipo", "v"),
    "potrf": ("lapack", "cipio", "v"),
    "syevd": ("lapack", "ccipippixypio", "v"),
    "heevd": ("lapack", "ccipippipipio", "v"),
    "gesdd": ("lapack", "ciipippipipixpo", "v"),
    "c:gesdd": ("lapack", "ciipippipipippo", "v"),
    "geqrf": ("lapack", "iipippio", "v"),
    "orgqr": ("lapack", "iiipippio", "v"),
    "ungqr": ("lapack", "iiipippio", "v"),
    "gelsd": ("lapack", "iiipipiprppixpo", "v"),
    "c:gelsd": ("lapack", "iiipipiprppippo", "v"),
    "geev": ("lapack", "ccipipppipipio", "v"),
    "c:geev": ("lapack", "ccipippipipipo", "v"),
}
# Families whose complex routine has another name.
COMPLEX_NAMES = {"syevd": "heevd", "orgqr": "ungqr"}


def routine_name(family: str, letter: str) -> str:
    """The routine of `family` for numbers of type `letter` (`s`, `d`, `c`, `z`)."""
    if letter in "cz":
        family = COMPLEX_NAMES.get(family, family)
    return letter + family


def routine_spec(routine: str) -> tuple[str, str, str]:
    """(library, argument kinds, result) of a full routine name (`dgemm`, `zgesv`): complex
    routines whose arguments differ from the real ones are listed as `c:<base>`."""
    base = routine[1:]
    if routine[0] in "cz" and f"c:{base}" in ROUTINES:
        return ROUTINES[f"c:{base}"]
    return ROUTINES[base]
