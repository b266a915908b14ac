# ruff: noqa  (generated code: unused variables and redundant parentheses are normal)
"""Found by `python -m jitcheck fuzz` (batch seed 2000), shrunk by Hypothesis.

    wrong result: argument `#0` after the call[0, 0]: python 6.25, compiled 2.5: relative error
    0.6, 5910974510923776 ulps apart (tolerance 4 ulps)

A float constant to a small constant int power (`2.5 ** 2`, `2.0 ** 3`) compiled to the base:
`scalar.float_pow` unrolled `x ** n` into multiplications but took a constant `x` for the
starting 1.0 (fixed). Statements that did not matter deleted by hand; the rest as written.
"""

import math

import numpy as np

from jitcheck.fuzz import assert_compiled_matches_python


def f(p0, p1, p2, p3):
    for i1 in range(len(p3)):
        p0[0, 0] = p1
    p0[0, (0) % p0.shape[1]] = (2.5) ** 2
    v9 = (p2 + p2) + p2
    return (p2, True, p1, 2.0**3, 0.5**0, (-1.5) ** 1, 3.0**4)


ARGS = (np.array([[0.0]], dtype=np.float64), 0.0, 0, np.array([], dtype=np.float64).reshape((0,)))


def test_fuzz_c35ac65865() -> None:
    assert_compiled_matches_python(f, ARGS)


def g(x):
    return x**2 + math.pi**3


def test_constant_powers_fold_to_the_power() -> None:
    assert_compiled_matches_python(g, (1.5,))
