"""Typed lists compiled vs Python: literals, comprehensions, methods, indexing and slicing,
builtins and operators over lists, list arguments (copied in) and results (Python lists),
lists of arrays and of lists (reference counts: memory stays flat), and the errors Python
raises (IndexError, ValueError on empty lists) and the typing errors jitcore gives."""

from __future__ import annotations

import gc

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import TypingError, UnsupportedError, jit, runtime
from tests.jitcore.support import assert_same, compiled

ints = st.lists(st.integers(-(2**40), 2**40), max_size=40)
floats = st.lists(st.floats(-1e9, 1e9, allow_nan=False), max_size=40)
small = st.integers(-50, 50)


# --- building lists ------------------------------------------------------------------------


def squares_of_evens(n):  # noqa: ANN001, ANN201
    return [i * i for i in range(n) if i % 2 == 0]


def pairs(n):  # noqa: ANN001, ANN201
    return [i + j * 0.5 for i in range(n) for j in range(i)]


def grow_and_sum(n):  # noqa: ANN001, ANN201
    out = []
    for i in range(n):
        out.append(i * 0.25)
    s = 0.0
    for x in out:
        s += x
    return s, len(out), out


def literal_widens(x):  # noqa: ANN001, ANN201
    lst = [1, 2]
    lst.append(x)
    return lst


def range_list(a, b):  # noqa: ANN001, ANN201
    return list(range(a, b))


def comprehension_scope(n):  # noqa: ANN001, ANN201
    x = -1
    ys = [x * 2 for x in range(n)]
    return x, ys


def walk_while_growing(n):  # noqa: ANN001, ANN201
    lst = [0]
    for x in lst:
        if len(lst) < n:
            lst.append(x + 1)
    return lst


def conditional_literal(c):  # noqa: ANN001, ANN201
    x = [] if c else [1.5]
    x.append(2.0)
    return x


@given(n=st.integers(0, 60))
def test_comprehensions_and_appends(n: int) -> None:
    assert_same(walk_while_growing, n)
    assert_same(conditional_literal, n % 2 == 0)
    assert_same(squares_of_evens, n)
    assert_same(pairs, min(n, 12))
    assert_same(grow_and_sum, n)
    assert_same(comprehension_scope, n)


@given(x=st.floats(-10, 10), a=small, b=small)
def test_literals_and_ranges(x: float, a: int, b: int) -> None:
    assert_same(literal_widens, x)
    assert_same(range_list, a, b)


# --- methods -------------------------------------------------------------------------------


def methods(xs, x, i):  # noqa: ANN001, ANN201
    lst = list(xs)
    lst.append(x)
    lst.insert(i, x + 1)
    lst.extend(xs)
    c = lst.count(x)
    popped = lst.pop()
    first = lst.pop(0) if lst else 0
    lst.reverse()
    copied = lst.copy()
    copied.append(7)
    where = lst.index(x) if x in lst else -1
    return lst, copied, c, popped, first, where, x not in lst


def pop_at(xs, i):  # noqa: ANN001, ANN201
    lst = list(xs)
    return lst.pop(i), lst


def pop_empty(n):  # noqa: ANN001, ANN201
    lst = [1.0] * n
    lst.clear()
    return lst.pop()


def index_missing(xs, x):  # noqa: ANN001, ANN201
    return xs.index(x)


def remove_item(xs, x):  # noqa: ANN001, ANN201
    lst = list(xs)
    lst.remove(x)
    return lst


@given(xs=ints, x=small, i=small)
def test_methods(xs: list[int], x: int, i: int) -> None:
    assert_same(methods, xs or [0], x, i)
    assert_same(pop_at, xs or [1], i)  # IndexError: pop index out of range when out


@given(xs=ints, x=small)
def test_search_errors(xs: list[int], x: int) -> None:
    assert_same(index_missing, xs or [0], x)  # ValueError when absent
    assert_same(remove_item, xs or [0], x)


def test_pop_from_empty_list_is_an_index_error() -> None:
    assert_same(pop_empty, 3)
    with pytest.raises(IndexError, match="pop from empty list"):
        jit(mode="compiled")(pop_empty)(0)


# --- indexing and slicing -----------------------------------------------------------------


def get_set(xs, i, v):  # noqa: ANN001, ANN201
    lst = list(xs)
    old = lst[i]
    lst[i] = v
    return old, lst


def sliced(xs, a, b, c):  # noqa: ANN001, ANN201
    return xs[a:b:c], xs[a:], xs[:b], xs[::-1]


@given(xs=floats, i=small, v=st.floats(-5, 5))
def test_indexing_like_python(xs: list[float], i: int, v: float) -> None:
    assert_same(get_set, xs or [0.5], i, v)  # IndexError out of range, negatives wrap


