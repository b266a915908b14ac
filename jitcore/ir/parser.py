"""Text -> IR: the inverse of `printer`, so pass tests can start from IR text and stay
independent of the `ssa` and `typeinfer` stages.

Supports what the printer emits for scalar code: `binop`s by name (`add a b`), `cmp`, `cast`,
`unary` ops, `select`, `tuple(...)`, `getitem`, `phi [...]`, and the terminators `jump`, `br`,
`return`, `raise`. Values are argument names, earlier instruction names, or literals.
"""

from __future__ import annotations

import builtins
import re

from jitcore.ir import nodes as ir
from jitcore.ir import types as T

_BINOPS = {
    "add",
    "sub",
    "mul",
    "div",
    "floordiv",
    "mod",
    "pow",
    "and",
    "or",
    "xor",
    "shl",
    "shr",
    "tdiv",
    "trem",
    "iadd",
    "isub",
    "imul",
}
_UNARY = {"neg", "pos", "not", "invert", "truth"}
_HEADER = re.compile(r"func\s+([\w.$]+)\((.*)\)(?:\s*->\s*(.+?))?\s*\{\s*$")


class IRParseError(ValueError):
    pass


def parse_ir(text: str) -> ir.Function:
    """Parse a function printed by `print_ir` (types optional)."""
    lines = [
        ln.strip()
        for ln in text.strip().splitlines()
        if ln.strip() and not ln.strip().startswith("#")
    ]
    m = _HEADER.match(lines[0])
    if not m:
        raise IRParseError(f"bad function header: {lines[0]!r}")
    name, arg_text, ret_text = m.groups()
    fn = ir.Function(name, [])
    values: dict[str, ir.Value] = {}
    for i, part in enumerate(p for p in T.split_top_level(arg_text) if p.strip()):
        arg_name, _, type_text = part.partition(":")
        arg = ir.Arg(arg_name.strip(), i, T.parse_type(type_text) if type_text.strip() else None)
        fn.args.append(arg)
        values[arg.name] = arg
    fn.return_type = T.parse_type(ret_text) if ret_text else None
    body = lines[1:-1]
    blocks: dict[str, ir.Block] = {}
    for line in body:
        if line.endswith(":") and " " not in line:
            label = line[:-1]
            blocks[label] = ir.Block(label)
            fn.blocks.append(blocks[label])
    pending_phis: list[tuple[ir.Phi, str]] = []
    current: ir.Block | None = None
    for line in body:
        if line.endswith(":") and " " not in line:
            current = blocks[line[:-1]]
            continue
        if current is None:
            raise IRParseError(f"instruction outside a block: {line!r}")
        if "=" in line.split()[1:2] or re.match(r"^[\w.$]+\s*=", line):
            instr = _parse_instr(line, values, blocks, pending_phis)
            current.instrs.append(instr)
            values[instr.name] = instr
        else:
            current.terminator = _parse_terminator(line, values, blocks)
    for phi, inner in pending_phis:
        for entry in T.split_top_level(inner):
            label, _, value = entry.partition(":")
            phi.incoming[blocks[label.strip()]] = _value(value.strip(), values)
    return fn


def _split_type(rest: str) -> tuple[str, T.Type | None]:
    depth = 0
    for i in range(len(rest) - 1, -1, -1):
        ch = rest[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
        elif ch == ":" and depth == 0 and rest[i - 1] == " ":
            return rest[:i].strip(), T.parse_type(rest[i + 1 :])
    return rest.strip(), None


def _parse_instr(line, values, blocks, pending_phis) -> ir.Instr:  # noqa: ANN001
    name, _, rest = line.partition("=")
    name = name.strip()
    body, type_ = _split_type(rest.strip())
    op, _, operand_text = body.partition(" ")
    args = operand_text.split()
    v = lambda s: _value(s, values)  # noqa: E731
    if op in _BINOPS:
        instr: ir.Instr = ir.BinOp(op, v(args[0]), v(args[1]))
    elif op in _UNARY:
        instr = ir.UnaryOp(op, v(args[0]))
    elif op == "cmp":
        instr = ir.Compare(args[0], v(args[1]), v(args[2]))
    elif op == "cast":
        instr = ir.Cast(v(args[0]))
    elif op == "select":
        instr = ir.Select(v(args[0]), v(args[1]), v(args[2]))
    elif op == "getitem":
        instr = ir.GetItem(v(args[0]), v(args[1].strip("[]")))
    elif body.startswith("tuple("):
        inner = body[len("tuple(") : -1]
        instr = ir.MakeTuple([v(p.strip()) for p in T.split_top_level(inner)])
    elif op == "phi":
        instr = ir.Phi({})
        pending_phis.append((instr, operand_text.strip()[1:-1]))
    else:
        raise IRParseError(f"unknown instruction {op!r} in {line!r}")
    instr.name = name
    instr.type = type_
    return instr


def _parse_terminator(line, values, blocks) -> ir.Terminator:  # noqa: ANN001
    op, _, rest = line.partition(" ")
    args = rest.split()
    if op == "jump":
        return ir.Jump(blocks[args[0]])
    if op == "br":
        return ir.Branch(_value(args[0], values), blocks[args[1]], blocks[args[2]])
    if op == "return":
        return ir.Return(_value(args[0], values))
    if op == "raise":
        exc = getattr(builtins, args[0])
        message = rest[len(args[0]) :].strip()
        return ir.Raise(exc, eval(message) if message else "")  # a repr'd string literal
    raise IRParseError(f"unknown terminator {line!r}")


def _value(text: str, values: dict[str, ir.Value]) -> ir.Value:
    if text in values:
        return values[text]
    literal = {
        "True": True,
        "False": False,
        "None": None,
        "nan": float("nan"),
        "inf": float("inf"),
        "-inf": float("-inf"),
    }
    if text in literal:
        value = literal[text]
    else:
        try:
            value = int(text)
        except ValueError:
            try:
                value = float(text)
            except ValueError:
                raise IRParseError(f"unknown value {text!r}") from None
    from jitcore.typeinfer import const_type

    return ir.Const(value, type=const_type(value))
