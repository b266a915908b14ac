"""The runtime string: LLVM helpers emitted into each module that uses them.

A string value is a pointer to a runtime memory block (`jitcore.runtime.nrt`, reference
counted like an array's) whose data is `{i64 nbytes, i64 nchars, i64 hash}` followed by the
UTF-8 bytes and a NUL. UTF-8 because that is what CPython hands out and takes back without
decoding (`PyUnicode_AsUTF8AndSize`), because byte order is code point order (so `<` is a
`memcmp`) and because a substring test on valid UTF-8 bytes is a substring test on code
points; `nchars` (the code point count) makes `len` O(1). The hash (FNV-1a over the bytes) is
computed once, when the string is made: strings are immutable, and dict lookups need it.
It is jitcore's own hash, consistent inside compiled code, not Python's `hash(s)`.

String constants are static blocks with a reference count no program reaches zero from
(`IMMORTAL`): compiled code increfs and decrefs them like any string, nothing frees them.
"""

from __future__ import annotations

from llvmlite import ir as ll

from jitcore.codegen.types import I1, I8, I32, I64, NULL, PTR, declare_function
from jitcore.runtime import nrt

STR_HEADER = ll.LiteralStructType([I64, I64, I64])  # nbytes, nchars, hash; the bytes follow
HEADER_BYTES = 24
NBYTES, NCHARS, HASH = 0, 1, 2
IMMORTAL = 1 << 62
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK64 = (1 << 64) - 1


def u64(value: int) -> ll.Constant:
    """An i64 constant from an unsigned 64-bit value (LLVM constants are signed)."""
    value &= MASK64
    return I64(value - (1 << 64) if value >= 1 << 63 else value)


def fnv1a(data: bytes) -> int:
    """The string hash, as the runtime computes it (signed 64-bit)."""
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & MASK64
    return h - (1 << 64) if h >= 1 << 63 else h


def block_data(b: ll.IRBuilder, block: ll.Value) -> ll.Value:
    """The data pointer of a runtime block."""
    field = b.gep(block, [I32(0), I32(2)], inbounds=True, source_etype=nrt.BLOCK)
    return b.load(field, typ=PTR)


def header_field(b: ll.IRBuilder, data: ll.Value, index: int) -> ll.Value:
    return b.gep(data, [I32(0), I32(index)], inbounds=True, source_etype=STR_HEADER)


def load_field(b: ll.IRBuilder, s: ll.Value, index: int) -> ll.Value:
    """`nbytes`, `nchars` or `hash` of string `s`."""
    return b.load(header_field(b, block_data(b, s), index), typ=I64)


def chars(b: ll.IRBuilder, s: ll.Value) -> ll.Value:
    """The address of string `s`'s bytes."""
    return b.gep(block_data(b, s), [I64(HEADER_BYTES)], inbounds=True, source_etype=I8)


def constant(module: ll.Module, text: str) -> ll.Value:
    """A static string block for `text` (one per module and text)."""
    data = text.encode("utf-8", "surrogatepass")  # as `pyobjects.unbox_str` encodes arguments
    name = f"jitcore.str.{fnv1a(data) & MASK64:016x}.{len(data)}"
    existing = module.globals.get(name)
    if existing is not None:
        return existing
    body_t = ll.LiteralStructType([STR_HEADER, ll.ArrayType(I8, len(data) + 1)])
    body = ll.GlobalVariable(module, body_t, name=name + ".data")
    body.global_constant = True
    body.linkage = "private"
    header = ll.Constant(STR_HEADER, [I64(len(data)), I64(len(text)), I64(fnv1a(data))])
    body.initializer = ll.Constant(
        body_t, [header, ll.Constant(ll.ArrayType(I8, len(data) + 1), bytearray(data + b"\0"))]
    )
    block = ll.GlobalVariable(module, nrt.BLOCK, name=name)
    block.linkage = "private"
    block.initializer = ll.Constant(nrt.BLOCK, [I64(IMMORTAL), I64(0), body, NULL])
    return block


