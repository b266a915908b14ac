"""Marker functions `ssa` emits for list syntax, and that list kernels call for raw steps.

Like `jitcore.ir.markers`, they are plain Python that computes what they mean (so the Python
mode or an IR interpreter could run them); `jitcore.lib.lists` registers their typing rules and
emitters. They print as `@list_literal` etc. and never reach the user.
"""

from __future__ import annotations


def list_literal(*items: object) -> list:
    """`[a, b, ...]`, and `[]` (whose item type typeinfer takes from what is stored later)."""
    return list(items)


def list_reserve(lst: list, n: int) -> None:
    """Make room for `n` items (a no-op for Python; compiled code grows its buffer once)."""


MARKERS = (list_literal, list_reserve)
for _marker in MARKERS:
    _marker.__jitcore_builtin__ = _marker.__name__  # type: ignore[union-attr]
