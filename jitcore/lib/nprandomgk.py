"""Library kernels of `np.random.Generator` methods, on a Generator passed in from Python or
made in compiled code (`nprandomrng`: lent to the kernels as the `bitgen_t` inside it).

The generator (`g`, IR type `generator`) is the address of its bit generator's C interface;
the primitives `bitgen_u64(g)`, `bitgen_u32(g)` and `bitgen_double(g)` (registered by
`nprandomgen`) call its `next_uint64`, `next_uint32` and `next_double`, so the caller's own
Generator advances in place and every draw is the one NumPy's method would make. The methods
follow NumPy's `Generator` algorithms: `random` is `next_double`; `uniform` is
`low + (high - low) * next_double`; `integers` is Lemire's bounded method (32-bit draws for
ranges below 2**32, 64-bit above, 8- and 16-bit dtypes cut out of one buffered 32-bit draw,
bools one bit each); `shuffle` and `permutation` are Fisher-Yates from the last item down;
`choice` draws through `integers`, Floyd's sampling or a tail shuffle, or the cumulative `p`.
"""

from __future__ import annotations

import math

import numpy as np

from jitcore.lib.nprandomk import (
    _cdf,
    _search_right,
    binomial_one,
    check_binomial,
    check_lam,
    poisson_one,
)
from jitcore.lib.registry import library_kernel as _lib

U32_MAX = 0xFFFFFFFF


def bitgen_u64(g: object) -> np.uint64:
    """`next_uint64` of a passed-in Generator's bit generator (a primitive of compiled code)."""
    raise RuntimeError("bitgen_u64() is a primitive of compiled code")


def bitgen_u32(g: object) -> np.uint32:
    """`next_uint32` of a passed-in Generator's bit generator (a primitive)."""
    raise RuntimeError("bitgen_u32() is a primitive of compiled code")


def bitgen_double(g: object) -> float:
    """`next_double` of a passed-in Generator's bit generator (a primitive)."""
    raise RuntimeError("bitgen_double() is a primitive of compiled code")


# --- floats ------------------------------------------------------------------------------------


@_lib
def random(g):  # noqa: ANN001, ANN201
    return bitgen_double(g)


@_lib
def random_size(g, size):  # noqa: ANN001, ANN201
    out = np.empty(size)
    flat = out.reshape(out.size)
    for i in range(flat.shape[0]):
        flat[i] = bitgen_double(g)
    return out


@_lib
def _span(low, high):  # noqa: ANN001, ANN201
    """Generator.uniform's checks of high - low: finite, and not negative (-0.0 included)."""
    span = high - low
    if not math.isfinite(span):
        raise OverflowError("high - low range exceeds valid bounds")
    if math.copysign(1.0, span) < 0.0:
        raise ValueError("high - low < 0")
    return span


@_lib
def uniform(g, low, high):  # noqa: ANN001, ANN201
    span = _span(low, high)
    return low + span * bitgen_double(g)


@_lib
def uniform_size(g, low, high, size):  # noqa: ANN001, ANN201
    span = _span(low, high)
    out = np.empty(size)
    flat = out.reshape(out.size)
    for i in range(flat.shape[0]):
        flat[i] = low + span * bitgen_double(g)
    return out


# --- integers: Lemire's method ---------------------------------------------------------------


@_lib
def mul128(a, b):  # noqa: ANN001, ANN201
    """The 128-bit product of two uint64 as (high, low) words."""
    m32 = np.uint64(U32_MAX)
    a_lo = a & m32
    a_hi = a >> np.uint64(32)
    b_lo = b & m32
    b_hi = b >> np.uint64(32)
    lo_lo = a_lo * b_lo
    hi_lo = a_hi * b_lo
    lo_hi = a_lo * b_hi
    hi_hi = a_hi * b_hi
    cross = (lo_lo >> np.uint64(32)) + (hi_lo & m32) + lo_hi
    high = (hi_lo >> np.uint64(32)) + (cross >> np.uint64(32)) + hi_hi
    low = (cross << np.uint64(32)) | (lo_lo & m32)
    return high, low


