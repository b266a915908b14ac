"""Argument typing: the IR type of a Python value, the cheap key that determines it, and
signatures written as text or Python types.

The dispatcher keys its specializations with these, and jitcheck derives inputs and checks
calls with the same functions, so the two can never disagree about what an argument is.
"""

from __future__ import annotations

import functools
from typing import Any, Literal

import numpy as np

from jitcore.ir import types as T

_PY_SCALARS: dict[type, T.Type] = {
    int: T.I64,
    float: T.F64,
    bool: T.BOOL,
    complex: T.C128,
    type(None): T.NONE,
}
_NP_SCALARS: dict[type, T.Scalar] = {
    np.bool_: T.BOOL,
    np.int8: T.I8,
    np.int16: T.I16,
    np.int32: T.I32,
    np.int64: T.I64,
    np.uint8: T.U8,
    np.uint16: T.U16,
    np.uint32: T.U32,
    np.uint64: T.U64,
    np.float32: T.F32,
    np.float64: T.F64,
    np.complex64: T.C64,
    np.complex128: T.C128,
}
SUPPORTED_ARGUMENTS = (
    "int, float, bool, complex, None, str, NumPy scalars and arrays, tuples and lists of these, "
    "and dicts and sets of these (each holding one key type and one value type), "
    "np.random.Generator"
)


def typeof(value: object, name: str = "argument") -> T.Type:
    """The IR type of a Python argument; TypeError naming the argument if unsupported."""
    t = _PY_SCALARS.get(type(value)) or _NP_SCALARS.get(type(value))  # type: ignore[call-overload]
    if t is not None:
        return t
    if isinstance(value, tuple):
        return T.Tuple(tuple(typeof(v, f"{name}[{i}]") for i, v in enumerate(value)))
    if type(value) is np.ndarray:
        return _array_type(value, name)
    if type(value) is str or type(value) is np.str_:  # NumPy's str scalar is a str
        return T.STR
    if type(value) is dict or type(value) is set:
        return _container_type(value, name)  # type: ignore[arg-type]
    if type(value) is list:
        return _list_type(value, name)
    if type(value) is np.random.Generator:
        return T.GENERATOR
    raise TypeError(
        f"argument `{name}` has unsupported type {type(value).__name__}; "
        f"jitcore supports {SUPPORTED_ARGUMENTS}"
    )


def _container_type(value: dict | set, name: str) -> T.Type:
    """A dict or set argument is copied into compiled code: every key must have one type (and
    every value one type), which the first item gives."""
    kind = type(value).__name__
    if not value:
        raise TypeError(
            f"argument `{name}` is an empty {kind}: compiled code needs its item types; "
            f"pass a non-empty {kind}, or create it inside the function"
        )
    keys = value.keys() if isinstance(value, dict) else value
    key_types = {typeof(k, f"{name} key") for k in keys}
    if len(key_types) > 1:
        raise TypeError(
            f"argument `{name}` is a {kind} with keys of several types "
            f"({', '.join(sorted(t.name for t in key_types))}); jitcore needs one key type"
        )
    (key,) = key_types
    if isinstance(value, set):
        return T.Set(key)
    value_types = {typeof(v, f"{name} value") for v in value.values()}
    if len(value_types) > 1:
        raise TypeError(
            f"argument `{name}` is a dict with values of several types "
            f"({', '.join(sorted(t.name for t in value_types))}); jitcore needs one value type"
        )
    return T.Dict(key, value_types.pop())


def _array_type(a: np.ndarray, name: str) -> T.Array:
    dtype = a.dtype
    if not dtype.isnative or dtype.kind not in "biufc":
        raise TypeError(
            f"argument `{name}` is an array of dtype {dtype}; jitcore supports native-endian "
            "bool, int, uint, float and complex arrays"
        )
    if not a.flags.writeable:
        # compiled code could write into it where NumPy would refuse (or the memory is truly
        # read-only): such arrays run as Python, which raises NumPy's own error
        raise TypeError(f"argument `{name}` is a read-only array, which jitcore does not compile")
    layout = layout_of(a)
    assert layout != "readonly"
    return T.Array(T.from_dtype(dtype), a.ndim, layout)


def _list_type(items: list, name: str) -> T.List:
    """A Python list argument: every item of one type (arrays of one dtype and ndim may differ
    in layout: the list holds them as layout A). Copied into a native list on each call."""
    if not items:
        raise TypeError(
            f"argument `{name}` is an empty list, whose item type jitcore cannot tell; "
            "pass a non-empty list, or create the list inside the function"
        )
    first = typeof(items[0], f"{name}[0]")
    for i, item in enumerate(items):
        t = (
            first
            if type(item) is type(items[0]) and not isinstance(first, T.Array | T.Tuple | T.List)
            else typeof(item, f"{name}[{i}]")
        )
        if t == first:
            continue
        if (
            isinstance(t, T.Array)
            and isinstance(first, T.Array)
            and (t.dtype, t.ndim) == (first.dtype, first.ndim)
        ):
            first = T.Array(first.dtype, first.ndim, "A")
            continue
        raise TypeError(
            f"argument `{name}` is a list of mixed types ({first} at 0, {t} at {i}); "
            "jitcore compiles lists whose items have one type"
        )
    return T.List(first)


def layout_of(a: np.ndarray) -> Literal["C", "F", "A", "readonly"]:
    flags = a.flags
    if not flags.writeable:
        return "readonly"  # only in type keys: a different key than any compiled signature
    if flags.c_contiguous:
        return "C"
    if flags.f_contiguous:
        return "F"
    return "A"


def type_key(value: object) -> object:
    """A cheap hashable key that determines `typeof(value)`."""
    t = type(value)
    if t is tuple:
        return (tuple, *map(type_key, value))  # type: ignore[call-overload]
    if t is np.ndarray:
        return (t, value.dtype, value.ndim, layout_of(value))  # type: ignore[attr-defined, arg-type]
    if t is list:
        return _list_key(value)  # type: ignore[arg-type]
    if t is dict or t is set:
        # the item types decide the specialization: a full scan (the copy-in is O(n) anyway);
        # an unsupported one gets a key no signature has, and typeof explains
        try:
            return (t, typeof(value))
        except TypeError:
            return (t, None)
    return t


def _list_key(items: list) -> object:
    """A list's key names its item type, which takes a look at every item (the list is copied
    in anyway); a list `typeof` refuses gets a key of its own that never compiles."""
    try:
        return (list, typeof(items))
    except TypeError:
        return (list, None)


@functools.cache
def _type_names() -> dict[type, T.Type]:
    """The Python and NumPy types a signature may name. Made at first use: `np.random` is a
    lazy submodule of NumPy's, ~10 ms to import, which a call with cached code never needs."""
    return {**_PY_SCALARS, **_NP_SCALARS, np.random.Generator: T.GENERATOR}


def parse_signature(signature: Any) -> tuple[T.Type, ...]:
    """A signature from text (`"f64, i64"`), a tuple of types, or a tuple of Python types."""
    if isinstance(signature, str):
        parts = T.split_top_level(signature)
        return tuple(T.parse_type(p) for p in parts)
    out = []
    for item in signature:
        if isinstance(item, T.Type):
            out.append(item)
        elif isinstance(item, str):
            out.append(T.parse_type(item))
        elif item in _type_names():
            out.append(_type_names()[item])
        else:
            try:
                out.append(T.from_dtype(item))
            except TypeError:
                raise TypeError(f"cannot make a type of {item!r}") from None
    return tuple(out)
