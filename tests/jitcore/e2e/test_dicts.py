"""Typed dicts compiled vs Python: `{}` typed from later stores, literals, comprehensions,
`d[k]` (KeyError), `get`, `in`, `pop`, `setdefault`, `del`, `len`, iteration in insertion order
(also after deletions), keys of ints, floats (0.0 and -0.0 are one key), bools, tuples and
strings; values of numbers, tuples and arrays; dict arguments (copied in) and results."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore import TypingError, UnsupportedError, jit, runtime
from tests.jitcore.support import assert_same

INTS = st.integers(-(2**63), 2**63 - 1)
KEYS = st.lists(st.integers(-5, 5), min_size=1, max_size=30)
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=4)


def count(a: np.ndarray) -> dict:
    d = {}
    for x in a:
        d[x] = d.get(x, 0) + 1
    return d


@given(a=hnp.arrays(np.int64, st.integers(0, 40), elements=st.integers(-6, 6)))
def test_counting_loop_matches_python(a: np.ndarray) -> None:
    got = assert_same(count, a)
    assert list(got) == list(count(a))  # insertion order


@given(
    a=hnp.arrays(np.float64, st.integers(0, 20), elements=st.sampled_from([0.0, -0.0, 1.5, -2.0]))
)
def test_float_keys_zero_and_negative_zero_are_one_key(a: np.ndarray) -> None:
    got = assert_same(count, a)
    assert [repr(float(k)) for k in got] == [repr(float(k)) for k in count(a)]


@given(keys=KEYS, probe=st.integers(-6, 6))
def test_get_in_setdefault_pop_and_iteration(keys: list, probe: int) -> None:
    assert_same(ops_tuple, tuple(keys), probe)


def ops_tuple(keys: tuple, probe: int) -> tuple:
    d = {}
    for i in range(len(keys)):
        d[keys[i]] = i * 10
    had = probe in d
    got = d.get(probe, -1)
    d.setdefault(probe, 99)
    popped = d.pop(probe)
    missing = d.pop(probe, -7)
    total = 0
    for k in d:
        total = total * 3 + k + d[k]
    return had, got, popped, missing, len(d), total


def delete_and_keep_order(n: int, step: int) -> dict:
    d = {}
    for i in range(n):
        d[i * 7 % 13] = float(i)
    for i in range(0, n, step):
        k = i * 7 % 13
        if k in d:
            del d[k]
    for i in range(n, n + 5):
        d[i] = -1.0
    return d


@given(n=st.integers(0, 60), step=st.integers(1, 4))
def test_deletion_keeps_insertion_order(n: int, step: int) -> None:
    got = assert_same(delete_and_keep_order, n, step)
    assert list(got.items()) == list(delete_and_keep_order(n, step).items())


def lookup(d: dict, k: int) -> int:
    return d[k]


def remove(keys: tuple, k: int) -> int:
    d = {key: 1 for key in keys}
    del d[k]
    return len(d)


@given(d=st.dictionaries(st.integers(-5, 5), INTS, min_size=1, max_size=8), k=st.integers(-6, 6))
def test_missing_key_raises_key_error(d: dict, k: int) -> None:
    assert_same(lookup, d, k)
    assert_same(remove, tuple(d), k)


def literal_and_comprehension(n: int) -> tuple:
    d = {"a": 1.5, "b": 2.5}
    sq = {i: i * i for i in range(n) if i % 2 == 0}
    names = {("k", j % 2): n for j in range(3)}
    return d, sq, names, d["b"], "c" in d, len(sq)


@given(n=st.integers(0, 30))
def test_literals_and_comprehensions(n: int) -> None:
    assert_same(literal_and_comprehension, n)


def comprehension_scope(x: int) -> tuple:
    d = {x: x + 1 for x in range(3)}
    return x, d


def test_comprehension_variables_do_not_leak() -> None:
    assert assert_same(comprehension_scope, 42) == (42, {0: 1, 1: 2, 2: 3})


def string_keys(words: tuple) -> dict:
    d = {}
    for w in words:
        d[w] = d.get(w, 0) + len(w)
    return d


@given(words=st.lists(TEXT, min_size=1, max_size=20))
def test_string_keys(words: list) -> None:
    assert_same(string_keys, tuple(words))


def tuple_and_bool_keys(n: int) -> tuple:
    d = {}
    b = {}
    for i in range(n):
        d[(i % 3, i % 2 == 0)] = i
        b[i % 2 == 0] = b.get(i % 2 == 0, 0) + 1
    return d, b


@given(n=st.integers(0, 20))
def test_tuple_and_bool_keys(n: int) -> None:
    assert_same(tuple_and_bool_keys, n)


def array_values(n: int) -> tuple:
    d = {}
    for i in range(n):
        d[i] = np.arange(i) * 1.5
    total = 0.0
    for k in d:
        total += np.sum(d[k])
    d.pop(0, np.zeros(0))
    return total, len(d)


def test_array_values_are_reference_counted() -> None:
    f = jit(mode="compiled")(array_values)
    assert_same(array_values, 6)
    f(3)
    before = runtime.live_bytes(), runtime.live_blocks()
    for _ in range(50):
        f(10)
    assert (runtime.live_bytes(), runtime.live_blocks()) == before


def argument(d: dict, scale: float) -> dict:
    out = {}
    for k, v in d.items():
        out[k] = v * scale
    d["new"] = 0.0  # the compiled copy changes; the caller's dict does not (copy-in)
    return out


def test_dict_arguments_are_copied_in_and_returned() -> None:
    d = {"x": 1.0, "y": -2.5}
    got = jit(mode="compiled")(argument)(d, 2.0)
    assert got == {"x": 2.0, "y": -5.0}
    assert d == {"x": 1.0, "y": -2.5}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({}, "empty dict"),
        ({1: 1, "a": 2}, "keys of several types"),
        ({1: 1, 2: 2.5}, "values of several types"),
    ],
)
def test_unsupported_dict_arguments_name_the_argument(value: dict, message: str) -> None:
    f = jit(mode="compiled")(lookup)
    with pytest.raises(TypeError, match=f"`d`.*{message}"):
        f(value, 1)


def never_typed() -> int:
    d = {}
    return len(d)


def test_an_empty_dict_never_stored_into_is_a_typing_error() -> None:
    with pytest.raises(TypingError, match="empty dict"):
        jit(mode="compiled")(never_typed)()


def changed_during_iteration(n: int) -> int:
    d = {0: 0, 100: 0}
    for k in d:
        if k < n:
            d[k + 1] = 0
    return len(d)


def test_changing_size_while_iterating_raises_runtime_error() -> None:
    assert_same(changed_during_iteration, 3)


def float_key_into_int_dict(x: float) -> int:
    d = {1: 2}
    return d[x]


def get_without_default(k: int) -> str:
    d = {1: "a"}
    return d.get(k)


def optional_get(keys: tuple, probe: int) -> tuple:
    d = {}
    for k in keys:
        d[k] = d.get(k, 0) + 1
    found = d.get(probe)
    twice = -1 if found is None else found * 2
    return found, twice, {1.5: np.arange(3.0)}.get(probe + 0.5)


@given(keys=KEYS, probe=st.integers(-6, 6))
def test_get_without_a_default_is_optional(keys: list, probe: int) -> None:
    assert_same(optional_get, tuple(keys), probe)


def key_error_text(f, *args) -> str:  # noqa: ANN001
    with pytest.raises(KeyError) as info:
        f(*args)
    return str(info.value)


def lookup_float(x: float) -> float:
    return {0.5: 1.0}[x]


def lookup_str(s: str) -> int:
    return {"a": 1}[s]


def lookup_tuple(n: int) -> int:
    return {(1, 2): 3}[(n, 2)]


@given(k=st.integers(-(2**63), 2**63 - 1).filter(lambda k: k != 1), x=st.floats(), s=TEXT)
def test_key_error_carries_the_key_as_python_does(k: int, x: float, s: str) -> None:
    assert key_error_text(jit(mode="compiled")(lookup), {1: 2}, k) == key_error_text(
        lookup, {1: 2}, k
    )
    if x != 0.5:
        assert key_error_text(jit(mode="compiled")(lookup_float), x) == str(KeyError(x))
    if s != "a":
        assert key_error_text(jit(mode="compiled")(lookup_str), s) == str(KeyError(s))


def test_a_tuple_key_error_names_the_key_type() -> None:
    assert "tuple(i64, i64)" in key_error_text(jit(mode="compiled")(lookup_tuple), 5)


def mixed_literal() -> dict:
    return {1: "a", 2: 3}


def list_values_stored(s: str) -> int:
    d = {}
    d[s] = s.split(",")
    return len(d[s])


def list_value_literal(n: int) -> int:
    d = {1: [n, n]}
    return len(d[1])


def list_into_a_dict_argument(d: dict, k: int) -> int:
    d[k] = [k, k]
    return len(d[k])


def read_list_values(d: dict) -> int:
    return len(d[1]) + len(d[2])


def test_a_dict_argument_of_lists_can_be_read() -> None:
    assert jit(mode="compiled")(read_list_values)({1: [1, 2], 2: [3]}) == 3


@pytest.mark.parametrize(
    ("f", "args", "message"),
    [
        # storing a list into a dict corrupted the heap (glibc aborted): refused instead
        (list_values_stored, ("a,b",), r"list\(str\) cannot be a dict value"),
        (list_value_literal, (3,), r"list\(i64\) cannot be a dict value"),
        (list_into_a_dict_argument, ({1: [1]}, 2), r"list\(i64\) cannot be a dict value"),
        (float_key_into_int_dict, (1.5,), "f64 cannot be used as one of the dict keys"),
        (get_without_default, (1,), "optional str"),
        (mixed_literal, (), "dict values of types str and i64"),
    ],
)
def test_unsupported_uses_are_errors_with_a_hint(f, args: tuple, message: str) -> None:  # noqa: ANN001
    with pytest.raises((TypingError, UnsupportedError), match=message) as info:
        jit(mode="compiled")(f)(*args)
    assert "hint:" in str(info.value)


def list_values(d: dict, pairs: dict, k: str) -> tuple:
    twice = len(d[k]) + len(d[k])  # each read takes a reference of its own
    for _key, v in d.items():
        twice += len(v)
    for v in d.values():
        twice += len(v)
    return twice, len(pairs[k][0]) + len(pairs[k][0]), d[k]


@given(
    d=st.dictionaries(
        st.text(max_size=3), st.lists(st.integers(-5, 5), min_size=1, max_size=4), min_size=1
    )
)
def test_list_values_of_an_argument_are_reference_counted(d: dict) -> None:
    # a dict argument's list values (and tuples holding lists) used to be read without a
    # reference of their own: reading one twice freed it (heap corruption)
    k = next(iter(d))
    pairs = {key: (v, len(v)) for key, v in d.items()}
    assert_same(list_values, d, pairs, k)
    f = jit(mode="compiled")(list_values)
    f(d, pairs, k)
    before = runtime.live_bytes(), runtime.live_blocks()
    for _ in range(20):
        assert f(d, pairs, k) == list_values(d, pairs, k)
    assert (runtime.live_bytes(), runtime.live_blocks()) == before
