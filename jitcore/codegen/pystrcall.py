"""String operations done by CPython itself: methods, `str()`/`repr()`/`format()` of numbers,
`int(s)`, `float(s)`, f-strings, called under the GIL from compiled code.

Low IR calls `ncall "jitcore.pystr:<path>;<kinds>;<types>"(values...)`, where `<path>` names
a Python callable as attributes of `builtins` (`str.upper`, `format`, `int`) and `<kinds>` has
an `n` for each value that is a NumPy scalar rather than a Python number (`p`). The helper
(kernel calling convention, `ptr (ptr ret, args...)`) takes the GIL (`PyGILState_Ensure`: the
kernel may run without it), boxes each value as a result of its type and origin is boxed (a
string becomes a Python `str`, a list a Python `list`), calls the callable, and unboxes its
result as an argument of the call's type would be (a `str` is copied into a new runtime
string, a list of strings into a runtime list). So the answer is Python's, for every Unicode
string.

An exception the callable raises becomes a formatted-exception descriptor
(`runtime.excring`) of the same class when it is a `ValueError`, `IndexError`,
`OverflowError`, `TypeError`, `MemoryError` or `AttributeError` (a subclass is raised as that
class), else a `RuntimeError` (a `KeyError`, whose `str` is its key's repr, too); its message
is Python's `str(exc)`. The callable is looked up once per module
and process and kept in a private global.
"""

from __future__ import annotations

import functools
from typing import cast

from llvmlite import ir as ll

from jitcore.codegen import boxing, pyobjects
from jitcore.codegen.excformat import write_formatted
from jitcore.codegen.lists import emit_refcount
from jitcore.codegen.rtdicts import descriptor, emit_ref
from jitcore.codegen.types import (
    I32,
    I64,
    NULL,
    PTR,
    VOID,
    c_string,
    declare_function,
    declare_global,
    helper_body,
    llvm_type,
)
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.runtime.excring import FORMAT

PREFIX = "jitcore.pystr:"
# Exceptions kept as they are (checked in this order: a subclass becomes the first match).
_KEPT = (ValueError, IndexError, OverflowError, TypeError, MemoryError, AttributeError)


def define_helper(module: ll.Module, call: ir.NativeCall) -> None:
    """Give the module the body of `call`'s helper, once."""
    name = call.symbol
    types = [cast(T.Type, a.type) for a in call.args]
    ret_t = cast(T.Type, call.type)
    fn = helper_body(module, name, [llvm_type(t) for t in types])
    if fn is None:
        return
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    capi = functools.partial(declare_function, module)
    decref = capi("Py_DecRef", VOID, [PTR])
    state = b.call(capi("PyGILState_Ensure", I32, []), [])
    failed = fn.append_basic_block("failed")
    func = _callable(b, name[len(PREFIX) :].partition(";")[0], failed)
    args = b.call(capi("PyTuple_New", PTR, [I64]), [I64(len(types))])
    numpy = name.split(";")[1]  # `n`: a NumPy scalar, `p`: a Python number (or not a number)
    for i, (v, t) in enumerate(zip(fn.args[1:], types)):
        emit_refcount(b, module, v, t, True)  # boxing takes over a reference
        obj = boxing._box(b, boxing._CAPI(module), v, t, python=numpy[i] != "n")
        b.call(capi("PyTuple_SetItem", I32, [PTR, I64, PTR]), [args, I64(i), obj])
    boxed_ok = fn.append_basic_block("boxed")
    occurred = b.call(capi("PyErr_Occurred", PTR, []), [])
    with b.if_then(b.icmp_unsigned("!=", occurred, NULL), likely=False):
        b.call(decref, [args])
        b.branch(failed)
    b.branch(boxed_ok)
    b.position_at_end(boxed_ok)
    result = b.call(capi("PyObject_Call", PTR, [PTR, PTR, PTR]), [func, args, NULL])
    b.call(decref, [args])
    got = fn.append_basic_block("called")
    b.cbranch(b.icmp_unsigned("==", result, NULL), failed, got)
    b.position_at_end(got)
    unbox_failed = fn.append_basic_block("unboxfailed")
    value = boxing._unbox(b, boxing._CAPI(module), result, ret_t, unbox_failed)
    b.call(decref, [result])
    b.call(capi("PyGILState_Release", VOID, [I32]), [state])
    b.store(value, fn.args[0])
    b.ret(NULL)
    b.position_at_end(unbox_failed)
    b.call(decref, [result])
    b.branch(failed)
    b.position_at_end(failed)
    desc = _exception_descriptor(b)
    b.call(capi("PyGILState_Release", VOID, [I32]), [state])
    b.ret(desc)


