"""List operations written in Python and compiled by jitcore itself (library kernels).

`jitcore.lib.lists` implements the raw steps of a list (`append`, `pop`, item access, growth)
in low IR; everything built from them lives here as ordinary Python over typed lists: copying,
slicing, searching, comparing, concatenating, sorting and the builtins `sum`, `min`, `max`.
Each is compiled once per item type, the first time a function uses it.
"""

from __future__ import annotations

import numpy as np

from jitcore.ir.listmarkers import list_reserve
from jitcore.lib.registry import library_kernel as _lib

# The largest number of items a list may hold (`sys.maxsize` bytes of 8-byte slots, as CPython).
MAX_ITEMS = (1 << 63) // 8 - 1
INSERTION_RUN = 16  # sort: runs this short are sorted by insertion before merging


@_lib
def list_copy(lst):  # noqa: ANN001, ANN201
    n = len(lst)
    out = []
    list_reserve(out, n)
    for i in range(n):
        out.append(lst[i])
    return out


@_lib
def list_from(seq):  # noqa: ANN001, ANN201
    """`list(seq)` of a tuple, an array (over its first axis) or a list."""
    n = len(seq)
    out = []
    list_reserve(out, n)
    for i in range(n):
        out.append(seq[i])
    return out


@_lib
def list_from_iterable(seq):  # noqa: ANN001, ANN201
    """`list(seq)` of a set, a dict (its keys) or a dict view, in iteration order."""
    out = []
    list_reserve(out, len(seq))
    for x in seq:
        out.append(x)
    return out


@_lib
def list_extend_iterable(lst, other):  # noqa: ANN001, ANN201
    """`lst.extend(other)` of a set, a dict or a dict view."""
    list_reserve(lst, len(lst) + len(other))
    for x in other:
        lst.append(x)
    return lst


@_lib
def list_slice(lst, start, count, step):  # noqa: ANN001, ANN201
    """`lst[start:stop:step]` once `slice.indices` gave start, count and step."""
    out = []
    list_reserve(out, count)
    i = start
    for _ in range(count):
        out.append(lst[i])
        i += step
    return out


@_lib
def list_extend(lst, other):  # noqa: ANN001, ANN201
    """`lst.extend(other)`: `other`'s length is read first, so `lst.extend(lst)` doubles."""
    n = len(other)
    list_reserve(lst, len(lst) + n)
    for i in range(n):
        lst.append(other[i])
    return lst


@_lib
def list_concat(a, b):  # noqa: ANN001, ANN201
    out = []
    list_reserve(out, len(a) + len(b))
    for i in range(len(a)):
        out.append(a[i])
    for i in range(len(b)):
        out.append(b[i])
    return out


@_lib
def list_repeat(lst, times):  # noqa: ANN001, ANN201
    """`lst * times`: empty for `times <= 0`; MemoryError when the size does not fit."""
    out = []
    n = len(lst)
    if times <= 0 or n == 0:
        return out
    if times > MAX_ITEMS // n:
        raise MemoryError("")
    list_reserve(out, n * times)
    for _ in range(times):
        for i in range(n):
            out.append(lst[i])
    return out


@_lib
def list_irepeat(lst, times):  # noqa: ANN001, ANN201
    """`lst *= times` in place."""
    n = len(lst)
    if times <= 0:
        lst.clear()
        return lst
    if n > 0 and times > MAX_ITEMS // n:
        raise MemoryError("")
    list_reserve(lst, n * times)
    for _ in range(times - 1):
        for i in range(n):
            lst.append(lst[i])
    return lst


@_lib
def list_index(lst, x, start, stop):  # noqa: ANN001, ANN201
    """`lst.index(x, start, stop)` with Python's clamping of start and stop."""
    n = len(lst)
    if start < 0:
        start = max(start + n, 0)
    if stop < 0:
        stop = max(stop + n, 0)
    stop = min(stop, n)
    for i in range(start, stop):
        if lst[i] == x:
            return i
    raise ValueError("list.index(x): x not in list")


@_lib
def list_count(lst, x):  # noqa: ANN001, ANN201
    c = 0
    for i in range(len(lst)):
        if lst[i] == x:
            c += 1
    return c


@_lib
def list_contains(lst, x):  # noqa: ANN001, ANN201
    for i in range(len(lst)):
        if lst[i] == x:
            return True
    return False


@_lib
def list_remove(lst, x):  # noqa: ANN001, ANN201
    for i in range(len(lst)):
        if lst[i] == x:
            lst.pop(i)
            return
    raise ValueError("list.remove(x): x not in list")


@_lib
def list_reverse(lst):  # noqa: ANN001, ANN201
    i = 0
    j = len(lst) - 1
    while i < j:
        a = lst[i]
        lst[i] = lst[j]
        lst[j] = a
        i += 1
        j -= 1


@_lib
def list_eq(a, b):  # noqa: ANN001, ANN201
    if len(a) != len(b):
        return False
    for i in range(len(a)):
        if not (a[i] == b[i]):
            return False
    return True


@_lib
def list_sum(lst, start):  # noqa: ANN001, ANN201
    """`sum(lst, start)`: left to right from `start`, as Python adds."""
    s = start
    for i in range(len(lst)):
        s = s + lst[i]
    return s


@_lib
def list_min(lst):  # noqa: ANN001, ANN201
    """Python's `min`: the first of the smallest (a later item replaces it only if `<`)."""
    n = len(lst)
    if n == 0:
        raise ValueError("min() arg is an empty sequence")
    m = lst[0]
    for i in range(1, n):
        x = lst[i]
        if x < m:
            m = x
    return m


