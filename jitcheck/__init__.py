"""jitcheck: a pytest plugin that differentially tests jitcore-compiled functions.

    pytest --jit-diff                     # every jitted function against Python
    pytest --jit-diff --jit-diff-bench    # ... and time each mode

Exports `jitcheck` (the decorator that opts a function in and tunes its check) and
`assert_equivalent` (the equivalence policy, for hand-written tests). Both load lazily: pytest
imports this package in every run, before anything needs NumPy or Hypothesis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jitcheck.decorator import jitcheck

if TYPE_CHECKING:
    from jitcheck.compare import assert_equivalent

__version__ = "0.1.0"
__all__ = ["__version__", "assert_equivalent", "jitcheck"]


def __getattr__(name: str) -> Any:
    if name == "assert_equivalent":
        from jitcheck.compare import assert_equivalent

        return assert_equivalent
    raise AttributeError(f"module 'jitcheck' has no attribute {name!r}")
