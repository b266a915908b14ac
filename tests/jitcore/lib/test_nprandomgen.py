"""Methods of a np.random.Generator passed into compiled code (jitcore/lib/nprandomgen.py):
the same numbers as NumPy's own methods, and the caller's Generator advanced exactly as NumPy
would advance it, for PCG64 (default_rng) and the other bit generators; NumPy's errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import JitError, jit
from tests.jitcore.support import compiled

SEEDS = st.integers(0, 2**63)
SIZES = st.integers(0, 30)
SHAPES = st.tuples(st.integers(0, 4), st.integers(0, 4))
BIT_GENERATORS = st.sampled_from(
    [np.random.PCG64, np.random.MT19937, np.random.Philox, np.random.SFC64]
)


def _outcome(f: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    try:
        return ("value", f(*args))
    except Exception as exc:  # noqa: BLE001 - compared with Python's
        return ("raised", type(exc), str(exc))


def _same(x: Any, y: Any) -> bool:
    if isinstance(x, tuple):
        return len(x) == len(y) and all(_same(a, b) for a, b in zip(x, y))
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        x, y = np.asarray(x), np.asarray(y)
        return x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y, equal_nan=True)
    if isinstance(x, type):
        return x is y
    return bool(x == y or (x != x and y != y)) and np.asarray(x).dtype == np.asarray(y).dtype


def assert_same_stream(f: Callable[..., Any], seed: int, *args: Any, bits: Any = None) -> None:
    """f(generator, *args) compiled and in Python, each on its own generator seeded alike:
    the same results (exactly) or the same exception, and the generators end in one state."""
    make = bits or np.random.PCG64
    python_g = np.random.Generator(make(seed))
    compiled_g = np.random.Generator(make(seed))
    copies = [tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args) for _ in "ab"]
    expected = _outcome(f, (python_g, *copies[0]))
    got = _outcome(compiled(f), (compiled_g, *copies[1]))
    assert _same(expected, got), f"{f.__name__}{args}: python {expected}, compiled {got}"
    assert _same(copies[0], copies[1]), "the arguments differ after the call"
    assert _same_state(python_g.bit_generator.state, compiled_g.bit_generator.state)


def _same_state(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_state(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b)
    return bool(a == b)


def floats(g, n, shape, low, high):
    return g.random(), g.random(n), g.random(shape), g.uniform(low, high), g.uniform(low, high, n)


def ints(g, low, high, n):
    return (
        g.integers(low, high),
        g.integers(low, high, n),
        g.integers(low, high, n, endpoint=True),
        g.integers(max(high, 1), size=(2, n)),
    )


def small_ints(g, n):
    return (
        g.integers(-100, 100, n, np.int8),
        g.integers(0, 256, n, np.uint8),
        g.integers(3, 200, n, dtype=np.uint8),
        g.integers(-1000, 30000, n, np.int16),
        g.integers(0, 65536, n, np.uint16),
        g.integers(0, 65535, n, np.uint16, endpoint=True),
        g.integers(-(2**31), 2**31 - 1, n, np.int32),
        g.integers(0, 2**32, n, np.uint32),
        g.integers(0, 2, n, np.bool_),
        g.integers(0, 2**40, n, np.uint64),
        g.integers(5, dtype=np.int16),
        g.integers(7, 8, n),
    )


FINITE = st.floats(-1e6, 1e6)
INT64 = st.integers(-(2**63), 2**63 - 1)


@given(SEEDS, SIZES, SHAPES, FINITE, FINITE, BIT_GENERATORS)
def test_random_and_uniform(seed, n, shape, low, high, bits):
    assert_same_stream(floats, seed, n, shape, low, high, bits=bits)


@given(SEEDS, INT64, INT64, SIZES)
def test_integers_int64(seed, low, high, n):
    low, high = min(low, high), max(low, high) + (low == high and high < 2**63 - 1)
    assert_same_stream(ints, seed, low, high, n)


@given(SEEDS, st.sampled_from([1, 2, 3, 7, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**62]), SIZES)
def test_integers_widths(seed, high, n):
    assert_same_stream(ints, seed, 0, high, n)


@given(SEEDS, SIZES, BIT_GENERATORS)
def test_integers_dtypes(seed, n, bits):
    assert_same_stream(small_ints, seed, n, bits=bits)


# uint64 values on both sides of 2**63 and at its top: their bits read as int64 are negative
UINT64 = st.one_of(
    st.integers(0, 2**64 - 1),
    st.integers(0, 4),
    st.integers(2**63 - 3, 2**63 + 3),
    st.integers(2**64 - 4, 2**64 - 1),
)


def u64_bounds(g, u, n):
    return g.integers(u[0], u[1], n, np.uint64), g.integers(u[0], u[1], dtype=np.uint64)


def u64_bounds_closed(g, u, n):
    return g.integers(u[0], u[1], n, np.uint64, endpoint=True)


def u64_to_int64(g, u, n):
    return g.integers(u[0], u[1], n), g.integers(u[1], size=n, endpoint=True)


def u64_to_uint8(g, u, n):
    return g.integers(u[0], u[1], n, np.uint8)


def signed_low_u64_high(g, low, u, n):
    return g.integers(low, u[1], n, np.uint64, endpoint=True)


@pytest.mark.parametrize(
    "f", [u64_bounds, u64_bounds_closed, u64_to_int64, u64_to_uint8], ids=lambda f: f.__name__
)
@given(seed=SEEDS, a=UINT64, b=UINT64, n=SIZES)
def test_integers_uint64_bounds_beyond_int64(f, seed, a, b, n):
    """A uint64 bound of 2**63 or more is the number it is, not a negative int64."""
    assert_same_stream(f, seed, np.array([min(a, b), max(a, b)], dtype=np.uint64), n)


@given(SEEDS, st.one_of(st.integers(-3, 3), INT64), UINT64, SIZES)
def test_integers_signed_low_and_uint64_high(seed, low, high, n):
    assert_same_stream(signed_low_u64_high, seed, low, np.array([0, high], dtype=np.uint64), n)


def integers_of_nothing(g, low, high, size):
    return g.integers(low, high, size), g.integers(low, high, size, np.uint8, endpoint=True)


@given(
    SEEDS,
    st.one_of(st.integers(-3, 3), INT64),
    st.one_of(st.integers(-3, 3), INT64),
    st.sampled_from([0, (0,), (3, 0), (0, 2)]),
)
def test_integers_of_no_elements_check_no_bounds(seed, low, high, size):
    """NumPy returns an empty array before it looks at the bounds."""
    assert_same_stream(integers_of_nothing, seed, low, high, size)


def poissons(g, lam, n):
    return g.poisson(lam), g.poisson(lam, n), g.poisson(size=(2, n))


@given(SEEDS, st.one_of(st.floats(0, 12), st.floats(0, 1e12)), SIZES, BIT_GENERATORS)
def test_poisson(seed, lam, n, bits):
    """NumPy's `random_poisson`, the legacy functions' too, drawing the Generator's doubles."""
    assert_same_stream(poissons, seed, lam, n, bits=bits)


