"""jitcore: a just-in-time compiler for numerical Python, built on llvmlite.

from jitcore import jit

@jit
def f(x: float, n: int) -> float: ...
"""

from jitcore import random
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
from jitcore.runner import Runner, RunResult, run
from jitcore.state import Module, Variable
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
