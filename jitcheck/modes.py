"""Compiled modes: the function's own options, and variations named like `O0` or `fastmath`.

A mode name is `+`-joined tokens, each a change to the function's own jit options:

    O0 O1 O2 O3        LLVM optimization level
    fastmath           fast-math flags on (nofastmath: off)
    noboundscheck      array bounds checks off (boundscheck: on)
    parallel           prange loops on threads (`parallel=True`; noparallel: off)

so `O0+fastmath` is the function's options at O0 with fast-math. A mode is labelled by the
resulting options (`JitOptions.label`), so modes that come out the same run once. Every mode
runs as `ExecutionMode.COMPILED`: a compiled mode that silently ran Python would compare
Python with itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

_TOKENS: dict[str, dict[str, Any]] = {
    **{f"O{level}": {"opt": level} for level in range(4)},
    "fastmath": {"fastmath": True},
    "nofastmath": {"fastmath": False},
    "boundscheck": {"boundscheck": True},
    "noboundscheck": {"boundscheck": False},
    "parallel": {"parallel": True},
    "noparallel": {"parallel": False},
}


@dataclass(frozen=True)
class Mode:
    """One compiled variant of a function, named by its options' label (`O3`, `O0+fastmath`)."""

    label: str
    changes: Mapping[str, Any]  # jit option changes on top of the function's own options
    fastmath: bool = False  # compared as fast-math: also parallel modes (reductions reassociate)
    boundscheck: bool = True
    own: bool = False  # the function's own options (the first mode)


def parse_mode(name: str) -> dict[str, Any]:
    """The option changes a mode name stands for; ValueError naming the valid tokens."""
    changes: dict[str, Any] = {}
    for token in name.split("+"):
        token = token.strip()
        if token not in _TOKENS:
            valid = ", ".join(_TOKENS)
            raise ValueError(f"unknown jit-diff mode {token!r} in {name!r}; tokens are {valid}")
        changes.update(_TOKENS[token])
    return changes


def split_modes(text: str | Iterable[str]) -> list[str]:
    """Mode names from `"O0,fastmath"`, `"O0 fastmath"` or a list of such strings."""
    items = [text] if isinstance(text, str) else list(text)
    return [m for item in items for m in item.replace(",", " ").split() if m]


def resolve_modes(options: Any, names: Iterable[str]) -> list[Mode]:
    """The function's own mode first, then each named one, without duplicates."""
    own = Mode(options.label, {}, _reassociates(options), options.boundscheck, own=True)
    modes = {own.label: own}
    for name in names:
        changes = parse_mode(name)
        v = options.replace(**changes)
        modes.setdefault(v.label, Mode(v.label, changes, _reassociates(v), v.boundscheck))
    return list(modes.values())


def _reassociates(options: Any) -> bool:
    """Fast-math, or parallel (float reductions summed per chunk): the fast-math tolerance."""
    return bool(options.fastmath or getattr(options, "parallel", False))
