"""Regressions of issue #12's memory and lowering items: each case runs compiled and as Python
(`tests/jitcore/support.py`, jitcheck's comparison) at opt=0 and opt=3, with Hypothesis inputs
where the item is about a range of values; cases about the lifetime of arrays also watch the
runtime's counters (`jitcore.runtime.live_bytes()` / `live_blocks()`): a result stays alive
while referenced, and memory is back to where it was once it is collected. The item number is
in each test's name."""

from __future__ import annotations

import ctypes
import gc
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from numpy.lib.stride_tricks import as_strided

from jitcore import UnsupportedError, jit, machine_code, runtime
from jitcore.runtime import nrt
from tests.jitcore.support import assert_same, assert_same_arrays, ci_examples

OPTS = pytest.mark.parametrize("opt", [0, 3])
ROOT = Path(__file__).resolve().parents[3]


@contextmanager
def counting() -> Iterator[None]:
    """No garbage collection while the runtime's counters are read: arrays left in cycles by
    earlier tests must not be freed half way through a measurement. (Disabling is enough; a
    full `gc.collect()` first cost 0.5 s an example in a worker that has compiled thousands of
    functions: 260 s of CI's worker time in the huge-size tests alone.)"""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def strided_view(base: np.ndarray, shape: tuple[int, ...], strides: tuple[int, ...]) -> np.ndarray:
    """`as_strided(base, shape, strides)` as a plain view of `base` (its `.base` is `base`), so
    jitcheck's argument copies keep the strides, stride 0 included."""
    return np.ndarray(shape, base.dtype, buffer=base, strides=strides)


# --- item 1: a returned array is not freed before the function returns ----------------------


def joined_item(a, c):  # noqa: ANN001, ANN201
    if c:
        return (0, a * 2.0)
    return (True, a * 2.0)  # the tuple is cast to (int, array): the cast holds the array


def joined_layout(a, c):  # noqa: ANN001, ANN201
    if c:
        return (0, a * 2.0)
    return (1, a[::2])  # (int, C array) joins (int, strided view): a cast to layout A


def joined_argument(a2, c):  # noqa: ANN001, ANN201
    if c:
        return (0, a2)
    return (True, a2)


@OPTS
def test_item1_a_tuple_cast_holds_its_arrays(opt: int) -> None:
    a = np.arange(6.0)
    # (the other path returns (1, ...) compiled: `True` joins `0` as an int, a typing rule;
    # its array's lifetime is checked below)
    assert_same_arrays(joined_item, a, True, opt=opt)
    assert_same_arrays(joined_argument, a, True, opt=opt)
    for c in (True, False):
        assert_same_arrays(joined_layout, a, c, opt=opt)


@OPTS
def test_item1_returned_arrays_live_while_referenced(opt: int) -> None:
    f = jit(joined_item, mode="compiled", opt=opt)
    a = np.arange(6.0)
    f(a, True)
    with counting():
        before = runtime.live_bytes()
        for c in (True, False):
            result = f(a, c)
            assert runtime.live_bytes() == before + a.nbytes  # alive: the result holds it
            scratch = f(a + 1.0, c)  # would reuse freed memory
            np.testing.assert_array_equal(result[1], a * 2.0)
            del scratch
            del result
            gc.collect()
            assert runtime.live_bytes() == before


@OPTS
def test_item1_returned_argument_views_keep_the_argument_alive(opt: int) -> None:
    f = jit(joined_argument, mode="compiled", opt=opt)
    f(np.zeros(1), True)
    with counting():
        blocks = runtime.live_blocks()
        for c in (True, False):
            a = np.arange(5.0)[::2]
            result = f(a, c)
            del a
            gc.collect()
            assert runtime.live_blocks() == blocks + 1  # the wrapper holding the argument
            np.testing.assert_array_equal(result[1], [0.0, 2.0, 4.0])
            del result
            gc.collect()
            assert runtime.live_blocks() == blocks


# --- item 2: no size computed in compiled code wraps -----------------------------------------


def zeros_n(n):  # noqa: ANN001, ANN201
    return np.zeros(n)


