"""UTF-8 building blocks of the string helpers (`strops`, `strsearch`): loops, code point
widths and walks, and making a new string block, in llvmlite.

Strings are UTF-8 (`rtstrings`): a code point takes 1 to 4 bytes, told by its first byte, and
every other byte of it is a continuation byte (`10xxxxxx`), so a string can be walked forward
and backward.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from llvmlite import ir as ll

from jitcore.codegen import rtstrings as S
from jitcore.codegen.rtdicts import descriptor
from jitcore.codegen.types import I8, I32, I64, NULL, PTR, declare_function
from jitcore.runtime import nrt

MAX_BYTES = 1 << 60  # as `rtstrings.new_string`: no size near int64's end is allocated
# A helper's body: builds function `fn` (kernel calling convention) with the builder.
Build = Callable[[ll.IRBuilder, ll.Function], None]


def loop(
    b: ll.IRBuilder,
    init: list[ll.Value],
    cond: Callable[[list[ll.Value]], ll.Value],
    body: Callable[[list[ll.Value]], list[ll.Value]],
) -> list[ll.Value]:
    """`while cond(vars): vars = body(vars)`; returns the final values."""
    fn = b.function
    pre = b.block
    head, step, done = (fn.append_basic_block(x) for x in ("loop", "step", "done"))
    b.branch(head)
    b.position_at_end(head)
    phis = [b.phi(v.type) for v in init]
    for p, v in zip(phis, init):
        p.add_incoming(v, pre)
    b.cbranch(cond(list(phis)), step, done)
    b.position_at_end(step)
    nxt = body(list(phis))
    for p, v in zip(phis, nxt):
        p.add_incoming(v, b.block)
    b.branch(head)
    b.position_at_end(done)
    return list(phis)


def byte_at(b: ll.IRBuilder, base: ll.Value, i: ll.Value) -> ll.Value:
    """The byte at `base[i]`, zero-extended to i64."""
    return b.zext(b.load(b.gep(base, [i], inbounds=True, source_etype=I8), typ=I8), I64)


def code_width(b: ll.IRBuilder, lead: ll.Value) -> ll.Value:
    """Bytes of the code point starting with byte `lead` (i64)."""
    w = b.select(b.icmp_unsigned("<", lead, I64(0xF0)), I64(3), I64(4))
    w = b.select(b.icmp_unsigned("<", lead, I64(0xE0)), I64(2), w)
    return b.select(b.icmp_unsigned("<", lead, I64(0x80)), I64(1), w)


def walk_forward(b: ll.IRBuilder, src: ll.Value, pos: ll.Value, n: ll.Value) -> ll.Value:
    """The byte offset `n` code points after offset `pos`."""
    pos, _ = loop(
        b,
        [pos, I64(0)],
        lambda v: b.icmp_signed("<", v[1], n),
        lambda v: [b.add(v[0], code_width(b, byte_at(b, src, v[0]))), b.add(v[1], I64(1))],
    )
    return pos


def walk_backward(b: ll.IRBuilder, src: ll.Value, pos: ll.Value, n: ll.Value) -> ll.Value:
    """The byte offset `n` code points before offset `pos` (continuation bytes are 10xxxxxx)."""

    def back_one(v: list[ll.Value]) -> list[ll.Value]:
        start = b.sub(v[0], I64(1))
        (p,) = loop(
            b,
            [start],
            lambda w: b.icmp_unsigned("==", b.and_(byte_at(b, src, w[0]), I64(0xC0)), I64(0x80)),
            lambda w: [b.sub(w[0], I64(1))],
        )
        return [p, b.add(v[1], I64(1))]

    pos, _ = loop(b, [pos, I64(0)], lambda v: b.icmp_signed("<", v[1], n), back_one)
    return pos


def offset_of(b: ll.IRBuilder, s: ll.Value, k: ll.Value) -> ll.Value:
    """The byte offset of code point `k` of string `s` (`k <= len(s)`)."""
    ascii_ = b.icmp_signed("==", S.load_field(b, s, S.NBYTES), S.load_field(b, s, S.NCHARS))
    pre = b.block
    with b.if_then(b.not_(ascii_)):
        walked = walk_forward(b, S.chars(b, s), I64(0), k)
        walked_from = b.block
    out = b.phi(I64)
    out.add_incoming(k, pre)
    out.add_incoming(walked, walked_from)
    return out


def alloc(b: ll.IRBuilder, nbytes: ll.Value) -> ll.Value:
    """A new string block with room for `nbytes` bytes (null if there is no memory)."""
    alloc = declare_function(b.module, nrt.ALLOC, PTR, [I64])
    too_big = b.icmp_unsigned(">", nbytes, I64(MAX_BYTES))
    return b.call(alloc, [b.select(too_big, I64(-1), b.add(nbytes, I64(S.HEADER_BYTES + 1)))])


def finish(b: ll.IRBuilder, block: ll.Value, nbytes: ll.Value, nchars: ll.Value) -> None:
    """Write the header, the NUL and the hash of a string whose bytes are in place."""
    data = S.block_data(b, block)
    dest = S.chars(b, block)
    b.store(I8(0), b.gep(dest, [nbytes], inbounds=True, source_etype=I8))
    b.store(nbytes, S.header_field(b, data, S.NBYTES))
    b.store(nchars, S.header_field(b, data, S.NCHARS))
    b.store(b.call(S._hash_bytes(b.module), [dest, nbytes]), S.header_field(b, data, S.HASH))


def no_memory(b: ll.IRBuilder, block: ll.Value) -> None:
    with b.if_then(b.icmp_unsigned("==", block, NULL), likely=False):
        b.ret(descriptor(b.module, MemoryError, "cannot allocate a string"))


def ascii_table(module: ll.Module) -> ll.GlobalVariable:
    """128 static one-character strings, one per ASCII code point (as `rtstrings.constant`
    makes them: immortal, never freed), so `s[i]` and `for c in s` of ASCII text allocate
    nothing."""
    name = "jitcore.str.ascii1"
    existing = module.globals.get(name)
    if existing is not None:
        return cast(ll.GlobalVariable, existing)
    body_t = ll.LiteralStructType([S.STR_HEADER, ll.ArrayType(I8, 2)])
    bodies_t = ll.ArrayType(body_t, 128)
    bodies = ll.GlobalVariable(module, bodies_t, name=name + ".data")
    bodies.global_constant = True
    bodies.linkage = "private"
    bodies.initializer = ll.Constant(
        bodies_t,
        [
            ll.Constant(
                body_t,
                [
                    ll.Constant(S.STR_HEADER, [I64(1), I64(1), I64(S.fnv1a(bytes([c])))]),
                    ll.Constant(ll.ArrayType(I8, 2), bytearray([c, 0])),
                ],
            )
            for c in range(128)
        ],
    )
    table_t = ll.ArrayType(nrt.BLOCK, 128)
    table = ll.GlobalVariable(module, table_t, name=name)
    table.linkage = "private"
    table.initializer = ll.Constant(
        table_t,
        [
            ll.Constant(
                nrt.BLOCK,
                [I64(S.IMMORTAL), I64(0), bodies.gep([ll.Constant(I32, 0), I32(c)]), NULL],
            )
            for c in range(128)
        ],
    )
    return table


def minimum(b: ll.IRBuilder, x: ll.Value, y: ll.Value) -> ll.Value:
    return b.select(b.icmp_signed("<", x, y), x, y)


def guarded(b: ll.IRBuilder, first: ll.Value, then: Callable[[], ll.Value]) -> ll.Value:
    """`first and then()`, evaluating `then()` only when `first` holds."""
    pre = b.block
    with b.if_then(first):
        value = then()
        value_from = b.block
    out = b.phi(ll.IntType(1))
    out.add_incoming(ll.Constant(ll.IntType(1), 0), pre)
    out.add_incoming(value, value_from)
    return out
