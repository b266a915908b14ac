"""`np.random.default_rng(seed)` inside compiled code: a Generator owned by compiled code.

`default_rng(seed)` with an int seed gives the Generator NumPy's `default_rng(seed)` gives: a
PCG64 seeded through NumPy's SeedSequence, so every method draws exactly NumPy's numbers.
`default_rng()` (or `None`) seeds it from 128 bits of the OS's entropy, as NumPy does;
`default_rng(rng)` of a Generator returns that Generator.

The lifetime. A Generator made here must outlive every draw from it and be freed after the
last, on every path (loops, early returns, exceptions), whether it is drawn from in this
function or handed to a jitted callee. That is exactly the problem reference counting of
arrays solves, so the Generator is one more reference-counted runtime block, of IR type
`generator(owned)`: `T.contains_array` counts it in, and `refcount` takes and releases its
references as it does an array's or a string's (the last one frees the block; the block holds
no references of its own). The block's data is a NumPy `bitgen_t` whose function pointers
are the runtime's PCG64 functions, followed by the PCG64 state (`jitcore.runtime.pcg64`).
So a method needs no second implementation: it takes a borrowed `generator` (a `bitgen_t *`),
and `nprandomgen.generator_method` casts an owned receiver to one, the `bitgen_t` inside the
block; `refcount` counts a use of that pointer as a use of the Generator, so the block lives
until the draw is done. A Generator passed in from Python stays a borrowed `bitgen_t *` with
no owner, as before. (A one-element array could have held the block too, but then the type
would be an array's, with an array's methods, indexing and boxing; a type of its own is one
case in `contains_array`, the refcount emitter and the cast.)

Not compiled: returning such a Generator, to Python or to a jitted caller (the entry point
cannot box it: a compile-time error with a hint; pass a Generator in instead), seeds that are
arrays or sequences, `SeedSequence` objects, and bit generators other than PCG64
(`np.random.Generator(np.random.MT19937(s))`).
"""

from __future__ import annotations

import numpy as np

from jitcore.errors import TypingError, UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.lib.nprandom import _bind, _call, _is_none, _operand, _result, _value
from jitcore.lib.registry import Operand, Resolved, call_kernel, register_function
from jitcore.lib.registry import library_kernel as _lib
from jitcore.runtime import pcg64

# SeedSequence's constants (NumPy's `bit_generator.pyx`, after O'Neill's seed_seq_fe)
INIT_A = 0x43B0D7E5
MULT_A = 0x931E8875
INIT_B = 0x8B51F9DD
MULT_B = 0x58F38DED
MIX_MULT_L = 0xCA01F9DD
MIX_MULT_R = 0x4973F715
XSHIFT = 16
POOL_SIZE = 4


@_lib
def _hashmix(value, hash_const):  # noqa: ANN001, ANN201
    """SeedSequence's `hashmix`: the hashed uint32 value and the next hash constant."""
    value = value ^ hash_const
    hash_const = hash_const * np.uint32(MULT_A)
    value = value * hash_const
    return value ^ (value >> np.uint32(XSHIFT)), hash_const


@_lib
def _mix(x, y):  # noqa: ANN001, ANN201
    result = np.uint32(MIX_MULT_L) * x - np.uint32(MIX_MULT_R) * y
    return result ^ (result >> np.uint32(XSHIFT))


@_lib
def seed_sequence(e0, e1, e2, e3):  # noqa: ANN001, ANN201
    """`SeedSequence(entropy).generate_state(4, np.uint64)` for an entropy of at most four
    uint32 words `e0..e3`, least significant first (`_coerce_to_uint32_array` of an int: 5 is
    [5], 2**32 is [0, 1]). Missing words are given as 0: `mix_entropy` hashes a zero for each
    pool word past the entropy's end, so [5] and [5, 0, 0, 0] fill the same pool."""
    pool = np.empty(POOL_SIZE, np.uint32)
    pool[0] = e0
    pool[1] = e1
    pool[2] = e2
    pool[3] = e3
    hash_const = np.uint32(INIT_A)
    for i in range(POOL_SIZE):
        pool[i], hash_const = _hashmix(pool[i], hash_const)
    for src in range(POOL_SIZE):
        for dst in range(POOL_SIZE):
            if src != dst:
                hashed, hash_const = _hashmix(pool[src], hash_const)
                pool[dst] = _mix(pool[dst], hashed)
    # generate_state: 8 uint32 words cycling through the pool, read as 4 little-endian uint64
    hash_const = np.uint32(INIT_B)
    out = np.zeros(4, np.uint64)
    for i in range(8):
        value = pool[i % POOL_SIZE] ^ hash_const
        hash_const = hash_const * np.uint32(MULT_B)
        value = value * hash_const
        value = value ^ (value >> np.uint32(XSHIFT))
        out[i // 2] |= np.uint64(value) << np.uint64(32 * (i % 2))
    return out[0], out[1], out[2], out[3]


def _halves(b: LowBuilder, word: ir.Value) -> list[ir.Value]:
    """A uint64's two uint32 words, the low one first."""
    high = b.binop("shr", word, ir.Const(32, type=T.U64))
    return [b.cast(word, T.U32), b.cast(high, T.U32)]


@register_function(
    np.random.default_rng,
    params="seed?: int | None",
    notes="a PCG64 Generator made in compiled code, NumPy's numbers for the same seed; "
    "cannot be returned to Python",
    listed_as="np.random.default_rng",
)
def _default_rng(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    what = "np.random.default_rng"
    where = _bind(args, kwargs, ["seed"], what)
    op = _operand(args, kwargs, where, "seed")
    if op is not None and isinstance(op.type, T.Generator):  # NumPy returns it unchanged

        def same(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
            given = _value(v, kw, where, "seed")
            assert given is not None
            return given

        return _result(args, kwargs, op.type, same)
    seeded = op is not None and not _is_none(op)
    if op is not None and seeded and not (isinstance(op.type, T.Scalar) and op.type.kind in "iub"):
        raise (UnsupportedError if isinstance(op.type, T.Array) else TypingError)(
            f"{what}: the seed must be an int or None in compiled code, not {op.type}",
            hint="seed with an int; array, sequence and SeedSequence seeds are not compiled",
        )
    kernel = call_kernel(seed_sequence, [T.U32] * 4)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        if seeded:
            seed = _value(v, kw, where, "seed")
            assert seed is not None and isinstance(seed.type, T.Scalar)
            if seed.type.is_signed:
                negative = b.cmp("lt", seed, ir.Const(0, type=seed.type))
                b.raise_if(negative, ValueError, "expected non-negative integer")
            zero = ir.Const(0, type=T.U32)
            words = [*_halves(b, b.cast(seed, T.U64)), zero, zero]
        else:  # 128 bits of entropy, as NumPy's `randbits(128)`
            words = [
                *_halves(b, b.native_call(pcg64.ENTROPY, [], T.U64)),
                *_halves(b, b.native_call(pcg64.ENTROPY, [], T.U64)),
            ]
        state = _call(b, kernel, words)
        block = b.emit(ir.Alloc(i64(pcg64.BYTES), type=T.PTR))
        null = ir.Const(None, type=T.PTR)
        b.raise_if(b.cmp("eq", block, null), MemoryError, "cannot allocate a Generator")
        parts = [b.extract(state, i) for i in range(4)]
        return b.native_call(pcg64.INIT, [block, *parts], T.OWNED_GENERATOR)

    return _result(args, kwargs, T.OWNED_GENERATOR, lower)
