"""No vacuous checks: examples that raised are counted, too many of them fail the check, and
coupled array shapes make most examples exercise the kernel; the timing input is checked."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitcheck.decorator import ShapeSpec, config_from_kwargs
from jitcheck.strategies import Underivable, coupled, derive_plan, example_strategy
from jitcore import Array, jit
from jitcore.ir import types as T
from tests.jitcheck.support import FAST_TIMING, function, run, write_module

# three arrays of independent shapes (and of different dtypes, so that jitcheck's aliasing
# inputs, which pass one array for two of a type, cannot make them agree): most raise
MISMATCHED = """
@jit
def fused(a: Array[np.float64, 1], b: Array[np.int64, 1], c: Array[np.float32, 1]):
    return 0.5 * a + 0.5 * b * c
"""

COUPLED = """
@jitcheck(shapes="a:(n,) b:(n,) c:(n,)")
@jit
def fused(a: Array[np.float64, 1], b: Array[np.float64, 1], c: Array[np.float64, 1]):
    return 0.5 * a + 0.5 * b * c


@jitcheck(shapes="X:(n,d) Y:(n,) w:(d,)")
@jit
def residual(X: Array[np.float64, 2], Y: Array[np.float64, 1], w: Array[np.float64, 1]):
    out = np.empty(X.shape[0])
    for i in range(X.shape[0]):
        s = 0.0
        for k in range(X.shape[1]):
            s += X[i, k] * w[k]
        out[i] = s - Y[i]
    return out
"""


def test_a_reference_that_raises_on_most_examples_is_flagged(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_k", MISMATCHED)
    result, report = run(pytester, "--jit-diff", "--jit-diff-max-examples=30")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "`fused` returned normally in Python on only * of * examples (*%, at least 50% "
            "required)*",
            "  * raised ValueError: operands could not be broadcast together*",
            "*@jitcheck(shapes=*",
            "function*outcome*examples*returned*raised*rejected*",
        ]
    )
    diff = function(report, "fused")["diff"]
    python, o3 = diff["outcomes"]["python"], diff["outcomes"]["O3"]
    assert python["raised"]["ValueError"] > python["returned"]
    assert o3 == python  # compiled code raised exactly where Python did
    assert diff["returned_share"] < 0.5 and diff["min_returned"] == 0.5


def test_the_bar_is_configurable(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_k", MISMATCHED)
    result, _ = run(
        pytester, "--jit-diff", "--jit-diff-max-examples=20", "--jit-diff-min-returned=0"
    )
    result.assert_outcomes(passed=1)
    lowered = "@jitcheck(min_returned=0.0)\n" + MISMATCHED.lstrip()
    write_module(pytester, "test_k", lowered)
    result, report = run(pytester, "--jit-diff", "--jit-diff-max-examples=20")
    result.assert_outcomes(passed=1)
    assert function(report, "fused")["diff"]["min_returned"] == 0.0
    result = pytester.runpytest_inprocess("--jit-diff", "--jit-diff-min-returned=150%")
    result.stderr.fnmatch_lines(["*--jit-diff-min-returned is a share of examples*"])


def test_coupled_shapes_make_examples_return(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_k", COUPLED)
    result, report = run(pytester, "--jit-diff", "--jit-diff-max-examples=30")
    result.assert_outcomes(passed=2)
    for name, shapes in (("fused", "a:(n,) b:(n,) c:(n,)"), ("residual", "X:(n,d) Y:(n,) w:(d,)")):
        record = function(report, name)
        assert record["diff"]["returned_share"] == 1.0, record["diff"]
        assert record["inputs"].endswith(f"; shapes {shapes}")


def test_shape_specs_parse_and_bound_every_array() -> None:
    spec = ShapeSpec.parse("X:(n, d)  w:(d,) Y:(n,) pos:(m,3)")
    assert spec.dims == {"X": ("n", "d"), "w": ("d",), "Y": ("n",), "pos": ("m", 3)}
    assert spec.bounds(64) == {"n": 8, "d": 8, "m": 21}
    assert str(spec) == "X:(n,d) w:(d,) Y:(n,) pos:(m,3)"
    assert ShapeSpec.parse({"a": ["n", 2]}).dims == {"a": ("n", 2)}
    for bad in ("X:(n,d", "X(n)", "X:(n,-1)", "X:(n,,d)", ""):
        with pytest.raises(ValueError):
            ShapeSpec.parse(bad)
    with pytest.raises(ValueError, match="min_returned is a share"):
        config_from_kwargs({"min_returned": 2})


def test_coupled_arrays_share_their_dimensions() -> None:
    spec = ShapeSpec.parse("X:(n,d) w:(d,) Y:(n,)")
    types = {"X": T.Array(T.F64, 2, "A"), "w": T.Array(T.F64, 1, "C"), "Y": T.Array(T.F64, 1)}
    seen: list[tuple[tuple[int, ...], ...]] = []

    @settings(max_examples=40, database=None)
    @given(coupled(spec, types, {}))
    def draws(example: dict[str, np.ndarray]) -> None:
        X, w, Y = example["X"], example["w"], example["Y"]
        assert X.shape == (Y.shape[0], w.shape[0]) and w.flags.c_contiguous
        seen.append((X.shape, w.shape))

    draws()
    assert len(set(seen)) > 5  # the sizes vary from example to example


def _f(a: Array[np.float64, 2], x: float) -> float:
    return x


def test_shapes_that_do_not_fit_the_function_say_why() -> None:
    f = jit(_f)
    with pytest.raises(Underivable, match="gives `a` 1 dimension"):
        derive_plan(f, {}, {}, ShapeSpec.parse("a:(n,)"))
    with pytest.raises(Underivable, match="of type f64"):
        derive_plan(f, {}, {}, ShapeSpec.parse("a:(n,m) x:(n,)"))
    with pytest.raises(Underivable, match="strategy must draw the array's elements"):
        derive_plan(f, {"a": object()}, {}, ShapeSpec.parse("a:(n,m)"))


def test_with_shapes_a_strategy_for_an_array_draws_its_elements() -> None:
    plan = derive_plan(jit(_f), {"a": st.just(7.5)}, {}, ShapeSpec.parse("a:(n,m)"))

    @given(example_strategy(plan, 0))
    @settings(max_examples=20, database=None)
    def check(example: dict) -> None:
        assert (example["a"] == 7.5).all()

    check()


TIMED_ONLY = """

@jitcheck(a=st.just(0.0), b=st.just(0.0), bench_args=lambda: (3.0, 1.0))
@jit
def sub(a: float, b: float) -> float:
    return a - b
"""


def test_the_timing_input_is_compared_too(pytester: pytest.Pytester, miscompile: None) -> None:
    # every drawn example is 0 - 0, where `a - a` agrees; only the timing input shows it
    write_module(pytester, "test_k", TIMED_ONLY)
    result, _ = run(pytester, "--jit-diff", "--jit-diff-bench", *FAST_TIMING)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "`sub` disagrees with Python in mode O3",
            "  example: the timing input sub(a=3.0, b=1.0)",
            "  python: *2.0",
            "  O3: *0.0",
        ]
    )
