"""Python boxing and the Python entry point of a kernel.

In:  a lowered `ir.Function` (its argument and return types) and its kernel in an LLVM module.
Out: `ptr @<symbol>.py(ptr self, ptr args, i64 nargs)` in the same module (the METH_FASTCALL
     convention `machine_code` wraps in a built-in function object): it unboxes each Python
     argument with the C API (an array by reading NumPy's `PyArrayObject` fields; borrowed, with
     a null runtime block), calls the kernel, turns an exception descriptor the kernel returned
     into a Python exception, and boxes the result (a returned array becomes a NumPy array whose
     base is a capsule owning the runtime block). This is the Python boundary: the runtime
     blocks made here for arguments that may come back inside the result, and their release
     after the call, belong to the calling convention, not to the kernel's low IR.
"""

from __future__ import annotations

from llvmlite import ir as ll

from jitcore.codegen import pyobjects, rtrandom
from jitcore.codegen.lists import box_list, unbox_list
from jitcore.codegen.rtstrings import IMMORTAL
from jitcore.codegen.types import (
    EXC_DESCRIPTOR,
    F32,
    F64,
    I1,
    I8,
    I32,
    I64,
    NULL,
    PTR,
    VOID,
    c_string,
    declare_function,
    declare_global,
    exception_slot,
    llvm_type,
    memory_type,
)
from jitcore.errors import InternalCompilerError, UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.runtime import excring, nrt


class _CAPI:
    """Declarations of the CPython C-API functions the entry point calls."""

    SIGNATURES = {
        "PyLong_AsLongLong": (I64, [PTR]),
        "PyLong_AsUnsignedLongLongMask": (I64, [PTR]),
        "PyLong_FromLongLong": (PTR, [I64]),
        "PyLong_FromUnsignedLongLong": (PTR, [I64]),
        "PyFloat_AsDouble": (F64, [PTR]),
        "PyFloat_FromDouble": (PTR, [F64]),
        "PyBool_FromLong": (PTR, [I64]),
        "PyObject_IsTrue": (I32, [PTR]),
        "PyComplex_FromDoubles": (PTR, [F64, F64]),
        "PyComplex_AsCComplex": (ll.LiteralStructType([F64, F64]), [PTR]),
        "PyErr_Occurred": (PTR, []),
        "PyErr_SetString": (VOID, [PTR, PTR]),
        "PyTuple_New": (PTR, [I64]),
        "PyTuple_SetItem": (I32, [PTR, I64, PTR]),
        "PyTuple_GetItem": (PTR, [PTR, I64]),
        "Py_IncRef": (VOID, [PTR]),
        "Py_DecRef": (VOID, [PTR]),
    }

    def __init__(self, module: ll.Module) -> None:
        self.module = module

    def __getattr__(self, name: str) -> ll.Function:
        existing = self.module.globals.get(name)
        if existing is not None:
            return existing
        ret, args = self.SIGNATURES[name]
        return ll.Function(self.module, ll.FunctionType(ret, args), name=name)


