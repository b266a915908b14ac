"""String helpers that search and classify: `find`, `rfind`, `count`, `startswith`,
`endswith` of one string argument (for every string: a match of UTF-8 bytes is a match of code
points, and a byte position converts to a code point index), and `upper`, `lower`, `strip()`,
`isdigit`... of ASCII strings (`lib.strmethods` calls those only for ASCII text; Python does the
rest, with Unicode's tables). `strops` defines them as `jitcore.strop:<name>` helpers.
"""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir as ll

from jitcore.codegen import rtstrings as S
from jitcore.codegen.rtdicts import descriptor
from jitcore.codegen.types import I8, I32, I64, NULL, PTR, declare_function
from jitcore.codegen.utf8 import Build, alloc, byte_at, finish, guarded, loop, no_memory

OPS: dict[str, Build] = {}


def _op(name: str) -> Callable[[Build], Build]:
    def wrap(build: Build) -> Build:
        OPS[name] = build
        return build

    return wrap


def _chars_before(b: ll.IRBuilder, s: ll.Value, offset: ll.Value) -> ll.Value:
    """The code point index of byte `offset` of `s`: the bytes before it that start one."""
    ascii_ = b.icmp_signed("==", S.load_field(b, s, S.NBYTES), S.load_field(b, s, S.NCHARS))
    src = S.chars(b, s)
    pre = b.block
    with b.if_then(b.not_(ascii_)):

        def count(v: list[ll.Value]) -> list[ll.Value]:
            starts = b.icmp_unsigned("!=", b.and_(byte_at(b, src, v[0]), I64(0xC0)), I64(0x80))
            return [b.add(v[0], I64(1)), b.add(v[1], b.zext(starts, I64))]

        _, counted = loop(b, [I64(0), I64(0)], lambda v: b.icmp_signed("<", v[0], offset), count)
        counted_from = b.block
    out = b.phi(I64)
    out.add_incoming(offset, pre)
    out.add_incoming(counted, counted_from)
    return out


def _search(b: ll.IRBuilder, s: ll.Value, sub: ll.Value, start: ll.Value) -> ll.Value:
    """The byte offset of the first match of `sub` at or after byte `start`, or -1."""
    memmem = declare_function(b.module, "memmem", PTR, [PTR, I64, PTR, I64])
    nb, nsub = S.load_field(b, s, S.NBYTES), S.load_field(b, sub, S.NBYTES)
    hay = S.chars(b, s)
    at = b.gep(hay, [start], inbounds=True, source_etype=I8)
    found = b.call(memmem, [at, b.sub(nb, start), S.chars(b, sub), nsub])
    offset = b.sub(b.ptrtoint(found, I64), b.ptrtoint(hay, I64))
    return b.select(b.icmp_unsigned("==", found, NULL), I64(-1), offset)


@_op("find")
def _find(b: ll.IRBuilder, fn: ll.Function) -> None:
    """`s.find(sub)`: the code point index of the first match, or -1."""
    ret, s, sub = fn.args
    offset = _search(b, s, sub, I64(0))
    with b.if_then(b.icmp_signed("<", offset, I64(0))):
        b.store(I64(-1), ret)
        b.ret(NULL)
    b.store(_chars_before(b, s, offset), ret)
    b.ret(NULL)


