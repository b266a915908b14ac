"""Library kernels of `np.random` (NumPy's legacy `RandomState` stream), compiled by jitcore.

Every function here draws from the calling thread's MT19937 state in the runtime
(`jitcore.runtime.rngstate`), reached through two primitives `nprandom` registers:
`state_words()` (the key, `pos` and `has_gauss` as 626 uint32 words) and `gauss_cell(st)`
(the cached normal deviate). The algorithms are NumPy's, step for step, so that the same seed
gives the same numbers as `np.random.seed(s)` followed by the same calls in Python:

- MT19937 with `init_genrand` seeding (`mt19937_seed`), 32-bit draws tempered as the reference;
  64-bit draws are two 32-bit ones, high word first;
- `random_sample`: 53 bits from two draws, `(a >> 5) * 2**26 + (b >> 6)) / 2**53`;
- `standard_normal`: the polar Box-Muller method, keeping the second deviate for the next call
  (`legacy_gauss`);
- `randint`: masked rejection sampling, with NumPy's rules for which draws feed which dtype
  (32-bit draws below 2**32, 64-bit above; 16- and 8-bit dtypes split one 32-bit draw into
  2 or 4 values, bools into 32, the buffer starting afresh at every call);
- `shuffle` and `permutation`: Fisher-Yates from the last item down, `random_interval`
  (masked rejection) choosing the partner;
- `choice`: `randint`, a permutation's prefix, or the cumulative distribution of `p`
  searched with uniform draws, as `RandomState.choice` does (with its argument checks).

The public kernels (no leading underscore) are what the `nprandom` rules call: `*_size`
variants take a `size` (an int or a tuple of ints) and return a new array of that shape.
"""

from __future__ import annotations

import math

import numpy as np

from jitcore.lib.registry import library_kernel as _lib

N = 624
M = 397
MATRIX_A = 0x9908B0DF
UPPER = 0x80000000
LOWER = 0x7FFFFFFF
POS = 624
HAS_GAUSS = 625
POISSON_LAM_MAX = 9.223372006484771e18  # iinfo(int64).max - sqrt(iinfo(int64).max) * 10


def state_words() -> np.ndarray:
    """The calling thread's state as 626 uint32 words (a primitive of compiled code)."""
    raise RuntimeError("state_words() is a primitive of compiled code")


def draw_double(source: object) -> float:
    """A double in [0, 1) from `source`: this thread's MT19937 state words (NumPy's legacy
    53-bit double) or a passed-in Generator (its bit generator's `next_double`). A primitive
    of compiled code, so that one kernel serves both (`poisson_one`)."""
    raise RuntimeError("draw_double() is a primitive of compiled code")


def libm_exp(x: float) -> float:
    """The C library's `exp` (a primitive of compiled code: NumPy's C code calls it, and
    compiled `math.exp` is jitcore's own, which may differ in the last bit)."""
    raise RuntimeError("libm_exp() is a primitive of compiled code")


def gauss_cell(st: np.ndarray) -> np.ndarray:
    """The cached normal deviate of state `st`, a float64 array of one item (a primitive)."""
    raise RuntimeError("gauss_cell() is a primitive of compiled code")


# --- MT19937 ----------------------------------------------------------------------------------


@_lib
def mt_seed(st, seed):  # noqa: ANN001, ANN201
    """NumPy's `mt19937_seed` (Knuth's `init_genrand`), and no cached deviate."""
    x = np.uint32(seed)
    st[0] = x
    for i in range(1, N):
        x = np.uint32(1812433253) * (x ^ (x >> np.uint32(30))) + np.uint32(i)
        st[i] = x
    st[POS] = N
    st[HAS_GAUSS] = 0
    gauss_cell(st)[0] = 0.0


