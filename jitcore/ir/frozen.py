"""Module-level arrays read by compiled code: frozen into it as read-only constants.

A global (or closure) NumPy array of numbers that a jitted function reads, such as a lookup
table, is a constant of the compiled code, as in Numba: `typeinfer` types it as a C-contiguous
array, codegen copies its contents into the function's module (so the disk cache stores them,
and the cache key hashes them: `cache.function_key`), and it never changes afterwards.
Writing into it (`TABLE[i] = x`) is a TypingError; returning it gives a read-only array.

In printed IR a frozen array reads `@jitcore.ir.frozen.frozen_array((items...), 'dtype',
(shape...))`, which the IR parser evaluates back into an equal array.

Layer: depends on `ir.types` only.
"""

from __future__ import annotations

import numpy as np

from jitcore.ir import types as T


def frozen_type(value: object) -> T.Array | None:
    """The type a frozen array constant has, or None if `value` cannot be one."""
    if not isinstance(value, np.ndarray) or value.dtype.kind not in "biufc":
        return None
    try:
        dtype = T.from_dtype(value.dtype.newbyteorder("="))
    except TypeError:
        return None
    return T.Array(dtype, value.ndim, "C")  # a big-endian one is held in native order


def frozen_contents(value: np.ndarray) -> np.ndarray:
    """The C-contiguous native-order copy whose bytes compiled code holds, of `value`'s shape
    (`np.ascontiguousarray` alone makes a 0-d array 1-d)."""
    native = value.dtype.newbyteorder("=")
    return np.ascontiguousarray(value, dtype=native).reshape(value.shape)


def frozen_array(items: tuple, dtype: str, shape: tuple) -> np.ndarray:
    """The array a printed frozen constant names (see the module docstring)."""
    return np.array(items, dtype=dtype).reshape(shape)


def frozen_literal(value: np.ndarray) -> tuple[tuple, str, tuple]:
    """`frozen_array`'s arguments for `value`: its items in C order, its dtype, its shape."""
    return tuple(value.ravel().tolist()), value.dtype.name, tuple(value.shape)