def define_internal(
    module: ll.Module, name: str, ret: ll.Type, args: list[ll.Type]
) -> ll.Function | None:
    """A new internal function `name`, or None if the module has it already."""
    existing = module.globals.get(name)
    if existing is not None and not existing.is_declaration:
        return None
    fn = existing or ll.Function(module, ll.FunctionType(ret, args), name=name)
    fn.linkage = "internal"
    return fn


def _memcmp(module: ll.Module) -> ll.Function:
    return declare_function(module, "memcmp", I32, [PTR, PTR, I64])


def memcpy(b: ll.IRBuilder, dest: ll.Value, src: ll.Value, n: ll.Value) -> None:
    fn = b.module.declare_intrinsic("llvm.memcpy", [PTR, PTR, I64])
    b.call(fn, [dest, src, n, ll.Constant(I1, 0)])


def new_string(module: ll.Module) -> ll.Function:
    """`ptr strnew(ptr bytes, i64 nbytes, i64 nchars)`: a new string block holding a copy of
    the bytes (hash computed), or null when there is no memory."""
    name = "jitcore.string.new"
    fn = define_internal(module, name, PTR, [PTR, I64, I64])
    if fn is None:
        return module.globals[name]
    src, nbytes, nchars = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    alloc = declare_function(module, nrt.ALLOC, PTR, [I64])
    too_big = b.icmp_unsigned(">", nbytes, I64(1 << 60))
    total = b.select(too_big, I64(-1), b.add(nbytes, I64(HEADER_BYTES + 1)))
    block = b.call(alloc, [total])
    with b.if_then(b.icmp_unsigned("==", block, NULL), likely=False):
        b.ret(NULL)
    data = block_data(b, block)
    dest = b.gep(data, [I64(HEADER_BYTES)], inbounds=True, source_etype=I8)
    memcpy(b, dest, src, nbytes)
    b.store(I8(0), b.gep(dest, [nbytes], inbounds=True, source_etype=I8))
    b.store(nbytes, header_field(b, data, NBYTES))
    b.store(nchars, header_field(b, data, NCHARS))
    b.store(b.call(_hash_bytes(module), [dest, nbytes]), header_field(b, data, HASH))
    b.ret(block)
    return fn


def _hash_bytes(module: ll.Module) -> ll.Function:
    """`i64 hashbytes(ptr, i64 n)`: FNV-1a, as `fnv1a`."""
    name = "jitcore.string.hashbytes"
    fn = define_internal(module, name, I64, [PTR, I64])
    if fn is None:
        return module.globals[name]
    ptr, n = fn.args
    entry = fn.append_basic_block("entry")
    loop, body, done = (fn.append_basic_block(x) for x in ("loop", "body", "done"))
    b = ll.IRBuilder(entry)
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi(I64)
    h = b.phi(I64)
    i.add_incoming(I64(0), entry)
    h.add_incoming(u64(FNV_OFFSET), entry)
    b.cbranch(b.icmp_signed("<", i, n), body, done)
    b.position_at_end(body)
    byte = b.zext(b.load(b.gep(ptr, [i], inbounds=True, source_etype=I8), typ=I8), I64)
    nh = b.mul(b.xor(h, byte), u64(FNV_PRIME))
    i.add_incoming(b.add(i, I64(1)), body)
    h.add_incoming(nh, body)
    b.branch(loop)
    b.position_at_end(done)
    b.ret(h)
    return fn


