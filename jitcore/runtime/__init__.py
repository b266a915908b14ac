"""The runtime that compiled code calls: array memory (see `nrt`), and its statistics.

`live_bytes()` and `live_blocks()` read the runtime's counters: bytes of array data allocated by
compiled code and not yet freed, and memory blocks alive (including wrappers of arguments). A
test or a benchmark reads them to show that memory stays flat.
"""

from __future__ import annotations

import ctypes
import functools

from jitcore.runtime import nrt


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


def set_python_mode(on: bool) -> None:
    """Make every native dispatcher hand its calls to Python (see `dispatcher.python_mode`)."""
    flag = ctypes.c_int32.from_address(_addresses()[nrt.PYTHON_MODE])
    flag.value = flag.value + (1 if on else -1)


def python_mode_flag_address() -> int:
    return _addresses()[nrt.PYTHON_MODE]
