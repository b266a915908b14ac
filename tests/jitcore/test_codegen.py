"""`codegen` maps each low-IR class to LLVM one to one: built by hand, each class gives a module
that LLVM parses and verifies, with the LLVM operation the class stands for."""

from __future__ import annotations

from collections.abc import Callable

import llvmlite.binding as llvm
import pytest

from jitcore import codegen
from jitcore.codegen.kernel import emitted_classes
from jitcore.codegen.mathfns import (
    COMPLEX_LIBM,
    INTEGER_INTRINSICS,
    MATH_FUNCTIONS,
    OVERFLOW_CHECKS,
)
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.options import JitOptions

ARRAY = T.Array(T.F64, 2, "A")
PAIR = T.Tuple((T.I64, T.I64))
ARRAYS = T.Tuple((ARRAY, ARRAY))


def _function(*types: T.Type) -> tuple[ir.Function, LowBuilder, list[ir.Arg]]:
    args = [ir.Arg(f"a{k}", k, t) for k, t in enumerate(types)]
    fn = ir.Function("f", args, return_type=T.NONE)
    return fn, LowBuilder(fn), args


def _finish(b: LowBuilder, result: ir.Value | None = None) -> None:
    if result is not None:
        b.fn.return_type = result.type
    b.block.terminator = ir.Return(result if result is not None else ir.Const(None, type=T.NONE))


def _data(b: LowBuilder, a: ir.Value) -> ir.Value:
    return b.emit(ir.ArrayField(a, "data", type=T.PTR))


def _load(b: LowBuilder, a: list[ir.Arg]) -> None:
    _finish(b, b.emit(ir.Load(_data(b, a[0]), type=T.F64)))


def _store(b: LowBuilder, a: list[ir.Arg]) -> None:
    b.emit(ir.Store(_data(b, a[0]), ir.Const(True, type=T.BOOL), type=T.NONE))
    _finish(b)


def _ptr_add(b: LowBuilder, a: list[ir.Arg]) -> None:
    ptr = b.emit(ir.PtrAdd(_data(b, a[0]), a[1], type=T.PTR))
    _finish(b, b.emit(ir.PtrToInt(ptr, type=T.I64)))


def _memset(b: LowBuilder, a: list[ir.Arg]) -> None:
    b.emit(ir.MemSet(_data(b, a[0]), ir.Const(0, type=T.I8), a[1], type=T.NONE))
    _finish(b)


def _array_field(b: LowBuilder, a: list[ir.Arg]) -> None:
    _finish(b, b.emit(ir.ArrayField(a[0], "stride", 1, type=T.I64)))


def _alloc(b: LowBuilder, a: list[ir.Arg]) -> None:
    block = b.emit(ir.Alloc(i64(32), type=T.PTR))
    data = b.emit(ir.BlockData(block, type=T.PTR))
    shape: list[ir.Value] = [a[1], i64(2)]
    strides: list[ir.Value] = [i64(16), i64(8)]
    new = b.emit(ir.MakeArray(block, data, shape, strides, fresh=True, type=ARRAY))
    _finish(b, new)


def _refcounts(b: LowBuilder, a: list[ir.Arg]) -> None:
    pair = b.make_tuple([a[0], a[0]])
    b.emit(ir.Incref(pair, type=T.NONE))
    b.emit(ir.Decref(pair, type=T.NONE))
    _finish(b)


def _extract(b: LowBuilder, a: list[ir.Arg]) -> None:
    pair = b.make_tuple([a[1], a[1]])
    first = b.emit(ir.Extract(pair, 0, type=T.I64))
    _finish(b, b.emit(ir.ExtractDynamic(pair, first, type=T.I64)))


def _complex(b: LowBuilder, a: list[ir.Arg]) -> None:
    z = b.emit(ir.MakeComplex(a[2], a[2], type=T.C128))
    re = b.emit(ir.RealPart(z, type=T.F64))
    im = b.emit(ir.ImagPart(z, type=T.F64))
    _finish(b, b.binop("add", re, im))


def _native_call(b: LowBuilder, a: list[ir.Arg]) -> None:
    _finish(b, b.native_call("other.kernel", [a[1]], T.I64))  # emits callfailed and reraise


