"""Scalar maths for `Intrinsic` instructions: LLVM intrinsics, libm calls, and hand-written code.

In:  an `Intrinsic`'s function name and its LLVM operand values.
Out: the result value, emitted at the builder's position. Four kinds of names:
     * LLVM intrinsics (`sqrt`, `floor`, `fma`, ...: `LLVM_INTRINSICS`), which LLVM vectorizes;
     * C library functions (`tan`, `atan2`, `erf`, ...: `LIBM`), `f`-suffixed for f32;
     * `exp` and `tanh` of f64 in straight-line arithmetic (Cephes' approximations), because a
       scalar libm call keeps a loop from vectorizing;
     * integer helpers emitted once per module as internal functions: `ipow` (by squaring,
       wrapping), `gcd` (Euclid, non-negative), `powmod` (Python's three-argument pow).
"""

from __future__ import annotations

from llvmlite import ir as ll

from jitcore.codegen.types import F32, F64, I1, I32, I64
from jitcore.errors import InternalCompilerError
from jitcore.ir import types as T

LLVM_INTRINSICS = frozenset(
    {
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
        "minimum",
        "maximum",
    }
)
LIBM = frozenset(
    {
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
        "ldexp",  # (double, int32)
    }
)
# C99's complex functions (`csqrt`, `cexp`, `clog`, `csin`, ...: `c` + the real name), the
# ones NumPy's complex ufuncs call, so results and special values (clog(0) = -inf, csqrt of
# an infinite part, ...) are NumPy's to the bit. Called with the x86-64 System V convention
# for `double _Complex` (two doubles in, two out) and `float _Complex` (a <2 x float>).
COMPLEX_LIBM = frozenset(
    {
        "csqrt",
        "cexp",
        "clog",
        "csin",
        "ccos",
        "ctan",
        "csinh",
        "ccosh",
        "ctanh",
        "casin",
        "cacos",
        "catan",
        "casinh",
        "cacosh",
        "catanh",
        "cpow",  # (z, w)
    }
)
INTEGER_HELPERS = frozenset({"ipow", "gcd", "powmod"})
# `smin(a, b)` / `smax(a, b)`: the signed minimum and maximum of two integers of one type
# (LLVM's intrinsics; the chunk bounds of `optimize.stripmine`).
INTEGER_INTRINSICS = frozenset({"smin", "smax"})
# `smul_overflows(a, b)`: whether the signed product `a * b` overflows its type (a bool);
# allocation sizes are checked with it; `sadd_`/`ssub_overflows` likewise for a + b and a - b
# (the guards of bounds checks, `optimize.guards`).
OVERFLOW_CHECKS = frozenset({"smul_overflows", "sadd_overflows", "ssub_overflows"})
# Every name an `Intrinsic` may carry (`frem`: the C remainder of floats, `fmod`).
MATH_FUNCTIONS = (
    LLVM_INTRINSICS
    | LIBM
    | COMPLEX_LIBM
    | INTEGER_HELPERS
    | INTEGER_INTRINSICS
    | OVERFLOW_CHECKS
    | {"frem"}
)


# The inline f64 functions whose C library twin is faster where the code runs element by
# element: on a loop recurrence (`x = exp(-x)`, which waits for each result: glibc's exp 8.9
# ns a step, the inline one 18, its rational approximation ends in a division) and where a
# branch that raises tests each result (`s += math.exp(a[i])`: glibc 2.8 ns an element, the
# inline 4.6). Vectorized, the inline one wins (0.58 ns an element; glibc's blocks it).
# (The inline tanh is faster than glibc's even in a chain: 24 against 30 ns a step.)
LATENCY_ALTERNATIVES = frozenset({"exp"})