@given(xs=ints, a=small, b=small, c=small)
def test_slicing_like_python(xs: list[int], a: int, b: int, c: int) -> None:
    assert_same(sliced, xs or [3], a, b, c)  # ValueError for a zero step


# --- builtins and operators ----------------------------------------------------------------


def reductions(xs):  # noqa: ANN001, ANN201
    return sum(xs), sum(xs, 10), min(xs), max(xs), sorted(xs), sorted(xs, reverse=True)


def in_place_sort(xs):  # noqa: ANN001, ANN201
    lst = list(xs)
    lst.sort()
    return lst


def operators(xs, ys, n):  # noqa: ANN001, ANN201
    both = xs + ys
    rep = xs * n
    rep2 = n * ys
    acc = list(xs)
    acc += ys
    return both, rep, rep2, acc, xs == ys, xs != ys, xs == list(xs), bool(xs), not ys


@given(xs=floats)
def test_sum_min_max_sorted(xs: list[float]) -> None:
    assert_same(reductions, xs or [1.0])
    assert_same(in_place_sort, xs or [2.0])


@given(xs=ints)
def test_sort_ints_long_lists(xs: list[int]) -> None:
    assert_same(in_place_sort, (xs or [1]) * 3)


def min_of_empty(n):  # noqa: ANN001, ANN201
    xs = [0.5] * n
    return sum(xs), min(xs)


def test_min_of_an_empty_list_is_a_value_error() -> None:
    assert_same(min_of_empty, 2)
    assert_same(min_of_empty, 0)  # ValueError: min() arg is an empty sequence


@given(xs=ints, ys=ints, n=st.integers(-3, 4))
def test_operators(xs: list[int], ys: list[int], n: int) -> None:
    assert_same(operators, xs or [1], ys or [2], n)


def repeat_huge(xs, n):  # noqa: ANN001, ANN201
    return xs * n


def test_a_repeat_that_cannot_fit_is_a_memory_error() -> None:
    with pytest.raises(MemoryError):
        jit(mode="compiled")(repeat_huge)([1, 2], 2**62)


# --- lists of arrays, tuples and lists ------------------------------------------------------


def scaled_rows(arrs, k):  # noqa: ANN001, ANN201
    out = []
    for a in arrs:
        out.append(a * k)
    out.append(arrs[0])
    total = 0.0
    for a in out:
        total += a.sum()
    return out, total


def tuples(n):  # noqa: ANN001, ANN201
    pts = [(i, i * 0.5) for i in range(n)]
    pts.append((n, 1.0))
    s = 0.0
    for p in pts:
        s += p[0] * p[1]
    return pts, s


def lists_of_lists(n):  # noqa: ANN001, ANN201
    rows = []
    for _ in range(n):
        rows.append([])
    for i in range(n):
        for j in range(i):
            rows[i].append(j * 1.5)
    return rows, [len(r) for r in rows]


@given(n=st.integers(0, 12), k=st.floats(-3, 3))
def test_lists_of_arrays_tuples_and_lists(n: int, k: float) -> None:
    arrs = [np.arange(float(m)) for m in range(1, n + 2)]
    assert_same(scaled_rows, arrs, k)
    assert_same(tuples, n)
    assert_same(lists_of_lists, n)


def test_lists_of_arrays_keep_memory_flat() -> None:
    f = jit(mode="compiled")(scaled_rows)
    g = jit(mode="compiled")(lists_of_lists)
    arrs = [np.ones(1000), np.arange(5.0)[::2]]  # a strided item: the list holds layout A
    f(arrs, 2.0)
    g(5)
    gc.collect()
    before = runtime.live_bytes(), runtime.live_blocks()
    for _ in range(2000):
        out, _ = f(arrs, 2.0)
        del out
        g(6)
    gc.collect()
    assert (runtime.live_bytes(), runtime.live_blocks()) == before


def pops_arrays(arrs):  # noqa: ANN001, ANN201
    lst = list(arrs)
    a = lst.pop()
    lst.clear()
    return a * 1.0


def test_popped_and_cleared_arrays_are_released() -> None:
    f = jit(mode="compiled")(pops_arrays)
    arrs = [np.ones(100), np.ones(200)]
    f(arrs)
    gc.collect()
    before = runtime.live_bytes(), runtime.live_blocks()
    for _ in range(500):
        f(arrs)
    gc.collect()
    assert (runtime.live_bytes(), runtime.live_blocks()) == before


# --- arguments and results -----------------------------------------------------------------


def mutate_argument(xs):  # noqa: ANN001, ANN201
    xs.append(1)
    return len(xs)


def test_a_list_argument_is_copied_in() -> None:
    """Documented: a list argument is a copy; the caller's list is not changed (return it)."""
    xs = [5, 6]
    assert jit(mode="compiled")(mutate_argument)(xs) == 3
    assert xs == [5, 6]


