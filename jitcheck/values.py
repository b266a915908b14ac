"""Argument values: fresh copies that keep memory layout, and layout-keeping transport.

Every mode gets its own copy of an example's arguments, because kernels write into arrays.
A copy must keep what the dispatcher specializes on and what the kernel may depend on: dtype,
shape, C or Fortran order, and the strides of a non-contiguous view. `copy.deepcopy` and
pickling make views contiguous, so a view is copied with the memory it views and rebuilt
at the same offset and strides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from jitcheck.compare import show


def fresh_copy(value: Any) -> Any:
    """A copy of an argument that the call may modify without touching `value`."""
    if isinstance(value, np.ndarray):
        return unpack(pack(value))
    if isinstance(value, tuple):
        return tuple(fresh_copy(v) for v in value)
    return value  # scalars and None are immutable


@dataclass(frozen=True)
class StridedArray:
    """A non-contiguous view, as the contiguous memory it views plus where and how."""

    base: np.ndarray
    offset: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    writeable: bool


def pack(value: Any) -> Any:
    """`value` with every non-contiguous array replaced by a `StridedArray` holding a copy of
    its memory; contiguous arrays are copied in their own order. Picklable if `value` is."""
    if isinstance(value, tuple):
        return tuple(pack(v) for v in value)
    if not isinstance(value, np.ndarray):
        return value
    if value.flags.c_contiguous or value.flags.f_contiguous:
        copy = value.copy(order="K")
        copy.flags.writeable = value.flags.writeable
        return copy
    base = _owner(value)
    if base is None:
        return value.copy(order="K")  # memory not reachable: keep values, lose the strides
    offset = value.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return StridedArray(
        base.copy(order="K"), offset, value.shape, value.strides, value.flags.writeable
    )


def unpack(value: Any) -> Any:
    """Rebuild what `pack` made (a new array object each time)."""
    if isinstance(value, tuple):
        return tuple(unpack(v) for v in value)
    if isinstance(value, StridedArray):
        base = value.base.copy(order="K")
        view = np.ndarray(
            value.shape, base.dtype, buffer=base, offset=value.offset, strides=value.strides
        )
        view.flags.writeable = value.writeable
        return view
    if isinstance(value, np.ndarray):
        copy = value.copy(order="K")
        copy.flags.writeable = value.flags.writeable
        return copy
    return value


def _owner(view: np.ndarray) -> np.ndarray | None:
    """The contiguous array whose memory `view` looks into, if there is one."""
    base = view.base
    while isinstance(base, np.ndarray) and isinstance(base.base, np.ndarray):
        base = base.base
    contiguous = isinstance(base, np.ndarray) and (
        base.flags.c_contiguous or base.flags.f_contiguous
    )
    if contiguous and base.dtype == view.dtype:  # type: ignore[union-attr]
        return base
    return None


def describe_call(name: str, params: tuple[str, ...], args: tuple[Any, ...]) -> str:
    """`f(x=1.5, a=array([...]))`: an example as the failure message shows it."""
    inner = ", ".join(f"{p}={show(a)}" for p, a in zip(params, args))
    return f"{name}({inner})"
