"""np.random in compiled code (jitcore/lib/nprandom.py) vs NumPy's legacy `RandomState`.

Every kernel seeds the generator itself (`np.random.seed(s)`), so Python mode (NumPy's global
RandomState) and compiled code (its own per-thread MT19937) must draw bit for bit the same
numbers: floats are compared exactly here, not within ULPs. Hypothesis picks the seeds, sizes,
bounds and probabilities; NumPy's exceptions for bad arguments are checked the same way.
"""

from __future__ import annotations

import os
import threading

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jitcore
from jitcore import jit, prange
from jitcore.errors import TypingError, UnsupportedError
from tests.jitcore.support import assert_same, assert_same_arrays, compiled

SEEDS = st.integers(0, 2**32 - 1)
SIZES = st.integers(0, 40)
SHAPES = st.tuples(st.integers(0, 5), st.integers(0, 5))


def assert_exact(f, *args):  # noqa: ANN001, ANN201
    """`assert_same` with no tolerance: the same stream gives the same bits."""
    return assert_same(f, *args, ulps=0)


# --- floats ------------------------------------------------------------------------------------


def floats_mixed(s, n, shape):
    np.random.seed(s)
    a = np.random.random_sample()
    b = np.random.random(n)
    c = np.random.rand(shape[0], shape[1])
    d = np.random.ranf(shape)
    e = np.random.sample()
    f = np.random.rand()
    return a, b, c, d, e, f


def normals(s, n, shape):
    np.random.seed(s)
    a = np.random.standard_normal(n)  # an odd n leaves a cached deviate for the next call
    b = np.random.standard_normal()
    c = np.random.randn(shape[0], shape[1])
    d = np.random.randn()
    e = np.random.normal(1.5, 2.0, shape)
    f = np.random.normal()
    return a, b, c, d, e, f


def uniform_normal(s, low, high, loc, scale, n):
    np.random.seed(s)
    return (
        np.random.uniform(low, high),
        np.random.uniform(low, high, n),
        np.random.uniform(size=n),
        np.random.normal(loc, scale),
        np.random.normal(loc, scale, n),
        np.random.normal(loc, scale=scale, size=(2, n)),
    )


def exponentials(s, scale, n):
    np.random.seed(s)
    return (
        np.random.exponential(scale),
        np.random.exponential(scale, n),
        np.random.exponential(),
        np.random.standard_exponential(n),
        np.random.standard_exponential(),
    )


@given(SEEDS, SIZES, SHAPES)
def test_uniform_floats(s, n, shape):
    assert_exact(floats_mixed, s, n, shape)


@given(SEEDS, SIZES, SHAPES)
def test_normal_floats(s, n, shape):
    assert_exact(normals, s, n, shape)


FINITE = st.floats(-1e6, 1e6)


@given(SEEDS, FINITE, FINITE, FINITE, st.floats(0, 1e3), SIZES)
def test_uniform_and_normal_parameters(s, low, high, loc, scale, n):
    assert_exact(uniform_normal, s, low, high, loc, scale, n)


@given(SEEDS, st.floats(0, 1e3), SIZES)
def test_exponential(s, scale, n):
    assert_exact(exponentials, s, scale, n)


def geometrics(s, p, n):
    np.random.seed(s)
    return np.random.geometric(p), np.random.geometric(p, n), np.random.geometric(p=p, size=(n, 2))


@given(SEEDS, st.one_of(st.floats(1e-12, 1), st.sampled_from([1 / 3, 1.0, 1e-17, 5e-300])), SIZES)
def test_geometric(s, p, n):
    """A search of the distribution for p >= 1/3, inversion (log1p) below, as NumPy's."""
    assert_exact(geometrics, s, p, n)


def binomials(s, trials, p, n):
    np.random.seed(s)
    return np.random.binomial(trials, p), np.random.binomial(trials, p, n)