def first(xs):  # noqa: ANN001, ANN201
    return xs[0]


def test_list_arguments_are_typed_by_their_items() -> None:
    f = jit(mode="compiled")(first)
    assert f([1, 2]) == 1 and type(f([1, 2])) is int
    assert f([1.5]) == 1.5 and type(f([1.5])) is float
    assert f([(1, 2.0)]) == (1, 2.0)
    assert len(f.signatures) == 3
    with pytest.raises(TypeError, match="argument `xs` is an empty list"):
        f([])
    with pytest.raises(TypeError, match="argument `xs` is a list of mixed types"):
        f([1, 2.5])


def empty_untyped():  # noqa: ANN201
    lst = []
    return len(lst)


def conflicting(n):  # noqa: ANN001, ANN201
    lst = [np.zeros(n)]
    lst.append(1)
    return lst


def test_typing_errors_name_the_line() -> None:
    with pytest.raises(TypingError, match="cannot tell the item type of this empty list"):
        jit(mode="compiled")(empty_untyped)()
    with pytest.raises(TypingError, match="cannot hold i64"):
        jit(mode="compiled")(conflicting)(3)


def ir_of_lists(n):  # noqa: ANN001, ANN201
    lst = [i * 0.5 for i in range(n)]
    lst.append(1)
    t = [1, 2]
    t.append(2.5)
    return sum(lst) + lst[-1] + len(lst[1:]) + t[0], sorted(t)


def test_list_ir_prints_and_parses_back_at_every_stage() -> None:
    from jitcore.ir.parser import parse_ir
    from jitcore.ir.printer import print_ir
    from jitcore.session import open_session

    f = jit(mode="compiled")(ir_of_lists)
    f(4)
    for stage in ("ssa", "typeinfer", "optimize", "lower"):
        text = f.inspect(stage)
        with open_session():
            assert print_ir(parse_ir(text)) == text, stage


def index_and_count(items, x):  # noqa: ANN001, ANN201
    return items.index(x), items.count(x), items.index(x, 0)


def test_list_index_and_count_are_python_ints() -> None:
    got = jit(mode="compiled")(index_and_count)([1, 2, 2], 2)
    assert got == (1, 2, 1)
    assert [type(v) for v in got] == [int, int, int]


def tuple_items(n):  # noqa: ANN001, ANN201
    pts = [(i, -i) for i in range(n)]
    pts.append((n, 2))
    s = 0
    for p in pts:
        s += p[0] - p[1]
    a, b = pts[-1]
    return s, a // b, pts


def nested_items(n):  # noqa: ANN001, ANN201
    rows = [[1, 2], [n]]
    copied = rows.copy()
    return rows, copied, [rows[0]] * 2, [[n]] == [[n]], [(n, 1.5)] == [(n, 1.5)]


def divide_an_item(n):  # noqa: ANN001, ANN201
    a, b = [(n, 0)][0]
    return a / b  # Python ints: ZeroDivisionError, not NumPy's inf


def _types(value: object) -> object:
    if isinstance(value, list | tuple):
        return [_types(v) for v in value]
    return type(value)


@pytest.mark.parametrize("f", [tuple_items, nested_items])
def test_numbers_inside_tuples_and_lists_in_lists_are_python_numbers(f) -> None:  # noqa: ANN001
    for n in (0, 3):
        got = assert_same(f, n)
        assert _types(got) == _types(f(n))  # ints, floats and bools: Python's, not NumPy's
    assert_same(divide_an_item, 3)


def same_rows(rows):  # noqa: ANN001, ANN201
    return rows


def test_a_list_of_lists_argument_comes_back_with_python_ints() -> None:
    got = jit(mode="compiled")(same_rows)([[1], [2, 3]])
    assert got == [[1], [2, 3]]
    assert _types(got) == [[int], [int, int]]


# --- key functions: sorted, list.sort, min, max -----------------------------------------------


def second(t):  # noqa: ANN001, ANN201
    return t[1]


def sorts_by_key(values, reverse):  # noqa: ANN001, ANN201
    pairs = [(k, v) for k, v in enumerate(values)]
    a = sorted(pairs, key=second, reverse=reverse)
    b = sorted(values, key=lambda v: -abs(v), reverse=reverse)
    c = sorted(pairs, key=lambda t: (t[1] // 10, -t[0]))
    pairs.sort(key=lambda t: t[1] % 3, reverse=reverse)  # many equal keys: stability
    d = sorted(pairs)  # tuples order as Python orders them
    e = sorted(values, key=None)
    return a, b, c, pairs, d, e


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=40), st.booleans())
def test_sorting_by_key_is_stable_as_python(values: list[int], reverse: bool) -> None:
    assert_same(sorts_by_key, values, reverse)


