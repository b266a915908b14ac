"""Stage `codegen`: low IR -> an `llvmlite.ir.Module`.

In:  a lowered `ir.Function` (machine-level operations only).
Out: an LLVM module holding
     * the kernel `ptr @<symbol>(ptr %ret, <args>)`: it writes its result through `%ret` and
       returns null, or returns a pointer to a constant exception descriptor
       `{ptr exception-class slot, ptr message}` that callers propagate unchanged;
     * the Python entry point `ptr @<symbol>.py(ptr self, ptr args, i64 nargs)` (the
       METH_FASTCALL convention): it unboxes the Python arguments itself, calls the kernel and
       boxes the result, so a call from Python never goes through ctypes.
Only this module, `llvm_opt` and `machine_code` touch llvmlite.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from llvmlite import ir as ll

from jitcore.errors import InternalCompilerError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.markers import MISSING
from jitcore.runtime import nrt

PTR = ll.PointerType()
I1, I8, I32, I64 = ll.IntType(1), ll.IntType(8), ll.IntType(32), ll.IntType(64)
F32, F64 = ll.FloatType(), ll.DoubleType()
NULL = ll.Constant(PTR, None)

_LLVM_INTRINSICS = {
    "sqrt",
    "floor",
    "ceil",
    "trunc",
    "fabs",
    "copysign",
    "roundeven",
    "pow",
    "exp",
    "exp2",
    "log",
    "log2",
    "log10",
    "sin",
    "cos",
    "fma",
    "minnum",
    "maxnum",
}
_LIBM = {
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "expm1",
    "log1p",
    "erf",
    "erfc",
    "tgamma",
    "lgamma",
    "hypot",
    "atan2",
    "cbrt",
}
_INT_CMP = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_FLOAT_CMP = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "uno": "uno"}


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
    if isinstance(t, T.Array):
        dims = ll.ArrayType(I64, t.ndim)
        return ll.LiteralStructType([PTR, PTR, dims, dims])
    if isinstance(t, T.Pointer):
        return PTR
    if isinstance(t, T.NoneType | T.Opaque):
        return I8
    raise InternalCompilerError(f"no LLVM type for {t}")


def memory_type(t: T.Scalar) -> ll.Type:
    """How an array element is stored: bools take a byte, as in NumPy."""
    return I8 if t.is_bool else llvm_type(t)


@dataclass
class CodegenOptions:
    fastmath: bool = False


@dataclass
class GeneratedModule:
    module: ll.Module
    kernel: str  # symbol of the kernel
    entry: str  # symbol of the Python entry point
    callees: list[str] = field(default_factory=list)


def generate_module(fn: ir.Function, symbol: str, options: CodegenOptions) -> GeneratedModule:
    """Emit the kernel and its Python entry point for a lowered function (the `codegen` stage)."""
    module = ll.Module(name=symbol)
    gen = _FunctionGen(module, fn, symbol, options)
    gen.emit()
    _emit_python_entry(module, fn, gen.kernel, f"{symbol}.py")
    return GeneratedModule(module, symbol, f"{symbol}.py", sorted(gen.callees))


class _FunctionGen:
    def __init__(
        self, module: ll.Module, fn: ir.Function, symbol: str, options: CodegenOptions
    ) -> None:
        self.module = module
        self.fn = fn
        self.options = options
        self.flags = ("fast",) if options.fastmath else ()
        arg_types = [llvm_type(a.type) for a in fn.args]  # type: ignore[arg-type]
        fnty = ll.FunctionType(PTR, [PTR, *arg_types])
        self.kernel = ll.Function(module, fnty, name=symbol)
        # The Python entry point calls the kernel once per call: inlining it there would only
        # make LLVM optimize and compile every loop twice.
        self.kernel.attributes.add("noinline")
        self.kernel.args[0].name = "ret"
        self.kernel.args[0].add_attribute("noalias")
        self.values: dict[ir.Value, ll.Value] = {}
        for arg, llarg in zip(fn.args, self.kernel.args[1:]):
            llarg.name = arg.name
            self.values[arg] = llarg
        self.blocks = {b: self.kernel.append_basic_block(b.label) for b in fn.blocks}
        self.alloca_block = self.blocks[fn.entry]
        self.callees: set[str] = set()
        self.statuses: dict[str, ll.Value] = {}  # NativeCall name -> its status
        self.exc_descriptors: dict[tuple[str, str], ll.GlobalVariable] = {}
        self.b: ll.IRBuilder = ll.IRBuilder()

    # --- driver ---------------------------------------------------------------------------

    def emit(self) -> None:
        phis: list[tuple[ir.Phi, ll.PhiInstr]] = []
        ends: dict[ir.Block, ll.Block] = {}
        for block in self.fn.reverse_postorder():
            self.b.position_at_end(self.blocks[block])
            for instr in block.instrs:
                try:
                    if isinstance(instr, ir.Phi):
                        llphi = self.b.phi(llvm_type(instr.type), name=instr.name)  # type: ignore[arg-type]
                        phis.append((instr, llphi))
                        self.values[instr] = llphi
                    else:
                        self.values[instr] = self.instr(instr)
                except InternalCompilerError:
                    raise
                except Exception as exc:
                    raise InternalCompilerError(
                        f"codegen failed on `{instr.opcode}` ({type(exc).__name__}: {exc})",
                        loc=instr.loc,
                    ) from exc
            ends[block] = self.b.block  # inline code (refcounts) may have split the block
            self.terminator(block.terminator)  # type: ignore[arg-type]
        for phi, llphi in phis:
            for pred, value in phi.incoming.items():
                llphi.add_incoming(self.value(value), ends[pred])
        for block in self.fn.blocks:
            if block not in self.values and not self.blocks[block].is_terminated:
                with self.b.goto_block(self.blocks[block]):
                    self.b.unreachable()

    def value(self, v: ir.Value) -> ll.Value:
        if isinstance(v, ir.Const):
            return self.const(v.value, v.type)  # type: ignore[arg-type]
        try:
            return self.values[v]
        except KeyError:
            raise InternalCompilerError(
                f"value {getattr(v, 'name', v)!r} used before it is defined"
            ) from None

    def const(self, value: object, t: T.Type) -> ll.Constant:
        lt = llvm_type(t)
        if value is MISSING:
            return ll.Constant(lt, None)
        if isinstance(t, T.Scalar):
            if t.is_complex:
                c = complex(cast(complex, value))
                part = lt.elements[0]
                return ll.Constant(lt, [ll.Constant(part, c.real), ll.Constant(part, c.imag)])
            if t.is_float:
                return ll.Constant(lt, float(value))  # type: ignore[arg-type]
            if t.is_bool:
                return ll.Constant(I1, int(bool(value)))
            iv = int(value)  # type: ignore[call-overload]
            if iv < 0:
                iv &= (1 << t.bits) - 1
            return ll.Constant(lt, iv)
        if isinstance(t, T.Tuple):
            return ll.Constant(lt, [self.const(x, it) for x, it in zip(value, t.items)])  # type: ignore[call-overload]
        if isinstance(t, T.Pointer):
            return ll.Constant(PTR, None)
        return ll.Constant(lt, 0)

    # --- instructions ---------------------------------------------------------------------

    def instr(self, instr: ir.Instr) -> ll.Value:
        b = self.b
        name = instr.name
        match instr:
            case ir.BinOp(op=op, lhs=lhs, rhs=rhs):
                return self.binop(op, self.value(lhs), self.value(rhs), lhs.type, name)  # type: ignore[arg-type]
            case ir.Compare(op=op, lhs=lhs, rhs=rhs):
                return self.compare(op, self.value(lhs), self.value(rhs), lhs.type, name)  # type: ignore[arg-type]
            case ir.UnaryOp(op="neg", operand=x):
                return self.negate(self.value(x), x.type, name)  # type: ignore[arg-type]
            case ir.Cast(value=v):
                return self.cast(self.value(v), v.type, instr.type, name)  # type: ignore[arg-type]
            case ir.Select(cond=c, if_true=x, if_false=y):
                chosen = b.select(self.value(c), self.value(x), self.value(y), name=name)
                self.refcount(chosen, instr.type, increment=True)  # type: ignore[arg-type]
                return chosen
            case ir.MakeTuple(items=items):
                agg: ll.Value = ll.Constant(llvm_type(instr.type), ll.Undefined)  # type: ignore[arg-type]
                for i, item in enumerate(items):
                    value = self.value(item)
                    self.refcount(value, item.type, increment=True)  # type: ignore[arg-type]
                    agg = b.insert_value(agg, value, i)
                return agg
            case ir.Intrinsic(fn=fn, args=args, attrs=attrs):
                return self.intrinsic(
                    fn,
                    [self.value(a) for a in args],
                    [cast(T.Type, a.type) for a in args],
                    cast(T.Type, instr.type),
                    attrs,
                    name,
                )
            case ir.NativeCall(symbol=symbol, args=args):
                return self.native_call(symbol, [self.value(a) for a in args], instr.type, name)  # type: ignore[arg-type]
        raise InternalCompilerError(f"`{instr.opcode}` reached codegen unlowered", loc=instr.loc)

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
        b = self.b
        a, bb = b.extract_value(x, 0), b.extract_value(x, 1)
        c, d = b.extract_value(y, 0), b.extract_value(y, 1)
        if op == "add":
            re, im = b.fadd(a, c, flags=self.flags), b.fadd(bb, d, flags=self.flags)
        elif op == "sub":
            re, im = b.fsub(a, c, flags=self.flags), b.fsub(bb, d, flags=self.flags)
        elif op == "mul":
            re = b.fsub(
                b.fmul(a, c, flags=self.flags), b.fmul(bb, d, flags=self.flags), flags=self.flags
            )
            im = b.fadd(
                b.fmul(a, d, flags=self.flags), b.fmul(bb, c, flags=self.flags), flags=self.flags
            )
        else:
            raise InternalCompilerError(f"no complex machine operation {op}")
        agg = b.insert_value(ll.Constant(x.type, ll.Undefined), re, 0)
        return b.insert_value(agg, im, 1, name=name)

    def compare(self, op: str, x: ll.Value, y: ll.Value, t: T.Scalar, name: str) -> ll.Value:
        b = self.b
        if isinstance(t, T.Scalar) and t.is_complex:
            re = b.fcmp_ordered("==", b.extract_value(x, 0), b.extract_value(y, 0))
            im = b.fcmp_ordered("==", b.extract_value(x, 1), b.extract_value(y, 1))
            eq = b.and_(re, im)
            return eq if op == "eq" else b.not_(eq, name=name)
        if isinstance(t, T.Scalar) and t.is_float:
            if op == "ne" or op == "uno":
                return b.fcmp_unordered(_FLOAT_CMP[op], x, y, name=name)
            return b.fcmp_ordered(_FLOAT_CMP[op], x, y, name=name)
        if isinstance(t, T.Scalar) and t.is_signed:
            return b.icmp_signed(_INT_CMP[op], x, y, name=name)
        return b.icmp_unsigned(_INT_CMP[op], x, y, name=name)

    def negate(self, x: ll.Value, t: T.Scalar, name: str) -> ll.Value:
        b = self.b
        if t.is_complex:
            agg = b.insert_value(
                ll.Constant(x.type, ll.Undefined), b.fneg(b.extract_value(x, 0)), 0
            )
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
        if src.is_complex:  # to a real type: the real part (NumPy's cast)
            return self.cast(b.extract_value(x, 0), T.complex_part(src), dst, name)
        if dst.is_bool:
            if src.is_float:
                return b.fcmp_unordered("!=", x, ll.Constant(x.type, 0.0), name=name)
            return b.icmp_unsigned("!=", x, ll.Constant(x.type, 0), name=name)
        if dst.is_float:
            if src.is_float:
                return (
                    b.fpext(x, lt, name=name)
                    if dst.bits > src.bits
                    else b.fptrunc(x, lt, name=name)
                )
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

    # --- intrinsics -----------------------------------------------------------------------

    def intrinsic(
        self,
        fn: str,
        args: list[ll.Value],
        arg_types: list[T.Type],
        out: T.Type,
        attrs: tuple,
        name: str,
    ) -> ll.Value:
        b = self.b
        if fn == "tanh" and args[0].type == F64:
            return self.tanh_f64(args[0], name)
        if fn == "exp" and args[0].type == F64:
            return self.exp_f64(args[0], name)
        if fn in _LLVM_INTRINSICS:
            ft = args[0].type
            fnty = ll.FunctionType(ft, [ft] * len(args))
            callee = self.module.declare_intrinsic(f"llvm.{fn}", [ft], fnty)
            return b.call(callee, args, name=name, fastmath=self.flags)
        if fn in _LIBM:
            ft = args[0].type
            cname = fn + ("f" if ft == F32 else "")
            callee = self._declare(cname, ll.FunctionType(ft, [a.type for a in args]))
            return b.call(callee, args, name=name)
        if fn == "frem":
            return b.frem(args[0], args[1], name=name)
        if fn == "creal":
            return b.extract_value(args[0], 0, name=name)
        if fn == "cimag":
            return b.extract_value(args[0], 1, name=name)
        if fn == "complex":
            lt = llvm_type(out)
            agg = b.insert_value(ll.Constant(lt, ll.Undefined), args[0], 0)
            return b.insert_value(agg, args[1], 1, name=name)
        if fn == "call_failed":
            return b.icmp_unsigned("!=", self.statuses[attrs[0]], NULL, name=name)
        if fn == "extract":
            item = b.extract_value(args[0], attrs[0], name=name)
            self.refcount(item, out, increment=True)  # the item is a new reference
            return item
        if fn == "extract_dyn":  # a homogeneous tuple indexed by a variable: spill to an array
            item_t = llvm_type(out)
            n = len(args[0].type.elements)
            array_t = ll.ArrayType(item_t, n)
            slot = self.alloca(array_t)
            for i in range(n):
                b.store(b.extract_value(args[0], i), b.gep(slot, [I32(0), I32(i)], inbounds=True))
            ptr = b.gep(slot, [I32(0), args[1]], inbounds=True)
            item = b.load(ptr, name=name, typ=item_t)
            self.refcount(item, out, increment=True)
            return item
        if fn in _MEMORY_INTRINSICS:
            return _MEMORY_INTRINSICS[fn](self, args, arg_types, out, attrs, name)
        if fn in {"ipow", "powmod", "gcd"}:
            helper = _helper(self.module, fn, args[0].type, arg_types[0])
            return b.call(helper, args, name=name)
        raise InternalCompilerError(f"unknown intrinsic {fn}")

    def tanh_f64(self, x: ll.Value, name: str) -> ll.Value:
        """tanh in straight-line arithmetic (Cephes' rational approximation near 0, and
        1 - 2/(exp(2|x|) + 1) with Cephes' exp elsewhere), so that loops calling it vectorize;
        a scalar libm call would keep them scalar. Within 2 ULPs of the C library's tanh."""
        b = self.b

        def f(v: float) -> ll.Constant:
            return ll.Constant(F64, v)

        def call(intrinsic: str, *values: ll.Value) -> ll.Value:
            fnty = ll.FunctionType(F64, [F64] * len(values))
            return b.call(
                self.module.declare_intrinsic(f"llvm.{intrinsic}", [F64], fnty), list(values)
            )

        z = call("fabs", x)
        # |x| < 0.625: x + x^3 P(x^2)/Q(x^2)
        s = b.fmul(x, x)
        p = b.fadd(
            b.fmul(
                b.fadd(b.fmul(f(-9.64399179425052238628e-1), s), f(-9.92877231001918586564e1)), s
            ),
            f(-1.61468768441708447952e3),
        )
        q = b.fadd(
            b.fmul(
                b.fadd(
                    b.fmul(b.fadd(s, f(1.12811678491632931402e2)), s), f(2.23548839060100448583e3)
                ),
                s,
            ),
            f(4.84406305325125486048e3),
        )
        small = b.fadd(x, b.fmul(b.fmul(x, s), b.fdiv(p, q)))
        small = b.select(b.fcmp_ordered("==", x, f(0.0)), x, small)  # tanh(-0.0) is -0.0
        # otherwise: 1 - 2/(e + 1), e = exp(2|x|) for |x| <= 20 (tanh is 1.0 in doubles beyond)
        w = b.fmul(f(2.0), b.select(b.fcmp_ordered("<", z, f(20.0)), z, f(20.0)))
        e = self.exp_f64_range(w)
        large = b.fsub(f(1.0), b.fdiv(f(2.0), b.fadd(e, f(1.0))))
        large = call("copysign", large, x)
        use_small = b.fcmp_unordered("<", z, f(0.625))  # NaN goes this way and stays NaN
        return b.select(use_small, small, large, name=name)

    def exp_f64(self, x: ll.Value, name: str) -> ll.Value:
        """exp over the whole line in straight-line arithmetic (vectorizable): Cephes' form,
        with 2**n applied as two exact halves so that subnormal results round once; inf above
        709.78, 0 below -745.13, NaN stays NaN. Within 1 ULP of the C library's exp."""
        b = self.b

        def f(v: float) -> ll.Constant:
            return ll.Constant(F64, v)

        clamped = b.select(b.fcmp_ordered(">", x, f(709.9)), f(709.9), x)
        clamped = b.select(b.fcmp_ordered("<", clamped, f(-745.2)), f(-745.2), clamped)
        clamped = b.select(b.fcmp_unordered("!=", x, x), f(0.0), clamped)  # NaN: any finite
        n, er = self._exp_reduce(clamped)
        half = b.ashr(n, I64(1))
        rest = b.sub(n, half)
        result = b.fmul(b.fmul(er, self._pow2(half)), self._pow2(rest))
        result = b.select(
            b.fcmp_ordered(">", x, f(7.09782712893383996843e2)), f(float("inf")), result
        )
        result = b.select(b.fcmp_ordered("<", x, f(-7.451332191019412076235e2)), f(0.0), result)
        return b.select(b.fcmp_unordered("!=", x, x), x, result, name=name)

    def _pow2(self, n: ll.Value) -> ll.Value:
        """2.0**n for -1022 <= n <= 1023, from its exponent bits."""
        b = self.b
        return b.bitcast(b.shl(b.add(n, I64(1023)), I64(52)), F64)

    def _exp_reduce(self, x: ll.Value) -> tuple[ll.Value, ll.Value]:
        """(n, e) with exp(x) = e * 2**n, |x - n ln2| <= ln2/2 (Cephes' exp.c)."""
        b = self.b

        def f(v: float) -> ll.Constant:
            return ll.Constant(F64, v)

        floor_t = ll.FunctionType(F64, [F64])
        floor = self.module.declare_intrinsic("llvm.floor", [F64], floor_t)
        px = b.call(floor, [b.fadd(b.fmul(f(1.4426950408889634073599), x), f(0.5))])
        n = b.fptosi(px, I64)
        r = b.fsub(
            b.fsub(x, b.fmul(px, f(6.93145751953125e-1))), b.fmul(px, f(1.42860682030941723212e-6))
        )
        rr = b.fmul(r, r)
        pp = b.fmul(
            r,
            b.fadd(
                b.fmul(
                    b.fadd(b.fmul(f(1.26177193074810590878e-4), rr), f(3.02994407707441961300e-2)),
                    rr,
                ),
                f(9.99999999999999999910e-1),
            ),
        )
        qq = b.fadd(
            b.fmul(
                b.fadd(
                    b.fmul(
                        b.fadd(
                            b.fmul(f(3.00198505138664455042e-6), rr), f(2.52448340349684104192e-3)
                        ),
                        rr,
                    ),
                    f(2.27265548208155028766e-1),
                ),
                rr,
            ),
            f(2.00000000000000000009e0),
        )
        return n, b.fadd(f(1.0), b.fmul(f(2.0), b.fdiv(pp, b.fsub(qq, pp))))

    def exp_f64_range(self, x: ll.Value) -> ll.Value:
        """exp for 1 <= x <= 40, where no overflow, underflow or NaN handling is needed."""
        n, e = self._exp_reduce(x)
        return self.b.fmul(e, self._pow2(n))

    def runtime_function(self, name: str, ret: ll.Type, args: list[ll.Type]) -> ll.Function:
        return self._declare(name, ll.FunctionType(ret, args))

    def refcount(self, value: ll.Value, t: T.Type, increment: bool) -> None:
        """Incref or decref every array inside `value` (an array, or a tuple holding arrays)."""
        b = self.b
        if isinstance(t, T.Array):
            block = b.extract_value(value, 0)
            if increment:
                nrt.emit_incref(b, block)
            else:
                nrt.emit_decref(b, block, self.runtime_function(nrt.RELEASE, ll.VoidType(), [PTR]))
        elif isinstance(t, T.Tuple):
            for i, item in enumerate(t.items):
                if T.contains_array(item):
                    self.refcount(b.extract_value(value, i), item, increment)

    def _declare(self, cname: str, fnty: ll.FunctionType) -> ll.Function:
        existing = self.module.globals.get(cname)
        if existing is not None:
            return existing
        return ll.Function(self.module, fnty, name=cname)

    def alloca(self, t: ll.Type) -> ll.Value:
        with self.b.goto_entry_block():
            return self.b.alloca(t)

    def native_call(self, symbol: str, args: list[ll.Value], out: T.Type, name: str) -> ll.Value:
        b = self.b
        out_t = llvm_type(out)
        callee = self.module.globals.get(symbol)
        if callee is None:
            callee = ll.Function(
                self.module, ll.FunctionType(PTR, [PTR, *[a.type for a in args]]), name=symbol
            )
        self.callees.add(symbol)
        slot = self.alloca(out_t)
        b.store(ll.Constant(out_t, None), slot)  # on failure the result reads as null arrays
        status = b.call(callee, [slot, *args])
        self.statuses[name] = status
        return b.load(slot, name=name, typ=out_t)

    # --- terminators ----------------------------------------------------------------------

    def terminator(self, term: ir.Terminator) -> None:
        b = self.b
        match term:
            case ir.Jump(target=t):
                b.branch(self.blocks[t])
            case ir.Branch(cond=c, if_true=t, if_false=f):
                b.cbranch(self.value(c), self.blocks[t], self.blocks[f])
            case ir.Return(value=v):
                if not isinstance(self.fn.return_type, T.NoneType):
                    b.store(self.value(v), self.kernel.args[0])
                b.ret(NULL)
            case ir.Raise(exc=exc, message=msg):
                b.ret(self.exception_descriptor(exc, msg))
            case ir.Reraise(call=call):
                b.ret(self.statuses[call.name])
            case _:
                raise InternalCompilerError(f"unknown terminator {term!r}")

    def exception_descriptor(self, exc: type, message: str) -> ll.Value:
        key = (exc.__name__, message)
        if key not in self.exc_descriptors:
            slot = exception_slot(self.module, exc)
            data = bytearray(message.encode("utf-8") + b"\0")
            text = ll.GlobalVariable(
                self.module, ll.ArrayType(I8, len(data)), name=self.module.get_unique_name("msg")
            )
            text.global_constant = True
            text.linkage = "private"
            text.initializer = ll.Constant(ll.ArrayType(I8, len(data)), data)
            desc_t = ll.LiteralStructType([PTR, PTR])
            desc = ll.GlobalVariable(self.module, desc_t, name=self.module.get_unique_name("exc"))
            desc.global_constant = True
            desc.linkage = "private"
            desc.initializer = ll.Constant(desc_t, [slot, text])
            self.exc_descriptors[key] = desc
        return self.exc_descriptors[key]


def exception_slot(module: ll.Module, exc: type) -> ll.GlobalVariable:
    """The `PyObject *PyExc_<Name>` global of a built-in exception class."""
    import builtins

    if getattr(builtins, exc.__name__, None) is not exc:
        raise InternalCompilerError(
            f"only built-in exceptions can be raised, not {exc.__qualname__}"
        )
    name = f"PyExc_{exc.__name__}"
    existing = module.globals.get(name)
    if existing is not None:
        return existing
    return ll.GlobalVariable(module, PTR, name=name)


# --- arrays and memory ---------------------------------------------------------------------


def _arr_field(gen: _FunctionGen, args, arg_types, out, attrs, name) -> ll.Value:  # noqa: ANN001
    kind = attrs[0]
    if kind == "meminfo":
        return gen.b.extract_value(args[0], 0, name=name)
    if kind == "data":
        return gen.b.extract_value(args[0], 1, name=name)
    index = 2 if kind == "shape" else 3
    return gen.b.extract_value(args[0], [index, attrs[1]], name=name)


def _arr_make(gen: _FunctionGen, args, arg_types, out, attrs, name) -> ll.Value:  # noqa: ANN001
    """A new array value. A view shares (and increfs) its parent's block; attrs ("new",) takes
    over a freshly allocated block."""
    b = gen.b
    if "new" not in attrs:
        nrt.emit_incref(b, args[0])
    ndim = out.ndim
    agg: ll.Value = ll.Constant(llvm_type(out), ll.Undefined)
    agg = b.insert_value(agg, args[0], 0)
    agg = b.insert_value(agg, args[1], 1)
    for k in range(ndim):
        agg = b.insert_value(agg, args[2 + k], [2, k])
        agg = b.insert_value(agg, args[2 + ndim + k], [3, k])
    return agg


def _ptr_add(gen: _FunctionGen, args, arg_types, out, attrs, name) -> ll.Value:  # noqa: ANN001
    return gen.b.gep(args[0], [args[1]], inbounds=True, name=name, source_etype=I8)


def _ptr_int(gen: _FunctionGen, args, arg_types, out, attrs, name) -> ll.Value:  # noqa: ANN001
    return gen.b.ptrtoint(args[0], I64, name=name)


def _load(gen: _FunctionGen, args, arg_types, out, attrs, name) -> ll.Value:  # noqa: ANN001
    b = gen.b
    value = b.load(args[0], typ=memory_type(out), name=name)
    value.align = _alignment(out)
    if out.is_bool:
        return b.icmp_unsigned("!=", value, ll.Constant(I8, 0))
    return value


def _store(gen: _FunctionGen, args, arg_types, out, attrs, name) -> ll.Value:  # noqa: ANN001
    b = gen.b
    value = args[1]
    if arg_types[1].is_bool:
        value = b.zext(value, I8)
    store = b.store(value, args[0])
    store.align = _alignment(arg_types[1])
    return ll.Constant(I8, 0)


def _alignment(t: T.Scalar) -> int:
    """Element alignment NumPy guarantees for aligned arrays (complex: that of its parts)."""
    return t.bits // 16 if t.is_complex else max(1, t.bits // 8)


def _rt_alloc(gen: _FunctionGen, args, arg_types, out, attrs, name) -> ll.Value:  # noqa: ANN001
    return gen.b.call(gen.runtime_function(nrt.ALLOC, PTR, [I64]), args, name=name)


def _block_data(gen: _FunctionGen, args, arg_types, out, attrs, name) -> ll.Value:  # noqa: ANN001
    ptr = gen.b.gep(args[0], [I32(0), I32(2)], inbounds=True, source_etype=nrt.BLOCK)
    return gen.b.load(ptr, typ=PTR, name=name)


def _refcount(increment: bool):  # noqa: ANN202
    def emit(gen: _FunctionGen, args, arg_types, out, attrs, name) -> ll.Value:  # noqa: ANN001
        gen.refcount(args[0], arg_types[0], increment)
        return ll.Constant(I8, 0)

    return emit


def _memset(gen: _FunctionGen, args, arg_types, out, attrs, name) -> ll.Value:  # noqa: ANN001
    b = gen.b
    fn = gen.module.declare_intrinsic("llvm.memset", [PTR, I64])
    b.call(
        fn,
        [
            args[0],
            b.trunc(args[1], I8) if args[1].type != I8 else args[1],
            args[2],
            ll.Constant(I1, 0),
        ],
    )
    return ll.Constant(I8, 0)


def _memcpy(gen: _FunctionGen, args, arg_types, out, attrs, name) -> ll.Value:  # noqa: ANN001
    b = gen.b
    fn = gen.module.declare_intrinsic("llvm.memmove", [PTR, PTR, I64])
    b.call(fn, [args[0], args[1], args[2], ll.Constant(I1, 0)])
    return ll.Constant(I8, 0)


_MEMORY_INTRINSICS = {
    "arr_field": _arr_field,
    "arr_make": _arr_make,
    "ptr_add": _ptr_add,
    "ptr_int": _ptr_int,
    "load": _load,
    "store": _store,
    "rt_alloc": _rt_alloc,
    "block_data": _block_data,
    "incref": _refcount(True),
    "decref": _refcount(False),
    "memset": _memset,
    "memmove": _memcpy,
}


# --- helpers emitted once per module ------------------------------------------------------


def _helper(module: ll.Module, kind: str, lt: ll.Type, t: T.Type) -> ll.Function:
    name = f"jitcore.{kind}.{lt}"
    existing = module.globals.get(name)
    if existing is not None:
        return existing
    signed = isinstance(t, T.Scalar) and t.is_signed
    if kind == "ipow":
        return _emit_ipow(module, name, lt)
    if kind == "gcd":
        return _emit_gcd(module, name, lt, signed)
    return _emit_powmod(module, name)


def _emit_ipow(module: ll.Module, name: str, lt: ll.Type) -> ll.Function:
    """base ** exp by squaring (exp >= 0), wrapping on overflow."""
    fn = ll.Function(module, ll.FunctionType(lt, [lt, lt]), name=name)
    fn.linkage = "internal"
    entry, loop, done = (
        fn.append_basic_block("entry"),
        fn.append_basic_block("loop"),
        fn.append_basic_block("done"),
    )
    b = ll.IRBuilder(entry)
    b.branch(loop)
    b.position_at_end(loop)
    acc = b.phi(lt)
    base = b.phi(lt)
    exp = b.phi(lt)
    acc.add_incoming(ll.Constant(lt, 1), entry)
    base.add_incoming(fn.args[0], entry)
    exp.add_incoming(fn.args[1], entry)
    odd = b.trunc(exp, I1)
    new_acc = b.select(odd, b.mul(acc, base), acc)
    new_exp = b.lshr(exp, ll.Constant(lt, 1))
    new_base = b.mul(base, base)
    acc.add_incoming(new_acc, loop)
    base.add_incoming(new_base, loop)
    exp.add_incoming(new_exp, loop)
    b.cbranch(b.icmp_unsigned("==", new_exp, ll.Constant(lt, 0)), done, loop)
    b.position_at_end(done)
    b.ret(new_acc)
    return fn


def _emit_gcd(module: ll.Module, name: str, lt: ll.Type, signed: bool) -> ll.Function:
    """Euclid on absolute values; the result is non-negative, as math.gcd's."""
    fn = ll.Function(module, ll.FunctionType(lt, [lt, lt]), name=name)
    fn.linkage = "internal"
    entry, loop, body, done = (fn.append_basic_block(n) for n in ("entry", "loop", "body", "done"))
    b = ll.IRBuilder(entry)
    zero = ll.Constant(lt, 0)

    def absval(x: ll.Value) -> ll.Value:
        return b.select(b.icmp_signed("<", x, zero), b.neg(x), x) if signed else x

    a0, b0 = absval(fn.args[0]), absval(fn.args[1])
    b.branch(loop)
    b.position_at_end(loop)
    x = b.phi(lt)
    y = b.phi(lt)
    x.add_incoming(a0, entry)
    y.add_incoming(b0, entry)
    b.cbranch(b.icmp_unsigned("==", y, zero), done, body)
    b.position_at_end(body)
    r = b.urem(x, y)
    x.add_incoming(y, body)
    y.add_incoming(r, body)
    b.branch(loop)
    b.position_at_end(done)
    b.ret(x)
    return fn


def _emit_powmod(module: ll.Module, name: str) -> ll.Function:
    """pow(base, exp, mod) for exp >= 0, mod != 0, with Python's sign rule.

    Works on |mod| in unsigned 64-bit with an overflow-free multiply-mod (double and add), so
    no 128-bit division (a compiler-rt call the JIT cannot resolve) is needed.
    """
    fn = ll.Function(module, ll.FunctionType(I64, [I64, I64, I64]), name=name)
    fn.linkage = "internal"
    mulmod = _emit_mulmod(module)
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    base, exp, mod = fn.args
    zero = ll.Constant(I64, 0)
    m = b.select(b.icmp_signed("<", mod, zero), b.neg(mod), mod)  # |mod| as unsigned
    # base mod |m|, non-negative
    r = b.srem(base, b.select(b.icmp_signed("<", mod, zero), b.neg(mod), mod))
    r = b.select(b.icmp_signed("<", r, zero), b.add(r, m), r)
    acc0 = b.urem(ll.Constant(I64, 1), m)
    entry = b.block
    loop = fn.append_basic_block("loop")
    done = fn.append_basic_block("done")
    b.cbranch(b.icmp_unsigned("==", exp, zero), done, loop)
    b.position_at_end(loop)
    acc = b.phi(I64)
    p = b.phi(I64)
    e = b.phi(I64)
    acc.add_incoming(acc0, entry)
    p.add_incoming(r, entry)
    e.add_incoming(exp, entry)
    odd = b.trunc(e, I1)
    new_acc = b.select(odd, b.call(mulmod, [acc, p, m]), acc)
    new_p = b.call(mulmod, [p, p, m])
    new_e = b.lshr(e, ll.Constant(I64, 1))
    acc.add_incoming(new_acc, loop)
    p.add_incoming(new_p, loop)
    e.add_incoming(new_e, loop)
    b.cbranch(b.icmp_unsigned("==", new_e, zero), done, loop)
    b.position_at_end(done)
    result = b.phi(I64)
    result.add_incoming(acc0, entry)
    result.add_incoming(new_acc, loop)
    # Python: the result takes the sign of the modulus
    negative = b.and_(b.icmp_signed("<", mod, zero), b.icmp_unsigned("!=", result, zero))
    b.ret(b.select(negative, b.sub(result, m), result))
    return fn


def _emit_mulmod(module: ll.Module) -> ll.Function:
    """(a * b) mod m for unsigned a, b < m, without overflow: double and add over b's bits."""
    name = "jitcore.mulmod"
    existing = module.globals.get(name)
    if existing is not None:
        return existing
    fn = ll.Function(module, ll.FunctionType(I64, [I64, I64, I64]), name=name)
    fn.linkage = "internal"
    a, bb, m = fn.args
    entry, loop, done = (fn.append_basic_block(n) for n in ("entry", "loop", "done"))
    b = ll.IRBuilder(entry)
    zero = ll.Constant(I64, 0)

    def addmod(x: ll.Value, y: ll.Value) -> ll.Value:
        room = b.sub(m, y)
        return b.select(b.icmp_unsigned(">=", x, room), b.sub(x, room), b.add(x, y))

    b.cbranch(b.icmp_unsigned("==", bb, zero), done, loop)
    b.position_at_end(loop)
    acc = b.phi(I64)
    x = b.phi(I64)
    y = b.phi(I64)
    acc.add_incoming(zero, entry)
    x.add_incoming(a, entry)
    y.add_incoming(bb, entry)
    new_acc = b.select(b.trunc(y, I1), addmod(acc, x), acc)
    new_x = addmod(x, x)
    new_y = b.lshr(y, ll.Constant(I64, 1))
    acc.add_incoming(new_acc, loop)
    x.add_incoming(new_x, loop)
    y.add_incoming(new_y, loop)
    b.cbranch(b.icmp_unsigned("==", new_y, zero), done, loop)
    b.position_at_end(done)
    out = b.phi(I64)
    out.add_incoming(zero, entry)
    out.add_incoming(new_acc, loop)
    b.ret(out)
    return fn


# --- the Python entry point ----------------------------------------------------------------


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
        "PyErr_SetString": (ll.VoidType(), [PTR, PTR]),
        "PyTuple_New": (PTR, [I64]),
        "PyTuple_SetItem": (I32, [PTR, I64, PTR]),
        "PyTuple_GetItem": (PTR, [PTR, I64]),
        "Py_IncRef": (ll.VoidType(), [PTR]),
        "Py_DecRef": (ll.VoidType(), [PTR]),
    }

    def __init__(self, module: ll.Module) -> None:
        self.module = module

    def __getattr__(self, name: str) -> ll.Function:
        existing = self.module.globals.get(name)
        if existing is not None:
            return existing
        ret, args = self.SIGNATURES[name]
        return ll.Function(self.module, ll.FunctionType(ret, args), name=name)