@_lib
def mt_twist(st):  # noqa: ANN001, ANN201
    """Regenerate the 624 words (`mt19937_gen`)."""
    for i in range(N - M):
        y = (st[i] & np.uint32(UPPER)) | (st[i + 1] & np.uint32(LOWER))
        st[i] = st[i + M] ^ (y >> np.uint32(1)) ^ (np.uint32(MATRIX_A) * (y & np.uint32(1)))
    for i in range(N - M, N - 1):
        y = (st[i] & np.uint32(UPPER)) | (st[i + 1] & np.uint32(LOWER))
        st[i] = st[i + M - N] ^ (y >> np.uint32(1)) ^ (np.uint32(MATRIX_A) * (y & np.uint32(1)))
    y = (st[N - 1] & np.uint32(UPPER)) | (st[0] & np.uint32(LOWER))
    st[N - 1] = st[M - 1] ^ (y >> np.uint32(1)) ^ (np.uint32(MATRIX_A) * (y & np.uint32(1)))
    st[POS] = 0


@_lib
def temper(y):  # noqa: ANN001, ANN201
    """MT19937's tempering of one word."""
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


@_lib
def word(st, pos):  # noqa: ANN001, ANN201
    """The tempered word at `pos` (twisting first when all 624 are used) and the next `pos`:
    the fills keep `pos` in a register and store it back once."""
    if pos >= N:
        mt_twist(st)
        pos = 0
    return temper(st[pos]), pos + 1


@_lib
def double_from(st, pos):  # noqa: ANN001, ANN201
    """A double in [0, 1) with 53 random bits from two words (`mt19937_next_double`)."""
    a, pos = word(st, pos)
    b, pos = word(st, pos)
    x = np.int64(a >> np.uint32(5)) * 67108864.0 + np.int64(b >> np.uint32(6))
    return x / 9007199254740992.0, pos


@_lib
def next_u32(st):  # noqa: ANN001, ANN201
    """One tempered 32-bit draw (`mt19937_next32`)."""
    y, pos = word(st, np.int64(st[POS]))
    st[POS] = pos
    return y


@_lib
def next_u64(st):  # noqa: ANN001, ANN201
    """A 64-bit draw: two 32-bit draws, the first the high word (`mt19937_next64`)."""
    hi = np.uint64(next_u32(st))
    lo = np.uint64(next_u32(st))
    return (hi << np.uint64(32)) | lo


@_lib
def next_double(st):  # noqa: ANN001, ANN201
    x, pos = double_from(st, np.int64(st[POS]))
    st[POS] = pos
    return x


@_lib
def fill_doubles(st, flat):  # noqa: ANN001, ANN201
    """`flat[i] = next_double(st)` for every i, the two words read straight from the key
    unless a twist comes between (the common case spelled out: it is the hot loop)."""
    pos = np.int64(st[POS])
    for i in range(flat.shape[0]):
        if pos >= N - 1:
            flat[i], pos = double_from(st, pos)
        else:
            a = np.int64(temper(st[pos]) >> np.uint32(5))
            b = np.int64(temper(st[pos + 1]) >> np.uint32(6))
            pos += 2
            flat[i] = (a * 67108864.0 + b) / 9007199254740992.0
    st[POS] = pos


@_lib
def two_doubles(st, pos):  # noqa: ANN001, ANN201
    """Two doubles from four words, read straight from the key unless a twist comes
    between; and the next `pos`."""
    if pos > N - 4:
        x1, pos = double_from(st, pos)
        x2, pos = double_from(st, pos)
        return x1, x2, pos
    a1 = np.int64(temper(st[pos]) >> np.uint32(5))
    b1 = np.int64(temper(st[pos + 1]) >> np.uint32(6))
    a2 = np.int64(temper(st[pos + 2]) >> np.uint32(5))
    b2 = np.int64(temper(st[pos + 3]) >> np.uint32(6))
    x1 = (a1 * 67108864.0 + b1) / 9007199254740992.0
    x2 = (a2 * 67108864.0 + b2) / 9007199254740992.0
    return x1, x2, pos + 4


@_lib
def polar(st, pos):  # noqa: ANN001, ANN201
    """Two standard normal deviates by the polar Box-Muller method (`legacy_gauss`): the
    one NumPy returns and the one it keeps for the next call; and the next `pos`."""
    u1, u2, pos = two_doubles(st, pos)
    x1 = 2.0 * u1 - 1.0
    x2 = 2.0 * u2 - 1.0
    r2 = x1 * x1 + x2 * x2
    while r2 >= 1.0 or r2 == 0.0:
        u1, u2, pos = two_doubles(st, pos)
        x1 = 2.0 * u1 - 1.0
        x2 = 2.0 * u2 - 1.0
        r2 = x1 * x1 + x2 * x2
    f = math.sqrt(-2.0 * math.log(r2) / r2)
    return f * x2, f * x1, pos