def empty_square(n):  # noqa: ANN001, ANN201
    return np.empty((n, n)).shape  # (uninitialized values differ)


def empty_nm(n, m):  # noqa: ANN001, ANN201
    return np.empty((n, m)).shape


def full_n(n):  # noqa: ANN001, ANN201
    return np.full(n, 1.5)


def ones_int8(n):  # noqa: ANN001, ANN201
    return np.ones(n, np.int8)


def zeros_with_empty_axis(n):  # noqa: ANN001, ANN201
    return np.zeros((0, n, n))  # NumPy checks the other axes' product all the same


def zeros_negative_last(n):  # noqa: ANN001, ANN201
    return np.zeros((n, n, -1))  # "too big" comes first


def zeros_negative_first(n):  # noqa: ANN001, ANN201
    return np.zeros((-1, n, n))


def linspace_n(n):  # noqa: ANN001, ANN201
    return np.linspace(0.0, 1.0, n)


def zeros_like_n(n):  # noqa: ANN001, ANN201
    return np.zeros_like(np.ones((n, 3)))


def read_past_huge(n):  # noqa: ANN001, ANN201
    z = np.zeros(2**61)
    return z[n - 1]


def arange_int(n):  # noqa: ANN001, ANN201
    return np.arange(0, n)


SIZED = [
    zeros_n,
    empty_square,
    full_n,
    ones_int8,
    zeros_with_empty_axis,
    zeros_negative_last,
    zeros_negative_first,
    linspace_n,
    zeros_like_n,
    read_past_huge,
    arange_int,
]

# Sizes of 2**48 items and up: beyond the address space even for 1-byte items (whatever the
# kernel's overcommit policy), where NumPy raises ValueError ("array is too big") or
# MemoryError without touching memory; nothing here may allocate for real.
huge = st.integers(2**48, 2**63 - 1) | st.sampled_from(
    [2**48, 2**61, 2**62, 2**63 - 1, 2**63 - 97, 2**59 + 1, 3 * 2**61]
)


@pytest.mark.parametrize("f", SIZED, ids=lambda f: f.__name__)
@OPTS
@ci_examples(20)  # 24 cases of 60 examples took 4 of CI's 12 minutes of worker time
@given(n=huge)
@example(n=2**48)
@example(n=2**63 - 1)
@example(n=3 * 2**61)
def test_item2_huge_sizes_raise_as_numpy(f, opt: int, n: int) -> None:  # noqa: ANN001
    with counting():
        before = runtime.live_bytes()
        assert_same(f, n, opt=opt)
        assert runtime.live_bytes() == before


@OPTS
@given(n=st.integers(2**24, 2**62), m=st.integers(2**24, 2**62))
def test_item2_products_of_dimensions_do_not_wrap(opt: int, n: int, m: int) -> None:
    assert_same(empty_nm, n, m, opt=opt)


@OPTS
def test_item2_small_sizes_still_work(opt: int) -> None:
    for f in SIZED:
        if f is not read_past_huge:
            assert_same(f, 3, opt=opt)
    assert_same(empty_nm, 0, 2**62, opt=opt)  # a zero dimension does not excuse the others
    assert_same(empty_nm, 2**62, 0, opt=opt)


def test_item2_the_runtime_refuses_sizes_it_cannot_add_a_header_to() -> None:
    """The allocation entry point itself: a size near 2**63 (or a negative one) is refused
    instead of wrapping when the header is added."""
    alloc = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_int64)(
        machine_code.runtime_symbols()[nrt.ALLOC]
    )
    with counting():
        before = runtime.live_bytes()
        for size in (2**63 - 1, 2**63 - 1 - nrt.HEADER_BYTES + 1, -1, -(2**63)):
            assert alloc(size) is None
        assert runtime.live_bytes() == before


# --- item 4: in-place updates of arrays whose elements share memory -------------------------


def add_one_in_place(a):  # noqa: ANN001, ANN201
    a += 1
    return a


def add_in_place(a, b):  # noqa: ANN001, ANN201
    a += b
    return a