TRIALS = st.one_of(st.integers(0, 100), st.integers(0, 10**12))
PROBABILITIES = st.one_of(st.floats(0, 1), st.sampled_from([0.0, 0.5, 1.0, 1e-9]))


@given(SEEDS, TRIALS, PROBABILITIES, SIZES)
def test_binomial(s, trials, p, n):
    """Inversion for n * min(p, 1 - p) <= 30 (against the C library's exp), BTPE above."""
    assert_exact(binomials, s, trials, p, n)


def poissons(s, lam, n):
    np.random.seed(s)
    return np.random.poisson(lam), np.random.poisson(lam, n), np.random.poisson(size=(2, n))


LAMS = st.one_of(st.floats(0, 12), st.floats(0, 1e12), st.sampled_from([0.0, 9.999, 10.0, 1e18]))


@given(SEEDS, LAMS, SIZES)
def test_poisson(s, lam, n):
    """Multiplication of uniforms below lam = 10 (against the C library's exp(-lam), as
    NumPy), PTRS with NumPy's log-gamma series from 10 on."""
    assert_exact(poissons, s, lam, n)


def draws_across_calls(n):
    return np.random.random(n), np.random.standard_normal(n)


def test_the_state_persists_between_calls():
    """Two calls continue one stream, as NumPy's global generator does."""
    f = compiled(draws_across_calls)
    np.random.seed(3)
    jitcore.random.seed(3)
    for n in (1, 5, 7):
        expected = draws_across_calls(n)  # NumPy's generator, as a plain call
        got = f(n)
        assert all(np.array_equal(x, y) for x, y in zip(expected, got))


# --- randint ---------------------------------------------------------------------------------


def randint_int64(s, low, high, n):
    np.random.seed(s)
    return np.random.randint(low, high), np.random.randint(low, high, n)


def randint_one_bound(s, high, shape):
    np.random.seed(s)
    return np.random.randint(high), np.random.randint(high, size=shape)


def randint_dtypes(s, n):
    np.random.seed(s)
    return (
        np.random.randint(-100, 100, n, np.int8),
        np.random.randint(0, 256, n, np.uint8),
        np.random.randint(3, 200, n, dtype=np.uint8),
        np.random.randint(-1000, 30000, n, np.int16),
        np.random.randint(0, 65536, n, np.uint16),
        np.random.randint(-(2**31), 2**31 - 1, n, np.int32),
        np.random.randint(0, 2**32 - 1, n, np.uint32),
        np.random.randint(0, 2, n, np.bool_),
        np.random.randint(0, 2, n, bool),
        np.random.randint(0, 2**40, n, np.uint64),
        np.random.randint(5, dtype=np.int16),
        np.random.randint(0, 2, dtype=np.bool_),
        np.random.randint(7, 8, n),
    )


INT64 = st.integers(-(2**63), 2**63 - 1)


@given(SEEDS, INT64, INT64, SIZES)
def test_randint_int64_bounds(s, low, high, n):
    low, high = min(low, high), max(low, high) + (low == high and high < 2**63 - 1)
    assert_exact(randint_int64, s, low, high, n)


@given(SEEDS, st.sampled_from([1, 2, 3, 7, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**62]), SHAPES)
def test_randint_widths(s, high, shape):
    """Ranges below, at and above 2**32 switch between 32- and 64-bit draws."""
    assert_exact(randint_one_bound, s, high, shape)


@given(SEEDS, SIZES)
def test_randint_dtypes(s, n):
    """8- and 16-bit dtypes and bools split one 32-bit draw, as NumPy's buffered draws do."""
    assert_exact(randint_dtypes, s, n)


# uint64 values on both sides of 2**63 and at its top: their bits read as int64 are negative
UINT64 = st.one_of(
    st.integers(0, 2**64 - 1),
    st.integers(0, 4),
    st.integers(2**63 - 3, 2**63 + 3),
    st.integers(2**64 - 4, 2**64 - 1),
)
SMALL_OR_INT64 = st.one_of(st.integers(-3, 3), INT64)


