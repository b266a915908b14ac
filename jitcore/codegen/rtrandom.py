"""A `np.random.Generator` argument in the Python entry point: its bit generator's address.

NumPy's bit generators expose their C interface, `bitgen_t` (`{void *state; uint64_t
(*next_uint64)(void *); uint32_t (*next_uint32)(void *); double (*next_double)(void *); ...}`),
in a capsule named "BitGenerator" (`rng.bit_generator.capsule`). The entry point unboxes a
Generator to that address; compiled code draws through the function pointers it holds (the
runtime's `jitcore_rt_bitgen_*`, see `jitcore.runtime.rngstate`), so the caller's Generator
advances in place, exactly as the same calls in NumPy would advance it. The address stays
valid for the call: the argument keeps its Generator, which keeps its bit generator, alive.
"""

from __future__ import annotations

from llvmlite import ir as ll

from jitcore.codegen.types import NULL, PTR, VOID, c_string, declare_function


def unbox_generator(b: ll.IRBuilder, obj: ll.Value, fail: ll.Block) -> ll.Value:
    """`obj.bit_generator.capsule`'s pointer (a Python error and `fail` if any step fails)."""
    module = b.module
    getattr_ = declare_function(module, "PyObject_GetAttrString", PTR, [PTR, PTR])
    decref = declare_function(module, "Py_DecRef", VOID, [PTR])
    get_pointer = declare_function(module, "PyCapsule_GetPointer", PTR, [PTR, PTR])
    bitgen = b.call(getattr_, [obj, c_string(module, "bit_generator")])
    _fail_if_null(b, bitgen, fail)
    capsule = b.call(getattr_, [bitgen, c_string(module, "capsule")])
    b.call(decref, [bitgen])
    _fail_if_null(b, capsule, fail)
    address = b.call(get_pointer, [capsule, c_string(module, "BitGenerator")])
    b.call(decref, [capsule])
    _fail_if_null(b, address, fail)
    return address


def _fail_if_null(b: ll.IRBuilder, value: ll.Value, fail: ll.Block) -> None:
    ok = b.append_basic_block("unboxed")
    b.cbranch(b.icmp_unsigned("==", value, NULL), fail, ok)
    b.position_at_end(ok)
