# ruff: noqa  (generated code: unused variables and redundant parentheses are normal)
"""Found by `python -m jitcheck fuzz` (batch seed 4019), shrunk by Hypothesis.

    different exception: outcome: python raised ZeroDivisionError: integer modulo by zero,
    compiled None: different outcome
    python: raised ZeroDivisionError: integer modulo by zero
    compiled: None

`round(x)` of a NumPy float (a loop variable over an array) was typed as a NumPy
int, so `v % round(x)` at 0 followed NumPy (0, no error); NumPy's `__round__` returns a Python
int, so Python raises ZeroDivisionError (fixed in lib/builtins: the result is a Python int).
The file is the fuzzer's output as written.
"""

import math

import numpy as np

from jitcheck.fuzz import assert_compiled_matches_python


def f(p0, p1):
    v1 = 0
    for x5 in p1:
        v6 = -v1 % round(min(max(x5, -1000000000000000.0), 1000000000000000.0)) % 7


ARGS = (0.0, np.array([0.0], dtype=np.float64))


def test_fuzz_cea95d77f5() -> None:
    assert_compiled_matches_python(f, ARGS)