@_lib
def lemire64(g, rng):  # noqa: ANN001, ANN201
    """A uniform uint64 in [0, rng] for rng < 2**64 - 1 (`bounded_lemire_uint64`)."""
    excl = rng + np.uint64(1)
    high, low = mul128(bitgen_u64(g), excl)
    if low < excl:
        threshold = (~np.uint64(0) - rng) % excl
        while low < threshold:
            high, low = mul128(bitgen_u64(g), excl)
    return high


@_lib
def lemire32(g, rng):  # noqa: ANN001, ANN201
    """A uniform value in [0, rng] for rng < 2**32 - 1 (`buffered_bounded_lemire_uint32`),
    as uint64."""
    excl = rng + np.uint64(1)
    m = np.uint64(bitgen_u32(g)) * excl
    left = m & np.uint64(U32_MAX)
    if left < excl:
        threshold = (np.uint64(U32_MAX) - rng) % excl
        while left < threshold:
            m = np.uint64(bitgen_u32(g)) * excl
            left = m & np.uint64(U32_MAX)
    return m >> np.uint64(32)


@_lib
def bounded64(g, rng):  # noqa: ANN001, ANN201
    """A uniform uint64 in [0, rng] as `random_bounded_uint64` draws it (Lemire)."""
    if rng == np.uint64(0):
        return rng
    if rng <= np.uint64(U32_MAX):
        if rng == np.uint64(U32_MAX):
            return np.uint64(bitgen_u32(g))
        return lemire32(g, rng)
    if rng == ~np.uint64(0):
        return bitgen_u64(g)
    return lemire64(g, rng)


@_lib
def fill_lemire(g, flat, low, rng, bits):  # noqa: ANN001, ANN201
    """flat[i] = low + a uniform value in [0, rng], drawn as NumPy's
    `random_bounded_uint{bits}_fill` draws them with Lemire's method (`rng` uint64)."""
    n = flat.shape[0]
    off = np.uint64(np.int64(low))
    if bits >= 32 and np.uint64(0) < rng < np.uint64(U32_MAX):  # the hot loop, spelled out
        excl = rng + np.uint64(1)
        threshold = (np.uint64(U32_MAX) - rng) % excl
        for i in range(n):
            m = np.uint64(bitgen_u32(g)) * excl
            left = m & np.uint64(U32_MAX)
            while left < threshold:  # (left < excl, NumPy's shortcut, only skips this test)
                m = np.uint64(bitgen_u32(g)) * excl
                left = m & np.uint64(U32_MAX)
            flat[i] = flat.dtype.type(off + (m >> np.uint64(32)))
        return
    if bits >= 32:
        for i in range(n):
            flat[i] = flat.dtype.type(off + bounded64(g, rng))
        return
    # 16-, 8- and 1-bit values come out of one buffered 32-bit draw
    per = 1 if bits == 16 else (3 if bits == 8 else 31)
    full = np.uint64((1 << bits) - 1)
    excl = rng + np.uint64(1)
    threshold = (full - rng) % excl if rng != full else np.uint64(0)
    buf = np.uint32(0)
    count = 0
    for i in range(n):
        if rng == np.uint64(0):
            flat[i] = flat.dtype.type(off)
            continue
        v, buf, count = _buffered(g, buf, count, per, bits)
        if bits == 1 or rng == full:  # a bool is one bit; the full range needs no rejection
            flat[i] = flat.dtype.type(off + v)
            continue
        m = v * excl
        left = m & full
        if left < excl:
            while left < threshold:
                v, buf, count = _buffered(g, buf, count, per, bits)
                m = v * excl
                left = m & full
        flat[i] = flat.dtype.type(off + (m >> np.uint64(bits)))


@_lib
def _buffered(g, buf, count, per, bits):  # noqa: ANN001, ANN201
    """The next `bits`-bit value cut out of a buffered 32-bit draw (`buffered_uint16`,
    `buffered_uint8`, the bool's bit): (value as uint64, buffer, values left in it)."""
    if count == 0:
        buf = bitgen_u32(g)
        count = per
    else:
        buf >>= np.uint32(bits)
        count -= 1
    return np.uint64(buf) & np.uint64((1 << bits) - 1), buf, count


@_lib
def integers(g, low, top, bits, example):  # noqa: ANN001, ANN201
    """One draw from the closed range [low, top] (checked by the rule), of the type of
    `example` (a zero of the result dtype)."""
    out = np.full(1, example)
    fill_lemire(g, out, low, np.uint64(np.int64(top)) - np.uint64(np.int64(low)), bits)
    return out[0]