def randint_u64_bounds(s, u, n):
    np.random.seed(s)
    return np.random.randint(u[0], u[1], n, np.uint64), np.random.randint(
        u[0], u[1], dtype=np.uint64
    )


def randint_u64_high(s, low, u, n):
    np.random.seed(s)
    return np.random.randint(low, u[1], n, dtype=np.uint64)


def randint_u64_to_int64(s, u, n):
    np.random.seed(s)
    return np.random.randint(u[0], u[1], n), np.random.randint(u[1], size=n)


def randint_u64_to_int32(s, u):
    np.random.seed(s)
    return np.random.randint(u[1], dtype=np.int32)


@pytest.mark.parametrize(
    "f", [randint_u64_bounds, randint_u64_to_int64, randint_u64_to_int32], ids=lambda f: f.__name__
)
@given(s=SEEDS, a=UINT64, b=UINT64, n=SIZES)
def test_randint_uint64_bounds_beyond_int64(f, s, a, b, n):
    """A uint64 bound of 2**63 or more is the number it is, not a negative int64: drawn from
    where the dtype holds it, out of bounds where it does not (NumPy's checks and messages)."""
    u = np.array([min(a, b), max(a, b)], dtype=np.uint64)
    args = (s, u, n) if f.__code__.co_argcount == 3 else (s, u)
    assert_same_arrays(f, *args, ulps=0)


@given(SEEDS, SMALL_OR_INT64, UINT64, SIZES)
def test_randint_signed_low_and_uint64_high(s, low, high, n):
    assert_same_arrays(randint_u64_high, s, low, np.array([0, high], dtype=np.uint64), n, ulps=0)


def randint_nothing(s, low, high, size):
    np.random.seed(s)
    return np.random.randint(low, high, size), np.random.randint(low, high, size, np.uint8)


@given(SEEDS, SMALL_OR_INT64, SMALL_OR_INT64, st.sampled_from([0, (0,), (3, 0), (0, 2)]))
def test_randint_of_no_elements_checks_no_bounds(s, low, high, size):
    """NumPy returns an empty array before it looks at the bounds."""
    assert_same_arrays(randint_nothing, s, low, high, size, ulps=0)


# --- choice, shuffle, permutation ------------------------------------------------------------


def choice_ints(s, pop, n):
    np.random.seed(s)
    return (
        np.random.choice(pop),
        np.random.choice(pop, n),
        np.random.choice(pop, (2, 2)),
        np.random.choice(pop, min(n, pop), replace=False),
        np.random.choice(pop, replace=False),
    )


def choice_array(s, a, n):
    np.random.seed(s)
    return np.random.choice(a), np.random.choice(a, n), np.random.choice(a, 1, False)


def choice_p(s, p, n):
    np.random.seed(s)
    k = p.shape[0]
    nonzero = int((p > 0).sum())
    return (
        np.random.choice(k, p=p),
        np.random.choice(k, n, p=p),
        np.random.choice(k, (n, 2), True, p),
        np.random.choice(k, min(n, nonzero), replace=False, p=p),
        np.random.choice(k, replace=False, p=p),
    )


@given(SEEDS, st.integers(1, 50), SIZES)
def test_choice_of_an_int(s, pop, n):
    assert_exact(choice_ints, s, pop, n)


@given(SEEDS, st.integers(1, 20), SIZES)
def test_choice_from_an_array(s, k, n):
    a = np.arange(k, dtype=np.float32) * 1.5
    assert_exact(choice_array, s, a, n)
    assert_exact(choice_array, s, a[::-2], n)


WEIGHTS = st.lists(st.integers(0, 5), min_size=1, max_size=12).filter(any)


@given(SEEDS, WEIGHTS, SIZES)
def test_choice_with_probabilities(s, weights, n):
    p = np.array(weights, dtype=np.float64)
    p /= p.sum()
    assert_exact(choice_p, s, p, n)