@_lib
def fill_gauss(st, cell, flat):  # noqa: ANN001, ANN201
    """Standard normal deviates, each second one kept for the next: the one cached, if any,
    comes first."""
    pos = np.int64(st[POS])
    has = st[HAS_GAUSS] != 0
    kept = cell[0]
    for i in range(flat.shape[0]):
        if has:
            flat[i] = kept
            has = False
            kept = 0.0
        else:
            flat[i], kept, pos = polar(st, pos)
            has = True
    st[POS] = pos
    st[HAS_GAUSS] = 1 if has else 0
    cell[0] = kept


@_lib
def gauss(st, cell):  # noqa: ANN001, ANN201
    """One standard normal deviate (`legacy_gauss`)."""
    if st[HAS_GAUSS] != 0:
        st[HAS_GAUSS] = 0
        value = cell[0]
        cell[0] = 0.0
        return value
    value, kept, pos = polar(st, np.int64(st[POS]))
    st[POS] = pos
    st[HAS_GAUSS] = 1
    cell[0] = kept
    return value


@_lib
def interval(st, top):  # noqa: ANN001, ANN201
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
    if top <= 0xFFFFFFFF:
        value = np.int64(next_u32(st)) & mask
        while value > top:
            value = np.int64(next_u32(st)) & mask
        return value
    value = np.int64(next_u64(st) & np.uint64(mask))
    while value > top:
        value = np.int64(next_u64(st) & np.uint64(mask))
    return value


# --- seeding and the float distributions -------------------------------------------------------


@_lib
def seed(s):  # noqa: ANN001, ANN201
    """`np.random.seed(s)` for an int `s` in [0, 2**32)."""
    if s < 0 or s > 0xFFFFFFFF:
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    mt_seed(state_words(), s)


@_lib
def random_sample():  # noqa: ANN201
    return next_double(state_words())


@_lib
def random_sample_size(size):  # noqa: ANN001, ANN201
    out = np.empty(size)
    fill_doubles(state_words(), out.reshape(out.size))
    return out


@_lib
def standard_normal():  # noqa: ANN201
    st = state_words()
    return gauss(st, gauss_cell(st))


@_lib
def standard_normal_size(size):  # noqa: ANN001, ANN201
    out = np.empty(size)
    st = state_words()
    fill_gauss(st, gauss_cell(st), out.reshape(out.size))
    return out


@_lib
def _check_range(low, high):  # noqa: ANN001, ANN201
    span = high - low
    if not math.isfinite(span):
        raise OverflowError("Range exceeds valid bounds")
    return span


@_lib
def uniform(low, high):  # noqa: ANN001, ANN201
    span = _check_range(low, high)
    return low + span * next_double(state_words())


@_lib
def uniform_size(low, high, size):  # noqa: ANN001, ANN201
    span = _check_range(low, high)
    out = np.empty(size)
    flat = out.reshape(out.size)
    fill_doubles(state_words(), flat)
    for i in range(flat.shape[0]):
        flat[i] = low + span * flat[i]
    return out


@_lib
def _check_scale(scale):  # noqa: ANN001, ANN201
    """NumPy's CONS_NON_NEGATIVE: a negative number or -0.0 raises, NaN passes."""
    if not math.isnan(scale) and math.copysign(1.0, scale) < 0.0:
        raise ValueError("scale < 0")


@_lib
def normal(loc, scale):  # noqa: ANN001, ANN201
    _check_scale(scale)
    st = state_words()
    return loc + scale * gauss(st, gauss_cell(st))


@_lib
def normal_size(loc, scale, size):  # noqa: ANN001, ANN201
    _check_scale(scale)
    out = np.empty(size)
    flat = out.reshape(out.size)
    st = state_words()
    fill_gauss(st, gauss_cell(st), flat)
    for i in range(flat.shape[0]):
        flat[i] = loc + scale * flat[i]
    return out


@_lib
def exponential(scale):  # noqa: ANN001, ANN201
    _check_scale(scale)
    return scale * -math.log(1.0 - next_double(state_words()))


