"""Whole-value assignment to a Module's Variable: `self.w.value = expr` in a jitted method.

A Variable keeps its shape and dtype (BrainPy's rule): the value must have the Variable's
shape exactly and a dtype that casts to the Variable's by same-kind casting. The dtype test is
decided at compile time from the operand types (a Python number casts by its kind, as NumPy 2
treats weak scalars), the shape test at run time; either failure raises the same error, with
the same message, as `Variable.value = ...` in Python (`jitcore.state`), so a method behaves
the same compiled and interpreted. The front end (`jitcore.methods`) turns the assignment into
a call of `assign_value`, which is registered here (not listed in `jitcore.supported()`: users
write the assignment, not the call).
"""

from __future__ import annotations

import numpy as np

from jitcore.errors import TypingError
from jitcore.ir import types as T
from jitcore.lib.registry import Operand, Resolved, call_kernel, register_function
from jitcore.lib.registry import library_kernel as _lib

SHAPE_MESSAGE = (
    "a Variable keeps its shape: the value's shape differs from the Variable's "
    "(assign a new Variable to change it)"
)
DTYPE_MESSAGE = (
    "a Variable keeps its dtype: the value's dtype does not cast to the Variable's by "
    "same-kind casting (assign a new Variable to change it)"
)

_KIND_ORDER = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def value_casts(src: np.dtype, dst: np.dtype, *, python_number: bool) -> bool:
    """Whether a value of dtype `src` may be written into a Variable of dtype `dst`.

    A Python number only needs a kind that fits (an int into float32, a float into a complex
    Variable), as NumPy 2 casts weak scalars; arrays and NumPy scalars need same-kind casting.
    """
    if python_number:
        return _KIND_ORDER.get(src.kind, 9) <= _KIND_ORDER.get(dst.kind, -1)
    return bool(np.can_cast(src, dst, "same_kind"))


def assign_value(dst: np.ndarray, src: object) -> None:
    """Python meaning of the assignment: check shape and dtype, then copy `src` into `dst`."""
    python_number = isinstance(src, (bool, int, float, complex))
    value = np.asarray(src)
    if not value_casts(value.dtype, dst.dtype, python_number=python_number):
        raise TypeError(DTYPE_MESSAGE)
    if value.shape != dst.shape:
        raise ValueError(SHAPE_MESSAGE)
    dst[...] = value


@register_function(assign_value, params="dst: array, src: number | array")
def _assign_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 2 or kwargs:
        return None
    dst, src = args[0].type, args[1].type
    if not isinstance(dst, T.Array):
        raise TypingError("a Variable's storage must be an array")
    if isinstance(src, T.Array):
        src_dtype, python_number = src.dtype.dtype, False
    elif isinstance(src, T.Scalar):
        src_dtype, python_number = src.dtype, args[1].weak
    else:
        raise TypingError(f"cannot assign a {src} to a Variable")
    if not value_casts(src_dtype, dst.dtype.dtype, python_number=python_number):
        return call_kernel(_raise_dtype, [dst, src])
    src_ndim = src.ndim if isinstance(src, T.Array) else 0
    if src_ndim != dst.ndim:
        return call_kernel(_raise_shape, [dst, src])
    if dst.ndim == 0:
        kernel = _copy_0d_array if isinstance(src, T.Array) else _copy_0d_scalar
        return call_kernel(kernel, [dst, src])
    return call_kernel(_copy_same_ndim, [dst, src])


@_lib
def _copy_same_ndim(dst, src):  # noqa: ANN001, ANN202
    if src.shape != dst.shape:
        raise ValueError(
            "a Variable keeps its shape: the value's shape differs from the Variable's "
            "(assign a new Variable to change it)"
        )
    dst[:] = src


@_lib
def _copy_0d_array(dst, src):  # noqa: ANN001, ANN202
    dst[()] = src[()]


@_lib
def _copy_0d_scalar(dst, src):  # noqa: ANN001, ANN202
    dst[()] = src


@_lib
def _raise_shape(dst, src):  # noqa: ANN001, ANN202
    raise ValueError(
        "a Variable keeps its shape: the value's shape differs from the Variable's "
        "(assign a new Variable to change it)"
    )


@_lib
def _raise_dtype(dst, src):  # noqa: ANN001, ANN202
    raise TypeError(
        "a Variable keeps its dtype: the value's dtype does not cast to the Variable's by "
        "same-kind casting (assign a new Variable to change it)"
    )
