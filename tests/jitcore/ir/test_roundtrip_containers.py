"""Strings, dicts and sets print and parse back at every stage (types `str`, `dict(k, v)`,
`set(k)`, `view(kind, ...)`; the runtime helper calls of low IR)."""

from __future__ import annotations

import numpy as np
import pytest

from jitcore.ir import types as T
from tests.jitcore.ir.stages import assert_round_trips, stage_texts


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


@pytest.mark.parametrize("f", [counting])
def test_every_stage_round_trips(f: object) -> None:
    texts = stage_texts(f, SIGNATURE)  # type: ignore[arg-type]
    assert "dict(i64, i64)" in texts["typeinfer"] and "set(i64)" in texts["typeinfer"]
    assert_round_trips(texts)


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
