"""The random-number state of compiled code: one MT19937 state per thread, in the runtime.

Compiled `np.random.*` calls draw from a generator of their own (as Numba's do): Python's
`np.random.seed` does not touch it, `np.random.seed(s)` inside compiled code (or
`jitcore.random.seed(s)` from Python) does. The state must outlive every kernel and be reached
by symbol name, never by an address baked into machine code, because cached object code is
loaded by other processes: so it lives here, in the runtime library `nrt` emits once per
process, behind one exported function.

`jitcore_rt_random_state(ptr ret) -> ptr` (the kernel calling convention: it returns null and
writes its result through `ret`) gives the calling thread's state, or null when no memory could
be had. Each thread has its own state (a POSIX thread-specific key, whose destructor frees it on
thread exit), made and seeded from the OS's entropy (`getrandom`) at its first use: `prange`
workers and threads running `nogil` functions never share a state, so nothing needs a lock and
no thread corrupts another's stream. A process forked from one using compiled random numbers
re-seeds every state at its next use: `count_forks`, registered when the runtime is linked,
bumps `FORKS` in the child (Python's `os.register_at_fork`), and a state seeded in an older
fork generation is re-seeded.

The state, `STATE_BYTES` bytes, is read and written by the library kernels of
`jitcore.lib.nprandomk` through array views of it:

| bytes      | what                                                            |
|------------|-----------------------------------------------------------------|
| 0..2496    | MT19937 key, 624 uint32 words (NumPy's `mt19937_state.key`)      |
| 2496       | uint32 `pos`: the next word to temper (624: twist first)         |
| 2500       | uint32 `has_gauss`: a cached second normal deviate is waiting    |
| 2504       | float64 `gauss`: that deviate (NumPy's legacy polar method)      |
| 2512       | int64: the fork generation the state was seeded in               |
"""

from __future__ import annotations

import ctypes
import os

from llvmlite import ir as ll

I1, I8, I32, I64 = ll.IntType(1), ll.IntType(8), ll.IntType(32), ll.IntType(64)
PTR = ll.PointerType()
NULL = ll.Constant(PTR, None)
VOID = ll.VoidType()

STATE = "jitcore_rt_random_state"
FORKS = "jitcore_rt_random_forks"  # i64: bumped in a forked child, re-seeds every state
# Draws from a NumPy bit generator's C interface (`bitgen_t`): name -> (offset of the function
# pointer in the struct, the LLVM type it returns)
BITGEN_DRAWS = {
    "jitcore_rt_bitgen_next_uint64": (8, ll.IntType(64)),
    "jitcore_rt_bitgen_next_uint32": (16, ll.IntType(32)),
    "jitcore_rt_bitgen_next_double": (24, ll.DoubleType()),
}
LIBM_EXP = "jitcore_rt_libm_exp"  # the C library's exp, as NumPy's C code calls it
BITGEN_NEXT_DOUBLE = "jitcore_rt_bitgen_next_double"
EXPORTS = (STATE, FORKS, *BITGEN_DRAWS, LIBM_EXP)

KEY_WORDS = 624
WORDS = 626  # the key, pos and has_gauss: the uint32 view of the state
POS_WORD = 624
HAS_GAUSS_WORD = 625
GAUSS_OFFSET = 2504
GENERATION_OFFSET = 2512
STATE_BYTES = 2560

_KEY = "jitcore_rt_random_key"  # pthread_key_t (an unsigned int on Linux)
_ONCE = "jitcore_rt_random_once"  # i32: 0 no key yet, 1 being made, 2 made


def count_forks(forks_address: int) -> None:
    """Once the runtime is linked (its `FORKS` counter at `forks_address`): in every child
    forked from now on, bump the counter, so that each state seeded in the parent is re-seeded
    from entropy before its next draw (a process that never linked the runtime has no state
    to protect, and need not import jitcore's compiler to fork)."""
    forks = ctypes.c_int64.from_address(forks_address)

    def bump() -> None:
        forks.value += 1

    os.register_at_fork(after_in_child=bump)


def emit(module: ll.Module) -> None:
    """Add the random-number state and its exported accessor to the runtime module."""
    key = ll.GlobalVariable(module, I32, name=_KEY)
    key.initializer = I32(0)
    key.linkage = "internal"
    once = ll.GlobalVariable(module, I32, name=_ONCE)
    once.initializer = I32(0)
    once.linkage = "internal"
    forks = ll.GlobalVariable(module, I64, name=FORKS)
    forks.initializer = I64(0)
    make_key = _emit_make_key(module, key, once)
    reseed = _emit_reseed(module)
    _emit_state(module, key, once, forks, make_key, reseed)
    for name, (offset, ret) in BITGEN_DRAWS.items():
        _emit_bitgen_draw(module, name, offset, ret)
    _emit_libm_exp(module)


