"""Random valid numerical programs, for differential tests of the whole compiler.

A program is a Python function `f(n, k, x, y, b, a)` (two ints, two floats, a bool, a 1-D
float64 array of at least one element) drawn by Hypothesis, with every variable of one type
(the generator tracks types as it goes), so each program is valid Python that jitcore should
compile. It mixes int/float/bool arithmetic (floor division and modulo by values that may be
zero, so ZeroDivisionError is part of the contract), `math` calls, comparisons, `and`/`or`,
`if`/`else`, bounded `for` and `while` loops, array reads at computed (also negative) indices,
writes into the array, in-place array operations, slices and reductions, and returns a tuple
of a scalar and an array from one of several paths.

The source is written to a module file so `parse` reads it like a user's function.
"""

from __future__ import annotations

import importlib.util
import itertools
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

PARAMETERS = {"n": "int", "k": "int", "x": "float", "y": "float", "b": "bool"}
_DIRECTORY = Path(tempfile.mkdtemp(prefix="jitcore_programs_"))
_SERIAL = itertools.count()


@dataclass
class _Scope:
    """Variables in scope by type; loop counters are ints that must not be assigned."""

    names: dict[str, str] = field(default_factory=lambda: dict(PARAMETERS))
    frozen: set[str] = field(default_factory=set)
    fresh: itertools.count = field(default_factory=lambda: itertools.count(1))

    def of(self, kind: str) -> list[str]:
        return sorted(n for n, t in self.names.items() if t == kind)

    def assignable(self, kind: str) -> list[str]:
        return [n for n in self.of(kind) if n not in self.frozen and n not in PARAMETERS]

    def new(self, kind: str) -> str:
        name = f"{kind[0]}{next(self.fresh)}"
        self.names[name] = kind
        return name


def _expr(draw: st.DrawFn, scope: _Scope, kind: str, depth: int) -> str:
    """An expression of type `kind` ("int", "float" or "bool")."""
    leaf = depth <= 0 or draw(st.integers(0, 3)) == 0
    if kind == "int":
        if leaf:
            return draw(
                st.one_of(
                    st.sampled_from(scope.of("int")),
                    st.integers(-4, 9).map(str),
                    st.just("len(a)"),
                )
            )
        a, c = _expr(draw, scope, "int", depth - 1), _expr(draw, scope, "int", depth - 1)
        op = draw(st.sampled_from(("+", "-", "*", "//", "%", "min", "max", "abs", "int")))
        if op in ("min", "max"):
            return f"{op}({a}, {c})"
        if op == "abs":
            return f"abs({a})"
        if op == "int":
            return f"int({_expr(draw, scope, 'float', depth - 1)} % 1000.0)"
        return f"({a} {op} {c})"
    if kind == "float":
        if leaf:
            return draw(
                st.one_of(
                    st.sampled_from(scope.of("float")),
                    st.sampled_from(("0.5", "1.5", "-2.25", "3.0", "0.0")),
                    st.builds(lambda i: f"a[{i}]", _index(draw, scope)),
                )
            )
        a, c = _expr(draw, scope, "float", depth - 1), _expr(draw, scope, "float", depth - 1)
        op = draw(
            st.sampled_from(
                ("+", "-", "*", "/", "//", "%", "mixed", "sqrt", "sin", "exp", "sum", "slice")
            )
        )
        if op == "mixed":  # an int meets a float: Python's rules
            return f"({_expr(draw, scope, 'int', depth - 1)} * {a})"
        if op == "sqrt":
            return f"math.sqrt(abs({a}))"
        if op == "sin":
            return f"math.sin({a})"
        if op == "exp":
            return f"math.exp(min({a}, 50.0))"
        if op == "sum":
            return "np.sum(a)"
        if op == "slice":
            lo, hi = _expr(draw, scope, "int", 0), _expr(draw, scope, "int", 0)
            return f"np.sum(a[{lo}:{hi}])"
        return f"({a} {op} {c})"
    if leaf:
        return draw(st.sampled_from([*scope.of("bool"), "True", "False"]))
    op = draw(st.sampled_from(("cmp_int", "cmp_float", "not", "and", "or")))
    if op == "cmp_int" or op == "cmp_float":
        t = "int" if op == "cmp_int" else "float"
        rel = draw(st.sampled_from(("<", "<=", "==", "!=", ">", ">=")))
        return f"({_expr(draw, scope, t, depth - 1)} {rel} {_expr(draw, scope, t, depth - 1)})"
    if op == "not":
        return f"(not {_expr(draw, scope, 'bool', depth - 1)})"
    return (
        f"({_expr(draw, scope, 'bool', depth - 1)} {op} {_expr(draw, scope, 'bool', depth - 1)})"
    )


