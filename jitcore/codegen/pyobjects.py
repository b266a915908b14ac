"""Strings, dicts and sets across the Python boundary: copied in, copied out.

A `str` argument is copied into a runtime string (its UTF-8 bytes, from
`PyUnicode_AsUTF8AndSize`); a dict or set argument is copied into a new runtime dict or set,
item by item (each item unboxed as an argument of its type would be). Compiled code works on
the copy: changes it makes to a dict or set argument are not seen by the caller (no
reflection; return the container to hand it back). The entry point releases the copies after
the kernel call. A returned string, dict or set becomes a new Python `str`, `dict` (in
insertion order) or `set`.

Boxing consumes the reference it is given (as an array's capsule does): the entry point owns
the kernel's result and hands it over; items of a container are increfed before they are
boxed, since the container keeps its own references until it is released.
"""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir as ll

from jitcore.codegen import rtdicts, rtstrings
from jitcore.codegen.types import (
    EXC_DESCRIPTOR,
    I32,
    I64,
    NULL,
    PTR,
    c_string,
    declare_function,
    llvm_type,
)
from jitcore.ir import types as T

Unboxer = Callable[[ll.IRBuilder, ll.Value, T.Type, ll.Block], ll.Value]
Boxer = Callable[[ll.IRBuilder, ll.Value, T.Type], ll.Value]


def _capi(module: ll.Module, name: str, ret: ll.Type, args: list[ll.Type]) -> ll.Function:
    return declare_function(module, name, ret, args)


def _fail_if_null(b: ll.IRBuilder, value: ll.Value, fail: ll.Block) -> None:
    ok = b.append_basic_block("ok")
    b.cbranch(b.icmp_unsigned("==", value, NULL), fail, ok)
    b.position_at_end(ok)


def _raise_status(b: ll.IRBuilder, status: ll.Value, fail: ll.Block) -> None:
    """A helper returned an exception descriptor: set it as the Python error and fail."""
    module = b.module
    with b.if_then(b.icmp_unsigned("!=", status, NULL), likely=False):
        slot = b.load(b.gep(status, [I32(0), I32(0)], source_etype=EXC_DESCRIPTOR), typ=PTR)
        message = b.load(b.gep(status, [I32(0), I32(1)], source_etype=EXC_DESCRIPTOR), typ=PTR)
        set_string = _capi(module, "PyErr_SetString", ll.VoidType(), [PTR, PTR])
        b.call(set_string, [b.load(slot, typ=PTR), message])
        b.branch(fail)


def _helper_call(
    b: ll.IRBuilder, op: str, t: T.Type, args: list[ll.Value], ret: T.Type, fail: ll.Block
) -> ll.Value:
    name = rtdicts.symbol(op, t)
    rtdicts.define_named(b.module, name)
    fn = b.module.globals[name]
    with b.goto_entry_block():
        slot = b.alloca(llvm_type(ret))
    status = b.call(fn, [slot, *args])
    _raise_status(b, status, fail)
    return b.load(slot, typ=llvm_type(ret))


# --- in ------------------------------------------------------------------------------------


def unbox_str(b: ll.IRBuilder, obj: ll.Value, fail: ll.Block) -> ll.Value:
    """A runtime string holding `obj`'s UTF-8 bytes. A str with a lone surrogate (valid in
    Python, `"\\ud800"`) has no strict UTF-8: it is encoded with "surrogatepass" (each
    surrogate as the three bytes its code point would take), which `box_str` decodes back."""
    module = b.module
    new_string = rtstrings.new_string(module)
    length = b.call(_capi(module, "PyUnicode_GetLength", I64, [PTR]), [obj])
    with b.goto_entry_block():
        size = b.alloca(I64)
    data = b.call(_capi(module, "PyUnicode_AsUTF8AndSize", PTR, [PTR, PTR]), [obj, size])
    strict, surrogates = b.append_basic_block("strict"), b.append_basic_block("surrogates")
    done = b.append_basic_block("unboxed")
    b.cbranch(b.icmp_unsigned("==", data, NULL), surrogates, strict)
    b.position_at_end(strict)
    copied = b.call(new_string, [data, b.load(size, typ=I64), length])
    b.branch(done)
    b.position_at_end(surrogates)
    b.call(_capi(module, "PyErr_Clear", ll.VoidType(), []), [])
    encode = _capi(module, "PyUnicode_AsEncodedString", PTR, [PTR, PTR, PTR])
    encoded = b.call(encode, [obj, c_string(module, "utf-8"), c_string(module, "surrogatepass")])
    _fail_if_null(b, encoded, fail)
    raw = b.call(_capi(module, "PyBytes_AsString", PTR, [PTR]), [encoded])
    nbytes = b.call(_capi(module, "PyBytes_Size", I64, [PTR]), [encoded])
    passed = b.call(new_string, [raw, nbytes, length])
    b.call(_capi(module, "Py_DecRef", ll.VoidType(), [PTR]), [encoded])
    passed_from = b.block
    b.branch(done)
    b.position_at_end(done)
    s = b.phi(PTR)
    s.add_incoming(copied, strict)
    s.add_incoming(passed, passed_from)
    with b.if_then(b.icmp_unsigned("==", s, NULL), likely=False):
        no_memory = _capi(module, "PyErr_NoMemory", PTR, [])
        b.call(no_memory, [])
        b.branch(fail)
    return s


