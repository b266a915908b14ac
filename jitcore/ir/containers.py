"""Marker functions `ssa` emits for dict and set syntax, and for the start of a `for` loop.

Like `jitcore.ir.markers`, they are plain Python that computes what the syntax means (so the
Python mode or an IR interpreter could run them); `jitcore.lib.containers` registers their
typing rules and emitters. They print as `@dict_literal` etc. and never reach the user.
"""

from __future__ import annotations

from collections.abc import Iterable


def dict_literal(*keys_and_values: object) -> dict:
    """`{k0: v0, k1: v1, ...}` from `k0, v0, k1, v1, ...` (later keys win, as in Python)."""
    it = iter(keys_and_values)
    return dict(zip(it, it))


def set_literal(*items: object) -> set:
    """`{a, b, ...}`."""
    return set(items)


def delitem(obj: dict, key: object) -> None:
    """`del obj[key]`."""
    del obj[key]


def iterate(obj: object) -> Iterable:
    """What a `for` loop walks by position: a dict's or set's keys (in insertion order); any
    other sequence is itself."""
    return list(obj) if isinstance(obj, dict | set) else obj  # type: ignore[return-value]


MARKERS = (dict_literal, set_literal, delitem, iterate)
for _marker in MARKERS:
    _marker.__jitcore_builtin__ = _marker.__name__  # type: ignore[union-attr]
