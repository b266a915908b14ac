"""The table of supported operations: each entry keeps its typing rule and its emitter together.

A rule looks at its operands' types (and compile-time values, for arguments such as `ndigits`
or a dtype) and returns a `Resolved`: the types the operands are converted to, the result type,
and the emitter that `lower` calls to expand the operation into low IR. A rule returns None when
it does not apply; it raises `TypingError` when it applies but the operands are wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

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


def register_function(*objs: object) -> Callable[[Rule], Rule]:
    """Register `rule` as the implementation of calls to each Python callable in `objs`."""

    def wrap(rule: Rule) -> Rule:
        for obj in objs:
            _FUNCTIONS[id(obj)] = (obj, rule)
        return rule

    return wrap


def register_method(type_class: type, *names: str) -> Callable[[Rule], Rule]:
    """Register `rule` for `x.name(...)` where `x`'s IR type is an instance of `type_class`.
    The receiver is passed as the first operand."""

    def wrap(rule: Rule) -> Rule:
        for name in names:
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