def emit_python_entry(
    module: ll.Module, fn: ir.Function, kernel: ll.Function, name: str, nogil: bool = False
) -> None:
    """`<name>(self, args, nargs)`: unbox, call `kernel`, raise or box its result. With
    `nogil`, the kernel runs with the GIL released (arguments are unboxed and wrapped before,
    the result boxed after, under the GIL)."""
    entry_fn = ll.Function(module, ll.FunctionType(PTR, [PTR, PTR, I64]), name=name)
    b = ll.IRBuilder(entry_fn.append_basic_block("entry"))
    api = _CAPI(module)
    internal = [a.type for a in fn.args if isinstance(a.type, T.View)]
    if internal:  # only compiled code makes these (a library kernel's `list(d.values())`)
        message = f"an argument of type {internal[0]} can only be passed by compiled code"
        exc = b.load(exception_slot(module, TypeError), typ=PTR)
        b.call(api.PyErr_SetString, [exc, c_string(module, message)])
        b.ret(NULL)
        return
    fail = entry_fn.append_basic_block("fail")
    args_ptr = entry_fn.args[1]
    values = []
    objects = []
    returns_arrays = T.contains_array(fn.return_type)
    for i, arg in enumerate(fn.args):
        obj = b.load(b.gep(args_ptr, [I64(i)], source_etype=PTR), typ=PTR)
        objects.append(obj)
        values.append(_unbox(b, api, obj, arg.type, fail, returns_arrays))  # type: ignore[arg-type]
    # An array argument that may come back inside the result (also one inside a tuple
    # argument) gets a runtime block that keeps its Python object alive; otherwise arguments
    # are borrowed (null block), which is free.
    wrapped: list[ll.Value] = []
    if returns_arrays:
        for i, arg in enumerate(fn.args):
            arg_t = arg.type
            assert arg_t is not None
            values[i] = _wrap_arrays(b, api, objects[i], values[i], arg_t, wrapped)
    ret_t = llvm_type(fn.return_type)  # type: ignore[arg-type]
    with b.goto_entry_block():
        slot = b.alloca(ret_t)
    if nogil:
        save = declare_function(module, "PyEval_SaveThread", PTR, [])
        thread_state = b.call(save, [])
    status = b.call(kernel, [slot, *values])
    if nogil:
        b.call(declare_function(module, "PyEval_RestoreThread", VOID, [PTR]), [thread_state])
    for value, arg in zip(values, fn.args):  # the copies of str, list, dict, set arguments
        if pyobjects.holds_runtime_objects(arg.type):  # type: ignore[arg-type]
            pyobjects.release_unboxed(b, value, arg.type)  # type: ignore[arg-type]
    release = declare_function(module, nrt.RELEASE, VOID, [PTR])
    for block in wrapped:
        nrt.emit_decref(b, block, release)
    raised = entry_fn.append_basic_block("raised")
    ok = entry_fn.append_basic_block("ok")
    b.cbranch(b.icmp_unsigned("!=", status, NULL), raised, ok)
    b.position_at_end(raised)
    exc_slot = b.load(b.gep(status, [I32(0), I32(0)], source_etype=EXC_DESCRIPTOR), typ=PTR)
    message = b.load(b.gep(status, [I32(0), I32(1)], source_etype=EXC_DESCRIPTOR), typ=PTR)
    ring = b.load(b.gep(status, [I32(0), I32(2)], source_etype=EXC_DESCRIPTOR), typ=PTR)
    with b.if_then(b.icmp_unsigned("!=", ring, NULL), likely=False):
        raise_formatted = declare_function(module, excring.RAISE, VOID, [PTR, PTR])
        b.call(raise_formatted, [b.load(exc_slot, typ=PTR), status])  # (the runtime's)
        b.ret(NULL)
    b.call(api.PyErr_SetString, [b.load(exc_slot, typ=PTR), message])
    b.ret(NULL)
    b.position_at_end(ok)
    result = b.load(slot, typ=ret_t)
    b.ret(_box(b, api, result, fn.return_type, fn.python_result))  # type: ignore[arg-type]
    b.position_at_end(fail)
    b.ret(NULL)


def _wrap_arrays(
    b: ll.IRBuilder, api: _CAPI, obj: ll.Value, value: ll.Value, t: T.Type, out: list[ll.Value]
) -> ll.Value:
    """`value` (unboxed from `obj`) with each array's null block replaced by a runtime block
    that keeps the array's Python object alive; the blocks are appended to `out`, to be
    released after the call."""
    if isinstance(t, T.Array):
        wrap = declare_function(b.module, nrt.WRAP, PTR, [PTR, PTR])
        block = b.call(wrap, [obj, b.extract_value(value, 1)])
        out.append(block)
        return b.insert_value(value, block, 0)
    if isinstance(t, T.Tuple):
        for i, item_t in enumerate(t.items):
            if T.contains_array(item_t):
                item_obj = b.call(api.PyTuple_GetItem, [obj, I64(i)])
                item = _wrap_arrays(b, api, item_obj, b.extract_value(value, i), item_t, out)
                value = b.insert_value(value, item, i)
    return value


# Offsets into NumPy's PyArrayObject (stable across NumPy 1.x and 2.x).
_ARRAY_DATA, _ARRAY_DIMS, _ARRAY_STRIDES = 16, 32, 40
_NPY_DESCR_FROM_TYPE, _NPY_NEW_FROM_DESCR, _NPY_SET_BASE, _NPY_ARRAY_TYPE = 45, 94, 282, 2
NPY_ARRAY_WRITEABLE = 0x0400


def _unbox_array(b: ll.IRBuilder, obj: ll.Value, t: T.Array) -> ll.Value:
    def field(offset: int) -> ll.Value:
        return b.load(b.gep(obj, [I64(offset)], source_etype=I8), typ=PTR)

    data, dims, strides = field(_ARRAY_DATA), field(_ARRAY_DIMS), field(_ARRAY_STRIDES)
    agg: ll.Value = ll.Constant(llvm_type(t), ll.Undefined)
    agg = b.insert_value(agg, NULL, 0)
    agg = b.insert_value(agg, data, 1)
    for k in range(t.ndim):
        agg = b.insert_value(agg, b.load(b.gep(dims, [I64(k)], source_etype=I64), typ=I64), [2, k])
        agg = b.insert_value(
            agg, b.load(b.gep(strides, [I64(k)], source_etype=I64), typ=I64), [3, k]
        )
    return agg


