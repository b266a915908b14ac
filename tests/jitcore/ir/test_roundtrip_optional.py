"""Optional values print and parse back at every stage (`optional(t)`, the checks `lower`
expands them into), and the verifier accepts what `lower` makes of them."""

from __future__ import annotations

from jitcore import lower, optimize
from jitcore.ir import types as T
from jitcore.ir.parser import parse_ir
from jitcore.ir.printer import print_ir
from jitcore.ir.verify import verify
from jitcore.parse import parse_function
from jitcore.session import open_session
from jitcore.ssa import build_ssa
from jitcore.typeinfer import infer_types


def optional_everywhere(a, flag):  # noqa: ANN001, ANN201
    idx = None
    out = None
    for i in range(a.shape[0]):
        if a[i] > 0:
            idx = i
            break
    if flag:
        out = a * 2.0
    if idx is None or not idx:
        return None, out
    return idx + 1, out


SIGNATURE = (T.Array(T.F64, 1, "C"), T.BOOL)


def _no_callees(*args: object) -> object:
    raise AssertionError("no jitted callees here")


def test_every_stage_round_trips() -> None:
    with open_session():
        fn = build_ssa(parse_function(optional_everywhere))  # type: ignore[arg-type]
        texts = {"ssa": print_ir(fn)}
        infer_types(fn, SIGNATURE, _no_callees)  # type: ignore[arg-type]
        texts["typeinfer"] = print_ir(fn)
        optimize.run_passes(fn, keep_text=False, debug=True)
        texts["optimize"] = print_ir(fn)
        lower.lower_function(fn)
        verify(fn, typed=True, stage="lower")
        texts["lower"] = print_ir(fn)
    assert "optional(i64)" in texts["typeinfer"]
    assert "optional(array(f64, 1d, C))" in texts["typeinfer"]
    for stage, text in texts.items():
        parsed = parse_ir(text)
        assert print_ir(parsed) == text, stage
        verify(parsed, typed=stage != "ssa", stage=f"parse of {stage}")


def test_optional_types_parse_back() -> None:
    for t in (
        T.Optional(T.I64),
        T.Optional(T.Array(T.F32, 2, "A")),
        T.Optional(T.Tuple((T.F64, T.Array(T.I64, 1, "C")))),
    ):
        assert T.parse_type(t.name) == t
