"""jitcore: a just-in-time compiler for numerical Python, built on llvmlite.

from jitcore import jit

@jit
def f(x: float, n: int) -> float: ...

`import jitcore` imports neither the compiler nor llvmlite: `@jit` only records a function,
its first call imports what it needs (the disk cache and the linker when the cache has its
code, the compiler otherwise). `random`, `run`, `Runner`, `RunResult` and `vectorize`, which
import the compiler themselves, load at their first use (`__getattr__` below).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from jitcore.annotations import Array, ArraySpec
from jitcore.api import jit
from jitcore.errors import (
    InternalCompilerError,
    JitError,
    JitFallbackWarning,
    SourceLoc,
    TypingError,
    UnsupportedError,
)
from jitcore.implicit import python_only
from jitcore.lib import supported
from jitcore.options import ExecutionMode, JitOptions
from jitcore.parallel import get_num_threads, prange, set_num_threads
from jitcore.state import Module, Variable

if TYPE_CHECKING:
    from jitcore import random
    from jitcore.runner import Runner, RunResult, run
    from jitcore.vectorize import vectorize

__version__ = "0.1.0"

__all__ = [
    "Array",
    "ArraySpec",
    "ExecutionMode",
    "InternalCompilerError",
    "JitError",
    "JitFallbackWarning",
    "JitOptions",
    "Module",
    "RunResult",
    "Runner",
    "SourceLoc",
    "TypingError",
    "UnsupportedError",
    "Variable",
    "__version__",
    "get_num_threads",
    "jit",
    "prange",
    "python_only",
    "random",
    "run",
    "set_num_threads",
    "supported",
    "vectorize",
]

# Public names whose modules import the compiler, by the module that defines them.
_LAZY = {
    "random": "jitcore",
    "RunResult": "jitcore.runner",
    "Runner": "jitcore.runner",
    "run": "jitcore.runner",
    "vectorize": "jitcore.vectorize",
}


def __getattr__(name: str) -> Any:
    """A lazily loaded public name (`_LAZY`), imported at its first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'jitcore' has no attribute {name!r}")
    if module == __name__:  # a submodule: the import sets it as this package's attribute
        return importlib.import_module(f"{__name__}.{name}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