def _box_array(b: ll.IRBuilder, api: _CAPI, v: ll.Value, t: T.Array) -> ll.Value:
    """A NumPy array viewing the runtime block's memory; a capsule owning the block is its base,
    so the memory is freed when NumPy collects the array."""
    module = b.module
    table = b.load(declare_global(module, nrt.NUMPY_API, PTR), typ=PTR)

    def entry(index: int, fnty: ll.FunctionType | None = None) -> ll.Value:
        typ = fnty.as_pointer() if fnty is not None else PTR  # a typed load makes it callable
        return b.load(b.gep(table, [I64(index)], source_etype=PTR), typ=typ)

    dims_t = ll.ArrayType(I64, max(1, t.ndim))
    dims = b.alloca(dims_t)
    strides = b.alloca(dims_t)
    for k in range(t.ndim):
        b.store(b.extract_value(v, [2, k]), b.gep(dims, [I32(0), I32(k)]))
        b.store(b.extract_value(v, [3, k]), b.gep(strides, [I32(0), I32(k)]))
    descr_fn = ll.FunctionType(PTR, [I32])
    descr = b.call(entry(_NPY_DESCR_FROM_TYPE, descr_fn), [I32(t.dtype.dtype.num)])
    new_fn = ll.FunctionType(PTR, [PTR, PTR, I32, PTR, PTR, PTR, I32, PTR])
    array = b.call(
        entry(_NPY_NEW_FROM_DESCR, new_fn),
        [
            entry(_NPY_ARRAY_TYPE),
            descr,
            I32(t.ndim),
            dims,
            strides,
            b.extract_value(v, 1),
            _writeable_flag(b, b.extract_value(v, 0)),
            NULL,
        ],
    )
    capsule_new = declare_function(module, "PyCapsule_New", PTR, [PTR, PTR, PTR])
    destructor = declare_function(module, nrt.CAPSULE_DESTRUCTOR, VOID, [PTR])
    capsule = b.call(capsule_new, [b.extract_value(v, 0), NULL, destructor])
    set_base = ll.FunctionType(I32, [PTR, PTR])
    b.call(entry(_NPY_SET_BASE, set_base), [array, capsule])
    return array


def _writeable_flag(b: ll.IRBuilder, block: ll.Value) -> ll.Value:
    """NumPy's WRITEABLE flag, except for the data of an immortal block (a frozen module-level
    array, `codegen.frozen`): a view of it is read-only."""
    module = b.module
    probe = module.globals.get("jitcore.block.none")  # read in place of a null block
    if probe is None:
        probe = ll.GlobalVariable(module, nrt.BLOCK, name="jitcore.block.none")
        probe.linkage = "private"
        probe.global_constant = True
        probe.initializer = ll.Constant(nrt.BLOCK, None)
    readable = b.select(b.icmp_unsigned("==", block, NULL), probe, block)
    count = b.load(b.gep(readable, [I32(0), I32(0)], source_etype=nrt.BLOCK), typ=I64)
    immortal = b.icmp_signed(">=", count, I64(IMMORTAL))
    return b.select(immortal, I32(0), I32(NPY_ARRAY_WRITEABLE))


def _check_error(
    b: ll.IRBuilder, api: _CAPI, value: ll.Value, sentinel: ll.Constant, fail: ll.Block
) -> None:
    """C-API convention: a sentinel result plus a set error means failure."""
    is_sentinel = (
        b.fcmp_ordered("==", value, sentinel)
        if isinstance(value.type, ll.DoubleType)
        else b.icmp_signed("==", value, sentinel)
    )
    with b.if_then(is_sentinel, likely=False):
        occurred = b.call(api.PyErr_Occurred, [])
        cont = b.append_basic_block("noerror")
        b.cbranch(b.icmp_unsigned("!=", occurred, NULL), fail, cont)
        b.position_at_end(cont)


