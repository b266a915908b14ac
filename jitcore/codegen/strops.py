"""String operations that make new strings by code point: indexing, slicing, `*`, `chr`,
`ord`, `str()` of an int and the characters `for c in s` walks, emitted into each module that
uses them (with the searches and ASCII classes of `strsearch`).

Low IR calls `ncall "jitcore.strop:<op>"(args...)` with the kernel calling convention (`ptr
(ptr ret, args...)`, returning null or an exception descriptor); `lib.strmethods` has already
wrapped negative indices and checked bounds, so the helpers trust their indices.

Strings are UTF-8 (`rtstrings`; the walks are `utf8`'s). An ASCII string (`nbytes == nchars`)
is indexed in O(1); any other string is walked from its start to the code point wanted (O(n)),
and a slice with a step walks once, forward or backward, from code point to code point.
"""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir as ll

from jitcore.codegen import lists, strsearch
from jitcore.codegen import rtstrings as S
from jitcore.codegen.excformat import value_code, write_formatted
from jitcore.codegen.rtdicts import descriptor
from jitcore.codegen.types import I8, I32, I64, NULL, PTR, helper_body, llvm_type
from jitcore.codegen.utf8 import (
    MAX_BYTES,
    Build,
    alloc,
    ascii_table,
    byte_at,
    code_width,
    finish,
    loop,
    minimum,
    no_memory,
    offset_of,
    walk_backward,
    walk_forward,
)
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.runtime.excring import FORMAT

PREFIX = "jitcore.strop:"
# the searches and ASCII classes live in `strsearch`
_OPS: dict[str, Build] = dict(strsearch.OPS)


def define_helper(module: ll.Module, call: ir.NativeCall) -> None:
    """Give the module the body of `call`'s helper, once."""
    name = call.symbol
    fn = helper_body(module, name, [llvm_type(a.type) for a in call.args])  # type: ignore[arg-type]
    if fn is None:
        return
    _OPS[name[len(PREFIX) :]](ll.IRBuilder(fn.append_basic_block("entry")), fn)


def _op(name: str) -> Callable[[Build], Build]:
    def wrap(build: Build) -> Build:
        _OPS[name] = build
        return build

    return wrap


# --- operations -----------------------------------------------------------------------------


