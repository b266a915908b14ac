"""np.random.default_rng inside compiled code (jitcore/lib/nprandomrng.py, runtime/pcg64.py):
the Generator NumPy's default_rng(seed) gives, drawing NumPy's numbers bit for bit with every
method a Generator passed in has; its memory released on every path; NumPy's errors."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import JitError, jit, prange, runtime
from tests.jitcore.lib.test_nprandomgd import METHODS
from tests.jitcore.lib.test_nprandomgen import _outcome, _same
from tests.jitcore.support import compiled, function_from_source, run_twice_on_one_cache

_counter = itertools.count()
EDGES = [0, 1, 2, 42, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**62, 2**63 - 1]
SEEDS = st.one_of(st.sampled_from(EDGES), st.integers(0, 2**63 - 1))
SIZE = st.integers(0, 12)
SHAPE = st.tuples(st.integers(0, 3), st.integers(0, 3))


def assert_same_draws(f: Callable[..., Any], *args: Any) -> None:
    """f(*args) compiled and in Python: the same results exactly, or the same exception."""
    copies = [tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args) for _ in "ab"]
    expected = _outcome(f, copies[0])
    got = _outcome(compiled(f), copies[1])
    assert _same(expected, got), f"{f.__name__}{args}: python {expected}, compiled {got}"
    assert _same(copies[0], copies[1]), "the arguments differ after the call"


def basics(seed, n, shape, a):
    rng = np.random.default_rng(seed)
    first = (rng.random(), rng.random(n), rng.random(shape), rng.random(n, dtype=np.float32))
    ints = (
        rng.integers(0, 10),
        rng.integers(0, 10, n),
        rng.integers(-5, 2**40, shape),
        rng.integers(0, 200, n, dtype=np.uint8),
        rng.integers(0, 2, n, dtype=np.bool_),
        rng.integers(3, size=n, endpoint=True),
    )
    normals = (rng.standard_normal(), rng.standard_normal(n), rng.normal(1.0, 2.0, shape))
    picks = (rng.choice(10), rng.choice(a, n), rng.choice(a, min(n, a.shape[0]), replace=False))
    rng.shuffle(a)
    rest = (rng.permutation(n), rng.permutation(a), rng.uniform(-1.0, 3.0, n))
    return first, ints, normals, picks, rest, rng.poisson(3.0, n), rng.binomial(10, 0.3, n)


@given(seed=SEEDS, n=SIZE, shape=SHAPE)
def test_default_rng_draws_numpys_numbers(seed, n, shape):
    """random, integers (several dtypes), normal, standard_normal, choice, shuffle, ... of a
    Generator made in compiled code: exactly what NumPy's default_rng(seed) draws."""
    assert_same_draws(basics, seed, n, shape, np.arange(7.0))


def _made(method: str, nparams: int) -> Callable[..., Any]:
    """`def made_<method>(seed, a0, ..., n, shape)`: default_rng(seed), then the method of a
    scalar, of n and of a shape (source that jitcore can read, through linecache)."""
    params = ", ".join(f"a{i}" for i in range(nparams))
    lead = params + ", " if params else ""
    source = (
        f"def made_{method}(seed, {lead}n, shape):\n"
        f"    g = np.random.default_rng(seed)\n"
        f"    return g.{method}({params}), g.{method}({lead}n), g.{method}({lead}size=shape)\n"
    )
    filename = f"<jitcore-nprandomrng-{next(_counter)}>"
    return function_from_source(source, f"made_{method}", filename, {"np": np})


MADE = {method: _made(method, len(params)) for method, params in METHODS.items()}


@pytest.mark.parametrize("method", sorted(METHODS))
@given(data=st.data(), seed=SEEDS, n=SIZE, shape=SHAPE)
def test_every_distribution_matches_numpy(method, data, seed, n, shape):
    """Every distribution (NumPy's C functions, given the made Generator's bitgen_t): NumPy's
    numbers bit for bit, or NumPy's exception for bad parameters."""
    params = tuple(data.draw(s, label=f"a{i}") for i, s in enumerate(METHODS[method]))
    assert_same_draws(MADE[method], seed, *params, n, shape)