def extremes_by_key(values):  # noqa: ANN001, ANN201
    pairs = [(v, k) for k, v in enumerate(values)]
    return (
        max(pairs, key=lambda t: t[0] % 7),  # the first of the largest key
        min(pairs, key=second),
        max(values, key=abs),
        min(values, key=lambda v: (v % 3, -v)),
        max(values[1:], key=abs),  # one value: an empty sequence, ValueError as Python
    )


@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=20))
def test_min_and_max_by_key_take_the_first_extreme(values: list[float]) -> None:
    assert_same(extremes_by_key, values)


def nested_tuple_order(a, b, c, d):  # noqa: ANN001, ANN201
    x, y = ((a, b), c), ((a, d), c)
    return x < y, x <= y, x == y, x > y, sorted([y, x])


@given(st.integers(-3, 3), st.integers(-3, 3), st.floats(-2, 2), st.integers(-3, 3))
def test_nested_tuples_compare_as_python(a: int, b: int, c: float, d: int) -> None:
    assert_same(nested_tuple_order, a, b, c, d)


def count_items(lst):  # noqa: ANN001, ANN201
    return len(lst)


def filled_after_a_call(n):  # noqa: ANN001, ANN201
    out = []
    before = count_items(out)  # the list is typed by the appends below
    for i in range(n):
        out.append(i * 0.5)
    return before, count_items(out), out


@given(st.integers(0, 5))
def test_an_empty_list_passed_before_it_is_filled_is_typed_by_the_fill(n: int) -> None:
    assert_same(filled_after_a_call, n)


def lists_of_dicts_and_sets(keys):  # noqa: ANN001, ANN201
    d = {}
    for i, k in enumerate(keys):
        d[k] = i * 0.5
    s = {k % 5 for k in keys}
    extended = [-1.0]
    extended.extend(d.values())
    extended2 = [-1]
    extended2.extend(s)
    return (
        list(d),
        list(d.keys()),
        list(d.values()),
        list(d.items()),
        sorted(s),
        sorted(d.values(), reverse=True),
        sorted(d, key=lambda k: -k),
        extended,
        sorted(extended2),  # a set's order: insertion order here, hash order in Python
        sorted(list(s)),
    )


@given(st.lists(st.integers(-20, 20), min_size=1, max_size=12))
def test_list_sorted_and_extend_take_dicts_sets_and_views(keys: list[int]) -> None:
    assert_same(lists_of_dicts_and_sets, keys)


def key_is_a_class(values):  # noqa: ANN001, ANN201
    return sorted(values, key=float)


def test_a_class_as_key_is_a_typing_error_with_the_way_out() -> None:
    with pytest.raises(TypingError, match="key=float") as info:
        jit(key_is_a_class, mode="compiled")([3, 1, 2])
    assert "lambda x: float(x)" in str(info.value)


def nan_identity(a):  # noqa: ANN001, ANN201
    b = a.copy()
    return a == b, a[0] in a, a.count(a[0])


def test_a_nan_item_never_finds_itself() -> None:
    """The documented difference (README, deliberate differences): Python takes the very same
    NaN object as equal (`x is y or x == y`); compiled code holds floats as values and cannot
    tell one NaN from another, so a NaN equals nothing."""
    a = [float("nan"), 1.0]
    assert nan_identity(a) == (True, True, 1)
    assert compiled(nan_identity)(a) == (False, False, 0)


def assigns_a_slice(n):  # noqa: ANN001, ANN201
    lst = [1, 2, 3]
    lst[0:2] = [n]
    return lst


def deletes_an_item(n):  # noqa: ANN001, ANN201
    lst = list(range(n))
    del lst[0]
    return lst


def float_index(x):  # noqa: ANN001, ANN201
    lst = [1, 2]
    return lst[x]


def pops_a_float(x):  # noqa: ANN001, ANN201
    lst = [1, 2]
    return lst.pop(x)


@pytest.mark.parametrize(
    "func, arg, error, words",
    [
        (assigns_a_slice, 0, UnsupportedError, "slice assignment to lists is not supported"),
        (deletes_an_item, 3, UnsupportedError, "`del` of list items is not supported"),
        (float_index, 0.5, TypingError, "list indices must be integers or slices, not float"),
        (pops_a_float, 0.5, TypingError, "'float' object cannot be interpreted as an integer"),
    ],
)
def test_list_errors_name_python_types(func, arg, error, words) -> None:  # noqa: ANN001
    """The messages say what Python's say, never jitcore's own spelling of a type (they
    printed `slice(i64, i64, none)` and `list(bottom)`)."""
    with pytest.raises(error) as info:
        jit(func, mode="compiled")(arg)
    assert words in str(info.value) and "hint: " in str(info.value)