@_op("slice")
def _slice(b: ll.IRBuilder, fn: ll.Function) -> None:
    """`s[start::step]`, `count` code points (start, count and step from `slice.indices`)."""
    ret, s, start, count, step = fn.args
    nb, nc = S.load_field(b, s, S.NBYTES), S.load_field(b, s, S.NCHARS)
    src = S.chars(b, s)
    ascii_ = b.icmp_signed("==", nb, nc)
    pos0 = offset_of(b, s, start)
    one = b.icmp_signed("==", count, I64(1))
    lead = byte_at(b, src, b.select(one, pos0, I64(0)))  # (a string has a NUL after its end)
    with b.if_then(b.and_(one, b.icmp_unsigned("<", lead, I64(0x80)))):
        table = ascii_table(b.module)
        b.store(b.gep(table, [I32(0), lead], inbounds=True, source_etype=table.value_type), ret)
        b.ret(NULL)
    # each code point is copied at most once: never more bytes than the string has
    cap = b.select(ascii_, count, minimum(b, nb, b.mul(count, I64(4))))
    block = alloc(b, cap)
    no_memory(b, block)
    dest = S.chars(b, block)
    contiguous, stepped, joined = (fn.append_basic_block(x) for x in ("run", "stepped", "made"))
    b.cbranch(b.icmp_signed("==", step, I64(1)), contiguous, stepped)
    b.position_at_end(contiguous)
    end = b.select(ascii_, b.add(pos0, count), walk_forward(b, src, pos0, count))
    run_bytes = b.sub(end, pos0)
    S.memcpy(b, dest, b.gep(src, [pos0], inbounds=True, source_etype=I8), run_bytes)
    run_from = b.block
    b.branch(joined)
    b.position_at_end(stepped)
    forward = b.icmp_signed(">", step, I64(0))

    def copy_one(v: list[ll.Value]) -> list[ll.Value]:
        k, pos, out = v
        width = b.select(ascii_, I64(1), code_width(b, byte_at(b, src, pos)))
        S.memcpy(
            b,
            b.gep(dest, [out], inbounds=True, source_etype=I8),
            b.gep(src, [pos], inbounds=True, source_etype=I8),
            width,
        )
        nk = b.add(k, I64(1))
        here = b.block
        last = b.icmp_signed(">=", nk, count)
        move, moved = fn.append_basic_block("move"), fn.append_basic_block("moved")
        b.cbranch(last, moved, move)  # never step past the end after the last one
        b.position_at_end(move)
        fast, slow, picked = (fn.append_basic_block(x) for x in ("ascii", "utf8", "advanced"))
        b.cbranch(ascii_, fast, slow)
        b.position_at_end(fast)
        fast_pos = b.add(pos, step)
        b.branch(picked)
        b.position_at_end(slow)
        ahead, behind, walked = (fn.append_basic_block(x) for x in ("ahead", "behind", "walked"))
        b.cbranch(forward, ahead, behind)
        b.position_at_end(ahead)
        ahead_pos = walk_forward(b, src, pos, step)
        ahead_from = b.block
        b.branch(walked)
        b.position_at_end(behind)
        behind_pos = walk_backward(b, src, pos, b.neg(step))
        behind_from = b.block
        b.branch(walked)
        b.position_at_end(walked)
        slow_pos = b.phi(I64)
        slow_pos.add_incoming(ahead_pos, ahead_from)
        slow_pos.add_incoming(behind_pos, behind_from)
        b.branch(picked)
        b.position_at_end(picked)
        new_pos = b.phi(I64)
        new_pos.add_incoming(fast_pos, fast)
        new_pos.add_incoming(slow_pos, walked)
        b.branch(moved)
        b.position_at_end(moved)
        final = b.phi(I64)
        final.add_incoming(pos, here)
        final.add_incoming(new_pos, picked)
        return [nk, final, b.add(out, width)]

    _, _, stepped_bytes = loop(
        b, [I64(0), pos0, I64(0)], lambda v: b.icmp_signed("<", v[0], count), copy_one
    )
    stepped_from = b.block
    b.branch(joined)
    b.position_at_end(joined)
    nbytes = b.phi(I64)
    nbytes.add_incoming(run_bytes, run_from)
    nbytes.add_incoming(stepped_bytes, stepped_from)
    finish(b, block, nbytes, count)
    b.store(block, ret)
    b.ret(NULL)


@_op("repeat")
def _repeat(b: ll.IRBuilder, fn: ll.Function) -> None:
    """`s * n`: empty for `n <= 0`; MemoryError when the result could not be allocated."""
    ret, s, n = fn.args
    nb, nc = S.load_field(b, s, S.NBYTES), S.load_field(b, s, S.NCHARS)
    # no copies of an empty string (`"" * 2**62` is "" at once, as in Python)
    none = b.or_(b.icmp_signed("<", n, I64(0)), b.icmp_signed("==", nb, I64(0)))
    n = b.select(none, I64(0), n)
    # Python's test: more code points than a Py_ssize_t counts
    most = b.udiv(I64(2**63 - 1), b.select(b.icmp_signed("==", nc, I64(0)), I64(1), nc))
    with b.if_then(b.icmp_unsigned(">", n, most), likely=False):
        b.ret(descriptor(b.module, OverflowError, "repeated string is too long"))
    # nb * n overflows only past MAX_BYTES: test with a division instead of multiplying
    limit = b.udiv(I64(MAX_BYTES), b.select(b.icmp_signed("==", nb, I64(0)), I64(1), nb))
    too_long = b.icmp_unsigned(">", n, limit)
    with b.if_then(too_long, likely=False):
        b.ret(descriptor(b.module, MemoryError, ""))  # Python's MemoryError has no message
    total = b.mul(nb, n)
    block = alloc(b, total)
    no_memory(b, block)
    dest, src = S.chars(b, block), S.chars(b, s)

    def copy(v: list[ll.Value]) -> list[ll.Value]:
        S.memcpy(b, b.gep(dest, [v[0]], inbounds=True, source_etype=I8), src, nb)
        return [b.add(v[0], nb), b.add(v[1], I64(1))]

    loop(b, [I64(0), I64(0)], lambda v: b.icmp_signed("<", v[1], n), copy)
    finish(b, block, total, b.mul(nc, n))
    b.store(block, ret)
    b.ret(NULL)


