"""A planted slowdown for the gate experiment: a registered pass that adds redundant work.

Loaded as a pytest plugin (`-p benchmarks.slowdown`) with `JITCHECK_SLOWDOWN=KERNEL:N`, it
registers the pass `slowdown`, which follows every float element read from an array in the
function named KERNEL with a chain of N additions of a zero. Adding a zero changes no value
(+0.0 only turns -0.0 into +0.0, which compares equal), and LLVM may not remove it without
fast-math. The zero is `float(k) * 0.0` of an int `k` the function computes first (a shape,
say): LLVM cannot know its sign, so it cannot fold even a chain of such additions, and N
tunes the slowdown (with the constant +0.0, `(x + 0.0) + 0.0` folds to one addition, since
`x + 0.0` is never -0.0). `python -m benchmarks.gate_noise` uses it; the package's code is
untouched.
"""

from __future__ import annotations

import os

import pytest

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.lib.operators import resolve_binop
from jitcore.lib.registry import Operand
from jitcore.optimize import Pass, register_pass, unregister_pass

PASS_NAME = "slowdown"
ENV = "JITCHECK_SLOWDOWN"


def redundant_additions(kernel: str, count: int, every: int = 1) -> Pass:
    """The pass: `count` additions of a zero after every `every`-th float element read (in
    IR order: the `every`-th, the 2 `every`-th, ...) in `kernel`. Measured: dot_loop:2 +25%,
    gelu_loop:4 +23%, matmul:1 +47% (matmul:1/2 only +7%: the cost is not linear)."""

    def run(fn: ir.Function) -> bool:
        if fn.name.rsplit(".", 1)[-1] != kernel:
            return False
        impl = resolve_binop("add", Operand(T.F64), Operand(T.F64), fn.loc)
        zero, defined = _opaque_zero(fn)
        reads = [
            (block, instr)
            for block in fn.blocks
            for instr in list(block.instrs)
            if isinstance(instr, ir.GetItem) and instr.type == T.F64
        ]
        for block, instr in reads[every - 1 :: every]:
            if block is fn.blocks[0] and block.instrs.index(instr) < defined:
                continue  # read before the zero exists
            _pad(fn, block, instr, count, impl, zero)
        return bool(reads)

    what = "each float read" if every == 1 else f"every {every}th float read"
    return Pass(PASS_NAME, run, f"{count} redundant +0.0 after {what} of {kernel}")


def _opaque_zero(fn: ir.Function) -> tuple[ir.Value, int]:
    """`float(k) * 0.0` after the entry block's first int64 `k` (a zero whose sign LLVM
    cannot know), and the entry position after which it exists; the constant +0.0 when the
    entry block computes no int."""
    entry = fn.blocks[0]
    for at, instr in enumerate(entry.instrs):
        if instr.type == T.I64:
            as_float = ir.Cast(instr, name=fn.fresh_name("t"), type=T.F64)
            mul = resolve_binop("mul", Operand(T.F64), Operand(T.F64), fn.loc)
            zero = ir.BinOp(
                "mul", as_float, ir.Const(0.0, type=T.F64), name=fn.fresh_name("t"),
                type=T.F64, impl=mul,
            )  # fmt: skip
            entry.instrs[at + 1 : at + 1] = [as_float, zero]
            return zero, at + 3
    return ir.Const(0.0, type=T.F64), 0


def _pad(
    fn: ir.Function, block: ir.Block, instr: ir.Instr, count: int, impl: object, zero: ir.Value
) -> None:
    """Insert `count` additions of `zero` after `instr`; the last one takes over its uses."""
    at = block.instrs.index(instr) + 1
    pads: list[ir.BinOp] = []
    for _ in range(count):
        pads.append(ir.BinOp("add", instr, zero, name=fn.fresh_name("t"), type=T.F64, impl=impl))
    if not pads:
        return
    fn.replace_all_uses(instr, pads[-1])
    previous: ir.Value = instr
    for pad in pads:
        pad.lhs = previous
        previous = pad
    block.instrs[at:at] = pads


def pytest_configure(config: pytest.Config) -> None:
    spec = os.environ.get(ENV, "")
    if spec:
        register_pass(parse_spec(spec), after="dce")


def parse_spec(spec: str) -> Pass:
    """The pass `KERNEL:N` (N additions after each float read) or `KERNEL:N/M` (after every
    M-th) names."""
    kernel, _, amount = spec.partition(":")
    count, _, every = (amount or "1").partition("/")
    return redundant_additions(kernel, int(count), int(every or 1))


def pytest_unconfigure(config: pytest.Config) -> None:
    unregister_pass(PASS_NAME)
