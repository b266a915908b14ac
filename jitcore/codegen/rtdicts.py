"""Typed dicts and sets: a hash table emitted as LLVM, specialized per key and value type.

A dict (or set) value is a pointer to a runtime memory block (reference counted, as arrays)
holding the header `{len, used, cap, mask, index block, index data, entries block, entries
data}`. As CPython's compact dict: `entries` is an array of `cap` entries `{i64 hash, i8 live,
key[, value]}` in insertion order (a deleted entry stays, dead, until the next resize), and
`index` an open-addressing table of `2 * cap` i64 slots (`EMPTY`, `DUMMY` for a deleted
entry, or an entry's position) probed with CPython's perturbed sequence. So iteration is in
insertion order, deletion keeps the order, and the table is at most half full. `{}` allocates
nothing; the first insertion allocates 8 entries, and a full table doubles (or, with many
dead entries, is compacted at the same size): growth is amortized, and every size is checked
(MemoryError rather than a wrapped size).

Keys hash with jitcore's own functions (consistent inside compiled code, not Python's
`hash`): ints and bools by value, floats by the bits of `x + 0.0` (so `0.0` and `-0.0` are
one key, as in Python), strings by their stored hash, tuples by their items. Keys compare
with `==` (so a NaN key never finds itself: every NaN is a new key).

A set is a dict without values. The operations the low IR calls (`ncall
"jitcore.rt.<op>:<type>"`) have the kernel calling convention (`ptr (ptr ret, args...)`,
returning null or an exception descriptor), are internal to the module, and small enough for
LLVM to inline into the loop that calls them.
"""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir as ll

from jitcore.codegen import rtstrings as S
from jitcore.codegen.excformat import VALUE, value_code, write_formatted
from jitcore.codegen.types import (
    EXC_DESCRIPTOR,
    F64,
    I1,
    I8,
    I32,
    I64,
    NULL,
    PTR,
    VOID,
    declare_function,
    exception_slot,
    helper_body,
    llvm_type,
)
from jitcore.errors import InternalCompilerError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.runtime import nrt

PREFIX = "jitcore.rt."
HEADER = ll.LiteralStructType([I64, I64, I64, I64, PTR, PTR, PTR, PTR])
LEN, USED, CAP, MASK, IBLOCK, IDATA, EBLOCK, EDATA = range(8)
HEADER_BYTES = 64
EMPTY, DUMMY = -1, -2
MIN_CAP = 8
# Keep every byte count far from int64's end: cap * entry size and 16 * cap must fit.
MAX_CAP = 1 << 54


def symbol(op: str, t: T.Type | None = None) -> str:
    """The symbol low IR calls for operation `op` on values of type `t`."""
    return f"{PREFIX}{op}" if t is None else f"{PREFIX}{op}:{t.name}"


# --- sizes -------------------------------------------------------------------------------


