"""Module-level arrays read by compiled code (`jitcore.ir.frozen`, `jitcore.codegen.frozen`):
frozen constants that index, slice and reduce as Python reads them, print and parse back,
are part of the cache key, cannot be written, and come back read-only."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import TypingError, cache, jit
from jitcore.ir import types as T
from tests.jitcore.ir.stages import assert_round_trips, stage_texts
from tests.jitcore.support import assert_same

TABLE = np.array([1.0, 2.5, -4.0, 8.0, np.nan, np.inf])
GRID = np.arange(24, dtype=np.int32).reshape(4, 6)[:, ::2]  # not contiguous: frozen as a copy
FLAGS = np.array([True, False, True])
ROOTS = np.array([1 + 2j, -3j], dtype=np.complex64)


def lookup(i, x):  # noqa: ANN001, ANN201
    return TABLE[i % TABLE.shape[0]] * x + GRID[i % 4, 1]


def reductions():  # noqa: ANN201
    return TABLE[:4].sum(), GRID.sum(axis=0), np.max(GRID[1:, ::-1]), FLAGS.any(), ROOTS[1]


def table_loop(x):  # noqa: ANN001, ANN201
    s = 0.0
    for i in range(TABLE.shape[0] - 2):
        s += TABLE[i] * x
    return s


def whole_table():  # noqa: ANN201
    return TABLE


def writes(i):  # noqa: ANN001, ANN201
    TABLE[i] = 0.0


@given(st.integers(-50, 50), st.floats(-1e6, 1e6))
def test_indexing_a_module_level_array(i: int, x: float) -> None:
    assert_same(lookup, i, x)
    assert_same(table_loop, x)


def test_slices_and_reductions_of_module_level_arrays() -> None:
    got = jit(mode="compiled")(reductions)()
    want = reductions()
    assert got[0] == want[0] and got[2] == want[2] and got[3] == want[3] and got[4] == want[4]
    np.testing.assert_array_equal(got[1], want[1])


def test_a_returned_frozen_array_is_read_only() -> None:
    out = jit(mode="compiled")(whole_table)()
    np.testing.assert_array_equal(out, TABLE)
    assert not out.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        out[0] = 1.0


def test_writing_into_a_module_level_array_is_a_typing_error() -> None:
    with pytest.raises(TypingError, match="read-only") as info:
        jit(mode="compiled")(writes)(1)
    assert "pass the array as an argument" in str(info.value)


def sorts_it():  # noqa: ANN201
    TABLE.sort()


def fills_it(x):  # noqa: ANN001, ANN201
    TABLE.fill(x)


def adds_into_an_alias(x):  # noqa: ANN001, ANN201
    t = TABLE
    t += x


def copies_into_it(x):  # noqa: ANN001, ANN201
    np.copyto(TABLE, x)


def ufunc_out_into_it(x):  # noqa: ANN001, ANN201
    np.add(TABLE, x, out=TABLE)


def shuffles_it():  # noqa: ANN201
    np.random.shuffle(TABLE)


def writes_a_reshaped_view():  # noqa: ANN201
    v = TABLE.reshape(2, 3)
    v[0, 0] = 1.0


def writes_through_asarray_and_T():  # noqa: ANN201
    v = np.asarray(TABLE).T
    v[0] += 1.0


def writes_a_split_part():  # noqa: ANN201
    parts = np.split(TABLE, 2)
    parts[1][0] = 1.0


def writes_a_broadcast_part(x):  # noqa: ANN001, ANN201
    a, _ = np.broadcast_arrays(TABLE, x)
    a[0] = x


def writes_a_diagonal():  # noqa: ANN201
    d = np.diagonal(GRID)
    d[0] = 1.0


@pytest.mark.parametrize(
    ("f", "args"),
    [
        (writes_a_split_part, ()),
        (writes_a_broadcast_part, (1.0,)),
        (writes_a_diagonal, ()),
        (sorts_it, ()),
        (fills_it, (1.0,)),
        (adds_into_an_alias, (1.0,)),
        (copies_into_it, (1.0,)),
        (ufunc_out_into_it, (1.0,)),
        (shuffles_it, ()),
        (writes_a_reshaped_view, ()),
        (writes_through_asarray_and_T, ()),
    ],
)
def test_every_write_into_a_module_level_array_is_a_typing_error(f, args) -> None:  # noqa: ANN001
    """In-place methods, augmented assignment, `out=` and functions writing their first
    argument: each would change compiled code's hidden copy, never the module's array."""
    before = TABLE.copy()
    with pytest.raises(TypingError, match="read-only"):
        jit(mode="compiled")(f)(*args)
    np.testing.assert_array_equal(TABLE, before)


def test_the_cache_key_covers_the_contents() -> None:
    f = jit(mode="compiled")(table_loop)
    before = cache.function_key(f, "f64")
    TABLE[0] += 1.0
    try:
        assert cache.function_key(f, "f64") != before
    finally:
        TABLE[0] -= 1.0
    assert cache.function_key(f, "f64") == before


def test_frozen_arrays_print_and_parse_back() -> None:
    texts = stage_texts(lookup, (T.I64, T.F64))
    assert "@jitcore.ir.frozen.frozen_array(" in texts["typeinfer"]
    assert_round_trips(texts)


SCALAR = np.array(3.5)  # a 0-d module-level array


def reads_a_0d_global(x):  # noqa: ANN001, ANN201
    return SCALAR + x, SCALAR.item(), SCALAR.ndim, SCALAR.sum()


@given(st.floats(-1e6, 1e6))
def test_a_0d_module_level_array_is_read_as_numpy_reads_it(x: float) -> None:
    assert_same(reads_a_0d_global, x)


BIG_ENDIAN = np.arange(5.0).astype(">f8")
HALF = np.arange(3, dtype=np.float16)


def reads_a_big_endian_global(i):  # noqa: ANN001, ANN201
    return BIG_ENDIAN[i % 5] * 2.0, BIG_ENDIAN.sum()


def reads_a_half_global():  # noqa: ANN201
    return HALF.sum()


@given(st.integers(-10, 10))
def test_a_big_endian_module_level_array_is_held_in_native_order(i: int) -> None:
    assert_same(reads_a_big_endian_global, i)


def test_a_module_level_array_of_a_dtype_compiled_code_lacks_is_named() -> None:
    with pytest.raises(TypingError, match="dtype float16 cannot be compiled") as info:
        jit(mode="compiled")(reads_a_half_global)()
    assert "test_frozen.py" in str(info.value) and "hint: " in str(info.value)
