"""Independent copies of a kernel: pure Python, freshly jitted, or compiled by Numba.

A kernel's `py_func` is not pure Python: its globals still name the bundled dispatchers, so
`fib.py_func(25)` recurses into compiled `fib` and `mandelbrot.py_func` calls compiled
`mandel_point`. `rebuild` copies a kernel and every jitted function it reaches, rebinding
those globals to the copies, so that each copy is what it claims to be: all Python, all
compiled afresh (compile latency includes the callees), or all Numba.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable, Iterator
from types import CodeType, FunctionType
from typing import Any

Decorate = Callable[[FunctionType], Any]


def is_jitted(value: object) -> bool:
    """A jitcore dispatcher (the attribute `jit` itself checks to unwrap one)."""
    return bool(getattr(value, "__jitcore_dispatcher__", False))


def _names(code: CodeType) -> Iterator[str]:
    """Global names read by `code` and the code objects nested in it."""
    yield from code.co_names
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield from _names(const)


def _copy_function(fn: FunctionType, globals_: dict[str, Any]) -> FunctionType:
    copy = FunctionType(fn.__code__, globals_, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    copy.__qualname__ = fn.__qualname__
    copy.__module__ = fn.__module__
    copy.__annotations__ = dict(fn.__annotations__)
    copy.__doc__ = fn.__doc__
    return copy


def rebuild(kernel: Any, decorate: Decorate) -> Any:
    """`decorate` applied to a copy of `kernel`'s Python function, with every jitted function
    it calls (recursively, itself included) replaced by a decorated copy the same way."""
    return _rebuild(kernel, decorate, {})


def _rebuild(kernel: Any, decorate: Decorate, done: dict[int, Any]) -> Any:
    if id(kernel) in done:
        return done[id(kernel)]
    fn = kernel.py_func
    globals_ = dict(fn.__globals__)
    result = decorate(_copy_function(fn, globals_))
    done[id(kernel)] = result  # before the callees, so recursion finds it
    for name in set(_names(fn.__code__)):
        if is_jitted(globals_.get(name)):
            globals_[name] = _rebuild(globals_[name], decorate, done)
    return result


def pure_python(kernel: Any) -> Callable[..., Any]:
    """The kernel as plain Python all the way down."""
    return rebuild(kernel, lambda fn: fn)


def fresh_jit(kernel: Any, **options: Any) -> Any:
    """A new jitcore dispatcher (and new callees) with nothing compiled yet."""
    from jitcore import jit

    return rebuild(kernel, lambda fn: jit(fn, **options))


@functools.cache
def numba_available() -> bool:
    """Numba is an optional extra (`pip install numba`); nothing requires it."""
    return importlib.util.find_spec("numba") is not None


def fresh_numba(kernel: Any) -> Any:
    """A new `numba.njit` copy of the kernel (and its callees), not compiled yet.

    Numba's defaults match what jitcore compares with: no fast-math and Python's error model
    (division by zero raises); it does not check bounds, where jitcore does by default.
    """
    import numba

    return rebuild(kernel, numba.njit)


@functools.cache
def numba_version(kernel: Any) -> Any:
    """One Numba copy per kernel for the session, so each compiles once."""
    return fresh_numba(kernel)
