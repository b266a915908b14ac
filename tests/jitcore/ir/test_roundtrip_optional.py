"""Optional values print and parse back at every stage (`optional(t)`, the checks `lower`
expands them into), and the verifier accepts what `lower` makes of them."""

from __future__ import annotations

from jitcore.ir import types as T
from tests.jitcore.ir.stages import assert_round_trips, stage_texts


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


def test_every_stage_round_trips() -> None:
    texts = stage_texts(optional_everywhere, SIGNATURE)
    assert "optional(i64)" in texts["typeinfer"]
    assert "optional(array(f64, 1d, C))" in texts["typeinfer"]
    assert_round_trips(texts)


def test_optional_types_parse_back() -> None:
    for t in (
        T.Optional(T.I64),
        T.Optional(T.Array(T.F32, 2, "A")),
        T.Optional(T.Tuple((T.F64, T.Array(T.I64, 1, "C")))),
    ):
        assert T.parse_type(t.name) == t
