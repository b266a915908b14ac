"""The native runtime: reference-counted memory blocks for arrays created in compiled code.

A block is `{i64 refcount, i64 size, ptr data, ptr pyobject}`. Arrays made in compiled code own
their data (`pyobject` is null); an array argument that may escape into a returned array is
wrapped with its Python object, which the block keeps alive. Compiled code increfs and decrefs
blocks (see `jitcore.refcount`); the last decref frees the data, or releases the Python object.
Large blocks are aligned to 2 MiB and advised as huge pages, as NumPy does, so that filling a new
80 MB array does not pay for tens of thousands of page faults.

This module emits the runtime as LLVM IR once per process; `machine_code` links it as the JIT
library every kernel links against. Like `codegen`, it touches llvmlite's IR builder.
"""

from __future__ import annotations

from llvmlite import ir as ll

from jitcore.runtime import excring, pcg64, rngstate

I1, I8, I32, I64 = ll.IntType(1), ll.IntType(8), ll.IntType(32), ll.IntType(64)
PTR = ll.PointerType()
BLOCK = ll.LiteralStructType([I64, I64, PTR, PTR])
NULL = ll.Constant(PTR, None)

LIBRARY = "jitcore.runtime"
ALLOC = "jitcore_rt_alloc"
WRAP = "jitcore_rt_wrap_pyobject"
RELEASE = "jitcore_rt_release"
CAPSULE_DESTRUCTOR = "jitcore_rt_capsule_destructor"
LIVE_BYTES = "jitcore_rt_live_bytes"
LIVE_BLOCKS = "jitcore_rt_live_blocks"
NUMPY_API = "jitcore_rt_numpy_api"
PYTHON_MODE = "jitcore_rt_python_mode"
NUM_THREADS = "jitcore_rt_num_threads"  # i64: how many threads a prange loop uses
EXPORTS = (
    NUM_THREADS,
    ALLOC,
    WRAP,
    RELEASE,
    CAPSULE_DESTRUCTOR,
    LIVE_BYTES,
    LIVE_BLOCKS,
    NUMPY_API,
    PYTHON_MODE,
    excring.RING,  # formatted exceptions (`excring`)
    excring.RING_NEXT,
    excring.RAISE,
    *rngstate.EXPORTS,
    *pcg64.EXPORTS,  # Generators made in compiled code
)

HEADER_BYTES = 32 + 64  # the block header, and room to align the data to 64 bytes
HEADER_MAX = (1 << 63) - 1 - HEADER_BYTES  # the largest `nbytes` whose total fits in int64
HUGE_THRESHOLD = 4 << 20  # NumPy advises huge pages from 4 MiB
HUGE_ALIGN = 2 << 20
MADV_HUGEPAGE = 14


def runtime_module() -> ll.Module:
    module = ll.Module(name=LIBRARY)
    for name in (LIVE_BYTES, LIVE_BLOCKS):
        g = ll.GlobalVariable(module, I64, name=name)
        g.initializer = ll.Constant(I64, 0)
    api = ll.GlobalVariable(module, PTR, name=NUMPY_API)
    api.initializer = NULL
    python_mode = ll.GlobalVariable(module, I32, name=PYTHON_MODE)
    python_mode.initializer = ll.Constant(I32, 0)
    threads = ll.GlobalVariable(module, I64, name=NUM_THREADS)
    threads.initializer = ll.Constant(I64, 1)  # set when the runtime is linked
    malloc = ll.Function(module, ll.FunctionType(PTR, [I64]), name="malloc")
    free = ll.Function(module, ll.FunctionType(ll.VoidType(), [PTR]), name="free")
    madvise = ll.Function(module, ll.FunctionType(I32, [PTR, I64, I32]), name="madvise")
    decref_py = _emit_decref_with_gil(module)
    incref_py = ll.Function(module, ll.FunctionType(ll.VoidType(), [PTR]), name="Py_IncRef")
    get_pointer = ll.Function(
        module, ll.FunctionType(PTR, [PTR, PTR]), name="PyCapsule_GetPointer"
    )
    _emit_alloc(module, malloc, madvise)
    _emit_wrap(module, malloc, incref_py)
    release = _emit_release(module, free, decref_py)
    _emit_capsule_destructor(module, get_pointer, release)
    excring.emit_ring(module)
    rngstate.emit(module)  # compiled code's random-number state, one per thread
    pcg64.emit(module)  # the bit generator of `np.random.default_rng(seed)` in compiled code
    return module


def _field(b: ll.IRBuilder, block: ll.Value, index: int) -> ll.Value:
    return b.gep(block, [I32(0), I32(index)], inbounds=True, source_etype=BLOCK)


def _bump(b: ll.IRBuilder, module: ll.Module, name: str, delta: ll.Value) -> None:
    """Atomic: compiled code allocates and frees from several threads at once (prange
    workers, threads calling `nogil` functions)."""
    b.atomic_rmw("add", module.globals[name], delta, "monotonic")


