"""PCG64, the bit generator of a `np.random.Generator` made in compiled code.

`np.random.default_rng(seed)` inside compiled code (`jitcore.lib.nprandomrng`) makes a
Generator that owns a runtime memory block (`nrt`) holding two things: a NumPy `bitgen_t`
(`{void *state; next_uint64; next_uint32; next_double; next_raw}`) whose function pointers
point at this module's PCG64 functions, and the PCG64 state they draw from. Every compiled
Generator method, and each of NumPy's C distribution functions, takes a `bitgen_t *` and
draws through its function pointers, so they work on such a Generator unchanged.

| bytes of the block's data | what                                                         |
|---------------------------|--------------------------------------------------------------|
| 0..40                     | the `bitgen_t`; its `state` points at byte 48                |
| 48                        | i128 LCG state (NumPy's `pcg64_state.pcg_state->state`)      |
| 64                        | i128 increment, odd (`->inc`)                                |
| 80                        | i32 `has_uint32`: a buffered high half is waiting            |
| 84                        | u32 `uinteger`: that half                                    |

The functions are NumPy's (`pcg64.h`, with 128-bit integers, its default build): a step is
`state = state * MULTIPLIER + inc`; `next_uint64` steps, then outputs XSL-RR of the new state
(the two halves xor-ed, rotated right by the state's top 6 bits); `next_uint32` returns the
low half of a 64-bit draw and keeps the high half for the next call; `next_double` is
`(next_uint64 >> 11) * 2**-53`. Seeding is `pcg64_set_seed`: `state = 0`,
`inc = (initinc << 1) | 1`, step, `state += initstate`, step, nothing buffered. The four
64-bit words `initstate` and `initinc` are made of come from NumPy's SeedSequence, which a
library kernel computes (`nprandomrng.seed_sequence`).

Exported, both in the kernel calling convention (result through `ret`, null returned):
`INIT(ptr ret, ptr block, i64 state_hi, i64 state_lo, i64 inc_hi, i64 inc_lo)` fills a
block of at least `BYTES` data bytes and gives the block back through `ret` (the Generator
value, which takes over the block's reference); `ENTROPY(ptr ret)` gives 64 bits of the OS's
entropy (`getrandom`), for `default_rng()` without a seed. The draw functions stay internal:
compiled code reaches them only through the `bitgen_t`, filled in here, in the process that
runs, so no address is part of any machine code (cached code stays valid elsewhere).
"""

from __future__ import annotations

from llvmlite import ir as ll

I8, I32, I64, I128 = ll.IntType(8), ll.IntType(32), ll.IntType(64), ll.IntType(128)
F64 = ll.DoubleType()
PTR = ll.PointerType()
NULL = ll.Constant(PTR, None)
BLOCK = ll.LiteralStructType([I64, I64, PTR, PTR])  # nrt's block header (its data: field 2)

INIT = "jitcore_rt_pcg64_init"
ENTROPY = "jitcore_rt_entropy64"
EXPORTS = (INIT, ENTROPY)

MULTIPLIER = (2549297995355413924 << 64) + 4865540595714422341  # PCG_DEFAULT_MULTIPLIER_128
STATE_OFFSET, INC_OFFSET, HAS_UINT32_OFFSET, UINTEGER_OFFSET = 48, 64, 80, 84
BYTES = 88
# bitgen_t: the state pointer, then next_uint64, next_uint32, next_double, next_raw
_NEXT64, _NEXT32, _NEXT_DOUBLE, _NEXT_RAW = 8, 16, 24, 32


def emit(module: ll.Module) -> None:
    """Add PCG64's draw functions, `INIT` and `ENTROPY` to the runtime module."""
    next64 = _emit_next64(module)
    next32 = _emit_next32(module, next64)
    next_double = _emit_next_double(module, next64)
    _emit_init(module, next64, next32, next_double)
    _emit_entropy(module)


def _at(b: ll.IRBuilder, base: ll.Value, offset: int) -> ll.Value:
    return b.gep(base, [I64(offset)], source_etype=I8)


def _step(b: ll.IRBuilder, st: ll.Value) -> ll.Value:
    """One LCG step of the state `st` points at (byte STATE_OFFSET of the data, which the
    other fields are placed after); returns the new state."""
    inc = b.load(_at(b, st, INC_OFFSET - STATE_OFFSET), typ=I128, align=16)
    state = b.add(b.mul(b.load(st, typ=I128, align=16), I128(MULTIPLIER)), inc)
    b.store(state, st, align=16)
    return state


def _internal(module: ll.Module, name: str, ret: ll.Type) -> tuple[ll.Function, ll.IRBuilder]:
    fn = ll.Function(module, ll.FunctionType(ret, [PTR]), name=name)
    fn.linkage = "internal"
    return fn, ll.IRBuilder(fn.append_basic_block("entry"))


def _emit_next64(module: ll.Module) -> ll.Function:
    """`uint64_t next_uint64(void *st)`: a step, then XSL-RR of the new state."""
    fn, b = _internal(module, "jitcore_rt_pcg64_next64", I64)
    state = _step(b, fn.args[0])
    x = b.xor(b.trunc(b.lshr(state, I128(64)), I64), b.trunc(state, I64))
    rot = b.trunc(b.lshr(state, I128(122)), I64)
    left = b.and_(b.sub(I64(0), rot), I64(63))  # (64 - rot) % 64, so rot = 0 shifts by 0
    b.ret(b.or_(b.lshr(x, rot), b.shl(x, left)))
    return fn