def shuffle_it(s, x):
    np.random.seed(s)
    np.random.shuffle(x)
    return x


def permute(s, x):
    np.random.seed(s)
    return np.random.permutation(x), np.random.permutation(x.shape[0] + 3)


@given(SEEDS, SIZES)
def test_shuffle_1d(s, n):
    assert_same_arrays(shuffle_it, s, np.arange(n, dtype=np.int32) * 3, ulps=0)
    assert_same_arrays(shuffle_it, s, np.linspace(0, 1, 2 * n + 1)[::2], ulps=0)


@given(SEEDS, SHAPES)
def test_shuffle_rows(s, shape):
    """n-D arrays shuffle along axis 0; an array without items draws nothing."""
    x = np.arange(shape[0] * shape[1], dtype=np.float64).reshape(shape)
    assert_same_arrays(shuffle_it, s, x, ulps=0)
    assert_same_arrays(shuffle_it, s, x.T.copy(), ulps=0)


@given(SEEDS, SHAPES)
def test_permutation(s, shape):
    x = np.arange(shape[0] * shape[1], dtype=np.int16).reshape(shape)
    assert_same_arrays(permute, s, x, ulps=0)
    assert_same_arrays(permute, s, x.ravel(), ulps=0)


# --- NumPy's exceptions ----------------------------------------------------------------------


def bad_size(s, n):
    np.random.seed(s)
    return np.random.random(n)


def bad_shape(s, n):
    np.random.seed(s)
    return np.random.standard_normal((2, n))


def bad_randint(s, low, high):
    np.random.seed(s)
    return np.random.randint(low, high)


def bad_randint_one(s, high):
    np.random.seed(s)
    return np.random.randint(high, size=3)


def bad_randint_small(s, low, high):
    np.random.seed(s)
    return np.random.randint(low, high, 2, np.uint8), np.random.randint(low, high, 2, np.int32)


def bad_choice(s, pop, n):
    np.random.seed(s)
    return np.random.choice(pop, n)


def bad_choice_nonreplace(s, pop, n):
    np.random.seed(s)
    return np.random.choice(pop, n, replace=False)


def bad_choice_array(s, a):
    np.random.seed(s)
    return np.random.choice(a)


def bad_choice_p(s, p, replace):
    np.random.seed(s)
    return np.random.choice(3, 2, replace, p)


def bad_scale(s, scale):
    np.random.seed(s)
    return np.random.normal(0.0, scale), np.random.exponential(scale, 2)


def bad_uniform(s, low, high):
    np.random.seed(s)
    return np.random.uniform(low, high, 2)


def bad_geometric(s, p):
    np.random.seed(s)
    return np.random.geometric(p, 2)


def bad_binomial(s, n, p):
    np.random.seed(s)
    return np.random.binomial(n, p, 2)


def bad_poisson(s, lam):
    np.random.seed(s)
    return np.random.poisson(lam, 2)


def bad_seed(s):
    np.random.seed(s)
    return np.random.random()


