"""Part of stage `ssa`: nested `def` and `lambda` (closures that do not escape), inlined.

`def g(y): ...` inside a jitted function, and `g = lambda y: ...`, bind `g` at compile time.
Each call `g(a, b=c)` builds g's body in place: its parameters and locals get names of their
own (so they never clobber the caller's variables), its free variables read the caller's
variables as they are at the call (which is what a Python closure sees), and each `return`
jumps to the end of the call with its value. Calling `(lambda x: ...)(v)` directly works too.

A nested function used as a value (`sorted(xs, key=lambda t: t[1])`, `apply(g, a)`) becomes
a function of its own when it reads none of the enclosing function's variables (globals and
builtins only; its defaults constants): a compile-time constant, compiled like a module-level
function, with the user's line numbers. One that reads enclosing variables is an
UnsupportedError: a closure cannot leave the function it was made in. Recursion of a nested
function and `nonlocal` are not supported either.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass
from types import FunctionType
from typing import TYPE_CHECKING

from jitcore.ir import nodes as ir
from jitcore.parse import MadeTree

if TYPE_CHECKING:
    from jitcore.ssa import _Builder

Nested = ast.FunctionDef | ast.Lambda


@dataclass
class _Frame:
    result: str
    join: ir.Block


def define(b: _Builder, name: str, node: Nested) -> None:
    """Bind `name` to a nested function at compile time."""
    _check_signature(b, node)
    previous = b.nested.get(name)
    if previous is not None and previous is not node and name != "<lambda>":
        raise b.unsupported(
            node,
            f"`{name}` is bound to a second nested function: which one a call means would "
            "depend on the path taken (compiled code binds nested functions while compiling)",
            "give each nested function a name of its own",
        )
    b.nested[name] = node
    # Python evaluates defaults once, where the function is defined (`lambda a, b=x: ...`
    # keeps the x of that moment, whatever x is when it is called)
    hidden: dict[str, str] = {}
    for param, default in _defaults(node).items():
        var = b.hidden_var(f"{name}.default.{param}")
        b.write(var, b.expr(default))
        b.locals.add(var)
        hidden[param] = var
    b.nested_defaults[name] = hidden


def _check_signature(b: _Builder, node: Nested) -> None:
    """Plain parameters only, no decorators: what compiled code can bind at a call."""
    args = node.args
    if args.vararg or args.kwarg or args.posonlyargs:
        raise b.unsupported(
            node,
            "nested functions with *args, **kwargs or positional-only parameters are not "
            "supported",
            "give the nested function plain parameters",
        )
    if isinstance(node, ast.FunctionDef) and node.decorator_list:
        raise b.unsupported(
            node.decorator_list[0],
            "decorated nested functions are not supported",
            "define the function at module level",
        )


def _defaults(node: Nested) -> dict[str, ast.expr]:
    args = node.args
    params = [a.arg for a in args.args]
    defaults = dict(zip(params[len(params) - len(args.defaults) :], args.defaults))
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d})
    return defaults


def as_value(b: _Builder, node: Nested, name: str, at: ast.AST) -> ir.Value:
    """A nested function (or a lambda) used as a value at `at`: a function object of its own,
    if it reads nothing from the enclosing function."""
    _check_signature(b, node)
    params = {a.arg for a in (*node.args.args, *node.args.kwonlyargs)}
    inner = node.body if isinstance(node.body, list) else [node.body]
    stored = {
        n.id for part in inner for n in ast.walk(part)
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
    }  # fmt: skip
    enclosing = b.locals | set(b.nested) | set(b.parsed.env.closure)
    for part in inner:
        for n in ast.walk(part):
            if (
                isinstance(n, ast.Name)
                and n.id not in params | stored
                and (n.id in enclosing or n.id.startswith("$"))
            ):
                raise b.unsupported(
                    at,
                    f"the nested function `{name}` reads `{n.id}` of the function around it, "
                    "so it can only be called here, not passed",
                    f"pass `{n.id}` to it as an argument, or define it at module level",
                )
    if any(not isinstance(d, ast.Constant) for d in _defaults(node).values()):
        raise b.unsupported(
            at,
            f"the nested function `{name}` has defaults that are not constants",
            "give it constant defaults, or define it at module level",
        )
    made = b.parsed.escaped.get(id(node))
    if made is None:
        made = _function_of(b, node, name)
        b.parsed.escaped[id(node)] = made
    return ir.Const(made)


def _function_of(b: _Builder, node: Nested, name: str) -> FunctionType:
    """A module-level function with `node`'s parameters and body, in the enclosing function's
    globals, with `node`'s line numbers (errors point into the user's file)."""
    fname = "_lambda" if isinstance(node, ast.Lambda) else node.name
    body: list[ast.stmt] = [ast.Return(node.body)] if isinstance(node, ast.Lambda) else node.body
    tree = ast.FunctionDef(fname, node.args, body, [], None, None)
    ast.copy_location(tree, node)
    ast.fix_missing_locations(tree)
    namespace: dict[str, object] = {}
    code = compile(ast.Module([tree], []), b.parsed.filename, "exec")
    exec(code, b.parsed.func.__globals__, namespace)  # noqa: S102 - the user's own code
    made = namespace[fname]
    assert isinstance(made, FunctionType)
    made.__qualname__ = f"{b.parsed.qualname}.<locals>.{name}"
    made.__module__ = b.parsed.func.__module__
    made.__jitcore_tree__ = MadeTree(tree, b.parsed.filename, ast.unparse(tree))  # type: ignore[attr-defined]
    return made


def assign_lambda(b: _Builder, node: ast.Assign) -> bool:
    """`g = lambda ...`: bind `g` to the lambda (True), or False for other assignments."""
    if (
        isinstance(node.value, ast.Lambda)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
    ):
        define(b, node.targets[0].id, node.value)
        return True
    return False


def call(b: _Builder, node: ast.Call) -> ir.Value | None:
    """Inline a call of a nested function; None if `node` calls something else."""
    func = node.func
    if isinstance(func, ast.Lambda):
        define(b, "<lambda>", func)
        target: Nested = func
        name = "<lambda>"
    elif isinstance(func, ast.Name) and func.id in b.nested:
        target, name = b.nested[func.id], func.id
    else:
        return None
    if name in b.inlining:
        raise b.unsupported(
            node,
            f"the nested function `{name}` calls itself",
            "define a recursive function at module level",
        )
    values = _bind_arguments(b, node, target, name)
    renames = {p: b.hidden_var(f"{name}.{p}") for p in _locals_of(target)}
    for param, value in values.items():
        b.write(renames[param], value)
    b.locals |= set(renames.values())
    body = _Renamer(renames).visit(copy.deepcopy(target))
    b.inlining.append(name)
    try:
        if isinstance(body, ast.Lambda):
            return b.expr(body.body)
        return _inline_body(b, body, name, node)
    finally:
        b.inlining.pop()


def _bind_arguments(b: _Builder, node: ast.Call, target: Nested, name: str) -> dict:
    args = target.args
    params = [a.arg for a in args.args]
    kwonly = [a.arg for a in args.kwonlyargs]
    if any(isinstance(a, ast.Starred) for a in node.args) or any(
        kw.arg is None for kw in node.keywords
    ):
        raise b.unsupported(node, "`*args` in calls is not supported", "pass the arguments")
    if len(node.args) > len(params):
        raise b.unsupported(
            node,
            f"`{name}` takes {len(params)} positional arguments, {len(node.args)} given",
            "pass as many arguments as the function takes",
        )
    values: dict[str, ir.Value] = {}
    for param, arg in zip(params, node.args):
        values[param] = b.expr(arg)
    for kw in node.keywords:
        if kw.arg not in params and kw.arg not in kwonly or kw.arg in values:
            raise b.unsupported(
                kw.value,
                f"`{name}` got an unexpected or repeated argument `{kw.arg}`",
                "check the parameter names",
            )
        values[kw.arg] = b.expr(kw.value)  # type: ignore[index]
    defaults = b.nested_defaults.get(name, {})
    for param in [*params, *kwonly]:
        if param not in values:
            if param not in defaults:
                raise b.unsupported(
                    node,
                    f"`{name}` is missing the argument `{param}`",
                    "pass every parameter without a default",
                )
            values[param] = b.read(defaults[param])
    return values


def _locals_of(target: Nested) -> set[str]:
    """Parameters and the names the function assigns: Python's local names of `target`."""
    names = {a.arg for a in (*target.args.args, *target.args.kwonlyargs)}
    body = target.body if isinstance(target.body, list) else [target.body]
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            if isinstance(node, ast.ExceptHandler) and node.name is not None:
                names.add(node.name)  # `except E as e` binds `e`
            if isinstance(node, ast.Nonlocal | ast.Global):
                names.difference_update(node.names)
    return names


