"""NumPy's C distribution functions as primitives of compiled code, and the kernels that fill
arrays with their draws: the calling side of `nprandomgd` (whose rules check the parameters).

Each C function of `runtime.npdists` (`random_normal`, ...) is a primitive here, a module
attribute of its own name: `random_normal(g, loc, scale)` in compiled code becomes a call of
the helper `codegen.npdistcalls` emits, which calls NumPy's function with the Generator's
`bitgen_t`. `fill_<function>(g, size, *params)` fills a new C-contiguous array in order, as
NumPy's `cont`/`disc` loops do; `draw` picks the one call or the fill.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.lib.nprandom import _call, _size_tuple, _sizes_t
from jitcore.lib.registry import (
    Operand,
    Resolved,
    call_kernel,
    library_kernel,
    register_function,
)
from jitcore.runtime import npdists

HELPER_PREFIX = "jitcore.npd."  # codegen.npdistcalls.PREFIX: codegen defines these helpers
_KINDS: dict[str, T.Scalar] = {"d": T.F64, "f": T.F32, "q": T.I64}
_DTYPES = {T.F64: np.float64, T.F32: np.float32, T.I64: np.int64}


# --- the primitives: one per C function --------------------------------------------------------


def _primitive(function: str) -> Callable[..., object]:
    """`function(g, *params)`: NumPy's C function of that name on the Generator's bit generator
    (a primitive of compiled code; the fill kernels below call it as a closure constant)."""

    def draw(g: object, *params: object) -> object:
        raise RuntimeError(f"{function}() is a primitive of compiled code")

    draw.__name__ = draw.__qualname__ = function
    param_types = [_KINDS[k] for k in npdists.FUNCTIONS[function][0]]
    ret = _KINDS[npdists.FUNCTIONS[function][1]]

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        if kwargs or len(args) != 1 + len(param_types) or args[0].type != T.GENERATOR:
            raise TypingError(f"{function}() takes the generator and {len(param_types)} numbers")

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
            return b.native_call(HELPER_PREFIX + function, v, ret)

        return Resolved((None, *param_types), ret, lower, may_raise=True)

    register_function(draw)(rule)
    return draw


PRIMITIVES = {function: _primitive(function) for function in npdists.FUNCTIONS}
globals().update(PRIMITIVES)  # module attributes, so that IR text names them (`@...random_f`)


# --- the fill kernels: one per C function ------------------------------------------------------


def _fill_kernel(function: str) -> Callable[..., object]:
    """`fill_<function>(g, size, *params)`: a new array of shape `size` filled in order with
    draws of `function` (NumPy's `cont`/`disc` loop). A module attribute under that name, so
    that a cached caller finds it again (`cached.find_dispatcher`: module and qualname)."""
    draw = PRIMITIVES[function]
    kind = _DTYPES[_KINDS[npdists.FUNCTIONS[function][1]]]
    arity = len(npdists.FUNCTIONS[function][0])

    def fill0(g, size):  # noqa: ANN001, ANN202
        out = np.empty(size, kind)
        flat = out.reshape(out.size)
        for i in range(flat.shape[0]):
            flat[i] = draw(g)
        return out

    def fill1(g, size, a):  # noqa: ANN001, ANN202
        out = np.empty(size, kind)
        flat = out.reshape(out.size)
        for i in range(flat.shape[0]):
            flat[i] = draw(g, a)
        return out

    def fill2(g, size, a, b):  # noqa: ANN001, ANN202
        out = np.empty(size, kind)
        flat = out.reshape(out.size)
        for i in range(flat.shape[0]):
            flat[i] = draw(g, a, b)
        return out

    def fill3(g, size, a, b, c):  # noqa: ANN001, ANN202
        out = np.empty(size, kind)
        flat = out.reshape(out.size)
        for i in range(flat.shape[0]):
            flat[i] = draw(g, a, b, c)
        return out

    fill = (fill0, fill1, fill2, fill3)[arity]
    fill.__qualname__ = f"fill_{function}"  # (`__name__` stays: `parse` finds the def by it)
    return library_kernel(fill)


FILLS = {function: _fill_kernel(function) for function in npdists.FUNCTIONS}
globals().update({fill.__qualname__: fill for fill in FILLS.values()})


# --- calling them -------------------------------------------------------------------------------


def fill_kernel(function: str, ndim: int | None) -> Resolved | None:
    """The typed fill kernel of `function` for sizes of `ndim` dimensions (None: a scalar)."""
    if ndim is None:
        return None
    kinds = npdists.FUNCTIONS[function][0]
    return call_kernel(FILLS[function], [T.GENERATOR, _sizes_t(ndim), *(_KINDS[c] for c in kinds)])


def draw(
    b: LowBuilder,
    g: ir.Value,
    function: str,
    params: list[ir.Value],
    size: ir.Value | None,
    fill: Resolved | None,
) -> ir.Value:
    """One draw of NumPy's `function` (`size` None) or, by the `fill` kernel, an array of
    shape `size` of draws."""
    kinds, result = npdists.FUNCTIONS[function]
    cast = [b.cast(x, _KINDS[k]) for x, k in zip(params, kinds)]
    if size is None or fill is None:
        return b.native_call(HELPER_PREFIX + function, [g, *cast], _KINDS[result])
    return _call(b, fill, [g, _size_tuple(b, size), *cast])


def fill_type(function: str, ndim: int | None) -> T.Type:
    ret = _KINDS[npdists.FUNCTIONS[function][1]]
    return ret if ndim is None else T.Array(ret, ndim, "C")