def _emit_next32(module: ll.Module, next64: ll.Function) -> ll.Function:
    """`uint32_t next_uint32(void *st)`: the buffered high half if there is one, else the low
    half of a 64-bit draw, keeping its high half."""
    fn, b = _internal(module, "jitcore_rt_pcg64_next32", I32)
    st = fn.args[0]
    has = _at(b, st, HAS_UINT32_OFFSET - STATE_OFFSET)
    kept = _at(b, st, UINTEGER_OFFSET - STATE_OFFSET)
    with b.if_then(b.icmp_unsigned("!=", b.load(has, typ=I32), I32(0)), likely=False):
        b.store(I32(0), has)
        b.ret(b.load(kept, typ=I32))
    draw = b.call(next64, [st])
    b.store(I32(1), has)
    b.store(b.trunc(b.lshr(draw, I64(32)), I32), kept)
    b.ret(b.trunc(draw, I32))
    return fn


def _emit_next_double(module: ll.Module, next64: ll.Function) -> ll.Function:
    """`double next_double(void *st)`: the top 53 bits of a 64-bit draw, times 2**-53."""
    fn, b = _internal(module, "jitcore_rt_pcg64_next_double", F64)
    top = b.lshr(b.call(next64, [fn.args[0]]), I64(11))
    b.ret(b.fmul(b.uitofp(top, F64), ll.Constant(F64, 2.0**-53)))
    return fn


def _emit_init(
    module: ll.Module, next64: ll.Function, next32: ll.Function, next_double: ll.Function
) -> None:
    """`INIT(ptr ret, ptr block, state_hi, state_lo, inc_hi, inc_lo) -> null`: the bitgen_t
    and `pcg64_set_seed` in the block's data; `*ret = block`."""
    fn = ll.Function(module, ll.FunctionType(PTR, [PTR, PTR, I64, I64, I64, I64]), name=INIT)
    ret, block, state_hi, state_lo, inc_hi, inc_lo = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    data = b.load(b.gep(block, [I32(0), I32(2)], inbounds=True, source_etype=BLOCK), typ=PTR)
    st = _at(b, data, STATE_OFFSET)
    b.store(st, data)
    for offset, draw in ((_NEXT64, next64), (_NEXT32, next32), (_NEXT_DOUBLE, next_double)):
        b.store(draw, _at(b, data, offset))
    b.store(next64, _at(b, data, _NEXT_RAW))  # NumPy's PCG64: next_raw is next_uint64

    def wide(hi: ll.Value, lo: ll.Value) -> ll.Value:
        return b.or_(b.shl(b.zext(hi, I128), I128(64)), b.zext(lo, I128))

    initinc = wide(inc_hi, inc_lo)
    b.store(I128(0), st, align=16)
    b.store(b.or_(b.shl(initinc, I128(1)), I128(1)), _at(b, data, INC_OFFSET), align=16)
    _step(b, st)
    seeded = b.add(b.load(st, typ=I128, align=16), wide(state_hi, state_lo))
    b.store(seeded, st, align=16)
    _step(b, st)
    b.store(I32(0), _at(b, data, HAS_UINT32_OFFSET))
    b.store(I32(0), _at(b, data, UINTEGER_OFFSET))
    b.store(block, ret)
    b.ret(NULL)


def _emit_entropy(module: ll.Module) -> None:
    """`ENTROPY(ptr ret) -> null`: 8 bytes from `getrandom` into `*ret`; should the OS give
    none, splitmix64 of the time, the address of `ret` and a process-wide counter (distinct
    numbers, if not unpredictable ones)."""
    fn = ll.Function(module, ll.FunctionType(PTR, [PTR]), name=ENTROPY)
    ret = fn.args[0]
    getrandom = module.globals.get("getrandom") or ll.Function(
        module, ll.FunctionType(I64, [PTR, I64, I32]), name="getrandom"
    )
    time = module.globals.get("time") or ll.Function(
        module, ll.FunctionType(I64, [PTR]), name="time"
    )
    counter = ll.GlobalVariable(module, I64, name="jitcore_rt_entropy_counter")
    counter.initializer = I64(0)
    counter.linkage = "internal"
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    got = b.call(getrandom, [ret, I64(8), I32(0)])
    with b.if_then(b.icmp_signed("!=", got, I64(8)), likely=False):
        count = b.atomic_rmw("add", counter, I64(1), "monotonic")
        x = b.xor(b.xor(b.call(time, [NULL]), b.ptrtoint(ret, I64)), b.shl(count, I64(40)))
        z = b.add(x, I64(0x9E3779B97F4A7C15 - (1 << 64)))
        z = b.mul(b.xor(z, b.lshr(z, I64(30))), I64(0xBF58476D1CE4E5B9 - (1 << 64)))
        z = b.mul(b.xor(z, b.lshr(z, I64(27))), I64(0x94D049BB133111EB - (1 << 64)))
        b.store(b.xor(z, b.lshr(z, I64(31))), ret)
    b.ret(NULL)
