"""Failures anyone can replay: the printed example is exact (layout, strides, every float
bit), and the report keeps Hypothesis's replay blob, profile and seed, and the command that
reruns the single failing example."""

from __future__ import annotations

import re
import shlex
import shutil

import numpy as np
import pytest

from jitcheck.values import describe_call, exact, fresh_copy
from tests.jitcheck.support import function, run, write_module

FORTRAN_ONLY = """
from tests.jitcheck.fake_dispatcher import fake


def _total(a: Array[np.int64, 2]) -> int:
    return int(a.sum())


def _total_wrong_for_fortran(a):
    fortran = a.flags.f_contiguous and not a.flags.c_contiguous
    return int(a.sum()) + (1 if fortran else 0)  # the "miscompilation"


total = fake(_total, _total_wrong_for_fortran)
"""


def _printed_example(output: str) -> str:
    match = re.search(r"^  example: (total\(.*\))$", output, re.MULTILINE)
    assert match is not None, output
    return match.group(1)


def test_a_fortran_array_failure_replays_from_the_printed_example(
    pytester: pytest.Pytester,
) -> None:
    write_module(pytester, "test_k", FORTRAN_ONLY)
    result, report = run(pytester, "--jit-diff", "--jit-diff-max-examples=100")
    result.assert_outcomes(failed=1)
    example = _printed_example(result.stdout.str())
    assert "np.asfortranarray(" in example
    # paste the example: the argument is rebuilt exactly, and the failure happens again
    arguments = eval(example.replace("total(", "dict(", 1), {"np": np})  # noqa: S307
    a = arguments["a"]
    assert a.flags.f_contiguous and not a.flags.c_contiguous
    assert int(a.sum()) != int(a.sum()) + 1  # (what the fake compiler does with it)
    record = function(report, "total")["diff"]["hypothesis"]
    assert record["replay"] and record["version"] and record["profile"]
    assert record["command"].startswith("pytest ") and "test_k.py::total" in record["command"]
    assert f"rerun this example: {record['command']}" in result.stdout.str()


def test_the_rerun_command_replays_the_single_failing_example(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_k", FORTRAN_ONLY)
    result, report = run(pytester, "--jit-diff", "--jit-diff-max-examples=100")
    example = _printed_example(result.stdout.str())
    command = function(report, "total")["diff"]["hypothesis"]["command"]
    shutil.rmtree(pytester.path / ".hypothesis", ignore_errors=True)  # no saved example
    args = shlex.split(command)[1:]
    again, again_report = run(pytester, *args)
    again.assert_outcomes(failed=1)
    assert _printed_example(again.stdout.str()) == example
    assert function(again_report, "total")["diff"]["examples"] == 0  # only that one ran


@pytest.mark.parametrize(
    "value",
    [
        np.arange(6.0)[::2],
        np.arange(6.0)[::-2],
        np.arange(24.0).reshape(4, 6)[::2, ::-2],
        np.asfortranarray(np.arange(6.0).reshape(2, 3)),
        np.zeros((0, 3)),
        np.array([np.inf, -0.0, np.nan, 0.1 + 0.2]),
        np.array([1 + 2j, complex(np.nan, 1)]),
        np.arange(6, dtype=np.float32) / 3,
        (1.5, float("nan"), np.float32(0.1), -0.0, np.int8(-3), True),
    ],
)
def test_exact_rebuilds_values_with_layout_and_every_bit(value: object) -> None:
    for v in (value, fresh_copy(value)):  # also as the check's private copies are
        rebuilt = eval(exact(v), {"np": np})  # noqa: S307
        if isinstance(v, np.ndarray):
            assert rebuilt.dtype == v.dtype and rebuilt.shape == v.shape
            assert rebuilt.strides == v.strides or v.size == 0  # (no element to address)
            assert rebuilt.tobytes() == v.tobytes()
        else:
            assert repr(rebuilt) == repr(v) or all(
                type(x) is type(y) and np.array_equal(x, y, equal_nan=True)
                for x, y in zip(rebuilt, v)  # type: ignore[call-overload]
            )


def test_examples_show_floats_exactly() -> None:
    assert describe_call("f", ("x", "y"), (0.1 + 0.2, 1e-310)) == (
        "f(x=0.30000000000000004, y=1e-310)"
    )
