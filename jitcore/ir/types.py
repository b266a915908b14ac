"""The type lattice of jitcore's IR.

Types are values: frozen dataclasses, equal and hashed by their fields. They print NumPy-like
(`i64`, `f32`, `tuple(i64, f64)`, `array(f64, 2d, C)`), and the same text parses back in
`jitcore.ir.parser`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np


class Type:
    """Base of every IR type."""

    __slots__ = ()

    @property
    def name(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Scalar(Type):
    """A machine number. `kind` is NumPy's: b(ool), i(nt), u(nsigned), f(loat), c(omplex)."""

    kind: Literal["b", "i", "u", "f", "c"]
    bits: int

    @property
    def name(self) -> str:
        return "bool" if self.kind == "b" else f"{self.kind}{self.bits}"

    @property
    def dtype(self) -> np.dtype:
        return np.dtype(_DTYPE_NAMES[self.name])

    @property
    def is_int(self) -> bool:
        return self.kind in "iu"

    @property
    def is_signed(self) -> bool:
        return self.kind == "i"

    @property
    def is_float(self) -> bool:
        return self.kind == "f"

    @property
    def is_complex(self) -> bool:
        return self.kind == "c"

    @property
    def is_bool(self) -> bool:
        return self.kind == "b"

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class NoneType(Type):
    """The type of `None`."""

    @property
    def name(self) -> str:
        return "none"

    def __repr__(self) -> str:
        return "none"


@dataclass(frozen=True, slots=True)
class Optional(Type):
    """A value that is `None` on some paths (`x = None` then `x = i` in a loop): `inner` or
    None. Using it as its inner type checks it is not None (Python raises TypeError there);
    `x is None` and returning it need no check (`jitcore.lib.optional`)."""

    inner: Type

    @property
    def name(self) -> str:
        return f"optional({self.inner.name})"

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Tuple(Type):
    """A fixed-length tuple; `items` may differ from one another."""

    items: tuple[Type, ...]

    @property
    def name(self) -> str:
        return "tuple(" + ", ".join(t.name for t in self.items) + ")"

    @property
    def is_homogeneous(self) -> bool:
        return len(set(self.items)) <= 1

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Slice(Type):
    """A slice `start:stop:step`; an omitted part has type none (known while compiling)."""

    items: tuple[Type, Type, Type]

    @property
    def name(self) -> str:
        return "slice(" + ", ".join(t.name for t in self.items) + ")"

    @property
    def is_full(self) -> bool:
        """`:` (or `::`), which selects a whole axis."""
        return all(isinstance(t, NoneType) for t in self.items)

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Array(Type):
    """A NumPy array. Layout C or F promises contiguity; A is any strides."""

    dtype: Scalar
    ndim: int
    layout: Literal["C", "F", "A"] = "A"

    @property
    def name(self) -> str:
        return f"array({self.dtype.name}, {self.ndim}d, {self.layout})"

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Pointer(Type):
    """Low IR only: an address (array data, a runtime memory block)."""

    @property
    def name(self) -> str:
        return "ptr"

    def __repr__(self) -> str:
        return "ptr"


@dataclass(frozen=True, slots=True)
class Generator(Type):
    """A `np.random.Generator`. `generator`, one passed in from Python: the address of its bit
    generator's C interface (`bitgen_t`), borrowed for the call and drawn from in place
    (`jitcore.lib.nprandomgen`). `generator(owned)`, one made in compiled code by
    `np.random.default_rng`: a reference-counted runtime block holding a `bitgen_t` and its
    PCG64 state (`jitcore.lib.nprandomrng`); its methods take the `bitgen_t` through a cast to
    `generator`, a borrowed pointer into the block."""

    owned: bool = False

    @property
    def name(self) -> str:
        return "generator(owned)" if self.owned else "generator"

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Opaque(Type):
    """A compile-time Python object: a module, a function, a class, a string.

    Its value is known while compiling and never exists at run time. Equality is identity of
    the object, so `math.sqrt` and `np.sqrt` are different types.
    """

    obj: object

    @property
    def name(self) -> str:
        label = getattr(self.obj, "__name__", None) or type(self.obj).__name__
        return f"const({label})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Opaque) and other.obj is self.obj

    def __hash__(self) -> int:
        return hash(id(self.obj))

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class List(Type):
    """A typed homogeneous list (reference counted, growable; `jitcore.lib.lists`). `item` is
    bottom while an empty `[]` waits for the appends that give its item type."""

    item: Type

    @property
    def name(self) -> str:
        return f"list({self.item.name})"

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Str(Type):
    """An immutable string (UTF-8 bytes with their code point count), reference counted."""

    @property
    def name(self) -> str:
        return "str"

    def __repr__(self) -> str:
        return "str"


@dataclass(frozen=True, slots=True)
class Dict(Type):
    """A typed dict (insertion ordered, reference counted). `key`/`value` are bottom while an
    empty `{}` waits for the stores that give its types."""

    key: Type
    value: Type

    @property
    def name(self) -> str:
        return f"dict({self.key.name}, {self.value.name})"

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Set(Type):
    """A typed set (a dict without values, iterated in insertion order)."""

    key: Type

    @property
    def name(self) -> str:
        return f"set({self.key.name})"

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class View(Type):
    """What `for` iterates over a dict or set: its `keys`, `values` or `items` by position."""

    container: Type
    kind: Literal["keys", "values", "items"]

    @property
    def name(self) -> str:
        return f"view({self.kind}, {self.container.name})"

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Bottom(Type):
    """No value yet: the result of a recursive call whose return type is still being inferred."""

    @property
    def name(self) -> str:
        return "bottom"


