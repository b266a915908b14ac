"""`jitcore.Array[dtype, ndim]` (optionally `, layout`): an annotation for array parameters.

It documents the parameter for readers and tells jitcheck which arrays to generate:

    def smooth(a: Array[np.float64, 1], k: int) -> Array[np.float64, 1]: ...
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ArraySpec:
    dtype: np.dtype
    ndim: int
    layout: str = "A"

    def __repr__(self) -> str:
        return f"Array[{self.dtype.name}, {self.ndim}" + (
            f", {self.layout!r}]" if self.layout != "A" else "]"
        )


class _ArrayFactory:
    def __getitem__(self, params: object) -> ArraySpec:
        if not isinstance(params, tuple) or not 2 <= len(params) <= 3:
            raise TypeError("use Array[dtype, ndim] or Array[dtype, ndim, layout]")
        dtype, ndim, *rest = params
        layout = rest[0] if rest else "A"
        if layout not in ("C", "F", "A"):
            raise TypeError(f"layout must be 'C', 'F' or 'A', not {layout!r}")
        if not isinstance(ndim, int) or ndim < 0:
            raise TypeError(f"ndim must be a non-negative int, not {ndim!r}")
        return ArraySpec(np.dtype(dtype), ndim, layout)

    def __repr__(self) -> str:
        return "jitcore.Array"


Array = _ArrayFactory()
