"""The native half of the dispatcher's type table (`jitcore.typetable`): compute each
argument's key words from its PyObject, hash them, and probe the table for an entry point.

In:  the trampoline being generated, positioned where its linear cases gave up.
Out: code that tail-calls the entry point found, or branches to `miss`.
The words and the hash must stay in step with `typetable.key_words` / `hash_words`.
"""

from __future__ import annotations

from llvmlite import ir as ll

from jitcore.codegen.boxing import NPY_ARRAY_WRITEABLE
from jitcore.codegen.types import I8, I32, I64, PTR
from jitcore.typetable import ARRAY_MARK, LAYOUT_CODES, MIX, NEVER


def _u64(value: int) -> ll.Constant:
    """An i64 constant from an unsigned 64-bit value (LLVM constants are signed)."""
    return I64(value - (1 << 64) if value >= 1 << 63 else value)


NPY_ARRAY_C_CONTIGUOUS = 0x1
NPY_ARRAY_F_CONTIGUOUS = 0x2


def probe_table(
    b: ll.IRBuilder,
    args: ll.Value,
    nparams: int,
    header: ll.Value,
    ndarray_type: ll.Value,
    entry_t: ll.FunctionType,
    nargs: ll.Value,
    miss: ll.Block,
) -> None:
    """Emit the lookup in the table whose header `header` points to (`ndarray_type`: the
    address of NumPy's array type, an i64); the builder's block ends (a tail call or a branch
    to `miss`)."""
    fn = b.function
    words: list[ll.Value] = []
    for i in range(nparams):
        obj = b.load(b.gep(args, [I64(i)], source_etype=PTR), typ=PTR)
        ob_type = _field(b, obj, 8, I64)
        words += [ob_type, _second_word(b, obj, ob_type, ndarray_type)]
    h: ll.Value = I64(0)
    for word in words:
        h = b.mul(b.xor(h, word), _u64(MIX))
        h = b.xor(h, b.lshr(h, I64(29)))
    mask = b.load(header, typ=I64)
    base = b.load(b.gep(header, [I64(1)], source_etype=I64), typ=PTR)
    first = b.and_(h, mask)
    start = b.block
    loop = fn.append_basic_block("probe")
    compare = fn.append_basic_block("probe.compare")
    hit = fn.append_basic_block("probe.hit")
    step = fn.append_basic_block("probe.next")
    b.branch(loop)

    b.position_at_end(loop)
    slot = b.phi(I64)
    slot.add_incoming(first, start)
    width = 2 * nparams + 1
    entry = b.gep(base, [b.mul(slot, I64(width))], source_etype=I64)
    address = b.load(b.gep(entry, [I64(width - 1)], source_etype=I64), typ=I64)
    b.cbranch(b.icmp_unsigned("==", address, I64(0)), miss, compare)

    b.position_at_end(compare)
    same: ll.Value = ll.Constant(ll.IntType(1), 1)
    for i, word in enumerate(words):
        stored = b.load(b.gep(entry, [I64(i)], source_etype=I64), typ=I64)
        same = b.and_(same, b.icmp_unsigned("==", stored, word))
    b.cbranch(same, hit, step)

    b.position_at_end(step)
    slot.add_incoming(b.and_(b.add(slot, I64(1)), mask), step)
    b.branch(loop)

    b.position_at_end(hit)
    target = b.inttoptr(address, entry_t.as_pointer())
    b.ret(b.call(target, [ll.Constant(PTR, None), args, nargs], tail=True))


def _field(b: ll.IRBuilder, obj: ll.Value, offset: int, typ: ll.Type) -> ll.Value:
    return b.load(b.gep(obj, [I64(offset)], source_etype=I8), typ=typ)


def _second_word(b: ll.IRBuilder, obj: ll.Value, ob_type: ll.Value, ndarray: ll.Value) -> ll.Value:
    """0 for a non-array; for an ndarray its dtype number, ndim and layout, or NEVER for an
    array compiled code must not get (read-only, non-native byte order). Array fields are
    read only after the type check."""
    fn = b.function
    start = b.block
    array = fn.append_basic_block("word.array")
    done = fn.append_basic_block("word.done")
    b.cbranch(b.icmp_unsigned("==", ob_type, ndarray), array, done)

    b.position_at_end(array)
    ndim = b.zext(_field(b, obj, 24, I32), I64)
    descr = _field(b, obj, 56, PTR)
    flags = _field(b, obj, 64, I32)
    type_num = b.zext(_field(b, descr, 28, I32), I64)
    byteorder = _field(b, descr, 26, I8)

    def flag(bit: int) -> ll.Value:
        return b.icmp_unsigned("!=", b.and_(flags, I32(bit)), I32(0))

    layout = b.select(
        flag(NPY_ARRAY_C_CONTIGUOUS),
        I64(LAYOUT_CODES["C"]),
        b.select(flag(NPY_ARRAY_F_CONTIGUOUS), I64(LAYOUT_CODES["F"]), I64(LAYOUT_CODES["A"])),
    )
    word = b.or_(b.or_(type_num, b.shl(ndim, I64(16))), b.shl(layout, I64(32)))
    word = b.or_(word, I64(ARRAY_MARK))
    usable = b.and_(flag(NPY_ARRAY_WRITEABLE), b.icmp_unsigned("!=", byteorder, I8(ord(">"))))
    word = b.select(usable, word, _u64(NEVER))
    array_end = b.block
    b.branch(done)

    b.position_at_end(done)
    phi = b.phi(I64)
    phi.add_incoming(I64(0), start)
    phi.add_incoming(word, array_end)
    return phi