@_op("chr")
def _chr(b: ll.IRBuilder, fn: ll.Function) -> None:
    """`chr(n)`: the code point as UTF-8 (a surrogate as its three bytes, as strings keep
    them: `rtstrings`); ValueError outside range(0x110000)."""
    ret, n = fn.args
    wide = b.icmp_unsigned(">", b.add(n, I64(2**31)), I64(2**32 - 1))  # not a C int
    with b.if_then(wide, likely=False):
        message = "Python int too large to convert to C int"
        b.ret(descriptor(b.module, OverflowError, message))
    outside = b.icmp_unsigned(">=", n, I64(0x110000))
    with b.if_then(outside, likely=False):
        b.ret(descriptor(b.module, ValueError, "chr() arg not in range(0x110000)"))
    width = b.select(b.icmp_unsigned("<", n, I64(0x10000)), I64(3), I64(4))
    width = b.select(b.icmp_unsigned("<", n, I64(0x800)), I64(2), width)
    width = b.select(b.icmp_unsigned("<", n, I64(0x80)), I64(1), width)
    block = alloc(b, width)
    no_memory(b, block)
    dest = S.chars(b, block)

    def put(i: int, value: ll.Value) -> None:
        b.store(b.trunc(value, I8), b.gep(dest, [I64(i)], inbounds=True, source_etype=I8))

    def cont(shift: int) -> ll.Value:
        return b.or_(I64(0x80), b.and_(b.lshr(n, I64(shift)), I64(0x3F)))

    one, two, three, four, done = (
        fn.append_basic_block(x) for x in ("w1", "w2", "w3", "w4", "written")
    )
    switch = b.switch(width, four)
    switch.add_case(I64(1), one)
    switch.add_case(I64(2), two)
    switch.add_case(I64(3), three)
    b.position_at_end(one)
    put(0, n)
    b.branch(done)
    b.position_at_end(two)
    put(0, b.or_(I64(0xC0), b.lshr(n, I64(6))))
    put(1, cont(0))
    b.branch(done)
    b.position_at_end(three)
    put(0, b.or_(I64(0xE0), b.lshr(n, I64(12))))
    put(1, cont(6))
    put(2, cont(0))
    b.branch(done)
    b.position_at_end(four)
    put(0, b.or_(I64(0xF0), b.lshr(n, I64(18))))
    put(1, cont(12))
    put(2, cont(6))
    put(3, cont(0))
    b.branch(done)
    b.position_at_end(done)
    finish(b, block, width, I64(1))
    b.store(block, ret)
    b.ret(NULL)


@_op("ord")
def _ord(b: ll.IRBuilder, fn: ll.Function) -> None:
    """`ord(c)`: the code point of a one-character string; TypeError (Python's message)
    for any other length."""
    ret, s = fn.args
    nc = S.load_field(b, s, S.NCHARS)
    with b.if_then(b.icmp_signed("!=", nc, I64(1)), likely=False):
        template = "ord() expected a character, but string of length {} found"
        b.ret(
            write_formatted(b, TypeError, template, FORMAT, value_code(T.I64) or "", [(nc, T.I64)])
        )
    src = S.chars(b, s)
    lead = byte_at(b, src, I64(0))
    width = code_width(b, lead)

    def cont(i: int) -> ll.Value:
        return b.and_(byte_at(b, src, I64(i)), I64(0x3F))

    def shl(v: ll.Value, k: int) -> ll.Value:
        return b.shl(v, I64(k))

    pre = b.block
    one_byte = b.icmp_unsigned("==", width, I64(1))
    multi, done = fn.append_basic_block("multi"), fn.append_basic_block("decoded")
    b.cbranch(one_byte, done, multi)
    b.position_at_end(multi)
    two = b.or_(shl(b.and_(lead, I64(0x1F)), 6), cont(1))
    # reading bytes 2 and 3 is safe: the NUL terminator follows a short string
    three = b.or_(b.or_(shl(b.and_(lead, I64(0x0F)), 12), shl(cont(1), 6)), cont(2))
    four = b.or_(
        b.or_(shl(b.and_(lead, I64(0x07)), 18), shl(cont(1), 12)),
        b.or_(shl(cont(2), 6), cont(3)),
    )
    value = b.select(
        b.icmp_unsigned("==", width, I64(2)),
        two,
        b.select(b.icmp_unsigned("==", width, I64(3)), three, four),
    )
    b.branch(done)
    b.position_at_end(done)
    out = b.phi(I64)
    out.add_incoming(lead, pre)
    out.add_incoming(value, multi)
    b.store(out, ret)
    b.ret(NULL)


