# ruff: noqa  (generated code: unused variables and redundant parentheses are normal)
"""Found by `python -m jitcheck fuzz` (batch seed 4069), shrunk by Hypothesis.

    wrong result: result: python 0.0, compiled -8.0: compiled is nonzero where python is 0,
    4620693217682128896 ulps apart (tolerance 4 ulps)
    python: 0.0
    compiled: -8.0

`round(x, n)` of a Python float of large magnitude: the rounded x * 10**n is not always a
float beyond 2**53, so dividing it back landed an ULP away from x (5.9e16 - round(5.9e16, 1)
was -8.0). Fixed in lib/builtins: from |x * 10**n| >= 2**53 on (and |x / 10**-n| for n < 0)
the result is x itself, as the correctly rounded decimal result is there. The file is the
fuzzer's output as written, plus a sweep over magnitudes.
"""

import math

import numpy as np

from jitcheck.fuzz import assert_compiled_matches_python


def f(p0, p1, p2, p3):
    return p3 - round(p3, 1)


ARGS = (0, 0, 0.0, 5.918907234240253e16)


def test_fuzz_3334f394e3() -> None:
    assert_compiled_matches_python(f, ARGS)


def rounded(x, n):
    return round(x, n)


def test_round_of_large_floats_is_correctly_rounded() -> None:
    values = [5.918907234240253e16, 4503599627370495.5, -101017870422523.75, 1863674.6076011513]
    values += [-7.824766151091734e17, 3.498051550365382e19, 2.0**53 + 2, 1e22, 2.675, 0.5]
    for x in values:
        for n in (-3, -1, 0, 1, 2, 5, 10, 22):
            assert_compiled_matches_python(rounded, (x, n))
