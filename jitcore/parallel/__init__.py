"""Parallel loops: `prange`, and the outlining of a prange loop's body (`outline`).

`prange` is `range` to Python and to a function compiled without `parallel=True`. With
`parallel=True`, each outermost prange loop's body becomes a function of its own, compiled with
a launcher that splits the iterations across native threads (`jitcore.codegen.launcher`);
scalar reductions are recognized and combined. See README, "Scale out".
"""

from __future__ import annotations

from jitcore.parallel.api import get_num_threads, prange, set_num_threads

__all__ = ["get_num_threads", "prange", "set_num_threads"]
