"""Text -> IR: the inverse of `printer`, for the output of every stage.

`parse_ir(print_ir(fn))` gives a function that prints the same and compiles to the same code,
so IR text is the contract between stages: a pass test starts from IR text and stays
independent of the stages before it, and a golden listing can be fed to the next stage.

Types are read with `jitcore.ir.types`; Python objects (`@np.sin`) with `jitcore.ir.names`;
an instruction's `[impl=name(operands)]` is resolved again through the registry
(`jitcore.lib.registry.resolve_named`) from the name and the operands its rule saw, and a fused
loop is composed again with `jitcore.lib.loops.fuse`. A call of a jitted function needs the
caller's `resolve_callee` (what `typeinfer` is given); objects that cannot be imported (defined
inside a function) are looked up in `env`.

The parser knows the classic instructions' short forms; every other instruction or terminator
class of `jitcore.ir.nodes` reads in the printer's generic form, found by its opcode.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.markers import MISSING
from jitcore.ir.names import UnknownObject, find_object
from jitcore.ir.printer import default_type, field_kinds, terminator_opcode
from jitcore.lib import catalog, registry  # noqa: F401 - importing catalog registers every rule
from jitcore.lib.loops import fuse
from jitcore.lib.registry import Operand, Resolved

# Resolves a call of a jitted function from IR text: (dispatcher, positional, keyword operands).
CalleeResolver = Callable[[object, list[Operand], dict[str, Operand]], Resolved]


class IRParseError(ValueError):
    pass


def parse_ir(
    text: str,
    *,
    env: Mapping[str, object] | None = None,
    resolve_callee: CalleeResolver | None = None,
) -> ir.Function:
    """Parse a function printed by `print_ir` (types and implementations optional)."""
    lines = [
        (n, ln.strip())
        for n, ln in enumerate(text.strip().splitlines(), 1)
        if ln.strip() and not ln.strip().startswith("#")
    ]
    if not lines:
        raise IRParseError("no function in the text")
    parser = _Parser(env or {}, resolve_callee)
    try:
        return parser.function(lines)
    except IRParseError:
        raise
    except (ValueError, KeyError, IndexError, TypeError, UnknownObject, TypingError) as exc:
        raise IRParseError(f"line {parser.line_no}: {parser.line!r}: {exc}") from exc


# --- tokens -------------------------------------------------------------------------------

_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?"
_SPECIAL = r"(?:nan|inf)"
_TOKEN = re.compile(
    rf"""
    (?P<space>\s+)
  | (?P<str>[bB]?(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"))
  | (?P<complex>\([-+]?(?:{_NUMBER}|{_SPECIAL})[-+](?:{_NUMBER}|{_SPECIAL})j\)
      |[-+]?(?:{_NUMBER}|{_SPECIAL})j)
  | (?P<dim>\d+d(?![\w.]))
  | (?P<num>[-+](?:nan|inf)|-?{_NUMBER})
  | (?P<undef><undef>)
  | (?P<obj>@[^\s(),\[\]{{}}:=]+)
  | (?P<attr>\.[^\W\d]\w*)
  | (?P<name>(?:[^\W\d]|\$)[\w.$]*)
  | (?P<punct>->|[()\[\]{{}},:=_?])
    """,
    re.VERBOSE,
)


@dataclasses.dataclass(slots=True)
class _Token:
    kind: str
    text: str


def _tokenize(line: str) -> list[_Token]:
    tokens, pos = [], 0
    while pos < len(line):
        m = _TOKEN.match(line, pos)
        if m is None:
            raise IRParseError(f"unexpected {line[pos:]!r}")
        pos = m.end()
        kind = cast(str, m.lastgroup)
        if kind != "space":
            text = m.group()
            # `_` alone is the printer's "absent"; as part of a name it is a name.
            tokens.append(_Token("punct" if text == "_" else kind, text))
    return tokens


TYPE_WORDS = frozenset(T.SCALARS) | {"none", "ptr", "bottom", "tuple", "array", "slice", "const"}
TYPE_WORDS |= {"str", "dict", "set", "view", "list", "generator", "optional"}
_LITERAL_WORDS: dict[str, object] = {"True": True, "False": False, "None": None}


class _Forward(ir.Value):
    """A use of a name defined further down (a phi input, a block printed after its user)."""

    __slots__ = ("name", "type")

    def __init__(self, name: str) -> None:
        self.name = name
        self.type = None


# --- the parser ---------------------------------------------------------------------------


class _Parser:
    def __init__(self, env: Mapping[str, object], resolve_callee: CalleeResolver | None) -> None:
        self.env = env
        self.resolve_callee = resolve_callee
        self.values: dict[str, ir.Value] = {}
        self.forwards: dict[str, _Forward] = {}
        self.blocks: dict[str, ir.Block] = {}
        self.tokens: list[_Token] = []
        self.pos = 0
        self.line = ""
        self.line_no = 0

    # token access

    def start(self, line_no: int, line: str) -> None:
        self.line_no, self.line = line_no, line
        self.tokens, self.pos = _tokenize(line), 0

    def peek(self, ahead: int = 0) -> _Token | None:
        i = self.pos + ahead
        return self.tokens[i] if i < len(self.tokens) else None

    def at(self, text: str, ahead: int = 0) -> bool:
        tok = self.peek(ahead)
        return tok is not None and tok.text == text and tok.kind in ("punct", "name")

    def take(self, kind: str | None = None) -> _Token:
        tok = self.peek()
        if tok is None:
            raise IRParseError(f"line {self.line_no}: unexpected end of {self.line!r}")
        if kind is not None and tok.kind != kind:
            raise IRParseError(
                f"line {self.line_no}: expected {kind}, found {tok.text!r} in {self.line!r}"
            )
        self.pos += 1
        return tok

    def expect(self, text: str) -> None:
        tok = self.take()
        if tok.text != text:
            raise IRParseError(
                f"line {self.line_no}: expected {text!r}, found {tok.text!r} in {self.line!r}"
            )

    def accept(self, text: str) -> bool:
        if self.at(text):
            self.pos += 1
            return True
        return False

    def done(self) -> bool:
        return self.pos >= len(self.tokens)

    def sequence(self, close: str, item: Callable[[], Any]) -> Iterator[Any]:
        """Items separated by commas up to `close` (the opening bracket is already taken)."""
        while not self.accept(close):
            yield item()
            if not self.at(close):
                self.expect(",")

    # the function

    def function(self, lines: list[tuple[int, str]]) -> ir.Function:
        header_no, header = lines[0]
        m = re.match(r"func\s+([^\s(]+)\((.*)$", header)
        if m is None or lines[-1][1] != "}":
            raise IRParseError(f"line {header_no}: bad function header {header!r}")
        fn = ir.Function(m.group(1), [])
        self.start(header_no, m.group(2))
        for i, (arg_name, arg_type) in enumerate(self.sequence(")", self.arg)):
            arg = ir.Arg(arg_name, i, arg_type)
            fn.args.append(arg)
            self.values[arg.name] = arg
        if self.accept("->"):
            fn.return_type = self.type()
        self.expect("{")
        body = lines[1:-1]
        for _, line in body:
            if re.fullmatch(r"[^\s:]+:", line):
                block = ir.Block(line[:-1])
                self.blocks[block.label] = block
                fn.blocks.append(block)
        current: ir.Block | None = None
        unnamed: list[ir.Instr] = []
        for line_no, line in body:
            if re.fullmatch(r"[^\s:]+:", line):
                current = self.blocks[line[:-1]]
                continue
            if current is None:
                raise IRParseError(f"line {line_no}: instruction outside a block: {line!r}")
            self.start(line_no, line)
            node = self.statement()
            if isinstance(node, ir.Terminator):
                if current.terminator is not None:
                    raise IRParseError(f"line {line_no}: a second terminator in {current.label}")
                current.terminator = node
            else:
                current.instrs.append(node)
                if node.name:
                    if node.name in self.values:
                        raise IRParseError(f"line {line_no}: {node.name} is defined twice")
                    self.values[node.name] = node
                elif not isinstance(node, ir.SetItem):
                    unnamed.append(node)
        self._resolve_forwards(fn)
        _continue_names(fn)
        for instr in unnamed:
            instr.name = fn.fresh_name("t")
        return fn

    def arg(self) -> tuple[str, T.Type | None]:
        name = self.take("name").text
        return name, self.type() if self.accept(":") else None

    def statement(self) -> ir.Instr | ir.Terminator:
        first = self.peek()
        assert first is not None
        if first.kind == "name" and self.at("=", 1):
            name = self.take().text
            self.take()
            instr = self.instruction()
            instr.name = name
        elif first.kind == "name" and first.text in _terminator_classes():
            node = self.terminator()
            self.end()
            return node
        else:
            instr = self.instruction()
        if self.accept(":"):
            instr.type = self.type()
        if self.accept("["):
            self.expect("impl")
            self.expect("=")
            instr.impl = self.impl()
            self.expect("]")
        self.end()
        return instr

    def end(self) -> None:
        if not self.done():
            rest = " ".join(t.text for t in self.tokens[self.pos :])
            raise IRParseError(f"line {self.line_no}: unexpected {rest!r} in {self.line!r}")

    # instructions

    def instruction(self) -> ir.Instr:
        op = self.take("name").text
        special = _INSTRUCTIONS.get(op)
        if special is not None:
            return special(self)
        cls = _instruction_classes().get(op)
        if cls is not None:
            return cast(ir.Instr, self.generic(cls))
        if op in ("binop", "unary"):  # the explicit form of an operator whose name is an opcode
            op = self.take("name").text
        operands = [self.value()]
        if self.starts_value():
            operands.append(self.value())
        if len(operands) == 2:
            return ir.BinOp(op, operands[0], operands[1])
        return ir.UnaryOp(op, operands[0])

    def starts_value(self) -> bool:
        tok = self.peek()
        return tok is not None and not (tok.kind == "punct" and tok.text in (":", "[", "{"))

    def call(self) -> ir.Call:
        tok = self.peek()
        if tok is not None and tok.kind == "obj":
            self.take()
            func: ir.Value = self._const(self._object(tok.text[1:]))
        elif tok is not None and tok.kind == "name" and tok.text not in _LITERAL_WORDS:
            func = self.reference(self.take().text)
        else:
            func = self.value()
        self.expect("(")
        args: list[ir.Value] = []
        kwargs: dict[str, ir.Value] = {}
        for key, value in self.sequence(")", self.argument):
            if key is None:
                args.append(value)
            else:
                kwargs[key] = value
        return ir.Call(func, args, kwargs)

    def argument(self) -> tuple[str | None, ir.Value]:
        if self.peek() is not None and self.peek().kind == "name" and self.at("=", 1):  # type: ignore[union-attr]
            key = self.take().text
            self.take()
            return key, self.value()
        return None, self.value()

    def index(self) -> ir.Value:
        self.expect("[")
        index = self.value()
        self.expect("]")
        return index

    def getitem(self) -> ir.GetItem:
        obj = self.value()
        index = self.index()
        return ir.GetItem(obj, index)

    def setitem(self) -> ir.SetItem:
        obj = self.value()
        index = self.index()
        self.expect("=")
        value = self.value()
        return ir.SetItem(obj, index, value)

    def make_tuple(self) -> ir.MakeTuple:
        self.expect("(")
        return ir.MakeTuple(list(self.sequence(")", self.value)))

    def phi(self) -> ir.Phi:
        self.expect("[")
        return ir.Phi(dict(self.sequence("]", self.phi_input)))

    def phi_input(self) -> tuple[ir.Block, ir.Value]:
        label = self.block()
        self.expect(":")
        return label, self.value()

    def intrinsic(self) -> ir.Intrinsic:
        fn = self.take("name").text
        self.expect("(")
        args = list(self.sequence(")", self.value))
        return ir.Intrinsic(fn, args)

    def native_call(self) -> ir.NativeCall:
        tok = self.take()
        symbol = ast.literal_eval(tok.text) if tok.kind == "str" else tok.text
        self.expect("(")
        return ir.NativeCall(symbol, list(self.sequence(")", self.value)))

    def generic(self, cls: type) -> object:
        """A node in the printer's generic form: operand and block fields in order, then
        `{field=value, ...}` for the other fields."""
        kwargs: dict[str, object] = {}
        for f, kind in field_kinds(cls):
            if kind == "operand":
                kwargs[f.name] = self.operand_field()
            elif kind == "block":
                kwargs[f.name] = self.block_field()
        kwargs.update(self.attributes(cls))
        return cls(**kwargs)

    def operand_field(self) -> object:
        if self.accept("_"):
            return None
        if self.accept("["):
            return list(self.sequence("]", self.value))
        if self.accept("{"):
            return dict(self.sequence("}", self.keyed_value))
        return self.value()

    def keyed_value(self) -> tuple[object, ir.Value]:
        tok = self.peek()
        key: object
        if tok is not None and tok.kind == "name" and tok.text in self.blocks:
            key = self.block()
        else:
            key = self.literal()
        self.expect(":")
        return key, self.value()

    def block_field(self) -> object:
        if self.accept("_"):
            return None
        if self.accept("["):
            return list(self.sequence("]", self.block))
        return self.block()

    def block(self) -> ir.Block:
        label = self.take("name").text
        if label not in self.blocks:
            raise IRParseError(f"line {self.line_no}: no block {label!r}")
        return self.blocks[label]

    def attributes(self, cls: type) -> dict[str, object]:
        if not self.accept("{"):
            return {}
        fields = {f.name for f in dataclasses.fields(cls)}
        out: dict[str, object] = {}
        for key, value in self.sequence("}", self.attribute):
            if key not in fields:
                raise IRParseError(f"line {self.line_no}: {cls.__name__} has no field {key!r}")
            out[key] = value
        return out

    def attribute(self) -> tuple[str, object]:
        key = self.take("name").text
        self.expect("=")
        tok = self.peek()
        if tok is not None and tok.kind == "name" and tok.text in TYPE_WORDS:
            return key, self.type()
        if tok is not None and tok.kind == "name" and tok.text in self.blocks:
            return key, self.block()
        if self.accept("{"):
            return key, frozenset(self.sequence("}", self.literal))
        return key, self.literal()

    # terminators

    def terminator(self) -> ir.Terminator:
        op = self.take("name").text
        if op == "jump":
            return ir.Jump(self.block())
        if op == "br":
            return ir.Branch(self.value(), self.block(), self.block())
        if op == "return":
            return ir.Return(self.value())
        if op == "raise":
            tok = self.take()
            exc = cast(type, self._object(tok.text.lstrip("@")))
            message = ast.literal_eval(self.take("str").text) if not self.done() else ""
            return ir.Raise(exc, message)
        if op == "reraise":
            return ir.Reraise(cast(ir.NativeCall, self.reference(self.take("name").text)))
        return cast(ir.Terminator, self.generic(_terminator_classes()[op]))

    # values, constants and types

    def reference(self, name: str) -> ir.Value:
        if name in self.values:
            return self.values[name]
        return self.forwards.setdefault(name, _Forward(name))

    def value(self) -> ir.Value:
        """An operand: an SSA name, or a constant (`1`, `f32(1.5)`, `weak(2)`, `@np.pi`)."""
        tok = self.peek()
        if tok is not None and tok.kind == "name" and tok.text not in _LITERAL_WORDS:
            if not self.at("(", 1):
                self.take()
                return self.reference(tok.text)
            return self.constant()
        return self.constant()

    def constant(self) -> ir.Const:
        if self.at("weak") and self.at("(", 1):
            self.take()
            self.take()
            inner = self.constant()
            self.expect(")")
            inner.weak = True
            return inner
        tok = self.peek()
        if tok is not None and tok.kind == "name" and tok.text in TYPE_WORDS:
            type_ = self.type()
            self.expect("(")
            value = self.literal()
            self.expect(")")
            return ir.Const(value, type=type_)
        return self._const(self.literal())

    @staticmethod
    def _const(value: object) -> ir.Const:
        return ir.Const(value, type=default_type(value))

    def literal(self) -> object:
        tok = self.take()
        if tok.kind == "num":
            text = tok.text
            if text.lstrip("+-") in ("nan", "inf"):
                return float(text)
            return int(text) if re.fullmatch(r"-?\d+", text) else float(text)
        if tok.kind == "complex":
            return complex(tok.text)
        if tok.kind == "str":
            return ast.literal_eval(tok.text)
        if tok.kind == "undef":
            return MISSING
        if tok.kind == "name" and tok.text in _LITERAL_WORDS:
            return _LITERAL_WORDS[tok.text]
        if tok.kind == "obj":
            obj = self._object(tok.text[1:])
            if self.accept("("):
                return cast(Callable[..., object], obj)(*self.sequence(")", self.literal))
            return obj
        if tok.text == "(":
            return tuple(self.sequence(")", self.literal))
        raise IRParseError(f"line {self.line_no}: not a constant: {tok.text!r} in {self.line!r}")

    def _object(self, name: str) -> object:
        return find_object(name, self.env)

    def type(self) -> T.Type:
        word = self.take("name").text
        if word in T.SCALARS:
            return T.SCALARS[word]
        simple = {
            "none": T.NONE,
            "ptr": T.PTR,
            "bottom": T.BOTTOM,
            "str": T.STR,
        }
        if word in simple:
            return simple[word]
        if word == "generator":  # `generator`, or `generator(owned)`
            if not self.accept("("):
                return T.GENERATOR
            if self.take("name").text != "owned":
                raise IRParseError(f"line {self.line_no}: expected generator(owned)")
            self.expect(")")
            return T.OWNED_GENERATOR
        self.expect("(")
        if word == "tuple":
            return T.Tuple(tuple(self.sequence(")", self.type)))
        if word == "list":
            item = self.type()
            self.expect(")")
            return T.List(item)
        if word == "slice":
            items = tuple(self.sequence(")", self.type))
            return T.Slice(cast(tuple[T.Type, T.Type, T.Type], items))
        if word in ("dict", "set"):
            parts = list(self.sequence(")", self.type))
            return T.Dict(parts[0], parts[1]) if word == "dict" else T.Set(parts[0])
        if word == "optional":
            inner = self.type()
            self.expect(")")
            return T.Optional(inner)
        if word == "view":
            kind = self.take("name").text
            self.expect(",")
            container = self.type()
            self.expect(")")
            return T.View(container, cast(Any, kind))
        if word == "const":
            obj = self.literal()
            self.expect(")")
            return T.Opaque(obj)
        if word == "array":
            dtype = T.SCALARS[self.take("name").text]
            self.expect(",")
            ndim = int(self.take("dim").text[:-1])
            self.expect(",")
            layout = self.take("name").text
            self.expect(")")
            return T.Array(dtype, ndim, cast(Any, layout))
        raise IRParseError(f"line {self.line_no}: unknown type {word!r} in {self.line!r}")

    # implementations

    def impl(self) -> Resolved:
        """`name(operands)`: resolve the implementation again through the registry."""
        name = self.take("name").text
        self.expect("(")
        args: list[Operand | Resolved] = []
        kwargs: dict[str, Operand] = {}
        for key, operand in self.sequence(")", self.impl_argument):
            if key is None:
                args.append(operand)
            else:
                kwargs[key] = operand
        return self._resolve(name, args, kwargs)

    def impl_argument(self) -> tuple[str | None, Any]:
        tok = self.peek()
        if tok is not None and tok.kind == "name" and self.at("=", 1):
            key = self.take().text
            self.take()
            return key, self.descriptor()
        return None, self.descriptor()

    def descriptor(self) -> Operand | Resolved:
        """What a rule saw of an operand: `f64`, `weak(i64)`, a constant, or a nested
        implementation (an operand a fused loop computes)."""
        tok = self.peek()
        assert tok is not None
        if tok.kind == "name" and tok.text == "weak" and self.at("(", 1):
            self.take()
            self.take()
            inner = self.descriptor()
            self.expect(")")
            assert isinstance(inner, Operand)
            return dataclasses.replace(inner, weak=True)
        if tok.kind == "name" and tok.text in TYPE_WORDS:
            type_ = self.type()
            if self.accept("("):
                value = self.literal()
                self.expect(")")
                return Operand(type_, value)
            return Operand(type_)
        if tok.kind == "name" and tok.text not in _LITERAL_WORDS:
            return self.impl()
        value = self.literal()
        return Operand(cast(T.Type, default_type(value)), value)

    def _resolve(
        self, name: str, args: list[Operand | Resolved], kwargs: dict[str, Operand]
    ) -> Resolved:
        operands = [Operand(a.ret) if isinstance(a, Resolved) else a for a in args]
        resolved = self._resolve_plain(name, operands, kwargs)
        # A fused loop: compose the operations that compute operands, right to left, so that
        # the operands on the left are still one leaf each.
        for position in reversed(range(len(args))):
            inner = args[position]
            if isinstance(inner, Resolved):
                resolved = fuse(inner, resolved, position)
        return resolved

    def _resolve_plain(
        self, name: str, operands: list[Operand], kwargs: dict[str, Operand]
    ) -> Resolved:
        try:
            resolved = registry.resolve_named(name, operands, kwargs)
        except KeyError:
            resolved = self._resolve_callee(name, operands, kwargs)
        if resolved is None:
            raise IRParseError(f"line {self.line_no}: {name} does not apply to these operands")
        return resolved

    def _resolve_callee(
        self, name: str, args: list[Operand], kwargs: dict[str, Operand]
    ) -> Resolved:
        obj = self._object(name)
        if registry.is_library_kernel(obj) and not kwargs:
            resolved = registry.call_kernel(obj, [a.type for a in args])  # type: ignore[arg-type]
        elif getattr(obj, "__jitcore_dispatcher__", False) is True:
            if self.resolve_callee is None:
                raise IRParseError(
                    f"line {self.line_no}: a call of the jitted function {name} needs "
                    "parse_ir(..., resolve_callee=...)"
                )
            resolved = self.resolve_callee(obj, args, kwargs)
        else:
            raise IRParseError(f"line {self.line_no}: no implementation named {name!r}")
        return registry.with_name(resolved, name, args, kwargs)

    # after the last line

    def _resolve_forwards(self, fn: ir.Function) -> None:
        missing = sorted(set(self.forwards) - set(self.values))
        if missing:
            raise IRParseError(f"{', '.join(missing)} used but never defined")
        real = {id(f): self.values[name] for name, f in self.forwards.items()}
        if not real:
            return

        def fix(v: object) -> object:
            if isinstance(v, _Forward):
                return real[id(v)]
            if isinstance(v, list):
                return [fix(x) for x in v]
            if isinstance(v, dict):
                return {k: fix(x) for k, x in v.items()}
            return v

        for block in fn.blocks:
            nodes: list[object] = [*block.instrs, block.terminator]
            for node in nodes:
                if node is None:
                    continue
                for f in dataclasses.fields(cast(Any, node)):
                    if f.name not in ("type", "loc", "impl"):
                        setattr(node, f.name, fix(getattr(node, f.name)))


def _continue_names(fn: ir.Function) -> None:
    """Start `fn.fresh_name` after the names the text uses, so later stages add no duplicate."""
    highest: dict[str, int] = {}
    names = [b.label for b in fn.blocks] + [i.name for _, i in fn.instructions()]
    for name in names:
        m = re.fullmatch(r"t(\d+)", name) or re.fullmatch(r"(.+)\.(\d+)", name)
        if m is None:
            continue
        base, n = ("t", m.group(1)) if len(m.groups()) == 1 else m.groups()
        highest[base] = max(highest.get(base, 0), int(n))
    for base, n in highest.items():
        fn.fresh_name(base)
        counter = fn._names[base]
        for _ in range(n - 1):
            next(counter)


_INSTRUCTIONS: dict[str, Callable[[_Parser], ir.Instr]] = {
    "cmp": lambda p: ir.Compare(p.take("name").text, p.value(), p.value()),
    "cast": lambda p: ir.Cast(p.value()),
    "call": _Parser.call,
    "getattr": lambda p: ir.GetAttr(p.value(), p.take("attr").text[1:]),
    "getitem": _Parser.getitem,
    "setitem": _Parser.setitem,
    "tuple": _Parser.make_tuple,
    "phi": _Parser.phi,
    "select": lambda p: ir.Select(p.value(), p.value(), p.value()),
    "intrinsic": _Parser.intrinsic,
    "ncall": _Parser.native_call,
}


def _subclasses(root: type) -> Iterator[type]:
    stack: list[type] = list(root.__subclasses__())
    while stack:
        cls = stack.pop()
        yield cls
        stack.extend(cls.__subclasses__())


def _instruction_classes() -> dict[str, type]:
    """Instruction classes read in the generic form, by opcode (looked up on each use, so a
    class added to `nodes` is read without a change here)."""
    return {
        cls.opcode: cls  # type: ignore[attr-defined]
        for cls in _subclasses(ir.Instr)
        if dataclasses.is_dataclass(cls) and cls.opcode not in _INSTRUCTIONS  # type: ignore[attr-defined]
    }


def _terminator_classes() -> dict[str, type]:
    out = {terminator_opcode(cls): cls for cls in _subclasses(ir.Terminator)}
    out.update(jump=ir.Jump, br=ir.Branch)
    return out
