"""Supported operations (builtins, math, cmath, numpy): each module registers its typing rules
and emitters in `jitcore.lib.registry` when imported."""

from jitcore.lib import arrays, builtins, mathlib, reductions, ufuncs  # noqa: F401  (registration)
