"""The parallel launcher of a prange loop body: split an index range across native threads.

In:  the kernel of a function a prange loop's body was outlined into (`jitcore.parallel`):
     `ptr @<symbol>.chunk(ptr %ret, i64 %lo, i64 %hi, <captured...>)`, which runs iterations
     `lo..hi` and writes its partial reductions (a tuple of scalars, or nothing) to `%ret`;
     and the operator that combines each partial (`+`, `*`, `|`, `&`, `^`, `min`, `max`).
Out: `ptr @<symbol>(ptr %ret, i64 %lo, i64 %hi, <captured...>)`, the kernel's own convention,
     so callers (and the Python entry point) call it like any kernel. It
     1. cuts `lo..hi` into `min(jitcore_rt_num_threads, hi - lo)` contiguous chunks (at least
        one; sizes differ by at most one iteration),
     2. lets go of the GIL if the calling thread holds it, starts one POSIX thread per chunk
        but the first, runs the first itself, joins them (a thread that cannot be started runs
        its chunk on the calling thread instead), and takes the GIL back,
     3. returns the first chunk's error in chunk order (the one a serial loop raises first,
        since chunks are in iteration order), else
     4. combines the partials in chunk order, left to right, and writes the total to `%ret`.
No Python runs in the workers: they get a task record on the launcher's stack and call the
chunk function. Integer results do not depend on the thread count; float sums and products
do (their order is that of the chunks: document, compare with a tolerance).
"""

from __future__ import annotations

from llvmlite import ir as ll

from jitcore.codegen.types import (
    I1,
    I32,
    I64,
    NULL,
    PTR,
    declare_function,
    declare_global,
    llvm_type,
)
from jitcore.ir import types as T
from jitcore.runtime import nrt
from jitcore.runtime.threads import MAX_THREADS

# one task per chunk: {ptr args, i64 lo, i64 hi, ptr result slot, ptr status slot}
TASK = ll.LiteralStructType([PTR, I64, I64, PTR, PTR])