def _emit_python_entry(module: ll.Module, fn: ir.Function, kernel: ll.Function, name: str) -> None:
    entry_fn = ll.Function(module, ll.FunctionType(PTR, [PTR, PTR, I64]), name=name)
    b = ll.IRBuilder(entry_fn.append_basic_block("entry"))
    api = _CAPI(module)
    fail = entry_fn.append_basic_block("fail")
    args_ptr = entry_fn.args[1]
    values = []
    objects = []
    for i, arg in enumerate(fn.args):
        obj = b.load(b.gep(args_ptr, [I64(i)], source_etype=PTR), typ=PTR)
        objects.append(obj)
        values.append(_unbox(b, api, obj, arg.type, fail))  # type: ignore[arg-type]
    # An array argument that may come back inside the result gets a runtime block that keeps
    # its Python object alive; otherwise arguments are borrowed (null block), which is free.
    wrapped: list[tuple[ll.Value, T.Type]] = []
    if T.contains_array(fn.return_type):
        wrap = _declare_runtime(module, nrt.WRAP, PTR, [PTR, PTR])
        for i, arg in enumerate(fn.args):
            if isinstance(arg.type, T.Array):
                block = b.call(wrap, [objects[i], b.extract_value(values[i], 1)])
                values[i] = b.insert_value(values[i], block, 0)
                wrapped.append((values[i], arg.type))
    ret_t = llvm_type(fn.return_type)  # type: ignore[arg-type]
    with b.goto_entry_block():
        slot = b.alloca(ret_t)
    status = b.call(kernel, [slot, *values])
    release = _declare_runtime(module, nrt.RELEASE, ll.VoidType(), [PTR])
    for value, _t in wrapped:
        nrt.emit_decref(b, b.extract_value(value, 0), release)
    raised = entry_fn.append_basic_block("raised")
    ok = entry_fn.append_basic_block("ok")
    b.cbranch(b.icmp_unsigned("!=", status, NULL), raised, ok)
    b.position_at_end(raised)
    desc_t = ll.LiteralStructType([PTR, PTR])
    exc_slot = b.load(b.gep(status, [I32(0), I32(0)], source_etype=desc_t), typ=PTR)
    message = b.load(b.gep(status, [I32(0), I32(1)], source_etype=desc_t), typ=PTR)
    b.call(api.PyErr_SetString, [b.load(exc_slot, typ=PTR), message])
    b.ret(NULL)
    b.position_at_end(ok)
    result = b.load(slot, typ=ret_t)
    b.ret(_box(b, api, result, fn.return_type))  # type: ignore[arg-type]
    b.position_at_end(fail)
    b.ret(NULL)