def unbox_container(
    b: ll.IRBuilder, obj: ll.Value, t: T.Dict | T.Set, fail: ll.Block, unbox: Unboxer
) -> ll.Value:
    """A new runtime dict or set holding copies of `obj`'s items."""
    module = b.module
    c = _helper_call(b, "new", t, [], t, fail)
    with b.goto_entry_block():
        pos, key_obj, value_obj = b.alloca(I64), b.alloca(PTR), b.alloca(PTR)
    fn = b.function
    loop, body, done = (fn.append_basic_block(x) for x in ("copyin", "copyin.item", "copyin.done"))
    if isinstance(t, T.Dict):
        next_item = _capi(module, "PyDict_Next", I32, [PTR, PTR, PTR, PTR])
        b.store(I64(0), pos)
        b.branch(loop)
        b.position_at_end(loop)
        more = b.call(next_item, [obj, pos, key_obj, value_obj])
        b.cbranch(b.icmp_signed("!=", more, I32(0)), body, done)
        b.position_at_end(body)
        key = unbox(b, b.load(key_obj, typ=PTR), t.key, fail)
        value = unbox(b, b.load(value_obj, typ=PTR), t.value, fail)
        _helper_call(b, "setitem", t, [c, key, value], T.NONE, fail)
        release_unboxed(b, key, t.key)
        release_unboxed(b, value, t.value)
    else:
        get_iter = _capi(module, "PyObject_GetIter", PTR, [PTR])
        next_obj = _capi(module, "PyIter_Next", PTR, [PTR])
        decref = _capi(module, "Py_DecRef", ll.VoidType(), [PTR])
        it = b.call(get_iter, [obj])
        _fail_if_null(b, it, fail)
        b.branch(loop)
        b.position_at_end(loop)
        item = b.call(next_obj, [it])
        b.cbranch(b.icmp_unsigned("!=", item, NULL), body, done)
        b.position_at_end(body)
        key = unbox(b, item, t.key, fail)
        b.call(decref, [item])
        _helper_call(b, "add", t, [c, key], T.NONE, fail)
        release_unboxed(b, key, t.key)
    b.branch(loop)
    b.position_at_end(done)
    if isinstance(t, T.Set):
        b.call(decref, [it])
    return c


def release_unboxed(b: ll.IRBuilder, value: ll.Value, t: T.Type) -> None:
    """Drop the strings, lists, dicts and sets unboxing made for `value` (arrays are
    borrowed): a container of them holds references of its own."""
    if isinstance(t, T.Str | T.List | T.Dict | T.Set):
        rtdicts.emit_ref(b, value, t, False)
    elif isinstance(t, T.Tuple):
        for i, item in enumerate(t.items):
            release_unboxed(b, b.extract_value(value, i), item)


def holds_runtime_objects(t: T.Type) -> bool:
    """Whether unboxing a `t` makes runtime objects (`release_unboxed` drops them)."""
    if isinstance(t, T.Str | T.List | T.Dict | T.Set):
        return True
    return isinstance(t, T.Tuple) and any(holds_runtime_objects(i) for i in t.items)


# --- out -----------------------------------------------------------------------------------


def box_str(b: ll.IRBuilder, s: ll.Value) -> ll.Value:
    """A Python str for `s` (whose reference is consumed)."""
    decode = _capi(b.module, "PyUnicode_DecodeUTF8", PTR, [PTR, I64, PTR])
    chars, nbytes = rtstrings.chars(b, s), rtstrings.load_field(b, s, rtstrings.NBYTES)
    out = b.call(decode, [chars, nbytes, c_string(b.module, "surrogatepass")])  # see unbox_str
    rtdicts.emit_ref(b, s, T.STR, False)
    return out


def box_container(b: ll.IRBuilder, c: ll.Value, t: T.Dict | T.Set, box: Boxer) -> ll.Value:
    """A Python dict (in insertion order) or set of `c`'s items (its reference is consumed)."""
    module = b.module
    decref = _capi(module, "Py_DecRef", ll.VoidType(), [PTR])
    if isinstance(t, T.Dict):
        out = b.call(_capi(module, "PyDict_New", PTR, []), [])
        store = _capi(module, "PyDict_SetItem", I32, [PTR, PTR, PTR])
    else:
        out = b.call(_capi(module, "PySet_New", PTR, [PTR]), [NULL])
        add = _capi(module, "PySet_Add", I32, [PTR, PTR])
    used = b.load(rtdicts._hfield(b, c, rtdicts.USED), typ=I64)
    entries = b.load(rtdicts._hfield(b, c, rtdicts.EDATA), typ=PTR)

    def item(i: ll.Value) -> None:
        e = rtdicts._entry(b, entries, i, t)
        live = b.load(rtdicts._efield(b, e, 1, t), typ=ll.IntType(8))
        with b.if_then(b.icmp_unsigned("!=", live, ll.IntType(8)(0))):
            key = b.load(rtdicts._efield(b, e, 2, t), typ=llvm_type(t.key))
            rtdicts.emit_ref(b, key, t.key, True)
            key_obj = box(b, key, t.key)
            if isinstance(t, T.Dict):
                value = b.load(rtdicts._efield(b, e, 3, t), typ=llvm_type(t.value))
                rtdicts.emit_ref(b, value, t.value, True)
                value_obj = box(b, value, t.value)
                b.call(store, [out, key_obj, value_obj])
                b.call(decref, [value_obj])
            else:
                b.call(add, [out, key_obj])
            b.call(decref, [key_obj])

    rtdicts._counted(b, used, item)
    rtdicts.emit_ref(b, c, t, False)
    return out
