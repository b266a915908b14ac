"""Outlining prange loops: under `parallel=True`, a prange loop's body becomes a function.

In:  the `parse` stage's product of a function compiled with `parallel=True`.
Out: the same function with each outermost `for i in prange(...)` loop replaced by a call to a
     new jitted function (its *body function*), plus those body functions. For

         for i in prange(start, stop, step):      # s is read before the loop
             s += f(a[i]); m = min(m, a[i]); out[i] = ...

     the body function is

         def __jitcore_prange_0__(__lo, __hi, __start, __step, a, out, __seed_m):
             s = 0; m = __seed_m
             for __k in range(__lo, __hi):
                 i = __start + __k * __step
                 s += f(a[i]); m = min(m, a[i]); out[i] = ...
             return (s, m)

     compiled with `JitOptions.prange_body = ("+", "min")`, so that codegen wraps it in a
     launcher that runs chunks of `0..n` on native threads and combines the partial results
     with those operators (`jitcore.codegen.launcher`); the loop becomes

         __n = <the length of range(start, stop, step)>
         __r = __jitcore_prange_0__(0, __n, start, step, a, out, m)
         s = s + __r[0]; m = min(m, __r[1])

A *reduction* is a variable defined before the loop whose every write in the body is
`v op= e` or `v = v op e` (`+ - * | & ^`; `e op v` too for the commutative ones) or
`v = min(v, e)` / `max`, all with one operator, and that the body reads nowhere else. `+ - * ^`
start each chunk from their identity (0 or 1), `| & min max` from the value before the loop
(applying them twice changes nothing). Every other variable the body assigns is private to an
iteration; reading one after the loop is an error (its value would depend on the schedule).
The body may not `return` or `break` out of the prange loop. prange loops inside the body run
serially (the body function is not parallel: nested parallelism would oversubscribe).
"""

from __future__ import annotations

import ast
import builtins
import copy
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from jitcore.errors import UnsupportedError
from jitcore.ir.markers import MISSING, reduction_identity, reduction_seed
from jitcore.parallel.api import prange
from jitcore.parse import Environment, ParsedFunction

if TYPE_CHECKING:
    from jitcore.dispatcher import Dispatcher

PREFIX = "__jitcore_prange_"

_AUG_OPS: dict[type, str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.BitOr: "|",
    ast.BitAnd: "&",
    ast.BitXor: "^",
}
_COMMUTATIVE = {"+", "*", "|", "&", "^"}
_IDENTITY = {"+": 0, "-": 0, "*": 1, "^": 0}  # the others start from the value before the loop
_COMBINE = {"-": "+"}  # partials of `v -= e` are sums of -e
# The functions a body calls to start each chunk's reductions, by the names it calls them
_MARKERS = {"__reduction_identity": reduction_identity, "__reduction_seed": reduction_seed}


@dataclass
class Reduction:
    name: str
    op: str  # as written: + - * | & ^ min max

    @property
    def combine(self) -> str:
        """The operator that combines partial results (and the partial with the old value)."""
        return _COMBINE.get(self.op, self.op)

    @property
    def seeded(self) -> bool:
        """Whether each chunk starts from the value before the loop (else from an identity)."""
        return self.op not in _IDENTITY


@dataclass
class _Scope:
    """What the whole function assigns, for telling its locals from globals; and its
    *aliases*: locals assigned once, from a pure expression of parameters never assigned
    (`n = a.shape[0]`, `n, d = X.shape`), which a body can recompute."""

    params: list[str]
    assigned: set[str] = field(default_factory=set)
    aliases: dict[str, ast.expr] = field(default_factory=dict)


def _aliases(tree: ast.FunctionDef, params: list[str]) -> dict[str, ast.expr]:
    nodes = _walk_own(tree.body, into_loops=True)
    stores: dict[str, int] = {}
    for n in nodes:
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del):
            stores[n.id] = stores.get(n.id, 0) + 1
    fixed = {p for p in params if p not in stores}
    out: dict[str, ast.expr] = {}
    for n in nodes:
        if not isinstance(n, ast.Assign) or len(n.targets) != 1 or not _pure(n.value):
            continue
        if not _loaded_names([n.value]) - {"len"} <= fixed:
            continue
        target = n.targets[0]
        parts: list[tuple[ast.expr, ast.expr]]
        if isinstance(target, ast.Name):
            parts = [(target, n.value)]
        elif isinstance(target, ast.Tuple) and all(isinstance(t, ast.Name) for t in target.elts):
            parts = [
                (t, ast.Subscript(value=n.value, slice=ast.Constant(i), ctx=ast.Load()))
                for i, t in enumerate(target.elts)
            ]
        else:
            continue
        for name_node, expr in parts:
            assert isinstance(name_node, ast.Name)
            if stores.get(name_node.id) == 1:
                out[name_node.id] = expr
    return out


