"""The kernels' Python versions are right: checked against NumPy, known values and each other.

A speedup of a wrong kernel is worth nothing, and jitcheck treats the Python version as the
truth, so it must be one. These are plain tests: `--benchmark-only` skips them; run them with
`pytest benchmarks -p no:xdist`.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from benchmarks import kernels as k
from benchmarks.cases import BY_NAME, CASES, difference, run
from benchmarks.variants import is_jitted, pure_python


@pytest.mark.parametrize("kernel", [c.name for c in CASES if c.numpy is not None])
def test_python_matches_numpy(kernel: str) -> None:
    case = BY_NAME[kernel]
    assert case.numpy is not None
    args = case.inputs(case.demo_size)
    diff = difference(case, run(case.numpy, args), run(pure_python(case.kernel), args))
    assert diff is None, str(diff)


def test_pure_python_reaches_no_compiled_code() -> None:
    fib = pure_python(k.fib)
    assert not is_jitted(fib) and fib.__globals__["fib"] is fib
    mandelbrot = pure_python(k.mandelbrot)
    assert not is_jitted(mandelbrot.__globals__["mandel_point"])


def test_known_values() -> None:
    assert pure_python(k.fib)(25) == 75025
    assert pure_python(k.sieve)(1_000_000) == 78498
    assert pure_python(k.sieve)(1) == 0
    assert abs(pure_python(k.leibniz_pi)(100_000) - math.pi) < 1e-4
    assert pure_python(k.mandel_point)(*k.mandel_point_inputs(100)) == 100
    assert pure_python(k.mandel_point)(1.0, 1.0, 100) == 2


def test_gelu_expression_matches_loop() -> None:
    x, out = k.gelu_loop_inputs(1000)
    pure_python(k.gelu_loop)(x, out)
    np.testing.assert_allclose(pure_python(k.gelu)(x), out, rtol=1e-12)


def test_fused_expression() -> None:
    a, b, c = k.fused_inputs(1000)
    np.testing.assert_array_equal(pure_python(k.fused)(a, b, c), 0.5 * a + (0.5 * b) * c)


def test_logreg_step_is_a_gradient_step() -> None:
    """The update is minus the gradient of the logistic loss sum(log(1 + exp(-y x.w)))."""
    X, Y, w = k.logreg_step_inputs(200)
    w0 = w.copy()
    gradient = sum(-y * x / (1 + math.exp(y * (x @ w0))) for x, y in zip(X, Y))
    result = pure_python(k.logreg_step)(X, Y, w)
    assert result is w
    np.testing.assert_allclose(w, w0 - gradient, rtol=1e-10)


def test_nbody_conserves_momentum() -> None:
    """Pairwise forces are equal and opposite: total momentum does not change."""
    pos, vel, mass, dt = k.nbody_step_inputs(50)
    before = mass @ vel
    pure_python(k.nbody_step)(pos, vel, mass, dt)
    np.testing.assert_allclose(mass @ vel, before, atol=1e-12)
