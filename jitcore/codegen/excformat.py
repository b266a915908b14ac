"""Emit `excformatted` (low IR): claim a descriptor of the runtime's ring of formatted
exceptions and write the raise's template, value kinds and values into it (the layout and the
protocol: `jitcore.runtime.excring`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmlite import ir as ll

from jitcore.codegen import rtstrings
from jitcore.codegen.types import I8, I32, I64, PTR, c_string, declare_global, exception_slot
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.runtime import excring as R
from jitcore.runtime.excring import VALUE

__all__ = ["VALUE", "emit_exc_formatted", "value_code", "write_formatted"]

if TYPE_CHECKING:
    from jitcore.codegen.kernel import KernelGen

RING_T = ll.ArrayType(R.SLOT, R.SLOTS)


def emit_exc_formatted(g: KernelGen, i: ir.ExcFormatted) -> ll.Value:
    values = [(g.value(v), cast(T.Type, v.type)) for v in i.values]
    return write_formatted(g.b, i.exc, i.template, i.style, i.codes, values)


def write_formatted(
    b: ll.IRBuilder,
    exc: type,
    template: str,
    style: int,
    codes: str,
    values: list[tuple[ll.Value, T.Type]],
) -> ll.Value:
    """Claim a ring descriptor and write the raise into it; returns the descriptor."""
    module = b.module
    ring = declare_global(module, R.RING, RING_T)
    counter = declare_global(module, R.RING_NEXT, I64)
    claimed = b.atomic_rmw("add", counter, I64(1), "monotonic")
    ring_ptr = b.inttoptr(b.ptrtoint(ring, I64), PTR)  # an opaque pointer to index
    slot = b.gep(ring_ptr, [I32(0), b.urem(claimed, I64(R.SLOTS))], source_etype=RING_T)

    def field(index: int) -> ll.Value:
        return b.gep(slot, [I32(0), I32(index)], inbounds=True, source_etype=R.SLOT)

    seq = field(R.SEQ)
    b.atomic_rmw("add", seq, I64(1), "acq_rel")  # odd: being written
    b.store(exception_slot(module, exc), field(R.CLASS))
    b.store(c_string(module, template), field(R.MESSAGE))
    b.store(ring_ptr, field(R.TAG))
    b.store(I64(style), field(R.STYLE))
    b.store(I64(len(values)), field(R.NARGS))
    b.store(c_string(module, codes), field(R.CODES))
    used: ll.Value = I64(0)
    for k, (value, t) in enumerate(values):
        cell = b.gep(
            field(R.VALUES),
            [I32(0), I32(k)],
            inbounds=True,
            source_etype=R.SLOT.elements[R.VALUES],
        )
        if isinstance(t, T.NoneType):
            b.store(I64(0), cell)
        elif isinstance(t, T.Str):
            used = _copy_text(b, field(R.TEXT), cell, value, used)
        elif isinstance(t, T.Scalar) and t.is_bool:
            b.store(I64(0), cell)
            b.store(b.zext(value, I8), cell)
        else:
            b.store(I64(0), cell)
            b.store(value, cell)
    b.atomic_rmw("add", seq, I64(1), "release")  # even again: complete
    return slot


def value_code(t: T.Type, python: bool = True) -> str | None:
    """The code `runtime.excring.message` reads a value of type `t` back by, or None if a
    message cannot carry one (complex numbers, tuples, containers)."""
    if isinstance(t, T.Str):
        return "str"
    if isinstance(t, T.Scalar) and not t.is_complex:
        return f"{t.dtype.str}:{'py' if python else 'np'}"
    return None


def _copy_text(
    b: ll.IRBuilder, text: ll.Value, cell: ll.Value, s: ll.Value, used: ll.Value
) -> ll.Value:
    """Copy string `s`'s bytes after the `used` ones (as many as fit); the cell gets
    `(offset, length)` as two int32s. Returns the bytes used after it."""
    nbytes = rtstrings.load_field(b, s, 0)
    room = b.sub(I64(R.TEXT_BYTES), used)
    n = b.select(b.icmp_unsigned("<", nbytes, room), nbytes, room)
    rtstrings.memcpy(
        b,
        b.gep(text, [I32(0), used], source_etype=R.SLOT.elements[R.TEXT]),
        rtstrings.chars(b, s),
        n,
    )
    b.store(b.or_(used, b.shl(n, I64(32))), cell)
    return b.add(used, n)
