"""The native dispatcher: a trampoline that picks a compiled entry point by argument types.

In:  the compiled cases of one dispatcher, each a list of `ArgCheck`s (one per parameter) and
     the address of a Python entry point (`<symbol>.py`, see `boxing`), and optionally the
     dispatcher's type table, probed after the cases (`typeprobe`).
Out: an LLVM module with one vectorcall function that checks the arguments' Python types (and
     for arrays dtype number, ndim, layout, byte order and writeability) against each case in
     turn and tail-calls the first match; anything else (keywords, another arity, Python mode,
     an unknown type) goes to the fallback, the Python-level dispatcher, which compiles.

The addresses that differ between dispatchers or processes (the type table's header, the
Python-mode flag, NumPy's array type) are external symbols (named in `typetable`), given at
link time: so a trampoline without cases depends only on its number of parameters, and its
machine code is compiled once and reused by every dispatcher, even across processes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from llvmlite import ir as ll

from jitcore.codegen.boxing import NPY_ARRAY_WRITEABLE
from jitcore.codegen.typeprobe import probe_table
from jitcore.codegen.types import I1, I8, I32, I64, NULL, PTR
from jitcore.typetable import NDARRAY_SYMBOL, PYTHON_MODE_SYMBOL, TABLE_SYMBOL

PY_VECTORCALL_ARGUMENTS_OFFSET = 1 << 63


@dataclass(frozen=True)
class ArgCheck:
    """How the dispatcher recognizes one argument's type from its PyObject.

    kind "type": `type(arg) is <address>`; "array": an ndarray of this type number, ndim and
    layout; "tuple": a tuple whose items pass `items`."""

    kind: str
    type_address: int = 0
    type_num: int = 0
    ndim: int = 0
    layout: str = "A"
    items: tuple[ArgCheck, ...] = ()


def generate_dispatcher(
    name: str,
    nparams: int,
    cases: list[tuple[list[ArgCheck], int]],
) -> ll.Module:
    """`PyObject *name(PyObject *fallback, PyObject *const *args, Py_ssize_t nargsf,
    PyObject *kwnames)`: call the entry point (by address) of the first case whose checks
    the arguments pass, then the one the type table holds for the arguments' types, else the
    fallback (the Python-level dispatcher, which compiles)."""
    module = ll.Module(name=name)
    table, python_mode, ndarray = (
        ll.GlobalVariable(module, I8, symbol)
        for symbol in (TABLE_SYMBOL, PYTHON_MODE_SYMBOL, NDARRAY_SYMBOL)
    )
    fn = ll.Function(module, ll.FunctionType(PTR, [PTR, PTR, I64, PTR]), name=name)
    fallback, args, nargsf, kwnames = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    slow = fn.append_basic_block("slow")
    nargs = b.and_(nargsf, I64(~PY_VECTORCALL_ARGUMENTS_OFFSET & ((1 << 64) - 1)))
    flag = b.load(python_mode, typ=I32)
    simple = b.and_(
        b.and_(b.icmp_unsigned("==", kwnames, NULL), b.icmp_unsigned("==", nargs, I64(nparams))),
        b.icmp_signed("==", flag, I32(0)),
    )
    first = fn.append_basic_block("case0")
    b.cbranch(simple, first, slow)
    entry_t = ll.FunctionType(PTR, [PTR, PTR, I64])
    current = first
    for index, (checks, address) in enumerate(cases):
        b.position_at_end(current)
        nxt = fn.append_basic_block(f"case{index + 1}")
        ok: ll.Value = ll.Constant(I1, 1)
        for i, check in enumerate(checks):
            obj = b.load(b.gep(args, [I64(i)], source_etype=PTR), typ=PTR)
            ok = b.and_(ok, _check_arg(b, obj, check))
        hit = fn.append_basic_block(f"hit{index}")
        b.cbranch(ok, hit, nxt)
        b.position_at_end(hit)
        target = b.inttoptr(I64(address), entry_t.as_pointer())
        b.ret(b.call(target, [NULL, args, nargs], tail=True))
        current = nxt
    b.position_at_end(current)
    ndarray_type = b.ptrtoint(ndarray, I64)
    probe_table(b, args, nparams, table, ndarray_type, entry_t, nargs, slow)
    b.position_at_end(slow)
    vectorcall = ll.Function(
        module, ll.FunctionType(PTR, [PTR, PTR, I64, PTR]), name="PyObject_Vectorcall"
    )
    b.ret(b.call(vectorcall, [fallback, args, nargsf, kwnames], tail=True))
    return module


def _field_at(b: ll.IRBuilder, obj: ll.Value, offset: int, typ: ll.Type) -> ll.Value:
    return b.load(b.gep(obj, [I64(offset)], source_etype=I8), typ=typ)


def _check_arg(b: ll.IRBuilder, obj: ll.Value, check: ArgCheck) -> ll.Value:
    ob_type = _field_at(b, obj, 8, I64)
    same_type = b.icmp_unsigned("==", ob_type, I64(check.type_address))
    if check.kind == "type":
        return same_type
    if check.kind == "tuple":
        # type check first: only then is it safe to read the size and items
        return _and_then(b, same_type, lambda: _tuple_items_ok(b, obj, check))
    return _and_then(b, same_type, lambda: _array_ok(b, obj, check))


def _and_then(b: ll.IRBuilder, first: ll.Value, rest: Callable[[], ll.Value]) -> ll.Value:
    """`first and rest()`, evaluating `rest` only when `first` holds (it reads memory that
    exists only for objects of the checked type)."""
    start = b.block
    more = b.append_basic_block("more")
    done = b.append_basic_block("done")
    b.cbranch(first, more, done)
    b.position_at_end(more)
    value = rest()
    more_end = b.block
    b.branch(done)
    b.position_at_end(done)
    phi = b.phi(I1)
    phi.add_incoming(ll.Constant(I1, 0), start)
    phi.add_incoming(value, more_end)
    return phi


def _tuple_items_ok(b: ll.IRBuilder, obj: ll.Value, check: ArgCheck) -> ll.Value:
    ok = b.icmp_signed("==", _field_at(b, obj, 16, I64), I64(len(check.items)))
    for i, item in enumerate(check.items):
        value = _field_at(b, obj, 24 + 8 * i, PTR)
        ok = _and_then(b, ok, functools.partial(_check_arg, b, value, item))
    return ok


def _array_ok(b: ll.IRBuilder, obj: ll.Value, check: ArgCheck) -> ll.Value:
    ndim = _field_at(b, obj, 24, I32)
    descr = _field_at(b, obj, 56, PTR)
    flags = _field_at(b, obj, 64, I32)
    type_num = _field_at(b, descr, 28, I32)
    byteorder = _field_at(b, descr, 26, I8)
    ok = b.and_(
        b.icmp_signed("==", ndim, I32(check.ndim)),
        b.icmp_signed("==", type_num, I32(check.type_num)),
    )
    ok = b.and_(ok, b.icmp_unsigned("!=", byteorder, I8(ord(">"))))
    c_contig = b.icmp_unsigned("!=", b.and_(flags, I32(1)), I32(0))
    f_contig = b.icmp_unsigned("!=", b.and_(flags, I32(2)), I32(0))
    if check.layout == "C":
        layout_ok = c_contig
    elif check.layout == "F":
        layout_ok = b.and_(b.not_(c_contig), f_contig)
    else:
        layout_ok = b.and_(b.not_(c_contig), b.not_(f_contig))
    writeable = b.icmp_unsigned("!=", b.and_(flags, I32(NPY_ARRAY_WRITEABLE)), I32(0))
    return b.and_(b.and_(ok, layout_ok), writeable)
