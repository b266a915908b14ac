"""Calls of SciPy's BLAS and LAPACK routines: small internal helpers emitted into the module.

Low IR calls `ncall "jitcore.la.<routine>"(...)` (`dgemm`, `zgesv`...) with the kernel calling
convention: `ptr (ptr ret, args...)`, returning null. Its arguments are what compiled code
holds: ints as i64, reals as themselves, arrays as data pointers. The helper does what Fortran
wants: each argument in a stack slot (ints narrowed to int32), the constants one and zero for
`alpha`/`beta`, an `info` slot whose value becomes the call's result. It then calls the routine
by the name `jitcore.scipy.<library>.<routine>`, which the linker resolves in each process
(`runtime.externs`): no address is ever part of the machine code, so cached code stays valid.
"""

from __future__ import annotations

from llvmlite import ir as ll

from jitcore.codegen.types import (
    F32,
    F64,
    I8,
    I32,
    I64,
    NULL,
    PTR,
    VOID,
    declare_function,
    helper_body,
)
from jitcore.ir import nodes as ir
from jitcore.runtime import externs

PREFIX = "jitcore.la."


def _number_types(routine: str) -> tuple[ll.Type, ll.Type]:
    """(the routine's number type, its real part's type) by its first letter (s, d, c, z)."""
    real = F32 if routine[0] in "sc" else F64
    number = real if routine[0] in "sd" else ll.LiteralStructType([real, real])
    return number, real


def helper_params(routine: str) -> list[ll.Type]:
    """The LLVM types of the helper's arguments after the result slot."""
    _, kinds, _ = externs.routine_spec(routine)
    _, real = _number_types(routine)
    by_kind = {"c": I64, "i": I64, "p": PTR, "r": real, "x": PTR, "y": I64}
    return [by_kind[k] for k in kinds if k in by_kind]


def define_helper(module: ll.Module, call: ir.NativeCall) -> None:
    """Give the module the body of `call`'s helper (`jitcore.la.<routine>`), once."""
    name = call.symbol
    routine = name[len(PREFIX) :]
    fn = helper_body(module, name, helper_params(routine))
    if fn is None:
        return
    library, kinds, result = externs.routine_spec(routine)
    number, real = _number_types(routine)
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    given = iter(fn.args[1:])
    args: list[ll.Value] = []
    info = None
    for kind in kinds:
        if kind == "p":
            args.append(next(given))
            continue
        if kind in "xy":  # given, not passed (see externs.ROUTINES)
            next(given)
            continue
        slot_t = {"c": I8, "i": I32, "r": real, "o": I32}.get(kind, number)
        slot = b.alloca(slot_t)
        if kind == "c":
            b.store(b.trunc(next(given), I8), slot)
        elif kind == "i":
            b.store(b.trunc(next(given), I32), slot)
        elif kind == "r":
            b.store(next(given), slot)
        elif kind == "o":
            b.store(I32(0), slot)
            info = slot
        else:  # "1" / "0"
            b.store(_constant(number, real, float(kind)), slot)
        args.append(slot)
    ret_t = number if result == "x" else VOID
    target = declare_function(
        module, externs.scipy_symbol(library, routine), ret_t, [PTR] * len(args)
    )
    value = b.call(target, args)
    if result == "x":
        b.store(value, fn.args[0])
    elif info is not None:
        b.store(b.sext(b.load(info, typ=I32), I64), fn.args[0])
    else:
        b.store(I8(0), fn.args[0])  # None's byte
    b.ret(NULL)


def _constant(number: ll.Type, real: ll.Type, value: float) -> ll.Constant:
    if isinstance(number, ll.LiteralStructType):
        return ll.Constant(number, [ll.Constant(real, value), ll.Constant(real, 0.0)])
    return ll.Constant(number, value)
