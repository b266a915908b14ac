"""Strings, dicts and sets print and parse back at every stage (types `str`, `dict(k, v)`,
`set(k)`, `view(kind, ...)`; the runtime helper calls of low IR)."""

from __future__ import annotations

import numpy as np
import pytest

from jitcore import lower, optimize
from jitcore.ir import types as T
from jitcore.ir.parser import parse_ir
from jitcore.ir.printer import print_ir
from jitcore.ir.verify import verify
from jitcore.parse import parse_function
from jitcore.session import open_session
from jitcore.ssa import build_ssa
from jitcore.typeinfer import infer_types


def counting(a, kind):  # noqa: ANN001, ANN201
    d = {}
    for x in a:
        d[x] = d.get(x, 0) + 1
    s = {k for k in d if k > 0}
    if kind == "all" and 3 in s:
        del d[3]
    total = 0
    for k, v in d.items():
        total += k * v
    return d, s, kind + "!", total


SIGNATURE = (T.Array(T.I64, 1, "C"), T.STR)


def _no_callees(*args: object) -> object:
    raise AssertionError("no jitted callees here")


@pytest.mark.parametrize("f", [counting])
def test_every_stage_round_trips(f: object) -> None:
    with open_session():
        fn = build_ssa(parse_function(f))  # type: ignore[arg-type]
        texts = {"ssa": print_ir(fn)}
        infer_types(fn, SIGNATURE, _no_callees)  # type: ignore[arg-type]
        texts["typeinfer"] = print_ir(fn)
        optimize.run_passes(fn, keep_text=False, debug=True)
        texts["optimize"] = print_ir(fn)
        lower.lower_function(fn)
        texts["lower"] = print_ir(fn)
    assert "dict(i64, i64)" in texts["typeinfer"] and "set(i64)" in texts["typeinfer"]
    for stage, text in texts.items():
        parsed = parse_ir(text)
        assert print_ir(parsed) == text, stage
        verify(parsed, typed=stage != "ssa", stage=f"parse of {stage}")


def test_types_parse_back() -> None:
    for t in (
        T.STR,
        T.Dict(T.STR, T.Tuple((T.F64, T.STR))),
        T.Set(T.Tuple((T.I64, T.BOOL))),
        T.View(T.Dict(T.I64, T.F64), "items"),
        T.Dict(T.BOTTOM, T.BOTTOM),
    ):
        assert T.parse_type(t.name) == t
    assert np.dtype(np.int64)  # numpy imported for the signature's array type
