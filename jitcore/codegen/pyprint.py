"""`print(...)` in compiled code: a small internal helper per call site's argument types.

Low IR calls `ncall "jitcore.print:<keywords>"(values..., keyword values...)` with the kernel
calling convention (`ptr (ptr ret, args...)`, returning null). The helper takes the GIL
(`PyGILState_Ensure`: the kernel may run without it, under `nogil=True` or in a `prange`
thread), boxes each value as the function's result would be boxed (a new reference to each
runtime block for an array, list, string...), and calls Python's own `builtins.print` with them
and the keywords (`sep`, `end`, `flush`), so the text is Python's and NumPy's, and it goes to
whatever `sys.stdout` is (pytest's capture too). An exception `print` raises (a closed
stdout) is reported as unraisable (`sys.unraisablehook`, printed to stderr) and the function
goes on: compiled code has no way to raise an arbitrary Python exception here.
"""

from __future__ import annotations

import functools
from typing import cast

from llvmlite import ir as ll

from jitcore.codegen import boxing
from jitcore.codegen.lists import emit_refcount
from jitcore.codegen.types import (
    I32,
    I64,
    NULL,
    PTR,
    VOID,
    c_string,
    declare_function,
    helper_body,
    llvm_type,
)
from jitcore.ir import nodes as ir
from jitcore.ir import types as T

# `lib.builtins` names the helper of each call shape: the keywords given, then the types of
# the values and keyword values (`jitcore.print:sep,end;f64,str,str`).
PREFIX = "jitcore.print:"


def _keywords(name: str) -> list[str]:
    text = name[len(PREFIX) :].partition(";")[0]
    return text.split(",") if text else []


def define_helper(module: ll.Module, call: ir.NativeCall) -> None:
    """Give the module the body of `call`'s helper, once."""
    name = call.symbol
    types = [cast(T.Type, a.type) for a in call.args]  # typed low IR
    fn = helper_body(module, name, [llvm_type(t) for t in types])
    if fn is None:
        return
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    capi = functools.partial(declare_function, module)  # capi(name, ret, args)
    state = b.call(capi("PyGILState_Ensure", I32, []), [])
    keywords = _keywords(name)
    positional = len(types) - len(keywords)
    values = list(zip(fn.args[1:], types))
    args = b.call(capi("PyTuple_New", PTR, [I64]), [I64(positional)])
    for i, (v, t) in enumerate(values[:positional]):
        b.call(capi("PyTuple_SetItem", I32, [PTR, I64, PTR]), [args, I64(i), _boxed(b, v, t)])
    kwargs = NULL
    if keywords:
        kwargs = b.call(capi("PyDict_New", PTR, []), [])
        set_item = capi("PyDict_SetItemString", I32, [PTR, PTR, PTR])
        for keyword, (v, t) in zip(keywords, values[positional:]):
            obj = _boxed(b, v, t)
            b.call(set_item, [kwargs, c_string(module, keyword), obj])
            b.call(capi("Py_DecRef", VOID, [PTR]), [obj])
    builtins = b.call(capi("PyImport_ImportModule", PTR, [PTR]), [c_string(module, "builtins")])
    printer = b.call(
        capi("PyObject_GetAttrString", PTR, [PTR, PTR]), [builtins, c_string(module, "print")]
    )
    failed = b.icmp_unsigned("!=", b.call(capi("PyErr_Occurred", PTR, []), []), NULL)
    with b.if_else(failed, likely=False) as (boxing_failed, ok):
        with boxing_failed:  # no memory for a box: say so, print nothing
            b.call(capi("PyErr_WriteUnraisable", VOID, [PTR]), [NULL])
        with ok:
            result = b.call(capi("PyObject_Call", PTR, [PTR, PTR, PTR]), [printer, args, kwargs])
            with b.if_else(b.icmp_unsigned("==", result, NULL), likely=False) as (raised, done):
                with raised:
                    b.call(capi("PyErr_WriteUnraisable", VOID, [PTR]), [printer])
                with done:
                    b.call(capi("Py_DecRef", VOID, [PTR]), [result])
    for obj in (printer, builtins, args, kwargs):  # Py_XDECREF (no such function before 3.12)
        with b.if_then(b.icmp_unsigned("!=", obj, NULL)):
            b.call(capi("Py_DecRef", VOID, [PTR]), [obj])
    b.call(capi("PyGILState_Release", VOID, [I32]), [state])
    b.ret(NULL)


def _boxed(b: ll.IRBuilder, v: ll.Value, t: T.Type) -> ll.Value:
    """A new Python object for `v`, which the kernel still owns (boxing takes a reference to
    each runtime block, so one is added first)."""
    emit_refcount(b, b.module, v, t, True)
    return boxing.box_value(b, v, t)
