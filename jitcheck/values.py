"""Argument values: fresh copies that keep memory layout, and layout-keeping transport.

Every mode gets its own copy of an example's arguments, because kernels write into arrays.
A copy must keep what the dispatcher specializes on and what the kernel may depend on: dtype,
shape, C or Fortran order, and the strides of a non-contiguous view. `copy.deepcopy` and
pickling make views contiguous, so a view is copied with the memory it views and rebuilt
at the same offset and strides.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np


def fresh_copy(value: Any) -> Any:
    """A copy of an argument (or of a tuple of arguments) that the call may modify without
    touching `value`. Arrays of a tuple that share memory (the same array twice, overlapping
    views) share it in the copy the same way: aliasing is part of the example."""
    if isinstance(value, np.ndarray):
        return unpack(pack(value))
    if isinstance(value, tuple):
        shared = _shared_roots(value)
        if shared:
            return _copy_sharing(value, shared)
        return tuple(fresh_copy(v) for v in value)
    if isinstance(value, np.random.Generator):
        return copy.deepcopy(value)  # its own copy of the state: each run draws the same stream
    if isinstance(value, list | dict | set):
        return copy.deepcopy(value)  # a run that appends to a list must not change the next's
    return value  # scalars, strings and None are immutable


def _root(a: np.ndarray) -> np.ndarray:
    """The array that owns the memory `a` looks into (`a` itself if it owns it)."""
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def _shared_roots(values: tuple[Any, ...]) -> dict[int, np.ndarray]:
    """The memory owners that two or more of the arrays among `values` look into."""
    seen: dict[int, int] = {}
    roots: dict[int, np.ndarray] = {}
    for v in values:
        if isinstance(v, np.ndarray) and v.size:
            root = _root(v)
            contiguous = root.flags.c_contiguous or root.flags.f_contiguous
            if contiguous and root.dtype == v.dtype:
                seen[id(root)] = seen.get(id(root), 0) + 1
                roots[id(root)] = root
    return {k: r for k, r in roots.items() if seen[k] > 1}


def _copy_sharing(values: tuple[Any, ...], shared: dict[int, np.ndarray]) -> tuple[Any, ...]:
    copies = {k: r.copy(order="K") for k, r in shared.items()}
    out = []
    for v in values:
        if not isinstance(v, np.ndarray) or not v.size or id(_root(v)) not in shared:
            out.append(fresh_copy(v))
            continue
        root = _root(v)
        offset = v.__array_interface__["data"][0] - root.__array_interface__["data"][0]
        view = np.ndarray(
            v.shape, v.dtype, buffer=copies[id(root)], offset=offset, strides=v.strides
        )
        view.flags.writeable = v.flags.writeable
        out.append(view)
    return tuple(out)


def aliasing_note(params: tuple[str, ...], args: tuple[Any, ...]) -> str:
    """Which arguments share memory, in words (empty when none do)."""
    arrays = [(p, a) for p, a in zip(params, args) if isinstance(a, np.ndarray) and a.size]
    notes = []
    for i, (p, a) in enumerate(arrays):
        for q, b in arrays[i + 1 :]:
            if a is b or (a.__array_interface__ == b.__array_interface__):
                notes.append(f"`{q}` is the same array as `{p}`")
            elif np.shares_memory(a, b):
                notes.append(f"`{p}` and `{q}` are overlapping views of one buffer")
    return "; ".join(notes)


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
    """`f(x=1.5, a=np.array([...], dtype=np.float64))`: an example as the failure message
    shows it, every argument exact (`exact`), so pasting it reproduces the call."""
    inner = ", ".join(f"{p}={exact(a)}" for p, a in zip(params, args))
    note = aliasing_note(params, args)
    return f"{name}({inner})" + (f"  # {note}" if note else "")


def exact(value: Any) -> str:
    """A Python expression that rebuilds `value` exactly (with `import numpy as np`): floats
    by `repr`, NaN and infinities as `float('nan')`, arrays with every element, their dtype,
    Fortran order (`np.asfortranarray(...)`) and, for a strided view, the array it views and
    the slicing (`np.array([...])[4::-2]`), or `as_strided` where no slicing gives it."""
    if isinstance(value, tuple):
        items = ", ".join(exact(v) for v in value)
        return f"({items},)" if len(value) == 1 else f"({items})"
    if isinstance(value, np.ndarray):
        return _exact_array(value)
    if isinstance(value, np.generic):
        return f"np.{type(value).__name__}({_number(value.item())})"
    if isinstance(value, float | complex):
        return _number(value)
    return repr(value)


def _number(x: Any) -> str:
    if isinstance(x, float) and not np.isfinite(x):
        return f"float('{x!r}')"
    if isinstance(x, complex) and not (np.isfinite(x.real) and np.isfinite(x.imag)):
        return f"complex({_number(x.real)}, {_number(x.imag)})"
    return repr(x)


def _nested(items: Any) -> str:
    if isinstance(items, list):
        return "[" + ", ".join(_nested(i) for i in items) + "]"
    return _number(items)


def _contiguous(a: np.ndarray) -> str:
    """A C-ordered array with `a`'s elements, dtype and shape."""
    body = f"np.array({_nested(a.tolist())}, dtype=np.{a.dtype.name})"
    if a.ndim == 0 or 0 in a.shape:
        body += f".reshape({a.shape!r})"
    return body


def _exact_array(a: np.ndarray) -> str:
    if a.flags.c_contiguous:
        return _contiguous(a)
    if a.flags.f_contiguous:
        return f"np.asfortranarray({_contiguous(a)})"
    base = _owner(a)
    if base is None:  # memory not reachable: the values, in C order (strides are lost)
        return _contiguous(np.ascontiguousarray(a))
    sliced = _as_slices(a, base)
    if sliced is not None:
        return sliced
    offset = (a.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // a.itemsize
    memory = base.ravel(order="K")
    return (
        f"np.lib.stride_tricks.as_strided({_contiguous(memory)}[{offset}:], "
        f"shape={a.shape!r}, strides={a.strides!r})"
    )


def _as_slices(view: np.ndarray, base: np.ndarray) -> str | None:
    """`base[...]` with basic slicing that gives `view` (same shape, strides and first
    element), or None."""
    item = view.itemsize
    if base.ndim != view.ndim or not base.flags.c_contiguous:
        return None
    base_c = base
    offset = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    if offset % item:
        return None
    start = np.unravel_index(offset // item, base.shape) if base.size else (0,) * base.ndim
    slices, parts = [], []
    for axis, (n, stride) in enumerate(zip(view.shape, view.strides)):
        step = 1 if n <= 1 else stride // base.strides[axis] if base.strides[axis] else 0
        if step == 0 or (n > 1 and step * base.strides[axis] != stride):
            return None
        first = int(start[axis])
        stop = first + step * n
        slices.append(slice(first, stop if stop >= 0 else None, step))
        parts.append(
            f"{first or ''}:{'' if stop < 0 or stop >= base.shape[axis] else stop}"
            + (f":{step}" if step != 1 else "")
        )
    rebuilt = base_c[tuple(slices)]
    if rebuilt.shape != view.shape or rebuilt.strides != view.strides:
        return None
    return f"{_contiguous(base_c)}[{', '.join(parts)}]"