def _index(draw: st.DrawFn, scope: _Scope) -> st.SearchStrategy[str]:
    """An in-range index of `a`, from any int expression, sometimes negative."""
    e = _expr(draw, scope, "int", 1)
    return st.sampled_from((f"({e}) % len(a)", f"-1 - ({e}) % len(a)"))


def _statements(draw: st.DrawFn, scope: _Scope, indent: str, budget: int, depth: int) -> list[str]:
    lines: list[str] = []
    for _ in range(draw(st.integers(1, budget))):
        simple = ("assign", "assign", "update", "store")
        kind = draw(st.sampled_from((*simple, "if", "for", "while") if depth > 0 else simple))
        if kind == "assign" or (kind == "update" and not scope.assignable("float")):
            t = draw(st.sampled_from(("int", "float", "bool")))
            value = _expr(draw, scope, t, 2)
            existing = scope.assignable(t)
            name = draw(st.sampled_from(existing)) if existing and draw(st.booleans()) else None
            lines.append(f"{indent}{name or scope.new(t)} = {value}")
        elif kind == "update":
            name = draw(st.sampled_from(scope.assignable("float")))
            op = draw(st.sampled_from(("+=", "-=", "*=")))
            lines.append(f"{indent}{name} {op} {_expr(draw, scope, 'float', 1)}")
        elif kind == "store":
            target = draw(st.sampled_from(("item", "inplace", "slice")))
            value = _expr(draw, scope, "float", 1)
            if target == "item":
                lines.append(f"{indent}a[{draw(_index(draw, scope))}] = {value}")
            elif target == "inplace":
                lines.append(f"{indent}a {draw(st.sampled_from(('+=', '*=')))} {value}")
            else:
                lines.append(f"{indent}a[1:] = {value}")
        elif kind == "if":
            lines.append(f"{indent}if {_expr(draw, scope, 'bool', 2)}:")
            lines += _block(draw, scope, indent + "    ", depth)
            lines.append(f"{indent}else:")
            lines += _block(draw, scope, indent + "    ", depth)
        elif kind == "for":
            counter = scope.new("int")
            lines.append(f"{indent}for {counter} in range({draw(st.integers(0, 4))}):")
            scope.frozen.add(counter)
            lines += _block(draw, scope, indent + "    ", depth)
        elif kind == "while":
            counter = scope.new("int")
            lines.append(f"{indent}{counter} = 0")
            lines.append(f"{indent}while {counter} < {draw(st.integers(0, 3))}:")
            scope.frozen.add(counter)
            body = _block(draw, scope, indent + "    ", depth)
            lines += [*body, f"{indent}    {counter} += 1"]
    return lines


def _block(draw: st.DrawFn, scope: _Scope, indent: str, depth: int) -> list[str]:
    """A nested block; names it defines do not escape (they may be unbound after it)."""
    inner = _Scope(dict(scope.names), set(scope.frozen), scope.fresh)
    return _statements(draw, inner, indent, 2, depth - 1)


@st.composite
def programs(draw: st.DrawFn) -> str:
    """The source of one program `f(n, k, x, y, b, a)`."""
    scope = _Scope()
    lines = ["import math", "import numpy as np", "", "", "def f(n, k, x, y, b, a):"]
    lines += _statements(draw, scope, "    ", 5, 2)
    scalar = draw(st.sampled_from(scope.of("float") + scope.of("int")))
    other = draw(st.sampled_from(scope.of("float")))
    cond = _expr(draw, scope, "bool", 1)
    lines += [
        f"    if {cond}:",
        f"        return ({scalar}, a * {other})",
        f"    return ({scalar}, a + 1.0)",
    ]
    return "\n".join(lines) + "\n"


def load(source: str) -> Callable[..., Any]:
    """The function `f` of `source`, from a module file of its own."""
    path = _DIRECTORY / f"program_{next(_SERIAL)}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.f  # type: ignore[no-any-return]