def _exceptions(b: LowBuilder, a: list[ir.Arg]) -> None:
    """What a `try` lowers to: a failed call's descriptor, a raise's, and matching classes."""
    result = b.native_call("other.kernel", [a[1]], T.I64)
    call = next(i for _, i in b.fn.instructions() if isinstance(i, ir.NativeCall))
    status = b.emit(ir.CallStatus(call, type=T.PTR))
    raised = b.emit(ir.ExcRaised(ZeroDivisionError, "division by zero", type=T.PTR))
    arithmetic = b.emit(ir.ExcMatch(raised, (ArithmeticError,), type=T.BOOL))
    value = b.emit(ir.ExcMatch(status, (ValueError, KeyError), type=T.BOOL))
    _finish(b, b.select(b.and_(arithmetic, value), result, i64(0)))


def _intrinsic(b: LowBuilder, a: list[ir.Arg]) -> None:
    _finish(b, b.intrinsic("sqrt", [a[2]], T.F64))


def _scalar_ops(b: LowBuilder, a: list[ir.Arg]) -> None:
    x = b.binop("mul", a[1], a[1])
    neg = b.emit(ir.UnaryOp("neg", x, type=T.I64))
    big = b.cmp("gt", neg, i64(3))
    chosen = b.select(big, neg, b.cast(a[2], T.I64))
    header, done = b.new_block("loop"), b.new_block("done")
    entry = b.block
    b.jump(header)
    b.position(header)
    phi = b.phi(T.I64, {entry: chosen})
    b.branch(b.cmp("lt", phi, i64(0)), header, done)
    phi.incoming[header] = b.binop("add", phi, i64(1))
    b.position(done)
    _finish(b, b.extract(b.make_tuple([phi, chosen]), 1))


def _formatted_exception(b: LowBuilder, a: list[ir.Arg]) -> None:
    desc = b.emit(
        ir.ExcFormatted(ValueError, "n={} x={}", 1, "<i8:py,<f8:np", [a[1], a[2]], type=T.PTR)
    )
    _finish(b, b.select(b.cmp("eq", desc, ir.Const(None, type=T.PTR)), a[1], i64(0)))


# Each case: the classes it covers, how to build it, what its LLVM text must contain.
def _list_ops(b: LowBuilder, a: list[ir.Arg]) -> None:
    i64 = T.I64
    lst = b.emit(ir.ListOp("new", [ir.Const(4, type=i64)], type=T.List(T.F64)))
    x = a[2]
    zero = ir.Const(0, type=i64)
    b.emit(ir.ListOp("append", [lst, x], type=T.BOOL))
    b.emit(ir.ListOp("reserve", [lst, ir.Const(8, type=i64)], type=T.BOOL))
    b.emit(ir.ListOp("insert", [lst, zero, x], type=T.BOOL))
    b.emit(ir.ListOp("set", [lst, zero, x], type=T.NONE))
    b.emit(ir.ListOp("get", [lst, zero], type=T.F64))
    b.emit(ir.ListOp("pop", [lst, zero], type=T.F64))
    b.emit(ir.ListOp("truncate", [lst, zero], type=T.NONE))
    _finish(b, b.emit(ir.ListOp("len", [lst], type=i64)))


def _cold_loop(b: LowBuilder, a: list[ir.Arg]) -> None:
    entry, header, body, done = b.block, b.new_block("loop"), b.new_block("body"), b.new_block("x")
    b.jump(header)
    b.position(header)
    i = b.phi(T.I64, {entry: i64(0)})
    b.emit(ir.ColdLoop(type=T.NONE))
    b.branch(b.cmp("lt", i, a[1]), body, done)
    b.position(body)
    i.incoming[body] = b.binop("add", i, i64(1))
    b.jump(header)
    b.position(done)
    _finish(b)