@_lib
def exponential_size(scale, size):  # noqa: ANN001, ANN201
    _check_scale(scale)
    out = np.empty(size)
    flat = out.reshape(out.size)
    fill_doubles(state_words(), flat)
    for i in range(flat.shape[0]):
        flat[i] = scale * -math.log(1.0 - flat[i])
    return out


# --- randint ---------------------------------------------------------------------------------


@_lib
def _mask_of(rng):  # noqa: ANN001, ANN201
    """The smallest all-ones mask >= rng (`gen_mask`), as uint64."""
    mask = rng
    mask |= mask >> np.uint64(1)
    mask |= mask >> np.uint64(2)
    mask |= mask >> np.uint64(4)
    mask |= mask >> np.uint64(8)
    mask |= mask >> np.uint64(16)
    mask |= mask >> np.uint64(32)
    return mask


@_lib
def fill_bounded(st, flat, low, rng, bits):  # noqa: ANN001, ANN201
    """Fill `flat` with low + (a uniform uint in [0, rng]) as NumPy's
    `random_bounded_uint{bits}_fill` draws them (masked rejection). `low` and `rng` are uint64;
    the result is cast to flat's dtype (wrapping, as NumPy's unsigned arithmetic does)."""
    n = flat.shape[0]
    off = np.uint64(np.int64(low))
    if rng == np.uint64(0):
        for i in range(n):
            flat[i] = flat.dtype.type(off)
        return
    mask = _mask_of(rng)
    if bits == 64 and rng > np.uint64(0xFFFFFFFF):
        if rng == ~np.uint64(0):
            for i in range(n):
                flat[i] = flat.dtype.type(off + next_u64(st))
            return
        for i in range(n):
            v = next_u64(st) & mask
            while v > rng:
                v = next_u64(st) & mask
            flat[i] = flat.dtype.type(off + v)
        return
    if bits >= 32:
        if rng == np.uint64(0xFFFFFFFF):
            mask = rng  # every draw fits: nothing is rejected
        pos = np.int64(st[POS])
        for i in range(n):
            if pos >= N:
                mt_twist(st)
                pos = 0
            v = np.uint64(temper(st[pos])) & mask
            pos += 1
            while v > rng:
                if pos >= N:
                    mt_twist(st)
                    pos = 0
                v = np.uint64(temper(st[pos])) & mask
                pos += 1
            flat[i] = flat.dtype.type(off + v)
        st[POS] = pos
        return
    # 16-, 8- and 1-bit values come out of one buffered 32-bit draw
    per = 1 if bits == 16 else (3 if bits == 8 else 31)  # draws left in the buffer
    width = np.uint32(bits if bits > 1 else 1)
    full = np.uint64((1 << bits) - 1)
    buf = np.uint32(0)
    count = 0
    for i in range(n):
        while True:
            if count == 0:
                buf = next_u32(st)
                count = per
            else:
                buf >>= width
                count -= 1
            v = np.uint64(buf) & full
            if bits == 1 or rng == full:
                break
            v &= mask
            if v <= rng:
                break
        flat[i] = flat.dtype.type(off + v)


@_lib
def randint(low, high, bits, example):  # noqa: ANN001, ANN201
    """One draw from [low, high) (checked by the rule), of the type of `example` (a zero of
    the result dtype)."""
    out = np.full(1, example)
    fill_bounded(
        state_words(), out, low, np.uint64(np.int64(high - 1)) - np.uint64(np.int64(low)), bits
    )
    return out[0]


@_lib
def randint_size(low, high, bits, example, size):  # noqa: ANN001, ANN201
    """An array of shape `size` of draws from [low, high)."""
    out = np.full(size, example)
    rng = np.uint64(np.int64(high - 1)) - np.uint64(np.int64(low))
    fill_bounded(state_words(), out.reshape(out.size), low, rng, bits)
    return out


# --- shuffle, permutation, choice --------------------------------------------------------------


