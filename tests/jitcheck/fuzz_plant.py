"""Compiler bugs planted for the fuzzer's own tests, in the process that compiles.

Imported by the fuzz worker (`Runner(preload=...)` or `$JITCHECK_FUZZ_PRELOAD`), or in the
test process by `plant()`. `$JITCHECK_FUZZ_PLANT` chooses the bug: `sub` (a float `a - b`
or `a / b` computes `b - a`, `b / a`: a registered optimization pass, as
benchmarks/mutants.py plants them) or `crash` (compiling any function with `crash` in its
name kills the process with SIGSEGV, as a wild store in compiled code would).
"""

from __future__ import annotations

import os
import signal

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.optimize import Pass, register_pass, unregister_pass

ENV = "JITCHECK_FUZZ_PLANT"
PASS_NAME = "fuzz-plant"
SWAPPED = ("sub", "div")


def _swap_float_sub(fn: ir.Function) -> bool:
    changed = False
    for _, instr in fn.instructions():
        if isinstance(instr, ir.BinOp) and instr.op in SWAPPED and instr.type == T.F64:
            if instr.lhs is not instr.rhs:
                instr.lhs, instr.rhs = instr.rhs, instr.lhs
                changed = True
    return changed


def _crash(fn: ir.Function) -> bool:
    if "crash" in fn.name:
        os.kill(os.getpid(), signal.SIGSEGV)
    return False


PLANTS = {"sub": _swap_float_sub, "crash": _crash}


def plant(name: str) -> None:
    register_pass(Pass(PASS_NAME, PLANTS[name], f"planted bug {name!r}"), after="dce")


def unplant() -> None:
    unregister_pass(PASS_NAME)


if os.environ.get(ENV):
    plant(os.environ[ENV])
