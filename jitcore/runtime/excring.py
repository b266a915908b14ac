"""Exceptions with formatted messages: `raise ValueError(f"bad n={n}")`, `"... %d" % n`.

Compiled code raises by returning a pointer to an *exception descriptor*
`{ptr class slot, ptr message, ptr ring}`. A constant message lives in a static descriptor
(`ring` null). A formatted one is built when it is raised, into one of `SLOTS` descriptors of
a ring in the runtime, claimed round robin with one atomic increment: the descriptor holds the
message's template (for `str.format` or `%`), the values' types and their bytes (strings
copied, at most `TEXT_BYTES` in all), and nothing has to free it (a `try` that catches it, a
prange chunk whose error loses to an earlier one, simply drop it). Python formats the message
when the exception reaches it (`message`, called by the function's entry point, under the GIL),
so it is exactly Python's text for the same values.

A slot is reused after `SLOTS` later formatted raises. Its `seq` is odd while it is written and
changes with each use (a seqlock): if the slot changed while Python read it, which takes
hundreds of concurrent raises before one reaches Python, the message falls back to the
template itself rather than another exception's values.
"""

from __future__ import annotations

import ctypes
import struct

import numpy as np
from llvmlite import ir as ll

RING = "jitcore_rt_exc_ring"
RING_NEXT = "jitcore_rt_exc_ring_next"
RAISE = "jitcore_rt_raise_formatted"  # (exception class, descriptor): sets the Python error
SLOTS = 256
MAX_VALUES = 16
TEXT_BYTES = 1024

I8, I64, PTR = ll.IntType(8), ll.IntType(64), ll.PointerType()
# class slot, message (the template), ring tag, seq, style, nargs, codes, values, text
SLOT = ll.LiteralStructType(
    [
        PTR,
        PTR,
        PTR,
        I64,
        I64,
        I64,
        PTR,
        ll.ArrayType(I64, MAX_VALUES),
        ll.ArrayType(I8, TEXT_BYTES),
    ]
)
(CLASS, MESSAGE, TAG, SEQ, STYLE, NARGS, CODES, VALUES, TEXT) = range(9)
_OFFSETS = {SEQ: 24, STYLE: 32, NARGS: 40, CODES: 48, VALUES: 56, TEXT: 56 + 8 * MAX_VALUES}
# styles: `template.format(*values)`, `template % values`, the value itself (`raise E(x)`:
# the exception's argument is `x`, so `str(KeyError(0))` is `0`, not `'0'`)
FORMAT, PERCENT, VALUE = 1, 2, 3


def emit_ring(module: ll.Module) -> None:
    """The ring and its counter, in the runtime library (zero-initialized), and `RAISE`."""
    ring = ll.GlobalVariable(module, ll.ArrayType(SLOT, SLOTS), name=RING)
    ring.initializer = ll.Constant(ring.value_type, None)
    ring.align = 64
    nxt = ll.GlobalVariable(module, I64, name=RING_NEXT)
    nxt.initializer = ll.Constant(I64, 0)
    _emit_raise(module)


def _emit_raise(module: ll.Module) -> None:
    """`raise_formatted(exc, desc)`, called by entry points under the GIL: set `exc(message)`
    with the message `message(desc)` formats in Python; if that fails, its own error stands."""
    fn = ll.Function(module, ll.FunctionType(ll.VoidType(), [PTR, PTR]), name=RAISE)
    exc, desc = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))

    def capi(name: str, ret: ll.Type, args: list[ll.Type]) -> ll.Function:
        return ll.Function(module, ll.FunctionType(ret, args), name=name)

    void = ll.VoidType()
    import_module = capi("PyImport_ImportModule", PTR, [PTR])
    get_attr = capi("PyObject_GetAttrString", PTR, [PTR, PTR])
    from_pointer = capi("PyLong_FromVoidPtr", PTR, [PTR])
    call_one = capi("PyObject_CallOneArg", PTR, [PTR, PTR])
    set_object = capi("PyErr_SetObject", void, [PTR, PTR])
    decref = module.globals.get("Py_DecRef") or capi("Py_DecRef", void, [PTR])
    null = ll.Constant(PTR, None)
    owner = b.call(import_module, [_text(module, __name__)])
    with b.if_then(b.icmp_unsigned("!=", owner, null)):
        hook = b.call(get_attr, [owner, _text(module, "message")])
        b.call(decref, [owner])
        with b.if_then(b.icmp_unsigned("!=", hook, null)):
            address = b.call(from_pointer, [desc])
            text = b.call(call_one, [hook, address])
            b.call(decref, [address])
            b.call(decref, [hook])
            with b.if_then(b.icmp_unsigned("!=", text, null)):
                b.call(set_object, [exc, text])
                b.call(decref, [text])
    b.ret_void()


def _text(module: ll.Module, value: str) -> ll.Value:
    data = bytearray(value.encode() + b"\0")
    gv = ll.GlobalVariable(module, ll.ArrayType(I8, len(data)), name=f"{RAISE}.{value}")
    gv.global_constant = True
    gv.linkage = "private"
    gv.initializer = ll.Constant(gv.value_type, data)
    return gv


def message(address: int) -> object:
    """The text of the formatted exception whose descriptor is at `address` (see above)."""
    seq = ctypes.c_int64.from_address(address + _OFFSETS[SEQ]).value
    template = _c_string(ctypes.c_void_p.from_address(address + 8).value)
    if seq % 2:
        return template
    style = ctypes.c_int64.from_address(address + _OFFSETS[STYLE]).value
    nargs = ctypes.c_int64.from_address(address + _OFFSETS[NARGS]).value
    codes = _c_string(ctypes.c_void_p.from_address(address + _OFFSETS[CODES]).value)
    raw = ctypes.string_at(address + _OFFSETS[VALUES], 8 * MAX_VALUES)
    text = ctypes.string_at(address + _OFFSETS[TEXT], TEXT_BYTES)
    if ctypes.c_int64.from_address(address + _OFFSETS[SEQ]).value != seq:
        return template  # reused while we read it
    values = [
        _value(code, raw[8 * k : 8 * k + 8], text) for k, code in enumerate(codes.split(","))
    ]
    values = values[:nargs]
    if style == VALUE:
        return values[0]
    return template.format(*values) if style == FORMAT else template % tuple(values)


def _c_string(address: int | None) -> str:
    return ctypes.string_at(address).decode("utf-8") if address else ""


def _value(code: str, raw: bytes, text: bytes) -> object:
    """One value from its 8 bytes: `<dtype>:py` a Python number, `<dtype>:np` a NumPy scalar,
    `str` an (offset, length) into the copied text."""
    if code == "none":
        return None
    if code == "str":
        offset, length = struct.unpack("<ii", raw)
        return text[offset : offset + length].decode("utf-8", errors="replace")
    dtype, kind = code.split(":")
    scalar = np.frombuffer(raw[: np.dtype(dtype).itemsize], dtype=dtype)[0]
    return scalar.item() if kind == "py" else scalar
