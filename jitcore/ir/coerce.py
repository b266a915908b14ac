"""How types meet: the type of a Python constant, the join of two types where control flow
meets, NumPy 2's rule for Python scalars ("weak" operands), and a constant converted to a type.

`typeinfer` uses these to type phis, returns and constants; `lib` rules use them for operands;
the IR parser types the constants it reads; `optimize` folds constants with `convert_const`.

Layer: depends on `ir.types` and `errors` only.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np

from jitcore.errors import TypingError
from jitcore.ir import types as T
from jitcore.ir.frozen import frozen_type

_ORDER = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def const_type(value: object) -> T.Type:
    """The IR type of a compile-time constant."""
    if value is None:
        return T.NONE
    if isinstance(value, bool):
        return T.BOOL
    if isinstance(value, int):
        if not -(2**63) <= value < 2**63:  # a Python int is an int64 (README, "Semantics")
            raise TypingError(
                f"the integer constant {value} does not fit in int64 (compiled Python ints "
                "are int64)",
                hint="for a uint64 constant write np.uint64(...) of it",
            )
        return T.I64
    if isinstance(value, float):
        return T.F64
    if isinstance(value, complex):
        return T.C128
    if isinstance(value, tuple):
        return T.Tuple(tuple(const_type(v) for v in value))
    if isinstance(value, str):
        return T.STR
    if isinstance(value, np.generic) and not isinstance(value, np.str_ | np.bytes_ | np.void):
        return T.from_dtype(value.dtype)
    frozen = frozen_type(value)  # a module-level array: a read-only constant (`ir.frozen`)
    if frozen is not None:
        return frozen
    if isinstance(value, np.ndarray):
        raise TypingError(
            f"an array of dtype {value.dtype} cannot be compiled",
            hint="use an array of bools, ints, float32/64 or complex64/128 "
            "(`a.astype(np.float32)` for float16)",
        )
    return T.Opaque(value)


def unify(a: T.Type, b: T.Type) -> T.Type | None:
    """The type both values convert to where control flow joins, or None if there is none."""
    if a == b:
        return a
    if isinstance(a, T.Bottom):
        return b
    if isinstance(b, T.Bottom):
        return a
    if isinstance(a, T.Scalar) and isinstance(b, T.Scalar):
        if a.is_bool or b.is_bool:  # Python: True joins 1 as an int
            other = b if a.is_bool else a
            return other
        return T.promote(a, b)
    if isinstance(a, T.Tuple) and isinstance(b, T.Tuple) and len(a.items) == len(b.items):
        items = [unify(x, y) for x, y in zip(a.items, b.items)]
        if all(i is not None for i in items):
            return T.Tuple(tuple(items))  # type: ignore[arg-type]
    if isinstance(a, T.Dict | T.Set) and type(a) is type(b):
        return _unify_container(a, b)
    if isinstance(a, T.List) and isinstance(b, T.List):
        # an empty `[]` (bottom items) joins the typed list it becomes; lists of different
        # item types are different objects in memory, so nothing else joins
        if isinstance(a.item, T.Bottom) or isinstance(b.item, T.Bottom):
            return b if isinstance(a.item, T.Bottom) else a
        return None
    if (
        isinstance(a, T.Array)
        and isinstance(b, T.Array)
        and (a.dtype, a.ndim) == (b.dtype, b.ndim)
    ):
        return T.Array(a.dtype, a.ndim, "A")
    return None


def join_optional(a: T.Type, b: T.Type) -> T.Type | None:
    """Where control flow joins and `None` may meet a value: `unify`, or an optional value
    (tuples item by item: `(None, x)` and `(i, x)` join as `(optional(i64), ...)`). Scalars,
    arrays and tuples of them can be optional; None if these types do not join."""
    joined = unify(a, b)
    if joined is not None:
        return joined
    if isinstance(a, T.Tuple) and isinstance(b, T.Tuple) and len(a.items) == len(b.items):
        items = [join_optional(x, y) for x, y in zip(a.items, b.items)]
        if all(i is not None for i in items):
            return T.Tuple(tuple(items))  # type: ignore[arg-type]
        return None
    if isinstance(a, T.Optional) or isinstance(b, T.Optional):
        inner_a = a.inner if isinstance(a, T.Optional) else a
        inner_b = b.inner if isinstance(b, T.Optional) else b
        if isinstance(inner_a, T.NoneType):
            return b if isinstance(b, T.Optional) else T.Optional(inner_b)
        if isinstance(inner_b, T.NoneType):
            return a
        joined = join_optional(inner_a, inner_b)
        if joined is None or isinstance(joined, T.Optional) or not can_be_optional(joined):
            return None
        return T.Optional(joined)
    if isinstance(a, T.NoneType) and can_be_optional(b):
        return T.Optional(b)
    if isinstance(b, T.NoneType) and can_be_optional(a):
        return T.Optional(a)
    return None


def can_be_optional(t: T.Type) -> bool:
    if isinstance(t, T.Tuple):
        return all(can_be_optional(i) for i in t.items)
    return isinstance(t, T.Scalar | T.Array)


def _unify_container(a: T.Dict | T.Set, b: T.Dict | T.Set) -> T.Type | None:
    """An empty `{}` (bottom items) joins the typed dict it becomes; otherwise the items must
    be equal (two dicts of different item types are different objects in memory)."""
    if isinstance(a, T.Dict) and isinstance(b, T.Dict):
        key, value = _same_item(a.key, b.key), _same_item(a.value, b.value)
        return None if key is None or value is None else T.Dict(key, value)
    key = _same_item(a.key, b.key)
    return None if key is None else T.Set(key)


def _same_item(a: T.Type, b: T.Type) -> T.Type | None:
    if isinstance(a, T.Bottom):
        return b
    if isinstance(b, T.Bottom) or a == b:
        return a
    if isinstance(a, T.Dict | T.Set) and type(a) is type(b):
        return _unify_container(a, b)  # type: ignore[arg-type]
    return None


def weak_join(strong: T.Scalar, weak: T.Scalar) -> T.Scalar:
    """NEP 50: a Python literal takes the other operand's type unless it is of a higher kind."""
    if _ORDER[weak.kind] <= _ORDER[strong.kind]:
        return strong
    if weak.is_float:
        return T.F64 if strong.kind in "iub" else strong
    if weak.is_complex:
        return T.C64 if strong == T.F32 else T.C128
    return weak


def convert_const(value: object, to: T.Scalar) -> object:
    """Convert a Python number constant as a C cast would (wrapping ints)."""
    if to.is_bool:
        return bool(value)
    if to.is_complex:
        return complex(cast(complex, value))
    if to.is_float:
        if isinstance(value, complex):
            value = value.real
        return float(np.dtype(to.dtype).type(value))
    if isinstance(value, complex):
        value = value.real
    if isinstance(value, float):
        # NaN and infinities have no int value: the conversion the code asks for raises at
        # run time (`int(math.inf)`) or never runs (a branch not taken), so any value will do
        value = int(value) if math.isfinite(value) else 0
    bits = to.bits
    v = int(cast(int, value)) & ((1 << bits) - 1)
    if to.is_signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v
