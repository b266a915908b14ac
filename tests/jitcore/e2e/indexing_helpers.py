"""Array strategies shared by the indexing, shapes, joining and creation tests: every layout
(C, F, strided, reversed, empty), a few dtypes of each kind, and index arrays for them."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

# One dtype of each kind the tests must cover (each is a compiled specialization, so few).
DTYPES = [np.float64, np.int32, np.bool_, np.complex128, np.float32]
REAL = [np.float64, np.int64, np.float32, np.uint8]
LAYOUTS = ["C", "F", "strided", "reversed"]


def _elements(dtype: Any) -> st.SearchStrategy[Any] | None:
    kind = np.dtype(dtype).kind
    if kind in "iu":
        info = np.iinfo(dtype)
        return st.integers(max(int(info.min), -100), min(int(info.max), 100))
    if kind == "f":
        width = np.dtype(dtype).itemsize * 8
        return st.floats(-1e6, 1e6, width=width) | st.sampled_from([np.nan, np.inf, -0.0])
    return None


def relayout(a: np.ndarray, layout: str) -> np.ndarray:
    """The same values in another memory layout."""
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "strided" and a.ndim:
        big = np.repeat(a, 2, axis=-1)
        return big[..., ::2]
    if layout == "reversed" and a.ndim:
        return a[::-1].copy()[::-1]
    return np.ascontiguousarray(a)


@st.composite
def arrays(  # noqa: ANN201
    draw,  # noqa: ANN001
    dtypes: list[Any] = DTYPES,
    min_dims: int = 1,
    max_dims: int = 3,
    min_side: int = 0,
    max_side: int = 5,
):
    """An array in any layout (C, F, strided, reversed view), empty ones included."""
    dtype = draw(st.sampled_from(dtypes))
    shape = draw(
        hnp.array_shapes(
            min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
        )
    )
    a = draw(hnp.arrays(dtype, shape, elements=_elements(dtype)))
    return relayout(a, draw(st.sampled_from(LAYOUTS)))


def masks(shape: tuple[int, ...]) -> st.SearchStrategy[np.ndarray]:
    return hnp.arrays(np.bool_, shape)


def indices(n: int, size: int = 4, dtype: Any = np.int64) -> st.SearchStrategy[np.ndarray]:
    """Index arrays for an axis of length n: in range (negative too), sometimes one out."""
    low, high = -n - 1, n
    return hnp.arrays(dtype, st.integers(0, size), elements=st.integers(low, high))