def binomials(g, trials, p, n):
    return g.binomial(trials, p), g.binomial(trials, p, n)


@given(SEEDS, st.integers(0, 10**9), st.floats(0, 1), SIZES, BIT_GENERATORS)
def test_binomial(seed, trials, p, n, bits):
    assert_same_stream(binomials, seed, trials, p, n, bits=bits)


def bad_binomial(g, trials, p):
    return g.binomial(trials, p, 2)


def bad_poisson(g, lam):
    return g.poisson(lam, 2)


def choices(g, pop, n, a):
    return (
        g.choice(pop),
        g.choice(pop, n),
        g.choice(pop, (2, 2)),
        g.choice(pop, min(n, pop), replace=False),
        g.choice(pop, replace=False),
        g.choice(a),
        g.choice(a, n),
    )


def choices_p(g, p, n):
    k = p.shape[0]
    nonzero = int((p > 0).sum())
    return (
        g.choice(k, p=p),
        g.choice(k, n, p=p),
        g.choice(k, min(n, nonzero), replace=False, p=p),
    )


def sample(g, pop, n):
    return g.choice(pop, n, replace=False)


@given(SEEDS, st.integers(1, 60), SIZES)
def test_choice(seed, pop, n):
    assert_same_stream(choices, seed, pop, n, np.arange(pop) * 1.5)


@given(SEEDS, st.lists(st.integers(0, 5), min_size=1, max_size=12).filter(any), SIZES)
def test_choice_with_probabilities(seed, weights, n):
    p = np.array(weights, dtype=np.float64)
    p /= p.sum()
    assert_same_stream(choices_p, seed, p, n)


@pytest.mark.parametrize(
    ("pop", "n"), [(20000, 100), (20000, 400), (20000, 401), (10001, 5000), (100, 90), (2**40, 5)]
)
def test_sampling_without_replacement(pop, n):
    """Floyd's algorithm for small samples, a tail shuffle for large ones, as NumPy picks."""
    assert_same_stream(sample, 7, pop, n)


def shuffled(g, x):
    g.shuffle(x)
    return x


def permuted(g, x):
    return g.permutation(x), g.permutation(x.shape[0] + 2)


