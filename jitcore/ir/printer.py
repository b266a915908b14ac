"""Stable text form of the IR: what every stage produces prints, and `parser` reads it back.

    func f(n: i64, a: array(f64, 1d, C)) -> f64 {
    entry:
      t1 = getitem a [n] : f64 [impl=getitem(array(f64, 1d, C), weak(i64))]
      t2 = mul t1 weak(2.0) : f64 [impl=binop.mul(f64, weak(2.0))]
      return t2
    }

Values are SSA names (arguments, instructions) or constants. A constant prints as a literal
(`1`, `2.5`, `(1, 2)`, `'text'`, `None`, `+inf`, `-inf`, `+nan`, `<undef>` for a variable read
before assignment), as `@name` for a Python object (`@np.sin`, `@range_bounds`, see
`jitcore.ir.names`) or `@np.float32(1.5)` for a NumPy scalar. When its type is not the
literal's own it prints as `f32(1.5)`; a Python literal that adopts its partner's type (NumPy 2's
"weak" scalars) as `weak(2)`.

Instructions print as `name = body : type [impl=...]`. The classic instructions have short
bodies (`add a b`, `cmp lt a b`, `call @f(a, k=b)`, `getitem a [i]`,
`phi [entry: a, loop.1: t2]`, ...). Any other instruction class prints generically from its
dataclass fields: its opcode, then each operand field (declared with `nodes._ops`) in order (a
list as `[a, b]`, a dict as `{key: a}`, an absent one as `_`), block fields as labels, then the
other fields that differ from their defaults as `{field=value}`. Terminators likewise.

`impl` prints the implementation `typeinfer` chose by name, with the operands its rule saw:
types, constants, and `weak(...)` marks: `[impl=math.sin(f64)]`. A fused elementwise loop
prints its composed recipe: `[impl=binop.add(binop.mul(weak(2.0), array(f64, 1d, C)), ...)]`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from typing import Any, cast

import numpy as np

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.coerce import const_type
from jitcore.ir.frozen import frozen_literal, frozen_type
from jitcore.ir.markers import MISSING
from jitcore.ir.names import object_name

# Fields every instruction has; the generic form prints the others.
BASE_FIELDS = frozenset({"name", "type", "loc", "impl"})
# What a plain name looks like; anything else (a symbol with spaces, say) prints quoted.
NAME = re.compile(r"^(?:[^\W\d]|\$)[\w.$]*$")


def print_ir(fn: ir.Function) -> str:
    """The whole function as text; types appear once `typeinfer` has run."""
    args = ", ".join(f"{a.name}: {format_type(a.type)}" if a.type else a.name for a in fn.args)
    ret = f" -> {format_type(fn.return_type)}" if fn.return_type is not None else ""
    lines = [f"func {fn.name}({args}){ret} {{"]
    for block in fn.blocks:
        lines.append(f"{block.label}:")
        for instr in block.instrs:
            lines.append("  " + format_instr(instr))
        if block.terminator is not None:
            lines.append("  " + format_terminator(block.terminator))
    lines.append("}")
    return "\n".join(lines)


# --- values and types -------------------------------------------------------------------


def format_value(v: ir.Value) -> str:
    if isinstance(v, ir.Const):
        return format_const(v.value, v.type, v.weak)
    if isinstance(v, ir.Arg | ir.Instr):
        return v.name
    return repr(v)


def format_const(value: object, type_: T.Type | None = None, weak: bool = False) -> str:
    """A constant: its literal, wrapped in its type when that is not the literal's own, and in
    `weak(...)` when it is a weak Python literal."""
    text = format_literal(value)
    if type_ is not None and type_ != default_type(value):
        text = f"{format_type(type_)}({text})"
    return f"weak({text})" if weak else text


def default_type(value: object) -> T.Type | None:
    """The type a literal has when IR text does not say (None for an out-of-range integer)."""
    if value is MISSING:
        return T.BOTTOM
    try:
        return const_type(value)
    except TypingError:
        return None


def format_literal(value: object) -> str:
    if value is MISSING:
        return "<undef>"
    if value is None or isinstance(value, bool):
        return repr(value)
    if value is Ellipsis:
        return "@Ellipsis"  # read back as the builtin of that name
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "-nan" if math.copysign(1.0, value) < 0 else "+nan"
        if math.isinf(value):
            return "+inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, complex | str | bytes):
        return repr(value)
    if isinstance(value, tuple):
        items = ", ".join(format_literal(x) for x in value)
        return f"({items},)" if len(value) == 1 else f"({items})"
    if isinstance(value, np.generic):
        return f"@{object_name(type(value))}({format_literal(value.item())})"
    if isinstance(value, np.dtype):
        return f"@np.dtype({value.name!r})"
    if isinstance(value, np.ndarray) and frozen_type(value) is not None:
        args = ", ".join(format_literal(x) for x in frozen_literal(value))
        return f"@jitcore.ir.frozen.frozen_array({args})"
    if isinstance(value, slice):
        parts = (value.start, value.stop, value.step)
        return "@slice(" + ", ".join(format_literal(p) for p in parts) + ")"
    if isinstance(value, range):
        parts = (value.start, value.stop, value.step)
        return "@range(" + ", ".join(format_literal(p) for p in parts) + ")"
    name = object_name(value)
    return f"@{name}" if name is not None else f"@<{type(value).__name__}>"


def format_type(t: T.Type | None) -> str:
    if t is None:
        return "?"
    if isinstance(t, T.Opaque):
        return f"const({format_literal(t.obj)})"
    if isinstance(t, T.Tuple):
        return "tuple(" + ", ".join(format_type(i) for i in t.items) + ")"
    if isinstance(t, T.Slice):
        return "slice(" + ", ".join(format_type(i) for i in t.items) + ")"
    return t.name


# --- instructions -----------------------------------------------------------------------


def format_instr(instr: ir.Instr) -> str:
    special = _SPECIAL.get(type(instr))
    body = special(instr) if special is not None else _generic_instr(instr)
    if instr.type is not None:
        body += f" : {format_type(instr.type)}"
    impl = format_impl(instr.impl)
    if impl is not None:
        body += f" [impl={impl}]"
    if isinstance(instr, ir.SetItem) or not instr.name:
        return body
    return f"{instr.name} = {body}"


def format_impl(impl: object) -> str | None:
    """`name(operands)` of an implementation, or None for none worth printing (one that
    `lower` does not expand: a tuple's or a bound method's)."""
    if impl is None or getattr(impl, "lower", None) is None:
        return None
    name = getattr(impl, "name", "") or "<unnamed>"
    args, kwargs = getattr(impl, "operands", ((), ()))
    parts = [_format_operand(a) for a in args]
    parts += [f"{k}={_format_operand(v)}" for k, v in kwargs]
    return f"{name}(" + ", ".join(parts) + ")"


def _format_operand(op: Any) -> str:
    """What a rule saw of one operand (a registry `Operand`), or a nested implementation."""
    if hasattr(op, "lower"):
        return format_impl(op) or "<unnamed>"
    if op.is_const:
        return format_const(op.const, op.type, op.weak)
    text = format_type(op.type)
    return f"weak({text})" if op.weak else text


def _operands(values: list[ir.Value]) -> str:
    return ", ".join(format_value(v) for v in values)


def _call(instr: ir.Call) -> str:
    parts = [format_value(a) for a in instr.args]
    parts += [f"{k}={format_value(v)}" for k, v in instr.kwargs.items()]
    return f"call {format_value(instr.func)}(" + ", ".join(parts) + ")"


def _intrinsic(instr: ir.Intrinsic) -> str:
    return f"intrinsic {instr.fn}({_operands(instr.args)})"


def _symbol(symbol: str) -> str:
    return symbol if NAME.match(symbol) else repr(symbol)


def _operator(op: str) -> str:
    """An operator prints by its name (`add`), or as `binop add` / `unary neg` should its name
    be the opcode of an instruction class."""
    if op in _reserved_opcodes():
        return f"binop {op}"
    return op


@functools.cache
def _reserved_opcodes() -> frozenset[str]:
    return frozenset({"binop", "unary", "cmp"} | {cls.opcode for cls in _instr_classes()})


@functools.cache
def _instr_classes() -> tuple[type[ir.Instr], ...]:
    """Every instruction class (`nodes` defines them all when it is imported)."""
    found: list[type[ir.Instr]] = []
    stack = [ir.Instr]
    while stack:
        cls = stack.pop()
        found.append(cls)
        stack.extend(cls.__subclasses__())
    return tuple(found)


_SPECIAL: dict[type, Any] = {
    ir.BinOp: lambda i: f"{_operator(i.op)} {format_value(i.lhs)} {format_value(i.rhs)}",
    ir.UnaryOp: lambda i: f"{_operator(i.op).replace('binop', 'unary')} {format_value(i.operand)}",
    ir.Compare: lambda i: f"cmp {i.op} {format_value(i.lhs)} {format_value(i.rhs)}",
    ir.Cast: lambda i: f"cast {format_value(i.value)}",
    ir.Call: _call,
    ir.GetAttr: lambda i: f"getattr {format_value(i.obj)} .{i.attr}",
    ir.GetItem: lambda i: f"getitem {format_value(i.obj)} [{format_value(i.index)}]",
    ir.SetItem: lambda i: (
        f"setitem {format_value(i.obj)} [{format_value(i.index)}] = {format_value(i.value)}"
    ),
    ir.MakeTuple: lambda i: f"tuple({_operands(i.items)})",
    ir.Phi: lambda i: (
        "phi [" + ", ".join(f"{b.label}: {format_value(v)}" for b, v in i.incoming.items()) + "]"
    ),
    ir.Select: lambda i: (
        f"select {format_value(i.cond)} {format_value(i.if_true)} {format_value(i.if_false)}"
    ),
    ir.Intrinsic: _intrinsic,
    ir.NativeCall: lambda i: f"ncall {_symbol(i.symbol)}({_operands(i.args)})",
}


# --- the generic form -------------------------------------------------------------------


@functools.cache
def field_kinds(cls: type) -> list[tuple[dataclasses.Field, str]]:
    """Each printed dataclass field of a node class with its kind: `operand` (a Value, a list
    or a dict of them), `block` (a Block or a list of them) or `attr` (anything else)."""
    operand_fields: tuple[str, ...] = ()
    if issubclass(cls, ir.Instr):
        operand_fields = cls._operand_fields(None)  # type: ignore[arg-type]
    out = []
    for f in dataclasses.fields(cls):
        if f.name in BASE_FIELDS:
            continue
        annotation = str(f.type)
        if f.name in operand_fields or _names_value(annotation):
            out.append((f, "operand"))
        elif "Block" in annotation:
            out.append((f, "block"))
        else:
            out.append((f, "attr"))
    return out


def _names_value(annotation: str) -> bool:
    """Whether a field annotation holds a Value (`Value`, `NativeCall`, `Value | None`...)."""
    words = set(re.findall(r"\w+", annotation))
    return bool(words & _value_classes())


@functools.cache
def _value_classes() -> frozenset[str]:
    return frozenset({"Value", "Instr", "Arg", "Const"} | {c.__name__ for c in _instr_classes()})


def _generic_fields(node: object) -> tuple[list[str], list[str]]:
    positional: list[str] = []
    attrs: list[str] = []
    for f, kind in field_kinds(cast(type, type(node))):
        value = getattr(node, f.name)
        if kind == "operand":
            positional.append(_format_operand_field(value))
        elif kind == "block":
            positional.append(_format_block_field(value))
        elif not _is_default(f, value):
            attrs.append(f"{f.name}={format_attr(value)}")
    return positional, attrs


def _format_operand_field(value: object) -> str:
    if value is None:
        return "_"
    if isinstance(value, list):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if isinstance(value, dict):
        items = (f"{_format_key(k)}: {format_value(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    return format_value(value)  # type: ignore[arg-type]


def _format_block_field(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(b.label for b in value) + "]"
    return value.label if isinstance(value, ir.Block) else "_"


def _format_key(key: object) -> str:
    return key.label if isinstance(key, ir.Block) else format_literal(key)


def _is_default(f: dataclasses.Field, value: object) -> bool:
    if f.default is not dataclasses.MISSING:
        return value == f.default
    if f.default_factory is not dataclasses.MISSING:
        return value == f.default_factory()
    return False


def format_attr(value: object) -> str:
    """A plain field's value: a type, a block label, a frozenset, or a literal."""
    if isinstance(value, T.Type):
        return format_type(value)
    if isinstance(value, ir.Block):
        return value.label
    if isinstance(value, frozenset | set):
        return "{" + ", ".join(format_literal(x) for x in sorted(value)) + "}"  # type: ignore[type-var]
    return format_literal(value)


def _generic_instr(instr: ir.Instr) -> str:
    positional, attrs = _generic_fields(instr)
    text = " ".join([instr.opcode, *positional])
    return text + (" {" + ", ".join(attrs) + "}" if attrs else "")


# --- terminators ------------------------------------------------------------------------


def terminator_opcode(cls: type) -> str:
    """How a terminator class prints: its `opcode` if it declares one, else its name."""
    return getattr(cls, "opcode", None) or cls.__name__.lower()


def format_terminator(term: ir.Terminator) -> str:
    match term:
        case ir.Jump(target=t):
            return f"jump {t.label}"
        case ir.Branch(cond=c, if_true=a, if_false=b):
            return f"br {format_value(c)} {a.label} {b.label}"
        case ir.Return(value=v):
            return f"return {format_value(v)}"
        case ir.Raise(exc=exc, message=msg):
            return f"raise {object_name(exc) or exc.__name__} {msg!r}"
        case ir.Reraise(call=call):
            return f"reraise {call.name}"
    positional, attrs = _generic_fields(term)
    text = " ".join([terminator_opcode(type(term)), *positional])
    return text + (" {" + ", ".join(attrs) + "}" if attrs else "")