@pytest.mark.parametrize(
    ("f", "args"),
    [
        (bad_size, (1, -1)),
        (bad_shape, (1, -3)),
        (bad_randint, (1, 5, 5)),
        (bad_randint, (1, 5, 3)),
        (bad_randint, (1, 0, 0)),
        (bad_randint, (1, -(2**63), -(2**63))),
        (bad_randint_one, (1, 0)),
        (bad_randint_one, (1, -4)),
        (bad_randint_small, (1, -1, 5)),
        (bad_randint_small, (1, 0, 257)),
        (bad_randint_small, (1, 3, 2)),
        (bad_choice, (1, 0, 3)),
        (bad_choice, (1, -2, 1)),
        (bad_choice, (1, 0, 0)),
        (bad_choice, (1, 3, -2)),
        (bad_choice_nonreplace, (1, 3, 5)),
        (bad_choice_nonreplace, (1, 3, -2)),
        (bad_choice_array, (1, np.zeros(0))),
        (bad_choice_p, (1, np.array([0.5, 0.4, 0.2]), True)),
        (bad_choice_p, (1, np.array([0.5, 0.6, -0.1]), True)),
        (bad_choice_p, (1, np.array([0.5, 0.5]), True)),
        (bad_choice_p, (1, np.array([np.nan, 0.5, 0.5]), True)),
        (bad_choice_p, (1, np.array([1.0, 0.0, 0.0]), False)),
        (bad_choice_p, (1, np.array([0.5, 0.5 + 1e-9, 0.0]), True)),
        (bad_choice_p, (1, np.array([0.5, 0.5 + 1e-5, 0.0], dtype=np.float32), True)),
        (bad_choice_p, (1, np.array([0.5, 0.5 + 1e-3, 0.0], dtype=np.float32), True)),
        (bad_scale, (1, -1.0)),
        (bad_scale, (1, -0.0)),
        (bad_scale, (1, np.nan)),
        (bad_uniform, (1, 0.0, np.inf)),
        (bad_uniform, (1, np.nan, 1.0)),
        (bad_uniform, (1, 2.0, 1.0)),
        (bad_geometric, (1, 0.0)),
        (bad_geometric, (1, 1.5)),
        (bad_geometric, (1, np.nan)),
        (bad_binomial, (1, -1, 0.5)),
        (bad_binomial, (1, 5, -0.1)),
        (bad_binomial, (1, 5, 1.5)),
        (bad_binomial, (1, -1, np.nan)),
        (bad_poisson, (1, -1.0)),
        (bad_poisson, (1, np.nan)),
        (bad_poisson, (1, 1e20)),
        (bad_poisson, (1, np.inf)),
        (bad_seed, (-1,)),
        (bad_seed, (2**32,)),
        (bad_seed, (2**32 - 1,)),
    ],
)
def test_bad_arguments_raise_numpys_errors(f, args):
    assert_same_arrays(f, *args, ulps=0)


def array_bounds(a):
    return np.random.randint(a, 10)


def array_loc(a):
    return np.random.normal(a, 1.0)


def array_seed(a):
    np.random.seed(a)


def two_d_choice(a):
    return np.random.choice(a)


def shuffle_scalar(x):
    np.random.shuffle(x)


def float_dtype_randint(n):
    return np.random.randint(0, n, dtype=np.float64)


@pytest.mark.parametrize(
    ("f", "arg", "error"),
    [
        (array_bounds, np.arange(3), UnsupportedError),
        (array_loc, np.zeros(3), UnsupportedError),
        (array_seed, np.arange(3), UnsupportedError),
        (two_d_choice, np.zeros((2, 2)), UnsupportedError),
        (shuffle_scalar, 3.0, TypingError),
        (float_dtype_randint, 3, TypingError),
    ],
)
def test_unsupported_forms_are_compile_errors(f, arg, error):
    with pytest.raises(error):
        jit(mode="compiled")(f)(arg)


# --- the state: per thread, its own, seeded from Python, re-seeded after fork ------------------


def draw(n):
    return np.random.random(n)


def test_pythons_seed_does_not_touch_compiled_state():
    f = compiled(draw)
    jitcore.random.seed(11)
    np.random.seed(12345)  # NumPy's generator only
    got = f(4)
    np.random.seed(11)
    assert np.array_equal(got, np.random.random(4))


def test_jitcore_random_seed_checks_its_argument():
    with pytest.raises(ValueError, match="Seed must be between"):
        jitcore.random.seed(2**32)
    with pytest.raises(TypeError):
        jitcore.random.seed(1.5)  # type: ignore[arg-type]


