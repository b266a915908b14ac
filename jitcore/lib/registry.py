"""The table of supported operations: each entry keeps its typing rule and its emitter together.

A rule looks at its operands' types (and compile-time values, for arguments such as `ndigits`
or a dtype) and returns a `Resolved`: the types the operands are converted to, the result type,
and the emitter that `lower` calls to expand the operation into low IR. A rule returns None when
it does not apply; it raises `TypingError` when it applies but the operands are wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.ir.markers import MISSING


@dataclass(frozen=True, slots=True)
class Operand:
    """What typing knows of one operand: its type, its value if constant, and literal-ness."""

    type: T.Type
    const: object = MISSING
    weak: bool = False

    @property
    def is_const(self) -> bool:
        return self.const is not MISSING


Lowerer = Callable[[LowBuilder, list[ir.Value], dict[str, ir.Value]], ir.Value]


@dataclass(slots=True)
class Resolved:
    """A typed implementation of one operation.

    `args` are the types the positional operands are cast to (None keeps the operand as is);
    `kwargs` the same for keyword operands; `const` (when set) is the compile-time result and
    replaces the instruction.
    """

    args: tuple[T.Type | None, ...]
    ret: T.Type
    lower: Lowerer | None = None
    kwargs: dict[str, T.Type | None] = field(default_factory=dict)
    const: object = MISSING
    # For elementwise array operations: how to compute one element (`ufuncs.Recipe`), which is
    # what the fusion pass composes.
    elementwise: object = None
    # For calls of jitted functions: (dispatcher, signature), which the inliner looks at.
    callee: object = None


Rule = Callable[[list[Operand], dict[str, Operand]], Resolved | None]

_FUNCTIONS: dict[int, tuple[object, Rule]] = {}
_METHODS: dict[tuple[type, str], Rule] = {}


def register_function(
    *objs: object, params: str = "", notes: str = "", listed_as: str | None = None
) -> Callable[[Rule], Rule]:
    """Register `rule` as the implementation of calls to each Python callable in `objs`.

    `params` (the argument kinds accepted, see `parse_params`) and `notes` (deviations from
    Python or NumPy) describe the operation in `jitcore.supported()`; `listed_as` overrides the
    name it is listed by (`np.abs` rather than the ufunc's own name `absolute`)."""

    def wrap(rule: Rule) -> Rule:
        for obj in objs:
            _list_function(obj, rule, params, notes, listed_as)
            _FUNCTIONS[id(obj)] = (obj, rule)
        return rule

    return wrap


def register_method(
    type_class: type, *names: str, params: str = "", notes: str = ""
) -> Callable[[Rule], Rule]:
    """Register `rule` for `x.name(...)` where `x`'s IR type is an instance of `type_class`.
    The receiver is passed as the first operand; `params` describes the others (listed as
    `ndarray.name(...)` by `jitcore.supported()`)."""

    def wrap(rule: Rule) -> Rule:
        for name in names:
            describe(
                f"{_RECEIVERS.get(type_class, type_class.__name__)}.{name}",
                "method",
                params,
                notes,
                module=rule.__module__,
            )
            _METHODS[(type_class, name)] = rule
        return rule

    return wrap


def lookup_function(obj: object) -> Rule | None:
    entry = _FUNCTIONS.get(id(obj))
    return entry[1] if entry is not None and entry[0] is obj else None


def lookup_method(recv: T.Type, name: str) -> Rule | None:
    for cls in type(recv).__mro__:
        rule = _METHODS.get((cls, name))
        if rule is not None:
            return rule
    return None


def has_method(recv: T.Type, name: str) -> bool:
    return lookup_method(recv, name) is not None


def constant(value: object, type_: T.Type) -> Resolved:
    """A result known at compile time."""
    return Resolved((), type_, None, const=value)


# --- the listing of supported operations -------------------------------------------------------
# What `jitcore.supported()` returns and the README's tables and the generic differential test
# (tests/jitcore/test_supported.py) are generated from. Registering a rule lists it; operators
# and attributes, which have no registered rule per spelling, are listed with `describe`.

Kind = Literal["function", "method", "operator", "attribute"]

# The argument kinds a listing may name. The differential test draws inputs for the first group.
ARG_KINDS: dict[str, str] = {
    "bool": "`True` or `False`",
    "int": "an integer (Python `int`, NumPy integer)",
    "float": "a float (Python `float`, NumPy float)",
    "real": "an int, float or bool",
    "complex": "a complex number",
    "number": "any number: int, float, complex or bool",
    "array": "a NumPy array of bools, ints or floats (of complex numbers too where the "
    "same argument takes `complex` or `number`)",
    "intarray": "a NumPy array of bools or ints",
    "shape": "an int or a tuple of ints",
    "dtype": "a NumPy dtype or scalar type, constant",
    "axis": "a constant int",
    "order": "the constant `'C'` or `'F'`",
    "tuple": "a tuple",
    "const": "a compile-time constant",
    "str": "a constant string",
    "None": "`None`",
}


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a listed operation: its name and the kinds of argument it takes."""

    name: str
    kinds: tuple[str, ...]
    optional: bool = False
    keyword: bool = False  # keyword-only
    variadic: bool = False  # `*name`: any number of further arguments

    def __str__(self) -> str:
        star = "*" if self.variadic else ""
        mark = "?" if self.optional else ""
        return f"{star}{self.name}{mark}: {' | '.join(self.kinds)}"


@dataclass(frozen=True, slots=True)
class Entry:
    """One supported operation, as the user writes it.

    `name` is `math.sin`, `np.sum`, `abs`, `ndarray.sum`, `+` or `ndarray.shape`; `forms` are
    the accepted parameter lists (most operations have one); `module` is the `jitcore.lib`
    module that implements it; `obj` the Python callable (functions only).
    """

    name: str
    kind: Kind
    forms: tuple[tuple[Param, ...], ...]
    notes: str = ""
    module: str = ""
    obj: object = None

    @property
    def signature(self) -> str:
        """`math.log(x: real, base?: real)`; forms separated by ` or `."""
        if self.kind == "attribute":
            return self.name
        if self.kind == "operator":
            return " or ".join(
                " ".join(p.name if i else self.name + " " + p.name for i, p in enumerate(form))
                if len(form) == 1
                else f" {self.name} ".join(p.name for p in form)
                for form in self.forms
            )
        return " or ".join(f"{self.name}({_form_text(form)})" for form in self.forms or ((),))


_ENTRIES: dict[str, Entry] = {}
_RECEIVERS: dict[type, str] = {T.Array: "ndarray"}
# Modules whose functions are listed under a prefix (the spelling the README uses).
_LISTED_MODULES = {"builtins": "", "math": "math.", "cmath": "cmath.", "numpy": "np."}


def parse_params(text: str) -> tuple[tuple[Param, ...], ...]:
    """`"x: real, base?: real"` -> one form; forms are separated by `;`. A `?` after the name
    makes a parameter optional, `*name` takes any number of arguments, and parameters after a
    bare `*` are keyword-only. Kinds (joined by `|`) must be keys of `ARG_KINDS`."""
    forms: list[tuple[Param, ...]] = []
    for form_text in text.split(";"):
        params: list[Param] = []
        keyword = False
        for part in (p.strip() for p in form_text.split(",")):
            if not part:
                continue
            if part == "*":
                keyword = True
                continue
            head, sep, kinds_text = part.partition(":")
            if not sep:
                raise ValueError(f"parameter {part!r} needs `name: kind`")
            kinds = tuple(k.strip() for k in kinds_text.split("|"))
            unknown = [k for k in kinds if k not in ARG_KINDS]
            if unknown:
                raise ValueError(f"unknown argument kinds {unknown} in {text!r}")
            head = head.strip()
            variadic = head.startswith("*")
            optional = head.endswith("?")
            params.append(Param(head.strip("*?"), kinds, optional, keyword, variadic))
        forms.append(tuple(params))
    return tuple(forms)


def describe(
    name: str,
    kind: Kind,
    params: str,
    notes: str = "",
    *,
    module: str = "",
    obj: object = None,
) -> None:
    """List an operation in `jitcore.supported()` (registration does this for rules)."""
    _ENTRIES[name] = Entry(name, kind, parse_params(params), notes, module, obj)


def entries() -> list[Entry]:
    """Every listed operation, in the order the modules registered them."""
    return list(_ENTRIES.values())


def _list_function(obj: object, rule: Rule, params: str, notes: str, name: str | None) -> None:
    if getattr(obj, "__jitcore_builtin__", None) is not None:
        return  # the ssa markers are not user-visible
    if name is None:
        prefix = _LISTED_MODULES.get(getattr(obj, "__module__", None) or "")
        if prefix is None:
            return
        name = prefix + getattr(obj, "__name__", "")
    describe(name, "function", params, notes, module=rule.__module__, obj=obj)


def _form_text(form: tuple[Param, ...]) -> str:
    parts: list[str] = []
    keyword = False
    for p in form:
        if p.keyword and not keyword:
            parts.append("*")
            keyword = True
        parts.append(str(p))
    return ", ".join(parts)