def emit_math(
    b: ll.IRBuilder,
    fn: str,
    args: list[ll.Value],
    arg_types: list[T.Type],
    flags: tuple[str, ...],
    name: str,
    latency_bound: bool = False,
) -> ll.Value:
    """`fn(*args)`; `flags` are the fast-math flags of the function being compiled;
    `latency_bound`: the result feeds back into the argument (see `LATENCY_ALTERNATIVES`)."""
    module = b.module
    if fn == "tanh" and args[0].type == F64 and not latency_bound:
        return tanh_f64(b, args[0], name)
    if fn == "exp" and args[0].type == F64 and not latency_bound:
        return exp_f64(b, args[0], name)
    if fn in LLVM_INTRINSICS:
        ft = args[0].type
        fnty = ll.FunctionType(ft, [ft] * len(args))
        callee = module.declare_intrinsic(f"llvm.{fn}", [ft], fnty)
        return b.call(callee, args, name=name, fastmath=flags)
    if fn in INTEGER_INTRINSICS:
        it = args[0].type
        fnty = ll.FunctionType(it, [it, it])
        return b.call(module.declare_intrinsic(f"llvm.{fn}", [it], fnty), args, name=name)
    if fn in LIBM:
        ft = args[0].type
        cname = fn + ("f" if ft == F32 else "")
        callee = module.globals.get(cname) or ll.Function(
            module, ll.FunctionType(ft, [a.type for a in args]), name=cname
        )
        return b.call(callee, args, name=name)
    if fn in COMPLEX_LIBM:
        return _complex_libm(b, fn, args, name)
    if fn == "frem":
        return b.frem(args[0], args[1], name=name)
    if fn in OVERFLOW_CHECKS:
        it = args[0].type
        fnty = ll.FunctionType(ll.LiteralStructType([it, I1]), [it, it])
        op = fn.split("_")[0]  # smul, sadd, ssub
        callee = module.declare_intrinsic(f"llvm.{op}.with.overflow", [it], fnty)
        return b.extract_value(b.call(callee, args), 1, name=name)
    if fn in INTEGER_HELPERS:
        t = arg_types[0]
        signed = isinstance(t, T.Scalar) and t.is_signed
        return b.call(_helper(module, fn, args[0].type, signed), args, name=name)
    raise InternalCompilerError(f"unknown intrinsic {fn}")


def _complex_libm(b: ll.IRBuilder, fn: str, zs: list[ll.Value], name: str) -> ll.Value:
    """`fn(*zs)` of the C library for complex arguments ({part, part}), by the x86-64 System
    V convention: a `double _Complex` travels as two doubles (returned as {double, double}),
    a `float _Complex` packed in one <2 x float>."""
    module = b.module
    z = zs[0]
    part = z.type.elements[0]  # type: ignore[attr-defined]
    if part == F64:
        fnty = ll.FunctionType(z.type, [F64, F64] * len(zs))
        callee = module.globals.get(fn) or ll.Function(module, fnty, name=fn)
        parts = [b.extract_value(w, k) for w in zs for k in (0, 1)]
        return b.call(callee, parts, name=name)
    packed_t = ll.VectorType(F32, 2)
    cname = fn + "f"
    fnty = ll.FunctionType(packed_t, [packed_t] * len(zs))
    callee = module.globals.get(cname) or ll.Function(module, fnty, name=cname)
    packs = []
    for w in zs:
        packed = b.insert_element(
            ll.Constant(packed_t, ll.Undefined), b.extract_value(w, 0), ll.Constant(I32, 0)
        )
        packs.append(b.insert_element(packed, b.extract_value(w, 1), ll.Constant(I32, 1)))
    out = b.call(callee, packs)
    agg = b.insert_value(
        ll.Constant(z.type, ll.Undefined), b.extract_element(out, ll.Constant(I32, 0)), 0
    )
    return b.insert_value(agg, b.extract_element(out, ll.Constant(I32, 1)), 1, name=name)


# --- exp and tanh in straight-line arithmetic ----------------------------------------------


def _f(v: float) -> ll.Constant:
    return ll.Constant(F64, v)


def _call_f64(b: ll.IRBuilder, intrinsic: str, *values: ll.Value) -> ll.Value:
    fnty = ll.FunctionType(F64, [F64] * len(values))
    return b.call(b.module.declare_intrinsic(f"llvm.{intrinsic}", [F64], fnty), list(values))