@_op("rfind")
def _rfind(b: ll.IRBuilder, fn: ll.Function) -> None:
    """`s.rfind(sub)`: the code point index of the last match, or -1. Knuth-Morris-Pratt run
    backwards: `sub` reversed is matched against `s` read from its end, so the first match
    found is the last one, in O(len(s) + len(sub)) steps whatever the text (comparing `sub`
    at every position from the end took O(len(s) * len(sub)))."""
    ret, s, sub = fn.args
    nb, nsub = S.load_field(b, s, S.NBYTES), S.load_field(b, sub, S.NBYTES)
    with b.if_then(b.icmp_signed(">", nsub, nb)):
        b.store(I64(-1), ret)
        b.ret(NULL)
    with b.if_then(b.icmp_signed("==", nsub, I64(0))):
        b.store(S.load_field(b, s, S.NCHARS), ret)
        b.ret(NULL)
    hay, needle = S.chars(b, s), S.chars(b, sub)
    last = b.sub(nsub, I64(1))

    def rev(k: ll.Value) -> ll.Value:  # byte k of `sub` reversed
        return byte_at(b, needle, b.sub(last, k))

    malloc = declare_function(b.module, "malloc", PTR, [I64])
    free = declare_function(b.module, "free", ll.VoidType(), [PTR])
    table = b.call(malloc, [b.mul(nsub, I64(8))])
    with b.if_then(b.icmp_unsigned("==", table, NULL), likely=False):
        b.ret(descriptor(b.module, MemoryError, "cannot allocate a string search table"))

    def at(k: ll.Value) -> ll.Value:
        return b.gep(table, [k], inbounds=True, source_etype=I64)

    def advance(k: ll.Value, c: ll.Value) -> ll.Value:
        """The matched length after `c`, `k` bytes of the reversed `sub` matched before it."""
        (k,) = loop(
            b,
            [k],
            lambda v: guarded(
                b, b.icmp_signed(">", v[0], I64(0)), lambda: b.icmp_unsigned("!=", rev(v[0]), c)
            ),
            lambda v: [b.load(at(b.sub(v[0], I64(1))), typ=I64)],
        )
        return b.add(k, b.zext(b.icmp_unsigned("==", rev(k), c), I64))

    # table[q]: the longest proper border of the reversed sub's first q + 1 bytes
    b.store(I64(0), at(I64(0)))

    def border(v: list[ll.Value]) -> list[ll.Value]:
        q, k = v
        k = advance(k, rev(q))
        b.store(k, at(q))
        return [b.add(q, I64(1)), k]

    loop(b, [I64(1), I64(0)], lambda v: b.icmp_signed("<", v[0], nsub), border)

    def scan(v: list[ll.Value]) -> list[ll.Value]:
        i, j = v
        return [b.sub(i, I64(1)), advance(j, byte_at(b, hay, i))]

    i, j = loop(
        b,
        [b.sub(nb, I64(1)), I64(0)],
        lambda v: b.and_(b.icmp_signed(">=", v[0], I64(0)), b.icmp_signed("<", v[1], nsub)),
        scan,
    )
    b.call(free, [table])
    with b.if_then(b.icmp_signed("<", j, nsub)):
        b.store(I64(-1), ret)
        b.ret(NULL)
    b.store(_chars_before(b, s, b.add(i, I64(1))), ret)
    b.ret(NULL)


@_op("count")
def _count(b: ll.IRBuilder, fn: ll.Function) -> None:
    """`s.count(sub)`: matches that do not overlap, left to right (`len(s) + 1` for "")."""
    ret, s, sub = fn.args
    nsub = S.load_field(b, sub, S.NBYTES)
    with b.if_then(b.icmp_signed("==", nsub, I64(0))):
        b.store(b.add(S.load_field(b, s, S.NCHARS), I64(1)), ret)
        b.ret(NULL)

    def next_match(v: list[ll.Value]) -> list[ll.Value]:
        at = _search(b, s, sub, v[0])
        found = b.icmp_signed(">=", at, I64(0))
        after = b.select(found, b.add(at, nsub), I64(-1))
        return [after, b.add(v[1], b.zext(found, I64))]

    _, n = loop(b, [I64(0), I64(0)], lambda v: b.icmp_signed(">=", v[0], I64(0)), next_match)
    b.store(n, ret)
    b.ret(NULL)


def _affix(at_end: bool) -> Build:
    def build(b: ll.IRBuilder, fn: ll.Function) -> None:
        ret, s, affix = fn.args
        nb, na = S.load_field(b, s, S.NBYTES), S.load_field(b, affix, S.NBYTES)
        with b.if_then(b.icmp_signed(">", na, nb)):
            b.store(ll.Constant(ll.IntType(1), 0), ret)
            b.ret(NULL)
        memcmp = declare_function(b.module, "memcmp", ll.IntType(32), [PTR, PTR, I64])
        start = b.sub(nb, na) if at_end else I64(0)
        at = b.gep(S.chars(b, s), [start], inbounds=True, source_etype=I8)
        same = b.call(memcmp, [at, S.chars(b, affix), na])
        b.store(b.icmp_signed("==", same, ll.Constant(I32, 0)), ret)
        b.ret(NULL)

    return build


OPS["startswith"] = _affix(False)
OPS["endswith"] = _affix(True)


# --- ASCII text (`lib.strmethods` calls these only for ASCII strings; Python does the rest) --


def _in_ranges(b: ll.IRBuilder, c: ll.Value, ranges: list[tuple[int, int]]) -> ll.Value:
    out: ll.Value = ll.Constant(ll.IntType(1), 0)
    for lo, hi in ranges:
        inside = b.icmp_unsigned("<=", b.sub(c, I64(lo)), I64(hi - lo))
        out = b.or_(out, inside)
    return out


def _is_space(b: ll.IRBuilder, c: ll.Value) -> ll.Value:
    """`c.isspace()` of an ASCII byte: \t \n \v \f \r, the separators 0x1c-0x1f, space."""
    return _in_ranges(b, c, [(0x09, 0x0D), (0x1C, 0x20)])


_UPPER, _LOWER, _DIGIT = [(0x41, 0x5A)], [(0x61, 0x7A)], [(0x30, 0x39)]
_CLASSES = {
    "isdigit": _DIGIT,
    "isalpha": _UPPER + _LOWER,
    "isalnum": _UPPER + _LOWER + _DIGIT,
}