def _emit_libm_exp(module: ll.Module) -> None:
    """`LIBM_EXP(ptr out, double x) -> null`: `*out = exp(x)` of the C library. Compiled
    `math.exp` is jitcore's own (Cephes, within an ULP of the C library's, vectorizable); a
    distribution that compares against `exp` (Poisson's `exp(-lam)`) needs NumPy's exact one."""
    fn = ll.Function(module, ll.FunctionType(PTR, [PTR, ll.DoubleType()]), name=LIBM_EXP)
    out, x = fn.args
    exp = _declare(module, "exp", ll.DoubleType(), [ll.DoubleType()])
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    b.store(b.call(exp, [x]), out)
    b.ret(NULL)


def _emit_bitgen_draw(module: ll.Module, name: str, offset: int, ret: ll.Type) -> None:
    """`name(ptr out, ptr bitgen) -> null`: `*out = bitgen->next_*(bitgen->state)` (the kernel
    calling convention, so that compiled code calls it as any native callee)."""
    fn = ll.Function(module, ll.FunctionType(PTR, [PTR, PTR]), name=name)
    out, bitgen = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    state = b.load(bitgen, typ=PTR)
    fnty = ll.FunctionType(ret, [PTR])
    draw = b.load(b.gep(bitgen, [I64(offset)], source_etype=I8), typ=fnty.as_pointer())
    value = b.call(draw, [state])
    b.store(value, out)
    b.ret(NULL)


def _declare(module: ll.Module, name: str, ret: ll.Type, args: list[ll.Type]) -> ll.Function:
    existing = module.globals.get(name)
    if isinstance(existing, ll.Function):
        return existing
    return ll.Function(module, ll.FunctionType(ret, args), name=name)


def _emit_make_key(module: ll.Module, key: ll.GlobalVariable, once: ll.GlobalVariable):  # noqa: ANN202
    """`make_key()`: create the thread-specific key once per process, whichever thread gets
    here first; the others wait until it exists (a compare-and-swap on `once`)."""
    fn = ll.Function(module, ll.FunctionType(VOID, []), name="jitcore_rt_random_make_key")
    fn.linkage = "internal"
    create = _declare(module, "pthread_key_create", I32, [PTR, PTR])
    free = _declare(module, "free", VOID, [PTR])
    yield_ = _declare(module, "sched_yield", I32, [])
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    won_block, wait, done = (fn.append_basic_block(n) for n in ("won", "wait", "done"))
    pair = b.cmpxchg(once, I32(0), I32(1), "acq_rel", "acquire")
    b.cbranch(b.extract_value(pair, 1), won_block, wait)
    b.position_at_end(won_block)
    b.call(create, [key, free])
    b.store_atomic(I32(2), once, "release", 4)
    b.ret_void()
    b.position_at_end(wait)  # another thread is making the key
    made = b.icmp_unsigned("==", b.load_atomic(once, "acquire", 4), I32(2))
    spin = fn.append_basic_block("spin")
    b.cbranch(made, done, spin)
    b.position_at_end(spin)
    b.call(yield_, [])
    b.branch(wait)
    b.position_at_end(done)
    b.ret_void()
    return fn


def _emit_reseed(module: ll.Module) -> ll.Function:
    """`reseed(state)`: fill the key from the OS's entropy, as NumPy's unseeded `RandomState`
    does; if `getrandom` fails, from splitmix64 of the state's address and the time. The top
    bit of word 0 is set (NumPy's `init_by_array` does the same), so the key is never all
    zeros, the one state MT19937 cannot leave."""
    fn = ll.Function(module, ll.FunctionType(VOID, [PTR]), name="jitcore_rt_random_reseed")
    fn.linkage = "internal"
    state = fn.args[0]
    getrandom = _declare(module, "getrandom", I64, [PTR, I64, I32])
    time = _declare(module, "time", I64, [PTR])
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    need = I64(KEY_WORDS * 4)
    entry = b.block
    loop, more, fallback, done = (
        fn.append_basic_block(n) for n in ("loop", "more", "fallback", "done")
    )
    b.branch(loop)
    b.position_at_end(loop)
    got = b.phi(I64)
    got.add_incoming(I64(0), entry)
    full = b.icmp_signed(">=", got, need)
    b.cbranch(full, done, more)
    b.position_at_end(more)
    n = b.call(getrandom, [b.gep(state, [got], source_etype=I8), b.sub(need, got), I32(0)])
    got.add_incoming(b.add(got, n), b.block)
    b.cbranch(b.icmp_signed(">", n, I64(0)), loop, fallback)
    b.position_at_end(fallback)  # no entropy from the OS: splitmix64 of address and time
    mixed = b.xor(b.ptrtoint(state, I64), b.call(time, [NULL]))
    _splitmix_fill(fn, b, state, mixed)
    b.branch(done)
    b.position_at_end(done)
    word0 = b.gep(state, [I64(0)], source_etype=I32)
    b.store(b.or_(b.load(word0, typ=I32), I32(0x80000000 - (1 << 32))), word0)
    b.store(I32(KEY_WORDS), b.gep(state, [I64(POS_WORD)], source_etype=I32))
    b.store(I32(0), b.gep(state, [I64(HAS_GAUSS_WORD)], source_etype=I32))
    b.store(ll.Constant(ll.DoubleType(), 0.0), b.gep(state, [I64(GAUSS_OFFSET)], source_etype=I8))
    b.ret_void()
    return fn