@_op("fromint")
def _from_int(b: ll.IRBuilder, fn: ll.Function) -> None:
    """`str(n)` of an int64: its decimal digits (and a minus sign)."""
    ret, n = fn.args
    with b.goto_entry_block():
        buf = b.alloca(I8, size=I64(24))
    negative = b.icmp_signed("<", n, I64(0))
    # the magnitude as unsigned: -(-2**63) wraps to 2**63, which is right as unsigned
    mag = b.select(negative, b.neg(n), n)
    end = I64(24)

    def digit(v: list[ll.Value]) -> list[ll.Value]:
        m, pos = v
        p = b.sub(pos, I64(1))
        d = b.urem(m, I64(10))
        b.store(
            b.trunc(b.add(d, I64(48)), I8),
            b.gep(buf, [p], inbounds=True, source_etype=I8),
        )
        return [b.udiv(m, I64(10)), p]

    # do ... while: at least one digit (for 0)
    first = digit([mag, end])
    _, pos = loop(b, first, lambda v: b.icmp_unsigned("!=", v[0], I64(0)), digit)
    with b.if_then(negative):
        minus_at = b.sub(pos, I64(1))
        b.store(
            I8(ord("-")),
            b.gep(buf, [minus_at], inbounds=True, source_etype=I8),
        )
    start = b.select(negative, b.sub(pos, I64(1)), pos)
    length = b.sub(end, start)
    src = b.gep(buf, [start], inbounds=True, source_etype=I8)
    s = b.call(S.new_string(b.module), [src, length, length])
    no_memory(b, s)
    b.store(s, ret)
    b.ret(NULL)


# --- iteration ------------------------------------------------------------------------------


@_op("chars")
def _chars(b: ll.IRBuilder, fn: ll.Function) -> None:
    """`for c in s` walks this: a list of the one-character strings of `s`, made in one pass
    (so iterating over non-ASCII text is linear; ASCII characters are the static ones)."""
    ret, s = fn.args
    list_t = T.List(T.STR)
    nc = S.load_field(b, s, S.NCHARS)
    lst = b.call(lists._new(b.module, list_t), [nc])
    no_memory(b, lst)
    header = lists._header(b, lst)
    items = lists._load_field(b, header, lists._ITEMS)
    src = S.chars(b, s)
    table = ascii_table(b.module)
    new_string = S.new_string(b.module)

    def one(v: list[ll.Value]) -> list[ll.Value]:
        k, pos = v
        lead = byte_at(b, src, pos)
        width = code_width(b, lead)
        pre = b.block
        static = b.gep(table, [I32(0), lead], inbounds=True, source_etype=table.value_type)
        with b.if_then(b.icmp_unsigned(">=", lead, I64(0x80))):
            at = b.gep(src, [pos], inbounds=True, source_etype=I8)
            made = b.call(new_string, [at, width, I64(1)])
            with b.if_then(b.icmp_unsigned("==", made, NULL), likely=False):
                lists.emit_refcount(b, b.module, lst, list_t, False)  # frees the items so far
                b.ret(descriptor(b.module, MemoryError, "cannot allocate a string"))
            made_from = b.block
        c = b.phi(PTR)
        c.add_incoming(static, pre)
        c.add_incoming(made, made_from)
        lists._store_item(b, items, k, c, T.STR)
        b.store(b.add(k, I64(1)), lists._field(b, header, lists._LEN))
        return [b.add(k, I64(1)), b.add(pos, width)]

    loop(b, [I64(0), I64(0)], lambda v: b.icmp_signed("<", v[0], nc), one)
    b.store(lst, ret)
    b.ret(NULL)