def emit_launcher(
    module: ll.Module, chunk: ll.Function, symbol: str, ret_t: T.Type, ops: tuple[str, ...]
) -> ll.Function:
    """Emit the worker trampoline and the launcher for `chunk` (see the module docstring)."""
    captured = [a.type for a in chunk.args[3:]]
    args_t = ll.LiteralStructType(captured)
    result_t = llvm_type(ret_t)
    worker = _emit_worker(module, chunk, symbol, args_t)
    fn = ll.Function(module, chunk.function_type, name=symbol)
    fn.attributes.add("noinline")
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    ret, lo, hi = fn.args[0], fn.args[1], fn.args[2]
    # the captured values, in one record every worker reads
    args = b.alloca(args_t)
    for k, value in enumerate(fn.args[3:]):
        b.store(value, b.gep(args, [I32(0), I32(k)], inbounds=True))
    n = b.select(b.icmp_signed(">", hi, lo), b.sub(hi, lo), I64(0))
    threads = b.load(declare_global(module, nrt.NUM_THREADS, I64), typ=I64)
    chunks = _clamp(b, b.select(b.icmp_signed("<", n, threads), n, threads))
    tasks = b.alloca(ll.ArrayType(TASK, MAX_THREADS))
    results = b.alloca(ll.ArrayType(result_t, MAX_THREADS))
    statuses = b.alloca(ll.ArrayType(PTR, MAX_THREADS))
    tids = b.alloca(ll.ArrayType(I64, MAX_THREADS))
    started = b.alloca(ll.ArrayType(I1, MAX_THREADS))
    base, extra = b.udiv(n, chunks), b.urem(n, chunks)

    def fill(k: ll.Value) -> None:
        # chunk k starts after k chunks of `base` and min(k, extra) extra iterations
        start = b.add(lo, b.add(b.mul(k, base), b.select(b.icmp_signed("<", k, extra), k, extra)))
        size = b.add(base, b.zext(b.icmp_signed("<", k, extra), I64))
        task = b.gep(tasks, [I32(0), k], inbounds=True)
        status = b.gep(statuses, [I32(0), k], inbounds=True)
        b.store(NULL, status)
        for i, value in enumerate(
            (args, start, b.add(start, size), b.gep(results, [I32(0), k], inbounds=True), status)
        ):
            b.store(value, b.gep(task, [I32(0), I32(i)], inbounds=True))

    _loop(b, fn, I64(0), chunks, fill)
    create = declare_function(module, "pthread_create", I32, [PTR, PTR, PTR, PTR])
    join = declare_function(module, "pthread_join", I32, [I64, PTR])

    def start_thread(k: ll.Value) -> None:
        task = b.gep(tasks, [I32(0), k], inbounds=True)
        tid = b.gep(tids, [I32(0), k], inbounds=True)
        ok = b.icmp_signed("==", b.call(create, [tid, NULL, worker, task]), I32(0))
        b.store(ok, b.gep(started, [I32(0), k], inbounds=True))
        with b.if_then(b.not_(ok), likely=False):  # no thread to be had: run it here
            b.call(worker, [task])

    # the GIL is let go while the chunks run (`nrt.GIL_RELEASE`): workers may need it
    gil = b.call(declare_function(module, nrt.GIL_RELEASE, PTR, []), [])
    _loop(b, fn, I64(1), chunks, start_thread)
    b.call(worker, [b.gep(tasks, [I32(0), I32(0)], inbounds=True)])

    def join_thread(k: ll.Value) -> None:
        with b.if_then(b.load(b.gep(started, [I32(0), k], inbounds=True), typ=I1)):
            b.call(join, [b.load(b.gep(tids, [I32(0), k], inbounds=True), typ=I64), NULL])

    _loop(b, fn, I64(1), chunks, join_thread)
    b.call(declare_function(module, nrt.GIL_RESTORE, ll.VoidType(), [PTR]), [gil])
    failed = b.alloca(PTR)
    b.store(NULL, failed)

    def first_error(k: ll.Value) -> None:
        status = b.load(b.gep(statuses, [I32(0), k], inbounds=True), typ=PTR)
        seen = b.load(failed, typ=PTR)
        b.store(b.select(b.icmp_unsigned("==", seen, NULL), status, seen), failed)

    _loop(b, fn, I64(0), chunks, first_error)
    error = b.load(failed, typ=PTR)
    raised, ok_block = fn.append_basic_block("raised"), fn.append_basic_block("ok")
    b.cbranch(b.icmp_unsigned("!=", error, NULL), raised, ok_block)
    b.position_at_end(raised)
    b.ret(error)
    b.position_at_end(ok_block)
    if isinstance(ret_t, T.Tuple) and ops:
        total = b.alloca(result_t)
        b.store(b.load(b.gep(results, [I32(0), I32(0)], inbounds=True), typ=result_t), total)

        def combine(k: ll.Value) -> None:
            partial = b.load(b.gep(results, [I32(0), k], inbounds=True), typ=result_t)
            b.store(_combine(b, b.load(total, typ=result_t), partial, ret_t, ops), total)

        _loop(b, fn, I64(1), chunks, combine)
        b.store(b.load(total, typ=result_t), ret)
    b.ret(NULL)
    return fn


def _clamp(b: ll.IRBuilder, chunks: ll.Value) -> ll.Value:
    """At least one chunk (an empty range still gives the identities), at most MAX_THREADS."""
    chunks = b.select(b.icmp_signed("<", chunks, I64(1)), I64(1), chunks)
    return b.select(b.icmp_signed(">", chunks, I64(MAX_THREADS)), I64(MAX_THREADS), chunks)


