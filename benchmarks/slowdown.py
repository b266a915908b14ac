"""A planted slowdown for the gate experiment: a registered pass that adds redundant work.

Loaded as a pytest plugin (`-p benchmarks.slowdown`) with `JITCHECK_SLOWDOWN=KERNEL:N`, it
registers the pass `slowdown`, which follows every float element read from an array in the
function named KERNEL with a chain of N additions of +0.0. Adding +0.0 changes no value (it
only turns -0.0 into +0.0, which compares equal), and LLVM may not remove it without
fast-math: an array element may be -0.0, and -0.0 + 0.0 is +0.0. So the redundant additions
stay in the machine code (on a result LLVM can prove is never -0.0, such as a sum started at
0.0, it would fold them: that is why the pass pads loads). `python -m benchmarks.gate_noise`
uses it; the package's code is untouched.
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


def redundant_additions(kernel: str, count: int) -> Pass:
    """The pass: `count` additions of +0.0 after each float element read in `kernel`."""

    def run(fn: ir.Function) -> bool:
        if fn.name.rsplit(".", 1)[-1] != kernel:
            return False
        impl = resolve_binop("add", Operand(T.F64), Operand(T.F64), fn.loc)
        changed = False
        for block in fn.blocks:
            for instr in list(block.instrs):
                if isinstance(instr, ir.GetItem) and instr.type == T.F64:
                    _pad(fn, block, instr, count, impl)
                    changed = True
        return changed

    return Pass(PASS_NAME, run, f"{count} redundant +0.0 after each float read of {kernel}")


def _pad(fn: ir.Function, block: ir.Block, instr: ir.Instr, count: int, impl: object) -> None:
    """Insert `count` additions of +0.0 after `instr`; the last one takes over its uses."""
    at = block.instrs.index(instr) + 1
    pads: list[ir.BinOp] = []
    for _ in range(count):
        zero = ir.Const(0.0, type=T.F64)
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
        kernel, _, count = spec.partition(":")
        register_pass(redundant_additions(kernel, int(count or 1)), after="dce")


def pytest_unconfigure(config: pytest.Config) -> None:
    unregister_pass(PASS_NAME)
