"""The runtime that compiled code calls: array memory (see `nrt`), and its statistics.

`live_bytes()` and `live_blocks()` read the runtime's counters: bytes of array data allocated by
compiled code and not yet freed, and memory blocks alive (including wrappers of arguments). A
test or a benchmark reads them to show that memory stays flat.
"""

from __future__ import annotations

import ctypes
import functools

from jitcore.runtime import nrt
from jitcore.runtime.threads import MAX_THREADS


@functools.cache
def _addresses() -> dict[str, int]:
    from jitcore import machine_code

    return machine_code.runtime_symbols()


def live_bytes() -> int:
    """Bytes of array data allocated by compiled code and still alive."""
    return ctypes.c_int64.from_address(_addresses()[nrt.LIVE_BYTES]).value


def live_blocks() -> int:
    """Runtime memory blocks alive (arrays made in compiled code, wrapped arguments)."""
    return ctypes.c_int64.from_address(_addresses()[nrt.LIVE_BLOCKS]).value


def trim_spare_blocks() -> None:
    """Free the freed blocks the runtime keeps for reuse (at most `nrt.SPARE_SLOTS` blocks
    of 1 to 32 MiB each): their memory goes back to the allocator."""
    ctypes.CFUNCTYPE(None)(_addresses()[nrt.TRIM])()


def spare_blocks() -> list[int]:
    """The addresses of the blocks held for reuse (0 for an empty slot): for tests."""
    slots = (ctypes.c_void_p * nrt.SPARE_SLOTS).from_address(_addresses()[nrt.SPARE])
    return [slot or 0 for slot in slots]


def set_python_mode(on: bool) -> None:
    """Make every native dispatcher hand its calls to Python (see `dispatcher.python_mode`)."""
    flag = ctypes.c_int32.from_address(_addresses()[nrt.PYTHON_MODE])
    flag.value = flag.value + (1 if on else -1)


def python_mode_flag_address() -> int:
    return _addresses()[nrt.PYTHON_MODE]


def _threads_cell() -> ctypes.c_int64:
    """The runtime's thread count (set to `default_num_threads()` when the runtime is linked)."""
    return ctypes.c_int64.from_address(_addresses()[nrt.NUM_THREADS])


def set_num_threads(n: int) -> None:
    """How many threads `prange` loops use from now on (1 to 64), in every thread."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_THREADS:
        raise ValueError(f"the number of threads must be an integer from 1 to {MAX_THREADS}")
    _threads_cell().value = n


def get_num_threads() -> int:
    """How many threads `prange` loops use (`JITCORE_NUM_THREADS`, else the CPU count)."""
    return int(_threads_cell().value)
