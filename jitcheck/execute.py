"""Running a function: Python and each compiled mode, in this process.

The Python reference runs in the dispatcher's own Python mode (`Dispatcher.run(...,
mode="python")`): every jitted function it reaches, itself and its callees by whatever route,
runs as plain Python, so a miscompiled callee can never agree with itself. jitcore's own
tests take their reference the same way (tests/jitcore/support.py). The isolation child needs
nothing else: the reference always runs in the parent, and the child only runs compiled modes
and the timing baseline.

Timing is different: in Python mode each call of a jitted callee still passes through its
dispatcher (about 7x the time of plain `fib(20)`), which would inflate every speedup. The
Python baseline of `bench` is therefore a plain copy (`plain_python`) whose globals and
closure cells name plain-Python copies of the jitted functions instead.

`LocalExecutor` owns one fresh dispatcher per mode (never the user's, whose mode may be AUTO
and whose compile statistics we must not disturb). `call` runs one mode on arguments the
caller copied, and tells a compile failure (`CompileFailure`) from an exception the compiled
code raised at run time. The isolation child (`jitcheck.isolate`) serves the same object over
a pipe, so both paths share this code.
"""

from __future__ import annotations

import functools
import math
import types
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jitcheck.bench import BenchOptions, paired_rounds, speedup, time_call
from jitcheck.compare import Outcome
from jitcheck.load import cores_used, other_load
from jitcheck.modes import Mode
from jitcheck.values import fresh_copy
from jitcore import ExecutionMode, JitError
from jitcore.argtypes import typeof
from jitcore.errors import InternalCompilerError
from jitcore.ir import types as T


class CompileFailure(Exception):
    """A mode could not compile the function for these arguments."""

    def __init__(self, label: str, error: str, text: str, internal: bool) -> None:
        super().__init__(f"{error}: {text}")
        self.label = label
        self.error = error  # the exception's type name: TypingError, TypeError, ...
        self.text = text
        self.internal = internal  # an InternalCompilerError: a jitcore bug, never skipped


def invoke(func: Callable[..., Any], args: tuple[Any, ...]) -> Outcome:
    """Call `func(*args)` and record what happened; `args` are modified in place."""
    with warnings.catch_warnings():
        # NumPy scalar overflow and invalid-value warnings are results, not errors, even
        # under `-W error`: compiled code cannot warn, so comparing them would be unfair.
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            value = func(*args)
        except Exception as exc:  # noqa: BLE001 - the exception is the outcome
            return Outcome(error_type=type(exc), error_text=str(exc), args_after=args)
    return Outcome(value=value, args_after=args)


def signature_of(args: tuple[Any, ...]) -> tuple[T.Type, ...] | None:
    """The IR types the dispatcher will see for `args` (jitcore's own argument typing), or
    None if the dispatcher refuses one of them."""
    try:
        return tuple(typeof(a) for a in args)
    except TypeError:
        return None


def python_reference(dispatcher: Any) -> Callable[..., Any]:
    """The function as the Python reference: the dispatcher's Python mode, callees included."""
    return functools.partial(dispatcher.run, mode=ExecutionMode.PYTHON)


def plain_python(dispatcher: Any) -> Callable[..., Any]:
    """`dispatcher.py_func`, with every jitted function it reaches through its globals and
    closure cells (itself included) replaced by such a plain-Python copy: the Python baseline
    that `bench` times (see the module docstring for why timing does not use Python mode)."""
    return _PurePython().function(dispatcher.py_func)


