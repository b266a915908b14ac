"""Supported operations (builtins, math, cmath, NumPy): typing rules and emitters together.

Each rule module registers its rules in `registry` when imported; `catalog` imports them all
and lists them (`jitcore.supported()`). Modules import each other only downwards, at module
level, in these layers (a module may use any layer below its own):

    catalog                          imports every rule module; the listing and README tables
    builtins  mathlib                builtins, math and cmath functions
    operators                        Python operators; dispatches array operands upwards to...
    strmethods                       string indexing, iteration, methods, str() and formatting
    npselect  npmore  npextra        selection by index, condition, set; creation, splits, stats
    npufuncs  npstats                more ufuncs and np.round; statistics and array algorithms
    ufuncs                           elementwise NumPy operations and functions
    npsort                           sorting, searching, median and quantiles
    creation                         np.array/asarray, eye, diag, tri/tril/triu, full_like
    joining                          concatenate, stacks, repeat, tile, roll, flip, insert...
    indexing                         None, ..., boolean masks, index arrays (read and write)
    shapes                           reshape, ravel, transpose, squeeze, broadcast_to, ...
    matmul                           @, np.dot, np.matmul (BLAS through `blas`, else loops)
    reductions                       reductions along axes, scans
    arrays                           indexing, views, attributes, creation, assignment
    nprows                           axes moved last and viewed as 2-D rows for the kernels
    npstatsk npsortk npkernels       library kernels written in Python, compiled by jitcore
    blas                             SciPy's BLAS and LAPACK routines, callable from kernels
    shapekernels                     (the same, for reshape without a copy)
    loops                            the elementwise loop engine (Recipe, elementwise)
    layout  scalar  containers       array struct fields and addressing; scalar emitters;
                                     strings, dicts and sets (runtime helper calls)
    registry                         Operand, Resolved, the rule tables and the listing

Below `lib` are `jitcore.ir` (nodes, types, builder, coerce, markers) and `jitcore.errors`;
`lib` never imports a compiler stage (`typeinfer`, `optimize`, the dispatcher): `typeinfer`
and `optimize.fusion` import `lib`, not the other way round. Library kernels reach the
compiler through the resolver the dispatcher installs in `registry` (`call_kernel`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jitcore.lib.registry import Entry


def supported() -> list[Entry]:
    """Every supported operation (`jitcore.supported()`): see `jitcore.lib.catalog.supported`.

    Imported late on purpose: listing registers every rule module, which `import jitcore` alone
    (or a process that only loads cached code) should not pay for."""
    from jitcore.lib import catalog

    return catalog.supported()
