"""Shared by the round-trip tests: a function's IR at each stage, and the check that every
stage's text parses back into the same text and a valid function."""

from __future__ import annotations

from collections.abc import Callable

from jitcore import lower, optimize
from jitcore.ir import types as T
from jitcore.ir.parser import parse_ir
from jitcore.ir.printer import print_ir
from jitcore.ir.verify import verify
from jitcore.parse import parse_function
from jitcore.session import open_session
from jitcore.ssa import build_ssa
from jitcore.typeinfer import infer_types


def _no_callees(*args: object) -> object:
    raise AssertionError("no jitted callees here")


def stage_texts(f: Callable[..., object], signature: tuple[T.Type, ...]) -> dict[str, str]:
    """The printed IR of `f` after ssa, typeinfer, optimize and lower."""
    with open_session():
        fn = build_ssa(parse_function(f))  # type: ignore[arg-type]
        texts = {"ssa": print_ir(fn)}
        infer_types(fn, signature, _no_callees)  # type: ignore[arg-type]
        texts["typeinfer"] = print_ir(fn)
        optimize.run_passes(fn, keep_text=False, debug=True)
        texts["optimize"] = print_ir(fn)
        lower.lower_function(fn)
        verify(fn, typed=True, stage="lower")
        texts["lower"] = print_ir(fn)
    return texts


def assert_round_trips(texts: dict[str, str]) -> None:
    for stage, text in texts.items():
        parsed = parse_ir(text)
        assert print_ir(parsed) == text, stage
        verify(parsed, typed=stage != "ssa", stage=f"parse of {stage}")
