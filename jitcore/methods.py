"""The Module front end: a jitted method of a `jitcore.Module` becomes a plain jitted function.

`self.<path>` in the method's source is resolved against the Module instance when the method
is compiled:

* a `Variable` becomes an array parameter (the Variable's own array, so writes are in place):
  `self.v` reads it (`v[()]` for a 0-d Variable), `self.v += x` and `self.v[i] = x` write into
  it, `self.v = x` / `self.v.value = x` become `assign_value(v, x)` (shape and dtype kept);
* a plain NumPy array attribute becomes an array parameter too (read as the caller's array);
* a method of the Module or of a sub-Module (jitted or not) becomes a call of its own
  generated function, which takes the Variables it uses from its caller;
* anything else (numbers, strings, tuples, functions) is a compile-time constant.

A generated function is keyed by what each path resolved to, constants by value: a changed
`self.dt` or a Variable replaced by one of another kind makes a new function (and compiles
it), never a silent reuse of the old value. The generated tree keeps the user's line and
column numbers, so errors point into the user's file (parse reads it from `__jitcore_tree__`).
"""

from __future__ import annotations

import ast
import copy
import inspect
import itertools
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FunctionType
from typing import Any

import numpy as np

from jitcore import dispatcher as _dispatcher
from jitcore.dispatcher import Dispatcher
from jitcore.errors import JitFallbackWarning, SourceLoc, UnsupportedError
from jitcore.lib import variables as _variables
from jitcore.options import ExecutionMode, JitOptions
from jitcore.parse import MadeTree, parse_function
from jitcore.state import Module, Variable, set_binder

__all__ = ["BoundMethod", "Generated", "bound_method", "generate", "path_key"]

Path = tuple[str, ...]
_SERIAL = itertools.count()
_SCALARS = (bool, int, float, complex, str, bytes, type(None), np.generic, np.dtype)


@dataclass
class Generated:
    """One generated function: its dispatcher, the paths whose arrays it takes (in parameter
    order, after which come the method's own parameters) and the key it is valid for."""

    dispatcher: Dispatcher
    params: list[Path]
    key: tuple[Any, ...]
    paths: list[Path]


# --- what a path refers to -------------------------------------------------------------------


def walk(root: Module, path: Path) -> Any:
    """The object `root.<path>` (methods as found on the class, not bound)."""
    obj: Any = root
    for name in path:
        if isinstance(obj, Module) and name not in vars(obj):
            static = inspect.getattr_static(type(obj), name, None)
            if _is_method(static):
                obj = _MethodRef(obj, _method_function(static))
                continue
        obj = getattr(obj, name)
    return obj


@dataclass(frozen=True)
class _MethodRef:
    module: Module
    func: FunctionType


def _is_method(static: object) -> bool:
    return isinstance(static, (FunctionType, Dispatcher))


def _method_function(static: object) -> FunctionType:
    func = static.py_func if isinstance(static, Dispatcher) else static
    assert isinstance(func, FunctionType)
    return func


def _const_key(value: Any) -> Any:
    """A hashable identity of a constant: by value for numbers, strings and tuples of them
    (NaN equal to NaN, -0.0 distinct from 0.0), by identity for other objects."""
    if isinstance(value, _SCALARS):
        return (type(value), repr(value))
    if isinstance(value, tuple):
        return (tuple, tuple(_const_key(v) for v in value))
    return (type(value), id(value))


def path_key(value: Any) -> Any:
    """What the generated code assumed of the object at one path."""
    if isinstance(value, Variable):
        return ("variable", value.ndim == 0)
    if isinstance(value, np.ndarray):
        return ("array",)
    if isinstance(value, Module):
        return ("module", type(value))
    if isinstance(value, _MethodRef):
        return ("method", value.func)
    return ("const", _const_key(value))


def current_key(root: Module, paths: list[Path]) -> tuple[Any, ...]:
    return tuple(path_key(walk(root, p)) for p in paths)


# --- the transformation ------------------------------------------------------------------------


def param_name(path: Path) -> str:
    return "_jcv_" + "__".join(path)


@dataclass
class _Context:
    """State of one generation: functions made so far (per module and method) and the paths
    every function's validity depends on."""

    options: JitOptions
    made: dict[tuple[int, FunctionType], Generated] = field(default_factory=dict)
    active: set[tuple[int, FunctionType]] = field(default_factory=set)


def generate(root: Module, func: FunctionType, options: JitOptions) -> Generated:
    """Generate (not yet compile) the function for `root`'s method `func`."""
    return _generate(root, func, _Context(options))


