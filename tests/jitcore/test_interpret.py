"""The typed-IR interpreter (`jitcore.interpret`): for the bundled kernels and the README
examples, interpreting the IR of every stage gives what Python gives and what the compiled
code gives, on Hypothesis inputs; what it cannot run it says so."""

from __future__ import annotations

import copy
import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import kernels, readme_examples
from jitcheck.check import input_plan
from jitcheck.collect import is_dispatcher
from jitcheck.decorator import CheckConfig, config_of
from jitcheck.strategies import example_strategy
from jitcore import jit
from jitcore.argtypes import typeof
from jitcore.interpret import CannotInterpret, StageIR, UndefinedBehaviour, interpret
from jitcore.ir import nodes as ir
from jitcore.optimize import Pass, register_pass, unregister_pass

KERNELS = {
    f"{module.__name__.rpartition('.')[2]}.{name}": obj
    for module in (kernels, readme_examples)
    for name, obj in vars(module).items()
    if is_dispatcher(obj) and obj.__module__ == module.__name__
}


def _outcome(func: Any, args: tuple[Any, ...]) -> tuple[str, Any, tuple[Any, ...]]:
    """(error type name or "", result, the arguments after the call)."""
    args = copy.deepcopy(args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy overflow warnings: results
        try:
            return "", func(*args), args
        except Exception as exc:  # noqa: BLE001 - the exception is the outcome
            return type(exc).__name__, None, args


def _same(a: Any, b: Any, rtol: float) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y, rtol) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and a.dtype == b.dtype and _close(a, b, rtol)
    if isinstance(a, float | np.floating) or isinstance(b, float | np.floating):
        return _close(np.asarray(a), np.asarray(b), rtol)
    return bool(a == b) and type(a) is type(b)


def _close(a: np.ndarray, b: np.ndarray, rtol: float) -> bool:
    if a.dtype.kind not in "fc":
        return bool(np.array_equal(a, b))
    return bool(np.allclose(a, b, rtol=rtol, atol=rtol, equal_nan=True))


def _check_agreement(dispatcher: Any, args: tuple[Any, ...], rtol: float, source: StageIR) -> None:
    python = _outcome(dispatcher.py_func, args)
    compiled = _outcome(dispatcher, args)
    signature = tuple(typeof(a) for a in args)
    # The interpreter runs a loop in order; a parallel (or fast-math) function's compiled float
    # reductions add in another order, which can differ from it beyond any relative tolerance
    # when terms cancel (1e22 + 9e15 - 1e22 - 8.5e15): its values are compared with Python's.
    reorders = dispatcher.options.parallel or dispatcher.options.fastmath
    for stage in source.stages(dispatcher, signature):
        interpreted = _outcome(lambda *a, s=stage: interpret(dispatcher, a, s, source), args)
        for reference, label in ((python, "Python"), (compiled, "compiled")):
            assert interpreted[0] == reference[0], (stage, label, interpreted, reference)
            if label == "compiled" and reorders:
                continue
            assert _same(interpreted[1], reference[1], rtol), (stage, label, interpreted)
            assert _same(interpreted[2], reference[2], rtol), (stage, label, "arguments")


# Kernels whose strategies draw big problems (or heavy recursion): interpreting them in
# Python is slow, so they get fewer examples.
SLOW = {"kernels.fib", "readme_examples.fib", "kernels.sieve", "kernels.leibniz_pi"}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_interpreter_agrees_with_python_and_compiled_code(name: str) -> None:
    dispatcher = KERNELS[name]
    config = config_of(dispatcher) or CheckConfig()
    plan = input_plan(dispatcher, config)
    rtol = max(1e-9, config.rtol or 0.0)
    examples = example_strategy(plan, 0)
    source = StageIR()  # compiled once per signature, not per example
    if name in SLOW:
        examples = examples.filter(lambda d: all(v < 16 for v in d.values()))

    @settings(
        max_examples=4 if name in SLOW else 10,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(examples)
    def check(values: dict[str, Any]) -> None:
        _check_agreement(dispatcher, plan.call_args(values), rtol, source)

    check()


def test_int64_arithmetic_wraps_as_compiled_code_does() -> None:
    @jit(mode="compiled")
    def wrap(a: int) -> int:
        return a * 4 + 3

    big = 2**62
    assert interpret(wrap, (big,)) == wrap(big) == (big * 4 + 3 + 2**63) % 2**64 - 2**63


def test_float32_rounds_and_python_division_by_zero_raises() -> None:
    @jit(mode="compiled")
    def third(x: np.float32, y: float) -> tuple:
        return x / np.float32(3.0), 1.0 / y

    x = np.float32(1.0)
    value = interpret(third, (x, 2.0))
    assert value == third(x, 2.0)
    assert type(value[0]) is np.float32
    with pytest.raises(ZeroDivisionError):
        interpret(third, (x, 0.0))


def test_stages_are_the_typed_ir_after_typeinfer_and_after_each_pass() -> None:
    stages = list(StageIR().stages(kernels.sum_loop, (typeof(np.ones(2)),)))
    assert stages[0] == "typeinfer"
    assert "optimize:licm" in stages and stages[-1] == "optimize:dce"


def _swap_sub(fn: ir.Function) -> bool:
    changed = False
    for _, instr in fn.instructions():
        if isinstance(instr, ir.BinOp) and instr.op == "sub":
            instr.lhs, instr.rhs = instr.rhs, instr.lhs
            changed = True
    return changed


def test_a_miscompiling_pass_changes_the_interpreted_result_after_it() -> None:
    @jit(mode="compiled")
    def diff(a: float, b: float) -> float:
        return a - b

    register_pass(Pass("swapsub", _swap_sub), after="dce")
    try:
        assert interpret(diff, (5.0, 2.0), "optimize:dce") == 3.0
        assert interpret(diff, (5.0, 2.0), "optimize:swapsub") == -3.0
    finally:
        unregister_pass("swapsub")


def test_an_index_no_check_covers_is_undefined_behaviour() -> None:
    @jit(mode="compiled", boundscheck=False)
    def last(a: np.ndarray, i: int) -> float:
        return a[i]

    a = np.arange(3.0)
    assert interpret(last, (a, -1)) == 2.0
    with pytest.raises(UndefinedBehaviour, match="out of bounds for axis 0"):
        interpret(last, (a, 3))


def test_checked_indexing_raises_index_error_as_python() -> None:
    @jit(mode="compiled")
    def get(a: np.ndarray, i: int) -> float:
        return a[i]

    with pytest.raises(IndexError):
        interpret(get, (np.arange(3.0), 3))


def test_an_instruction_it_cannot_run_is_named() -> None:
    @jit(mode="compiled")
    def guarded(x: float) -> float:
        try:
            return math.sqrt(x) / x
        except ZeroDivisionError:
            return 0.0

    with pytest.raises(CannotInterpret, match="cannot interpret"):
        interpret(guarded, (2.0,))


def test_recursion_runs_the_callee_ir_of_the_same_stage() -> None:
    assert interpret(kernels.fib, (12,), "typeinfer") == kernels.fib.py_func(12) == 144


@given(st.floats(allow_nan=False), st.floats(allow_nan=False))
@settings(max_examples=20, deadline=None)
def test_scalar_kernel_on_any_floats(a: float, b: float) -> None:
    assert _same(interpret(kernels.add, (a, b)), kernels.add(a, b), 0.0)
