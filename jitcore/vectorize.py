"""`jitcore.vectorize`: a ufunc-like object from a scalar function, as `numba.vectorize`.

    @jitcore.vectorize
    def rel_diff(x, y):
        return 2 * (x - y) / (x + y)

    rel_diff(a, b)          # arrays of any shape, broadcast as NumPy does; scalars too

From Python, the arguments are broadcast (NumPy's rules), and a compiled loop applies the
jitted scalar function to every element; the result's dtype is that of the scalar function's
result for the arguments' dtypes. From other jitted code, a call compiles into an elementwise
loop over the broadcast shape (fused with the operations around it like any ufunc), calling
the scalar function per element. The scalar function is compiled (`mode="compiled"`) for each
combination of element types it meets, and keeps jitcore's semantics for its arguments:
float division by zero raises ZeroDivisionError, where a NumPy ufunc (and `numba.vectorize`)
would give inf or nan. An empty input gives an empty result of the scalar function's result
dtype.
"""

from __future__ import annotations

import functools
import itertools
import linecache
from collections.abc import Callable
from typing import Any

import numpy as np

from jitcore.api import jit
from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.lib.registry import Operand, Resolved, register_function

_counter = itertools.count()


class Vectorized:
    """A scalar function applied elementwise with broadcasting (see the module docstring)."""

    def __init__(self, func: Callable[..., Any], **options: Any) -> None:
        functools.update_wrapper(self, func)  # type: ignore[arg-type]
        self.scalar = jit(mode="compiled", **options)(func)
        self.nin = func.__code__.co_argcount
        self._driver: Any = None
        register_function(self)(self._rule)

    def __repr__(self) -> str:
        return f"<jitcore.vectorize {self.scalar.py_func.__name__}>"

    # --- from Python ------------------------------------------------------------------

    def __call__(self, *args: Any) -> Any:
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} arguments, {len(args)} given")  # type: ignore[attr-defined]
        if not any(isinstance(a, np.ndarray) for a in args):
            return self.scalar(*args)
        arrays = np.broadcast_arrays(*[np.asarray(a) for a in args])
        shape = arrays[0].shape
        if arrays[0].size == 0:
            return np.empty(shape, self._empty_dtype(args))
        flat = [np.ascontiguousarray(a).reshape(-1) for a in arrays]
        return self._loop()(*flat).reshape(shape)

    def _empty_dtype(self, args: tuple[Any, ...]) -> np.dtype:
        """The result dtype for empty arrays: the scalar function's result type for the
        arguments' element types (compiled, not run)."""
        sig = tuple(T.from_dtype(np.asarray(a).dtype) for a in args)
        ret = self.scalar.compile(sig).return_type
        if not isinstance(ret, T.Scalar):
            raise TypeError(f"{self.__name__} must return a number, not {ret}")  # type: ignore[attr-defined]
        return ret.dtype

    def _loop(self) -> Any:
        """The jitted driver: out[i] = f(a0[i], ...) over flat arrays, its output allocated
        from the first result (so of the scalar function's result type)."""
        if self._driver is None:
            params = ", ".join(f"a{i}" for i in range(self.nin))
            first = ", ".join(f"a{i}[0]" for i in range(self.nin))
            each = ", ".join(f"a{i}[i]" for i in range(self.nin))
            source = (
                f"def vectorized_loop({params}):\n"
                f"    n = a0.shape[0]\n"
                f"    out = np.full(n, __f__({first}))\n"
                f"    for i in range(1, n):\n"
                f"        out[i] = __f__({each})\n"
                f"    return out\n"
            )
            filename = f"<jitcore-vectorize-{next(_counter)}>"
            linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
            namespace: dict[str, Any] = {"np": np, "__f__": self.scalar}
            exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - generated loop
            self._driver = jit(mode="compiled")(namespace["vectorized_loop"])
        return self._driver

    # --- from jitted code -------------------------------------------------------------

    def _rule(self, args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if kwargs:
            raise TypingError(f"{self.__name__}: keyword arguments are not supported")  # type: ignore[attr-defined]
        if len(args) != self.nin:
            raise TypingError(f"{self.__name__}() takes {self.nin} arguments")  # type: ignore[attr-defined]
        elements: list[T.Type] = []
        for a in args:
            t = a.type
            if isinstance(t, T.Array):
                elements.append(t.dtype)
            elif isinstance(t, T.Scalar):
                elements.append(t)
            else:
                raise TypingError(f"{self.__name__} takes numbers and arrays, not {t}")  # type: ignore[attr-defined]
        from jitcore.lib.loops import Recipe  # the rule modules load when code is typed
        from jitcore.lib.ufuncs import _elementwise_resolved, _result_type

        callee = self.scalar._as_callee([Operand(e) for e in elements], {})
        if not any(isinstance(a.type, T.Array) for a in args):
            return callee
        out = callee.ret
        if not isinstance(out, T.Scalar):
            raise TypingError(
                f"{self.__name__} returns {out}: a vectorized function must return a number"  # type: ignore[attr-defined]
            )

        def fn(b: LowBuilder, xs: list[ir.Value]) -> ir.Value:
            values = [b.cast(x, e) for x, e in zip(xs, elements)]
            return callee.lower(b, values, {})  # type: ignore[misc]

        return _elementwise_resolved(len(args), _result_type(args, out), Recipe(out, fn))


def vectorize(func: Callable[..., Any] | None = None, **options: Any) -> Any:
    """`@vectorize` or `@vectorize(**jit_options)`: see the module docstring."""
    if func is None:
        return lambda f: Vectorized(f, **options)
    return Vectorized(func, **options)