def _generate(module: Module, func: FunctionType, ctx: _Context) -> Generated:
    ident = (id(module), func)
    if ident in ctx.made:
        return ctx.made[ident]
    parsed = parse_function(func)
    if ident in ctx.active:
        raise UnsupportedError(
            f"{func.__qualname__} calls itself through `self`",
            loc=parsed.loc(parsed.tree),
            hint="recursive Module methods are not supported; write the recursion in a "
            "plain @jit function and call it",
        )
    ctx.active.add(ident)
    try:
        rewriter = _Rewriter(module, parsed, ctx)
        tree = rewriter.rewrite()
    finally:
        ctx.active.discard(ident)
    params = rewriter.params()
    namespace = dict(func.__globals__)
    namespace.update(parsed.env.closure)
    namespace.update(rewriter.injected)
    source = ast.unparse(tree)
    code = compile(ast.Module([tree], []), parsed.filename, "exec")
    exec(code, namespace)  # noqa: S102 - our own tree, made from the user's method
    made = namespace[tree.name]
    made.__jitcore_tree__ = MadeTree(tree, parsed.filename, source)
    made.__qualname__ = func.__qualname__
    made.__module__ = func.__module__
    paths = rewriter.paths()
    generated = Generated(Dispatcher(made, ctx.options), params, current_key(module, paths), paths)
    ctx.made[ident] = generated
    return generated


