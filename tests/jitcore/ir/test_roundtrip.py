"""IR text round trips at every stage, on generated programs: for each stage that produces IR
(`ssa`, `typeinfer`, `optimize` and each `optimize:<pass>`, `lower`), parsing the printed text
gives IR that prints the same and verifies.

The programs are small Python functions drawn by Hypothesis: ints, floats and bools, `if`,
`while` and `for ... in range`, arithmetic, comparisons, `and`/`or`, tuples, builtins, `math`,
and a few array operations (indexing, slicing, elementwise expressions that fuse, reductions).
Each is written to a module file, so `parse` reads its source like any user's.
"""

from __future__ import annotations

import importlib.util
import itertools
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from jitcore import lower, optimize
from jitcore.ir import types as T
from jitcore.ir.parser import parse_ir
from jitcore.ir.printer import print_ir
from jitcore.ir.verify import verify
from jitcore.parse import parse_function
from jitcore.session import open_session
from jitcore.ssa import build_ssa
from jitcore.typeinfer import infer_types

SIGNATURE = (T.I64, T.F64, T.BOOL, T.Array(T.F64, 1, "C"))
IR_STAGES = ("ssa", "typeinfer", "optimize", "lower")
_DIRECTORY = Path(tempfile.mkdtemp(prefix="jitcore_roundtrip_"))
_SERIAL = itertools.count()

INTS = ("i0", "i1", "i2")
FLOATS = ("x0", "x1", "x2")

# --- expressions, by type --------------------------------------------------------------------


def _binary(operands: st.SearchStrategy[str], ops: tuple[str, ...]) -> st.SearchStrategy[str]:
    return st.builds(lambda a, op, b: f"({a} {op} {b})", operands, st.sampled_from(ops), operands)


int_leaves = st.one_of(
    st.sampled_from(INTS),
    st.integers(-3, 7).map(str),
    st.just("len(a)"),
    st.just("a.shape[0]"),
)


def _int_ops(e: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        _binary(e, ("+", "-", "*")),
        st.builds(
            lambda a, op, b: f"({a} {op} (abs({b}) + 1))", e, st.sampled_from(("//", "%")), e
        ),
        st.builds(lambda f, a, b: f"{f}({a}, {b})", st.sampled_from(("min", "max")), e, e),
        e.map(lambda a: f"(-{a})"),
        e.map(lambda a: f"abs({a})"),
    )


int_exprs = st.recursive(int_leaves, _int_ops, max_leaves=3)

float_leaves = st.one_of(
    st.sampled_from(FLOATS),
    st.sampled_from(("0.5", "2.0", "-1.25", "1e3")),
    int_exprs.map(lambda i: f"float({i})"),
    st.just("a.sum()"),
    st.just("np.sum(a[1:])"),
    st.just("(a * 2.0 + a).sum()"),
    int_exprs.map(lambda i: f"a[{i} % (len(a) + 1)]"),
)


def _float_ops(e: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        _binary(e, ("+", "-", "*", "/")),
        st.builds(lambda a, b: f"({a} * {b})", e, int_exprs),
        e.map(lambda a: f"math.sqrt(abs({a}))"),
        e.map(lambda a: f"(-{a})"),
        st.builds(lambda a, b: f"np.maximum(a, {b}).max()", e, e),
    )


float_exprs = st.recursive(float_leaves, _float_ops, max_leaves=3)


def _bool_ops(e: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(lambda a, op, b: f"({a} {op} {b})", e, st.sampled_from(("and", "or")), e),
        e.map(lambda a: f"(not {a})"),
    )


comparisons = st.one_of(
    _binary(int_exprs, ("<", "<=", "==", "!=", ">", ">=")),
    _binary(float_exprs, ("<", ">=", "!=")),
    st.just("flag"),
)
bool_exprs = st.recursive(comparisons, _bool_ops, max_leaves=2)

# --- statements ----------------------------------------------------------------------------


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


simple_statements = st.one_of(
    st.builds(lambda v, e: [f"{v} = {e}"], st.sampled_from(INTS), int_exprs),
    st.builds(lambda v, e: [f"{v} = {e}"], st.sampled_from(FLOATS), float_exprs),
    st.builds(lambda e: [f"flag = {e}"], bool_exprs),
    st.builds(lambda i, x: [f"t = ({i}, {x})", "i1 = t[0]", "x1 = t[1]"], int_exprs, float_exprs),
)


def _compound(body: st.SearchStrategy[list[str]]) -> st.SearchStrategy[list[str]]:
    blocks = st.lists(body, min_size=1, max_size=2).map(lambda bs: [ln for b in bs for ln in b])
    return st.one_of(
        st.builds(
            lambda c, yes, no: [f"if {c}:", *_indent(yes), "else:", *_indent(no)],
            bool_exprs,
            blocks,
            blocks,
        ),
        st.builds(
            lambda n, b: [f"for k in range({n}):", *_indent(["i2 = i2 + k", *b])],
            int_exprs,
            blocks,
        ),
        st.builds(
            lambda c, b: ["w = 0", f"while w < 3 and {c}:", *_indent([*b, "w += 1"])],
            bool_exprs,
            blocks,
        ),
    )


statements = st.recursive(simple_statements, _compound, max_leaves=3)
bodies = st.lists(statements, min_size=1, max_size=3).map(lambda bs: [ln for b in bs for ln in b])

PROLOGUE = ["i0 = n", "i1 = 1", "i2 = 0", "x0 = x", "x1 = 0.5", "x2 = 0.0"]
EPILOGUE = ["return i0 + i1 + i2, x0 + x1 + x2, flag"]


def source_of(body: list[str]) -> str:
    lines = ["def generated(n, x, flag, a):", *_indent([*PROLOGUE, *body, *EPILOGUE])]
    return "import math\n\nimport numpy as np\n\n\n" + "\n".join(lines) + "\n"


def load(source: str):  # noqa: ANN201 - the generated function
    """Write `source` to a module file and import it (so `parse` can read its source)."""
    name = f"jitcore_roundtrip_{next(_SERIAL)}"
    path = _DIRECTORY / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.generated


def stage_texts(f: object) -> dict[str, str]:
    """The IR text of every stage up to `lower` (the stages `inspect` shows), without code
    generation: what the property is about is the text."""
    fn = build_ssa(parse_function(f))  # type: ignore[arg-type]
    texts = {"ssa": print_ir(fn)}
    infer_types(fn, SIGNATURE, _no_callees)  # type: ignore[arg-type]
    texts["typeinfer"] = print_ir(fn)
    for record in optimize.run_passes(fn, keep_text=True, debug=True):
        if record.ir_text is not None:
            texts[f"optimize:{record.name}"] = record.ir_text
    texts["optimize"] = print_ir(fn)
    lower.lower_function(fn)
    texts["lower"] = print_ir(fn)
    return texts


def _no_callees(*args: object) -> object:
    raise AssertionError("generated functions call no jitted functions")


@settings(max_examples=60, deadline=None)
@given(body=bodies)
def test_every_stage_round_trips(body: list[str]) -> None:
    source = source_of(body)
    with open_session():
        texts = stage_texts(load(source))
        for stage, text in texts.items():
            fn = parse_ir(text)
            assert print_ir(fn) == text, f"{stage} of\n{source}"
            verify(fn, typed=stage != "ssa", stage=f"parse of {stage}")