def _emit_alloc(module: ll.Module, malloc, madvise) -> None:  # noqa: ANN001
    """`alloc(nbytes) -> block` with refcount 1, or null when memory is exhausted (or
    `nbytes` is negative, or too large to add the header to: nothing wraps).

    One malloc holds the block header and, 64-byte aligned after it (cache lines, AVX-512),
    the data: one allocation and one free per array. malloc's own reuse of freed large chunks
    keeps repeated big allocations from faulting their pages in again."""
    fn = ll.Function(module, ll.FunctionType(PTR, [I64]), name=ALLOC)
    nbytes = fn.args[0]
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    fail = fn.append_basic_block("fail")
    sized = fn.append_basic_block("sized")
    b.cbranch(b.icmp_unsigned(">", nbytes, I64(HEADER_MAX)), fail, sized)
    b.position_at_end(sized)
    total = b.add(nbytes, I64(HEADER_BYTES))
    block = b.call(malloc, [total])
    have_block = fn.append_basic_block("have_block")
    b.cbranch(b.icmp_unsigned("==", block, NULL), fail, have_block)
    b.position_at_end(have_block)
    first = b.add(b.ptrtoint(block, I64), I64(32 + 63))
    data = b.inttoptr(b.and_(first, I64(~63 & ((1 << 64) - 1))), PTR)
    huge = b.icmp_unsigned(">=", nbytes, I64(HUGE_THRESHOLD))
    with b.if_then(huge):  # advise the 2 MiB-aligned interior as huge pages, as NumPy does
        start = b.ptrtoint(data, I64)
        aligned = b.and_(
            b.add(start, I64(HUGE_ALIGN - 1)), I64(~(HUGE_ALIGN - 1) & ((1 << 64) - 1))
        )
        length = b.sub(b.add(start, nbytes), aligned)
        length = b.and_(length, I64(~(HUGE_ALIGN - 1) & ((1 << 64) - 1)))
        b.call(madvise, [b.inttoptr(aligned, PTR), length, I32(MADV_HUGEPAGE)])
    b.store(I64(1), _field(b, block, 0))
    b.store(nbytes, _field(b, block, 1))
    b.store(data, _field(b, block, 2))
    b.store(NULL, _field(b, block, 3))
    _bump(b, module, LIVE_BYTES, nbytes)
    _bump(b, module, LIVE_BLOCKS, I64(1))
    b.ret(block)
    b.position_at_end(fail)
    b.ret(NULL)


def _emit_wrap(module: ll.Module, malloc, incref_py) -> None:  # noqa: ANN001
    """`wrap(pyobject, data) -> block`: a block that keeps a Python object (an argument) alive."""
    fn = ll.Function(module, ll.FunctionType(PTR, [PTR, PTR]), name=WRAP)
    obj, data = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    block = b.call(malloc, [I64(32)])
    with b.if_then(b.icmp_unsigned("!=", block, NULL)):
        b.call(incref_py, [obj])
        b.store(I64(1), _field(b, block, 0))
        b.store(I64(0), _field(b, block, 1))
        b.store(data, _field(b, block, 2))
        b.store(obj, _field(b, block, 3))
        _bump(b, module, LIVE_BLOCKS, I64(1))
    b.ret(block)


def _emit_decref_with_gil(module: ll.Module) -> ll.Function:
    """`Py_DecRef` under the GIL, whichever thread drops the last reference: a block that
    keeps a Python object alive may be released by code that runs without the GIL (a `nogil`
    function, a prange worker, which has no Python thread state at all). PyGILState_Ensure
    takes the GIL (making a thread state if needed) or notes that this thread holds it."""
    fn = ll.Function(module, ll.FunctionType(ll.VoidType(), [PTR]), name="jitcore_rt_decref_py")
    fn.linkage = "internal"
    ensure = ll.Function(module, ll.FunctionType(I32, []), name="PyGILState_Ensure")
    release = ll.Function(module, ll.FunctionType(ll.VoidType(), [I32]), name="PyGILState_Release")
    decref = ll.Function(module, ll.FunctionType(ll.VoidType(), [PTR]), name="Py_DecRef")
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    state = b.call(ensure, [])
    b.call(decref, [fn.args[0]])
    b.call(release, [state])
    b.ret_void()
    return fn


def _emit_release(module: ll.Module, free, decref_py) -> ll.Function:  # noqa: ANN001
    """Called by decref when the count reaches zero: free the data or release the object."""
    fn = ll.Function(module, ll.FunctionType(ll.VoidType(), [PTR]), name=RELEASE)
    block = fn.args[0]
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    obj = b.load(_field(b, block, 3), typ=PTR)
    owned = b.icmp_unsigned("==", obj, NULL)
    with b.if_else(owned) as (then, otherwise):
        with then:  # the data lives in the block's own allocation
            _bump(b, module, LIVE_BYTES, b.neg(b.load(_field(b, block, 1), typ=I64)))
        with otherwise:
            b.call(decref_py, [obj])
    _bump(b, module, LIVE_BLOCKS, I64(-1))
    b.call(free, [block])
    b.ret_void()
    return fn


def _emit_capsule_destructor(module: ll.Module, get_pointer, release) -> None:  # noqa: ANN001
    """The destructor of the capsule that owns a returned array's block."""
    fn = ll.Function(module, ll.FunctionType(ll.VoidType(), [PTR]), name=CAPSULE_DESTRUCTOR)
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    block = b.call(get_pointer, [fn.args[0], NULL])
    emit_decref(b, block, release)
    b.ret_void()


def emit_incref(b: ll.IRBuilder, block: ll.Value) -> None:
    """Inline: count one more reference to a block (null blocks are borrowed memory).
    Atomic, as every count is: blocks are shared by threads running compiled code without
    the GIL (an incref needs no ordering, like `std::shared_ptr`'s)."""
    with b.if_then(b.icmp_unsigned("!=", block, NULL)):
        b.atomic_rmw("add", _field(b, block, 0), I64(1), "monotonic")


def emit_decref(b: ll.IRBuilder, block: ll.Value, release: ll.Function) -> None:
    """Inline: drop one reference; the last one releases the block. Acquire-release, so the
    thread that frees sees every other thread's writes to the block's data."""
    with b.if_then(b.icmp_unsigned("!=", block, NULL)):
        old = b.atomic_rmw("sub", _field(b, block, 0), I64(1), "acq_rel")
        with b.if_then(b.icmp_signed("==", old, I64(1)), likely=False):
            b.call(release, [block])