def _declare_runtime(
    module: ll.Module, name: str, ret: ll.Type, args: list[ll.Type]
) -> ll.Function:
    existing = module.globals.get(name)
    if existing is not None:
        return existing
    return ll.Function(module, ll.FunctionType(ret, args), name=name)


# Offsets into NumPy's PyArrayObject (stable across NumPy 1.x and 2.x).
_ARRAY_DATA, _ARRAY_DIMS, _ARRAY_STRIDES = 16, 32, 40
_NPY_DESCR_FROM_TYPE, _NPY_NEW_FROM_DESCR, _NPY_SET_BASE, _NPY_ARRAY_TYPE = 45, 94, 282, 2
_NPY_ARRAY_WRITEABLE = 0x0400


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
    table_slot = module.globals.get(nrt.NUMPY_API) or ll.GlobalVariable(
        module, PTR, name=nrt.NUMPY_API
    )
    table = b.load(table_slot, typ=PTR)

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
            I32(_NPY_ARRAY_WRITEABLE),
            NULL,
        ],
    )
    capsule_new = _declare_runtime(module, "PyCapsule_New", PTR, [PTR, PTR, PTR])
    destructor = _declare_runtime(module, nrt.CAPSULE_DESTRUCTOR, ll.VoidType(), [PTR])
    capsule = b.call(capsule_new, [b.extract_value(v, 0), NULL, destructor])
    set_base = ll.FunctionType(I32, [PTR, PTR])
    b.call(entry(_NPY_SET_BASE, set_base), [array, capsule])
    return array


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


