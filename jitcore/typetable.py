"""The type table of a dispatcher: compiled entry points found by the arguments' types in O(1).

The native trampoline (`codegen.dispatch`) computes two 64-bit words per argument from its
PyObject: the address of its Python type, and for an ndarray a word made of its dtype number,
ndim and layout (0 for anything else). It hashes the words and probes this open-addressing
table, which Python fills when a signature is compiled: adding a signature writes memory, it
does not regenerate code. So a call costs the same for the 1st and the 500th signature, and
adding signatures is linear in total.

Arrays that compiled code must never see (read-only, non-native byte order) get a word that is
never in the table, so they reach the Python-level dispatcher, as do tuples (whose item types
the trampoline checks with generated code instead, see `Dispatcher._install_native_dispatch`).

Layout in memory: `header = [mask, address of entries]`; an entry is `2 * nparams` key words
and the entry point's address (0 marks an empty slot). The table is at most half full. Tables
replaced by a larger one stay alive with the dispatcher (a call may still be reading one).
"""

from __future__ import annotations

import ctypes

import numpy as np

MASK64 = (1 << 64) - 1
MIX = 0x9E3779B97F4A7C15  # the golden-ratio multiplier of Fibonacci hashing
ARRAY_MARK = 1 << 40
NEVER = MASK64  # the array word of an array no entry accepts
LAYOUT_CODES = {"C": 1, "F": 2, "A": 3}

# The symbols a trampoline (`codegen.dispatch`) imports, by role: the header of the dispatcher's
# type table, the runtime's Python-mode flag (an i32), NumPy's array type object. Named here,
# not in `codegen`, so that linking a trampoline from the disk cache needs no code generator.
TABLE_SYMBOL = "jitcore.dispatch.table"
PYTHON_MODE_SYMBOL = "jitcore.dispatch.python_mode"
NDARRAY_SYMBOL = "jitcore.dispatch.ndarray"


def array_word(type_num: int, ndim: int, layout_code: int) -> int:
    """The second word of an ndarray argument (the trampoline computes the same)."""
    return type_num | ndim << 16 | layout_code << 32 | ARRAY_MARK


def key_words(key: tuple[object, ...]) -> tuple[int, ...] | None:
    """The table key of a dispatcher type key (`argtypes.type_key` of each argument); None
    for keys the table does not hold (tuples, read-only arrays)."""
    words: list[int] = []
    for item in key:
        if isinstance(item, tuple):
            # a list's key holds its item type, which the trampoline does not look at
            if item[0] is not np.ndarray or item[3] not in LAYOUT_CODES:
                return None
            _, dtype, ndim, layout = item
            words += [id(np.ndarray), array_word(dtype.num, ndim, LAYOUT_CODES[layout])]
        else:
            words += [id(item), 0]
    return tuple(words)


def hash_words(words: tuple[int, ...]) -> int:
    """The trampoline's hash of the key words (kept in step with `codegen.dispatch`)."""
    h = 0
    for word in words:
        h = ((h ^ word) * MIX) & MASK64
        h ^= h >> 29
    return h


class TypeTable:
    """Key words -> entry point address, in memory the native trampoline reads."""

    def __init__(self, nparams: int) -> None:
        self.nparams = nparams
        self.width = 2 * nparams + 1
        self.header = (ctypes.c_uint64 * 2)()
        self._entries: dict[tuple[int, ...], int] = {}
        self._tables: list[ctypes.Array[ctypes.c_uint64]] = []
        self._build(16)

    @property
    def header_address(self) -> int:
        return ctypes.addressof(self.header)

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, words: tuple[int, ...], address: int) -> None:
        assert len(words) == 2 * self.nparams and address
        if words in self._entries:
            return
        self._entries[words] = address
        capacity = self.header[0] + 1
        if 2 * len(self._entries) > capacity:
            self._build(2 * capacity)
        else:
            self._put(self._tables[-1], capacity - 1, words, address)

    def lookup(self, words: tuple[int, ...]) -> int:
        """What the trampoline finds for these words (0: not there); for tests."""
        table, mask = self._tables[-1], self.header[0]
        slot = hash_words(words) & mask
        while True:
            base = slot * self.width
            address = table[base + self.width - 1]
            if address == 0:
                return 0
            if tuple(table[base : base + self.width - 1]) == words:
                return int(address)
            slot = (slot + 1) & mask

    def _build(self, capacity: int) -> None:
        table = (ctypes.c_uint64 * (capacity * self.width))()
        for words, address in self._entries.items():
            self._put(table, capacity - 1, words, address)
        self._tables.append(table)
        # the entries first, then the mask that bounds them: a reader never sees a mask
        # larger than its table (readers run under the GIL, like this writer, in any case)
        self.header[1] = ctypes.addressof(table)
        self.header[0] = capacity - 1

    def _put(
        self, table: ctypes.Array[ctypes.c_uint64], mask: int, words: tuple[int, ...], address: int
    ) -> None:
        slot = hash_words(words) & mask
        while table[slot * self.width + self.width - 1] != 0:
            slot = (slot + 1) & mask
        base = slot * self.width
        for i, word in enumerate(words):
            table[base + i] = word
        table[base + self.width - 1] = address