def unsigned_seed(seed):
    return np.random.default_rng(seed).integers(0, 1000, 5)


@pytest.mark.parametrize("seed", [np.uint64(2**64 - 1), np.uint64(2**63), np.uint32(7), True])
def test_unsigned_and_bool_seeds(seed):
    """A uint64 seed beyond int64 (two 32-bit entropy words) and a bool (an int to NumPy)."""
    assert np.array_equal(compiled(unsigned_seed)(seed), unsigned_seed(seed))


def negative_seed(seed):
    return np.random.default_rng(seed).random()


@given(seed=st.integers(-(2**63), -1))
def test_negative_seed_raises_numpys_error(seed):
    with pytest.raises(ValueError, match="expected non-negative integer"):
        compiled(negative_seed)(seed)
    with pytest.raises(ValueError, match="expected non-negative integer"):
        negative_seed(seed)


def unseeded(n):
    return np.random.default_rng().random(n), np.random.default_rng(None).integers(0, 2**62)


def test_unseeded_generators_differ():
    """default_rng() draws its seed from the OS's entropy: two calls, two streams."""
    f = compiled(unseeded)
    (a, i), (b, j) = f(8), f(8)
    assert a.shape == (8,) and ((a >= 0) & (a < 1)).all()
    assert not np.array_equal(a, b) and i != j


def same_generator(g, n):
    h = np.random.default_rng(g)
    made = np.random.default_rng(n)
    again = np.random.default_rng(made)
    return h.random(n), g.random(n), again.random(n), made.random(n)


def test_default_rng_of_a_generator_is_that_generator():
    python_g, compiled_g = np.random.default_rng(5), np.random.default_rng(5)
    expected = same_generator(python_g, 3)
    got = compiled(same_generator)(compiled_g, 3)
    assert all(np.array_equal(x, y) for x, y in zip(expected, got))
    assert python_g.bit_generator.state == compiled_g.bit_generator.state


def draw_from(g, n):
    return g.normal(0.0, 1.0, n), g.integers(0, 5, n)


def passes_to_callee(seed, n):
    g = np.random.default_rng(seed)
    first = draw_from(g, n)
    return first, draw_from(g, n), draw_from(np.random.default_rng(seed + 1), n)


def test_a_made_generator_passes_to_jitted_callees():
    """The callee draws from the caller's Generator in place (it takes a reference)."""
    global draw_from
    plain = draw_from
    try:
        draw_from = jit(mode="compiled")(plain)
        got = compiled(passes_to_callee)(4, 6)
    finally:
        draw_from = plain
    assert _same(passes_to_callee(4, 6), got)
    assert "generator(owned)" in compiled(passes_to_callee).inspect(stage="typeinfer")


def many(n, k):
    total = 0.0
    for i in range(n):
        g = np.random.default_rng(i)
        if i % 3 == 0:
            g = np.random.default_rng(i + 1000)  # the first one is released here
        total += g.random() + g.random(k).sum() + g.standard_normal(k).sum()
        if total < -1e300:
            return total  # an early return releases the live one
    return total


def fails(i):
    g = np.random.default_rng(i)
    x = g.random()
    return x + g.normal(0.0, -1.0)  # ValueError: scale < 0


def test_made_generators_are_freed():
    """A Generator made in a loop, replaced, drawn from and dropped, or alive when an exception
    leaves the function: every block is released (the runtime's live-block count)."""
    f, g = compiled(many), compiled(fails)
    assert f(50, 3) == many(50, 3)
    g_python = _outcome(fails, (1,))
    assert _same(g_python, _outcome(g, (1,)))
    before = runtime.live_blocks(), runtime.live_bytes()
    for _ in range(20):
        f(500, 4)
        with pytest.raises(ValueError, match="scale < 0"):
            g(1)
    assert (runtime.live_blocks(), runtime.live_bytes()) == before


def per_iteration(n):
    out = np.empty(n)
    for i in prange(n):
        g = np.random.default_rng(i)
        out[i] = g.random() + g.standard_normal()
    return out


