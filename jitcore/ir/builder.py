"""A small builder that appends low IR to a function, block by block.

`lower` and the `jitcore.lib` emitters use it to expand one typed operation into machine-level
instructions, new blocks and error exits (`raise_if`), without knowing about LLVM.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from jitcore.errors import UNKNOWN_LOC, SourceLoc
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.coerce import convert_const


class LowBuilder:
    """Appends instructions at the end of `block`; `loc` is the source location they get."""

    def __init__(self, fn: ir.Function) -> None:
        self.fn = fn
        self.block: ir.Block = fn.blocks[0] if fn.blocks else fn.new_block("entry")
        self.loc: SourceLoc = UNKNOWN_LOC
        # While an operation's emitter runs: a bool that, when true, promises its argument
        # passes the operation's domain check (`optimize.domainguards`), or None.
        self.domain_guard: ir.Value | None = None

    # --- positioning and control flow -----------------------------------------------------

    def new_block(self, base: str) -> ir.Block:
        return self.fn.new_block(base)

    def position(self, block: ir.Block) -> None:
        self.block = block

    def jump(self, target: ir.Block) -> None:
        self.block.terminator = ir.Jump(target, loc=self.loc)

    def branch(self, cond: ir.Value, if_true: ir.Block, if_false: ir.Block) -> None:
        self.block.terminator = ir.Branch(cond, if_true, if_false, loc=self.loc)

    def raise_if(self, cond: ir.Value, exc: type, message: str) -> None:
        """If `cond` holds, raise `exc(message)`; emission continues on the other path."""
        if isinstance(cond, ir.Const):
            if not cond.value:
                return
        fail, cont = self.new_block("raise"), self.new_block("ok")
        self.branch(cond, fail, cont)
        fail.terminator = ir.Raise(exc, message, loc=self.loc)
        self.position(cont)

    def raise_unless_guarded(self, cond: ir.Value, exc: type, message: str) -> None:
        """`raise_if`, skipped at run time when `domain_guard` holds (one branch on a
        loop-invariant value, which LLVM unswitches)."""
        guard = self.domain_guard
        if guard is None:
            self.raise_if(cond, exc, message)
            return
        check, done = self.new_block("domaincheck"), self.new_block("checked")
        self.branch(guard, done, check)
        self.position(check)
        self.raise_if(cond, exc, message)
        self.jump(done)
        self.position(done)

    def native_call(self, symbol: str, args: list[ir.Value], type_: T.Type) -> ir.Value:
        """Call another kernel; if it raised, re-raise its exception from here."""
        call = self.emit(ir.NativeCall(symbol, list(args), type=type_))
        assert isinstance(call, ir.NativeCall)
        failed = self.emit(ir.CallFailed(call, type=T.BOOL))
        fail, cont = self.new_block("reraise"), self.new_block("ok")
        self.branch(failed, fail, cont)
        fail.terminator = ir.Reraise(call, loc=self.loc)
        self.position(cont)
        return call

    def phi(self, type_: T.Type, incoming: dict[ir.Block, ir.Value]) -> ir.Phi:
        phi = ir.Phi(dict(incoming), name=self.fn.fresh_name("t"), type=type_, loc=self.loc)
        self.block.instrs.insert(sum(1 for _ in self.block.phis()), phi)
        return phi

    # --- values ---------------------------------------------------------------------------

    def emit(self, instr: ir.Instr) -> ir.Instr:
        if not instr.name:
            instr.name = self.fn.fresh_name("t")
        if instr.loc is UNKNOWN_LOC:
            instr.loc = self.loc
        self.block.instrs.append(instr)
        return instr

    @staticmethod
    def const(value: object, type_: T.Type) -> ir.Const:
        return ir.Const(value, type=type_)

    def binop(
        self, op: str, lhs: ir.Value, rhs: ir.Value, type_: T.Type | None = None
    ) -> ir.Value:
        return self.emit(ir.BinOp(op, lhs, rhs, type=type_ or lhs.type))

    def cmp(self, op: str, lhs: ir.Value, rhs: ir.Value) -> ir.Value:
        return self.emit(ir.Compare(op, lhs, rhs, type=T.BOOL))

    def cast(self, value: ir.Value, to: T.Type) -> ir.Value:
        if value.type == to:
            return value
        if isinstance(value, ir.Const) and isinstance(to, T.Scalar) and _is_number(value.value):
            return ir.Const(convert_const(value.value, to), type=to)
        return self.emit(ir.Cast(value, type=to))

    def select(self, cond: ir.Value, a: ir.Value, b: ir.Value) -> ir.Value:
        return self.emit(ir.Select(cond, a, b, type=a.type))

    def intrinsic(self, fn: str, args: list[ir.Value], type_: T.Type) -> ir.Value:
        """Pure scalar maths by name (see `ir.Intrinsic`)."""
        return self.emit(ir.Intrinsic(fn, list(args), type=type_))

    def ptr_add(self, ptr: ir.Value, offset: ir.Value) -> ir.Value:
        return self.emit(ir.PtrAdd(ptr, self.cast(offset, T.I64), type=T.PTR))

    def and_(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self.binop("and", a, b, T.BOOL)

    def or_(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self.binop("or", a, b, T.BOOL)

    def not_(self, a: ir.Value) -> ir.Value:
        return self.binop("xor", a, ir.Const(True, type=T.BOOL), T.BOOL)

    def isnan(self, x: ir.Value) -> ir.Value:
        return self.cmp("uno", x, x)

    def isinf(self, x: ir.Value) -> ir.Value:
        return self.cmp(
            "eq",
            self.intrinsic("fabs", [x], cast(T.Type, x.type)),
            ir.Const(float("inf"), type=x.type),
        )

    def isfinite(self, x: ir.Value) -> ir.Value:
        return self.cmp(
            "lt",
            self.intrinsic("fabs", [x], cast(T.Type, x.type)),
            ir.Const(float("inf"), type=x.type),
        )

    def extract(self, tup: ir.Value, index: int) -> ir.Value:
        assert isinstance(tup.type, T.Tuple)
        return self.emit(ir.Extract(tup, index, type=tup.type.items[index]))

    def extract_dynamic(self, tup: ir.Value, index: ir.Value, type_: T.Type) -> ir.Value:
        """Item `index` (in range) of a tuple whose items all have type `type_`."""
        return self.emit(ir.ExtractDynamic(tup, self.cast(index, T.I64), type=type_))

    def make_tuple(self, items: list[ir.Value]) -> ir.Value:
        return self.emit(
            ir.MakeTuple(list(items), type=T.Tuple(tuple(cast(T.Type, i.type) for i in items)))
        )

    def real(self, z: ir.Value) -> ir.Value:
        return self.emit(ir.RealPart(z, type=T.complex_part(z.type)))  # type: ignore[arg-type]

    def imag(self, z: ir.Value) -> ir.Value:
        return self.emit(ir.ImagPart(z, type=T.complex_part(z.type)))  # type: ignore[arg-type]

    def complex(self, re: ir.Value, im: ir.Value, type_: T.Scalar) -> ir.Value:
        part = T.complex_part(type_)
        return self.emit(ir.MakeComplex(self.cast(re, part), self.cast(im, part), type=type_))


class Loop:
    """A counted loop `for index in range(start, stop)` (step 1) built in low IR.

    Creating it ends the current block and positions the builder in the body; `carried` values
    become header phis (read them as `loop.values`, update them with `finish(new_values)`).
    After `finish`, the builder is positioned after the loop, where `values` hold the results.
    """

    def __init__(
        self, b: LowBuilder, start: ir.Value, stop: ir.Value, carried: Sequence[ir.Value] = ()
    ) -> None:
        self.b = b
        pre = b.block
        self.header, self.body, self.exit = (
            b.new_block("loop"),
            b.new_block("body"),
            b.new_block("endloop"),
        )
        b.jump(self.header)
        b.position(self.header)
        self.index = b.phi(T.I64, {pre: b.cast(start, T.I64)})
        self.values: list[ir.Value] = [b.phi(v.type, {pre: v}) for v in carried]  # type: ignore[arg-type]
        b.branch(b.cmp("lt", self.index, b.cast(stop, T.I64)), self.body, self.exit)
        b.position(self.body)

    def finish(self, new_values: Sequence[ir.Value] = ()) -> None:
        b = self.b
        latch = b.block
        nxt = b.binop("add", self.index, ir.Const(1, type=T.I64))
        b.jump(self.header)
        assert isinstance(self.index, ir.Phi)
        self.index.incoming[latch] = nxt
        for phi, value in zip(self.values, new_values):
            phi.incoming[latch] = value  # type: ignore[attr-defined]
        b.position(self.exit)


def i64(value: int) -> ir.Const:
    return ir.Const(value, type=T.I64)


def _is_number(v: object) -> bool:
    return isinstance(v, int | float | complex | bool)