def _callable(b: ll.IRBuilder, path: str, failed: ll.Block) -> ll.Value:
    """The Python object `builtins.<path>` (a borrowed reference, kept forever in a global)."""
    module = b.module
    capi = functools.partial(declare_function, module)
    cache = module.globals.get(f"jitcore.pystr.fn.{path}")
    if cache is None:
        cache = ll.GlobalVariable(module, PTR, name=f"jitcore.pystr.fn.{path}")
        cache.linkage = "internal"
        cache.initializer = ll.Constant(PTR, None)
    cached = b.load(cache, typ=PTR)
    pre = b.block
    with b.if_then(b.icmp_unsigned("==", cached, NULL), likely=False):
        obj = b.call(capi("PyImport_ImportModule", PTR, [PTR]), [c_string(module, "builtins")])
        get_attr = capi("PyObject_GetAttrString", PTR, [PTR, PTR])
        for part in path.split("."):
            ok = b.append_basic_block("found")
            b.cbranch(b.icmp_unsigned("==", obj, NULL), failed, ok)
            b.position_at_end(ok)
            inner = b.call(get_attr, [obj, c_string(module, part)])
            b.call(capi("Py_DecRef", VOID, [PTR]), [obj])
            obj = inner
        ok = b.append_basic_block("found")
        b.cbranch(b.icmp_unsigned("==", obj, NULL), failed, ok)
        b.position_at_end(ok)
        b.store(obj, cache)  # the reference stays: the global owns it
        looked_up = b.block
    out = b.phi(PTR)
    out.add_incoming(cached, pre)
    out.add_incoming(obj, looked_up)
    return out


def _exception_descriptor(b: ll.IRBuilder) -> ll.Value:
    """The Python error that is set, taken (cleared) as a formatted descriptor."""
    module = b.module
    capi = functools.partial(declare_function, module)
    with b.goto_entry_block():
        slots = [b.alloca(PTR) for _ in range(3)]
    for slot in slots:
        b.store(NULL, slot)
    b.call(capi("PyErr_Fetch", VOID, [PTR, PTR, PTR]), slots)
    b.call(capi("PyErr_NormalizeException", VOID, [PTR, PTR, PTR]), slots)
    kind, value, trace = (b.load(slot, typ=PTR) for slot in slots)
    matches = capi("PyErr_GivenExceptionMatches", I32, [PTR, PTR])
    text = b.call(capi("PyObject_Str", PTR, [PTR]), [value])
    fallback = descriptor(module, RuntimeError, "a string operation failed in Python")
    fn = b.function
    done = fn.append_basic_block("described")
    no_text = fn.append_basic_block("notext")
    results: list[tuple[ll.Value, ll.Block]] = []
    has_text = fn.append_basic_block("text")
    b.cbranch(b.icmp_unsigned("==", text, NULL), no_text, has_text)
    b.position_at_end(has_text)
    s = pyobjects.unbox_str(b, text, no_text)
    for exc in (*_KEPT, RuntimeError):
        if exc is not RuntimeError:
            slot = declare_global(module, f"PyExc_{exc.__name__}", PTR)
            hit = b.call(matches, [kind, b.load(slot, typ=PTR)])
            this, other = fn.append_basic_block(exc.__name__), fn.append_basic_block("other")
            b.cbranch(b.icmp_signed("!=", hit, I32(0)), this, other)
            b.position_at_end(this)
        desc = write_formatted(b, exc, "{}", FORMAT, "str", [(s, T.STR)])
        emit_ref(b, s, T.STR, False)
        results.append((desc, b.block))
        b.branch(done)
        if exc is not RuntimeError:
            b.position_at_end(other)
    b.position_at_end(no_text)
    b.call(capi("PyErr_Clear", VOID, []), [])
    results.append((fallback, no_text))
    b.branch(done)
    b.position_at_end(done)
    out = b.phi(PTR)
    for desc, block in results:
        out.add_incoming(desc, block)
    for obj in (kind, value, trace, text):
        with b.if_then(b.icmp_unsigned("!=", obj, NULL)):
            b.call(capi("Py_DecRef", VOID, [PTR]), [obj])
    return out