def _unbox(
    b: ll.IRBuilder, api: _CAPI, obj: ll.Value, t: T.Type, fail: ll.Block, wrap: bool = False
) -> ll.Value:
    if isinstance(t, T.Optional):
        return _unbox_optional(b, api, obj, t, fail, wrap)
    if isinstance(t, T.Scalar):
        if t.is_bool:
            truth = b.call(api.PyObject_IsTrue, [obj])
            _check_error(b, api, truth, ll.Constant(I32, -1), fail)
            return b.icmp_signed("!=", truth, ll.Constant(I32, 0))
        if t.is_int:
            getter = api.PyLong_AsLongLong if t.is_signed else api.PyLong_AsUnsignedLongLongMask
            v = b.call(getter, [obj])
            _check_error(b, api, v, ll.Constant(I64, -1), fail)
            return b.trunc(v, ll.IntType(t.bits)) if t.bits < 64 else v
        if t.is_float:
            v = b.call(api.PyFloat_AsDouble, [obj])
            _check_error(b, api, v, ll.Constant(F64, -1.0), fail)
            return b.fptrunc(v, F32) if t.bits == 32 else v
        c = b.call(api.PyComplex_AsCComplex, [obj])
        _check_error(b, api, b.extract_value(c, 0), ll.Constant(F64, -1.0), fail)
        if t.bits == 64:
            agg = b.insert_value(
                ll.Constant(llvm_type(t), ll.Undefined), b.fptrunc(b.extract_value(c, 0), F32), 0
            )
            return b.insert_value(agg, b.fptrunc(b.extract_value(c, 1), F32), 1)
        return c
    if isinstance(t, T.Tuple):
        agg = ll.Constant(llvm_type(t), ll.Undefined)
        for i, item_t in enumerate(t.items):
            item = b.call(api.PyTuple_GetItem, [obj, I64(i)])
            agg = b.insert_value(agg, _unbox(b, api, item, item_t, fail, wrap), i)
        return agg
    if isinstance(t, T.NoneType):
        return ll.Constant(I8, 0)
    if isinstance(t, T.Array):
        return _unbox_array(b, obj, t)
    if isinstance(t, T.List):
        item_t = t.item
        return unbox_list(b, obj, t, lambda o, f: _unbox_item(b, api, o, item_t, f, wrap), fail)
    if isinstance(t, T.Str):
        return pyobjects.unbox_str(b, obj, fail)
    if isinstance(t, T.Dict | T.Set):
        return pyobjects.unbox_container(
            b, obj, t, fail, lambda b2, item, item_t, f: _unbox(b2, api, item, item_t, f)
        )
    if isinstance(t, T.Generator):
        # A Python Generator is always typed `generator` (argtypes); a specialization taking
        # `generator(owned)` is only ever called from compiled code, never through this wrapper.
        return rtrandom.unbox_generator(b, obj, fail)
    raise InternalCompilerError(f"cannot unbox arguments of type {t}")


def _unbox_item(
    b: ll.IRBuilder, api: _CAPI, obj: ll.Value, t: T.Type, fail: ll.Block, wrap: bool
) -> ll.Value:
    """An item of a list argument: as any argument, but an array item that may come back
    inside the result gets a runtime block keeping it alive (the list holds it)."""
    value = _unbox(b, api, obj, t, fail, wrap)
    if wrap and T.contains_array(t) and not isinstance(t, T.List):
        blocks: list[ll.Value] = []
        value = _wrap_arrays(b, api, obj, value, t, blocks)
    return value


# Results of these types are NumPy scalars in Python (np.float32(...)), not Python numbers.
NUMPY_SCALAR_RESULTS = {"f32", "i8", "i16", "i32", "u8", "u16", "u32", "u64", "c64"}
_NPY_SCALAR = 60


def _box_numpy_scalar(b: ll.IRBuilder, api: _CAPI, v: ll.Value, t: T.Scalar) -> ll.Value:
    """`PyArray_Scalar(&v, PyArray_DescrFromType(num), NULL)`: a NumPy scalar of t's dtype."""
    module = b.module
    table = b.load(declare_global(module, nrt.NUMPY_API, PTR), typ=PTR)
    descr_fn = ll.FunctionType(PTR, [I32])
    scalar_fn = ll.FunctionType(PTR, [PTR, PTR, PTR])

    def entry(index: int, fnty: ll.FunctionType) -> ll.Value:
        return b.load(b.gep(table, [I64(index)], source_etype=PTR), typ=fnty.as_pointer())

    with b.goto_entry_block():
        slot = b.alloca(memory_type(t))
    b.store(b.zext(v, I8) if t.is_bool else v, slot)
    descr = b.call(entry(_NPY_DESCR_FROM_TYPE, descr_fn), [I32(t.dtype.num)])
    scalar = b.call(entry(_NPY_SCALAR, scalar_fn), [slot, descr, NULL])
    b.call(api.Py_DecRef, [descr])
    return scalar