def _splitmix_fill(fn: ll.Function, b: ll.IRBuilder, state: ll.Value, seed: ll.Value) -> None:
    """Fill the key's words with splitmix64 outputs of `seed`."""
    start = b.block
    loop, after = fn.append_basic_block("mix"), fn.append_basic_block("mixed")
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi(I64)
    x = b.phi(I64)
    i.add_incoming(I64(0), start)
    x.add_incoming(seed, start)
    x1 = b.add(x, I64(0x9E3779B97F4A7C15 - (1 << 64)))
    z = b.mul(b.xor(x1, b.lshr(x1, I64(30))), I64(0xBF58476D1CE4E5B9 - (1 << 64)))
    z = b.mul(b.xor(z, b.lshr(z, I64(27))), I64(0x94D049BB133111EB - (1 << 64)))
    z = b.xor(z, b.lshr(z, I64(31)))
    b.store(b.trunc(z, I32), b.gep(state, [i], source_etype=I32))
    i1 = b.add(i, I64(1))
    i.add_incoming(i1, loop)
    x.add_incoming(x1, loop)
    b.cbranch(b.icmp_signed("<", i1, I64(KEY_WORDS)), loop, after)
    b.position_at_end(after)


def _emit_state(  # noqa: PLR0913
    module: ll.Module,
    key: ll.GlobalVariable,
    once: ll.GlobalVariable,
    forks: ll.GlobalVariable,
    make_key: ll.Function,
    reseed: ll.Function,
) -> None:
    """`jitcore_rt_random_state(ptr ret) -> null`: the calling thread's state through `ret`
    (null when memory is exhausted): made at first use, re-seeded after a fork."""
    fn = ll.Function(module, ll.FunctionType(PTR, [PTR]), name=STATE)
    ret = fn.args[0]
    getspecific = _declare(module, "pthread_getspecific", PTR, [I32])
    setspecific = _declare(module, "pthread_setspecific", I32, [I32, PTR])
    calloc = _declare(module, "calloc", PTR, [I64, I64])
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    with b.if_then(b.icmp_unsigned("!=", b.load_atomic(once, "acquire", 4), I32(2)), False):
        b.call(make_key, [])
    k = b.load(key, typ=I32)
    found = b.call(getspecific, [k])
    found_block = b.block
    fresh_block = fn.append_basic_block("fresh")
    have = fn.append_basic_block("have")
    b.cbranch(b.icmp_unsigned("==", found, NULL), fresh_block, have)
    b.position_at_end(fresh_block)  # this thread's first draw: a zeroed state, to be seeded
    made = b.call(calloc, [I64(1), I64(STATE_BYTES)])
    with b.if_then(b.icmp_unsigned("==", made, NULL), False):
        b.store(NULL, ret)
        b.ret(NULL)
    b.call(setspecific, [k, made])
    generation_slot = b.gep(made, [I64(GENERATION_OFFSET)], source_etype=I8)
    b.store(I64(-1), generation_slot)  # no fork generation is -1: seeded below
    made_block = b.block
    b.branch(have)
    b.position_at_end(have)
    state = b.phi(PTR)
    state.add_incoming(found, found_block)
    state.add_incoming(made, made_block)
    generation = b.gep(state, [I64(GENERATION_OFFSET)], source_etype=I8)
    current = b.load_atomic(forks, "monotonic", 8)
    with b.if_then(b.icmp_signed("!=", b.load(generation, typ=I64), current), False):
        b.call(reseed, [state])
        b.store(current, generation)
    b.store(state, ret)
    b.ret(NULL)
