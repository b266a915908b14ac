"""Plain Python functions called from compiled code are compiled too (implicitly), as Parakeet
did: a user's helper need not be decorated. `python_only` opts a function out.

Only functions of the user's code qualify: not those of NumPy, SciPy, jitcore or the standard
library (a call to one of those without a rule in `jitcore.lib` stays an UnsupportedError).
Layer: depends on nothing in jitcore.
"""

from __future__ import annotations

import inspect
import sysconfig
import types
from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])

# Packages whose functions are never compiled implicitly.
_LIBRARIES = frozenset({"numpy", "scipy", "jitcore", "jitcheck", "numba", "llvmlite", "pandas"})
_STDLIB = sysconfig.get_paths()["stdlib"]


def python_only(func: F) -> F:
    """Mark `func` as never compiled implicitly: compiled code that calls it is an
    UnsupportedError (and `mode="auto"` runs the caller as Python)."""
    func.__jitcore_implicit__ = False  # type: ignore[attr-defined]
    return func


def compiles_implicitly(obj: object) -> bool:
    """True if `obj` is a plain function of the user's code, not marked `python_only`."""
    if not isinstance(obj, types.FunctionType):
        return False
    if getattr(obj, "__jitcore_implicit__", True) is False:
        return False
    if getattr(obj, "__jitcore_library_kernel__", False):
        return False
    module = (obj.__module__ or "").partition(".")[0]
    if module in _LIBRARIES:
        return False
    path = inspect.getsourcefile(obj) or ""
    return not path.startswith(_STDLIB) or "site-packages" in path
