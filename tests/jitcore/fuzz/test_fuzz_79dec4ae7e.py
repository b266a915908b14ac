# ruff: noqa  (generated code: unused variables and redundant parentheses are normal)
"""Found by `python -m jitcheck fuzz` (batch seed 4043), shrunk by Hypothesis.

    different exception: outcome: python raised ZeroDivisionError: integer modulo by zero,
    compiled 0.0: different outcome
    python: raised ZeroDivisionError: integer modulo by zero
    compiled: 0.0

A `try` whose handler returns: the code after the `try` was merged (simplifycfg) into the
last protected part of its body, so its raises went to the handler (`p0[0, 0 % 0] = ...`
returned the handler's 0.0 instead of raising ZeroDivisionError). Fixed: blocks of different
`try` parts are not merged, and the code after a `try` body (its `else` too) starts a block
of its own in `ssa`. The file is the fuzzer's output as written, plus the cases around it.
"""

import math

import numpy as np

from jitcheck.fuzz import assert_compiled_matches_python


def f(p0):
    try:
        pass
    except ZeroDivisionError:
        return 0.0
    v2 = 0.0
    v3 = 0
    p0[0, v3 % p0.shape[1]] = v2


ARGS = (np.array([], dtype=np.float64).reshape((0, 0)),)


def test_fuzz_79dec4ae7e() -> None:
    assert_compiled_matches_python(f, ARGS)


def handler_returns(n, d):
    try:
        x = n + 1
    except ZeroDivisionError:
        return -1
    return n % d


def else_is_not_protected(n, d):
    try:
        x = 1
    except ZeroDivisionError:
        return -1
    else:
        y = n % d
    return y


def body_raises(n, d):
    try:
        x = n % d
    except ZeroDivisionError:
        return -1
    return x


def test_raises_after_a_try_are_not_caught_by_it() -> None:
    for func in (handler_returns, else_is_not_protected, body_raises):
        assert_compiled_matches_python(func, (3, 0))
        assert_compiled_matches_python(func, (3, 2))
