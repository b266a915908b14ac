"""Array arguments through the plugin: each mode gets its own copy, with the same memory layout,
and arrays a kernel writes into are compared after the call.

A fake dispatcher plays the compiler (see fake_dispatcher.py), so these tests hold whatever
jitcore compiles today.
"""

from __future__ import annotations

import re

import pytest

from tests.jitcheck.support import function, run, write_module

KERNELS = """
from tests.jitcheck.fake_dispatcher import fake


def _scale_into(a: Array[np.float64, 1], out: Array[np.float64, 1]) -> None:
    for i in range(min(a.shape[0], out.shape[0])):
        out[i] = 2.0 * a[i]


def _scale_into_wrongly(a, out):
    _scale_into(a, out)
    if out.shape[0] > 2:
        out[2] = -out[2]  # the "miscompilation": one element written wrongly


RECEIVED = []  # every array a call received, Python's and compiled


def _layout(a: Array[np.float64, 2]) -> tuple:
    RECEIVED.append(a)
    a[...] = 1.0  # a kernel that writes into its input: every mode needs its own copy
    return a.shape, a.strides, a.flags.c_contiguous, a.flags.f_contiguous


def _at(a: Array[np.float64, 1], i: int) -> float:
    return a[i]


def _at_unchecked(a, i):
    return a[i] if -a.shape[0] <= i < a.shape[0] else 42.0  # reads past the end


scale = fake(_scale_into, _scale_into)
scale_wrongly = fake(_scale_into, _scale_into_wrongly)
layout = fake(_layout, _layout)
at = fake(_at, _at, unchecked=_at_unchecked)


def test_layouts_reached_the_calls_in_private_copies():  # runs after layout::jit-diff
    assert len(RECEIVED) >= 120  # 60 examples, Python and one mode each
    assert any(not (a.flags.c_contiguous or a.flags.f_contiguous) for a in RECEIVED)
    assert any(a.flags.f_contiguous and not a.flags.c_contiguous for a in RECEIVED)
    assert any(min(a.strides) < 0 for a in RECEIVED if a.size)
    for i, a in enumerate(RECEIVED):
        assert not any(np.shares_memory(a, b) for b in RECEIVED[i + 1 :])
"""


def test_arrays_written_by_a_kernel_are_compared_after_the_call(
    pytester: pytest.Pytester,
) -> None:
    write_module(pytester, "test_fake", KERNELS)
    result, report = run(pytester, "--jit-diff", "--jit-diff-max-examples=30", "-k", "scale")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["`scale_wrongly` disagrees with Python in mode O3", "  example: scale_wrongly(*"]
    )
    first = r"  first difference: argument `out` after the call\[2\]: python (\S+), compiled -\1: "
    assert re.search(first, result.stdout.str())
    assert function(report, "scale")["inputs"] == "annotations"


def test_every_call_gets_a_private_copy_with_the_generated_layout(
    pytester: pytest.Pytester,
) -> None:
    write_module(pytester, "test_fake", KERNELS)
    result, report = run(pytester, "--jit-diff", "--jit-diff-max-examples=60", "-k", "layout")
    result.assert_outcomes(passed=2)  # equal layouts in every mode, and all kinds reached it
    assert function(report, "layout")["diff"]["examples"] == 60


def test_without_bounds_checks_out_of_bounds_examples_are_not_compared(
    pytester: pytest.Pytester,
) -> None:
    write_module(pytester, "test_fake", KERNELS)
    result, report = run(
        pytester,
        "--jit-diff",
        "--jit-diff-max-examples=60",
        "-k",
        "at and not layouts",
        "--jit-diff-modes=noboundscheck",
        "--jit-diff-min-returned=0",  # out-of-bounds examples (Python raises) are the point
    )
    result.assert_outcomes(passed=1)
    at = function(report, "at")
    assert at["modes"] == ["O3", "O3+noboundscheck"]
    assert at["diff"]["not_compared"]["O3+noboundscheck"] > 0  # Python raised IndexError