def scale_in_place(a):  # noqa: ANN001, ANN201
    a *= 2.0
    return a


SELF_OVERLAPPING = [
    ((1,), (5,), (0,)),  # base size, shape, strides in items
    ((3,), (4, 3), (0, 1)),
    ((6,), (3, 3), (1, 1)),
    ((4,), (3, 2), (1, 1)),
    ((8,), (3, 3), (2, 1)),  # does not overlap: the snapshot is not needed, results agree
    ((6,), (2, 3), (3, 1)),
    ((1,), (0, 5), (0, 0)),
]


@pytest.mark.parametrize("base_shape, shape, strides", SELF_OVERLAPPING)
@OPTS
def test_item4_in_place_updates_read_every_element_first(
    opt: int, base_shape: tuple, shape: tuple, strides: tuple
) -> None:
    base = np.arange(float(np.prod(base_shape)))
    view = strided_view(base, shape, tuple(8 * s for s in strides))
    assert_same_arrays(add_one_in_place, view, opt=opt)
    assert_same_arrays(scale_in_place, view, opt=opt)
    assert_same_arrays(scale_in_place, view[::-1], opt=opt)
    other = np.arange(float(np.prod(shape))).reshape(shape) + 10.0
    assert_same_arrays(add_in_place, view, other, opt=opt)


@OPTS
def test_item4_as_strided_view_as_in_the_issue(opt: int) -> None:
    f = jit(add_one_in_place, mode="compiled", opt=opt)
    x_py, x_jit = np.zeros(1), np.zeros(1)
    add_one_in_place(as_strided(x_py, (5,), (0,)))
    f(as_strided(x_jit, (5,), (0,)))
    assert x_py[0] == 1.0 and x_jit[0] == 1.0


# --- item 10: reductions without identity over an empty axis --------------------------------


def argmin_0(a):  # noqa: ANN001, ANN201
    return np.argmin(a, axis=0)


def argmax_1(a):  # noqa: ANN001, ANN201
    return np.argmax(a, axis=1)


def min_0(a):  # noqa: ANN001, ANN201
    return a.min(axis=0)


def max_1(a):  # noqa: ANN001, ANN201
    return np.max(a, axis=1)


def amin_last(a):  # noqa: ANN001, ANN201
    return np.amin(a, axis=-1)


def sum_0(a):  # noqa: ANN001, ANN201
    return np.sum(a, axis=0)  # has an identity: an empty axis sums to 0


@pytest.mark.parametrize("f", [argmin_0, argmax_1, min_0, max_1, amin_last, sum_0])
@pytest.mark.parametrize("shape", [(0, 0), (3, 0), (0, 3), (2, 3)])
@OPTS
def test_item10_empty_axes_raise_as_numpy(f, shape: tuple, opt: int) -> None:  # noqa: ANN001
    a = np.arange(float(np.prod(shape))).reshape(shape)
    assert_same_arrays(f, a, opt=opt)


# --- item 13: np.arange's length as NumPy computes it ---------------------------------------


def arange2(start, stop):  # noqa: ANN001, ANN201
    return np.arange(start, stop)


def arange3(start, stop, step):  # noqa: ANN001, ANN201
    return np.arange(start, stop, step)


def arange3_f32(start, stop, step):  # noqa: ANN001, ANN201
    return np.arange(start, stop, step, dtype=np.float32)


SPECIAL = [math.nan, math.inf, -math.inf, 1e300, -1e300, 2.0**63, -(2.0**63), 5e-324]
ends = st.floats(-1e3, 1e3) | st.sampled_from(SPECIAL)
steps = st.floats(0.01, 50) | st.floats(-50, -0.01) | st.sampled_from(SPECIAL + [1e-320, -1e-300])


@OPTS
@given(start=ends, stop=ends, step=steps)
def test_item13_float_arange_length_and_errors(
    opt: int, start: float, stop: float, step: float
) -> None:
    assert_same(arange3, start, stop, step, opt=opt)
    assert_same(arange3_f32, start, stop, step, opt=opt)