@_lib
def integers_size(g, low, top, bits, example, size):  # noqa: ANN001, ANN201
    out = np.full(size, example)
    rng = np.uint64(np.int64(top)) - np.uint64(np.int64(low))
    fill_lemire(g, out.reshape(out.size), low, rng, bits)
    return out


# --- shuffle, permutation, choice --------------------------------------------------------------


@_lib
def interval(g, top):  # noqa: ANN001, ANN201
    """A uniform int in [0, top] by masked rejection (`random_interval`), top >= 0."""
    if top == 0:
        return 0
    mask = top
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    mask |= mask >> 32
    if top <= U32_MAX:
        value = np.int64(bitgen_u32(g)) & mask
        while value > top:
            value = np.int64(bitgen_u32(g)) & mask
        return value
    value = np.int64(bitgen_u64(g) & np.uint64(mask))
    while value > top:
        value = np.int64(bitgen_u64(g) & np.uint64(mask))
    return value


@_lib
def shuffle_flat(g, x, first):  # noqa: ANN001, ANN201
    """Fisher-Yates on a 1-D array down to position `first` (`_shuffle_raw`)."""
    for i in range(x.shape[0] - 1, first - 1, -1):
        j = interval(g, i)
        x[i], x[j] = x[j], x[i]


@_lib
def shuffle_ints(g, x, first):  # noqa: ANN001, ANN201
    """Fisher-Yates of int64 indices with Lemire's draws (`_shuffle_int`)."""
    for i in range(x.shape[0] - 1, first - 1, -1):
        j = np.int64(bounded64(g, np.uint64(i)))
        x[i], x[j] = x[j], x[i]


@_lib
def shuffle(g, x):  # noqa: ANN001, ANN201
    shuffle_flat(g, x, 1)


@_lib
def shuffle_rows(g, x):  # noqa: ANN001, ANN201
    """Along the first axis through a copy of one row, skipping i == j."""
    if x.size == 0:
        return
    for i in range(x.shape[0] - 1, 0, -1):
        j = interval(g, i)
        if i != j:
            row = x[j].copy()
            x[j] = x[i]
            x[i] = row


@_lib
def permutation_n(g, n):  # noqa: ANN001, ANN201
    out = np.arange(n)
    shuffle_flat(g, out, 1)
    return out


@_lib
def permutation(g, x):  # noqa: ANN001, ANN201
    out = x.copy()
    shuffle_flat(g, out, 1)
    return out


@_lib
def permutation_rows(g, x):  # noqa: ANN001, ANN201
    order = permutation_n(g, x.shape[0])
    out = np.empty_like(x)
    for i in range(order.shape[0]):
        out[i] = x[order[i]]
    return out


@_lib
def _count(size):  # noqa: ANN001, ANN201
    count = 1
    for n in size:
        count *= n
    return count


@_lib
def _check_population(pop, count, is_array):  # noqa: ANN001, ANN201
    if is_array:
        if pop == 0 and count != 0:
            raise ValueError("a cannot be empty unless no samples are taken")
    elif pop <= 0 and count != 0:
        raise ValueError("a must be a positive integer unless no samples are taken")


@_lib
def _check_p(p, pop, atol):  # noqa: ANN001, ANN201
    """Generator.choice's checks of `p` (Kahan-summed, as NumPy sums it)."""
    if p.shape[0] != pop:
        raise ValueError("a and p must have same size")
    total = 0.0
    if pop > 0:
        total = p[0] * 1.0
        c = 0.0
        for i in range(1, pop):
            y = p[i] - c
            t = total + y
            c = (t - total) - y
            total = t
    if np.isnan(total):
        raise ValueError("Probabilities contain NaN")
    for i in range(pop):
        if p[i] < 0:
            raise ValueError("Probabilities are not non-negative")
    if abs(total - 1.0) > atol:
        raise ValueError(
            "Probabilities do not sum to 1. See Notes section of docstring for more information."
        )