def test_threads_have_their_own_states():
    """A new thread's state is seeded from entropy; seeding one thread leaves the others."""
    f = compiled(draw)
    jitcore.random.seed(5)
    results: list[np.ndarray] = []

    def work() -> None:
        results.append(f(4))

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({r.tobytes() for r in results}) == 3
    np.random.seed(5)
    assert np.array_equal(f(4), np.random.random(4))  # this thread's stream went on untouched


def par_fill(n):
    out = np.empty(n)
    for i in prange(n):
        out[i] = np.random.random() + np.random.standard_normal() * 0.0
    return out


def test_prange_workers_draw_without_sharing_state():
    f = jit(mode="compiled", parallel=True)(par_fill)
    out = f(20000)
    assert ((out >= 0) & (out < 1)).all()
    assert np.unique(out).size == out.size


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_is_reseeded():
    f = compiled(draw)
    jitcore.random.seed(9)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.write(write, f(2).tobytes())
        os._exit(0)
    os.waitpid(pid, 0)
    child = np.frombuffer(os.read(read, 16))
    os.close(read)
    os.close(write)
    np.random.seed(9)
    parent = f(2)
    assert np.array_equal(parent, np.random.random(2))
    assert not np.array_equal(child, parent)


_CACHED_PROGRAM = """
import sys
import numpy as np
sys.path.insert(0, {directory!r})
import cached_random
values = cached_random.draw(7, 5)
np.random.seed(7)
same = all(
    np.array_equal(a, b)
    for a, b in zip(values, (np.random.randint(0, 100, 5), np.random.standard_normal(5)))
)
stats = cached_random.draw.stats(cached_random.draw.signatures[0])
print(same, stats.cache_hit)
"""

_CACHED_MODULE = """
import numpy as np
from jitcore import jit

@jit(mode="compiled", cache=True)
def draw(s, n):
    np.random.seed(s)
    return np.random.randint(0, 100, n), np.random.standard_normal(n)
"""


def test_cached_code_draws_the_same_stream_in_a_new_process(tmp_path):
    """A function using np.random loads from the disk cache in a fresh process (its library
    kernels are found by name, the runtime's state by symbol) and draws NumPy's numbers."""
    import subprocess
    import sys

    (tmp_path / "cached_random.py").write_text(_CACHED_MODULE)
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir(mode=0o700)
    env = {**os.environ, "JITCORE_CACHE_DIR": str(cache_dir)}
    program = _CACHED_PROGRAM.format(directory=str(tmp_path))
    runs = [
        subprocess.run(
            [sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True
        ).stdout.split()
        for _ in range(2)
    ]
    assert runs == [["True", "False"], ["True", "True"]]


def scalar_draws():
    np.random.seed(3)
    return (
        np.random.random(),
        np.random.rand(),
        np.random.randn(),
        np.random.normal(1.0, 2.0),
        np.random.uniform(),
        np.random.exponential(),
        np.random.randint(5),
        np.random.randint(5, dtype=np.int64),
        np.random.choice(5),
        np.random.choice(np.array([1.5, 2.5])),
        np.random.poisson(3.0),
        np.random.binomial(5, 0.5),
    )


def generator_draws():
    g = np.random.default_rng(4)
    return (g.random(), g.normal(), g.uniform(), g.integers(5), g.choice(5), g.poisson(2.0))


@pytest.mark.parametrize("f", [scalar_draws, generator_draws])
def test_scalar_draws_are_python_numbers_where_numpy_returns_them(f) -> None:  # noqa: ANN001
    """NumPy returns a Python float or int for one draw (`size=None`), but a NumPy scalar for
    Generator.integers, a `dtype=` asked for, or an item of an array: so do compiled draws
    (a Python float divided by 0.0 raises)."""
    expected = f()
    got = compiled(f)()
    assert got == expected
    assert [type(x) for x in got] == [type(x) for x in expected]


def draw_over_zero():
    np.random.seed(5)
    return np.random.random() / 0.0


def test_a_python_float_draw_divided_by_zero_raises() -> None:
    assert_same(draw_over_zero)
