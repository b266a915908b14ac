"""Running a Module for many steps at a chosen granularity (PsyNeuLink's LLVM/LLVMExec/LLVMRun).

`run(model, n_steps, inputs=..., monitors=[...], mode=...)` calls the model's step method
(`update`, else `__call__`) `n_steps` times, feeding inputs and recording monitored Variables
into preallocated arrays. Granularities:

* `"run"`: the whole loop (input injection, the step, the monitor writes) is generated as the
  source of one function of the model and compiled: one native call per run (or per chunk of
  steps when a progress bar is shown);
* `"step"`: each step is a compiled call, the loop is Python;
* `"python"`: everything is Python (the reference, and for debugging);
* `"auto"`: run, else step, else python; each fallback is a `JitFallbackWarning` saying why.

The granularity actually used is `RunResult.mode`.
"""

from __future__ import annotations

import inspect
import itertools
import linecache
import math
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import FunctionType
from typing import Any, TextIO

import numpy as np

from jitcore.dispatcher import Dispatcher, python_mode
from jitcore.errors import JitError, JitFallbackWarning
from jitcore.methods import BoundMethod, Path, walk
from jitcore.options import ExecutionMode, JitOptions, options_from_env
from jitcore.state import Module, Variable

__all__ = ["MODES", "RunResult", "Runner", "run"]

MODES = ("auto", "run", "step", "python")
_NUMBERS = (bool, int, float, complex, np.generic)


@dataclass
class RunResult:
    """What a run did: the granularity used, the monitors (`result["pop.V"]`, one row per
    step), the wall time and the reasons of any fallback."""

    mode: str
    n_steps: int
    monitors: dict[str, np.ndarray]
    seconds: float
    fallbacks: list[str] = field(default_factory=list)

    def __getitem__(self, name: str) -> np.ndarray:
        return self.monitors[name]


@dataclass(frozen=True)
class _Input:
    """One input: a step parameter (`target` a name) or a Variable (`target` a path), fed a
    per-step array (row `i` at step `i`) or the same constant every step."""

    target: str
    arg: str
    value: Any
    per_step: bool
    variable: Path | None


class Runner:
    """Runs `model` step after step; state carries over from one `run` to the next.

    `inputs` maps a parameter name of the step method, or the dotted path of a Variable, to a
    value: an array whose first axis has one row per step (row `i` is used at step `i`), or a
    number used at every step. `monitors` lists Variable paths (or maps labels to paths).
    """

    def __init__(
        self,
        model: Module,
        *,
        inputs: Mapping[str, Any] | None = None,
        monitors: Sequence[str] | Mapping[str, str] = (),
        mode: str = "auto",
        method: str | None = None,
        progress: bool | TextIO = False,
        options: JitOptions | None = None,
    ) -> None:
        if not isinstance(model, Module):
            raise TypeError(f"run() needs a jitcore.Module, not {type(model).__name__}")
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.model = model
        self.method_name = method or ("update" if hasattr(model, "update") else "__call__")
        self.step_func, method_options = _step_function(model, self.method_name)
        base = options or method_options or JitOptions()
        self.options = options_from_env(base.replace(mode=ExecutionMode.COMPILED))
        if options_from_env(base).mode is ExecutionMode.PYTHON:
            mode = "python"  # JITCORE_DISABLE_JIT=1 or jit(mode="python")
        self.mode = mode
        self.inputs = dict(inputs or {})
        self.monitors = (
            dict(monitors) if isinstance(monitors, Mapping) else {m: m for m in monitors}
        )
        for label, path in self.monitors.items():
            if not isinstance(walk(model, _path(path)), Variable):
                raise TypeError(f"monitor {label!r}: {path!r} is not a Variable of the model")
        self.progress = progress

    def run(self, n_steps: int) -> RunResult:
        """Run `n_steps` steps; the monitors hold one row per step."""
        n_steps = int(n_steps)
        if n_steps < 0:
            raise ValueError(f"n_steps must be >= 0, not {n_steps}")
        inputs = _inputs(self.inputs, n_steps, self.step_func)
        monitors = {
            label: _monitor_array(walk(self.model, _path(p)), n_steps)
            for label, p in self.monitors.items()
        }
        order = {"auto": ("run", "step", "python")}.get(self.mode, (self.mode,))
        fallbacks: list[str] = []
        start = time.perf_counter()
        for i, granularity in enumerate(order):
            try:
                self._run_as(granularity, n_steps, inputs, monitors)
            except JitError as exc:
                if i == len(order) - 1 or self.mode != "auto":
                    raise exc.with_traceback(None) from None
                reason = f"{_WHAT[granularity]} could not be compiled: {exc}"
                fallbacks.append(reason)
                warnings.warn(
                    f"jitcore.run: {reason}\nfalling back to {order[i + 1]!r} granularity",
                    JitFallbackWarning,
                    stacklevel=3,
                )
                continue
            seconds = time.perf_counter() - start
            return RunResult(granularity, n_steps, monitors, seconds, fallbacks)
        raise AssertionError("unreachable: the last granularity raises or returns")

    def _run_as(
        self, mode: str, n_steps: int, inputs: list[_Input], monitors: dict[str, np.ndarray]
    ) -> None:
        paths = {label: _path(self.monitors[label]) for label in monitors}
        if mode == "run":
            self._run_compiled(n_steps, inputs, monitors, paths)
            return
        if mode == "step":
            step: Callable[..., Any] = BoundMethod(
                self.model, Dispatcher(self.step_func, self.options)
            )
            _python_loop(self.model, step, 0, n_steps, inputs, monitors, paths, self.progress)
            return
        with python_mode():
            step = self.step_func.__get__(self.model)
            _python_loop(self.model, step, 0, n_steps, inputs, monitors, paths, self.progress)

    def _run_compiled(
        self,
        n_steps: int,
        inputs: list[_Input],
        monitors: dict[str, np.ndarray],
        paths: dict[str, Path],
    ) -> None:
        func = _loop_function(
            self.method_name,
            tuple((i.target, i.arg, i.per_step, i.variable) for i in inputs),
            tuple(paths.values()),
            {i.variable: walk(self.model, i.variable).ndim for i in inputs if i.variable},
        )
        # a whole run is long: its final code at once, not a first tier (`jitcore.tiering`)
        options = self.options.replace(tiered=False)
        bound = BoundMethod(self.model, Dispatcher(func, options))
        generated = bound.generated(options)
        values = [i.value for i in inputs] + list(monitors.values())
        # compile first (a run of no steps), so neither a compile error nor the compile time
        # lands in the middle of the chunks
        generated.dispatcher(*bound.arrays(generated), 0, 0, *values)
        for lo, hi in _chunks(n_steps, self.progress):
            arrays = bound.arrays(generated)
            generated.dispatcher(*arrays, lo, hi, *values)


