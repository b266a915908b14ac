"""`@jitcheck` on a `jitcore.Module` class: the model stepped in Python and compiled, compared.

    @jitcheck(n=st.integers(1, 8), I=st.floats(-10, 10), n_steps=st.integers(1, 30))
    class Pop(jitcore.Module):
        def __init__(self, n): ...
        def update(self, I): ...

Each Hypothesis example builds the model once from drawn constructor arguments (parameters of
`__init__` without a strategy keep their defaults), copies it, so both runs start from the same
state, draws the number of steps (`n_steps`, default 1 to 20) and the step method's arguments
for every step, then steps one copy as Python (jitted callees too) and the other through the
compiled method. After every step the results and every Variable are compared by jitcheck's
policy (`jitcheck.compare`); the failure names the first step and Variable that differ, and
Hypothesis shrinks the example (fewest steps, simplest inputs) before reporting it.

The step method is `update` when the class has one, else `__call__`.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from jitcheck.collect import JitcheckUsageError, JitDiffFunction, JitDiffItem
from jitcheck.decorator import CheckConfig

__all__ = ["ModuleCheck", "ModuleCheckItem", "ModuleDivergence", "check_module"]

DEFAULT_MAX_STEPS = 20


class ModuleCheck(JitDiffFunction):
    """The collector of one `@jitcheck` Module class: one `jit-diff` item."""

    def collect(self) -> list[pytest.Item]:
        return [
            ModuleCheckItem.from_parent(
                self, name="jit-diff", target=self.target, binding=self.binding
            )
        ]


class ModuleCheckItem(JitDiffItem):
    """Steps the Module in Python and compiled and compares the state after every step."""

    def prepare(self) -> None:
        """Nothing to derive ahead: the strategies are the ones declared."""

    def runtest(self) -> None:
        self.jitcheck_result.inputs = "declared strategies (Module)"
        check_module(self.target, self.check_config)


class ModuleDivergence(AssertionError):
    """The compiled model's state (or a step's result) differs from Python's."""

    jitcheck_report = True


def _step_name(cls: type) -> str:
    return "update" if callable(getattr(cls, "update", None)) else "__call__"


def _params(func: Callable[..., Any]) -> list[inspect.Parameter]:
    return list(inspect.signature(func).parameters.values())[1:]


def _drawn(
    params: list[inspect.Parameter], strategies: Mapping[str, Any], what: str
) -> dict[str, Any]:
    """The strategy of each parameter; a parameter with neither strategy nor default is a
    usage error."""
    chosen = {}
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.name in strategies:
            chosen[p.name] = strategies[p.name]
        elif p.default is inspect.Parameter.empty:
            raise JitcheckUsageError(
                f"@jitcheck on a Module: give a strategy for {what} parameter `{p.name}` "
                f"(@jitcheck({p.name}=st....))"
            )
    return chosen


def check_module(cls: type, config: CheckConfig) -> None:
    """Run the Hypothesis check of Module class `cls` (see the module docstring)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    step_name = _step_name(cls)
    step_func = inspect.getattr_static(cls, step_name)
    step_func = getattr(step_func, "py_func", step_func)
    strategies = dict(config.strategies)
    n_steps = strategies.pop("n_steps", st.integers(1, DEFAULT_MAX_STEPS))
    init = _drawn(_params(cls.__init__), strategies, "constructor")  # type: ignore[misc]
    step = _drawn(_params(step_func), strategies, f"{step_name}()")
    unused = set(strategies) - set(init) - set(step)
    if unused:
        raise JitcheckUsageError(
            f"@jitcheck on {cls.__name__}: no constructor or {step_name}() parameter is "
            f"named {', '.join(sorted(unused))}"
        )

    @st.composite
    def example(draw: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        kwargs = {k: draw(s) for k, s in init.items()}
        steps = [{k: draw(s) for k, s in step.items()} for _ in range(draw(n_steps))]
        return kwargs, steps

    options: dict[str, Any] = {"deadline": None}
    if config.max_examples is not None:
        options["max_examples"] = config.max_examples

    @settings(**options)
    @given(example())
    def run(drawn: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
        _compare_runs(cls, step_func, drawn[0], drawn[1], config)

    run()


def _compare_runs(
    cls: type,
    step_func: Callable[..., Any],
    init: dict[str, Any],
    steps: list[dict[str, Any]],
    config: CheckConfig,
) -> None:
    from jitcheck.compare import DEFAULT_ULPS, Tolerance, first_difference, show
    from jitcore import ExecutionMode, JitError, JitOptions
    from jitcore.dispatcher import Dispatcher, python_mode
    from jitcore.methods import BoundMethod

    python_model = cls(**copy.deepcopy(init))
    compiled_model = copy.deepcopy(python_model)
    compiled_step = BoundMethod(
        compiled_model, Dispatcher(step_func, JitOptions(mode=ExecutionMode.COMPILED))
    )
    tol = Tolerance(
        config.ulps if config.ulps is not None else DEFAULT_ULPS,
        config.rtol or 0.0,
        config.atol or 0.0,
    )

    def where(i: int, detail: str) -> ModuleDivergence:
        shown = ", ".join(f"{k}={show(v)}" for k, v in init.items())
        inputs = ", ".join(f"{k}={show(v)}" for k, v in steps[i].items())
        return ModuleDivergence(
            f"{cls.__name__} diverges at step {i + 1} of {len(steps)}: {detail}\n"
            f"  model: {cls.__name__}({shown})\n"
            f"  inputs of step {i + 1}: {step_func.__name__}({inputs})"
        )

    for i, kwargs in enumerate(steps):
        with python_mode():
            python = _outcome(step_func, python_model, **copy.deepcopy(kwargs))
        try:
            compiled = _outcome(compiled_step, **copy.deepcopy(kwargs))
        except JitError as exc:
            raise JitcheckUsageError(
                f"{cls.__name__}.{step_func.__name__} cannot be compiled: {exc}"
            ) from None
        if python[1] is not compiled[1]:
            raise where(i, f"the step: python {_said(python)}, compiled {_said(compiled)}")
        if python[1] is not None:
            return  # both raised the same error: the state after it is not compared
        diff = first_difference(python[0], compiled[0], tol, path="result")
        if diff is not None:
            raise where(i, f"the step's {diff}")
        compiled_vars = compiled_model.variables()  # type: ignore[attr-defined]
        for path, var in python_model.variables().items():  # type: ignore[attr-defined]
            other = compiled_vars[path].value
            diff = first_difference(var.value, other, tol, path=f"Variable `{path}`")
            if diff is not None:
                raise where(i, str(diff))


def _outcome(
    call: Callable[..., Any], *args: Any, **kwargs: Any
) -> tuple[Any, type[BaseException] | None, str]:
    from jitcore import JitError

    try:
        return call(*args, **kwargs), None, ""
    except JitError:
        raise
    except Exception as exc:  # noqa: BLE001 - compared with the other run's error
        return None, type(exc), str(exc)


def _said(outcome: tuple[Any, type[BaseException] | None, str]) -> str:
    if outcome[1] is None:
        return "returned"
    return f"raised {outcome[1].__name__}: {outcome[2]}"
