"""Stable text form of the IR, so a test can compare a stage's output with a listing.

func f(a: i64, b: i64) -> i64 {
entry:
  t1 = add a b : i64
  br t2 then.1 else.1
}
"""

from __future__ import annotations

import math

from jitcore.ir import nodes as ir


def print_ir(fn: ir.Function) -> str:
    """The whole function as text; types appear once `typeinfer` has run."""
    args = ", ".join(f"{a.name}: {a.type}" if a.type else a.name for a in fn.args)
    ret = f" -> {fn.return_type}" if fn.return_type is not None else ""
    lines = [f"func {fn.name}({args}){ret} {{"]
    for block in fn.blocks:
        lines.append(f"{block.label}:")
        for instr in block.instrs:
            lines.append("  " + format_instr(instr))
        if block.terminator is not None:
            lines.append("  " + format_terminator(block.terminator))
    lines.append("}")
    return "\n".join(lines)


def format_value(v: ir.Value) -> str:
    if isinstance(v, ir.Const):
        return format_const(v.value)
    if isinstance(v, ir.Arg):
        return v.name
    if isinstance(v, ir.Instr):
        return v.name
    return repr(v)


def format_const(value: object) -> str:
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int | complex | str):
        return repr(value)
    if isinstance(value, tuple):
        return (
            "("
            + ", ".join(format_const(x) for x in value)
            + ("," if len(value) == 1 else "")
            + ")"
        )
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    return f"@{name}" if name else f"@<{type(value).__name__}>"


def format_instr(instr: ir.Instr) -> str:
    body = _instr_body(instr)
    suffix = f" : {instr.type}" if instr.type is not None else ""
    if isinstance(instr, ir.SetItem):
        return body + suffix
    return f"{instr.name} = {body}{suffix}"


def _instr_body(instr: ir.Instr) -> str:
    fv = format_value
    match instr:
        case ir.BinOp(op=op, lhs=lhs, rhs=rhs):
            return f"{op} {fv(lhs)} {fv(rhs)}"
        case ir.UnaryOp(op=op, operand=x):
            return f"{op} {fv(x)}"
        case ir.Compare(op=op, lhs=lhs, rhs=rhs):
            return f"cmp {op} {fv(lhs)} {fv(rhs)}"
        case ir.Cast(value=v):
            return f"cast {fv(v)}"
        case ir.Call(func=f, args=args, kwargs=kwargs):
            parts = [fv(a) for a in args] + [f"{k}={fv(v)}" for k, v in kwargs.items()]
            return f"call {fv(f)}(" + ", ".join(parts) + ")"
        case ir.GetAttr(obj=o, attr=a):
            return f"getattr {fv(o)} .{a}"
        case ir.GetItem(obj=o, index=i, safe_axes=safe):
            return f"getitem {fv(o)} [{fv(i)}]" + _inbounds(safe)
        case ir.SetItem(obj=o, index=i, value=v, safe_axes=safe):
            return f"setitem {fv(o)} [{fv(i)}] = {fv(v)}" + _inbounds(safe)
        case ir.MakeTuple(items=items):
            return "tuple(" + ", ".join(fv(x) for x in items) + ")"
        case ir.Phi(incoming=inc):
            return "phi [" + ", ".join(f"{b.label}: {fv(v)}" for b, v in inc.items()) + "]"
        case ir.Select(cond=c, if_true=a, if_false=b):
            return f"select {fv(c)} {fv(a)} {fv(b)}"
        case ir.Intrinsic(fn=fn, args=args, attrs=attrs):
            extra = "".join(f" {a}" for a in attrs)
            return f"intrinsic {fn}{extra}(" + ", ".join(fv(a) for a in args) + ")"
        case ir.NativeCall(symbol=s, args=args):
            return f"ncall {s}(" + ", ".join(fv(a) for a in args) + ")"
    return f"{instr.opcode} " + " ".join(fv(o) for o in instr.operands())


def _inbounds(axes: frozenset[int]) -> str:
    return f" inbounds({', '.join(map(str, sorted(axes)))})" if axes else ""


def format_terminator(term: ir.Terminator) -> str:
    match term:
        case ir.Jump(target=t):
            return f"jump {t.label}"
        case ir.Branch(cond=c, if_true=a, if_false=b):
            return f"br {format_value(c)} {a.label} {b.label}"
        case ir.Return(value=v):
            return f"return {format_value(v)}"
        case ir.Raise(exc=exc, message=msg):
            return f"raise {exc.__name__} {msg!r}"
        case ir.Reraise(call=call):
            return f"reraise {call.name}"
    raise TypeError(f"unknown terminator {term!r}")