@_lib
def shuffle_flat(st, x):  # noqa: ANN001, ANN201
    """Fisher-Yates on a 1-D array (`_shuffle_raw`): the partner of item i is
    `random_interval(i)`, masked rejection of 32-bit draws (read straight from the key, the
    position in a register) or, past 2**32 items, of 64-bit ones."""
    pos = np.int64(st[POS])
    for i in range(x.shape[0] - 1, 0, -1):
        if i > 0xFFFFFFFF:
            st[POS] = pos
            j = interval(st, i)
            pos = np.int64(st[POS])
        else:
            mask = i
            mask |= mask >> 1
            mask |= mask >> 2
            mask |= mask >> 4
            mask |= mask >> 8
            mask |= mask >> 16
            if pos >= N:
                mt_twist(st)
                pos = 0
            j = np.int64(temper(st[pos])) & mask
            pos += 1
            while j > i:
                if pos >= N:
                    mt_twist(st)
                    pos = 0
                j = np.int64(temper(st[pos])) & mask
                pos += 1
        x[i], x[j] = x[j], x[i]
    st[POS] = pos


@_lib
def shuffle(x):  # noqa: ANN001, ANN201
    """`np.random.shuffle(x)` of a 1-D array."""
    shuffle_flat(state_words(), x)


@_lib
def shuffle_rows(x):  # noqa: ANN001, ANN201
    """`np.random.shuffle(x)` of an n-D array: along the first axis, through a copy of one
    row, skipping i == j as NumPy does; an array without items draws nothing."""
    if x.size == 0:
        return
    st = state_words()
    for i in range(x.shape[0] - 1, 0, -1):
        j = interval(st, i)
        if i != j:
            row = x[j].copy()
            x[j] = x[i]
            x[i] = row


@_lib
def permutation_n(n):  # noqa: ANN001, ANN201
    out = np.arange(n)
    shuffle_flat(state_words(), out)
    return out


@_lib
def permutation(x):  # noqa: ANN001, ANN201
    """A shuffled copy of a 1-D array."""
    out = x.copy()
    shuffle_flat(state_words(), out)
    return out


@_lib
def permutation_rows(x):  # noqa: ANN001, ANN201
    """The rows of an n-D array in a shuffled order (NumPy shuffles an index permutation,
    so even rows without items draw)."""
    order = permutation_n(x.shape[0])
    out = np.empty_like(x)
    for i in range(order.shape[0]):
        out[i] = x[order[i]]
    return out


@_lib
def _count(size):  # noqa: ANN001, ANN201
    """np.prod(size) for a tuple of ints (the rules pass every size as a tuple)."""
    count = 1
    for n in size:
        count *= n
    return count


@_lib
def _check_population(pop, count, is_array):  # noqa: ANN001, ANN201
    if is_array:
        if pop == 0 and count != 0:
            raise ValueError("'a' cannot be empty unless no samples are taken")
    elif pop <= 0 and count != 0:
        raise ValueError("a must be greater than 0 unless no samples are taken")


@_lib
def _check_p(p, pop, atol):  # noqa: ANN001, ANN201
    """RandomState.choice's checks of `p` (Kahan-summed, as NumPy sums it; `atol` is
    sqrt(eps) of float64, or of p's own float dtype when coarser)."""
    if p.shape[0] != pop:
        raise ValueError("'a' and 'p' must have same size")
    total = 0.0
    if pop > 0:
        total = p[0] * 1.0
        c = 0.0
        for i in range(1, pop):
            y = p[i] - c
            t = total + y
            c = (t - total) - y
            total = t
    if math.isnan(total):
        raise ValueError("probabilities contain NaN")
    for i in range(pop):
        if p[i] < 0:
            raise ValueError("probabilities are not non-negative")
    if abs(total - 1.0) > atol:
        raise ValueError("probabilities do not sum to 1")


@_lib
def _cdf(p):  # noqa: ANN001, ANN201
    """cumsum(p) / its last value, as float64."""
    cdf = np.empty(p.shape[0])
    acc = 0.0
    for i in range(p.shape[0]):
        acc += p[i]
        cdf[i] = acc
    last = cdf[p.shape[0] - 1]
    for i in range(p.shape[0]):
        cdf[i] /= last
    return cdf


@_lib
def _search_right(cdf, x):  # noqa: ANN001, ANN201
    """cdf.searchsorted(x, side='right')."""
    lo = 0
    hi = cdf.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if cdf[mid] <= x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@_lib
