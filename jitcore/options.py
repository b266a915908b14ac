"""Options of a jitted function and the only place JITCORE_* environment variables are read.

Environment variables:

* `JITCORE_DISABLE_JIT=1`: every jitted function runs as plain Python (for debugging).
* `JITCORE_DEBUG=1`: run the IR verifier between stages and passes.
* `JITCORE_DISABLE_PASSES=dce,cse`: skip these optimization passes everywhere.
* `JITCORE_OPT=0..3`: override the LLVM optimization level of every function.
* `JITCORE_TIERED=0`: compile every function at its final tier at once (`jitcore.tiering`).
* `JITCORE_NUM_THREADS=n`: the number of threads a `prange` loop runs on (default: the CPUs
  this process may use); `jitcore.set_num_threads` changes it at run time.
* `JITCORE_CACHE=1`: turn the disk cache on for every function; `JITCORE_CACHE_DIR=path` moves it
  (default `$XDG_CACHE_HOME/jitcore`, else `~/.cache/jitcore`).
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field, replace
from typing import Any


class ExecutionMode(enum.Enum):
    """How a dispatcher runs its function."""

    PYTHON = "python"  # run the original function
    COMPILED = "compiled"  # compile; an error if it cannot
    AUTO = "auto"  # compile; fall back to Python with a warning that says why


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


def cache_directory_from_env() -> str | None:
    """`JITCORE_CACHE_DIR`, if set: where the compile cache lives."""
    return os.environ.get("JITCORE_CACHE_DIR") or None


def _env_passes() -> frozenset[str]:
    raw = os.environ.get("JITCORE_DISABLE_PASSES", "")
    return frozenset(p.strip() for p in raw.split(",") if p.strip())


@dataclass(frozen=True)
class JitOptions:
    """Everything that changes the generated code; part of every specialization's identity."""

    mode: ExecutionMode = ExecutionMode.AUTO
    opt: int = 3
    boundscheck: bool = True
    # Internal, for library kernels (`registry.nonnegative_kernel`): with boundscheck=False,
    # the function's own array indices are taken as non-negative and not wrapped (the
    # `nowraparound` pass). No effect while bounds are checked.
    wraparound: bool = True
    fastmath: bool = False
    cache: bool = False
    signatures: tuple = ()
    disable_passes: frozenset[str] = field(default_factory=frozenset)
    debug: bool = False
    nogil: bool = False  # release the GIL while the compiled code runs
    # Whether a first call on small arguments may get quick first-tier code, recompiled at
    # the final tier in the background once it has run long enough (`jitcore.tiering`).
    # Never changes what the code computes: only how soon the final code is there.
    tiered: bool = True
    parallel: bool = False  # run `prange` loops on the native thread pool
    # Internal: set on the function a prange loop's body is outlined into; the operators that
    # combine its per-chunk results (`jitcore.parallel`). None for every other function.
    prange_body: tuple[str, ...] | None = None
    # Internal, for jitcheck's guilty-pass search: run only the first N of LLVM's optional
    # pass runs over this function's module (LLVM's `-opt-bisect-limit`; `llvm_opt`
    # says why it is only safe in a throwaway process). None: every pass.
    llvm_bisect_limit: int | None = None

    def __post_init__(self) -> None:
        if self.opt not in (0, 1, 2, 3):
            raise ValueError(f"opt must be 0, 1, 2 or 3, not {self.opt!r}")
        if not isinstance(self.mode, ExecutionMode):
            object.__setattr__(self, "mode", ExecutionMode(self.mode))

    def replace(self, **changes: Any) -> JitOptions:
        return replace(self, **changes)

    @property
    def label(self) -> str:
        """A short name for reports: `O3`, `O0+fastmath`, `O3+noboundscheck`."""
        parts = [f"O{self.opt}"]
        if self.fastmath:
            parts.append("fastmath")
        if not self.boundscheck:
            parts.append("noboundscheck")
            if not self.wraparound:
                parts.append("nowraparound")
        if self.parallel:
            parts.append("parallel")
        if self.nogil:
            parts.append("nogil")
        return "+".join(parts)


def num_threads_from_env() -> int | None:
    """`JITCORE_NUM_THREADS`, if set: how many threads prange loops use."""
    raw = os.environ.get("JITCORE_NUM_THREADS", "").strip()
    if not raw:
        return None
    try:
        n = int(raw)
    except ValueError:
        raise ValueError(f"JITCORE_NUM_THREADS must be a positive integer, not {raw!r}") from None
    if n < 1:
        raise ValueError(f"JITCORE_NUM_THREADS must be a positive integer, not {raw!r}")
    return n


def options_from_env(options: JitOptions) -> JitOptions:
    """Apply the JITCORE_* environment variables to `options`."""
    changes: dict[str, Any] = {}
    if _env_flag("JITCORE_DISABLE_JIT"):
        changes["mode"] = ExecutionMode.PYTHON
    if _env_flag("JITCORE_DEBUG"):
        changes["debug"] = True
    if _env_flag("JITCORE_CACHE"):
        changes["cache"] = True
    env_passes = _env_passes()
    if env_passes:
        changes["disable_passes"] = options.disable_passes | env_passes
    if os.environ.get("JITCORE_TIERED", "").strip() and not _env_flag("JITCORE_TIERED"):
        changes["tiered"] = False
    if os.environ.get("JITCORE_OPT", "").strip():
        changes["opt"] = int(os.environ["JITCORE_OPT"])
    return options.replace(**changes) if changes else options