def tanh_f64(b: ll.IRBuilder, x: ll.Value, name: str) -> ll.Value:
    """tanh in straight-line arithmetic (Cephes' rational approximation near 0, and
    1 - 2/(exp(2|x|) + 1) with Cephes' exp elsewhere), so that loops calling it vectorize;
    a scalar libm call would keep them scalar. Within 2 ULPs of the C library's tanh."""
    f = _f
    z = _call_f64(b, "fabs", x)
    # |x| < 0.625: x + x^3 P(x^2)/Q(x^2)
    s = b.fmul(x, x)
    p = b.fadd(
        b.fmul(b.fadd(b.fmul(f(-9.64399179425052238628e-1), s), f(-9.92877231001918586564e1)), s),
        f(-1.61468768441708447952e3),
    )
    q = b.fadd(
        b.fmul(
            b.fadd(b.fmul(b.fadd(s, f(1.12811678491632931402e2)), s), f(2.23548839060100448583e3)),
            s,
        ),
        f(4.84406305325125486048e3),
    )
    small = b.fadd(x, b.fmul(b.fmul(x, s), b.fdiv(p, q)))
    small = b.select(b.fcmp_ordered("==", x, f(0.0)), x, small)  # tanh(-0.0) is -0.0
    # otherwise: 1 - 2/(e + 1), e = exp(2|x|) for |x| <= 20 (tanh is 1.0 in doubles beyond)
    w = b.fmul(f(2.0), b.select(b.fcmp_ordered("<", z, f(20.0)), z, f(20.0)))
    e = _exp_f64_range(b, w)
    large = b.fsub(f(1.0), b.fdiv(f(2.0), b.fadd(e, f(1.0))))
    large = _call_f64(b, "copysign", large, x)
    use_small = b.fcmp_unordered("<", z, f(0.625))  # NaN goes this way and stays NaN
    return b.select(use_small, small, large, name=name)


def exp_f64(b: ll.IRBuilder, x: ll.Value, name: str) -> ll.Value:
    """exp over the whole line in straight-line arithmetic (vectorizable): Cephes' form,
    with 2**n applied as two exact halves so that subnormal results round once; inf above
    709.78, 0 below -745.13, NaN stays NaN. Within 1 ULP of the C library's exp."""
    f = _f
    # The argument clamped into the finite range by minnum/maxnum (a NaN becomes 709.9, any
    # finite, and the selects below give NaN back): one vminsd and one vmaxsd. Clamping with
    # compare-and-select instead cost 4.5x in loops that do not vectorize (20 ns against
    # 4.5 ns an element in `s += math.exp(a[i])`: on AVX-512 each select became a compare
    # into a mask register and a masked move, and the NaN test a flag moved into one).
    clamped = _call_f64(b, "maxnum", _call_f64(b, "minnum", x, f(709.9)), f(-745.2))
    n, er = _exp_reduce(b, clamped)
    half = b.ashr(n, I64(1))
    rest = b.sub(n, half)
    result = b.fmul(b.fmul(er, _pow2(b, half)), _pow2(b, rest))
    result = b.select(b.fcmp_ordered(">", x, f(7.09782712893383996843e2)), f(float("inf")), result)
    result = b.select(b.fcmp_ordered("<", x, f(-7.451332191019412076235e2)), f(0.0), result)
    return b.select(b.fcmp_unordered("!=", x, x), x, result, name=name)


def _pow2(b: ll.IRBuilder, n: ll.Value) -> ll.Value:
    """2.0**n for -1022 <= n <= 1023, from its exponent bits."""
    return b.bitcast(b.shl(b.add(n, I64(1023)), I64(52)), F64)


def _exp_reduce(b: ll.IRBuilder, x: ll.Value) -> tuple[ll.Value, ll.Value]:
    """(n, e) with exp(x) = e * 2**n, |x - n ln2| <= ln2/2 (Cephes' exp.c)."""
    f = _f
    px = _call_f64(b, "floor", b.fadd(b.fmul(f(1.4426950408889634073599), x), f(0.5)))
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
                    b.fadd(b.fmul(f(3.00198505138664455042e-6), rr), f(2.52448340349684104192e-3)),
                    rr,
                ),
                f(2.27265548208155028766e-1),
            ),
            rr,
        ),
        f(2.00000000000000000009e0),
    )
    return n, b.fadd(f(1.0), b.fmul(f(2.0), b.fdiv(pp, b.fsub(qq, pp))))


def _exp_f64_range(b: ll.IRBuilder, x: ll.Value) -> ll.Value:
    """exp for 1 <= x <= 40, where no overflow, underflow or NaN handling is needed."""
    n, e = _exp_reduce(b, x)
    return b.fmul(e, _pow2(b, n))


# --- integer helpers, emitted once per module ----------------------------------------------


def _helper(module: ll.Module, kind: str, lt: ll.Type, signed: bool) -> ll.Function:
    name = f"jitcore.{kind}.{lt}"
    existing = module.globals.get(name)
    if existing is not None:
        return existing
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