def box_value(b: ll.IRBuilder, v: ll.Value, t: T.Type) -> ll.Value:
    """A new Python object for `v` of type `t`, as a result of that type is boxed (numbers of
    Python's types as Python numbers); it takes over one reference to each runtime block in
    `v`. Needs the GIL."""
    return _box(b, _CAPI(b.module), v, t)


def _box(b: ll.IRBuilder, api: _CAPI, v: ll.Value, t: T.Type, python: object = True) -> ll.Value:
    """A Python object for `v`; `python` (the function's `python_result`) says whether a
    scalar of a Python number type is a Python number or a NumPy scalar (`a[0]` of a float64
    array is `np.float64`, as Python gives it)."""
    if isinstance(t, T.Scalar) and (t.name in NUMPY_SCALAR_RESULTS or python is False):
        return _box_numpy_scalar(b, api, v, t)
    if isinstance(t, T.Scalar):
        if t.is_bool:
            return b.call(api.PyBool_FromLong, [b.zext(v, I64)])
        if t.is_int:
            wide = v if t.bits == 64 else (b.sext(v, I64) if t.is_signed else b.zext(v, I64))
            return b.call(
                api.PyLong_FromLongLong if t.is_signed else api.PyLong_FromUnsignedLongLong, [wide]
            )
        if t.is_float:
            return b.call(api.PyFloat_FromDouble, [v if t.bits == 64 else b.fpext(v, F64)])
        re, im = b.extract_value(v, 0), b.extract_value(v, 1)
        if t.bits == 64:
            re, im = b.fpext(re, F64), b.fpext(im, F64)
        return b.call(api.PyComplex_FromDoubles, [re, im])
    if isinstance(t, T.Tuple):
        tup = b.call(api.PyTuple_New, [I64(len(t.items))])
        for i, item_t in enumerate(t.items):
            item_python = python[i] if isinstance(python, tuple) else python
            item = _box(b, api, b.extract_value(v, i), item_t, item_python)
            b.call(api.PyTuple_SetItem, [tup, I64(i), item])
        return tup
    if isinstance(t, T.Array):
        return _box_array(b, api, v, t)
    if isinstance(t, T.List):
        item_t, item_python = t.item, python
        return box_list(b, v, t, lambda item: _box(b, api, item, item_t, item_python))
    if isinstance(t, T.Str):
        return pyobjects.box_str(b, v)
    if isinstance(t, T.Dict | T.Set):
        return pyobjects.box_container(b, v, t, lambda b2, x, item_t: _box(b2, api, x, item_t))
    if isinstance(t, T.NoneType):
        none = declare_global(b.module, "_Py_NoneStruct", I8)
        b.call(api.Py_IncRef, [none])
        return none
    if isinstance(t, T.Optional):
        return _box_optional(b, api, v, t, python)
    if isinstance(t, T.Generator):
        raise UnsupportedError(
            "a np.random.Generator cannot be returned from compiled code",
            hint="make it in Python (np.random.default_rng(seed)) and pass it in: it advances "
            "in place; return what you drew"
            if t.owned
            else "return what you drew; the Generator you passed in has advanced in place",
        )
    raise InternalCompilerError(f"cannot return values of type {t} to Python")


def _unbox_optional(
    b: ll.IRBuilder, api: _CAPI, obj: ll.Value, t: T.Optional, fail: ll.Block, wrap: bool
) -> ll.Value:
    """An optional argument (a jitted function called from compiled code with a value that
    may be None has an entry point for Python too): None, or the unboxed value."""
    none = declare_global(b.module, "_Py_NoneStruct", I8)
    lt = llvm_type(t)
    with b.if_else(b.icmp_unsigned("==", obj, none)) as (absent, present):
        with absent:
            absent_end = b.block
        with present:
            inner = _unbox(b, api, obj, t.inner, fail, wrap)
            value = b.insert_value(ll.Constant(lt, None), ll.Constant(I1, 1), 0)
            value = b.insert_value(value, inner, 1)
            present_end = b.block
    out = b.phi(lt)
    out.add_incoming(ll.Constant(lt, None), absent_end)
    out.add_incoming(value, present_end)
    return out


def _box_optional(
    b: ll.IRBuilder, api: _CAPI, v: ll.Value, t: T.Optional, python: object
) -> ll.Value:
    """None, or the boxed value, by the optional's flag."""
    with b.if_else(b.extract_value(v, 0)) as (present, absent):
        with present:
            boxed = _box(b, api, b.extract_value(v, 1), t.inner, python)
            boxed_end = b.block
        with absent:
            none = _box(b, api, v, T.NONE)
            none_end = b.block
    out = b.phi(PTR)
    out.add_incoming(boxed, boxed_end)
    out.add_incoming(none, none_end)
    return out