@_lib
def list_max(lst):  # noqa: ANN001, ANN201
    n = len(lst)
    if n == 0:
        raise ValueError("max() arg is an empty sequence")
    m = lst[0]
    for i in range(1, n):
        x = lst[i]
        if x > m:
            m = x
    return m


@_lib
def _before(x, y, reverse):  # noqa: ANN001, ANN201
    """Whether `x` must come before `y` in a stable sort (only `<` is used, as Python)."""
    if reverse:
        return y < x
    return x < y


@_lib
def list_sort(lst, reverse):  # noqa: ANN001, ANN201
    """A stable merge sort in place: insertion-sorted runs of 16, merged bottom-up through a
    scratch list. Equal items keep their order, also with `reverse=True`, as in Python."""
    n = len(lst)
    for lo in range(0, n, INSERTION_RUN):
        hi = min(lo + INSERTION_RUN, n)
        for i in range(lo + 1, hi):
            x = lst[i]
            j = i
            while j > lo and _before(x, lst[j - 1], reverse):
                lst[j] = lst[j - 1]
                j -= 1
            lst[j] = x
    if n <= INSERTION_RUN:
        return
    scratch = list_copy(lst)
    width = INSERTION_RUN
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            for k in range(lo, hi):
                scratch[k] = lst[k]
            i = lo
            j = mid
            k = lo
            while i < mid and j < hi:
                if _before(scratch[j], scratch[i], reverse):
                    lst[k] = scratch[j]
                    j += 1
                else:
                    lst[k] = scratch[i]
                    i += 1
                k += 1
            while i < mid:
                lst[k] = scratch[i]
                i += 1
                k += 1
        width *= 2


@_lib
def list_sorted(lst, reverse):  # noqa: ANN001, ANN201
    out = list_copy(lst)
    list_sort(out, reverse)
    return out


@_lib
def list_sort_key(lst, key, reverse):  # noqa: ANN001, ANN201
    """`lst.sort(key=key, reverse=reverse)`: `key` called once per item, in order; the items
    sorted by (key, position) pairs, the position negated for `reverse`, so that equal keys
    keep their order either way, as in Python."""
    n = len(lst)
    pairs = []
    list_reserve(pairs, n)
    for i in range(n):
        pairs.append((key(lst[i]), -i if reverse else i))
    list_sort(pairs, reverse)
    items = list_copy(lst)
    for k in range(n):
        i = pairs[k][1]
        lst[k] = items[-i if reverse else i]


@_lib
def list_sorted_key(lst, key, reverse):  # noqa: ANN001, ANN201
    out = list_copy(lst)
    list_sort_key(out, key, reverse)
    return out


@_lib
def list_min_key(lst, key):  # noqa: ANN001, ANN201
    """`min(lst, key=key)`: the first item of the smallest key (`key` once per item)."""
    n = len(lst)
    if n == 0:
        raise ValueError("min() arg is an empty sequence")
    m = lst[0]
    km = key(m)
    for i in range(1, n):
        x = lst[i]
        k = key(x)
        if k < km:
            m = x
            km = k
    return m


@_lib
def list_max_key(lst, key):  # noqa: ANN001, ANN201
    n = len(lst)
    if n == 0:
        raise ValueError("max() arg is an empty sequence")
    m = lst[0]
    km = key(m)
    for i in range(1, n):
        x = lst[i]
        k = key(x)
        if k > km:
            m = x
            km = k
    return m


# --- np.array of a list ---------------------------------------------------------------------
# `proto` is an empty array of the result's dtype and dimensions that the caller allocates: it
# carries the dtype (`np.empty(..., dtype=proto.dtype)`) and the shape of an item when the list
# is empty. Each item is stored as `out[i] = x` stores it, which converts Python numbers as
# NumPy's `np.array` does (an int that does not fit the dtype: OverflowError; NaN into ints:
# ValueError).


@_lib
def array_of_numbers(lst, proto):  # noqa: ANN001, ANN201
    n = len(lst)
    out = np.empty(n, dtype=proto.dtype)
    for i in range(n):
        out[i] = lst[i]
    return out


@_lib
def array_of_rows(lst, proto):  # noqa: ANN001, ANN201
    """Of a list of lists or of tuples of numbers: every row as long as the first."""
    n = len(lst)
    m = proto.shape[1]
    if n > 0:
        m = len(lst[0])
    out = np.empty((n, m), dtype=proto.dtype)
    for i in range(n):
        row = lst[i]
        if len(row) != m:
            raise ValueError(
                "setting an array element with a sequence. The requested array has an "
                "inhomogeneous shape after 1 dimensions."
            )
        for j in range(m):
            out[i, j] = row[j]
    return out


@_lib
def array_of_arrays(lst, proto):  # noqa: ANN001, ANN201
    """Of a list of arrays: stacked along a new first axis, every array of the first's shape."""
    n = len(lst)
    shape = proto.shape[1:]
    if n > 0:
        shape = lst[0].shape
    out = np.empty((n,) + shape, dtype=proto.dtype)
    for i in range(n):
        item = lst[i]
        if item.shape != shape:
            raise ValueError(
                "setting an array element with a sequence. The requested array has an "
                "inhomogeneous shape after 1 dimensions."
            )
        out[i] = item
    return out