CASES: dict[str, tuple[tuple[type, ...], Callable, tuple[str, ...]]] = {
    "load": ((ir.Load,), _load, ("load double",)),
    "store": ((ir.Store,), _store, ("zext i1", "store i8")),
    "ptradd": ((ir.PtrAdd, ir.PtrToInt), _ptr_add, ("getelementptr inbounds i8", "ptrtoint")),
    "memset": ((ir.MemSet,), _memset, ('@"llvm.memset',)),
    "arrayfield": (
        (ir.ArrayField,),
        _array_field,
        ("extractvalue", "3, 1"),
    ),
    "alloc": (
        (ir.Alloc, ir.BlockData, ir.MakeArray),
        _alloc,
        ('@"jitcore_rt_alloc"', "insertvalue"),
    ),
    "refcounts": (
        (ir.Incref, ir.Decref),
        _refcounts,
        ('@"jitcore_rt_release"', "atomicrmw add", "atomicrmw sub"),  # counts shared by threads
    ),
    "listop": (
        (ir.ListOp,),
        _list_ops,
        ('@"jitcore.list.append.f64"', '@"jitcore.list.reserve.f64"'),
    ),
    "extract": ((ir.Extract, ir.ExtractDynamic), _extract, ("alloca [2 x i64]",)),
    "complex": ((ir.MakeComplex, ir.RealPart, ir.ImagPart), _complex, ("insertvalue",)),
    "ncall": ((ir.NativeCall, ir.CallFailed), _native_call, ('call ptr @"other.kernel"',)),
    "exceptions": (
        (ir.CallStatus, ir.ExcRaised, ir.ExcMatch),
        _exceptions,
        ("PyExc_FloatingPointError", "PyExc_KeyError", "icmp eq ptr"),
    ),
    "excformatted": (
        (ir.ExcFormatted,),
        _formatted_exception,
        ('@"jitcore_rt_exc_ring"', "atomicrmw add", "PyExc_ValueError"),
    ),
    "intrinsic": ((ir.Intrinsic,), _intrinsic, ('@"llvm.sqrt.f64"',)),
    "coldloop": ((ir.ColdLoop,), _cold_loop, ("!llvm.loop",)),
    "scalar": (
        (ir.BinOp, ir.UnaryOp, ir.Compare, ir.Select, ir.Cast, ir.Phi, ir.MakeTuple),
        _scalar_ops,
        ("mul i64", "sub i64 0", "icmp sgt", "select", "fptosi", "phi"),
    ),
}


def _generate(build: Callable) -> tuple[ir.Function, str]:
    fn, b, args = _function(ARRAY, T.I64, T.F64)
    build(b, args)
    generated = codegen.generate_module(fn, "test.low", JitOptions())
    text = str(generated.module)
    llvm.parse_assembly(text).verify()
    return fn, text


@pytest.mark.parametrize("case", CASES)
def test_each_low_op_becomes_its_llvm_operation(case: str) -> None:
    classes, build, expected = CASES[case]
    fn, text = _generate(build)
    assert set(classes) <= {type(i) for _, i in fn.instructions()}
    kernel = text[text.index('define ptr @"test.low"') :].split("\n}\n")[0]
    for snippet in expected:
        assert snippet in kernel, snippet


def test_the_cases_cover_every_low_ir_class_and_codegen_has_one_emitter_each() -> None:
    covered = {cls for classes, _, _ in CASES.values() for cls in classes}
    assert covered == set(ir.LOW_IR)
    assert emitted_classes() | {ir.Phi} == set(ir.LOW_IR)


@pytest.mark.parametrize("name", sorted(MATH_FUNCTIONS))
def test_every_maths_intrinsic_name_has_code(name: str) -> None:
    arity = {"fma": 3, "powmod": 3, "cpow": 2}.get(name, 2 if name in _BINARY else 1)
    t = (
        T.I64
        if name in {"ipow", "gcd", "powmod"} | OVERFLOW_CHECKS | INTEGER_INTRINSICS
        else T.F64
    )
    t = T.C128 if name in COMPLEX_LIBM else t
    result = T.BOOL if name in OVERFLOW_CHECKS else t

    def build(b: LowBuilder, a: list[ir.Arg]) -> None:
        x = b.cast(a[1], t)
        _finish(b, b.intrinsic(name, [x] * arity, result))

    _generate(build)


_BINARY = {
    "copysign",
    "pow",
    "minnum",
    "maxnum",
    "minimum",
    "maximum",
    "hypot",
    "atan2",
    "frem",
    "ipow",
    "gcd",
    *OVERFLOW_CHECKS,
    *INTEGER_INTRINSICS,
}


def test_fastmath_flags_come_from_the_options() -> None:
    fn, b, args = _function(ARRAY, T.I64, T.F64)
    _finish(b, b.binop("add", args[2], args[2]))
    fast = str(codegen.generate_module(fn, "test.fast", JitOptions(fastmath=True)).module)
    assert "fadd fast double" in fast
    fn, b, args = _function(ARRAY, T.I64, T.F64)
    _finish(b, b.binop("add", args[2], args[2]))
    plain = str(codegen.generate_module(fn, "test.plain", JitOptions()).module)
    assert "fadd double" in plain and "fast" not in plain


@pytest.mark.internal_error_expected
def test_an_unlowered_instruction_is_an_internal_error() -> None:
    fn, b, args = _function(ARRAY, T.I64, T.F64)
    _finish(b, b.emit(ir.GetItem(args[0], args[1], type=T.F64)))
    with pytest.raises(Exception, match="reached codegen unlowered"):
        codegen.generate_module(fn, "test.bad", JitOptions())