class _Rewriter(ast.NodeTransformer):
    """Rewrites one method's tree (see the module docstring)."""

    def __init__(self, module: Module, parsed: Any, ctx: _Context) -> None:
        self.module = module
        self.parsed = parsed
        self.ctx = ctx
        self.injected: dict[str, Any] = {"_jc_assign": _variables.assign_value}
        self._params: dict[Path, None] = {}  # arrays taken, in order of first use
        self._paths: dict[Path, None] = {}
        self._consts: dict[Path, str] = {}
        self.self_name = ""

    # results

    def params(self) -> list[Path]:
        return list(self._params)

    def paths(self) -> list[Path]:
        return list(self._paths)

    def rewrite(self) -> ast.FunctionDef:
        tree = copy.deepcopy(self.parsed.tree)
        args = tree.args
        positional = args.posonlyargs + args.args
        if not positional:
            raise self._error(tree, "a Module method needs `self` as its first parameter")
        self.self_name = positional[0].arg
        if args.posonlyargs:
            args.posonlyargs = args.posonlyargs[1:]
        else:
            args.args = args.args[1:]
        tree.decorator_list = []
        tree.returns = None
        for a in args.posonlyargs + args.args + args.kwonlyargs:
            a.annotation = None
        tree.body = [self.visit(stmt) for stmt in tree.body]
        new_args = [ast.copy_location(ast.arg(arg=param_name(p)), tree) for p in self._params]
        args.args = new_args + args.args
        ast.fix_missing_locations(tree)
        return tree

    # errors

    def _error(self, node: ast.AST, message: str, hint: str = "") -> UnsupportedError:
        loc: SourceLoc = self.parsed.loc(node)
        return UnsupportedError(message, loc=loc, hint=hint or None)

    # chains of attributes on self

    def _chain(self, node: ast.AST) -> Path | None:
        names: list[str] = []
        while isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id == self.self_name:
            return tuple(reversed(names))
        return None

    def _resolve(self, node: ast.AST, chain: Path) -> tuple[str, int, Any]:
        """(kind, number of names consumed, value) for `self.<chain>`."""
        obj: Any = self.module
        for i in range(len(chain)):
            path = chain[: i + 1]
            try:
                obj = walk(self.module, path)
            except AttributeError:
                shown = ".".join((self.self_name, *path))
                raise self._error(
                    node,
                    f"`{shown}` does not exist on this {type(self.module).__name__}",
                    hint="set every attribute in __init__ before calling a jitted method",
                ) from None
            self._paths[path] = None
            if isinstance(obj, Module):
                continue
            if isinstance(obj, Variable):
                return "variable", i + 1, obj
            if isinstance(obj, np.ndarray):
                return "array", i + 1, obj
            if isinstance(obj, _MethodRef):
                return "method", i + 1, obj
            return self._resolve_const(chain, i + 1, obj)
        return "module", len(chain), obj

    def _resolve_const(self, chain: Path, used: int, obj: Any) -> tuple[str, int, Any]:
        """Follow attributes of a plain object (`self.params.dt`) as far as they go."""
        while used < len(chain) and not isinstance(obj, (*_SCALARS, tuple, np.ndarray)):
            if callable(obj) or not hasattr(obj, chain[used]):
                break
            obj = getattr(obj, chain[used])
            used += 1
            self._paths[chain[:used]] = None
        if isinstance(obj, np.ndarray):
            return "array", used, obj
        return "const", used, obj

    def _array_name(self, path: Path, node: ast.AST) -> ast.Name:
        self._params[path] = None
        return ast.copy_location(ast.Name(id=param_name(path), ctx=ast.Load()), node)

    def _replace(self, node: ast.AST, chain: Path, *, raw: bool = False) -> ast.expr:
        """The expression standing for `self.<chain>` in a load."""
        kind, used, value = self._resolve(node, chain)
        rest = list(chain[used:])
        path = chain[:used]
        expr: ast.expr
        if kind == "variable":
            expr = self._array_name(path, node)
            if rest and rest[0] == "value":
                rest = rest[1:]
            if not rest and not raw and value.ndim == 0:
                expr = ast.copy_location(
                    ast.Subscript(
                        value=expr, slice=ast.Tuple(elts=[], ctx=ast.Load()), ctx=ast.Load()
                    ),
                    node,
                )
        elif kind == "array":
            expr = self._array_name(path, node)
        elif kind == "const":
            name = self._consts.get(path)
            if name is None:
                name = f"_jcc_{len(self._consts)}_{'_'.join(path)}"
                self._consts[path] = name
                self.injected[name] = value
            expr = ast.copy_location(ast.Name(id=name, ctx=ast.Load()), node)
        elif kind == "method":
            raise self._error(
                node,
                f"the method `{'.'.join(path)}` can only be called here",
                hint="call it: methods are compiled together with their caller",
            )
        else:
            raise self._error(
                node,
                f"the Module `{'.'.join((self.self_name, *path))}` cannot be used as a value "
                "in compiled code",
                hint="use its Variables or call its methods",
            )
        for name in rest:
            expr = ast.copy_location(ast.Attribute(value=expr, attr=name, ctx=ast.Load()), node)
        return expr

    # visitors

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id == self.self_name:
            raise self._error(
                node,
                f"`{self.self_name}` itself cannot be used in compiled code",
                hint=f"use `{self.self_name}.<attribute>`: Variables, constants, methods",
            )
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        chain = self._chain(node)
        if chain is None:
            return self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load):
            raise self._store_error(node, chain)
        return self._replace(node, chain)

    def _store_error(self, node: ast.AST, chain: Path) -> UnsupportedError:
        shown = ".".join((self.self_name, *chain))
        return self._error(
            node,
            f"`{shown}` is a constant of compiled code and cannot be assigned",
            hint="make it a jitcore.Variable to change it in a jitted method",
        )

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        chain = self._chain(node.value)
        if chain is not None:
            node.value = self._replace(node.value, chain, raw=True)
            node.slice = self.visit(node.slice)
            return node
        return self.generic_visit(node)

    def _variable_target(self, target: ast.AST) -> tuple[Path, ast.Name] | None:
        chain = self._chain(target)
        if chain is None:
            return None
        kind, used, _ = self._resolve(target, chain)
        rest = chain[used:]
        if kind != "variable" or rest not in ((), ("value",)):
            raise self._store_error(target, chain)
        return chain[:used], self._array_name(chain[:used], target)

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        hit = [t for t in node.targets if self._chain(t) is not None]
        if not hit:
            return self.generic_visit(node)
        if len(node.targets) != 1:
            raise self._error(hit[0], "assign a Variable in a statement of its own (`self.v = x`)")
        found = self._variable_target(node.targets[0])
        assert found is not None
        value = self.visit(node.value)
        call = ast.Call(
            func=ast.Name(id="_jc_assign", ctx=ast.Load()), args=[found[1], value], keywords=[]
        )
        return ast.copy_location(ast.Expr(value=ast.copy_location(call, node)), node)

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        found = self._variable_target(node.target)
        if found is None:
            return self.generic_visit(node)
        target = ast.copy_location(ast.Name(id=found[1].id, ctx=ast.Store()), node.target)
        return ast.copy_location(
            ast.AugAssign(target=target, op=node.op, value=self.visit(node.value)), node
        )

    def visit_Call(self, node: ast.Call) -> ast.AST:
        chain = self._chain(node.func)
        if chain is None:
            return self.generic_visit(node)
        kind, used, value = self._resolve(node.func, chain)
        if kind != "method" or used != len(chain):
            return self.generic_visit(node)
        callee = _generate(value.module, value.func, self.ctx)
        prefix = chain[:-1]
        for p in callee.paths:
            self._paths[prefix + p] = None
        name = f"_jcf_{len(self.injected)}_{chain[-1]}"
        self.injected[name] = callee.dispatcher
        args: list[ast.expr] = [self._array_name(prefix + p, node) for p in callee.params]
        args += [self.visit(a) for a in node.args]
        keywords = [self.visit(k) for k in node.keywords]
        func = ast.copy_location(ast.Name(id=name, ctx=ast.Load()), node.func)
        return ast.copy_location(ast.Call(func=func, args=args, keywords=keywords), node)


