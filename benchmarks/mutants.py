"""Injected compiler bugs for the mutation experiment (`python -m benchmarks.mutation`).

Each mutant is a realistic miscompile planted without editing the package: a registered
optimization pass that rewrites typed IR (wrong operands, off-by-one loops, store
forwarding that ignores aliasing, conversions through float32, ...) or a runtime patch of an
emitter (maths functions wrong on part of their domain, fast-math flags leaking). Loaded as
a pytest plugin (`-p benchmarks.mutants`) with `JITCHECK_MUTANT=<name>`, it plants that one
mutant for the whole run; `MUTANTS` lists them all.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from llvmlite import ir as ll

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.lib import operators
from jitcore.lib.registry import Operand
from jitcore.optimize import Pass, register_pass, unregister_pass

ENV = "JITCHECK_MUTANT"
PASS_NAME = "mutant"
_FLOATS = (T.F64, T.F32)


@dataclass(frozen=True)
class Mutant:
    name: str
    kind: str  # "pass" (typed IR rewrite) or "emitter" (runtime patch of code generation)
    description: str
    plant: Callable[[pytest.MonkeyPatch], None]


def _operand(v: ir.Value) -> Operand:
    if isinstance(v, ir.Const):
        return Operand(v.type, const=v.value, weak=v.weak)  # type: ignore[arg-type]
    return Operand(v.type)  # type: ignore[arg-type]


def _retyped(instr: ir.Instr, op: str) -> bool:
    """Give `instr` the operation `op`, with the implementation typing would choose."""
    if isinstance(instr, ir.Compare):
        resolved = operators.resolve_compare(
            op, _operand(instr.lhs), _operand(instr.rhs), instr.loc
        )
    elif isinstance(instr, ir.BinOp):
        resolved = operators.resolve_binop(op, _operand(instr.lhs), _operand(instr.rhs), instr.loc)
    else:
        resolved = operators.resolve_unary(op, _operand(instr.operand), instr.loc)  # type: ignore[attr-defined]
    operands = instr.operands()
    casts = [a for a, v in zip(resolved.args, operands) if a is not None and a != v.type]
    if resolved is None or resolved.ret != instr.type or casts:
        return False  # the new operation would need other types: no mutant here
    instr.op, instr.impl = op, resolved  # type: ignore[attr-defined]
    return True


def _each(fn: ir.Function, kind: type) -> list[tuple[ir.Block, Any]]:
    return [(b, i) for b, i in fn.instructions() if isinstance(i, kind)]


def _ir_pass(name: str, description: str, rewrite: Callable[[ir.Function], bool]) -> Mutant:
    def plant(mp: pytest.MonkeyPatch) -> None:
        register_pass(Pass(PASS_NAME, rewrite, description), after="dce")

    return Mutant(name, "pass", description, plant)


# --- typed-IR mutants ----------------------------------------------------------------------


def _swap_float(op: str) -> Callable[[ir.Function], bool]:
    def run(fn: ir.Function) -> bool:
        changed = False
        for _, i in _each(fn, ir.BinOp):
            if i.op == op and i.type in _FLOATS and i.lhs is not i.rhs and not getattr(i, "_m", 0):
                i.lhs, i.rhs = i.rhs, i.lhs
                changed = True
        return changed

    return run


def _replace_op(
    old: tuple[str, ...], new: str, types: tuple[T.Type, ...]
) -> Callable[[ir.Function], bool]:
    def run(fn: ir.Function) -> bool:
        changed = False
        for _, i in _each(fn, ir.BinOp):
            if i.op in old and i.type in types:
                changed |= _retyped(i, new)
        return changed

    return run


def _compare(old: str, new: str, float_operands: bool) -> Callable[[ir.Function], bool]:
    def run(fn: ir.Function) -> bool:
        changed = False
        for _, i in _each(fn, ir.Compare):
            is_float = getattr(i.lhs.type, "kind", None) == "f" or i.lhs.type in _FLOATS
            if i.op == old and is_float == float_operands:
                changed |= _retyped(i, new)
        return changed

    return run


def _loop_step_two(fn: ir.Function) -> bool:
    """`i + 1` of a loop counter (an int add of the constant 1 to a phi) becomes `i + 2`."""
    changed = False
    for _, i in _each(fn, ir.BinOp):
        if (i.op == "add" and i.type == T.I64 and isinstance(i.lhs, ir.Phi)
                and isinstance(i.rhs, ir.Const) and i.rhs.value == 1):  # fmt: skip
            i.rhs = ir.Const(2, type=i.rhs.type, weak=i.rhs.weak)
            changed = True
    return changed


def _loop_start_one(fn: ir.Function) -> bool:
    """An int phi entered with the constant 0 (a loop counter) starts at 1."""
    changed = False
    for _, i in _each(fn, ir.Phi):
        if i.type == T.I64:
            for block, v in list(i.incoming.items()):
                if isinstance(v, ir.Const) and v.value == 0:
                    i.incoming[block] = ir.Const(1, type=v.type, weak=v.weak)
                    changed = True
    return changed


def _float_constants_drift(fn: ir.Function) -> bool:
    """Float constants used by arithmetic are off by one part in 1e9 (a bad constant fold)."""
    changed = False
    for _, i in _each(fn, ir.BinOp):
        for side in ("lhs", "rhs"):
            v = getattr(i, side)
            if isinstance(v, ir.Const) and v.type in _FLOATS and isinstance(v.value, float):
                if v.value and math.isfinite(v.value):
                    setattr(i, side, ir.Const(v.value * (1 + 1e-9), type=v.type, weak=v.weak))
                    changed = True
    return changed


def _float_accumulator_starts_at_one(fn: ir.Function) -> bool:
    changed = False
    for _, i in _each(fn, ir.Phi):
        if i.type == T.F64:
            for block, v in list(i.incoming.items()):
                if isinstance(v, ir.Const) and v.value == 0.0:
                    i.incoming[block] = ir.Const(1.0, type=v.type, weak=v.weak)
                    changed = True
    return changed


def _negation_dropped(fn: ir.Function) -> bool:
    changed = False
    for _, i in _each(fn, ir.UnaryOp):
        if i.op == "neg" and i.type in _FLOATS:
            changed |= _retyped(i, "pos")
    return changed


def _int_to_float_via_f32(fn: ir.Function) -> bool:
    """int64 -> float64 conversions go through float32 (24 bits of mantissa)."""
    changed = False
    for block, i in _each(fn, ir.Cast):
        if i.type == T.F64 and getattr(i.value, "type", None) == T.I64:
            narrow = ir.Cast(i.value, name=fn.fresh_name("t"), type=T.F32, loc=i.loc)
            block.instrs.insert(block.instrs.index(i), narrow)
            i.value = narrow
            changed = True
    return changed


def _store_forwarding_ignores_aliasing(fn: ir.Function) -> bool:
    """A load after a store to the same array and index gets the stored value, even when a
    store to another array of the same type (which may be the same array) came between."""
    changed = False
    for block in fn.blocks:
        stores: dict[tuple[int, int], ir.Value] = {}
        for i in list(block.instrs):
            if isinstance(i, ir.SetItem):
                stores[(id(i.obj), id(i.index))] = i.value
            elif isinstance(i, ir.GetItem) and (id(i.obj), id(i.index)) in stores:
                value = stores[(id(i.obj), id(i.index))]
                if getattr(value, "type", None) == i.type:
                    fn.replace_all_uses(i, value)
                    changed = True
            elif isinstance(i, ir.Call):
                stores.clear()
    return changed


def _drop_bounds_checks(fn: ir.Function) -> bool:
    from jitcore.optimize.boundscheck import drop_bounds_checks

    return drop_bounds_checks(fn)


def _first_two_args_swapped(fn: ir.Function) -> bool:
    """Calls of jitted callees (before inlining binds them) get their first two arguments
    swapped when they have the same type: an inliner binding parameters in the wrong order."""
    from jitcore.lib.registry import Resolved

    changed = False
    for _, i in _each(fn, ir.Call):
        if len(i.args) >= 2 and i.args[0].type == i.args[1].type and i.args[0] is not i.args[1]:
            if isinstance(i.impl, Resolved) and i.impl.callee is not None:  # a jitted callee
                i.args[0], i.args[1] = i.args[1], i.args[0]
                changed = True
    return changed


def _fusion_operands_swapped(fn: ir.Function) -> bool:
    """A fused elementwise loop takes its first two array operands of one type in the wrong
    order (a fusion pass that splices the producer's operands in at the wrong position)."""
    from jitcore.lib.loops import fused_elementwise

    changed = False
    for _, i in _each(fn, ir.Call):
        if not (isinstance(i.func, ir.Const) and i.func.value is fused_elementwise):
            continue
        arrays = [k for k, v in enumerate(i.args) if isinstance(v.type, T.Array)]
        pairs = [(a, b) for a in arrays for b in arrays if a < b]
        for a, b in pairs:
            if i.args[a].type == i.args[b].type and i.args[a] is not i.args[b]:
                i.args[a], i.args[b] = i.args[b], i.args[a]
                changed = True
                break
    return changed


# --- emitter mutants -----------------------------------------------------------------------


def _f(value: float) -> ll.Constant:
    return ll.Constant(ll.DoubleType(), value)


def _intrinsic(b: ll.IRBuilder, name: str, *args: ll.Value) -> ll.Value:
    ft = args[0].type
    fnty = ll.FunctionType(ft, [ft] * len(args))
    return b.call(b.module.declare_intrinsic(f"llvm.{name}", [ft], fnty), list(args))


def _libm(b: ll.IRBuilder, name: str, *args: ll.Value) -> ll.Value:
    ft = args[0].type
    callee = b.module.globals.get(name) or ll.Function(
        b.module, ll.FunctionType(ft, [a.type for a in args]), name=name
    )
    return b.call(callee, list(args))


Emit = Callable[[ll.IRBuilder, list[ll.Value], Callable[[], ll.Value]], ll.Value]


def _emitter(name: str, fn_name: str, description: str, emit: Emit) -> Mutant:
    """Patch jitcore's maths emitter: float64 `fn_name` is emitted by `emit(b, args,
    original)` (`original()` emits the correct code)."""

    def plant(mp: pytest.MonkeyPatch) -> None:
        from jitcore.codegen import kernel

        correct = kernel.emit_math

        def patched(b: ll.IRBuilder, fn: str, args: list[ll.Value], *rest: Any) -> ll.Value:
            if fn == fn_name and args[0].type == ll.DoubleType():
                return emit(b, args, lambda: correct(b, fn, args, *rest))
            return correct(b, fn, args, *rest)

        mp.setattr(kernel, "emit_math", patched)

    return Mutant(name, "emitter", description, plant)


def _tanh_saturates(b: ll.IRBuilder, args: list[ll.Value], original: Any) -> ll.Value:
    x = args[0]
    big = b.fcmp_ordered(">=", _intrinsic(b, "fabs", x), _f(10.0))
    return b.select(big, _intrinsic(b, "copysign", _f(1.0), x), original())


def _exp_f32_overflow(b: ll.IRBuilder, args: list[ll.Value], original: Any) -> ll.Value:
    over = b.fcmp_ordered(">", args[0], _f(88.72283935546875))
    return b.select(over, _f(math.inf), original())


def _exp_flushes(b: ll.IRBuilder, args: list[ll.Value], original: Any) -> ll.Value:
    under = b.fcmp_ordered("<", args[0], _f(-708.3964185322641))
    return b.select(under, _f(0.0), original())


def _sin_naive(b: ll.IRBuilder, args: list[ll.Value], original: Any) -> ll.Value:
    x = args[0]
    two_pi = _f(2 * math.pi)
    k = _intrinsic(b, "roundeven", b.fdiv(x, two_pi))
    return _intrinsic(b, "sin", b.fsub(x, b.fmul(k, two_pi)))


def _log1p_naive(b: ll.IRBuilder, args: list[ll.Value], original: Any) -> ll.Value:
    return _intrinsic(b, "log", b.fadd(_f(1.0), args[0]))


def _expm1_naive(b: ll.IRBuilder, args: list[ll.Value], original: Any) -> ll.Value:
    return b.fsub(_intrinsic(b, "exp", args[0]), _f(1.0))


def _hypot_naive(b: ll.IRBuilder, args: list[ll.Value], original: Any) -> ll.Value:
    x, y = args
    return _intrinsic(b, "sqrt", b.fadd(b.fmul(x, x), b.fmul(y, y)))


def _atan2_naive(b: ll.IRBuilder, args: list[ll.Value], original: Any) -> ll.Value:
    y, x = args
    return _libm(b, "atan", b.fdiv(y, x))


def _cbrt_pow(b: ll.IRBuilder, args: list[ll.Value], original: Any) -> ll.Value:
    return _intrinsic(b, "pow", args[0], _f(1.0 / 3.0))


def _sqrt_f32(b: ll.IRBuilder, args: list[ll.Value], original: Any) -> ll.Value:
    f32 = ll.FloatType()
    narrow = b.fptrunc(args[0], f32)
    return b.fpext(_intrinsic(b, "sqrt", narrow), ll.DoubleType())


def _cos_shifted(b: ll.IRBuilder, args: list[ll.Value], original: Any) -> ll.Value:
    return _intrinsic(b, "sin", b.fadd(args[0], _f(math.pi / 2)))


def _fastmath_leaks(mp: pytest.MonkeyPatch) -> None:
    from jitcore.codegen import kernel

    init = kernel.KernelGen.__init__

    def patched(self: Any, module: Any, fn: Any, symbol: str, fastmath: bool) -> None:
        init(self, module, fn, symbol, True)

    mp.setattr(kernel.KernelGen, "__init__", patched)


MUTANTS: tuple[Mutant, ...] = (
    _ir_pass("float-sub-swapped", "a - b of floats computes b - a", _swap_float("sub")),
    _ir_pass("float-div-swapped", "a / b of floats computes b / a", _swap_float("div")),
    _ir_pass("float-sub-as-add", "a - b of floats computes a + b",
             _replace_op(("sub", "isub"), "add", _FLOATS)),
    _ir_pass("float-mul-as-add", "a * b of floats computes a + b",
             _replace_op(("mul", "imul"), "add", _FLOATS)),
    _ir_pass("int-sub-as-add", "a - b of ints computes a + b",
             _replace_op(("sub", "isub"), "add", (T.I64,))),
    _ir_pass("int-floordiv-as-truediv-floor", "a // b of ints computes a % b",
             _replace_op(("floordiv",), "mod", (T.I64,))),
    _ir_pass("loop-lt-as-le", "int `<` compiles as `<=` (off-by-one loop bound)",
             _compare("lt", "le", False)),
    _ir_pass("float-gt-as-ge", "float `>` compiles as `>=`", _compare("gt", "ge", True)),
    _ir_pass("float-lt-as-gt", "float `<` compiles as `>`", _compare("lt", "gt", True)),
    _ir_pass("loop-step-two", "a loop counter steps by 2", _loop_step_two),
    _ir_pass("loop-starts-at-one", "an int loop counter starts at 1", _loop_start_one),
    _ir_pass("float-constants-drift", "float constants off by 1e-9 (bad constant folding)",
             _float_constants_drift),
    _ir_pass("accumulator-starts-at-one", "a float accumulator starts at 1.0, not 0.0",
             _float_accumulator_starts_at_one),
    _ir_pass("negation-dropped", "unary minus of floats is dropped", _negation_dropped),
    _ir_pass("int-to-float-via-float32", "int64 -> float64 converts through float32",
             _int_to_float_via_f32),
    _ir_pass("store-forwarding-ignores-aliasing",
             "a load after a store to the same array and index is forwarded across stores "
             "to other arrays", _store_forwarding_ignores_aliasing),
    _ir_pass("bounds-checks-dropped", "every bounds check removed (bce too eager)",
             _drop_bounds_checks),
    _ir_pass("call-arguments-swapped", "calls of jitted callees bind their first two "
             "arguments in the wrong order", _first_two_args_swapped),
    _ir_pass("fusion-operands-swapped", "a fused elementwise loop takes two array operands "
             "in the wrong order", _fusion_operands_swapped),
    _emitter("tanh-saturates-at-10", "tanh", "tanh(x) is +-1 for |x| >= 10", _tanh_saturates),
    _emitter("exp-overflows-at-float32-limit", "exp", "exp(x) is inf beyond 88.72",
             _exp_f32_overflow),
    _emitter("exp-flushes-subnormals", "exp", "exp(x) is 0 where the result is subnormal",
             _exp_flushes),
    _emitter("sin-naive-reduction", "sin", "sin reduces its argument by 2*pi in float64",
             _sin_naive),
    _emitter("log1p-as-log", "log1p", "log1p(x) computed as log(1 + x)", _log1p_naive),
    _emitter("expm1-as-exp", "expm1", "expm1(x) computed as exp(x) - 1", _expm1_naive),
    _emitter("hypot-naive", "hypot", "hypot(x, y) as sqrt(x*x + y*y) (overflows)",
             _hypot_naive),
    _emitter("atan2-as-atan", "atan2", "atan2(y, x) as atan(y / x) (wrong quadrant)",
             _atan2_naive),
    _emitter("cbrt-as-pow", "cbrt", "cbrt(x) as pow(x, 1/3) (NaN for negatives)", _cbrt_pow),
    _emitter("sqrt-in-float32", "sqrt", "sqrt computed in float32", _sqrt_f32),
    _emitter("cos-as-shifted-sin", "cos", "cos(x) as sin(x + pi/2)", _cos_shifted),
    Mutant("fastmath-leaks", "emitter", "fast-math flags on every function", _fastmath_leaks),
)  # fmt: skip

BY_NAME = {m.name: m for m in MUTANTS}
_patch = pytest.MonkeyPatch()


def pytest_configure(config: pytest.Config) -> None:
    name = os.environ.get(ENV, "")
    if name:
        BY_NAME[name].plant(_patch)


def pytest_unconfigure(config: pytest.Config) -> None:
    unregister_pass(PASS_NAME)
    _patch.undo()
