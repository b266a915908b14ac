"""Stage `machine-code`: optimized LLVM module -> native code callable from Python.

In:  the `ModuleRef` from `llvm-opt`.
Out: object code (kept: the compile cache stores exactly these bytes) linked by ORC's LLJIT
     into a JIT library of its own, named after the kernel symbol. A library links against the
     libraries of the jitted functions it calls, so kernels call one another directly by
     symbol; mutually recursive functions are linked into one library. The result is a
     built-in function object whose C entry point is the generated `<symbol>.py` wrapper:
     calling it from Python is a vectorcall straight into native code, no ctypes involved.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import llvmlite.binding as llvm

from jitcore import cache
from jitcore.llvm_opt import initialize_llvm, optimize_module, target_machine
from jitcore.runtime import externs, nrt, rngstate
from jitcore.runtime.threads import default_num_threads

METH_FASTCALL = 0x0080


class _PyMethodDef(ctypes.Structure):
    _fields_ = [
        ("ml_name", ctypes.c_char_p),
        ("ml_meth", ctypes.c_void_p),
        ("ml_flags", ctypes.c_int),
        ("ml_doc", ctypes.c_char_p),
    ]


_malloc = ctypes.pythonapi.PyMem_RawMalloc
_malloc.restype = ctypes.c_void_p
_malloc.argtypes = [ctypes.c_size_t]


def _permanent_method_def(name: bytes, address: int, flags: int) -> int:
    """A `PyMethodDef` (and its name) in memory that is never freed, for `PyCFunction_NewEx`.

    A built-in function reads its method definition until its very last moment (its
    deallocator asks it for the defining class), and at interpreter shutdown the garbage
    collector may free a dispatcher's class after whatever Python object owned the definition:
    a definition owned by a ctypes structure was read after free (a crash at exit)."""
    text = _malloc(len(name) + 1)
    ctypes.memmove(text, name + b"\0", len(name) + 1)
    where = _malloc(ctypes.sizeof(_PyMethodDef))
    method = _PyMethodDef.from_address(where)
    method.ml_name = ctypes.cast(text, ctypes.c_char_p)
    method.ml_meth = address
    method.ml_flags = flags
    method.ml_doc = None
    return int(where)


_new_cfunction = ctypes.pythonapi.PyCFunction_NewEx
_new_cfunction.restype = ctypes.py_object
_new_cfunction.argtypes = [ctypes.c_void_p, ctypes.py_object, ctypes.py_object]

_lock = threading.RLock()
# symbol -> the library defining it, while something keeps that library alive: the overloads
# linked from it (`NativeFunction.library`) and the libraries that call into it (`_depends_of`).
# A library nothing keeps is unloaded by LLVM (the tracker's disposal): a dropped dispatcher
# frees its machine code.
_libraries: weakref.WeakValueDictionary[str, llvm.ResourceTracker] = weakref.WeakValueDictionary()
# Every library a library calls into, directly or through others (a cached caller holds no
# dispatcher of its callees, so its code must keep their callees' code too). Weak keys: an
# entry, and the libraries it keeps, lives as long as its library.
_depends_of: weakref.WeakKeyDictionary[llvm.ResourceTracker, tuple[llvm.ResourceTracker, ...]] = (
    weakref.WeakKeyDictionary()
)
# Every library name linked in this process: ORC cannot reuse the name of an unloaded one.
_linked_names: set[str] = set()
# Libraries never unloaded: the runtime's, and those holding frozen arrays that returned arrays
# may view after their dispatcher is gone.
_pinned: list[llvm.ResourceTracker] = []


@functools.cache
def jit_engine() -> llvm.LLJIT:
    """The process-wide ORC JIT; every compiled library lives in it."""
    initialize_llvm()
    return llvm.create_lljit_compiler(target_machine(3))


def emit_object(ref: llvm.ModuleRef, opt: int) -> bytes:
    """Machine code for an optimized module, as an object file image."""
    return target_machine(opt).emit_object(ref)


@dataclass
class Unit:
    """One compiled specialization waiting to be linked."""

    kernel: str
    entry: str
    object_code: bytes
    callees: tuple[str, ...] = ()
    static_data: bool = True  # see `codegen.GeneratedModule.static_data`: never unloaded


@dataclass
class NativeFunction:
    """A linked entry point. Keeps its library and method definition alive."""

    callable: Callable[..., Any]
    address: int
    kernel_address: int
    library: llvm.ResourceTracker
    _method_def: _PyMethodDef


def _runtime_object() -> bytes:
    """The runtime's object code; kept in the compile cache directory when that is usable."""
    return shared_object(
        "runtime", nrt.LIBRARY, lambda: emit_object(optimize_module(nrt.runtime_module(), 3), 3)
    )


_shared_objects: dict[str, bytes] = {}


def shared_object(name: str, symbol: str, build: Callable[[], bytes]) -> bytes:
    """Object code that depends on nothing but `name` and the environment (the host CPU,
    LLVM, jitcore's source: `cache.environment_fingerprint`): built once per process, and kept
    in the compile cache directory when that is usable, so a later process loads it."""
    code = _shared_objects.get(name)
    if code is not None:
        return code
    # Only a cache directory that already exists and is private: the runtime never creates
    # one for a user who did not ask for caching. Entries get the cache's own checks.
    directory = cache.default_directory()
    key = hashlib.sha256(
        name.encode() + b"\0" + cache.environment_fingerprint().encode()
    ).hexdigest()
    usable = cache.is_private_directory(directory)
    entry = cache.load(directory, key) if usable else None
    if entry is not None:
        code = entry.object_code
    else:
        code = build()
        if usable:
            header = {
                "module": "jitcore.runtime",
                "qualname": name,
                "signature": "",
                "symbol": symbol,
                "callees": [],
            }
            cache.store(directory, key, header, code)
    _shared_objects[name] = code
    return code


