"""Distributions of a np.random.Generator passed into compiled code (jitcore/lib/nprandomgd.py),
drawn by NumPy's own C functions: the same numbers as NumPy's methods bit for bit, the
Generator left in NumPy's state, and NumPy's errors for bad parameters and sizes."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import JitError, jit
from tests.jitcore.lib.test_nprandomgen import BIT_GENERATORS, SEEDS, assert_same_stream
from tests.jitcore.support import function_from_source, run_twice_on_one_cache

_counter = itertools.count()

SPECIAL = st.sampled_from([np.nan, 0.0, -0.0, -1.0, 0.5, 1.0, 1.5])
REAL = st.one_of(SPECIAL, st.floats(-10.0, 10.0), st.floats(0.0, 1e3))
PROBABILITY = st.one_of(SPECIAL, st.floats(0.0, 1.0))
SIZE = st.integers(0, 12)
SHAPE = st.tuples(st.integers(0, 3), st.integers(0, 3))

# method -> strategies of its required parameters (the optional ones get defaults and values)
METHODS: dict[str, tuple[st.SearchStrategy[Any], ...]] = {
    "normal": (REAL, REAL),
    "exponential": (REAL,),
    "standard_cauchy": (),
    "standard_gamma": (REAL,),
    "gamma": (REAL, REAL),
    "beta": (REAL, REAL),
    "chisquare": (REAL,),
    "f": (REAL, REAL),
    "noncentral_chisquare": (REAL, REAL),
    "noncentral_f": (REAL, REAL, REAL),
    "standard_t": (REAL,),
    "vonmises": (REAL, REAL),
    "pareto": (REAL,),
    "weibull": (REAL,),
    "power": (REAL,),
    "laplace": (REAL, REAL),
    "gumbel": (REAL, REAL),
    "logistic": (REAL, REAL),
    "lognormal": (REAL, REAL),
    "rayleigh": (REAL,),
    "wald": (REAL, REAL),
    "triangular": (REAL, REAL, REAL),
    "geometric": (PROBABILITY,),
    "logseries": (PROBABILITY,),
    "zipf": (st.one_of(SPECIAL, st.floats(1.0, 10.0)),),
    "negative_binomial": (REAL, PROBABILITY),
    "hypergeometric": (st.integers(-2, 30), st.integers(-2, 30), st.integers(-2, 30)),
    "standard_normal": (),
    "standard_exponential": (),
}


def _draws(method: str, nparams: int) -> Callable[..., Any]:
    """`def draws(g, a0, ..., n, shape)`: the method of a scalar, of n and of a shape, as a
    function with source that jitcore can read (linecache)."""
    params = ", ".join(f"a{i}" for i in range(nparams))
    lead = params + ", " if params else ""
    source = (
        f"def draws_{method}(g, {lead}n, shape):\n"
        f"    return g.{method}({params}), g.{method}({lead}n), g.{method}({lead}size=shape)\n"
    )
    filename = f"<jitcore-nprandomgd-{next(_counter)}>"
    return function_from_source(source, f"draws_{method}", filename, {"np": np})


DRAWS = {method: _draws(method, len(params)) for method, params in METHODS.items()}


@pytest.mark.parametrize("method", sorted(METHODS))
@given(data=st.data(), seed=SEEDS, n=SIZE, shape=SHAPE, bits=BIT_GENERATORS)
def test_method_matches_numpy(method, data, seed, n, shape, bits):
    """Every method, on valid and invalid parameters (NaN, 0, -0.0, negatives): NumPy's
    numbers bit for bit and the Generator in NumPy's state, or NumPy's exception."""
    params = tuple(data.draw(s, label=f"a{i}") for i, s in enumerate(METHODS[method]))
    assert_same_stream(DRAWS[method], seed, *params, n, shape, bits=bits)


def defaults(g):
    return (
        g.normal(),
        g.normal(size=3),
        g.exponential(),
        g.gumbel(),
        g.laplace(size=2),
        g.logistic(),
        g.lognormal(),
        g.rayleigh(size=(2, 1)),
        g.gamma(2.5),
        g.normal(scale=2.0, loc=-1.0),
        g.standard_normal(size=(0, 3)),
        g.normal(size=0),
    )


def float32s(g, n):
    return (
        g.standard_normal(dtype=np.float32),
        g.standard_normal(n, np.float32),
        g.standard_exponential(dtype=np.float32),
        g.standard_exponential(size=(2, n), dtype=np.float32),
        g.standard_normal(n, dtype=np.float64),
        g.standard_exponential(n, method="zig"),
        g.random(dtype=np.float32),
        g.random(n, np.float32),
        g.random(n, dtype=np.float64),
    )


@given(SEEDS, SIZE, BIT_GENERATORS)
def test_defaults_keywords_and_float32(seed, n, bits):
    assert_same_stream(defaults, seed, bits=bits)
    assert_same_stream(float32s, seed, n, bits=bits)


def normal_loop(g, n):
    """Scalar draws in a loop, interleaved with other methods: one stream."""
    total = 0.0
    for i in range(n):
        total += g.normal(1.0, 2.0) + g.standard_exponential() * g.random()
        if i % 3 == 0:
            total += g.integers(0, 10) + g.poisson(3.0)
    return total


@given(SEEDS, SIZE)
def test_scalar_draws_interleave_with_other_methods(seed, n):
    assert_same_stream(normal_loop, seed, n)


def normal_size(g, size):
    return g.normal(0.0, 1.0, size)


def normal_bad(g, loc, scale, size):
    return g.normal(loc, scale, size)


def gamma_shape(g, shape, size):
    return g.standard_gamma(shape, size)


def hyper(g, good, bad, sample):
    return g.hypergeometric(good, bad, sample, 2)


def negbin(g, n, p):
    return g.negative_binomial(n, p, 2)


@pytest.mark.parametrize(
    ("f", "args"),
    [
        (normal_size, (-1,)),
        (normal_size, ((2, -1),)),
        (normal_size, ((2**40, 2**40),)),  # the size overflows: NumPy's error, no crash
        (normal_size, ((2**62, 4),)),
        (normal_bad, (0.0, -1.0, -1)),  # the parameters are checked before the size
        (normal_bad, (0.0, -0.0, 3)),
        (normal_bad, (np.nan, np.nan, 3)),
        (gamma_shape, (-1.0, 2)),
        (gamma_shape, (0.0, 2)),
        (hyper, (10**9, 1, 1)),
        (hyper, (1, 10**9, 1)),
        (hyper, (-1, 1, 1)),
        (hyper, (-1, 5, 1)),
        (hyper, (5, -1, 1)),
        (hyper, (1, 1, -1)),
        (hyper, (1, 1, 3)),
        (hyper, (0, 0, 0)),
        (negbin, (1e300, 1e-10)),
        (negbin, (np.nan, 0.5)),
        (negbin, (1.0, 1.0)),
    ],
)
def test_bad_arguments_raise_numpys_errors(f, args):
    assert_same_stream(f, 3, *args)


def exponential_inv(g):
    return g.standard_exponential(method="inv")


def normal_out(g, out):
    return g.standard_normal(out=out)


def normal_of_array(g, loc):
    return g.normal(loc)


def normal_int_dtype(g):
    return g.standard_normal(dtype=np.int64)


def gamma_float32(g):
    return g.standard_gamma(1.0, dtype=np.float32)


@pytest.mark.parametrize(
    ("f", "args", "message"),
    [
        (exponential_inv, (), "method='zig'"),
        (normal_out, (np.zeros(2),), "out="),
        (normal_of_array, (np.zeros(2),), "array arguments"),
        (normal_int_dtype, (), "dtype"),
        (gamma_float32, (), "dtype"),
    ],
)
def test_unsupported_uses_are_compile_errors(f, args, message):
    with pytest.raises(JitError, match=message):
        jit(mode="compiled")(f)(np.random.default_rng(1), *args)


def multinomial(g):
    return g.multinomial(3, np.ones(2) / 2)


def test_an_uncompiled_method_names_the_compiled_ones():
    with pytest.raises(JitError, match="standard_normal") as info:
        jit(mode="compiled")(multinomial)(np.random.default_rng(1))
    assert "multinomial" in str(info.value)


CHILD = """
import json, numpy as np, kernels
g = np.random.default_rng(7)
result = kernels.draws(g, 5)
print(json.dumps({"result": [float(x) for x in result], "hit": kernels.draws.stats().cache_hit,
                  "state": g.bit_generator.state["state"]["state"]}))