def _check_sample(count, pop, p):  # noqa: ANN001, ANN201
    """Sampling without replacement: enough items, and enough of them possible."""
    if count > pop:
        raise ValueError("Cannot take a larger sample than population when 'replace=False'")
    if count < 0:
        raise ValueError("Negative dimensions are not allowed")  # sic: NumPy's capital N
    nonzero = 0
    for i in range(pop):
        if p[i] > 0:
            nonzero += 1
    if nonzero < count:
        raise ValueError("Fewer non-zero entries in p than size")


@_lib
def choice_indices(pop, is_array, size, replace):  # noqa: ANN001, ANN201
    """Indices of shape `size` drawn uniformly from range(pop), with or without replacement."""
    count = _count(size)
    _check_population(pop, count, is_array)
    if not replace:
        if count > pop:
            raise ValueError("Cannot take a larger sample than population when 'replace=False'")
        if count < 0:
            raise ValueError("Negative dimensions are not allowed")  # sic: NumPy's capital N
    out = np.empty(size, np.int64)
    flat = out.reshape(out.size)
    if replace:
        if count > 0:
            fill_bounded(state_words(), flat, 0, np.uint64(pop - 1), 64)
        return out
    order = permutation_n(pop)
    for i in range(count):
        flat[i] = order[i]
    return out


@_lib
def choice_indices_p(pop, is_array, size, replace, p, atol):  # noqa: ANN001, ANN201, PLR0912
    """Indices of shape `size` drawn from range(pop) with probabilities p."""
    count = _count(size)
    _check_population(pop, count, is_array)
    _check_p(p, pop, atol)
    if not replace:
        _check_sample(count, pop, p)
    out = np.empty(size, np.int64)
    flat = out.reshape(out.size)
    st = state_words()
    if replace:
        cdf = _cdf(p)
        draws = np.empty(count)
        for i in range(count):
            draws[i] = next_double(st)
        for i in range(count):
            flat[i] = _search_right(cdf, draws[i])
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
            draws[i] = next_double(st)
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


@_lib
def take(a, idx):  # noqa: ANN001, ANN201
    """a[idx] for a 1-D `a` and C-contiguous int64 indices in range."""
    out = np.empty(idx.shape, a.dtype)
    flat_out = out.reshape(out.size)
    flat_idx = idx.reshape(idx.size)
    for i in range(flat_idx.shape[0]):
        flat_out[i] = a[flat_idx[i]]
    return out


@_lib
def take_one(a, i):  # noqa: ANN001, ANN201
    return a[i]


# --- Poisson ---------------------------------------------------------------------------------

# The Stirling series of log-gamma as NumPy's `random_loggam` writes it (decimal literals:
# the last is NumPy's 15-digit rounding of -174611/125400)
LOGGAM_A = (
    8.333333333333333e-02,
    -2.777777777777778e-03,
    7.936507936507937e-04,
    -5.952380952380952e-04,
    8.417508417508418e-04,
    -1.917526917526918e-03,
    6.410256410256410e-03,
    -2.955065359477124e-02,
    1.796443723688307e-01,
    -1.39243221690590e00,
)
LG2PI = 1.8378770664093453e00  # log(2 pi)
POISSON_LAM_MAX = float(np.iinfo(np.int64).max - np.sqrt(np.iinfo(np.int64).max) * 10)


@_lib
def loggam(x):  # noqa: ANN001, ANN201
    """log(gamma(x)) as NumPy's `random_loggam` computes it (shifted Stirling series)."""
    if x == 1.0 or x == 2.0:
        return 0.0
    n = 0
    if x < 7.0:
        n = int(7.0 - x)
    x0 = x + n
    x2 = (1.0 / x0) * (1.0 / x0)
    gl0 = LOGGAM_A[9]
    for k in range(8, -1, -1):
        gl0 *= x2
        gl0 += LOGGAM_A[k]
    gl = gl0 / x0 + 0.5 * LG2PI + (x0 - 0.5) * math.log(x0) - x0
    if x < 7.0:
        for _ in range(n):
            gl -= math.log(x0 - 1.0)
            x0 -= 1.0
    return gl