_DTYPE_NAMES = {
    "bool": "bool",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "u8": "uint8",
    "u16": "uint16",
    "u32": "uint32",
    "u64": "uint64",
    "f32": "float32",
    "f64": "float64",
    "c64": "complex64",
    "c128": "complex128",
}

BOOL = Scalar("b", 8)
I8, I16, I32, I64 = (Scalar("i", b) for b in (8, 16, 32, 64))
U8, U16, U32, U64 = (Scalar("u", b) for b in (8, 16, 32, 64))
F32, F64 = Scalar("f", 32), Scalar("f", 64)
C64, C128 = Scalar("c", 64), Scalar("c", 128)
NONE = NoneType()
STR = Str()
BOTTOM = Bottom()
PTR = Pointer()
GENERATOR = Generator()
OWNED_GENERATOR = Generator(owned=True)

SCALARS: dict[str, Scalar] = {
    t.name: t for t in (BOOL, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, C64, C128)
}


def from_dtype(dtype: np.dtype | type) -> Scalar:
    """The scalar type of a NumPy dtype (or scalar type such as `np.float32`)."""
    dt = np.dtype(dtype)
    for scalar in SCALARS.values():
        if scalar.dtype == dt:
            return scalar
    raise TypeError(f"unsupported dtype {dt}")


def promote(a: Scalar, b: Scalar) -> Scalar:
    """NumPy's promotion of two scalar types (for Python numbers it agrees with Python)."""
    if a == b:
        return a
    return from_dtype(np.promote_types(a.dtype, b.dtype))


def contains_array(t: Type | None) -> bool:
    """True for values whose memory is reference counted: arrays, lists, strings, dicts, sets
    (and their iteration views), Generators made in compiled code, and tuples holding any of
    these."""
    if isinstance(t, Array | List | Str | Dict | Set | View):
        return True
    if isinstance(t, Generator):
        return t.owned
    if isinstance(t, Tuple):
        return any(contains_array(i) for i in t.items)
    if isinstance(t, Optional):
        return contains_array(t.inner)
    return False


def python_name(t: Type) -> str:
    """The name Python's messages give a value of type `t` (`'list' object ...`, `not float`):
    a Python number's, NumPy's for arrays, never jitcore's own spelling (`list(bottom)`)."""
    if isinstance(t, Scalar):
        return {"b": "bool", "f": "float", "c": "complex"}.get(t.kind, "int")
    if isinstance(t, Optional):
        return python_name(t.inner)
    names = {
        NoneType: "NoneType",
        Tuple: "tuple",
        Slice: "slice",
        Array: "numpy.ndarray",
        List: "list",
        Str: "str",
        Dict: "dict",
        Set: "set",
        Generator: "numpy.random.Generator",
    }
    for cls, name in names.items():
        if isinstance(t, cls):
            return name
    if isinstance(t, Opaque):
        return type(t.obj).__name__
    return str(t)


def complex_part(t: Scalar) -> Scalar:
    """The float type of a complex number's real and imaginary parts."""
    return F32 if t == C64 else F64


def parse_type(text: str) -> Type:
    """Parse a type's printed form back (`i64`, `tuple(i64, f64)`, `array(f64, 2d, C)`)."""
    text = text.strip()
    if text in SCALARS:
        return SCALARS[text]
    if text == "none":
        return NONE
    if text == "ptr":
        return PTR
    if text == "str":
        return STR
    if text == "generator":
        return GENERATOR
    if text == "generator(owned)":
        return OWNED_GENERATOR
    if text == "bottom":
        return BOTTOM
    for head, make in _CONTAINERS.items():
        if text.startswith(head + "(") and text.endswith(")"):
            return make(split_top_level(text[len(head) + 1 : -1]))
    if text.startswith("list(") and text.endswith(")"):
        return List(parse_type(text[len("list(") : -1]))
    if text.startswith("tuple(") and text.endswith(")"):
        inner = text[len("tuple(") : -1]
        return Tuple(tuple(parse_type(part) for part in split_top_level(inner)))
    if text.startswith("array(") and text.endswith(")"):
        dtype, ndim, layout = (p.strip() for p in split_top_level(text[len("array(") : -1]))
        return Array(SCALARS[dtype], int(ndim.rstrip("d")), layout)  # type: ignore[arg-type]
    raise ValueError(f"cannot parse type {text!r}")


_CONTAINERS = {
    "optional": lambda p: Optional(parse_type(",".join(p))),
    "dict": lambda p: Dict(parse_type(p[0]), parse_type(p[1])),
    "set": lambda p: Set(parse_type(p[0])),
    "view": lambda p: View(parse_type(",".join(p[1:])), p[0].strip()),
}


def split_top_level(text: str) -> list[str]:
    """Split on commas that are not inside parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:])
    return parts