"""


def test_cached_code_links_numpys_functions_in_another_process(tmp_path: Path) -> None:
    """Cached object code names NumPy's functions; each process resolves them anew."""
    module = (
        "from jitcore import jit\n\n@jit(cache=True)\ndef draws(g, n):\n"
        "    return g.normal(1.0, 2.0, n) + g.standard_gamma(3.0, n)\n"
    )
    runs = run_twice_on_one_cache(tmp_path, module, CHILD, timeout=300)
    g = np.random.default_rng(7)
    expected = g.normal(1.0, 2.0, 5) + g.standard_gamma(3.0, 5)
    assert not runs[0]["hit"] and runs[1]["hit"]
    assert runs[0]["result"] == runs[1]["result"] == expected.tolist()
    assert runs[0]["state"] == runs[1]["state"] == g.bit_generator.state["state"]["state"]


def distributions(g, n):
    return g.normal(1.0, 2.0, n), g.gamma(2.0), g.hypergeometric(3, 4, 2, n)


def test_ir_with_distribution_calls_round_trips():
    """Every stage's IR text (the primitives and fill kernels by name) parses back."""
    from jitcore.ir.parser import parse_ir
    from jitcore.ir.printer import print_ir
    from jitcore.session import open_session

    f = jit(mode="compiled")(distributions)
    f(np.random.default_rng(1), 3)
    for stage in ("ssa", "typeinfer", "optimize", "lower"):
        text = f.inspect(stage=stage)
        with open_session():
            assert print_ir(parse_ir(text)) == text, stage