int_ends = st.integers(-(2**63), 2**63 - 1).filter(lambda v: abs(v) > 2**61) | st.integers(-50, 50)
int_steps = st.integers(2**58, 2**63 - 1) | st.integers(-(2**63), -(2**58))


@OPTS
@given(start=int_ends, stop=int_ends, step=int_steps)
def test_item13_int_arange_with_a_65_bit_difference(
    opt: int, start: int, stop: int, step: int
) -> None:
    assert_same(arange3, start, stop, step, opt=opt)


@OPTS
def test_item13_arange_cases_from_the_issue(opt: int) -> None:
    for stop in (math.nan, math.inf, -math.inf, 5.5, 0.0):
        assert_same(arange2, 0, stop, opt=opt)
    for start, stop, step in [
        (0.0, 1.0, math.inf),  # 1 / inf underflows to +0: one item
        (5.0, 1.0, math.inf),  # -0: none
        (1.0, 1.0, math.nan),
        (0.0, 2.0**63, 1.0),  # ceil is exactly 2**63: NumPy's conversion gives no items
        (-(2**63), 2**63 - 1, 1),
        (-(2**63), 2**63 - 1, 2**63 - 1),  # the ratio rounds to 2.0: two items
        (2**63 - 1, -(2**63), -(2**62)),
        (0, 10, 3),
        (10, 0, -3),
        (0.1, 1.0, 0.2),  # items past the second are start + i * (second - start)
    ]:
        assert_same(arange3, start, stop, step, opt=opt)


# --- item 15: an array inside a tuple argument, returned -------------------------------------


def first_of(t):  # noqa: ANN001, ANN201
    return t[0]


def nested_view(t):  # noqa: ANN001, ANN201
    return t[1][0][::2], t[0]


@OPTS
def test_item15_arrays_from_tuple_arguments_return(opt: int) -> None:
    assert_same_arrays(first_of, (np.zeros(3),), opt=opt)
    assert_same_arrays(first_of, (np.arange(6.0)[::-2], 1.5), opt=opt)
    assert_same_arrays(nested_view, (2, (np.arange(5.0), np.ones(2))), opt=opt)


@OPTS
def test_item15_the_returned_array_keeps_the_argument_alive(opt: int) -> None:
    f = jit(nested_view, mode="compiled", opt=opt)
    f((2, (np.zeros(1), np.ones(2))))
    with counting():
        blocks = runtime.live_blocks()
        x = np.arange(5.0)
        view, first = f((2, (x, np.ones(2))))
        del x, first
        gc.collect()
        assert runtime.live_blocks() == blocks + 1
        np.testing.assert_array_equal(view, [0.0, 2.0, 4.0])
        del view
        gc.collect()
        assert runtime.live_blocks() == blocks


GLOBAL_ARRAY = np.arange(4.0)


def returns_a_global_array(x):  # noqa: ANN001, ANN201
    return GLOBAL_ARRAY


def returns_a_function(x):  # noqa: ANN001, ANN201
    return np.sin


def test_returning_a_compile_time_object_is_unsupported_not_an_internal_error() -> None:
    """A function is a compile-time object: returning it (boxing has no run-time value to hand
    back) is an UnsupportedError at the `return`, not an internal error. A module-level array
    is frozen into the code (`ir.frozen`): returning it gives a read-only array, kept alive by
    the code, whatever the caller does with it."""
    f = jit(returns_a_function, mode="compiled")
    with pytest.raises(UnsupportedError, match="compile-time object") as caught:
        f(1.0)
    assert "return np.sin" in str(caught.value) and "hint:" in str(caught.value)
    blocks = runtime.live_blocks()
    out = jit(returns_a_global_array, mode="compiled")(1.0)
    np.testing.assert_array_equal(out, GLOBAL_ARRAY)
    assert not out.flags.writeable
    del out
    gc.collect()
    assert runtime.live_blocks() == blocks


# --- item 18: slice assignment of a scalar on any view ----------------------------------------


def fill_tail(a):  # noqa: ANN001, ANN201
    a[1:] = 8
    return a


def fill_all(a):  # noqa: ANN001, ANN201
    a[:] = 8
    return a


