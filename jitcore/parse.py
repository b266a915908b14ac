"""Stage `parse`: Python function -> `ParsedFunction` (its AST plus a frozen environment).

In:  a plain Python function.
Out: the function's `ast.FunctionDef` with line and column numbers of the user's file, and an
     `Environment` that resolves free names (globals, closure cells, builtins) to their values
     at compile time, recording each one read (the cache key and jitcheck use that record).
Holds afterwards: every AST node's `lineno`/`col_offset` are coordinates in `filename`.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import textwrap
from dataclasses import dataclass, field
from types import FunctionType

from jitcore.errors import SourceLoc, UnsupportedError
from jitcore.ir.markers import MISSING


@dataclass
class Environment:
    """Free names of the function, resolved against its globals, closure and builtins.

    Values are read once, at compile time: module-level constants and closure variables are
    compile-time constants of the specialization (DESIGN.md section 3).
    """

    globals: dict[str, object]
    closure: dict[str, object]
    read: dict[str, object] = field(default_factory=dict)

    def lookup(self, name: str) -> object:
        """The value `name` refers to, or `MISSING` if it is unbound."""
        if name in self.closure:
            value = self.closure[name]
        elif name in self.globals:
            value = self.globals[name]
        elif hasattr(builtins, name):
            return getattr(builtins, name)
        else:
            return MISSING
        self.read[name] = value
        return value


@dataclass
class ParsedFunction:
    func: FunctionType
    tree: ast.FunctionDef
    filename: str
    env: Environment
    arg_names: list[str]
    defaults: dict[str, object]
    source: str

    @property
    def name(self) -> str:
        return self.func.__name__

    @property
    def qualname(self) -> str:
        return self.func.__qualname__

    def loc(self, node: ast.AST) -> SourceLoc:
        """The user's file coordinates of an AST node."""
        line = getattr(node, "lineno", self.tree.lineno)
        col = getattr(node, "col_offset", 0)
        end_line = getattr(node, "end_lineno", line)
        end_col = getattr(node, "end_col_offset", None) if end_line == line else None
        return SourceLoc(self.filename, line, col, end_col)


def parse_function(func: FunctionType) -> ParsedFunction:
    """Read `func`'s source and environment (the `parse` stage)."""
    filename = inspect.getsourcefile(func) or func.__code__.co_filename
    try:
        lines, first_line = inspect.getsourcelines(func)
    except (OSError, TypeError) as exc:
        raise UnsupportedError(
            f"cannot read the source of {func.__qualname__}: {exc}",
            hint="jitcore compiles functions defined in a file, not in an interactive prompt",
        ) from None
    raw = "".join(lines)
    source = textwrap.dedent(raw)
    indent = _indent_removed(raw, source)
    module = ast.parse(source, filename=filename)
    tree = _find_def(module, func)
    if tree is None:
        loc = SourceLoc(filename, first_line, indent)
        raise UnsupportedError(
            "only functions written with `def` can be compiled",
            loc=loc,
            hint="write the lambda as a `def` function",
        )
    ast.increment_lineno(tree, first_line - 1)
    if indent:
        for node in ast.walk(tree):
            if hasattr(node, "col_offset"):
                node.col_offset += indent
                if getattr(node, "end_col_offset", None) is not None:
                    node.end_col_offset += indent  # type: ignore[attr-defined]
    _reject_unsupported_signature(tree, filename)
    closure = {}
    if func.__closure__:
        for name, cell in zip(func.__code__.co_freevars, func.__closure__):
            try:
                closure[name] = cell.cell_contents
            except ValueError:  # an empty cell: the variable is assigned later
                closure[name] = MISSING
    env = Environment(func.__globals__, closure)
    params = [a.arg for a in tree.args.posonlyargs + tree.args.args + tree.args.kwonlyargs]
    if tree.args.vararg is not None:  # `*args`: one tuple parameter, after the others
        params.append(tree.args.vararg.arg)
    sig = inspect.signature(func)
    defaults = {
        name: p.default
        for name, p in sig.parameters.items()
        if p.default is not inspect.Parameter.empty
    }
    return ParsedFunction(func, tree, filename, env, params, defaults, source)


def _indent_removed(raw: str, dedented: str) -> int:
    first_raw = next((ln for ln in raw.splitlines() if ln.strip()), "")
    first_new = next((ln for ln in dedented.splitlines() if ln.strip()), "")
    return len(first_raw) - len(first_new)


def _find_def(module: ast.Module, func: FunctionType) -> ast.FunctionDef | None:
    node: ast.AST
    for node in module.body:
        if isinstance(node, ast.FunctionDef) and node.name == func.__name__:
            return node
    for node in ast.walk(module):
        if isinstance(node, ast.FunctionDef) and node.name == func.__name__:
            return node
    return None


def _reject_unsupported_signature(tree: ast.FunctionDef, filename: str) -> None:
    args = tree.args
    for bad, what in ((args.kwarg, "**kwargs"),):
        if bad is not None:
            raise UnsupportedError(
                f"{what} parameters are not supported",
                loc=SourceLoc(filename, bad.lineno, bad.col_offset, bad.end_col_offset),
                hint="list the parameters explicitly",
            )