def _loop(b: ll.IRBuilder, fn: ll.Function, start: ll.Value, stop: ll.Value, body) -> None:  # noqa: ANN001
    """`for k in range(start, stop): body(k)`, k an i64 (a stack counter; mem2reg cleans)."""
    counter = b.alloca(I64)
    b.store(start, counter)
    head = fn.append_basic_block("loop")
    inside = fn.append_basic_block("loop.body")
    after = fn.append_basic_block("loop.end")
    b.branch(head)
    b.position_at_end(head)
    k = b.load(counter, typ=I64)
    b.cbranch(b.icmp_signed("<", k, stop), inside, after)
    b.position_at_end(inside)
    body(k)
    b.store(b.add(k, I64(1)), counter)
    b.branch(head)
    b.position_at_end(after)


def _emit_worker(
    module: ll.Module, chunk: ll.Function, symbol: str, args_t: ll.LiteralStructType
) -> ll.Function:
    """`ptr worker(ptr task)`: the thread's start routine: run one chunk, keep its status."""
    fn = ll.Function(module, ll.FunctionType(PTR, [PTR]), name=f"{symbol}.worker")
    fn.linkage = "internal"
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    task = fn.args[0]

    def field(i: int, t: ll.Type) -> ll.Value:
        return b.load(b.gep(task, [I32(0), I32(i)], inbounds=True, source_etype=TASK), typ=t)

    args = field(0, PTR)
    captured = [
        b.load(b.gep(args, [I32(0), I32(k)], inbounds=True, source_etype=args_t), typ=t)
        for k, t in enumerate(args_t.elements)
    ]
    status = b.call(chunk, [field(3, PTR), field(1, I64), field(2, I64), *captured])
    b.store(status, field(4, PTR))
    b.ret(NULL)
    return fn


def _combine(
    b: ll.IRBuilder, total: ll.Value, partial: ll.Value, ret_t: T.Tuple, ops: tuple[str, ...]
) -> ll.Value:
    out = total
    for i, (op, item_t) in enumerate(zip(ops, ret_t.items)):
        a, x = b.extract_value(total, i), b.extract_value(partial, i)
        out = b.insert_value(out, combine_scalar(b, op, a, x, item_t), i)
    return out


def combine_scalar(b: ll.IRBuilder, op: str, a: ll.Value, x: ll.Value, t: T.Type) -> ll.Value:
    """`a op x` with Python's meaning for the reduction operators; `min`/`max` keep `a` unless
    `x` is strictly smaller/larger, as Python's `min(a, x)` does."""
    assert isinstance(t, T.Scalar), t
    if t.is_complex:
        return _complex(b, op, a, x)
    if op in ("min", "max"):
        pred = "<" if op == "min" else ">"
        if t.is_float:
            better = b.fcmp_ordered(pred, x, a)
        elif t.is_signed:
            better = b.icmp_signed(pred, x, a)
        else:
            better = b.icmp_unsigned(pred, x, a)
        return b.select(better, x, a)
    if t.is_float:
        return {"+": b.fadd, "*": b.fmul}[op](a, x)
    if t.is_bool:  # NumPy bools add as `or` and multiply as `and` (an i1 add would wrap)
        return {"+": b.or_, "*": b.and_, "|": b.or_, "&": b.and_, "^": b.xor}[op](a, x)
    return {"+": b.add, "*": b.mul, "|": b.or_, "&": b.and_, "^": b.xor}[op](a, x)


def _complex(b: ll.IRBuilder, op: str, a: ll.Value, x: ll.Value) -> ll.Value:
    ar, ai = b.extract_value(a, 0), b.extract_value(a, 1)
    xr, xi = b.extract_value(x, 0), b.extract_value(x, 1)
    if op == "+":
        re, im = b.fadd(ar, xr), b.fadd(ai, xi)
    else:
        re = b.fsub(b.fmul(ar, xr), b.fmul(ai, xi))
        im = b.fadd(b.fmul(ar, xi), b.fmul(ai, xr))
    return b.insert_value(b.insert_value(a, re, 0), im, 1)
