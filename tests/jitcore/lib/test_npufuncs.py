"""The ufuncs of jitcore/lib/npufuncs.py and np.round, compiled vs NumPy over dtypes, layouts,
NaN/inf and broadcasting (the generic test in test_supported.py draws only a few profiles)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitcore import jit
from jitcore.errors import TypingError
from jitcore.lib import npufuncs
from tests.jitcore.lib.arrays_strategy import arrays
from tests.jitcore.support import assert_same, function_from_source

EXAMPLES = settings(max_examples=20)
_cache: dict[str, Any] = {}


def _wrapper(name: str, nargs: int) -> Any:
    """`def f(a0, ...): return np.<name>(a0, ...)`, readable by jitcore (linecache)."""
    key = f"{name}/{nargs}"
    if key not in _cache:
        params = ", ".join(f"a{i}" for i in range(nargs))
        source = f"def f_{name}({params}):\n    return np.{name}({params})\n"
        _cache[key] = function_from_source(source, f"f_{name}", f"<npufuncs-{key}>", {"np": np})
    return _cache[key]


def _no_loop(name: str, *values: Any) -> bool:
    """NumPy has no loop for these dtypes, or computes in float16 (which compiled code does
    not support: a documented UnsupportedError)."""
    try:
        dtypes = getattr(np, name).resolve_dtypes(
            tuple(np.asarray(v).dtype for v in values) + (None,)
        )
    except TypeError:
        return True
    return any(d == np.float16 for d in dtypes)


@EXAMPLES
@given(a=arrays(max_dims=2))
@pytest.mark.parametrize("name", sorted(npufuncs.UNARY))
def test_unary_ufuncs_match_numpy(name: str, a: np.ndarray) -> None:
    if _no_loop(name, a):
        return
    assert_same(_wrapper(name, 1), a)


@EXAMPLES
@given(a=arrays(max_dims=2, max_side=3), data=st.data())
@pytest.mark.parametrize("name", sorted(npufuncs.BINARY))
def test_binary_ufuncs_match_numpy(name: str, a: np.ndarray, data: st.DataObject) -> None:
    b = data.draw(arrays(dtype=str(a.dtype), max_dims=1, min_side=1, max_side=1))
    if _no_loop(name, a, b):
        return
    assert_same(_wrapper(name, 2), a, b)  # broadcasting a 1-element axis
    assert_same(_wrapper(name, 2), a, a)


def round_decimals(a):
    return np.round(a), np.round(a, 2), np.around(a, -1), a.round(1)


@EXAMPLES
@given(a=arrays(dtype="float64") | arrays(dtype="float32") | arrays(dtype="int64"))
def test_round_matches_numpy(a: np.ndarray) -> None:
    assert_same(round_decimals, a)


def round_plain(a):
    return np.round(a)


def test_round_of_booleans_is_a_typing_error_not_bools() -> None:
    """NumPy rounds booleans into float16, which compiled code lacks: returning the bools
    unchanged (as it did) gave another dtype silently."""
    assert np.round(np.array([True])).dtype == np.float16
    with pytest.raises(TypingError, match="float16"):
        jit(round_plain, mode="compiled")(np.array([True, False]))


def clip3(a, lo, hi):  # noqa: ANN001, ANN201
    return np.clip(a, lo, hi), a.clip(lo, hi)


@given(
    st.sampled_from(["int8", "uint8", "int64", "float32"]),
    st.integers(-1000, 1000) | st.floats(-300, 300, allow_nan=False),
    st.integers(-1000, 1000) | st.floats(-300, 300, allow_nan=False),
)
def test_clip_takes_numpys_dtype_and_drops_bounds_beyond_the_dtype(dtype: str, lo, hi) -> None:  # noqa: ANN001
    """The bounds take part in the result dtype (an int array clipped to 1.5 is float64); a
    Python int bound beyond an int dtype's range clips nothing on its side, as NumPy's clip
    drops it (they once were cast to the dtype, wrapping)."""
    a = np.array([-128, -5, 0, 3, 100, 127]).astype(dtype)
    got = assert_same(clip3, a, lo, hi)
    try:
        want = clip3(a, lo, hi)
    except OverflowError:  # a bound beyond the other end: both raised (assert_same saw it)
        return
    assert [g.dtype for g in got] == [w.dtype for w in want]
