"""`Module` and `Variable`: stateful objects whose methods jitcore compiles (BrainPy's pattern).

A `Variable` owns one NumPy array (0-d for a scalar): the mutable state of a model. Compiled
methods receive that very array and write into it, so Python always reads what native code
wrote, and the array's shape and dtype never change under a Variable (a write of another shape
or an unsafe dtype raises, as in BrainPy); replacing the Variable itself (`m.v = Variable(...)`)
is how a model changes them. Every other attribute of a `Module` is a constant of the compiled
code (see `jitcore.methods`).

This module imports no compiler stage: a model can be built, run in Python and pickled without
loading the compiler.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from jitcore.lib.variables import assign_value

__all__ = ["Module", "Variable", "set_binder"]

_BINDER: list[Callable[[Any, Any], Any]] = []


def set_binder(binder: Callable[[Any, Any], Any]) -> None:
    """Installed by `jitcore.methods`: binds a jitted method to a Module instance."""
    _BINDER[:] = [binder]


class Variable(NDArrayOperatorsMixin):
    """Mutable state of a `Module`: wraps an array (a copy of `value`) updated in place.

    Arithmetic, NumPy functions and indexing work on the array; `v.value` is the array itself
    (a view that always reflects the current state), `v.value = x` writes into it (same shape,
    same-kind dtype), and in-place operators (`v += x`, `v[:] = x`) write into it too.
    """

    __slots__ = ("_array",)
    __array_priority__ = 100

    def __init__(self, value: Any, dtype: Any = None) -> None:
        array = np.array(value, dtype=dtype, order="C", copy=True)
        if array.dtype == object or array.dtype.kind not in "biufc":
            raise TypeError(f"a Variable holds numbers, not {array.dtype}")
        self._array = array

    @property
    def value(self) -> np.ndarray:
        """The array itself: writes through it (or by compiled code) are the Variable's state."""
        return self._array

    @value.setter
    def value(self, new: Any) -> None:
        assign_value(self._array, _unwrap(new))

    shape = property(lambda self: self._array.shape, doc="The array's shape.")
    dtype = property(lambda self: self._array.dtype, doc="The array's dtype.")
    ndim = property(lambda self: self._array.ndim, doc="The array's number of dimensions.")
    size = property(lambda self: self._array.size, doc="The array's number of items.")

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if dtype is None and not copy:
            return self._array
        return np.array(self._array, dtype=dtype, copy=True)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        """NumPy ufuncs on the array; with `out=` a Variable (in-place operators), the result
        is written into the Variable's own array and the Variable returned."""
        out = kwargs.get("out")
        if out is not None:
            kwargs["out"] = tuple(_unwrap(o) for o in out)
        result = getattr(ufunc, method)(*(_unwrap(x) for x in inputs), **kwargs)
        if out is not None and len(out) == 1 and isinstance(out[0], Variable):
            return out[0]
        return result

    def __getitem__(self, index: Any) -> Any:
        return self._array[_unwrap(index)]

    def __setitem__(self, index: Any, new: Any) -> None:
        self._array[_unwrap(index)] = _unwrap(new)

    def __len__(self) -> int:
        return len(self._array)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._array)

    def __float__(self) -> float:
        return float(self._array)

    def __int__(self) -> int:
        return int(self._array)

    def __index__(self) -> int:
        return self._array.__index__()

    def __bool__(self) -> bool:
        return bool(self._array)

    def __repr__(self) -> str:
        return f"Variable({np.array2string(self._array, threshold=20)}, dtype={self.dtype})"

    def __getattr__(self, name: str) -> Any:
        """Other array attributes and methods (`v.sum()`, `v.T`, `v.copy()`)."""
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._array, name)

    def __getstate__(self) -> np.ndarray:
        return self._array

    def __setstate__(self, state: np.ndarray) -> None:
        self._array = state


def _unwrap(x: Any) -> Any:
    return x._array if isinstance(x, Variable) else x


class Module:
    """Base class of stateful models: Variables are state, other attributes are constants.

    Methods decorated with `@jit` compile (with the Variables read and written in place and
    the other attributes as compile-time constants); `jitcore.jit(model)` compiles
    `model.__call__`; `jitcore.run(model, n_steps, ...)` compiles a whole simulation.
    Assigning a plain value to an attribute that holds a Variable writes into the Variable
    (`self.v = self.v + 1` keeps the Variable), as compiled code does.
    """

    def __setattr__(self, name: str, new: Any) -> None:
        current = self.__dict__.get(name)
        if isinstance(current, Variable) and not isinstance(new, Variable):
            if new is not current:
                current.value = new
            return
        object.__setattr__(self, name, new)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle the attributes and Variables, not the compiled code (it recompiles)."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_jitcore_")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __jitcore_bind__(self, method: Any) -> Any:
        """How a jitted method (a `Dispatcher` in the class) binds to this Module: through the
        binder `jitcore.methods` installs (this module imports no compiler part)."""
        return _BINDER[0](self, method)

    def variables(self) -> dict[str, Variable]:
        """Every Variable of this Module and its sub-Modules, by dotted path (`pop.v`)."""
        found: dict[str, Variable] = {}
        _collect(self, "", found, set())
        return found

    def submodules(self) -> dict[str, Module]:
        """The sub-Modules held in attributes, by attribute name."""
        return {k: v for k, v in vars(self).items() if isinstance(v, Module)}


def _collect(module: Module, prefix: str, found: dict[str, Variable], seen: set[int]) -> None:
    if id(module) in seen:
        return
    seen.add(id(module))
    for name, value in vars(module).items():
        if isinstance(value, Variable):
            found.setdefault(prefix + name, value)
        elif isinstance(value, Module):
            _collect(value, f"{prefix}{name}.", found, seen)