@given(SEEDS, SHAPES)
def test_shuffle_and_permutation(seed, shape):
    x = np.arange(shape[0] * shape[1], dtype=np.float64).reshape(shape)
    assert_same_stream(shuffled, seed, x)
    assert_same_stream(shuffled, seed, x.ravel())
    assert_same_stream(permuted, seed, x)
    assert_same_stream(permuted, seed, x.ravel())


def bad_integers(g, low, high):
    return g.integers(low, high)


def bad_integers_closed(g, low, high):
    return g.integers(low, high, endpoint=True)


def bad_integers_u8(g, low, high):
    return g.integers(low, high, 3, np.uint8)


def bad_uniform(g, low, high):
    return g.uniform(low, high, 2)


def bad_choice(g, pop, n, replace):
    return g.choice(pop, n, replace)


def bad_choice_array(g, a):
    return g.choice(a)


def bad_choice_p(g, p):
    return g.choice(3, 2, p=p)


def bad_size(g, n):
    return g.random(n)


@pytest.mark.parametrize(
    ("f", "args"),
    [
        (bad_integers, (5, 5)),
        (bad_integers, (0, 0)),
        (bad_integers, (6, 2)),
        (bad_integers_closed, (5, 4)),
        (bad_integers_closed, (0, -1)),
        (bad_integers_u8, (-1, 5)),
        (bad_integers_u8, (0, 257)),
        (bad_uniform, (0.0, np.inf)),
        (bad_uniform, (np.nan, 1.0)),
        (bad_uniform, (2.0, 1.0)),
        (bad_uniform, (0.0, -0.0)),
        (bad_choice, (0, 3, True)),
        (bad_choice, (3, 5, False)),
        (bad_choice, (3, -1, False)),
        (bad_choice, (3, -1, True)),
        (bad_choice_array, (np.zeros(0),)),
        (bad_choice_p, (np.array([0.5, 0.4, 0.2]),)),
        (bad_choice_p, (np.array([-0.5, 1.0, 0.5]),)),
        (bad_choice_p, (np.array([np.nan, 0.5, 0.5]),)),
        (bad_choice_p, (np.array([0.5, 0.5]),)),
        (bad_choice_p, (np.array([0.5, 0.5 + 1e-5, 0.0], dtype=np.float32),)),
        (bad_size, (-1,)),
        (bad_binomial, (-1, 0.5)),
        (bad_binomial, (5, np.nan)),
        (bad_poisson, (-1.0,)),
        (bad_poisson, (np.nan,)),
        (bad_poisson, (1e20,)),
    ],
)
def test_bad_arguments_raise_numpys_errors(f, args):
    assert_same_stream(f, 3, *args)


def returns_generator(g):
    return g


def makes_generator(s):
    return np.random.default_rng(s)


def dirichlet_of_generator(g):
    return g.dirichlet(np.ones(2))


@pytest.mark.parametrize(
    ("f", "arg"),
    [
        (returns_generator, np.random.default_rng(1)),
        (makes_generator, 1),
        (dirichlet_of_generator, np.random.default_rng(1)),
    ],
)
def test_unsupported_uses_are_compile_errors(f, arg):
    with pytest.raises((JitError, TypeError)):
        jit(mode="compiled")(f)(arg)


def draw_many(g, n):
    s = 0
    for _ in range(n):
        s += g.integers(0, 10)
    return s


def test_a_generator_is_a_type_of_its_own():
    """Generators of any bit generator share one specialization (they draw through the
    bit generator's function pointers); other objects are TypeErrors naming the argument."""
    f = jit(mode="compiled")(draw_many)
    f(np.random.default_rng(1), 3)
    f(np.random.Generator(np.random.MT19937(1)), 3)
    assert len(f.signatures) == 1
    with pytest.raises(TypeError, match="argument"):
        f(np.random.RandomState(1), 3)


def legacy_and_generator(g, s, n):
    np.random.seed(s)
    return np.random.random(n), g.integers(0, 5, n), np.random.choice(5, 2), g.random()


def test_ir_with_random_calls_and_a_generator_round_trips():
    """Every stage's IR text (the `generator` type, the np.random calls by name, the
    runtime's primitives) parses back to the same text."""
    from jitcore.ir.parser import parse_ir
    from jitcore.ir.printer import print_ir
    from jitcore.session import open_session

    f = jit(mode="compiled")(legacy_and_generator)
    f(np.random.default_rng(1), 1, 3)
    for stage in ("ssa", "typeinfer", "optimize", "lower"):
        text = f.inspect(stage=stage)
        with open_session():  # parsing resolves the kernels the calls name
            assert print_ir(parse_ir(text)) == text, stage
