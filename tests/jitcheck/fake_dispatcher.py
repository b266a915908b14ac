"""A stand-in for a jitcore dispatcher whose "compiled code" is a Python function we choose.

It tests the plugin's array machinery (fresh copies per mode, memory layouts, arguments
compared after the call) independently of what jitcore compiles today: only the dispatcher
surface jitcheck relies on is here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from jitcore import ExecutionMode, JitOptions


class FakeCompileStats:
    """What `Dispatcher.stats()` returns, with every stage taking no time."""

    def as_dict(self) -> dict[str, Any]:
        return {"signature": "fake", "stages": {}, "passes": {}, "cache_hit": False, "total": 0.0}


class FakeDispatcher:
    """Calls `compiled` where jitcore would call native code (`unchecked` instead, if given,
    when the options turn bounds checks off)."""

    __jitcore_dispatcher__ = True

    def __init__(
        self,
        py_func: Callable[..., Any],
        compiled: Callable[..., Any],
        options: JitOptions,
        unchecked: Callable[..., Any] | None = None,
    ) -> None:
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        self.compiled = compiled
        self.unchecked = unchecked
        self.options = options
        self.signatures: list[tuple[Any, ...]] = []

    def with_options(self, **changes: Any) -> FakeDispatcher:
        options = self.options.replace(**changes)
        return FakeDispatcher(self.py_func, self.compiled, options, self.unchecked)

    def __call__(self, *args: Any) -> Any:
        self.signatures = [("fake",)]
        if self.unchecked is not None and not self.options.boundscheck:
            return self.unchecked(*args)
        return self.compiled(*args)

    def run(self, *args: Any, mode: Any = None) -> Any:
        """`Dispatcher.run`: jitcheck's Python reference asks for mode PYTHON."""
        if mode is not None and ExecutionMode(mode) is ExecutionMode.PYTHON:
            return self.py_func(*args)
        return self(*args)

    def stats(self, signature: Any = None) -> FakeCompileStats:
        return FakeCompileStats()


def fake(
    py_func: Callable[..., Any],
    compiled: Callable[..., Any],
    unchecked: Callable[..., Any] | None = None,
) -> FakeDispatcher:
    """A dispatcher of `py_func` whose compiled code behaves like `compiled` (and like
    `unchecked` in modes without bounds checks)."""
    return FakeDispatcher(py_func, compiled, JitOptions(), unchecked)