def _all_bytes(ranges: list[tuple[int, int]] | None) -> Build:
    """`isdigit`, `isalpha`, `isalnum`, `isspace` of ASCII: not empty, every byte in class."""

    def build(b: ll.IRBuilder, fn: ll.Function) -> None:
        ret, s = fn.args
        nb, src = S.load_field(b, s, S.NBYTES), S.chars(b, s)

        def member(c: ll.Value) -> ll.Value:
            return _is_space(b, c) if ranges is None else _in_ranges(b, c, ranges)

        (i,) = loop(
            b,
            [I64(0)],
            lambda v: guarded(
                b, b.icmp_signed("<", v[0], nb), lambda: member(byte_at(b, src, v[0]))
            ),
            lambda v: [b.add(v[0], I64(1))],
        )
        b.store(b.and_(b.icmp_signed("==", i, nb), b.icmp_signed(">", nb, I64(0))), ret)
        b.ret(NULL)

    return build


for _name, _ranges in _CLASSES.items():
    OPS[f"ascii.{_name}"] = _all_bytes(_ranges)
OPS["ascii.isspace"] = _all_bytes(None)


def _cased(upper: bool) -> Build:
    """`isupper` / `islower` of ASCII: some cased letter, none of the other case."""

    def build(b: ll.IRBuilder, fn: ll.Function) -> None:
        ret, s = fn.args
        nb, src = S.load_field(b, s, S.NBYTES), S.chars(b, s)
        wanted, other = (_UPPER, _LOWER) if upper else (_LOWER, _UPPER)

        def scan(v: list[ll.Value]) -> list[ll.Value]:
            c = byte_at(b, src, v[0])
            return [
                b.add(v[0], I64(1)),
                b.or_(v[1], _in_ranges(b, c, wanted)),
                b.or_(v[2], _in_ranges(b, c, other)),
            ]

        false = ll.Constant(ll.IntType(1), 0)
        _, seen, bad = loop(
            b, [I64(0), false, false], lambda v: b.icmp_signed("<", v[0], nb), scan
        )
        b.store(b.and_(seen, b.not_(bad)), ret)
        b.ret(NULL)

    return build


OPS["ascii.isupper"] = _cased(True)
OPS["ascii.islower"] = _cased(False)


def _mapped(upper: bool) -> Build:
    """`upper` / `lower` of ASCII: the letters of the other case flipped."""

    def build(b: ll.IRBuilder, fn: ll.Function) -> None:
        ret, s = fn.args
        nb, src = S.load_field(b, s, S.NBYTES), S.chars(b, s)
        block = alloc(b, nb)
        no_memory(b, block)
        dest = S.chars(b, block)
        ranges = _LOWER if upper else _UPPER

        def put(v: list[ll.Value]) -> list[ll.Value]:
            c = byte_at(b, src, v[0])
            flipped = b.select(_in_ranges(b, c, ranges), b.xor(c, I64(0x20)), c)
            b.store(b.trunc(flipped, I8), b.gep(dest, [v[0]], inbounds=True, source_etype=I8))
            return [b.add(v[0], I64(1))]

        loop(b, [I64(0)], lambda v: b.icmp_signed("<", v[0], nb), put)
        finish(b, block, nb, nb)
        b.store(block, ret)
        b.ret(NULL)

    return build


OPS["ascii.upper"] = _mapped(True)
OPS["ascii.lower"] = _mapped(False)


def _stripped(left: bool, right: bool) -> Build:
    """`strip()` / `lstrip()` / `rstrip()` of ASCII: whitespace off the ends."""

    def build(b: ll.IRBuilder, fn: ll.Function) -> None:
        ret, s = fn.args
        nb, src = S.load_field(b, s, S.NBYTES), S.chars(b, s)
        start, end = I64(0), nb
        if left:
            (start,) = loop(
                b,
                [start],
                lambda v: guarded(
                    b, b.icmp_signed("<", v[0], nb), lambda: _is_space(b, byte_at(b, src, v[0]))
                ),
                lambda v: [b.add(v[0], I64(1))],
            )
        if right:
            low = start
            (end,) = loop(
                b,
                [end],
                lambda v: guarded(
                    b,
                    b.icmp_signed(">", v[0], low),
                    lambda: _is_space(b, byte_at(b, src, b.sub(v[0], I64(1)))),
                ),
                lambda v: [b.sub(v[0], I64(1))],
            )
        n = b.sub(end, start)
        at = b.gep(src, [start], inbounds=True, source_etype=I8)
        out = b.call(S.new_string(b.module), [at, n, n])
        no_memory(b, out)
        b.store(out, ret)
        b.ret(NULL)

    return build


OPS["ascii.strip"] = _stripped(True, True)
OPS["ascii.lstrip"] = _stripped(True, False)
OPS["ascii.rstrip"] = _stripped(False, True)
