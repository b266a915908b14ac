"""Running a function in this process: the Python reference, compiled modes, argument typing."""

from __future__ import annotations

import numpy as np

from jitcheck.execute import LocalExecutor, plain_python, signature_of
from jitcheck.modes import Mode
from jitcore import jit
from jitcore.argtypes import typeof
from jitcore.ir import types as T
from tests.jitcheck import execute_helpers as helpers


def _square_via_module(x: int) -> int:
    return helpers.square(x)  # a module attribute, not a global naming the dispatcher


def test_the_reference_runs_callees_as_python_by_any_route() -> None:
    # compiled ints wrap at 64 bits where Python's do not: a compiled callee inside the
    # reference would show here as 2**80 wrapped to 0
    caller = jit(_square_via_module, mode="compiled")  # jitted here: --jit-diff leaves it be
    executor = LocalExecutor(caller, [Mode("O3", {})])
    assert executor.call_python((2**40,)).value == 2**80
    assert caller.signatures == []
    assert executor.call("O3", (2**40,)).value == 0
    # the plain copy timed as the baseline reaches the compiled callee this way (timing only)
    assert plain_python(caller)(2**40) == 0


def test_the_timing_baseline_is_plain_python_without_any_dispatcher() -> None:
    @jit(mode="compiled")
    def fib(n: int) -> int:
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    plain = plain_python(fib)
    assert plain(15) == 610
    assert fib.signatures == []  # nothing went through the dispatcher
    assert not getattr(plain, "__jitcore_dispatcher__", False)


def test_arguments_are_typed_as_the_dispatcher_types_them() -> None:
    a = np.zeros((2, 3), order="F")
    assert (
        signature_of((1, 2.0, a))
        == (T.I64, T.F64, typeof(a))
        == (
            T.I64,
            T.F64,
            T.Array(T.F64, 2, "F"),
        )
    )
    read_only = np.zeros(3)
    read_only.flags.writeable = False
    assert signature_of((read_only,)) is None  # the dispatcher refuses it before compiling
    assert signature_of((b"1",)) is None