def _unbox(b: ll.IRBuilder, api: _CAPI, obj: ll.Value, t: T.Type, fail: ll.Block) -> ll.Value:
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
            agg = b.insert_value(agg, _unbox(b, api, item, item_t, fail), i)
        return agg
    if isinstance(t, T.NoneType):
        return ll.Constant(I8, 0)
    if isinstance(t, T.Array):
        return _unbox_array(b, obj, t)
    raise InternalCompilerError(f"cannot unbox arguments of type {t}")


# Results of these types are NumPy scalars in Python (np.float32(...)), not Python numbers.
NUMPY_SCALAR_RESULTS = {"f32", "i8", "i16", "i32", "u8", "u16", "u32", "u64", "c64"}
_NPY_SCALAR = 60


def _box_numpy_scalar(b: ll.IRBuilder, api: _CAPI, v: ll.Value, t: T.Scalar) -> ll.Value:
    """`PyArray_Scalar(&v, PyArray_DescrFromType(num), NULL)`: a NumPy scalar of t's dtype."""
    module = b.module
    table_slot = module.globals.get(nrt.NUMPY_API) or ll.GlobalVariable(
        module, PTR, name=nrt.NUMPY_API
    )
    table = b.load(table_slot, typ=PTR)
    descr_fn = ll.FunctionType(PTR, [I32])
    scalar_fn = ll.FunctionType(PTR, [PTR, PTR, PTR])

    def entry(index: int, fnty: ll.FunctionType) -> ll.Value:
        return b.load(b.gep(table, [I64(index)], source_etype=PTR), typ=fnty.as_pointer())

    with b.goto_entry_block():
        slot = b.alloca(memory_type(t))
    b.store(v, slot)
    descr = b.call(entry(_NPY_DESCR_FROM_TYPE, descr_fn), [I32(t.dtype.num)])
    scalar = b.call(entry(_NPY_SCALAR, scalar_fn), [slot, descr, NULL])
    b.call(api.Py_DecRef, [descr])
    return scalar