@_lib
def poisson_one(source, lam):  # noqa: ANN001, ANN201
    """One Poisson deviate (`random_poisson`, which NumPy's legacy functions and Generators
    share): multiplication of uniforms below lam = 10, Hormann's PTRS transformed rejection
    from 10 on. `source` is the legacy state words or a passed-in Generator."""
    if lam == 0.0:
        return np.int64(0)
    if lam < 10.0:
        enlam = libm_exp(-lam)
        x = np.int64(0)
        prod = draw_double(source)
        while prod > enlam:
            x += 1
            prod *= draw_double(source)
        return x
    slam = math.sqrt(lam)
    loglam = math.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2)
    k = np.int64(0)
    done = False
    while not done:
        u = draw_double(source) - 0.5
        v = draw_double(source)
        us = 0.5 - abs(u)
        k = np.int64(math.floor((2 * a / us + b) * u + lam + 0.43))
        if us >= 0.07 and v <= vr:
            done = True
        elif k >= 0 and not (us < 0.013 and v > us):
            bound = -lam + k * loglam - loggam(k + 1.0)
            done = math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= bound
    return k


@_lib
def check_lam(lam):  # noqa: ANN001, ANN201
    if not lam >= 0.0:
        raise ValueError("lam < 0 or lam is NaN")
    if lam > POISSON_LAM_MAX:
        raise ValueError("lam value too large")


@_lib
def poisson(lam):  # noqa: ANN001, ANN201
    check_lam(lam)
    return np.int64(poisson_one(state_words(), lam))


@_lib
def poisson_size(lam, size):  # noqa: ANN001, ANN201
    check_lam(lam)
    out = np.empty(size, np.int64)
    flat = out.reshape(out.size)
    st = state_words()
    for i in range(flat.shape[0]):
        flat[i] = poisson_one(st, lam)
    return out


# --- binomial --------------------------------------------------------------------------------


@_lib
def binomial_inversion(source, n, p):  # noqa: ANN001, ANN201
    """Inversion for n * p <= 30 (`random_binomial_inversion`)."""
    q = 1.0 - p
    qn = libm_exp(n * math.log(q))
    np_ = n * p
    bound = np.int64(min(float(n), np_ + 10.0 * math.sqrt(np_ * q + 1)))
    x = np.int64(0)
    px = qn
    u = draw_double(source)
    while u > px:
        x += 1
        if x > bound:
            x = np.int64(0)
            px = qn
            u = draw_double(source)
        else:
            u -= px
            px = ((n - x + 1) * p * px) / (x * q)
    return x


@_lib
def _stirling_tail(v):  # noqa: ANN001, ANN201
    """The correction term BTPE adds per factorial (Stirling's series to 1/v**9)."""
    v2 = v * v
    return (13680.0 - (462.0 - (132.0 - (99.0 - 140.0 / v2) / v2) / v2) / v2) / v / 166320.0