def _size_align(t: ll.Type) -> tuple[int, int]:
    """ABI size and alignment of the LLVM types entries hold (x86-64 / AArch64 layout)."""
    if isinstance(t, ll.IntType):
        n = max(1, (t.width + 7) // 8)
        return n, n
    if isinstance(t, ll.FloatType):
        return 4, 4
    if isinstance(t, ll.DoubleType):
        return 8, 8
    if isinstance(t, ll.PointerType):
        return 8, 8
    if isinstance(t, ll.ArrayType):
        size, align = _size_align(t.element)
        return size * t.count, align
    if isinstance(t, ll.LiteralStructType):
        offset, align = 0, 1
        for item in t.elements:
            size, a = _size_align(item)
            offset = (offset + a - 1) // a * a + size
            align = max(align, a)
        return (offset + align - 1) // align * align, align
    raise InternalCompilerError(f"no size for {t}")


def entry_type(t: T.Dict | T.Set) -> ll.LiteralStructType:
    items = [I64, I8, llvm_type(t.key)]
    if isinstance(t, T.Dict):
        items.append(llvm_type(t.value))
    return ll.LiteralStructType(items)


# --- hashing, equality and references of keys and values -----------------------------------


def _mix(b: ll.IRBuilder, x: ll.Value) -> ll.Value:
    """MurmurHash3's 64-bit finalizer: consecutive ints spread over the whole table."""
    x = b.xor(x, b.lshr(x, I64(33)))
    x = b.mul(x, S.u64(0xFF51AFD7ED558CCD))
    x = b.xor(x, b.lshr(x, I64(33)))
    x = b.mul(x, S.u64(0xC4CEB9FE1A85EC53))
    return b.xor(x, b.lshr(x, I64(33)))


def hash_value(b: ll.IRBuilder, v: ll.Value, t: T.Type) -> ll.Value:
    """jitcore's hash of a key (equal keys hash equal: `0.0` and `-0.0` too)."""
    if isinstance(t, T.Scalar):
        if t.is_complex:
            re = hash_value(b, b.extract_value(v, 0), T.complex_part(t))
            im = hash_value(b, b.extract_value(v, 1), T.complex_part(t))
            return b.xor(re, b.mul(im, I64(1000003)))
        if t.is_float:
            wide = b.fpext(v, F64) if t.bits == 32 else v
            canonical = b.fadd(wide, ll.Constant(F64, 0.0))  # -0.0 + 0.0 is +0.0
            return _mix(b, b.bitcast(canonical, I64))
        if t.is_bool or not t.is_signed:
            return _mix(b, b.zext(v, I64) if t.bits < 64 or t.is_bool else v)
        return _mix(b, b.sext(v, I64) if t.bits < 64 else v)
    if isinstance(t, T.Str):
        return S.load_field(b, v, S.HASH)
    if isinstance(t, T.Tuple):
        h: ll.Value = I64(0x345678)
        for i, item in enumerate(t.items):
            h = b.mul(b.xor(h, hash_value(b, b.extract_value(v, i), item)), I64(1000003))
        return _mix(b, h)
    if isinstance(t, T.NoneType):
        return I64(0)
    raise InternalCompilerError(f"no hash for {t}")


def equal_values(b: ll.IRBuilder, x: ll.Value, y: ll.Value, t: T.Type) -> ll.Value:
    """`x == y` for keys (floats: IEEE, so `0.0 == -0.0` and NaN is equal to nothing)."""
    if isinstance(t, T.Scalar):
        if t.is_complex:
            re = b.fcmp_ordered("==", b.extract_value(x, 0), b.extract_value(y, 0))
            return b.and_(re, b.fcmp_ordered("==", b.extract_value(x, 1), b.extract_value(y, 1)))
        if t.is_float:
            return b.fcmp_ordered("==", x, y)
        return b.icmp_unsigned("==", x, y)
    if isinstance(t, T.Str):
        return b.call(S.equal(b.module), [x, y])
    if isinstance(t, T.Tuple):
        out: ll.Value = I1(1)
        for i, item in enumerate(t.items):
            out = b.and_(out, equal_values(b, b.extract_value(x, i), b.extract_value(y, i), item))
        return out
    if isinstance(t, T.NoneType):
        return I1(1)
    raise InternalCompilerError(f"no equality for {t}")


# The one walk over reference-counted values, `lists.emit_refcount`: lists hold dicts and dicts
# hold lists, but `lists` builds on this module, so it registers the walk when it is imported
# (the `jitcore.codegen` package imports it).
RefcountWalk = Callable[[ll.IRBuilder, ll.Module, ll.Value, T.Type, bool], None]
_walk: list[RefcountWalk] = []


def set_refcount_walk(walk: RefcountWalk) -> None:
    _walk[:] = [walk]


def emit_ref(b: ll.IRBuilder, v: ll.Value, t: T.Type, increment: bool) -> None:
    """Incref or decref every reference-counted part of `v` (arrays, lists, strings,
    containers, tuples and optionals of them) by the registered walk (a walk of its own here
    skipped lists: a dict's list value read twice in one call was freed)."""
    if not _walk:
        raise InternalCompilerError("jitcore.codegen.lists has not registered its walk")
    _walk[0](b, b.module, v, t, increment)


def emit_block_ref(b: ll.IRBuilder, v: ll.Value, t: T.Type, increment: bool) -> None:
    """The part of `emit_ref` for strings, Generators, dicts, sets and their views."""
    release = declare_function(b.module, nrt.RELEASE, VOID, [PTR])
    if isinstance(t, T.Str | T.Generator):  # (an owned Generator: its block holds no refs)
        nrt.emit_incref(b, v) if increment else nrt.emit_decref(b, v, release)
    elif isinstance(t, T.Dict | T.Set):
        if increment:
            nrt.emit_incref(b, v)
        else:
            b.call(dispose(b.module, t), [v])
    elif isinstance(t, T.View):
        emit_ref(b, b.extract_value(v, 0), t.container, increment)
    else:
        raise InternalCompilerError(f"no reference count for {t}")


# --- the header and entries ---------------------------------------------------------------


def _hfield(b: ll.IRBuilder, d: ll.Value, index: int) -> ll.Value:
    return b.gep(S.block_data(b, d), [I32(0), I32(index)], inbounds=True, source_etype=HEADER)


def _load(b: ll.IRBuilder, d: ll.Value, index: int) -> ll.Value:
    return b.load(_hfield(b, d, index), typ=PTR if index >= IBLOCK else I64)


def _store(b: ll.IRBuilder, d: ll.Value, index: int, value: ll.Value) -> None:
    b.store(value, _hfield(b, d, index))


def _entry(b: ll.IRBuilder, entries: ll.Value, i: ll.Value, t: T.Dict | T.Set) -> ll.Value:
    return b.gep(entries, [i], inbounds=True, source_etype=entry_type(t))


def _efield(b: ll.IRBuilder, e: ll.Value, index: int, t: T.Dict | T.Set) -> ll.Value:
    return b.gep(e, [I32(0), I32(index)], inbounds=True, source_etype=entry_type(t))


def _slot(b: ll.IRBuilder, index: ll.Value, i: ll.Value) -> ll.Value:
    return b.gep(index, [i], inbounds=True, source_etype=I64)


def _next_pos(b: ll.IRBuilder, pos: ll.Value, perturb: ll.Value, mask: ll.Value) -> ll.Value:
    """CPython's probe step: `(5 * pos + perturb + 1) & mask` (after `perturb >>= 5`)."""
    return b.and_(b.add(b.add(b.mul(pos, I64(5)), perturb), I64(1)), mask)


def lookup(module: ll.Module, t: T.Dict | T.Set) -> ll.Function:
    """`i64 lookup(ptr d, K key, i64 hash)`: the index slot holding `key`, or -1."""
    name = symbol("lookup", t)
    fn = S.define_internal(module, name, I64, [PTR, llvm_type(t.key), I64])
    if fn is None:
        return module.globals[name]
    d, key, h = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    missing = fn.append_basic_block("missing")
    search = fn.append_basic_block("search")
    b.cbranch(b.icmp_signed("==", _load(b, d, CAP), I64(0)), missing, search)
    b.position_at_end(search)
    index, entries, mask = _load(b, d, IDATA), _load(b, d, EDATA), _load(b, d, MASK)
    loop, check, compare, nxt, found = (
        fn.append_basic_block(x) for x in ("probe", "check", "compare", "next", "found")
    )
    first = b.and_(h, mask)
    b.branch(loop)
    b.position_at_end(loop)
    pos, perturb = b.phi(I64), b.phi(I64)
    pos.add_incoming(first, search)
    perturb.add_incoming(h, search)
    ix = b.load(_slot(b, index, pos), typ=I64)
    b.cbranch(b.icmp_signed("==", ix, I64(EMPTY)), missing, check)
    b.position_at_end(check)
    b.cbranch(b.icmp_signed(">=", ix, I64(0)), compare, nxt)  # DUMMY: keep probing
    b.position_at_end(compare)
    e = _entry(b, entries, ix, t)
    with b.if_then(b.icmp_signed("==", b.load(_efield(b, e, 0, t), typ=I64), h)):
        stored = b.load(_efield(b, e, 2, t), typ=llvm_type(t.key))
        with b.if_then(equal_values(b, stored, key, t.key)):
            b.branch(found)
    b.branch(nxt)
    b.position_at_end(nxt)
    shifted = b.lshr(perturb, I64(5))
    pos.add_incoming(_next_pos(b, pos, shifted, mask), nxt)
    perturb.add_incoming(shifted, nxt)
    b.branch(loop)
    b.position_at_end(found)
    b.ret(pos)
    b.position_at_end(missing)
    b.ret(I64(-1))
    return fn


def _free_slot(b: ll.IRBuilder, index: ll.Value, mask: ll.Value, h: ll.Value) -> ll.Value:
    """The first EMPTY or DUMMY slot of `h`'s probe sequence (one exists: at most half full)."""
    fn = b.function
    start = b.block
    loop, nxt, done = (fn.append_basic_block(x) for x in ("free", "free.next", "free.done"))
    first = b.and_(h, mask)
    b.branch(loop)
    b.position_at_end(loop)
    pos, perturb = b.phi(I64), b.phi(I64)
    pos.add_incoming(first, start)
    perturb.add_incoming(h, start)
    ix = b.load(_slot(b, index, pos), typ=I64)
    b.cbranch(b.icmp_signed("<", ix, I64(0)), done, nxt)
    b.position_at_end(nxt)
    shifted = b.lshr(perturb, I64(5))
    pos.add_incoming(_next_pos(b, pos, shifted, mask), nxt)
    perturb.add_incoming(shifted, nxt)
    b.branch(loop)
    b.position_at_end(done)
    return pos


def _counted(b: ll.IRBuilder, n: ll.Value, body: Callable[[ll.Value], None]) -> None:
    """`for i in range(n): body(i)` (body may add blocks; it must fall through)."""
    fn = b.function
    start = b.block
    loop, work, done = (fn.append_basic_block(x) for x in ("loop", "loop.body", "loop.done"))
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi(I64)
    i.add_incoming(I64(0), start)
    b.cbranch(b.icmp_signed("<", i, n), work, done)
    b.position_at_end(work)
    body(i)
    i.add_incoming(b.add(i, I64(1)), b.block)
    b.branch(loop)
    b.position_at_end(done)


def resize(module: ll.Module, t: T.Dict | T.Set) -> ll.Function:
    """`i1 resize(ptr d, i64 cap)`: new entries for `cap` (>= len) items holding the live ones
    in order, and a new index; false when the memory cannot be had."""
    name = symbol("resize", t)
    fn = S.define_internal(module, name, I1, [PTR, I64])
    if fn is None:
        return module.globals[name]
    d, cap = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    alloc = declare_function(module, nrt.ALLOC, PTR, [I64])
    release = declare_function(module, nrt.RELEASE, VOID, [PTR])
    esize, _ = _size_align(entry_type(t))
    with b.if_then(b.icmp_unsigned(">", cap, I64(MAX_CAP)), likely=False):
        b.ret(I1(0))
    eblock = b.call(alloc, [b.mul(cap, I64(esize))])
    with b.if_then(b.icmp_unsigned("==", eblock, NULL), likely=False):
        b.ret(I1(0))
    islots = b.mul(cap, I64(2))
    iblock = b.call(alloc, [b.mul(islots, I64(8))])
    with b.if_then(b.icmp_unsigned("==", iblock, NULL), likely=False):
        b.call(release, [eblock])
        b.ret(I1(0))
    edata, idata = S.block_data(b, eblock), S.block_data(b, iblock)
    fill = module.declare_intrinsic("llvm.memset", [PTR, I64])
    b.call(fill, [idata, I8(-1), b.mul(islots, I64(8)), I1(0)])  # every slot EMPTY (-1)
    mask = b.sub(islots, I64(1))
    old, used = _load(b, d, EDATA), _load(b, d, USED)
    with b.goto_entry_block():
        kept = b.alloca(I64)
    b.store(I64(0), kept)
    et = entry_type(t)

    def move(i: ll.Value) -> None:
        e = _entry(b, old, i, t)
        with b.if_then(b.icmp_unsigned("!=", b.load(_efield(b, e, 1, t), typ=I8), I8(0))):
            j = b.load(kept, typ=I64)
            b.store(b.load(e, typ=et), _entry(b, edata, j, t))
            h = b.load(_efield(b, e, 0, t), typ=I64)
            b.store(j, _slot(b, idata, _free_slot(b, idata, mask, h)))
            b.store(b.add(j, I64(1)), kept)

    _counted(b, used, move)
    for field in (EBLOCK, IBLOCK):
        previous = _load(b, d, field)
        with b.if_then(b.icmp_unsigned("!=", previous, NULL)):
            b.call(release, [previous])
    _store(b, d, EBLOCK, eblock)
    _store(b, d, EDATA, edata)
    _store(b, d, IBLOCK, iblock)
    _store(b, d, IDATA, idata)
    _store(b, d, CAP, cap)
    _store(b, d, MASK, mask)
    _store(b, d, USED, b.load(kept, typ=I64))
    b.ret(I1(1))
    return fn


def _reserve(b: ll.IRBuilder, d: ll.Value, t: T.Dict | T.Set) -> ll.Value:
    """Room for one more entry (i1: false without memory): a full table of live entries
    doubles, one with many dead entries is compacted at its size, an unallocated one gets 8."""
    used, cap, n = _load(b, d, USED), _load(b, d, CAP), _load(b, d, LEN)
    full = b.icmp_signed(">=", used, cap)
    with b.goto_entry_block():
        out = b.alloca(I1)
    b.store(I1(1), out)
    with b.if_then(full, likely=False):
        grow = b.icmp_signed(">=", b.mul(n, I64(2)), cap)
        new_cap = b.select(grow, b.mul(cap, I64(2)), cap)
        new_cap = b.select(b.icmp_signed("<", new_cap, I64(MIN_CAP)), I64(MIN_CAP), new_cap)
        b.store(b.call(resize(b.module, t), [d, new_cap]), out)
    return b.load(out, typ=I1)


def _insert_new(  # noqa: ANN001
    b: ll.IRBuilder, d: ll.Value, key: ll.Value, value: ll.Value | None, h: ll.Value, t
) -> ll.Value:
    """Append a new entry (taking new references to key and value); i1 false: no memory."""
    ok = _reserve(b, d, t)
    fn = b.function
    have, done = fn.append_basic_block("insert"), fn.append_basic_block("insert.done")
    start = b.block
    b.cbranch(ok, have, done)
    b.position_at_end(have)
    used = _load(b, d, USED)
    e = _entry(b, _load(b, d, EDATA), used, t)
    b.store(h, _efield(b, e, 0, t))
    b.store(I8(1), _efield(b, e, 1, t))
    b.store(key, _efield(b, e, 2, t))
    emit_ref(b, key, t.key, True)
    if value is not None:
        b.store(value, _efield(b, e, 3, t))
        emit_ref(b, value, t.value, True)
    index = _load(b, d, IDATA)
    b.store(used, _slot(b, index, _free_slot(b, index, _load(b, d, MASK), h)))
    _store(b, d, USED, b.add(used, I64(1)))
    _store(b, d, LEN, b.add(_load(b, d, LEN), I64(1)))
    end = b.block
    b.branch(done)
    b.position_at_end(done)
    result = b.phi(I1)
    result.add_incoming(I1(0), start)
    result.add_incoming(I1(1), end)
    return result


def dispose(module: ll.Module, t: T.Dict | T.Set) -> ll.Function:
    """`void decref(ptr d)`: drop a reference; the last one releases the items and memory."""
    name = symbol("decref", t)
    fn = S.define_internal(module, name, VOID, [PTR])
    if fn is None:
        return module.globals[name]
    (d,) = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    with b.if_then(b.icmp_unsigned("==", d, NULL)):
        b.ret_void()
    counter = b.gep(d, [I32(0), I32(0)], inbounds=True, source_etype=nrt.BLOCK)
    count = b.sub(b.load(counter, typ=I64), I64(1))
    b.store(count, counter)
    with b.if_then(b.icmp_signed("!=", count, I64(0)), likely=True):
        b.ret_void()
    parts = [(2, t.key)] + ([(3, t.value)] if isinstance(t, T.Dict) else [])
    counted = [(i, pt) for i, pt in parts if T.contains_array(pt)]
    if counted:
        entries = _load(b, d, EDATA)

        def drop(i: ll.Value) -> None:
            e = _entry(b, entries, i, t)
            with b.if_then(b.icmp_unsigned("!=", b.load(_efield(b, e, 1, t), typ=I8), I8(0))):
                for field, pt in counted:
                    emit_ref(b, b.load(_efield(b, e, field, t), typ=llvm_type(pt)), pt, False)

        _counted(b, _load(b, d, USED), drop)
    release = declare_function(module, nrt.RELEASE, VOID, [PTR])
    for field in (EBLOCK, IBLOCK):
        block = _load(b, d, field)
        with b.if_then(b.icmp_unsigned("!=", block, NULL)):
            b.call(release, [block])
    b.call(release, [d])
    b.ret_void()
    return fn


# --- exceptions ---------------------------------------------------------------------------


def descriptor(module: ll.Module, exc: type, message: str) -> ll.Value:
    """A constant exception descriptor `{slot, message}` (as `raise` makes)."""
    data = message.encode("utf-8")
    name = f"jitcore.exc.{exc.__name__}.{S.fnv1a(data) & S.MASK64:016x}"
    existing = module.globals.get(name)
    if existing is not None:
        return existing
    text_t = ll.ArrayType(I8, len(data) + 1)
    text = ll.GlobalVariable(module, text_t, name=name + ".msg")
    text.global_constant = True
    text.linkage = "private"
    text.initializer = ll.Constant(text_t, bytearray(data + b"\0"))
    desc = ll.GlobalVariable(module, EXC_DESCRIPTOR, name=name)
    desc.global_constant = True
    desc.linkage = "private"
    desc.initializer = ll.Constant(EXC_DESCRIPTOR, [exception_slot(module, exc), text, NULL])
    return desc


def key_error(module: ll.Module, t: T.Type) -> ll.Value:
    return descriptor(module, KeyError, f"key not found (a {t.name} key)")


def _key_error_with_key(b: ll.IRBuilder, key: ll.Value, t: T.Type) -> ll.Value:
    """`KeyError(key)` as Python raises it (a formatted exception, `runtime.excring`); keys a
    message cannot carry (tuples) name their type instead."""
    code = value_code(t)
    if code is None:
        return key_error(b.module, t)
    return write_formatted(b, KeyError, "{}", VALUE, code, [(key, t)])


# --- the operations low IR calls -------------------------------------------------------------
# Each builder receives the function (kernel convention: `ret` first), its builder and the
# container type, and emits the body.

OpBuilder = Callable[[ll.IRBuilder, ll.Function, T.Type], None]
_OPS: dict[str, tuple[OpBuilder, Callable[[T.Type], list[T.Type]]]] = {}


def _op(name: str, args: Callable[[T.Type], list[T.Type]]):  # noqa: ANN202
    def wrap(builder: OpBuilder) -> OpBuilder:
        _OPS[name] = (builder, args)
        return builder

    return wrap


def _kv(t: T.Type) -> tuple[T.Type, T.Type]:
    assert isinstance(t, T.Dict)
    return t.key, t.value


def _find(b: ll.IRBuilder, d: ll.Value, key: ll.Value, t) -> tuple[ll.Value, ll.Value]:  # noqa: ANN001
    """(slot or -1, hash) of `key`."""
    h = hash_value(b, key, t.key)
    return b.call(lookup(b.module, t), [d, key, h]), h


def _entry_at_slot(b: ll.IRBuilder, d: ll.Value, slot: ll.Value, t) -> ll.Value:  # noqa: ANN001
    ix = b.load(_slot(b, _load(b, d, IDATA), slot), typ=I64)
    return _entry(b, _load(b, d, EDATA), ix, t)


def _memory_error(b: ll.IRBuilder, ok: ll.Value) -> None:
    with b.if_then(b.not_(ok), likely=False):
        b.ret(descriptor(b.module, MemoryError, "cannot grow the dict or set"))


@_op("new", lambda t: [])
def _new(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
    alloc = declare_function(b.module, nrt.ALLOC, PTR, [I64])
    d = b.call(alloc, [I64(HEADER_BYTES)])
    with b.if_then(b.icmp_unsigned("==", d, NULL), likely=False):
        b.ret(descriptor(b.module, MemoryError, "cannot allocate a dict or set"))
    b.store(
        ll.Constant(HEADER, [I64(0), I64(0), I64(0), I64(-1), NULL, NULL, NULL, NULL]),
        S.block_data(b, d),
    )
    b.store(d, fn.args[0])
    b.ret(NULL)


@_op("setitem", lambda t: [t, *_kv(t)])
def _setitem(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
    assert isinstance(t, T.Dict)
    _, d, key, value = fn.args
    slot, h = _find(b, d, key, t)
    with b.if_then(b.icmp_signed(">=", slot, I64(0))):
        field = _efield(b, _entry_at_slot(b, d, slot, t), 3, t)
        emit_ref(b, value, t.value, True)  # type: ignore[attr-defined]
        old = b.load(field, typ=llvm_type(t.value))  # type: ignore[attr-defined]
        b.store(value, field)
        emit_ref(b, old, t.value, False)  # type: ignore[attr-defined]
        b.ret(NULL)
    _memory_error(b, _insert_new(b, d, key, value, h, t))
    b.ret(NULL)


@_op("add", lambda t: [t, t.key])  # type: ignore[attr-defined]
def _add(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
    _, s, key = fn.args
    slot, h = _find(b, s, key, t)
    with b.if_then(b.icmp_signed(">=", slot, I64(0))):
        b.ret(NULL)
    _memory_error(b, _insert_new(b, s, key, None, h, t))
    b.ret(NULL)


@_op("contains", lambda t: [t, t.key])  # type: ignore[attr-defined]
def _contains(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
    ret, d, key = fn.args
    slot, _ = _find(b, d, key, t)
    b.store(b.icmp_signed(">=", slot, I64(0)), ret)
    b.ret(NULL)


def _read_value(b: ll.IRBuilder, d: ll.Value, slot: ll.Value, t) -> ll.Value:  # noqa: ANN001
    value = b.load(_efield(b, _entry_at_slot(b, d, slot, t), 3, t), typ=llvm_type(t.value))
    emit_ref(b, value, t.value, True)  # the caller's own reference
    return value


def _slot_or_missing(  # noqa: ANN001
    b: ll.IRBuilder, ret: ll.Value, d: ll.Value, key: ll.Value, t, default: ll.Value | None
) -> ll.Value:
    """The slot holding `key`; when there is none, return from the helper: KeyError without
    a default, else the default (a new reference) as the result."""
    slot, _ = _find(b, d, key, t)
    with b.if_then(b.icmp_signed("<", slot, I64(0)), likely=None if default else False):
        if default is None:
            b.ret(_key_error_with_key(b, key, t.key))
        else:
            emit_ref(b, default, t.value, True)
            b.store(default, ret)
            b.ret(NULL)
    return slot


@_op("getitem", lambda t: [t, t.key])  # type: ignore[attr-defined]
def _getitem(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
    ret, d, key = fn.args
    b.store(_read_value(b, d, _slot_or_missing(b, ret, d, key, t, None), t), ret)
    b.ret(NULL)


@_op("get", lambda t: [t, *_kv(t)])
def _get(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
    ret, d, key, default = fn.args
    b.store(_read_value(b, d, _slot_or_missing(b, ret, d, key, t, default), t), ret)
    b.ret(NULL)


@_op("setdefault", lambda t: [t, *_kv(t)])
def _setdefault(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
    ret, d, key, default = fn.args
    slot, h = _find(b, d, key, t)
    with b.if_then(b.icmp_signed("<", slot, I64(0))):
        _memory_error(b, _insert_new(b, d, key, default, h, t))
        emit_ref(b, default, t.value, True)  # type: ignore[attr-defined]
        b.store(default, ret)
        b.ret(NULL)
    b.store(_read_value(b, d, slot, t), ret)
    b.ret(NULL)


def _remove_at(b: ll.IRBuilder, d: ll.Value, slot: ll.Value, t, keep_value: bool) -> ll.Value:  # noqa: ANN001
    """Delete the entry in `slot`; returns its value (whose reference moves to the caller)
    when `keep_value`, else releases it."""
    e = _entry_at_slot(b, d, slot, t)
    b.store(I8(0), _efield(b, e, 1, t))
    emit_ref(b, b.load(_efield(b, e, 2, t), typ=llvm_type(t.key)), t.key, False)
    value = None
    if isinstance(t, T.Dict):
        value = b.load(_efield(b, e, 3, t), typ=llvm_type(t.value))
        if not keep_value:
            emit_ref(b, value, t.value, False)
    b.store(I64(DUMMY), _slot(b, _load(b, d, IDATA), slot))
    _store(b, d, LEN, b.sub(_load(b, d, LEN), I64(1)))
    return value  # type: ignore[return-value]


@_op("delitem", lambda t: [t, t.key])  # type: ignore[attr-defined]
def _delitem(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
    ret, d, key = fn.args
    _remove_at(b, d, _slot_or_missing(b, ret, d, key, t, None), t, keep_value=False)
    b.ret(NULL)


@_op("discard", lambda t: [t, t.key])  # type: ignore[attr-defined]
def _discard(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
    _, d, key = fn.args
    slot, _ = _find(b, d, key, t)
    with b.if_then(b.icmp_signed(">=", slot, I64(0))):
        _remove_at(b, d, slot, t, keep_value=False)
    b.ret(NULL)


@_op("pop", lambda t: [t, t.key])  # type: ignore[attr-defined]
def _pop(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
    ret, d, key = fn.args
    slot = _slot_or_missing(b, ret, d, key, t, None)
    b.store(_remove_at(b, d, slot, t, keep_value=True), ret)
    b.ret(NULL)


@_op("popdefault", lambda t: [t, *_kv(t)])
def _pop_default(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
    ret, d, key, default = fn.args
    slot = _slot_or_missing(b, ret, d, key, t, default)
    b.store(_remove_at(b, d, slot, t, keep_value=True), ret)
    b.ret(NULL)


@_op("iter", lambda t: [t.container])  # type: ignore[attr-defined]
def _iter(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
    """A view for `for`: the container compacted (so position i is the i-th live entry), with
    its length now; the view holds a reference of its own."""
    assert isinstance(t, T.View)
    ret, d = fn.args
    c = t.container
    n = _load(b, d, LEN)
    with b.if_then(b.icmp_signed("!=", n, _load(b, d, USED)), likely=False):
        _memory_error(b, b.call(resize(b.module, c), [d, _load(b, d, CAP)]))  # type: ignore[arg-type]
    emit_ref(b, d, c, True)
    view = b.insert_value(ll.Constant(llvm_type(t), ll.Undefined), d, 0)
    b.store(b.insert_value(view, n, 1), ret)
    b.ret(NULL)


@_op("viewitem", lambda t: [t, T.I64])
def _view_item(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
    """Item `i` of a view; RuntimeError if the container changed size since the view was made
    (Python raises it at the next step too)."""
    assert isinstance(t, T.View)
    ret, view, i = fn.args
    c = t.container
    d, n = b.extract_value(view, 0), b.extract_value(view, 1)
    changed = b.or_(
        b.icmp_signed("!=", _load(b, d, LEN), n), b.icmp_signed("!=", _load(b, d, USED), n)
    )
    with b.if_then(changed, likely=False):
        what = "dictionary" if isinstance(c, T.Dict) else "Set"
        b.ret(descriptor(b.module, RuntimeError, f"{what} changed size during iteration"))
    e = _entry(b, _load(b, d, EDATA), i, c)  # type: ignore[arg-type]
    key = b.load(_efield(b, e, 2, c), typ=llvm_type(c.key))  # type: ignore[arg-type, attr-defined]
    if t.kind == "keys":
        out, out_t = key, c.key  # type: ignore[attr-defined]
    else:
        value = b.load(_efield(b, e, 3, c), typ=llvm_type(c.value))  # type: ignore[arg-type, attr-defined]
        out, out_t = value, c.value  # type: ignore[attr-defined]
        if t.kind == "items":
            out_t = T.Tuple((c.key, c.value))  # type: ignore[attr-defined]
            out = b.insert_value(ll.Constant(llvm_type(out_t), ll.Undefined), key, 0)
            out = b.insert_value(out, value, 1)
    emit_ref(b, out, out_t, True)
    b.store(out, ret)
    b.ret(NULL)


# String operations in the same convention (the type is always `str`).


def _string_op(name: str, helper: Callable[[ll.Module], ll.Function]) -> None:
    """`streq` / `strcmp` / `strcontains`: the result of a string helper, stored."""

    def build(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
        b.store(b.call(helper(b.module), list(fn.args[1:])), fn.args[0])
        b.ret(NULL)

    _OPS[name] = (build, lambda t: [T.STR, T.STR])


_string_op("streq", S.equal)
_string_op("strcmp", S.compare)
_string_op("strcontains", S.contains)


@_op("strconcat", lambda t: [T.STR, T.STR])
def _str_concat(b: ll.IRBuilder, fn: ll.Function, t: T.Type) -> None:
    s = b.call(S.concat(b.module), list(fn.args[1:]))
    with b.if_then(b.icmp_unsigned("==", s, NULL), likely=False):
        b.ret(descriptor(b.module, MemoryError, "cannot allocate a string"))
    b.store(s, fn.args[0])
    b.ret(NULL)


def define_helper(module: ll.Module, call: ir.NativeCall) -> None:
    """Give the module the body of `call`'s helper (`jitcore.rt.<op>:<type>`), once."""
    define_named(module, call.symbol)


def define_named(module: ll.Module, name: str) -> None:
    """Give the module the body of helper `name`, once (for code that calls it directly)."""
    op, _, type_text = name[len(PREFIX) :].partition(":")
    builder, arg_types = _OPS[op]
    t = T.parse_type(type_text) if type_text else T.STR
    fn = helper_body(module, name, [llvm_type(a) for a in arg_types(t)])
    if fn is None:
        return
    builder(ll.IRBuilder(fn.append_basic_block("entry")), fn, t)


def op_symbol(op: str, t: T.Type) -> str:
    """The helper symbol of `op`, checked to exist (string operations take no type)."""
    if op not in _OPS:
        raise InternalCompilerError(f"no runtime helper {op}")
    return symbol(op) if op.startswith("str") else symbol(op, t)
