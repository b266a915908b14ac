"""The native runtime: reference-counted memory blocks for arrays created in compiled code.

A block is `{i64 refcount, i64 size, ptr data, ptr pyobject}`. Arrays made in compiled code own
their data (`pyobject` is null); an array argument that may escape into a returned array is
wrapped with its Python object, which the block keeps alive. Compiled code increfs and decrefs
blocks (see `jitcore.refcount`); the last decref frees the data, or releases the Python object.
Large blocks are aligned to 2 MiB and advised as huge pages, as NumPy does, so that filling a new
80 MB array does not pay for tens of thousands of page faults.

Freed blocks of 4 to 32 MiB of data are kept in a few spare slots (`SPARE_SLOTS`) and handed
out again to an allocation they fit: with two such arrays alive at once, glibc's malloc gave
their memory back to the OS at every free (it trims the top of its heap), and each call of a
kernel that makes temporaries faulted all their pages in again (two 8 MB temporaries a call:
2.4 ms, 0.73 ms with the spares). Below 4 MiB glibc keeps them itself. A spare that
does not fit the allocation looking at it is freed, so the slots follow what the program
allocates now. At most `SPARE_SLOTS` blocks (128 MiB) stay held; `trim_spare_blocks()` frees
them.

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
SPARE = "jitcore_rt_spare_blocks"  # [SPARE_SLOTS x ptr]: freed blocks kept for reuse
TRIM = "jitcore_rt_trim_spare_blocks"
GIL_RELEASE = "jitcore_rt_gil_release"  # () -> ptr: the saved thread state, null if not held
GIL_RESTORE = "jitcore_rt_gil_restore"  # (ptr): take the GIL back if gil_release released it
EXPORTS = (
    TRIM,
    GIL_RELEASE,
    GIL_RESTORE,
    SPARE,
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

# The block header, the capacity of its allocation (an i64 after it), room to align the data.
HEADER_BYTES = 32 + 8 + 64
CAPACITY_OFFSET = 32
HEADER_MAX = (1 << 63) - 1 - HEADER_BYTES  # the largest `nbytes` whose total fits in int64
HUGE_THRESHOLD = 4 << 20  # NumPy advises huge pages from 4 MiB
HUGE_ALIGN = 2 << 20
MADV_HUGEPAGE = 14
SPARE_SLOTS = 4
SPARE_MIN = 4 << 20  # blocks of this many bytes of data up to SPARE_MAX are kept when freed
SPARE_MAX = 32 << 20


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
    spare_t = ll.ArrayType(PTR, SPARE_SLOTS)
    spare = ll.GlobalVariable(module, spare_t, name=SPARE)
    spare.initializer = ll.Constant(spare_t, None)
    malloc = ll.Function(module, ll.FunctionType(PTR, [I64]), name="malloc")
    free = ll.Function(module, ll.FunctionType(ll.VoidType(), [PTR]), name="free")
    madvise = ll.Function(module, ll.FunctionType(I32, [PTR, I64, I32]), name="madvise")
    decref_py = _emit_decref_with_gil(module)
    _emit_gil_release_restore(module)
    incref_py = ll.Function(module, ll.FunctionType(ll.VoidType(), [PTR]), name="Py_IncRef")
    get_pointer = ll.Function(
        module, ll.FunctionType(PTR, [PTR, PTR]), name="PyCapsule_GetPointer"
    )
    _emit_alloc(module, malloc, free, madvise)
    _emit_wrap(module, malloc, incref_py)
    release = _emit_release(module, free, decref_py)
    _emit_trim(module, free)
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


def _spare_slot(b: ll.IRBuilder, module: ll.Module, k: int) -> ll.Value:
    spare = module.globals[SPARE]
    return b.gep(spare, [I32(0), I32(k)], inbounds=True, source_etype=spare.value_type)


def _is_spare_size(b: ll.IRBuilder, nbytes: ll.Value) -> ll.Value:
    low = b.icmp_unsigned(">=", nbytes, I64(SPARE_MIN))
    return b.and_(low, b.icmp_unsigned("<=", nbytes, I64(SPARE_MAX)))


def _emit_alloc(module: ll.Module, malloc, free, madvise) -> None:  # noqa: ANN001
    """`alloc(nbytes) -> block` with refcount 1, or null when memory is exhausted (or
    `nbytes` is negative, or too large to add the header to: nothing wraps).

    One malloc holds the block header and, 64-byte aligned after it (cache lines, AVX-512),
    the data: one allocation and one free per array. A request of a spare size first takes a
    spare block whose allocation holds it without wasting more than half (`_take_spare`)."""
    fn = ll.Function(module, ll.FunctionType(PTR, [I64]), name=ALLOC)
    nbytes = fn.args[0]
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    fail = fn.append_basic_block("fail")
    sized = fn.append_basic_block("sized")
    fresh = fn.append_basic_block("fresh")
    have_block = fn.append_basic_block("have_block")
    b.cbranch(b.icmp_unsigned(">", nbytes, I64(HEADER_MAX)), fail, sized)
    b.position_at_end(sized)
    total = b.add(nbytes, I64(HEADER_BYTES))
    found = _take_spare(b, module, free, nbytes, total, fresh)
    found_end = b.block
    b.branch(have_block)
    b.position_at_end(fresh)
    made = b.call(malloc, [total])
    fresh_ok = fn.append_basic_block("fresh_ok")
    b.cbranch(b.icmp_unsigned("==", made, NULL), fail, fresh_ok)
    b.position_at_end(fresh_ok)
    b.store(total, b.gep(made, [I64(CAPACITY_OFFSET)], inbounds=True, source_etype=I8))
    b.branch(have_block)
    b.position_at_end(have_block)
    block = b.phi(PTR)
    block.add_incoming(found, found_end)
    block.add_incoming(made, fresh_ok)
    is_fresh = b.phi(I1)  # a spare was advised when it was made
    is_fresh.add_incoming(ll.Constant(I1, 0), found_end)
    is_fresh.add_incoming(ll.Constant(I1, 1), fresh_ok)
    first = b.add(b.ptrtoint(block, I64), I64(CAPACITY_OFFSET + 8 + 63))
    data = b.inttoptr(b.and_(first, I64(~63 & ((1 << 64) - 1))), PTR)
    huge = b.and_(is_fresh, b.icmp_unsigned(">=", nbytes, I64(HUGE_THRESHOLD)))
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


def _take_spare(
    b: ll.IRBuilder,
    module: ll.Module,
    free,
    nbytes: ll.Value,
    total: ll.Value,
    miss: ll.Block,  # noqa: ANN001
) -> ll.Value:
    """A spare block whose allocation holds `total` bytes and at most twice that, taken out
    of its slot (an atomic exchange, so two threads never get the same block); branches to
    `miss` when there is none. A spare that does not fit is freed."""
    fn = b.function
    found = fn.append_basic_block("spare_found")
    first = fn.append_basic_block("spare_slot0")
    b.cbranch(_is_spare_size(b, nbytes), first, miss)
    b.position_at_end(first)
    incoming: list[tuple[ll.Value, ll.Block]] = []
    for k in range(SPARE_SLOTS):
        slot = _spare_slot(b, module, k)
        spare = b.atomic_rmw("xchg", slot, NULL, "acq_rel")
        have = fn.append_basic_block(f"spare_have{k}")
        fits = fn.append_basic_block(f"spare_fits{k}")
        unfit = fn.append_basic_block(f"spare_unfit{k}")
        nxt = fn.append_basic_block(f"spare_slot{k + 1}") if k + 1 < SPARE_SLOTS else miss
        b.cbranch(b.icmp_unsigned("!=", spare, NULL), have, nxt)
        b.position_at_end(have)
        capacity = b.load(
            b.gep(spare, [I64(CAPACITY_OFFSET)], inbounds=True, source_etype=I8), typ=I64
        )
        enough = b.icmp_unsigned(">=", capacity, total)
        not_wasteful = b.icmp_unsigned("<=", capacity, b.shl(total, I64(1)))
        b.cbranch(b.and_(enough, not_wasteful), fits, unfit)
        b.position_at_end(fits)
        incoming.append((spare, fits))
        b.branch(found)
        b.position_at_end(unfit)  # a size the program no longer asks for, maybe
        b.call(free, [spare])
        b.branch(nxt)
        if k + 1 < SPARE_SLOTS:
            b.position_at_end(nxt)
    b.position_at_end(found)
    phi = b.phi(PTR)
    for value, block in incoming:
        phi.add_incoming(value, block)
    return phi


def _emit_trim(module: ll.Module, free) -> None:  # noqa: ANN001
    """`trim()`: free every spare block (`jitcore.runtime.trim_spare_blocks`)."""
    fn = ll.Function(module, ll.FunctionType(ll.VoidType(), []), name=TRIM)
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    for k in range(SPARE_SLOTS):
        spare = b.atomic_rmw("xchg", _spare_slot(b, module, k), NULL, "acq_rel")
        with b.if_then(b.icmp_unsigned("!=", spare, NULL)):
            b.call(free, [spare])
    b.ret_void()


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


def _emit_gil_release_restore(module: ll.Module) -> None:
    """Let go of the GIL while a prange loop's threads run, if this thread holds it: a worker
    that needs it (`print`, dropping the last reference to a Python object) would otherwise
    wait for it forever, since the launcher holds it while it joins them. A `nogil` function
    calls the launcher without the GIL: nothing to release then."""
    check = ll.Function(module, ll.FunctionType(I32, []), name="PyGILState_Check")
    save = ll.Function(module, ll.FunctionType(PTR, []), name="PyEval_SaveThread")
    restore = ll.Function(
        module, ll.FunctionType(ll.VoidType(), [PTR]), name="PyEval_RestoreThread"
    )
    release_fn = ll.Function(module, ll.FunctionType(PTR, []), name=GIL_RELEASE)
    b = ll.IRBuilder(release_fn.append_basic_block("entry"))
    held = b.icmp_signed("!=", b.call(check, []), I32(0))
    with b.if_then(held):
        b.ret(b.call(save, []))
    b.ret(NULL)
    restore_fn = ll.Function(module, ll.FunctionType(ll.VoidType(), [PTR]), name=GIL_RESTORE)
    b = ll.IRBuilder(restore_fn.append_basic_block("entry"))
    state = restore_fn.args[0]
    with b.if_then(b.icmp_unsigned("!=", state, NULL)):
        b.call(restore, [state])
    b.ret_void()


def _emit_release(module: ll.Module, free, decref_py) -> ll.Function:  # noqa: ANN001
    """Called by decref when the count reaches zero: free the data or release the object."""
    fn = ll.Function(module, ll.FunctionType(ll.VoidType(), [PTR]), name=RELEASE)
    block = fn.args[0]
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    obj = b.load(_field(b, block, 3), typ=PTR)
    owned = b.icmp_unsigned("==", obj, NULL)
    _bump(b, module, LIVE_BLOCKS, I64(-1))
    with b.if_else(owned) as (then, otherwise):
        with then:  # the data lives in the block's own allocation: maybe a spare now
            nbytes = b.load(_field(b, block, 1), typ=I64)
            _bump(b, module, LIVE_BYTES, b.neg(nbytes))
            with b.if_then(_is_spare_size(b, nbytes)):
                for k in range(SPARE_SLOTS):
                    result = b.cmpxchg(
                        _spare_slot(b, module, k), NULL, block, "acq_rel", "monotonic"
                    )
                    with b.if_then(b.extract_value(result, 1)):
                        b.ret_void()
        with otherwise:
            b.call(decref_py, [obj])
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