# --- binding: calling a jitted method ------------------------------------------------------------


class BoundMethod:
    """A jitted method bound to one Module: generates and compiles on demand, then calls the
    compiled function with the Variables' arrays (`model.update(x)`)."""

    def __init__(self, module: Module, method: Dispatcher) -> None:
        self.module = module
        self.method = method
        self.func: FunctionType = method.py_func  # type: ignore[assignment]
        self.__name__ = self.func.__name__
        self.__doc__ = self.func.__doc__

    def __repr__(self) -> str:
        return f"<jitted method {self.func.__qualname__} of {type(self.module).__name__}>"

    @property
    def py_func(self) -> Callable[..., Any]:
        """The original method, bound: what runs in Python mode."""
        return self.func.__get__(self.module)

    def generated(self, options: JitOptions | None = None) -> Generated:
        """The generated function for the Module's current constants (made if needed)."""
        options = options or self.method.options
        table = _table(self.module, self.func, options)
        last = table.get("last")
        if last is not None and _unchanged(self.module, last):
            return last[0]  # type: ignore[no-any-return]
        shared = _SHARED.setdefault((self.func, options), [])
        made = next((g for g in reversed(shared) if _fits(self.module, g)), None)
        if made is None:
            made = generate(self.module, self.func, options)
            shared.append(made)
            del shared[:-_SHARED_PER_METHOD]
        table["last"] = (made, _snapshot(self.module, made.paths))
        return made

    def arrays(self, generated: Generated) -> list[Any]:
        """The arrays the generated function takes, in parameter order."""
        return [_storage(walk(self.module, p)) for p in generated.params]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        mode = self.method.options.mode
        if mode is ExecutionMode.PYTHON or _python_mode_on():
            return self.func(self.module, *args, **kwargs)
        try:
            generated = self.generated()
        except UnsupportedError as exc:
            if mode is ExecutionMode.COMPILED:
                raise exc.with_traceback(None) from None
            _warn_fallback(self.func, str(exc))
            return self.func(self.module, *args, **kwargs)
        return generated.dispatcher(*self.arrays(generated), *args, **kwargs)

    def inspect(self, stage: str = "typeinfer", signature: Any = None) -> str:
        """IR text of a stage of the generated function (see `Dispatcher.inspect`)."""
        return self.generated().dispatcher.inspect(stage, signature)


# Generated functions shared by every Module whose paths resolve to the same key (instances of
# a class with equal constants share compiled code); the most recent few per method.
_SHARED: dict[tuple[FunctionType, JitOptions], list[Generated]] = {}
_SHARED_PER_METHOD = 32


def _identity(value: Any) -> Any:
    return value.func if isinstance(value, _MethodRef) else value


def _snapshot(module: Module, paths: list[Path]) -> list[Any]:
    """The objects the paths lead to now: while every path leads to the very same object, the
    key cannot have changed (a cheaper test than computing the key, made on every call)."""
    return [_identity(walk(module, p)) for p in paths]


def _unchanged(module: Module, last: tuple[Generated, list[Any]]) -> bool:
    generated, objects = last
    try:
        return all(_identity(walk(module, p)) is obj for p, obj in zip(generated.paths, objects))
    except AttributeError:
        return False


def _fits(module: Module, generated: Generated) -> bool:
    try:
        return current_key(module, generated.paths) == generated.key
    except AttributeError:  # a path this Module does not have
        return False


def _storage(value: Any) -> Any:
    return value._array if isinstance(value, Variable) else value


def _python_mode_on() -> bool:
    return bool(_dispatcher._PYTHON_MODE[0])


def _table(module: Module, func: FunctionType, options: JitOptions) -> dict[Any, Any]:
    """The generated functions of one method of one Module (kept on the Module, not pickled)."""
    tables: dict[Any, dict[Any, Any]] = module.__dict__.setdefault("_jitcore_methods", {})
    return tables.setdefault((func, options), {})


def _warn_fallback(func: FunctionType, reason: str) -> None:
    warnings.warn(
        f"{func.__qualname__} runs as Python: {reason}", JitFallbackWarning, stacklevel=3
    )


def bound_method(module: Module, method: Dispatcher) -> BoundMethod:
    return BoundMethod(module, method)


def jit_module(module: Module, options: JitOptions, name: str = "__call__") -> BoundMethod:
    """`jit(model)`: the Module's `__call__` (or `name`) compiled as a jitted method."""
    static = inspect.getattr_static(type(module), name, None)
    if not _is_method(static):
        raise TypeError(f"{type(module).__name__} has no method {name}() to compile")
    return BoundMethod(module, Dispatcher(_method_function(static), options))


set_binder(bound_method)