@_lib
def binomial_btpe(source, n, p):  # noqa: ANN001, ANN201, PLR0915
    """Kachitvichyanukul and Schmeiser's BTPE for n * p > 30 (`random_binomial_btpe`)."""
    r = min(p, 1.0 - p)
    q = 1.0 - r
    fm = n * r + r
    m = np.int64(math.floor(fm))
    p1 = math.floor(2.195 * math.sqrt(n * r * q) - 4.6 * q) + 0.5
    xm = m + 0.5
    xl = xm - p1
    xr = xm + p1
    c = 0.134 + 20.5 / (15.3 + m)
    a = (fm - xl) / (fm - xl * r)
    laml = a * (1.0 + a / 2.0)
    a = (xr - fm) / (xr * q)
    lamr = a * (1.0 + a / 2.0)
    p2 = p1 * (1.0 + 2.0 * c)
    p3 = p2 + c / laml
    p4 = p3 + c / lamr
    nrq = n * r * q
    y = np.int64(0)
    done = False
    while not done:
        u = draw_double(source) * p4
        v = draw_double(source)
        if u <= p1:  # the triangle: accepted at once
            y = np.int64(math.floor(xm - p1 * v + u))
            done = True
            continue
        if u <= p2:  # the parallelograms
            x = xl + (u - p1) / c
            v = v * c + 1.0 - abs(m - x + 0.5) / p1
            if v > 1.0:
                continue
            y = np.int64(math.floor(x))
        elif u <= p3:  # the left exponential tail
            y = np.int64(math.floor(xl + math.log(v) / laml))
            if y < 0 or v == 0.0:
                continue
            v = v * (u - p2) * laml
        else:  # the right exponential tail
            y = np.int64(math.floor(xr - math.log(v) / lamr))
            if y > n or v == 0.0:
                continue
            v = v * (u - p3) * lamr
        k = abs(y - m)
        if not (k > 20 and k < nrq / 2.0 - 1):  # explicit evaluation of f(y) / f(m)
            s = r / q
            a = s * (n + 1)
            f = 1.0
            if m < y:
                for i in range(m + 1, y + 1):
                    f *= a / i - s
            elif m > y:
                for i in range(y + 1, m + 1):
                    f /= a / i - s
            done = v <= f
            continue
        rho = (k / nrq) * ((k * (k / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5)
        t = -k * k / (2 * nrq)
        big_a = math.log(v)
        if big_a < t - rho:
            done = True
            continue
        if big_a > t + rho:
            continue
        x1 = y + 1.0
        f1 = m + 1.0
        z = n + 1.0 - m
        w = n - y + 1.0
        bound = (
            xm * math.log(f1 / x1)
            + (n - m + 0.5) * math.log(z / w)
            + (y - m) * math.log(w * r / (x1 * q))
            + _stirling_tail(f1)
            + _stirling_tail(z)
            + _stirling_tail(x1)
            + _stirling_tail(w)
        )
        done = big_a <= bound
    if p > 0.5:
        y = n - y
    return y


@_lib
def binomial_one(source, n, p):  # noqa: ANN001, ANN201
    """`random_binomial`, which NumPy's legacy functions and Generators share."""
    if n == 0 or p == 0.0:
        return np.int64(0)
    if p <= 0.5:
        if p * n <= 30.0:
            return binomial_inversion(source, n, p)
        return binomial_btpe(source, n, p)
    q = 1.0 - p
    if q * n <= 30.0:
        return n - binomial_inversion(source, n, q)
    return n - binomial_btpe(source, n, q)


@_lib
def check_binomial(n, p):  # noqa: ANN001, ANN201
    if not (p >= 0.0 and p <= 1.0):
        raise ValueError("p < 0, p > 1 or p is NaN")
    if n < 0:
        raise ValueError("n < 0")


@_lib
def binomial(n, p):  # noqa: ANN001, ANN201
    check_binomial(n, p)
    return binomial_one(state_words(), n, p)


@_lib
def binomial_size(n, p, size):  # noqa: ANN001, ANN201
    check_binomial(n, p)
    out = np.empty(size, np.int64)
    flat = out.reshape(out.size)
    st = state_words()
    for i in range(flat.shape[0]):
        flat[i] = binomial_one(st, n, p)
    return out


# --- geometric -------------------------------------------------------------------------------


@_lib
def geometric_one(st, p):  # noqa: ANN001, ANN201
    """NumPy's legacy geometric: a search over the cumulative distribution for p >= 1/3,
    inversion below (`legacy_random_geometric`)."""
    if p >= 0.333333333333333333333333:
        x = np.int64(1)
        total = p
        prod = p
        q = 1.0 - p
        u = next_double(st)
        while u > total:
            prod *= q
            total += prod
            x += 1
        return x
    top = math.log1p(-next_double(st))
    bottom = math.log(1.0 - p)
    if bottom == 0.0:  # p below 2**-53: C divides to -inf (or nan) and casts it to int64's
        return np.int64(-(1 << 63))  # minimum on x86-64, where Python would raise
    return np.int64(math.ceil(top / bottom))


@_lib
def check_geometric(p):  # noqa: ANN001, ANN201
    if not (p > 0.0 and p <= 1.0):
        raise ValueError("p <= 0, p > 1 or p contains NaNs")


@_lib
def geometric(p):  # noqa: ANN001, ANN201
    check_geometric(p)
    return geometric_one(state_words(), p)


@_lib
def geometric_size(p, size):  # noqa: ANN001, ANN201
    check_geometric(p)
    out = np.empty(size, np.int64)
    flat = out.reshape(out.size)
    st = state_words()
    for i in range(flat.shape[0]):
        flat[i] = geometric_one(st, p)
    return out
