"""IEEE 754-2019 `maximum` and `minimum` of two floats, for library kernels.

A float max/min reduction written as `if x > m: m = x` (with NaN checks) is a select that LLVM
vectorizes only under fast-math, and NumPy's NaN rule made it leave the loop at the first NaN
besides: `a.max()` ran scalar, at a third of Numba's speed. LLVM's `llvm.maximum` and
`llvm.minimum` propagate NaN and order -0.0 below +0.0, and LLVM vectorizes reductions built on
them without any fast-math flag. `max_flat`/`min_flat` (`npkernels`) use them (3.8x Numba
now). The one difference from NumPy is the sign of a zero result: here the maximum of -0.0 and
+0.0 is +0.0 and their minimum -0.0, where NumPy's vectorized loops return either, depending on
where the zeros fall among the SIMD lanes.

The Python definitions are the same functions, for kernels that run as Python.
"""

from __future__ import annotations

import math

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.lib.registry import Operand, Resolved, register_function


def ieee_maximum(x: float, y: float) -> float:
    """The larger of x and y; NaN if either is; +0.0 is larger than -0.0."""
    if x != x or y != y:
        return math.nan
    if x == y == 0.0:
        return x if math.copysign(1.0, x) > 0 else y
    return x if x > y else y


def ieee_minimum(x: float, y: float) -> float:
    """The smaller of x and y; NaN if either is; -0.0 is smaller than +0.0."""
    if x != x or y != y:
        return math.nan
    if x == y == 0.0:
        return x if math.copysign(1.0, x) < 0 else y
    return x if x < y else y


def _rule(intrinsic: str):  # noqa: ANN202
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if len(args) != 2 or kwargs:
            return None
        t = args[0].type
        if not (isinstance(t, T.Scalar) and t.is_float and args[1].type == t):
            raise TypingError(f"{intrinsic} takes two floats of one type")

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            return b.intrinsic(intrinsic, v, t)

        return Resolved((t, t), t, lower)

    return rule


register_function(ieee_maximum)(_rule("maximum"))
register_function(ieee_minimum)(_rule("minimum"))
