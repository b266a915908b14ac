"""Arrays made in compiled code are freed when dead, and returned ones when NumPy collects them:
the runtime's live-byte counter stays flat over many calls."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from jitcore import jit, runtime
from tests.jitcore.support import assert_ran_compiled


def make_and_drop(n):  # noqa: ANN001, ANN201
    tmp = np.ones(n)  # 1 MB for n = 131072
    return tmp[0] + tmp[-1]


def temporaries_in_a_loop(a, steps):  # noqa: ANN001, ANN201
    total = 0.0
    for _ in range(steps):
        b = a * 2.0 + 1.0  # two temporaries per iteration
        total += b[0]
    return total


def returns_views(a):  # noqa: ANN001, ANN201
    t = a * 3
    return t[1:], (t, a[::2])


def raises_midway(n):  # noqa: ANN001, ANN201
    tmp = np.zeros(n)
    if n > 10:
        raise ValueError("too big")
    return tmp.sum()


def test_a_dropped_megabyte_100000_times_keeps_memory_flat() -> None:
    f = jit(make_and_drop, mode="compiled")
    before = runtime.live_bytes()
    for _ in range(100_000):
        assert f(131072) == 2.0
    assert runtime.live_bytes() == before
    assert_ran_compiled(f, (131072,))  # Python would keep memory flat too


def test_temporaries_in_loops_are_freed_each_iteration() -> None:
    f = jit(temporaries_in_a_loop, mode="compiled")
    a = np.arange(1000.0)
    before = runtime.live_bytes()
    assert f(a, 500) == 500.0
    assert runtime.live_bytes() == before
    assert_ran_compiled(f, (a, 500))


def test_returned_arrays_own_their_memory_until_collected() -> None:
    f = jit(returns_views, mode="compiled")
    a = np.arange(10.0)
    before = runtime.live_bytes()
    view, (whole, strided) = f(a)
    assert runtime.live_bytes() == before + 80  # one block of 10 float64, shared by two views
    np.testing.assert_array_equal(view, (a * 3)[1:])
    np.testing.assert_array_equal(strided, a[::2])
    del whole
    gc.collect()
    assert runtime.live_bytes() == before + 80  # `view` still holds the block
    del view
    gc.collect()
    assert runtime.live_bytes() == before
    strided[0] = 42.0  # a view of the argument: keeps the argument alive and writes to it
    assert a[0] == 42.0


def test_exceptions_release_live_arrays() -> None:
    f = jit(raises_midway, mode="compiled")
    before = runtime.live_blocks()
    for _ in range(100):
        with pytest.raises(ValueError):
            f(1000)
    assert f(5) == 0.0
    assert runtime.live_blocks() == before
    assert_ran_compiled(f, (5,))


def drop_temporary(n):  # noqa: ANN001, ANN201
    """A temporary of n floats, dropped before returning."""
    tmp = np.empty(n)
    return tmp.size


def sized_temporaries(sizes):  # noqa: ANN001, ANN201
    total = 0.0
    for k in range(sizes.shape[0]):
        tmp = np.ones(sizes[k])
        total += tmp.sum()
    return total


MIB = 1 << 20


def test_a_freed_block_of_a_spare_size_is_kept_and_handed_out_again() -> None:
    """glibc gave freed multi-megabyte blocks back to the OS, and each new one faulted its
    pages in again; the runtime keeps a few (`nrt.SPARE_SLOTS`) for the next allocation."""
    f = jit(drop_temporary, mode="compiled")
    runtime.trim_spare_blocks()
    assert runtime.spare_blocks() == [0] * len(runtime.spare_blocks())
    f(4 * MIB // 8)  # 4 MiB: the smallest spare size
    kept = [b for b in runtime.spare_blocks() if b]
    assert len(kept) == 1
    f(4 * MIB // 8)  # fits the kept block: taken (else a second spare would appear), given back
    assert [b for b in runtime.spare_blocks() if b] == kept
    f(4 * MIB // 8 + 1000)  # does not fit: freed, and the new block kept instead
    now = [b for b in runtime.spare_blocks() if b]
    assert len(now) == 1
    runtime.trim_spare_blocks()
    assert not any(runtime.spare_blocks())


@pytest.mark.parametrize("n_bytes", [4 * MIB - 8, 33 * MIB])
def test_blocks_outside_the_spare_sizes_are_freed(n_bytes: int) -> None:
    f = jit(drop_temporary, mode="compiled")
    runtime.trim_spare_blocks()
    f(n_bytes // 8)
    assert not any(runtime.spare_blocks())


def test_a_spare_much_larger_than_the_request_is_not_used() -> None:
    """A 32 MiB spare is not handed out for 8 MiB (no more than half is wasted): it is freed,
    and the 8 MiB block takes its place when it is freed in turn."""
    f = jit(drop_temporary, mode="compiled")
    runtime.trim_spare_blocks()
    f(32 * MIB // 8)
    f(8 * MIB // 8)
    f(8 * MIB // 8)  # the 8 MiB spare fits this one
    assert len([b for b in runtime.spare_blocks() if b]) == 1
    runtime.trim_spare_blocks()


def test_spares_keep_live_memory_counted_and_results_right() -> None:
    f = jit(sized_temporaries, mode="compiled")
    sizes = np.array([2, 600_000, 524_288, 4_000_000, 600_000, 524_288, 17, 4_000_000])
    before = runtime.live_bytes(), runtime.live_blocks()
    for _ in range(3):
        assert f(sizes) == float(sizes.sum())
    assert (runtime.live_bytes(), runtime.live_blocks()) == before
    runtime.trim_spare_blocks()


def test_threads_take_and_return_spares_safely() -> None:
    """Four threads allocating and freeing spare-sized arrays without the GIL: every block
    goes to one array at a time (a block handed out twice would corrupt the sums)."""
    import threading

    f = jit(sized_temporaries, mode="compiled", nogil=True)
    sizes = np.array([524_288, 800_000, 1_048_576, 600_000] * 50)
    expected = float(sizes.sum())
    errors: list[float] = []

    def work() -> None:
        for _ in range(5):
            got = f(sizes)
            if got != expected:
                errors.append(got)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    runtime.trim_spare_blocks()