@_lib
def _sample(g, pop, count, flat):  # noqa: ANN001, ANN201
    """`count` distinct indices of range(pop) in NumPy's order: a tail shuffle of the whole
    range for large samples, else Floyd's algorithm over a hash set, then a shuffle."""
    if pop > 10000 and count > pop // 50:
        idx = np.arange(pop)
        shuffle_ints(g, idx, max(pop - count, 1))
        for i in range(count):
            flat[i] = idx[pop - count + i]
        return
    set_size = np.uint64(np.int64(1.2 * count))
    mask = set_size
    mask |= mask >> np.uint64(1)
    mask |= mask >> np.uint64(2)
    mask |= mask >> np.uint64(4)
    mask |= mask >> np.uint64(8)
    mask |= mask >> np.uint64(16)
    mask |= mask >> np.uint64(32)
    empty = ~np.uint64(0)
    table = np.full(np.int64(mask) + 1, empty)
    for j in range(pop - count, pop):
        val = bounded64(g, np.uint64(j))
        loc = np.int64(val & mask)
        while table[loc] != empty and table[loc] != val:
            loc = (loc + 1) & np.int64(mask)
        if table[loc] == empty:
            table[loc] = val
            flat[j - pop + count] = np.int64(val)
        else:
            loc = j & np.int64(mask)
            while table[loc] != empty:
                loc = (loc + 1) & np.int64(mask)
            table[loc] = np.uint64(j)
            flat[j - pop + count] = j
    shuffle_ints(g, flat[:count], 1)


@_lib
def choice_indices(g, pop, is_array, size, replace):  # noqa: ANN001, ANN201
    count = _count(size)
    _check_population(pop, count, is_array)
    if not replace:
        if count > pop:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        if count < 0:
            raise ValueError("negative dimensions are not allowed")
    out = np.empty(size, np.int64)
    flat = out.reshape(out.size)
    if replace:
        if count > 0:
            fill_lemire(g, flat, 0, np.uint64(pop - 1), 64)
        return out
    if count > 0:
        _sample(g, pop, count, flat)
    return out


@_lib
def choice_indices_p(g, pop, is_array, size, replace, p, atol):  # noqa: ANN001, ANN201
    count = _count(size)
    _check_population(pop, count, is_array)
    _check_p(p, pop, atol)
    if not replace:
        if count > pop:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        if count < 0:
            raise ValueError("negative dimensions are not allowed")
        nonzero = 0
        for i in range(pop):
            if p[i] > 0:
                nonzero += 1
        if nonzero < count:
            raise ValueError("Fewer non-zero entries in p than size")
    out = np.empty(size, np.int64)
    flat = out.reshape(out.size)
    if replace:
        cdf = _cdf(p)
        for i in range(count):
            flat[i] = _search_right(cdf, bitgen_double(g))
        return out
    weights = np.empty(pop)
    for i in range(pop):
        weights[i] = p[i]
    taken = np.zeros(pop, np.bool_)
    found = 0
    while found < count:
        want = count - found
        draws = np.empty(want)
        for i in range(want):
            draws[i] = bitgen_double(g)
        for i in range(found):
            weights[flat[i]] = 0.0
        cdf = _cdf(weights)
        for i in range(want):
            j = _search_right(cdf, draws[i])
            if not taken[j]:
                taken[j] = True
                flat[found] = j
                found += 1
    return out


# --- Poisson ---------------------------------------------------------------------------------


@_lib
def poisson(g, lam):  # noqa: ANN001, ANN201
    """`random_poisson`, NumPy's legacy functions and Generators share it (`poisson_one`)."""
    check_lam(lam)
    return poisson_one(g, lam)


@_lib
def poisson_size(g, lam, size):  # noqa: ANN001, ANN201
    check_lam(lam)
    out = np.empty(size, np.int64)
    flat = out.reshape(out.size)
    for i in range(flat.shape[0]):
        flat[i] = poisson_one(g, lam)
    return out


@_lib
def binomial(g, n, p):  # noqa: ANN001, ANN201
    """`random_binomial`, shared with the legacy function (`binomial_one`)."""
    check_binomial(n, p)
    return binomial_one(g, n, p)


@_lib
def binomial_size(g, n, p, size):  # noqa: ANN001, ANN201
    check_binomial(n, p)
    out = np.empty(size, np.int64)
    flat = out.reshape(out.size)
    for i in range(flat.shape[0]):
        flat[i] = binomial_one(g, n, p)
    return out
