"""Fixtures for jitcheck's tests: pytester, and a deliberately broken compiler pass.

The plugin is tested the way Hypothesis tests its own pytest plugin: each test writes a small
test module with `pytester.makepyfile`, runs pytest on it (in-process where possible: a
subprocess costs a second of imports) and checks the outcomes and the report.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator

import pytest

import jitcheck
import jitcore
from jitcore import jit
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.optimize import Pass, register_pass, unregister_pass

BREAK_SUB = "test-break-float-sub"


@pytest.fixture(scope="session", autouse=True)
def _import_everything_first() -> None:
    """Import every module an in-process child run may need, before the first one runs.

    `runpytest_inprocess` removes the modules a child run imported when it ends; the next
    child would import them again, and two copies of llvmlite's classes fail each other's
    isinstance checks inside jitcore. Modules already imported stay.
    """
    for package in (jitcore, jitcheck):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            try:
                importlib.import_module(module.name)
            except Exception:  # noqa: BLE001 - a module nothing imports cannot be duplicated
                continue
    for name in ("hypothesis.extra.numpy", "pytest_benchmark.plugin", "numpy.typing"):
        importlib.import_module(name)
    jit(_increment)(1.0)  # jitcore's lazy initialisation (LLVM, its runtime) happens here


def _increment(x: float) -> float:
    return x + 1.0


def _break_float_sub(fn: ir.Function) -> bool:
    """Miscompile `a - b` of floats into `a - a`, keeping types and implementation valid.

    Idempotent on purpose: jitcore inlines a callee's already optimized IR, so the pass can
    meet the same subtraction twice (an operand swap would undo itself).
    """
    changed = False
    for block in fn.blocks:
        for instr in block.instrs:
            if isinstance(instr, ir.BinOp) and instr.op == "sub" and instr.type == T.F64:
                changed |= instr.rhs is not instr.lhs
                instr.rhs = instr.lhs
    return changed


@pytest.fixture
def miscompile() -> Iterator[None]:
    """Every compilation while the test runs turns float `a - b` into `a - a`. It affects only
    functions compiled after it is registered: use fresh (pytester) modules."""
    register_pass(Pass(BREAK_SUB, _break_float_sub), after="dce")
    yield
    unregister_pass(BREAK_SUB)