def equal(module: ll.Module) -> ll.Function:
    """`i1 streq(ptr a, ptr b)`: same bytes (length and hash first)."""
    name = "jitcore.string.eq"
    fn = define_internal(module, name, I1, [PTR, PTR])
    if fn is None:
        return module.globals[name]
    x, y = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    with b.if_then(b.icmp_unsigned("==", x, y)):
        b.ret(I1(1))
    dx, dy = block_data(b, x), block_data(b, y)
    n = b.load(header_field(b, dx, NBYTES), typ=I64)
    same_n = b.icmp_signed("==", n, b.load(header_field(b, dy, NBYTES), typ=I64))
    hx = b.load(header_field(b, dx, HASH), typ=I64)
    same_h = b.icmp_signed("==", hx, b.load(header_field(b, dy, HASH), typ=I64))
    with b.if_then(b.not_(b.and_(same_n, same_h))):
        b.ret(I1(0))
    cx = b.gep(dx, [I64(HEADER_BYTES)], inbounds=True, source_etype=I8)
    cy = b.gep(dy, [I64(HEADER_BYTES)], inbounds=True, source_etype=I8)
    b.ret(b.icmp_signed("==", b.call(_memcmp(module), [cx, cy, n]), I32(0)))
    return fn


def compare(module: ll.Module) -> ll.Function:
    """`i64 strcmp(ptr a, ptr b)`: -1, 0 or 1 in code point order (UTF-8 byte order)."""
    name = "jitcore.string.cmp"
    fn = define_internal(module, name, I64, [PTR, PTR])
    if fn is None:
        return module.globals[name]
    x, y = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    nx, ny = load_field(b, x, NBYTES), load_field(b, y, NBYTES)
    n = b.select(b.icmp_signed("<", nx, ny), nx, ny)
    c = b.sext(b.call(_memcmp(module), [chars(b, x), chars(b, y), n]), I64)
    diff = b.select(b.icmp_signed("!=", c, I64(0)), c, b.sub(nx, ny))
    sign = b.sub(
        b.zext(b.icmp_signed(">", diff, I64(0)), I64),
        b.zext(b.icmp_signed("<", diff, I64(0)), I64),
    )
    b.ret(sign)
    return fn


def contains(module: ll.Module) -> ll.Function:
    """`i1 strcontains(ptr haystack, ptr needle)`: `needle in haystack`."""
    name = "jitcore.string.contains"
    fn = define_internal(module, name, I1, [PTR, PTR])
    if fn is None:
        return module.globals[name]
    hay, needle = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    memmem = declare_function(module, "memmem", PTR, [PTR, I64, PTR, I64])
    nn = load_field(b, needle, NBYTES)
    with b.if_then(b.icmp_signed("==", nn, I64(0))):
        b.ret(I1(1))
    found = b.call(memmem, [chars(b, hay), load_field(b, hay, NBYTES), chars(b, needle), nn])
    b.ret(b.icmp_unsigned("!=", found, NULL))
    return fn


def concat(module: ll.Module) -> ll.Function:
    """`ptr strconcat(ptr a, ptr b)`: a new string, or null when there is no memory."""
    name = "jitcore.string.concat"
    fn = define_internal(module, name, PTR, [PTR, PTR])
    if fn is None:
        return module.globals[name]
    x, y = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    nx, ny = load_field(b, x, NBYTES), load_field(b, y, NBYTES)
    n = b.add(nx, ny)
    too_big = b.icmp_unsigned(">", n, I64(1 << 60))
    alloc = declare_function(module, nrt.ALLOC, PTR, [I64])
    block = b.call(alloc, [b.select(too_big, I64(-1), b.add(n, I64(HEADER_BYTES + 1)))])
    with b.if_then(b.icmp_unsigned("==", block, NULL), likely=False):
        b.ret(NULL)
    data = block_data(b, block)
    dest = b.gep(data, [I64(HEADER_BYTES)], inbounds=True, source_etype=I8)
    memcpy(b, dest, chars(b, x), nx)
    memcpy(b, b.gep(dest, [nx], inbounds=True, source_etype=I8), chars(b, y), ny)
    b.store(I8(0), b.gep(dest, [n], inbounds=True, source_etype=I8))
    b.store(n, header_field(b, data, NBYTES))
    b.store(
        b.add(load_field(b, x, NCHARS), load_field(b, y, NCHARS)), header_field(b, data, NCHARS)
    )
    b.store(b.call(_hash_bytes(module), [dest, n]), header_field(b, data, HASH))
    b.ret(block)
    return fn