def _box(b: ll.IRBuilder, api: _CAPI, v: ll.Value, t: T.Type) -> ll.Value:
    if isinstance(t, T.Scalar) and t.name in NUMPY_SCALAR_RESULTS:
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
            item = _box(b, api, b.extract_value(v, i), item_t)
            b.call(api.PyTuple_SetItem, [tup, I64(i), item])
        return tup
    if isinstance(t, T.Array):
        return _box_array(b, api, v, t)
    if isinstance(t, T.NoneType):
        none = module_global(b.module, "_Py_NoneStruct", I8)
        b.call(api.Py_IncRef, [none])
        return none
    raise InternalCompilerError(f"cannot return values of type {t} to Python")


def module_global(module: ll.Module, name: str, t: ll.Type) -> ll.GlobalVariable:
    existing = module.globals.get(name)
    if existing is not None:
        return existing
    return ll.GlobalVariable(module, t, name=name)


# --- the native dispatcher ----------------------------------------------------------------

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
    name: str, nparams: int, cases: list[tuple[list[ArgCheck], int]], python_mode_flag: int
) -> ll.Module:
    """`PyObject *name(PyObject *fallback, PyObject *const *args, Py_ssize_t nargsf,
    PyObject *kwnames)`: call the entry point (by address) of the first case whose checks
    the arguments pass, else the fallback (the Python-level dispatcher, which compiles)."""
    module = ll.Module(name=name)
    fn = ll.Function(module, ll.FunctionType(PTR, [PTR, PTR, I64, PTR]), name=name)
    fallback, args, nargsf, kwnames = fn.args
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    slow = fn.append_basic_block("slow")
    nargs = b.and_(nargsf, I64(~PY_VECTORCALL_ARGUMENTS_OFFSET & ((1 << 64) - 1)))
    flag = b.load(b.inttoptr(I64(python_mode_flag), PTR), typ=I32)
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
    b.branch(slow)
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
        ok = fn_and_chain(b, same_type, lambda: _tuple_items_ok(b, obj, check))
        return ok
    return fn_and_chain(b, same_type, lambda: _array_ok(b, obj, check))


def fn_and_chain(b: ll.IRBuilder, first: ll.Value, rest) -> ll.Value:  # noqa: ANN001
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
        ok = fn_and_chain(b, ok, lambda v=value, c=item: _check_arg(b, v, c))
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
    writeable = b.icmp_unsigned("!=", b.and_(flags, I32(_NPY_ARRAY_WRITEABLE)), I32(0))
    return b.and_(b.and_(ok, layout_ok), writeable)