_WHAT = {"run": "the whole run", "step": "the step", "python": "Python"}


def run(
    model: Module,
    n_steps: int,
    *,
    inputs: Mapping[str, Any] | None = None,
    monitors: Sequence[str] | Mapping[str, str] = (),
    mode: str = "auto",
    jit: bool = True,
    method: str | None = None,
    progress: bool | TextIO = False,
    opt: int = 3,
    fastmath: bool = False,
    boundscheck: bool = True,
) -> RunResult:
    """Run `model` for `n_steps` steps (see `Runner`); `jit=False` is `mode="python"`."""
    options = JitOptions(opt=opt, fastmath=fastmath, boundscheck=boundscheck)
    runner = Runner(
        model,
        inputs=inputs,
        monitors=monitors,
        mode=mode if jit else "python",
        method=method,
        progress=progress,
        options=options,
    )
    return runner.run(n_steps)


# --- preparing inputs and monitors -------------------------------------------------------------


def _path(text: str) -> Path:
    return tuple(text.split("."))


def _step_function(model: Module, name: str) -> tuple[FunctionType, JitOptions | None]:
    static = inspect.getattr_static(type(model), name, None)
    if isinstance(static, Dispatcher):
        return static.py_func, static.options  # type: ignore[return-value]
    if isinstance(static, FunctionType):
        return static, None
    raise TypeError(f"{type(model).__name__} has no method {name}() to run")


def _inputs(spec: Mapping[str, Any], n_steps: int, step: FunctionType) -> list[_Input]:
    params = list(inspect.signature(step).parameters)[1:]
    made = []
    for k, (target, value) in enumerate(spec.items()):
        variable = None if target in params else _path(target)
        if variable is None and "." not in target and target not in params:
            raise TypeError(
                f"input {target!r} is neither a parameter of {step.__name__}() nor a Variable path"
            )
        if isinstance(value, Variable):
            value = value.value
        per_step = isinstance(value, np.ndarray) and value.ndim > 0
        if per_step and value.shape[0] != n_steps:
            raise ValueError(
                f"input {target!r} has {value.shape[0]} rows for {n_steps} steps "
                "(an array input gives one row per step)"
            )
        if not per_step and not isinstance(value, _NUMBERS):
            raise TypeError(f"input {target!r}: give an array of one row per step or a number")
        made.append(_Input(target, f"_jc_in{k}", value, per_step, variable))
    return made


def _monitor_array(var: Variable, n_steps: int) -> np.ndarray:
    return np.zeros((n_steps, *var.shape), dtype=var.dtype)


# --- the Python loop (step and python granularities) -------------------------------------------