def fill_rows(a, k):  # noqa: ANN001, ANN201
    a[k:] = 8.5
    a[:, ::-2] = -1
    return a


VIEWS_1D = [
    np.arange(6.0),
    np.arange(12.0)[::3],
    np.arange(12.0)[::-2],
    np.arange(5),
    np.zeros(0),
]
VIEWS_2D = [
    np.arange(12.0).reshape(3, 4),
    np.asfortranarray(np.arange(12.0).reshape(3, 4)),
    np.arange(24.0).reshape(4, 6)[::2, ::-3],
    np.arange(12.0).reshape(3, 4).T,
]


@OPTS
def test_item18_scalar_slice_assignment_on_views(opt: int) -> None:
    for a in VIEWS_1D + VIEWS_2D:
        assert_same_arrays(fill_tail, a, opt=opt)
        assert_same_arrays(fill_all, a, opt=opt)
    for a in VIEWS_2D:
        for k in (0, 1, -1, 5):
            assert_same_arrays(fill_rows, a, k, opt=opt)


# --- item 19: array layouts join on return paths and in phis ----------------------------------


def return_or_scale(a, n):  # noqa: ANN001, ANN201
    if n > 0:
        return a
    return a * 2.0


def scale_in_loop(a, n):  # noqa: ANN001, ANN201
    b = a
    for _ in range(n):
        b = b * 2.0  # the loop phi joins the argument's layout and C
    return b


def pick(a, n):  # noqa: ANN001, ANN201
    b = a[::2] if n > 1 else a
    c = a * 1.0 if n > 2 else b
    return c, b


@pytest.mark.parametrize(
    "a",
    [
        np.arange(8.0)[::2],
        np.asfortranarray(np.arange(6.0).reshape(2, 3)),
        np.arange(12.0).reshape(3, 4)[:, ::-1],
        np.arange(6.0),
    ],
    ids=["strided", "fortran", "reversed-2d", "C"],
)
@OPTS
def test_item19_layouts_join_on_return_paths(a: np.ndarray, opt: int) -> None:
    for n in (-1, 0, 1, 3):
        assert_same_arrays(return_or_scale, a, n, opt=opt)
        assert_same_arrays(scale_in_loop, a, n, opt=opt)
        assert_same_arrays(pick, a, n, opt=opt)


@OPTS
def test_item19_joined_results_are_freed_after_use(opt: int) -> None:
    f = jit(scale_in_loop, mode="compiled", opt=opt)
    a = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    f(a, 0)
    with counting():
        before = runtime.live_bytes()
        result = f(a, 3)
        assert runtime.live_bytes() == before + a.nbytes  # the last product only
        del result
        gc.collect()
        assert runtime.live_bytes() == before


# --- the array tests under glibc's heap checks ------------------------------------------------

# (`make malloc-check` runs this file and the array tests so too: about 2 minutes, more than
# every CI run can spend; a CI run checks the runtime's own allocator tests)
MALLOC_CHECKED = ["tests/jitcore/test_runtime_memory.py"]


@pytest.mark.skipif(
    os.environ.get("MALLOC_CHECK_") == "3", reason="this is the run under MALLOC_CHECK_=3"
)
@pytest.mark.skipif(sys.platform != "linux", reason="MALLOC_CHECK_ is glibc's")
def test_memory_tests_run_clean_under_malloc_check() -> None:
    """glibc aborts on a heap inconsistency (a double free, a write past a block) with
    `MALLOC_CHECK_=3`: the memory tests run in a child process with it. The tests of
    `test_arrays.py` run so too with `make malloc-check` (too slow for every run)."""
    env = dict(os.environ, MALLOC_CHECK_="3", MALLOC_PERTURB_="165", PYTHONMALLOC="malloc")
    env.pop("PYTEST_XDIST_WORKER", None)
    child = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "no:xdist"]
        + ["--hypothesis-profile=rerun", "-k", "not malloc_check", *MALLOC_CHECKED],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert child.returncode == 0, child.stdout[-4000:] + child.stderr[-4000:]