class _PurePython:
    """Copies functions onto copies of their module globals in which dispatchers are
    replaced by plain-Python copies; one copy per function and per globals dict, so
    recursion and mutual recursion stay within the copies."""

    def __init__(self) -> None:
        self._functions: dict[int, types.FunctionType] = {}
        self._globals: dict[int, dict[str, Any]] = {}

    def function(self, func: Any) -> Any:
        if not isinstance(func, types.FunctionType):
            return func  # a builtin or other callable: nothing compiled inside
        if id(func) in self._functions:
            return self._functions[id(func)]
        module_globals = func.__globals__
        fresh = id(module_globals) not in self._globals
        patched = self._globals.setdefault(id(module_globals), dict(module_globals))
        cells, pending = self._cells(func)
        copy = types.FunctionType(func.__code__, patched, func.__name__, func.__defaults__, cells)
        copy.__kwdefaults__ = func.__kwdefaults__
        copy.__qualname__ = func.__qualname__
        self._functions[id(func)] = copy
        # filled after the copy is known, so a nested function that names itself recurses
        # into its copy
        for cell, py_func in pending:
            cell.cell_contents = self.function(py_func)
        if fresh:
            for name, value in module_globals.items():
                if _is_dispatcher(value):
                    patched[name] = self.function(value.py_func)
        return copy

    def _cells(
        self, func: types.FunctionType
    ) -> tuple[tuple[types.CellType, ...] | None, list[tuple[types.CellType, Any]]]:
        """The copy's closure cells: new (still empty) cells where a dispatcher was, listed
        with the Python function to fill them with; the other cells shared."""
        if func.__closure__ is None:
            return None, []
        cells, pending = [], []
        for cell in func.__closure__:
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell (a name assigned after the closure)
                value = None
            if _is_dispatcher(value):
                cell = types.CellType()
                pending.append((cell, value.py_func))
            cells.append(cell)
        return tuple(cells), pending


def _is_dispatcher(obj: object) -> bool:
    return getattr(obj, "__jitcore_dispatcher__", False) is True


def _warm_kernel(a: Any, x: float) -> float:
    """Touches what a first compilation initialises lazily: arrays, loops, maths, NumPy."""
    total = math.exp(x) + float(np.sum(a))
    for i in range(a.shape[0]):
        total += math.sqrt(abs(a[i])) * x
    return total


_warmed: list[bool] = []


def warm_compiler() -> None:
    """Compile and run a small kernel once per process, so the compile statistics of the
    first checked function measure its compilation, not the one-time imports (typeinfer's
    library modules, codegen, NumPy's typing) and LLVM's initialisation that any first
    compilation of a process pays."""
    if _warmed:
        return
    _warmed.append(True)
    from jitcore import jit

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            warm = jit(mode=ExecutionMode.COMPILED, cache=False)(_warm_kernel)
            warm(np.ones(2), 0.5)
        except Exception:  # noqa: BLE001 - warming is an optimisation: the check reports errors
            pass


