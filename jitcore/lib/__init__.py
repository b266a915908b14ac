"""Supported operations (builtins, math, cmath, numpy): each module registers its typing rules
and emitters in `jitcore.lib.registry` when imported."""

import functools


@functools.cache
def load() -> None:
    """Register every operation (importing the modules registers them). Called when a function
    is first typed, so that a process that only loads cached code never imports them."""
    from jitcore.lib import arrays, builtins, mathlib, reductions, ufuncs  # noqa: F401
