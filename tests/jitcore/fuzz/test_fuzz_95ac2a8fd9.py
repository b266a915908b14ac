# ruff: noqa  (generated code: unused variables and redundant parentheses are normal)
"""Found by `python -m jitcheck fuzz` (batch seed 4023), shrunk by Hypothesis.

    wrong result: result: python inf, compiled 1e+308: python is infinite, compiled finite
    (overflow on one side only)
    python: inf
    compiled: 1e+308

`round(x, n)` of a NumPy float is `np.round`: it scales by 10**n, rounds and unscales, so
`round(np.float64(1e308), 1)` is inf; compiled code used Python's correctly rounded `round`
for every float (fixed in lib/builtins: NumPy's computation for NumPy floats). The file is
the fuzzer's output as written, plus the cases around it.
"""

import math

import numpy as np

from jitcheck.fuzz import assert_compiled_matches_python


def f(p0, p1, p2, p3):
    return float(round(p0[0], 1))


ARGS = (
    np.array([1e308], dtype=np.float64),
    np.array([0.0], dtype=np.float64),
    np.array([0.0], dtype=np.float64),
    0.0,
)


def test_fuzz_95ac2a8fd9() -> None:
    assert_compiled_matches_python(f, ARGS)


def numpy_round(a, n):
    return round(a[0], n), round(a[-1] * 1.5, n), round(float(a[0]), n)


def test_round_of_numpy_floats_is_np_round() -> None:
    for values in ([2.675, 1e308], [1234.5678, -1e300], [0.5, float("nan")], [-2.5, 1e-320]):
        for n in (-2, 0, 1, 2, 10):
            assert_compiled_matches_python(numpy_round, (np.array(values), n))