class LocalExecutor:
    """Python and the compiled modes of one function, run in this process."""

    def __init__(self, dispatcher: Any, modes: Sequence[Mode]) -> None:
        warm_compiler()
        self.reference = python_reference(dispatcher)
        self.plain = plain_python(dispatcher)
        self.dispatchers = {
            # the final tier: what runs long, and what the timings stand for
            m.label: dispatcher.with_options(
                mode=ExecutionMode.COMPILED, tiered=False, **m.changes
            )
            for m in modes
        }
        self._first_stats: dict[str, dict[str, Any]] = {}

    def call_python(self, args: tuple[Any, ...]) -> Outcome:
        return invoke(self.reference, args)

    def call(self, label: str, args: tuple[Any, ...]) -> Outcome:
        """Run mode `label`; CompileFailure if it could not compile for these arguments."""
        d = self.dispatchers[label]
        before = len(d.signatures)
        known = signature_of(args) in d.signatures
        outcome = invoke(d, args)
        error = outcome.error_type
        if error is not None and issubclass(error, JitError):
            internal = issubclass(error, InternalCompilerError)
            raise CompileFailure(label, error.__name__, outcome.error_text, internal)
        if error is TypeError and not known and len(d.signatures) == before:
            # the dispatcher refused the argument types before compiling anything
            raise CompileFailure(label, "TypeError", outcome.error_text, internal=False)
        if label not in self._first_stats and d.signatures:
            self._first_stats[label] = d.stats(d.signatures[0]).as_dict()
        return outcome

    def compile_stats(self) -> dict[str, dict[str, Any]]:
        """Each mode's compile statistics for the first signature it compiled."""
        return dict(self._first_stats)

    def bench(
        self,
        args: tuple[Any, ...],
        options: BenchOptions,
        name: str,
        sink: Callable[[Any], None] | None = None,
    ) -> dict[str, Any]:
        """Time Python and every mode on copies of `args` (see `jitcheck.bench`); `name`
        prefixes the benchmarks' names (`<name>[python]`, `<name>[O3]`); `sink` receives
        pytest-benchmark's records (`time_call`).

        Each mode is timed on a new dispatcher, so its compile statistics are those of the
        timed signature, and whether the cache served it is that run's truth. The first call
        of Python and of each mode is returned too (`outcomes`): the caller compares them, so
        the timing input is checked like any example.
        """
        python = invoke(self.plain, fresh_copy(args))
        if python.raised:
            reason = f"the timing input raised in Python: {python.describe()}"
            return {"error": f"{reason}; give @jitcheck(bench_args=...)"}
        with other_load() as load:
            timed = self._time_modes(args, options, name, sink, python)
        return timed | {"load": load[0]}

    def _time_modes(
        self,
        args: tuple[Any, ...],
        options: BenchOptions,
        name: str,
        sink: Callable[[Any], None] | None,
        python: Outcome,
    ) -> dict[str, Any]:
        timing = {"python": _timed(self.plain, fresh_copy(args), f"{name}[python]", options, sink)}
        compile_stats: dict[str, Any] = {}
        errors: dict[str, str] = {}
        outcomes = {"python": python}
        timed = {"python": self.plain}
        for label, d in self.dispatchers.items():
            fresh = d.with_options()
            first = invoke(fresh, fresh_copy(args))
            outcomes[label] = first
            if first.raised:
                errors[label] = first.describe()
                continue
            compile_stats[label] = fresh.stats().as_dict()
            timing[label] = _timed(fresh, fresh_copy(args), f"{name}[{label}]", options, sink)
            timed[label] = fresh
        _add_paired_rounds(timed, timing, args, options)
        speedups = {
            label: speedup(timing["python"], t) for label, t in timing.items() if label != "python"
        }
        return {
            "timing": timing,
            "compile": compile_stats,
            "speedup": speedups,
            "errors": errors,
            "outcomes": outcomes,
        }

    def close(self) -> None:
        """Nothing to release in-process (the isolation executor stops its child here)."""


def _add_paired_rounds(
    timed: dict[str, Callable[..., Any]],
    timing: dict[str, dict[str, Any]],
    args: tuple[Any, ...],
    options: BenchOptions,
) -> None:
    """Time Python and every mode again, interleaved round by round (`bench.paired_rounds`),
    into each timing record's `paired` list: the gate's load-proof samples."""
    calls = {}
    for label, func in timed.items():
        copy = fresh_copy(args)
        calls[label] = functools.partial(func, *copy)
    per_call = {label: float(timing[label]["stats"]["min"]) for label in calls}
    samples = paired_rounds(calls, per_call, options)
    for label, data in samples.items():
        timing[label]["paired"] = data


def _timed(
    func: Callable[..., Any],
    args: tuple[Any, ...],
    name: str,
    options: BenchOptions,
    sink: Callable[[Any], None] | None,
) -> dict[str, Any]:
    """`time_call`, with `cores`: the CPU time this process used over the wall time, which is
    above 1 when the timed code ran on several threads (prange, or a threaded BLAS)."""
    with cores_used() as cores:
        record = time_call(func, args, name, options, sink)
    return record | {"cores": cores[0]}