@functools.cache
def runtime_symbols() -> dict[str, int]:
    """Link the runtime library (once per process) and return its exported addresses."""
    builder = llvm.JITLibraryBuilder().add_current_process().add_object_img(_runtime_object())
    for name in nrt.EXPORTS:
        builder.export_symbol(name)
    with _lock:
        tracker = builder.link(jit_engine(), nrt.LIBRARY)
    _pinned.append(tracker)
    _libraries[nrt.LIBRARY] = tracker
    _linked_names.add(nrt.LIBRARY)
    addresses = {name: tracker[name] for name in nrt.EXPORTS}
    ctypes.c_void_p.from_address(addresses[nrt.NUMPY_API]).value = numpy_api_address()
    ctypes.c_int64.from_address(addresses[nrt.NUM_THREADS]).value = default_num_threads()
    rngstate.count_forks(addresses[rngstate.FORKS])
    return addresses


METH_KEYWORDS = 0x0002
_dispatchers = 0


def dispatcher_object(module: object) -> bytes:
    """Machine code of a generated trampoline (`codegen.dispatch`): straight-line code, so
    no optimization passes, and codegen at O1."""
    return emit_object(optimize_module(module, 0), 1)  # type: ignore[arg-type]


def link_dispatcher(
    object_code: bytes, name: str, fallback: object, symbols: dict[str, int]
) -> NativeFunction:
    """Link a trampoline's machine code, exporting `name` and giving the addresses of the
    symbols it imports; `fallback` (called for any other arguments) becomes the built-in
    function's `self`, which the generated code receives as its first argument."""
    global _dispatchers
    with _lock:
        _dispatchers += 1
        library = f"{name}.{_dispatchers}"
        builder = llvm.JITLibraryBuilder().add_current_process().add_object_img(object_code)
        for symbol, address in symbols.items():
            builder.import_symbol(symbol, address)
        tracker = builder.export_symbol(name).link(jit_engine(), library)
    address = tracker[name]
    where = _permanent_method_def(b"dispatch", address, METH_FASTCALL | METH_KEYWORDS)
    func = _new_cfunction(where, fallback, None)
    method = _PyMethodDef.from_address(where)
    return NativeFunction(func, address, address, tracker, method)


def is_loaded(symbol: str) -> bool:
    """Whether the library defining `symbol` is loaded now (not unloaded since its link)."""
    return symbol in _libraries


def is_linked(symbol: str) -> bool:
    """Whether `symbol` names a library linked in this process, loaded or not since."""
    return symbol in _linked_names


def link(units: list[Unit], names: list[str], library: str | None = None) -> list[NativeFunction]:
    """Link `units` into one JIT library (named after the first unit's kernel unless `library`
    names it) and return their Python-callable entry points. Callers linked later call these
    definitions of the units' symbols, which replace any earlier ones (a first tier's)."""
    with _lock:
        runtime_symbols()
        builder = llvm.JITLibraryBuilder().add_current_process()
        own = {u.kernel for u in units}
        deps = [_libraries[nrt.LIBRARY]]
        imports: dict[str, int] = {}
        for unit in units:
            builder.add_object_img(unit.object_code)
            imports.update(externs.imports_for(unit.object_code))
            builder.export_symbol(unit.kernel).export_symbol(unit.entry)
            for callee in unit.callees:
                lib = _libraries.get(callee)
                if callee not in own and lib is not None and lib not in deps:
                    deps.append(lib)
        for dep in deps:
            builder.add_jit_library(dep.name)
        for symbol, address in imports.items():  # SciPy's BLAS, NumPy's LinAlgError...
            builder.import_symbol(symbol, address)
        library_name = library or units[0].kernel
        try:
            tracker = builder.link(jit_engine(), library_name)
        except RuntimeError as exc:  # an unresolved symbol: name it
            raise RuntimeError(f"linking {library_name} failed: {exc}") from None
        for unit in units:
            _libraries[unit.kernel] = tracker
            _linked_names.add(unit.kernel)
        _linked_names.add(library_name)
        if any(unit.static_data for unit in units):
            _pinned.append(tracker)
    _depends_of[tracker] = _with_their_callees(deps[1:])
    out = []
    for unit, name in zip(units, names):
        address, kernel_address = tracker[unit.entry], tracker[unit.kernel]
        if not address:
            raise RuntimeError(f"jitcore: symbol {unit.entry} was not linked")
        where = _permanent_method_def(name.encode(), address, METH_FASTCALL)
        func = _new_cfunction(where, None, None)
        method = _PyMethodDef.from_address(where)
        out.append(NativeFunction(func, address, kernel_address, tracker, method))
    return out


def depends_of(library: llvm.ResourceTracker) -> tuple[llvm.ResourceTracker, ...]:
    """The libraries `library`'s code calls into, directly or not, which it keeps loaded."""
    return _depends_of.get(library, ())


def _with_their_callees(
    libraries: list[llvm.ResourceTracker],
) -> tuple[llvm.ResourceTracker, ...]:
    """`libraries` and every library they call into (each one's own list is complete)."""
    out: dict[int, llvm.ResourceTracker] = {}
    for library in libraries:
        for each in (library, *depends_of(library)):
            out.setdefault(id(each), each)
    return tuple(out.values())


def numpy_api_address() -> int:
    """The address of NumPy's C-API function table, which the entry points use to box arrays."""
    try:
        import numpy._core._multiarray_umath as multiarray
    except ImportError:  # NumPy 1.x
        import numpy.core._multiarray_umath as multiarray  # type: ignore[no-redef]

    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return get_pointer(multiarray._ARRAY_API, None)
