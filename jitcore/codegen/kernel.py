"""Kernel code: one lowered `ir.Function` -> one LLVM function, instruction by instruction.

In:  low IR (`ir.LOW_IR` classes only, no `impl`), and the fast-math choice.
Out: `ptr @<symbol>(ptr noalias %ret, <args>)` in the given module: it writes its result
     through `%ret` and returns null, or returns a pointer to a constant exception descriptor
     `{ptr exception-class slot, ptr message}` (`raise`) or passes on the one a callee returned
     (`reraise`). Each low-IR class has one emitter in `_EMITTERS`; an emitter decides nothing
     the IR does not say (reference counts come from `refcount`'s `incref`/`decref`, checks from
     the branches `lower` wrote), it only spells the operation in LLVM.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from llvmlite import ir as ll

from jitcore.codegen import rtstrings
from jitcore.codegen.excformat import emit_exc_formatted
from jitcore.codegen.frozen import frozen_array_constant
from jitcore.codegen.lists import emit_list_op, emit_refcount
from jitcore.codegen.loopid import LoopID, Property, cold_loop_blocks, marked_back_edges
from jitcore.codegen.mathfns import LATENCY_ALTERNATIVES, emit_math
from jitcore.codegen.types import (
    EXC_DESCRIPTOR,
    I1,
    I8,
    I32,
    I64,
    NULL,
    PTR,
    alignment,
    builtin_exceptions,
    declare_function,
    exception_slot,
    llvm_type,
    memory_type,
)
from jitcore.errors import InternalCompilerError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.analysis import checked_by_raise, on_recurrences
from jitcore.ir.markers import MISSING
from jitcore.runtime import externs, nrt

_INT_CMP = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_FLOAT_CMP = {**_INT_CMP, "uno": "uno"}


class KernelGen:
    """Emits one kernel; `callees` collects the symbols of the kernels it calls."""

    def __init__(self, module: ll.Module, fn: ir.Function, symbol: str, fastmath: bool) -> None:
        self.module = module
        self.fn = fn
        self.flags: tuple[str, ...] = ("fast",) if fastmath else ()
        arg_types = [llvm_type(cast(T.Type, a.type)) for a in fn.args]
        self.kernel = ll.Function(module, ll.FunctionType(PTR, [PTR, *arg_types]), name=symbol)
        # The Python entry point calls the kernel once per call: inlining it there would only
        # make LLVM optimize and compile every loop twice.
        self.kernel.attributes.add("noinline")
        self.kernel.args[0].name = "ret"
        self.kernel.args[0].add_attribute("noalias")
        self.values: dict[ir.Value, ll.Value] = {}
        for arg, llarg in zip(fn.args, self.kernel.args[1:]):
            llarg.name = arg.name
            self.values[arg] = llarg
        self.blocks = {blk: self.kernel.append_basic_block(blk.label) for blk in fn.blocks}
        self.callees: set[str] = set()
        self.statuses: dict[ir.NativeCall, ll.Value] = {}  # what each kernel call returned
        self.exc_descriptors: dict[tuple[str, str], ll.GlobalVariable] = {}
        self.b = ll.IRBuilder()
        self._latency_bound: set[ir.Instr] | None = None
        self._cold_instrs: set[ir.Instr] | None = None
        self.loop_ids: dict[ir.Block, LoopID] = {}  # loop header -> its `!llvm.loop` node

    def latency_bound(self, i: ir.Intrinsic) -> bool:
        """Whether maths instruction `i` runs element by element whatever LLVM does: on a
        loop recurrence (`x = exp(-x)`: latency decides), or tested by a branch that raises
        (`math.exp`'s OverflowError: an exit per element). There the C library's exp beats
        the inline one, which only wins vectorized (`mathfns.LATENCY_ALTERNATIVES`)."""
        if self._latency_bound is None:
            candidates = [
                instr
                for block in self.fn.blocks
                for instr in block.instrs
                if isinstance(instr, ir.Intrinsic) and instr.fn in LATENCY_ALTERNATIVES
            ]
            self._latency_bound = (
                on_recurrences(self.fn, candidates) | checked_by_raise(self.fn, candidates)
                if candidates
                else set()
            )
        return i in self._latency_bound

    def in_cold_loop(self, i: ir.Instr) -> bool:
        """Whether `i` is in the checked copy of a versioned loop (`loopid.cold_loop_blocks`),
        which runs only when a check may fire: there the C library's maths functions are
        Python's own results in a call, where the inline ones are dozens of instructions for
        LLVM to optimize and compile for a loop that never vectorizes."""
        if self._cold_instrs is None:
            self._cold_instrs = {
                instr for block in cold_loop_blocks(self.fn) for instr in block.instrs
            }
        return i in self._cold_instrs

    # --- driver ---------------------------------------------------------------------------

    def emit(self) -> ll.Function:
        phis: list[tuple[ir.Phi, ll.PhiInstr]] = []
        ends: dict[ir.Block, ll.Block] = {}
        closing = marked_back_edges(self.fn)
        for block in self.fn.reverse_postorder():
            self.b.position_at_end(self.blocks[block])
            for instr in block.instrs:
                try:
                    if isinstance(instr, ir.Phi):
                        llphi = self.b.phi(self.type_of(instr), name=instr.name)
                        phis.append((instr, llphi))
                        self.values[instr] = llphi
                        continue
                    emitter = _EMITTERS.get(type(instr))
                    if emitter is None:
                        raise InternalCompilerError(
                            f"`{instr.opcode}` reached codegen unlowered", loc=instr.loc
                        )
                    self.values[instr] = emitter(self, instr)
                except InternalCompilerError:
                    raise
                except Exception as exc:
                    raise InternalCompilerError(
                        f"codegen failed on `{instr.opcode}` ({type(exc).__name__}: {exc})",
                        loc=instr.loc,
                    ) from exc
            ends[block] = self.b.block  # inline code (refcounts) may have split the block
            branch = self.terminator(cast(ir.Terminator, block.terminator))
            self.mark_back_edge(block, branch, closing)
        for phi, llphi in phis:
            for pred, value in phi.incoming.items():
                llphi.add_incoming(self.value(value), ends[pred])
        for llblock in self.blocks.values():  # blocks the entry cannot reach
            if not llblock.is_terminated:
                self.b.position_at_end(llblock)
                self.b.unreachable()
        return self.kernel

    def value(self, v: ir.Value) -> ll.Value:
        if isinstance(v, ir.Const):
            return self.const(v.value, cast(T.Type, v.type))
        try:
            return self.values[v]
        except KeyError:
            raise InternalCompilerError(
                f"value {getattr(v, 'name', v)!r} used before it is defined"
            ) from None

    @staticmethod
    def type_of(v: ir.Value) -> ll.Type:
        return llvm_type(cast(T.Type, v.type))

    def const(self, value: object, t: T.Type) -> ll.Constant:
        lt = llvm_type(t)
        if value is MISSING or isinstance(t, T.Optional):  # an optional constant is None
            return ll.Constant(lt, None)
        if isinstance(t, T.Scalar):
            if t.is_complex:
                c = complex(cast(complex, value))
                part = lt.elements[0]
                return ll.Constant(lt, [ll.Constant(part, c.real), ll.Constant(part, c.imag)])
            if t.is_float:
                return ll.Constant(lt, float(cast(float, value)))
            if t.is_bool:
                return ll.Constant(I1, int(bool(value)))
            iv = int(cast(int, value))
            if iv < 0:
                iv &= (1 << t.bits) - 1
            return ll.Constant(lt, iv)
        if isinstance(t, T.Tuple):
            items = cast(tuple, value)
            return ll.Constant(lt, [self.const(x, it) for x, it in zip(items, t.items)])
        if isinstance(t, T.Pointer):
            return NULL
        if isinstance(t, T.Str) and isinstance(value, str):
            return rtstrings.constant(self.module, value)
        if isinstance(t, T.Array):
            return frozen_array_constant(self.module, value, t)  # type: ignore[arg-type]
        return ll.Constant(lt, 0)

    def alloca(self, t: ll.Type) -> ll.Value:
        with self.b.goto_entry_block():
            return self.b.alloca(t)

    # --- arithmetic -----------------------------------------------------------------------

    def binop(self, op: str, x: ll.Value, y: ll.Value, t: T.Scalar, name: str) -> ll.Value:
        b = self.b
        if t.is_complex:
            return self.complex_binop(op, x, y, name)
        if t.is_float:
            fops = {"add": b.fadd, "sub": b.fsub, "mul": b.fmul, "div": b.fdiv}
            if op in fops:
                return fops[op](x, y, name=name, flags=self.flags)
            if op == "frem":
                return b.frem(x, y, name=name)
        else:
            signed = t.is_signed
            iops = {
                "add": b.add,
                "sub": b.sub,
                "mul": b.mul,
                "and": b.and_,
                "or": b.or_,
                "xor": b.xor,
                "shl": b.shl,
                "tdiv": b.sdiv if signed else b.udiv,
                "trem": b.srem if signed else b.urem,
                "shr": b.ashr if signed else b.lshr,
            }
            if op in iops:
                return iops[op](x, y, name=name)
        raise InternalCompilerError(f"no machine operation {op} for {t}")

    def complex_binop(self, op: str, x: ll.Value, y: ll.Value, name: str) -> ll.Value:
        b, flags = self.b, self.flags
        a, bb = b.extract_value(x, 0), b.extract_value(x, 1)
        c, d = b.extract_value(y, 0), b.extract_value(y, 1)
        if op == "add":
            re, im = b.fadd(a, c, flags=flags), b.fadd(bb, d, flags=flags)
        elif op == "sub":
            re, im = b.fsub(a, c, flags=flags), b.fsub(bb, d, flags=flags)
        elif op == "mul":
            re = b.fsub(b.fmul(a, c, flags=flags), b.fmul(bb, d, flags=flags), flags=flags)
            im = b.fadd(b.fmul(a, d, flags=flags), b.fmul(bb, c, flags=flags), flags=flags)
        else:
            raise InternalCompilerError(f"no complex machine operation {op}")
        agg = b.insert_value(ll.Constant(x.type, ll.Undefined), re, 0)
        return b.insert_value(agg, im, 1, name=name)

    def compare(self, op: str, x: ll.Value, y: ll.Value, t: T.Type, name: str) -> ll.Value:
        b = self.b
        if isinstance(t, T.Scalar) and t.is_complex:
            return self.complex_compare(op, x, y, name)
        if isinstance(t, T.Scalar) and t.is_float:
            if op == "ne" or op == "uno":
                return b.fcmp_unordered(_FLOAT_CMP[op], x, y, name=name)
            return b.fcmp_ordered(_FLOAT_CMP[op], x, y, name=name)
        if isinstance(t, T.Scalar) and t.is_signed:
            return b.icmp_signed(_INT_CMP[op], x, y, name=name)
        return b.icmp_unsigned(_INT_CMP[op], x, y, name=name)

    def complex_compare(self, op: str, x: ll.Value, y: ll.Value, name: str) -> ll.Value:
        """NumPy's comparisons of complex numbers: equal parts for ==; lexicographic order
        for < <= > >= (`x < y` when xr < yr and neither imaginary part is NaN, or xr == yr and
        xi < yi); `uno` (x is NaN: `isnan`) when either part of x or y is."""
        b = self.b
        xr, xi = b.extract_value(x, 0), b.extract_value(x, 1)
        yr, yi = b.extract_value(y, 0), b.extract_value(y, 1)
        if op in {"eq", "ne"}:
            eq = b.and_(b.fcmp_ordered("==", xr, yr), b.fcmp_ordered("==", xi, yi))
            return eq if op == "eq" else b.not_(eq, name=name)
        if op == "uno":
            return b.or_(b.fcmp_unordered("uno", xr, yr), b.fcmp_unordered("uno", xi, yi))
        strict, on_tie = {
            "lt": ("<", "<"),
            "le": ("<", "<="),
            "gt": (">", ">"),
            "ge": (">", ">="),
        }[op]
        imag_numbers = b.fcmp_ordered("ord", xi, yi)
        by_real = b.and_(b.fcmp_ordered(strict, xr, yr), imag_numbers)
        by_imag = b.and_(b.fcmp_ordered("==", xr, yr), b.fcmp_ordered(on_tie, xi, yi))
        return b.or_(by_real, by_imag, name=name)

    def negate(self, x: ll.Value, t: T.Scalar, name: str) -> ll.Value:
        b = self.b
        if t.is_complex:
            undef = ll.Constant(x.type, ll.Undefined)
            agg = b.insert_value(undef, b.fneg(b.extract_value(x, 0)), 0)
            return b.insert_value(agg, b.fneg(b.extract_value(x, 1)), 1, name=name)
        if t.is_float:
            return b.fneg(x, name=name)
        return b.neg(x, name=name)

    def cast(self, x: ll.Value, src: T.Type, dst: T.Type, name: str) -> ll.Value:
        b = self.b
        if src == dst:
            return x
        if isinstance(src, T.Tuple) and isinstance(dst, T.Tuple):
            agg: ll.Value = ll.Constant(llvm_type(dst), ll.Undefined)
            for i, (s, d) in enumerate(zip(src.items, dst.items)):
                agg = b.insert_value(agg, self.cast(b.extract_value(x, i), s, d, ""), i)
            return agg
        if isinstance(src, T.Generator) and isinstance(dst, T.Generator):
            # a Generator made in compiled code lent to a method: its `bitgen_t`, which starts
            # its block's data (`runtime.pcg64`); `refcount` keeps the block alive meanwhile
            assert src.owned and not dst.owned, (src, dst)
            slot = b.gep(x, [I32(0), I32(2)], inbounds=True, source_etype=nrt.BLOCK)
            return b.load(slot, typ=PTR, name=name)
        if isinstance(src, T.Array) and isinstance(dst, T.Array):
            # an array of a known layout joined with others (a phi, a return): every array
            # value stores its strides, so the value is already one of layout A
            assert (src.dtype, src.ndim, dst.layout) == (dst.dtype, dst.ndim, "A"), (src, dst)
            return x
        assert isinstance(src, T.Scalar) and isinstance(dst, T.Scalar), (src, dst)
        lt = llvm_type(dst)
        if dst.is_complex:
            part_t = T.complex_part(dst)
            if src.is_complex:
                re = self.cast(b.extract_value(x, 0), T.complex_part(src), part_t, "")
                im = self.cast(b.extract_value(x, 1), T.complex_part(src), part_t, "")
            else:
                re = self.cast(x, src, part_t, "")
                im = ll.Constant(llvm_type(part_t), 0.0)
            agg = b.insert_value(ll.Constant(lt, ll.Undefined), re, 0)
            return b.insert_value(agg, im, 1, name=name)
        if src.is_complex and dst.is_bool:  # nonzero if either part is (NaN included)
            part = T.complex_part(src)
            re = self.cast(b.extract_value(x, 0), part, dst, "")
            im = self.cast(b.extract_value(x, 1), part, dst, "")
            return b.or_(re, im, name=name)
        if src.is_complex:  # to a real type: the real part (NumPy's cast)
            return self.cast(b.extract_value(x, 0), T.complex_part(src), dst, name)
        if dst.is_bool:
            if src.is_float:
                return b.fcmp_unordered("!=", x, ll.Constant(x.type, 0.0), name=name)
            return b.icmp_unsigned("!=", x, ll.Constant(x.type, 0), name=name)
        if dst.is_float:
            if src.is_float:
                if dst.bits > src.bits:
                    return b.fpext(x, lt, name=name)
                return b.fptrunc(x, lt, name=name)
            if src.is_signed:
                return b.sitofp(x, lt, name=name)
            return b.uitofp(x, lt, name=name)
        # integer destination
        if src.is_float:
            return b.fptosi(x, lt, name=name) if dst.is_signed else b.fptoui(x, lt, name=name)
        src_bits = 1 if src.is_bool else src.bits
        if dst.bits == src_bits:
            return x
        if dst.bits < src_bits:
            return b.trunc(x, lt, name=name)
        return b.sext(x, lt, name=name) if src.is_signed else b.zext(x, lt, name=name)

    # --- runtime --------------------------------------------------------------------------

    def refcount(self, value: ll.Value, t: T.Type, increment: bool) -> None:
        """Incref or decref the runtime block of every array, list, string, dict or set inside
        `value` (one of those, or a tuple of them)."""
        emit_refcount(self.b, self.module, value, t, increment)

    def native_call(self, call: ir.NativeCall) -> ll.Value:
        b = self.b
        args = [self.value(a) for a in call.args]
        out_t = self.type_of(call)
        callee = self.module.globals.get(call.symbol) or ll.Function(
            self.module, ll.FunctionType(PTR, [PTR, *[a.type for a in args]]), name=call.symbol
        )
        self.callees.add(call.symbol)
        slot = self.alloca(out_t)
        b.store(ll.Constant(out_t, None), slot)  # on failure the result reads as null arrays
        self.statuses[call] = b.call(callee, [slot, *args])
        return b.load(slot, name=call.name, typ=out_t)

    # --- terminators ----------------------------------------------------------------------

    def mark_back_edge(
        self,
        block: ir.Block,
        branch: ll.Instruction | None,
        closing: dict[tuple[ir.Block, ir.Block], tuple[Property, ...]],
    ) -> None:
        """Give the branch that ends `block` its loop's metadata if it closes a loop that
        `loopid` marks, one node per loop header."""
        if branch is None:
            return
        for succ in block.successors():
            properties = closing.get((block, succ))
            if properties is not None:
                if succ not in self.loop_ids:
                    self.loop_ids[succ] = LoopID.make(self.module, properties)
                branch.set_metadata("llvm.loop", self.loop_ids[succ])
                return

    def terminator(self, term: ir.Terminator) -> ll.Instruction | None:
        """Emit `term`; the branch instruction if it is one (for loop metadata)."""
        b = self.b
        match term:
            case ir.Jump(target=t):
                return b.branch(self.blocks[t])
            case ir.Branch(cond=c, if_true=t, if_false=f):
                return b.cbranch(self.value(c), self.blocks[t], self.blocks[f])
            case ir.Return(value=v):
                if not isinstance(self.fn.return_type, T.NoneType):
                    b.store(self.value(v), self.kernel.args[0])
                b.ret(NULL)
            case ir.Raise(exc=exc, message=msg):
                b.ret(self.exception_descriptor(exc, msg))
            case ir.Reraise(call=call):
                b.ret(self.statuses[call])
            case ir.RaiseValue(value=v):
                b.ret(self.value(v))
            case _:
                raise InternalCompilerError(f"unknown terminator {term!r}")
        return None

    def exception_descriptor(self, exc: type, message: str) -> ll.Value:
        key = (exc.__name__, message)
        if key not in self.exc_descriptors:
            slot = exception_slot(self.module, exc)
            data = bytearray(message.encode("utf-8") + b"\0")
            text_t = ll.ArrayType(I8, len(data))
            text = ll.GlobalVariable(self.module, text_t, name=self.module.get_unique_name("msg"))
            text.global_constant = True
            text.linkage = "private"
            text.initializer = ll.Constant(text_t, data)
            desc = ll.GlobalVariable(
                self.module, EXC_DESCRIPTOR, name=self.module.get_unique_name("exc")
            )
            desc.global_constant = True
            desc.linkage = "private"
            desc.initializer = ll.Constant(EXC_DESCRIPTOR, [slot, text, NULL])
            self.exc_descriptors[key] = desc
        return self.exc_descriptors[key]


# --- one emitter per low-IR class ------------------------------------------------------------

_NOTHING = ll.Constant(I8, 0)  # the value of an instruction of type none


def _binop(g: KernelGen, i: ir.BinOp) -> ll.Value:
    t = cast(T.Scalar, i.lhs.type)
    return g.binop(i.op, g.value(i.lhs), g.value(i.rhs), t, i.name)


def _compare(g: KernelGen, i: ir.Compare) -> ll.Value:
    return g.compare(i.op, g.value(i.lhs), g.value(i.rhs), cast(T.Type, i.lhs.type), i.name)


def _unary(g: KernelGen, i: ir.UnaryOp) -> ll.Value:
    if i.op != "neg":
        raise InternalCompilerError(f"`{i.op}` reached codegen unlowered", loc=i.loc)
    return g.negate(g.value(i.operand), cast(T.Scalar, i.operand.type), i.name)


def _cast(g: KernelGen, i: ir.Cast) -> ll.Value:
    return g.cast(g.value(i.value), cast(T.Type, i.value.type), cast(T.Type, i.type), i.name)


def _select(g: KernelGen, i: ir.Select) -> ll.Value:
    return g.b.select(g.value(i.cond), g.value(i.if_true), g.value(i.if_false), name=i.name)


def _make_tuple(g: KernelGen, i: ir.MakeTuple) -> ll.Value:
    agg: ll.Value = ll.Constant(g.type_of(i), ll.Undefined)
    for k, item in enumerate(i.items):
        agg = g.b.insert_value(agg, g.value(item), k)
    return agg


def _intrinsic(g: KernelGen, i: ir.Intrinsic) -> ll.Value:
    args = [g.value(a) for a in i.args]
    arg_types = [cast(T.Type, a.type) for a in i.args]
    library = g.latency_bound(i) or g.in_cold_loop(i)
    return emit_math(g.b, i.fn, args, arg_types, g.flags, i.name, library)


def _load(g: KernelGen, i: ir.Load) -> ll.Value:
    t = cast(T.Scalar, i.type)
    value = g.b.load(g.value(i.ptr), typ=memory_type(t), name=i.name)
    value.align = alignment(t)
    if t.is_bool:
        return g.b.icmp_unsigned("!=", value, ll.Constant(I8, 0))
    return value


def _store(g: KernelGen, i: ir.Store) -> ll.Value:
    t = cast(T.Scalar, i.value.type)
    value = g.value(i.value)
    if t.is_bool:
        value = g.b.zext(value, I8)
    g.b.store(value, g.value(i.ptr)).align = alignment(t)
    return _NOTHING


def _ptr_add(g: KernelGen, i: ir.PtrAdd) -> ll.Value:
    ptr, offset = g.value(i.ptr), g.value(i.offset)
    return g.b.gep(ptr, [offset], inbounds=True, name=i.name, source_etype=I8)


def _ptr_to_int(g: KernelGen, i: ir.PtrToInt) -> ll.Value:
    return g.b.ptrtoint(g.value(i.ptr), I64, name=i.name)


def _memset(g: KernelGen, i: ir.MemSet) -> ll.Value:
    b = g.b
    byte = g.value(i.byte)
    if byte.type != I8:
        byte = b.trunc(byte, I8)
    fn = g.module.declare_intrinsic("llvm.memset", [PTR, I64])
    b.call(fn, [g.value(i.dest), byte, g.value(i.nbytes), ll.Constant(I1, 0)])
    return _NOTHING


_ARRAY_PART_INDEX = {"block": 0, "data": 1, "shape": 2, "stride": 3}


def _array_field(g: KernelGen, i: ir.ArrayField) -> ll.Value:
    index = _ARRAY_PART_INDEX[i.part]
    where: int | list[int] = [index, i.axis] if index >= 2 else index
    return g.b.extract_value(g.value(i.array), where, name=i.name)


def _make_array(g: KernelGen, i: ir.MakeArray) -> ll.Value:
    b = g.b
    agg: ll.Value = ll.Constant(g.type_of(i), ll.Undefined)
    agg = b.insert_value(agg, g.value(i.block), 0)
    agg = b.insert_value(agg, g.value(i.data), 1)
    for k, (extent, stride) in enumerate(zip(i.shape, i.strides)):
        agg = b.insert_value(agg, g.value(extent), [2, k])
        agg = b.insert_value(agg, g.value(stride), [3, k])
    return agg


def _alloc(g: KernelGen, i: ir.Alloc) -> ll.Value:
    alloc = declare_function(g.module, nrt.ALLOC, PTR, [I64])
    return g.b.call(alloc, [g.value(i.nbytes)], name=i.name)


def _block_data(g: KernelGen, i: ir.BlockData) -> ll.Value:
    ptr = g.b.gep(g.value(i.block), [I32(0), I32(2)], inbounds=True, source_etype=nrt.BLOCK)
    return g.b.load(ptr, typ=PTR, name=i.name)


def _incref(g: KernelGen, i: ir.Incref) -> ll.Value:
    g.refcount(g.value(i.value), cast(T.Type, i.value.type), increment=True)
    return _NOTHING


def _decref(g: KernelGen, i: ir.Decref) -> ll.Value:
    g.refcount(g.value(i.value), cast(T.Type, i.value.type), increment=False)
    return _NOTHING


def _extract(g: KernelGen, i: ir.Extract) -> ll.Value:
    return g.b.extract_value(g.value(i.aggregate), i.index, name=i.name)


def _extract_dynamic(g: KernelGen, i: ir.ExtractDynamic) -> ll.Value:
    """A tuple indexed by a run-time value: spilled to a stack array and loaded from there."""
    b = g.b
    tup = g.value(i.aggregate)
    item_t = g.type_of(i)
    n = len(tup.type.elements)
    slot = g.alloca(ll.ArrayType(item_t, n))
    for k in range(n):
        b.store(b.extract_value(tup, k), b.gep(slot, [I32(0), I32(k)], inbounds=True))
    ptr = b.gep(slot, [I32(0), g.value(i.index)], inbounds=True)
    return b.load(ptr, name=i.name, typ=item_t)


def _real(g: KernelGen, i: ir.RealPart) -> ll.Value:
    return g.b.extract_value(g.value(i.value), 0, name=i.name)


def _imag(g: KernelGen, i: ir.ImagPart) -> ll.Value:
    return g.b.extract_value(g.value(i.value), 1, name=i.name)


def _make_complex(g: KernelGen, i: ir.MakeComplex) -> ll.Value:
    agg = g.b.insert_value(ll.Constant(g.type_of(i), ll.Undefined), g.value(i.real), 0)
    return g.b.insert_value(agg, g.value(i.imag), 1, name=i.name)


def _list_op(g: KernelGen, i: ir.ListOp) -> ll.Value:
    return emit_list_op(g.b, g.module, i, [g.value(a) for a in i.args])


def _call_failed(g: KernelGen, i: ir.CallFailed) -> ll.Value:
    return g.b.icmp_unsigned("!=", g.statuses[i.call], NULL, name=i.name)


def _exc_raised(g: KernelGen, i: ir.ExcRaised) -> ll.Value:
    return g.exception_descriptor(i.exc, i.message)


def _call_status(g: KernelGen, i: ir.CallStatus) -> ll.Value:
    return g.statuses[i.call]


def _exc_match(g: KernelGen, i: ir.ExcMatch) -> ll.Value:
    """Whether the descriptor's class is one of `classes` or a subclass: its class slot is
    compared with those of every built-in exception class that qualifies."""
    b = g.b
    if any(c is BaseException for c in i.classes):
        return ll.Constant(I1, 1)
    gep = b.gep(g.value(i.value), [I32(0), I32(0)], source_etype=EXC_DESCRIPTOR)
    slot = b.load(gep, typ=PTR)
    result: ll.Value = ll.Constant(I1, 0)
    for exc in (*builtin_exceptions(), *externs.extra_exceptions()):
        if issubclass(exc, i.classes):
            same = b.icmp_unsigned("==", slot, exception_slot(g.module, exc))
            result = b.or_(result, same)
    return result


_EMITTERS: dict[type, Callable[[KernelGen, Any], ll.Value]] = {
    ir.BinOp: _binop,
    ir.Compare: _compare,
    ir.UnaryOp: _unary,
    ir.Cast: _cast,
    ir.Select: _select,
    ir.MakeTuple: _make_tuple,
    ir.NativeCall: KernelGen.native_call,
    ir.ExcRaised: _exc_raised,
    ir.ExcFormatted: emit_exc_formatted,
    ir.CallStatus: _call_status,
    ir.ExcMatch: _exc_match,
    ir.Intrinsic: _intrinsic,
    ir.Load: _load,
    ir.Store: _store,
    ir.PtrAdd: _ptr_add,
    ir.PtrToInt: _ptr_to_int,
    ir.MemSet: _memset,
    ir.ArrayField: _array_field,
    ir.MakeArray: _make_array,
    ir.Alloc: _alloc,
    ir.BlockData: _block_data,
    ir.Incref: _incref,
    ir.Decref: _decref,
    ir.Extract: _extract,
    ir.ExtractDynamic: _extract_dynamic,
    ir.RealPart: _real,
    ir.ImagPart: _imag,
    ir.MakeComplex: _make_complex,
    ir.CallFailed: _call_failed,
    ir.ListOp: _list_op,
    ir.ColdLoop: lambda g, i: None,  # read by `loopid` from the header: nothing to compute
}


def emitted_classes() -> set[type]:
    """The instruction classes codegen has an emitter for (phis are emitted by the driver)."""
    return set(_EMITTERS)
