"""Small things numerical code uses: `math.frexp` / `math.ldexp`, and the attributes of
`np.iinfo(...)` / `np.finfo(...)` (compile-time constants, also of `a.dtype`)."""

from __future__ import annotations

import functools
import math

import numpy as np

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.ir.markers import MISSING
from jitcore.lib.registry import (
    Operand,
    Resolved,
    call_kernel,
    library_kernel,
    register_function,
)

RANGE = "math range error"
_TWO64 = 18446744073709551616.0
_TWO_M64 = 5.421010862427522e-20
_SMALLEST_NORMAL = 2.2250738585072014e-308


@library_kernel
def frexp_kernel(x):  # noqa: ANN001, ANN201
    """math.frexp by exact scaling with powers of two: (m, e) with 0.5 <= |m| < 1."""
    if x == 0.0 or x != x or x - x != 0.0:  # zero (keeps its sign), NaN, infinities
        return x, 0
    m = x
    e = 0
    if abs(m) < _SMALLEST_NORMAL:  # subnormal: make it normal first (exact)
        m *= _TWO64
        e -= 64
    while abs(m) >= _TWO64:
        m *= _TWO_M64
        e += 64
    while abs(m) < _TWO_M64:
        m *= _TWO64
        e -= 64
    while abs(m) >= 1.0:
        m *= 0.5
        e += 1
    while abs(m) < 0.5:
        m *= 2.0
        e -= 1
    return m, e


def _real(name: str, op: Operand) -> None:
    if not (isinstance(op.type, T.Scalar) and op.type.kind in "biuf"):
        raise TypingError(f"math.{name}() takes a real number, not {op.type}")


@register_function(math.frexp, params="x: real")
def _frexp(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 1 or kwargs:
        return None
    _real("frexp", args[0])
    resolved = call_kernel(frexp_kernel, [T.F64])
    return resolved


@register_function(math.ldexp, params="x: real, i: int")
def _ldexp(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 2 or kwargs:
        return None
    _real("ldexp", args[0])
    if not (isinstance(args[1].type, T.Scalar) and args[1].type.kind in "biu"):
        raise TypingError(f"math.ldexp() exponent must be an integer, not {args[1].type}")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        x, i = v
        # exponents beyond +-2**20 give 0 or inf for every double: clamp into int32
        bound = ir.Const(1 << 20, type=T.I64)
        i = b.select(b.cmp("gt", i, bound), bound, i)
        low = ir.Const(-(1 << 20), type=T.I64)
        i = b.select(b.cmp("lt", i, low), low, i)
        r = b.intrinsic("ldexp", [x, b.cast(i, T.I32)], T.F64)
        b.raise_if(b.and_(b.isinf(r), b.isfinite(x)), OverflowError, RANGE)
        return r

    return Resolved((T.F64, T.I64), T.F64, lower)


@functools.cache
def _info(name: str, dtype: np.dtype) -> object:
    """One info object per dtype, so typing sees the same constant every round."""
    return np.iinfo(dtype) if name == "iinfo" else np.finfo(dtype)


def _info_of(name: str, op: Operand) -> object:
    value = op.type.obj if isinstance(op.type, T.Opaque) else op.const
    if value is MISSING:
        raise TypingError(
            f"np.{name}() needs a dtype known at compile time, not {op.type}",
            hint=f"write np.{name}(np.int32) or np.{name}(a.dtype)",
        )
    try:
        return _info(name, np.dtype(value))  # type: ignore[call-overload]
    except (TypeError, ValueError) as exc:
        raise TypingError(f"np.{name}({value!r}): {exc}") from None


@register_function(np.iinfo, params="dtype: dtype")
def _iinfo(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 1 or kwargs:
        return None
    info = _info_of("iinfo", args[0])
    return Resolved((None,), T.Opaque(info), const=info)


@register_function(np.finfo, params="dtype: dtype")
def _finfo(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 1 or kwargs:
        return None
    info = _info_of("finfo", args[0])
    return Resolved((None,), T.Opaque(info), const=info)
