"""LLVM types of IR types, and declarations shared by the code generators.

An IR type maps to one LLVM type in registers (`llvm_type`) and, for array elements, one in
memory (`memory_type`: bools take a byte, as in NumPy). Scalars are LLVM scalars, complex numbers
`{part, part}`, tuples and slices literal structs, arrays `{ptr block, ptr data, [n x i64] shape,
[n x i64] strides}`, pointers opaque `ptr`; None and compile-time objects are an `i8` nobody reads.
"""

from __future__ import annotations

import builtins
import functools
import hashlib

from llvmlite import ir as ll

from jitcore.errors import InternalCompilerError
from jitcore.ir import types as T
from jitcore.runtime import externs

PTR = ll.PointerType()
I1, I8, I32, I64 = ll.IntType(1), ll.IntType(8), ll.IntType(32), ll.IntType(64)
F32, F64 = ll.FloatType(), ll.DoubleType()
VOID = ll.VoidType()
NULL = ll.Constant(PTR, None)
# What a kernel returns when it raised: a pointer to `{ptr exception-class slot, ptr message}`.
# class slot, message, ring tag (null: a static descriptor; else `runtime.excring`'s slot)
EXC_DESCRIPTOR = ll.LiteralStructType([PTR, PTR, PTR])


def llvm_type(t: T.Type) -> ll.Type:
    """The LLVM representation of an IR type (in registers)."""
    if isinstance(t, T.Scalar):
        if t.is_bool:
            return I1
        if t.is_int:
            return ll.IntType(t.bits)
        if t.is_float:
            return F32 if t.bits == 32 else F64
        part = F32 if t.bits == 64 else F64
        return ll.LiteralStructType([part, part])
    if isinstance(t, T.Tuple | T.Slice):
        return ll.LiteralStructType([llvm_type(i) for i in t.items])
    if isinstance(t, T.Optional):  # {present, value}: all zeros when None (`lib.optional`)
        return ll.LiteralStructType([I1, llvm_type(t.inner)])
    if isinstance(t, T.Array):
        dims = ll.ArrayType(I64, t.ndim)
        return ll.LiteralStructType([PTR, PTR, dims, dims])
    if isinstance(t, T.Pointer | T.Str | T.Dict | T.Set | T.Generator):
        return PTR  # strings, dicts and sets: their runtime block (see `codegen.containers`)
    if isinstance(t, T.View):
        return ll.LiteralStructType([PTR, I64])  # the container, its length when made
    if isinstance(t, T.List):
        return PTR  # its runtime block (see `codegen.lists`)
    if isinstance(t, T.NoneType | T.Opaque):
        return I8
    raise InternalCompilerError(f"no LLVM type for {t}")


def memory_type(t: T.Scalar) -> ll.Type:
    """How an array element is stored: bools take a byte, as in NumPy."""
    return I8 if t.is_bool else llvm_type(t)


def alignment(t: T.Scalar) -> int:
    """Element alignment NumPy guarantees for aligned arrays (complex: that of its parts)."""
    return t.bits // 16 if t.is_complex else max(1, t.bits // 8)


def declare_function(
    module: ll.Module, name: str, ret: ll.Type, args: list[ll.Type]
) -> ll.Function:
    """The module's declaration of an external function, added on first use."""
    existing = module.globals.get(name)
    if existing is not None:
        return existing
    return ll.Function(module, ll.FunctionType(ret, args), name=name)


def helper_body(module: ll.Module, name: str, params: list[ll.Type]) -> ll.Function | None:
    """The internal function `name` of a runtime helper, with a kernel's signature (a result
    slot, then `params`; it returns NULL or an exception descriptor), ready for its body; None
    when the module has the body already. Helpers are emitted into each module that calls them,
    once, at the call that first needs them (`codegen.generate_module`)."""
    existing = module.globals.get(name)
    if existing is not None and not existing.is_declaration:
        return None
    fn = existing or ll.Function(module, ll.FunctionType(PTR, [PTR, *params]), name=name)
    fn.linkage = "internal"
    return fn


def declare_global(module: ll.Module, name: str, t: ll.Type) -> ll.GlobalVariable:
    """The module's declaration of an external global variable, added on first use."""
    existing = module.globals.get(name)
    if existing is not None:
        return existing
    return ll.GlobalVariable(module, t, name=name)


@functools.cache
def builtin_exceptions() -> tuple[type, ...]:
    """The built-in exception classes whose `PyExc_<Name>` the Python library exports (what
    compiled code can raise, and so what an `except` may have to recognize)."""
    import ctypes

    found = []
    for name, obj in vars(builtins).items():
        if isinstance(obj, type) and issubclass(obj, BaseException) and obj.__name__ == name:
            if hasattr(ctypes.pythonapi, f"PyExc_{name}"):
                found.append(obj)
    return tuple(found)


def exception_slot(module: ll.Module, exc: type) -> ll.GlobalVariable:
    """The `PyObject *PyExc_<Name>` global of a built-in exception class (or the cell of one
    of `externs.extra_exceptions`, which the linker resolves in each process)."""
    extra = externs.exception_symbol(exc)
    if extra is not None:
        return declare_global(module, extra, PTR)
    if getattr(builtins, exc.__name__, None) is not exc:
        raise InternalCompilerError(
            f"only built-in exceptions can be raised, not {exc.__qualname__}"
        )
    return declare_global(module, f"PyExc_{exc.__name__}", PTR)


def c_string(module: ll.Module, text: str) -> ll.Value:
    """A private NUL-terminated UTF-8 constant, one per module and text (C API arguments,
    exception templates)."""
    data = bytearray(text.encode("utf-8") + b"\0")
    name = f"jitcore.cstr.{hashlib.sha1(data).hexdigest()[:16]}.{len(data)}"
    existing = module.globals.get(name)
    if existing is not None:
        return existing
    gv = ll.GlobalVariable(module, ll.ArrayType(ll.IntType(8), len(data)), name=name)
    gv.global_constant = True
    gv.linkage = "private"
    gv.initializer = ll.Constant(gv.value_type, data)
    return gv
