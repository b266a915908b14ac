"""jitcore: a just-in-time compiler for numerical Python, built on llvmlite.

from jitcore import jit

@jit
def f(x: float, n: int) -> float: ...
"""

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
from jitcore.lib import supported
from jitcore.options import ExecutionMode, JitOptions
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
    "SourceLoc",
    "TypingError",
    "UnsupportedError",
    "__version__",
    "jit",
    "supported",
    "vectorize",
]
