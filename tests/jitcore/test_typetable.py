"""The dispatcher's type table: native O(1) dispatch by argument types, for many signatures."""

from __future__ import annotations

import numpy as np
import pytest

from jitcore import jit
from jitcore.argtypes import type_key
from jitcore.typetable import TypeTable, hash_words, key_words


def test_table_finds_every_key_after_growing() -> None:
    table = TypeTable(2)
    keys = [(i, 0, 3 * i + 1, 7) for i in range(1, 300)]
    for n, words in enumerate(keys, start=1):
        table.add(words, 1000 + n)
    assert len(table) == len(keys)
    assert all(table.lookup(w) == 1000 + n for n, w in enumerate(keys, start=1))
    assert table.lookup((5, 5, 5, 5)) == 0
    assert table.header[0] + 1 >= 2 * len(keys)  # at most half full


def test_hash_mixes_every_word() -> None:
    assert hash_words((1, 0)) != hash_words((0, 1))
    assert len({hash_words((t, 0)) & 63 for t in range(4096, 4096 + 64 * 8, 8)}) > 32


def test_key_words_of_tuples_and_readonly_arrays_are_not_in_the_table() -> None:
    assert key_words((type_key((1, 2.0)),)) is None
    ro = np.zeros(3)
    ro.flags.writeable = False
    assert key_words((type_key(ro),)) is None
    assert key_words((type_key(1), type_key(np.zeros((2, 2))))) is not None


def describe(a):  # noqa: ANN001, ANN201
    return a.ndim * 100 + a.shape[0]


ARRAYS = [
    np.zeros(3),
    np.zeros((4, 2)),
    np.zeros((4, 2), order="F"),
    np.zeros((6, 4))[::2, ::2],
    np.zeros(5, dtype=np.float32),
    np.zeros((7, 1, 1), dtype=np.int8),
    np.zeros(2, dtype=np.complex64),
    np.zeros(9, dtype=np.bool_),
]


def test_arrays_of_every_layout_dispatch_to_their_own_specialization() -> None:
    f = jit(mode="compiled")(describe)
    for a in ARRAYS:
        assert f(a) == describe(a)
    assert len(f.signatures) == len(ARRAYS)
    for a in ARRAYS:  # warm calls go through the native type table
        assert f(a) == describe(a)
    assert type(f).__call__ is not type(f).__mro__[1].__call__  # the native trampoline


def test_arrays_compiled_code_must_not_see_go_to_python() -> None:
    f = jit(mode="compiled")(describe)
    assert f(np.zeros(3)) == 103
    swapped = np.zeros(4, dtype=">f8")
    with pytest.raises(TypeError, match="dtype"):
        f(swapped)  # never the native f64 entry point
    readonly = np.zeros(3)
    readonly.flags.writeable = False
    with pytest.raises(TypeError, match="read-only"):
        f(readonly)


def pick(a, b, c):  # noqa: ANN001, ANN201
    return a + b + c


SAMPLES = [1, 2.5, True, np.int32(3), np.float32(1.5), np.int8(2), np.uint16(4)]


def test_many_signatures_all_dispatch_right() -> None:
    f = jit(mode="compiled")(pick)
    triples = [(a, b, c) for a in SAMPLES for b in SAMPLES for c in SAMPLES[:3]]
    for args in triples:
        assert f(*args) == pick(*args)
    assert len(f.signatures) == len(triples)
    for args in reversed(triples):
        assert f(*args) == pick(*args)