def _python_loop(
    model: Module,
    step: Callable[..., Any],
    lo: int,
    hi: int,
    inputs: list[_Input],
    monitors: dict[str, np.ndarray],
    paths: dict[str, Path],
    progress: bool | TextIO,
) -> None:
    kwargs_fixed = {i.target: i.value for i in inputs if i.variable is None and not i.per_step}
    per_step_args = [i for i in inputs if i.variable is None and i.per_step]
    variables = [(walk(model, i.variable), i) for i in inputs if i.variable is not None]
    recorded = [(monitors[label], walk(model, p)) for label, p in paths.items()]
    given = {i.target for i in inputs if i.variable is None}
    params = _step_params(step)
    positional = given == set(params[: len(given)])
    for a, b in _chunks(hi - lo, progress, offset=lo):
        for t in range(a, b):
            for var, inp in variables:
                _inject(var, inp.value[t] if inp.per_step else inp.value)
            kwargs = dict(kwargs_fixed)
            for inp in per_step_args:
                kwargs[inp.target] = inp.value[t]
            if positional:  # the fast call: no binding of keywords
                step(*(kwargs[p] for p in params[: len(kwargs)]))
            else:
                step(**kwargs)
            for out, var in recorded:
                out[t] = var.value


def _step_params(step: Callable[..., Any]) -> list[str]:
    func = getattr(step, "func", None) or getattr(step, "__func__", None) or step
    return list(inspect.signature(func).parameters)[1:]


def _inject(var: Variable, value: Any) -> None:
    """An input into a Variable: broadcast into an array Variable (`v[:] = x`), assigned to a
    0-d one (`t = x`), as the compiled loop does."""
    if var.ndim:
        var[:] = value
    else:
        var.value = value


# --- the whole-run function ----------------------------------------------------------------------

_LOOPS: dict[tuple[Any, ...], FunctionType] = {}
_SERIAL = itertools.count()


def _loop_function(
    method: str,
    inputs: tuple[tuple[str, str, bool, Path | None], ...],
    monitors: tuple[Path, ...],
    variable_ndim: dict[Path, int],
) -> FunctionType:
    """The whole loop as the source of a function of the model (one per layout of inputs and
    monitors, so a second run reuses its compiled code)."""
    key = (method, inputs, monitors, tuple(sorted(variable_ndim.items())))
    func = _LOOPS.get(key)
    if func is not None:
        return func
    args = ["self", "_jc_start", "_jc_stop", *(a for _, a, _, _ in inputs)]
    args += [f"_jc_mon{k}" for k in range(len(monitors))]
    body = ["    for _jc_i in range(_jc_start, _jc_stop):"]
    call_args = []
    for target, arg, per_step, variable in inputs:
        value = f"{arg}[_jc_i]" if per_step else arg
        if variable is not None:
            index = "[:]" if variable_ndim[variable] else ""
            body.append(f"        self.{'.'.join(variable)}{index} = {value}")
        else:
            call_args.append(f"{target}={value}")
    body.append(f"        self.{method}({', '.join(call_args)})")
    for k, path in enumerate(monitors):
        body.append(f"        _jc_mon{k}[_jc_i] = self.{'.'.join(path)}")
    filename = f"<jitcore.run {method} #{next(_SERIAL)}>"
    source = f"def _jc_run({', '.join(args)}):\n" + "\n".join(body) + "\n"
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    namespace: dict[str, Any] = {}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - generated above
    func = namespace["_jc_run"]
    _LOOPS[key] = func
    return func  # type: ignore[no-any-return]


# --- chunks and the progress bar -----------------------------------------------------------------


def _chunks(n: int, progress: bool | TextIO, offset: int = 0) -> Iterator[tuple[int, int]]:
    """[lo, hi) step ranges: one without a progress bar; with one, chunks sized to take about
    0.2 s each, so the bar is redrawn a few times a second whatever a step costs."""
    if not progress:
        if n:
            yield offset, offset + n
        return
    stream = progress if not isinstance(progress, bool) else sys.stderr
    bar = _Bar(n, stream)
    done, size = 0, min(n, 16)
    while done < n:
        began = time.perf_counter()
        yield offset + done, offset + done + size
        done += size
        spent = max(time.perf_counter() - began, 1e-6)
        bar.show(done)
        size = max(1, min(n - done, int(size * min(8.0, 0.2 / spent))))
    bar.close()


class _Bar:
    def __init__(self, total: int, stream: TextIO) -> None:
        self.total, self.stream, self.start = total, stream, time.perf_counter()

    def show(self, done: int) -> None:
        width = 30
        filled = width * done // max(self.total, 1)
        spent = time.perf_counter() - self.start
        rate = done / spent if spent > 0 else math.inf
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} steps "
            f"{spent:6.1f} s {rate:,.0f} steps/s"
        )
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()
