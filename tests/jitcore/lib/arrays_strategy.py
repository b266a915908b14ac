"""Hypothesis arrays for the NumPy-breadth tests: every dtype the kernels specialize for,
empty and N-D shapes, NaN/inf and many ties, in C, Fortran, strided and reversed layouts."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

DTYPES = ("float64", "float32", "int64", "int32", "uint8", "bool")
LAYOUTS = ("C", "F", "strided", "reversed")


def _elements(dtype: np.dtype) -> st.SearchStrategy[Any]:
    if dtype.kind == "f":
        width = dtype.itemsize * 8
        edges = st.sampled_from([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan])
        return st.one_of(edges, st.integers(-3, 3).map(float), st.floats(width=width))
    if dtype.kind == "b":
        return st.booleans()
    info = np.iinfo(dtype)
    return st.one_of(
        st.integers(-3, 3).filter(lambda x: x >= info.min),
        st.integers(int(info.min), int(info.max)),
    )


def laid_out(a: np.ndarray, layout: str) -> np.ndarray:
    """`a`'s values in another memory layout (same shape and contents)."""
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "strided":
        big = np.zeros(tuple(2 * s for s in a.shape), dtype=a.dtype)
        view = big[tuple(slice(None, None, 2) for _ in a.shape)]
        view[...] = a
        return view
    if layout == "reversed":
        return np.ascontiguousarray(a[..., ::-1])[..., ::-1]
    return np.ascontiguousarray(a)


@st.composite
def arrays(
    draw: st.DrawFn,
    dtype: str | None = None,
    min_dims: int = 1,
    max_dims: int = 3,
    min_side: int = 0,
    max_side: int = 5,
) -> np.ndarray:
    dt = np.dtype(draw(st.sampled_from(DTYPES)) if dtype is None else dtype)
    shape = draw(
        hnp.array_shapes(
            min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
        )
    )
    a = draw(hnp.arrays(dt, shape, elements=_elements(dt)))
    return laid_out(a, draw(st.sampled_from(LAYOUTS)))