def test_prange_workers_make_their_own_generators():
    """Each iteration's Generator is its own (no state shared between workers), NumPy's
    numbers, and every one is freed."""
    f = compiled(per_iteration, parallel=True)
    assert np.array_equal(f(3), per_iteration(3))  # compiled (and the runtime linked)
    before = runtime.live_blocks()
    got = f(300)
    assert np.array_equal(got, per_iteration(300))
    del got
    assert runtime.live_blocks() == before


def returns_made(seed):
    return np.random.default_rng(seed)


def seeded_by_float(x):
    return np.random.default_rng(x).random()


def seeded_by_array(a):
    return np.random.default_rng(a).random()


@pytest.mark.parametrize(
    ("f", "arg", "match"),
    [
        (returns_made, 1, "cannot be returned"),
        (seeded_by_float, 1.5, "seed must be an int"),
        (seeded_by_array, np.arange(3), "seed must be an int"),
    ],
)
def test_unsupported_uses_are_compile_errors(f, arg, match):
    with pytest.raises(JitError, match=match):
        jit(mode="compiled")(f)(arg)


def made_and_passed(seed, g, n):
    h = np.random.default_rng(seed)
    return h.random(n), g.random(n), h.choice(5, 2), g.integers(0, 9, n)


def test_ir_with_a_made_generator_round_trips():
    """Every stage's IR text (`generator(owned)`, its cast to `generator`, default_rng by
    name, the runtime's PCG64 calls) parses back to the same text."""
    from jitcore.ir.parser import parse_ir
    from jitcore.ir.printer import print_ir
    from jitcore.session import open_session

    f = jit(mode="compiled")(made_and_passed)
    f(1, np.random.default_rng(2), 3)
    for stage in ("ssa", "typeinfer", "optimize", "lower"):
        text = f.inspect(stage=stage)
        if stage != "ssa":
            assert "generator(owned)" in text
        with open_session():  # parsing resolves the kernels the calls name
            assert print_ir(parse_ir(text)) == text, stage


def last_draw(seed, n):
    return np.random.default_rng(seed).standard_normal(n)


def test_the_generator_lives_until_its_bitgen_is_used():
    """`refcount` counts a use of the borrowed `generator` (the bitgen_t inside the block) as a
    use of the Generator: the block is released after the draw, not right after the cast."""
    f = compiled(last_draw)
    assert np.array_equal(f(3, 4), last_draw(3, 4))
    lines = f.inspect(stage="lower").splitlines()
    (made,) = [ln.split()[0] for ln in lines if ln.endswith(": generator(owned)")]
    lent = next(i for i, ln in enumerate(lines) if f"cast {made} : generator" in ln)
    name = lines[lent].split()[0]
    use = next(i for i, ln in enumerate(lines) if "ncall" in ln and f"({name}," in ln)
    released = [i for i, ln in enumerate(lines) if ln.endswith(f"decref {made} : none")]
    assert not [i for i in released if lent < i < use]
    assert [i for i in released if i > use]


CHILD = """
import json, kernels
result = kernels.draws(7, 5)
print(json.dumps({"result": [float(x) for x in result], "hit": kernels.draws.stats().cache_hit}))
"""


def test_cached_code_makes_generators_in_another_process(tmp_path: Path) -> None:
    """Cached object code names the runtime's PCG64 seeding; the bitgen_t's function pointers
    are filled in by the process that runs it, so a cache hit draws the same numbers."""
    module = (
        "import numpy as np\nfrom jitcore import jit\n\n@jit(cache=True)\ndef draws(s, n):\n"
        "    g = np.random.default_rng(s)\n"
        "    return g.normal(1.0, 2.0, n) + g.random(n)\n"
    )
    runs = run_twice_on_one_cache(tmp_path, module, CHILD, timeout=300)
    g = np.random.default_rng(7)
    expected = g.normal(1.0, 2.0, 5) + g.random(5)
    assert not runs[0]["hit"] and runs[1]["hit"]
    assert runs[0]["result"] == runs[1]["result"] == expected.tolist()
