"""Stable IR text of small functions after `ssa`, `typeinfer`, `optimize` and `lower`, and IR
text as the contract between stages: every listing reads back to IR that prints the same, and
typed IR read back from its text compiles to a function that computes the same.

Run `pytest --update-golden` to rewrite the listings, then read the diff line by line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from jitcore import codegen, jit, llvm_opt, lower, machine_code, optimize
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.parser import parse_ir
from jitcore.ir.printer import print_ir
from jitcore.ir.verify import verify
from jitcore.options import JitOptions
from jitcore.parse import parse_function
from jitcore.session import open_session
from jitcore.ssa import build_ssa
from jitcore.typeinfer import infer_types
from tests.jitcore.golden import cases

GOLDEN = Path(__file__).parent / "golden"
STAGES = ("ssa", "typeinfer", "optimize", "lower")
F64_1D = T.Array(T.F64, 1, "C")
SIGNATURES: dict[str, tuple[T.Type, ...]] = {
    "add": (T.I64, T.F64),
    "branch": (T.I64,),
    "loop": (T.I64,),
    "short_circuit": (T.I64, T.F64),
    "promote": (T.I64, T.F64),
    "min_floordiv": (T.I64, T.I64),
    "scale": (F64_1D,),
    "total": (F64_1D,),
    "middle": (F64_1D,),
    "fused": (F64_1D, F64_1D),
    "checked_index": (F64_1D, T.I64),
    "stencil": (F64_1D, F64_1D, F64_1D),
}
VECTOR = np.array([1.5, -2.0, 3.25, 0.0, 7.0])
INPUTS: dict[str, list[tuple[Any, ...]]] = {
    "add": [(3, 0.5), (-7, 2.25)],
    "branch": [(5,), (-3,), (0,)],
    "loop": [(0,), (10,)],
    "short_circuit": [(1, 2.0), (0, 2.0), (1, -1.0)],
    "promote": [(3, 0.5), (3, 4.5)],
    "min_floordiv": [(17, 5), (-17, 5), (1000, 3), (1, 0)],
    "scale": [(VECTOR,)],
    "total": [(VECTOR,)],
    "middle": [(VECTOR,)],
    "fused": [(VECTOR, VECTOR[::-1].copy()), (VECTOR, VECTOR[:2].copy())],
    "checked_index": [(VECTOR, 2), (VECTOR, -1), (VECTOR, 5)],
    "stencil": [(VECTOR, VECTOR, VECTOR * 0), (VECTOR, VECTOR[:3].copy(), VECTOR * 0)],
}


def _no_callees(*args: object) -> object:
    raise AssertionError("golden cases call no jitted functions")


def typed_ir(name: str) -> ir.Function:
    fn = build_ssa(parse_function(getattr(cases, name)))
    infer_types(fn, SIGNATURES[name], _no_callees)  # type: ignore[arg-type]
    return fn


def run_stages(fn: ir.Function, first: str, last: str) -> ir.Function:
    """Run the stages after `first` up to `last` on `fn` (`ssa` output is built, not run)."""
    for stage in STAGES[STAGES.index(first) + 1 : STAGES.index(last) + 1]:
        if stage == "optimize":
            optimize.run_passes(fn, debug=True)
        elif stage == "lower":
            lower.lower_function(fn)
        verify(fn, typed=True, stage=stage)
    return fn


def stage_text(name: str, stage: str) -> str:
    with open_session():
        if stage == "ssa":
            return print_ir(build_ssa(parse_function(getattr(cases, name)))) + "\n"
        return print_ir(run_stages(typed_ir(name), "typeinfer", stage)) + "\n"


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_golden_ir(name: str, stage: str, request: pytest.FixtureRequest) -> None:
    path = GOLDEN / stage / f"{name}.ir"
    text = stage_text(name, stage)
    if request.config.getoption("--update-golden"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"missing {path}; run pytest --update-golden"
    assert text == path.read_text()


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_golden_listing_reads_back(name: str, stage: str) -> None:
    text = (GOLDEN / stage / f"{name}.ir").read_text()
    with open_session():
        fn = parse_ir(text)
    verify(fn, typed=stage != "ssa", stage=f"parse of {stage}")
    assert print_ir(fn) + "\n" == text


def compile_ir(fn: ir.Function, symbol: str) -> machine_code.NativeFunction:
    """Code generation and machine code for lowered IR (keep the result alive while calling
    its entry point: it owns the code)."""
    generated = codegen.generate_module(fn, symbol, JitOptions())
    code = machine_code.emit_object(llvm_opt.optimize_module(generated.module, 2), 2)
    (native,) = machine_code.link(
        [machine_code.Unit(generated.kernel, generated.entry, code, tuple(generated.callees))],
        [symbol],
    )
    return native


def outcome(f: Callable[..., Any], args: tuple[Any, ...]) -> object:
    try:
        result = f(*args)
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome compared
        return type(exc)
    return result.tolist() if isinstance(result, np.ndarray) else result


@pytest.mark.parametrize("first", ["typeinfer", "optimize", "lower"])
@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_ir_read_from_text_compiles_the_same(name: str, first: str) -> None:
    """parse(print(IR)) -> the remaining stages -> machine code computes what Python does."""
    py = getattr(cases, name)
    jit(py, mode="compiled")(*INPUTS[name][0])  # links the library kernels it calls
    with open_session():
        text = print_ir(run_stages(typed_ir(name), "typeinfer", first))
        fn = run_stages(parse_ir(text), first, "lower")
    native = compile_ir(fn, f"golden.{name}.from_{first}")
    for args in INPUTS[name]:
        assert outcome(native.callable, args) == outcome(py, args), args