class _Renamer(ast.NodeTransformer):
    """Renames the nested function's locals, not the names nested lambdas bind themselves."""

    def __init__(self, renames: dict[str, str]) -> None:
        self.renames = renames

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id in self.renames:
            node.id = self.renames[node.id]
        return node

    def visit_arg(self, node: ast.arg) -> ast.arg:
        return node

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.ExceptHandler:
        if node.name in self.renames:
            node.name = self.renames[node.name]
        self.generic_visit(node)
        return node


def _inline_body(b: _Builder, fn: ast.FunctionDef, name: str, call: ast.Call) -> ir.Value:
    loc = b.parsed.loc(call)
    frame = _Frame(b.hidden_var(f"{name}.result"), b._new_block("inlined"))
    saved_loops, saved_finals = b.loops, b.tries.finals
    b.loops, b.tries.finals = [], []
    b.frames.append(frame)
    try:
        b.body(fn.body)
        b.write(frame.result, ir.Const(None))  # falling off the end returns None
        b._jump(frame.join, loc)
    finally:
        b.frames.pop()
        b.loops, b.tries.finals = saved_loops, saved_finals
    b.seal(frame.join)
    b._start(frame.join)
    return b.read(frame.result)


def return_from_inlined(b: _Builder, value: ir.Value, node: ast.Return) -> bool:
    """`return` inside an inlined nested function: jump to the end of its call (True)."""
    if not b.frames:
        return False
    frame = b.frames[-1]
    b.write(frame.result, value)
    b._jump(frame.join, b.parsed.loc(node))
    return True