def outline_prange_loops(
    parsed: ParsedFunction, owner: Dispatcher, make_dispatcher: Callable[..., Dispatcher]
) -> tuple[ParsedFunction, dict[str, Dispatcher]]:
    """`parsed` with its outermost prange loops outlined, and the body functions by name
    (made with `make_dispatcher(func, options)`: the Dispatcher class, which this module does
    not import, as `dispatcher` imports it)."""
    tree = copy.deepcopy(parsed.tree)
    scope = _Scope(parsed.arg_names, _assigned_names(tree.body), _aliases(tree, parsed.arg_names))
    outliner = _Outliner(parsed, owner, tree, scope, make_dispatcher)
    tree.body = outliner.statements(tree.body, enclosing_loops=[])
    if not outliner.bodies:
        return parsed, {}
    ast.fix_missing_locations(tree)
    closure = dict(parsed.env.closure)
    closure.update(outliner.bodies)
    env = Environment(parsed.env.globals, closure)
    outer = ParsedFunction(
        parsed.func, tree, parsed.filename, env, parsed.arg_names, parsed.defaults, parsed.source
    )
    return outer, outliner.bodies


class _Outliner:
    def __init__(
        self,
        parsed: ParsedFunction,
        owner: Dispatcher,
        tree: ast.FunctionDef,
        scope: _Scope,
        make_dispatcher: Callable[..., Dispatcher],
    ) -> None:
        self.make_dispatcher = make_dispatcher
        self.parsed = parsed
        self.owner = owner
        self.tree = tree
        self.scope = scope
        self.bodies: dict[str, Dispatcher] = {}

    def is_local(self, name: str) -> bool:
        return name in self.scope.assigned or name in self.scope.params

    def is_prange(self, node: ast.stmt) -> bool:
        if not isinstance(node, ast.For) or not isinstance(node.iter, ast.Call):
            return False
        return self.global_value(node.iter.func) is prange

    def global_value(self, node: ast.expr) -> object:
        """The module-level object a name or dotted name (`jitcore.prange`) refers to, else
        MISSING (a local shadows it)."""
        if isinstance(node, ast.Name):
            if self.is_local(node.id):
                return MISSING
            env = self.parsed.env
            return env.closure.get(node.id, env.globals.get(node.id, MISSING))
        if isinstance(node, ast.Attribute):
            owner = self.global_value(node.value)
            if isinstance(owner, types.ModuleType):
                return getattr(owner, node.attr, MISSING)
        return MISSING

    def statements(self, body: list[ast.stmt], enclosing_loops: list[ast.AST]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for node in body:
            if self.is_prange(node):
                assert isinstance(node, ast.For)
                out.extend(self.outline(node, enclosing_loops))
                continue
            loops = enclosing_loops + [node] if isinstance(node, ast.For | ast.While) else None
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(node, name, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    setattr(node, name, self.statements(inner, loops or enclosing_loops))
            for handler in getattr(node, "handlers", []):
                handler.body = self.statements(handler.body, loops or enclosing_loops)
            out.append(node)
        return out

    # --- one loop -----------------------------------------------------------------------

    def error(self, node: ast.AST, message: str, hint: str) -> UnsupportedError:
        return UnsupportedError(message, loc=self.parsed.loc(node), hint=hint)

    def outline(self, loop: ast.For, enclosing_loops: list[ast.AST]) -> list[ast.stmt]:
        call = loop.iter
        assert isinstance(call, ast.Call)
        self.check_loop(loop, call)
        assert isinstance(loop.target, ast.Name)
        index_name = loop.target.id
        assigned = _assigned_names(loop.body) | {index_name}
        reductions = self.reductions(loop, assigned - {index_name})
        reduced = {r.name for r in reductions}
        self.check_not_read_after(loop, assigned - reduced, enclosing_loops)
        loaded = _loaded_names(loop.body) | _loaded_names(call.args)
        needed = {n for n in loaded - assigned if self.is_local(n)}
        # names that are one shape of a parameter (`n = a.shape[0]`, `n, d = X.shape`) are
        # recomputed in the body, so that its loops are proven in bounds as the serial ones are
        aliases = {n: e for n, e in self.scope.aliases.items() if n in needed}
        for expr in aliases.values():
            needed |= _loaded_names([expr]) - {"len"}
        captured = sorted(needed - set(aliases))
        k = len(self.bodies)
        name = f"{PREFIX}{k}__"
        start, stop, step = _range_args(call)
        unit = _is_int(start, 0) and _is_int(step, 1)
        hidden = f"__prange{k}"
        bounds = [] if unit else ["__start", "__step"]
        seeds = [f"__seed_{r.name}" for r in reductions]  # identities take their types
        params = ["__lo", "__hi", *bounds, *captured, *seeds]
        self.bodies[name] = self.body_function(name, loop, params, reductions, unit, aliases)
        # the loop's replacement in the outer function
        stmts: list[ast.stmt] = []
        names = {"start": start, "stop": stop, "step": step}
        for part in ("start", "stop", "step"):
            stmts.append(
                ast.Assign(targets=[_store(f"{hidden}_{part}")], value=names[part], lineno=0)
            )
        stmts.extend(_count_statements(hidden))
        args: list[ast.expr] = [ast.Constant(0), _load(f"{hidden}_n")]
        if not unit:
            args += [_load(f"{hidden}_start"), _load(f"{hidden}_step")]
        args += [_load(n) for n in captured]
        args += [_load(r.name) for r in reductions]
        launch = ast.Call(func=_load(name), args=args, keywords=[])
        if reductions:
            stmts.append(ast.Assign(targets=[_store(f"{hidden}_out")], value=launch, lineno=0))
            for i, r in enumerate(reductions):
                item = ast.Subscript(
                    value=_load(f"{hidden}_out"), slice=ast.Constant(i), ctx=ast.Load()
                )
                stmts.append(
                    ast.Assign(targets=[_store(r.name)], value=_combined(r, item), lineno=0)
                )
        else:
            stmts.append(ast.Expr(value=launch))
        user = {id(n) for part in (start, stop, step) for n in ast.walk(part)}
        for stmt in stmts:  # generated code sits at the loop's header
            for node in ast.walk(stmt):
                if id(node) not in user:
                    ast.copy_location(node, loop)
        return stmts

    def check_loop(self, loop: ast.For, call: ast.Call) -> None:
        if call.keywords or not 1 <= len(call.args) <= 3:
            raise self.error(
                call,
                "prange() takes 1 to 3 positional arguments",
                "write prange(stop), prange(start, stop) or prange(start, stop, step)",
            )
        if not isinstance(loop.target, ast.Name):
            raise self.error(
                loop.target,
                "a prange loop's target must be one name",
                "write `for i in prange(n):` and unpack inside the loop",
            )
        if loop.orelse:
            raise self.error(
                loop, "a prange loop cannot have an `else` block", "move it after the loop"
            )
        for node in _walk_own(loop.body, into_loops=False):
            if isinstance(node, ast.Break):
                raise self.error(
                    node,
                    "`break` cannot leave a prange loop: its iterations run in parallel",
                    "use range() for a loop that stops early",
                )
        for node in _walk_own(loop.body, into_loops=True):
            targets = (
                [node.target]
                if isinstance(node, ast.AugAssign)
                else node.targets
                if isinstance(node, ast.Assign)
                else []
            )
            if any(isinstance(t, ast.Attribute) for t in targets):
                raise self.error(
                    node,
                    "an attribute cannot be updated in a prange loop (such as a reduction "
                    "into `self.total`): each thread's updates would be lost",
                    "accumulate into a local variable in the loop (`s += ...`) and update the "
                    "attribute after it (`self.total += s`)",
                )
            if isinstance(node, ast.Return):
                raise self.error(
                    node,
                    "`return` inside a prange loop is not supported: iterations run in parallel",
                    "compute a result in a variable (a reduction such as `s += ...`) and "
                    "return it after the loop",
                )

    def reductions(self, loop: ast.For, candidates: set[str]) -> list[Reduction]:
        found = []
        for name in sorted(candidates):
            if not self.is_local(name) or name not in self.defined_outside(loop):
                continue
            op = _reduction_op(loop.body, name, self.parsed.env)
            if op is not None:
                found.append(Reduction(name, op))
        return found

    def defined_outside(self, loop: ast.For) -> set[str]:
        inside = {id(n) for n in ast.walk(loop)}
        names = set(self.scope.params)
        for node in _walk_own(self.tree.body, into_loops=True):
            if id(node) not in inside and isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Store):
                    names.add(node.id)
        return names

    def check_not_read_after(
        self, loop: ast.For, private: set[str], enclosing_loops: list[ast.AST]
    ) -> None:
        """A private variable read after the loop (or again in an enclosing loop) would see
        whichever iteration ran last on some thread: refuse it."""
        inside = {id(n) for n in ast.walk(loop)}
        end = (loop.end_lineno or loop.lineno, loop.end_col_offset or 0)
        outer_span = cast(ast.stmt, enclosing_loops[0]) if enclosing_loops else None
        again = {id(n) for n in ast.walk(outer_span)} if outer_span is not None else set()
        nodes = _walk_own(self.tree.body, into_loops=True)
        stores = {
            (n.id, (n.lineno, n.col_offset))
            for n in nodes
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and id(n) not in inside
        }

        def assigned_between(name: str, after: tuple[int, int], at: tuple[int, int]) -> bool:
            return any(s == name and after < where < at for s, where in stores)

        begin = (loop.lineno, loop.col_offset)
        outer_begin = (
            (outer_span.lineno, outer_span.col_offset) if outer_span is not None else begin
        )

        def stale(node: ast.Name) -> bool:
            """Read after the loop, or before it in an enclosing loop's next round, with no
            assignment in between."""
            at = (node.lineno, node.col_offset)
            if at > end:
                return not assigned_between(node.id, end, at)
            return id(node) in again and not assigned_between(node.id, outer_begin, at)

        for node in nodes:
            if (
                isinstance(node, ast.Name)
                and isinstance(node.ctx, ast.Load)
                and node.id in private
                and id(node) not in inside
                and stale(node)
            ):
                raise self.error(
                    node,
                    f"`{node.id}` is assigned in a prange loop and read after it; which "
                    "iteration's value it would have depends on the threads",
                    f"make `{node.id}` a reduction (`{node.id} += ...`, "
                    f"`{node.id} = max({node.id}, ...)`), or compute it after the loop",
                )

    def body_function(
        self,
        name: str,
        loop: ast.For,
        params: list[str],
        reductions: list[Reduction],
        unit: bool,
        aliases: dict[str, ast.expr],
    ) -> Dispatcher:
        """The jitted function the loop's body becomes (see the module docstring)."""
        from jitcore.options import ExecutionMode

        assert isinstance(loop.target, ast.Name)
        init: list[ast.stmt] = [
            ast.Assign(targets=[_store(n)], value=copy.deepcopy(e), lineno=0)
            for n, e in sorted(aliases.items())
        ]
        for r in reductions:
            value = (
                ast.Call(_load("__reduction_seed"), [_load(f"__seed_{r.name}")], [])
                if r.seeded
                else ast.Call(
                    _load("__reduction_identity"),
                    [_load(f"__seed_{r.name}"), ast.Constant(_IDENTITY[r.op])],
                    [],
                )
            )
            init.append(ast.Assign(targets=[_store(r.name)], value=value, lineno=0))
        assert isinstance(loop.iter, ast.Call)
        stop = _range_args(loop.iter)[1]
        if unit and _pure(stop):
            # `for i in range(max(lo, 0), min(hi, a.shape[0]))`: the same loop as the user's
            # for bounds-check elimination (`optimize.bce`), so the chunk vectorizes as well
            # as the serial loop does (the clamps change nothing: 0 <= lo <= hi <= the stop)
            lo = ast.Call(_load("max"), [_load("__lo"), ast.Constant(0)], [])
            hi = ast.Call(_load("min"), [_load("__hi"), copy.deepcopy(stop)], [])
            target, body = loop.target.id, copy.deepcopy(loop.body)
            bounds: list[ast.expr] = [lo, hi]
        else:
            index: ast.expr = _load("__k")
            if not unit:
                step = ast.BinOp(left=_load("__k"), op=ast.Mult(), right=_load("__step"))
                index = ast.BinOp(left=_load("__start"), op=ast.Add(), right=step)
            body = [ast.Assign(targets=[_store(loop.target.id)], value=index, lineno=0)]
            body += copy.deepcopy(loop.body)
            target, bounds = "__k", [_load("__lo"), _load("__hi")]
        chunk_loop = ast.For(
            target=_store(target),
            iter=ast.Call(_load("range"), bounds, []),
            body=body,
            orelse=[],
            lineno=0,
        )
        stmts: list[ast.stmt] = [*init, chunk_loop]
        if reductions:
            items: list[ast.expr] = [_load(r.name) for r in reductions]
            stmts.append(ast.Return(value=ast.Tuple(elts=items, ctx=ast.Load())))
        else:
            stmts.append(ast.Return(value=None))
        fdef = ast.FunctionDef(
            name=name,
            args=ast.arguments(
                posonlyargs=[],
                args=[ast.arg(arg=p) for p in params],
                kwonlyargs=[],
                kw_defaults=[],
                defaults=[],
            ),
            body=stmts,
            decorator_list=[],
            returns=None,
        )
        if "type_params" in ast.FunctionDef._fields:  # Python 3.12+
            fdef.type_params = []  # type: ignore[attr-defined]
        for node in ast.walk(fdef):  # generated nodes sit at the loop's line
            if getattr(node, "lineno", 0) == 0 or not hasattr(node, "lineno"):
                ast.copy_location(node, loop)
        ast.fix_missing_locations(fdef)
        func = self.function_object(fdef)
        options = self.owner.options.replace(
            mode=ExecutionMode.COMPILED,
            parallel=False,
            nogil=False,
            signatures=(),
            prange_body=tuple(r.combine for r in reductions),
        )
        dispatcher = self.make_dispatcher(func, options)
        env = Environment(self.parsed.env.globals, {**self.parsed.env.closure, **_MARKERS})
        dispatcher._parsed = ParsedFunction(
            func, fdef, self.parsed.filename, env, params, {}, self.parsed.source
        )
        return dispatcher

    def function_object(self, fdef: ast.FunctionDef) -> types.FunctionType:
        """A Python function for the body (the dispatcher and the cache key want one): the
        outer function's globals, with its closure values as globals of its own."""
        code = compile(ast.Module(body=[fdef], type_ignores=[]), self.parsed.filename, "exec")
        (inner,) = [c for c in code.co_consts if isinstance(c, types.CodeType)]
        namespace: dict[str, Any] = dict(self.parsed.env.globals)
        for key, value in self.parsed.env.closure.items():
            if value is not MISSING:
                namespace[key] = value
        namespace.setdefault("__builtins__", builtins)
        namespace.update(_MARKERS)
        func = types.FunctionType(inner, namespace, fdef.name)
        outer = self.parsed.func
        func.__qualname__ = f"{outer.__qualname__}.{fdef.name}"
        func.__module__ = outer.__module__
        return func


# --- helpers --------------------------------------------------------------------------------


def _load(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Load())


def _store(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Store())


def _is_int(node: ast.expr, value: int) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == value


def _range_args(call: ast.Call) -> tuple[ast.expr, ast.expr, ast.expr]:
    args = call.args
    if len(args) == 1:
        return ast.Constant(0), args[0], ast.Constant(1)
    if len(args) == 2:
        return args[0], args[1], ast.Constant(1)
    return args[0], args[1], args[2]


_COUNT = """
if {h}_step == 0:
    raise ValueError("range() arg 3 must not be zero")
if {h}_step > 0:
    {h}_n = ({h}_stop - {h}_start + {h}_step - 1) // {h}_step
else:
    {h}_n = ({h}_start - {h}_stop - {h}_step - 1) // (-{h}_step)
if {h}_n < 0:
    {h}_n = 0
"""


def _pure(node: ast.expr) -> bool:
    """An expression the body can evaluate again with the same value: names, constants,
    attributes, constant subscripts and `len(name)` (`n`, `a.shape[0]`, `len(a)`)."""
    if isinstance(node, ast.Name | ast.Constant):
        return True
    if isinstance(node, ast.Attribute):
        return _pure(node.value)
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and _pure(node.value)
    if isinstance(node, ast.Call):
        return (
            isinstance(node.func, ast.Name)
            and node.func.id == "len"
            and len(node.args) == 1
            and not node.keywords
            and isinstance(node.args[0], ast.Name)
        )
    return False


def _count_statements(hidden: str) -> list[ast.stmt]:
    """`<hidden>_n = len(range(start, stop, step))`, with range's error for a zero step."""
    return ast.parse(_COUNT.format(h=hidden)).body


def _combined(r: Reduction, partial: ast.expr) -> ast.expr:
    """The value before the loop combined with the loop's result."""
    if r.combine in ("min", "max"):
        return ast.Call(func=_load(r.combine), args=[_load(r.name), partial], keywords=[])
    op = {v: k for k, v in _AUG_OPS.items()}[r.combine]
    return ast.BinOp(left=_load(r.name), op=op(), right=partial)


def _walk_own(body: list[ast.stmt], into_loops: bool) -> list[ast.AST]:
    """Nodes of these statements, not inside nested functions (nor nested loops unless
    `into_loops`)."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        out.append(node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.Lambda | ast.AsyncFunctionDef):
                continue
            if not into_loops and isinstance(child, ast.For | ast.While):
                # a nested loop's own body (its `break` is its own); its header is ours
                stack.append(child.iter if isinstance(child, ast.For) else child.test)
                stack.extend(child.orelse)
                continue
            stack.append(child)
    return out


def _assigned_names(body: list[ast.stmt]) -> set[str]:
    return {
        n.id
        for n in _walk_own(body, into_loops=True)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)
    }


def _loaded_names(nodes: list[Any]) -> set[str]:
    names: set[str] = set()
    for node in nodes:
        for n in _walk_own([node], into_loops=True):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                names.add(n.id)
    return names


def _reduction_op(body: list[ast.stmt], name: str, env: Environment) -> str | None:
    """The operator of `name`'s reduction, if every write of it in `body` is one (with the
    same operator) and nothing else reads it; else None."""
    ops: set[str] = set()
    reads_in_writes = 0
    for node in _walk_own(body, into_loops=True):
        if isinstance(node, ast.AugAssign) and _is_name(node.target, name):
            op = _AUG_OPS.get(type(node.op))
            if op is None or name in _loaded_names([node.value]):
                return None
            ops.add(op)
        elif isinstance(node, ast.Assign) and any(_is_name(t, name) for t in node.targets):
            op = _assign_op(node, name, env)
            if op is None:
                return None
            ops.add(op)
            reads_in_writes += 1
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id == name:
            if not _is_write_target(body, node):
                return None
    reads = sum(
        1
        for n in _walk_own(body, into_loops=True)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id == name
    )
    if len(ops) != 1 or reads != reads_in_writes:
        return None
    return ops.pop()


def _is_write_target(body: list[ast.stmt], target: ast.Name) -> bool:
    """Whether `target` is the target of a reduction-shaped statement (checked by the caller)."""
    for node in _walk_own(body, into_loops=True):
        if isinstance(node, ast.AugAssign) and node.target is target:
            return True
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and node.targets[0] is target:
            return True
    return False


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _assign_op(node: ast.Assign, name: str, env: Environment) -> str | None:
    """`v = v op e`, `v = e op v` (commutative op), `v = min(v, e)`, ...: the operator."""
    if len(node.targets) != 1:
        return None
    value = node.value
    if isinstance(value, ast.BinOp):
        op = _AUG_OPS.get(type(value.op))
        if op is None:
            return None
        if _is_name(value.left, name) and name not in _loaded_names([value.right]):
            return op
        if op in _COMMUTATIVE and _is_name(value.right, name):
            return op if name not in _loaded_names([value.left]) else None
        return None
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in ("min", "max")
        and env.globals.get(value.func.id, getattr(builtins, value.func.id))
        is getattr(builtins, value.func.id)
        and len(value.args) == 2
        and not value.keywords
    ):
        a, b = value.args
        other = b if _is_name(a, name) else a if _is_name(b, name) else None
        if other is not None and name not in _loaded_names([other]):
            return value.func.id
    return None
