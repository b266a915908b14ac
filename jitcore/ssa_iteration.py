"""Part of stage `ssa`: iteration builtins and generator expressions become counted loops.

`for` over `enumerate(...)`, `zip(...)`, `reversed(...)` and ranges nested in them is one index
loop: each iterable is described by a `Seq` (its length and how to compute its i-th item), and
the combinators compose those descriptions, so `for i, (x, y) in enumerate(zip(a, b))` binds
`i`, `x` and `y` straight from `a[k]` and `b[k]` without building tuples. A loop over a short
tuple or list literal (`for s in (1, -1)`) is unrolled, so each item keeps its own type.

`sum`, `any`, `all`, `min` and `max` of a generator expression (or of one sequence) become
accumulator loops with Python's semantics: `sum` adds from `start` (0) in order, `any`/`all`
stop at the first decisive item, `min`/`max` keep the first extreme item and raise ValueError
on an empty input (unless `default=` is given). Generator variables do not leak.

Holds afterwards: the same invariants as `ssa` (the builder's helpers build the blocks).
"""

from __future__ import annotations

import ast
import builtins
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.containers import iterate
from jitcore.ir.markers import range_bounds, range_count, range_item
from jitcore.lib.iteration import range_contains

if TYPE_CHECKING:
    from jitcore.ssa import _Builder

# An item of a composed sequence: a value, or the parts of a tuple not built yet.
Item = ir.Value | list["Item"]

# Literal tuples and lists up to this length are unrolled by `for`.
UNROLL_LIMIT = 16


@dataclass
class LoopTargets:
    """Where `continue` and `break` jump inside a loop (what `ssa` keeps per loop)."""

    continue_to: ir.Block
    break_to: ir.Block


@dataclass
class Seq:
    """An iterable as an index loop sees it: its length (emitted where the loop tests it, at
    every step: a list may grow or shrink while it is iterated, and Python's iterator reads
    its length each time) and its i-th item."""

    length: Callable[[], ir.Value]
    item: Callable[[ir.Value], Item]


def _builtin(b: _Builder, func: ast.expr) -> object:
    """The builtin `func` names (not shadowed by a local or global), else None."""
    if not isinstance(func, ast.Name) or func.id in b.locals:
        return None
    value = b.parsed.env.lookup(func.id)
    return value if value is getattr(builtins, func.id, None) else None


def _plain_call(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and not any(isinstance(a, ast.Starred) for a in node.args)


# --- sequences ----------------------------------------------------------------------------


def sequence(b: _Builder, node: ast.expr) -> Seq:
    """Describe the iterable `node` for an index loop."""
    func = _builtin(b, node.func) if isinstance(node, ast.Call) and _plain_call(node) else None
    if isinstance(node, ast.Call) and func in _COMBINATORS:
        return _COMBINATORS[func](b, node)
    if isinstance(node, ast.List) and not any(isinstance(e, ast.Starred) for e in node.elts):
        value = b.expr(ast.copy_location(ast.Tuple(node.elts, ast.Load()), node))
    else:
        value = b.expr(node)
    # what a `for` loop walks: a dict's keys, a string's characters, any other sequence itself
    value = b.emit(ir.Call(ir.Const(iterate), [value]), node)
    return Seq(
        lambda: b.emit(ir.Call(ir.Const(len), [value]), node),
        lambda i: b.emit(ir.GetItem(value, i), node),
    )


def _range(b: _Builder, node: ast.Call) -> Seq:
    if node.keywords or not 1 <= len(node.args) <= 3:
        raise b.unsupported(
            node,
            "range() takes 1 to 3 positional arguments",
            "write range(stop), range(start, stop) or range(start, stop, step)",
        )
    args = [b.expr(a) for a in node.args]
    if len(args) == 1:
        args = [ir.Const(0, weak=True), args[0]]
    if len(args) == 2:
        args.append(ir.Const(1, weak=True))
    bounds = b.emit(ir.Call(ir.Const(range_bounds), args), node)
    start, stop, step = (b.emit(ir.GetItem(bounds, ir.Const(k)), node) for k in range(3))
    length = b.emit(ir.Call(ir.Const(range_count), [start, stop, step]), node)

    def item(i: ir.Value) -> Item:
        return b.emit(ir.Call(ir.Const(range_item), [start, i, step]), node)

    return Seq(lambda: length, item)


def _enumerate(b: _Builder, node: ast.Call) -> Seq:
    start_node = node.args[1] if len(node.args) > 1 else None
    extra = [kw for kw in node.keywords if kw.arg != "start"]
    if not node.args or len(node.args) > 2 or extra or (start_node and node.keywords):
        raise b.unsupported(
            node,
            "enumerate() takes an iterable and an optional start",
            "write enumerate(seq) or enumerate(seq, start)",
        )
    inner = sequence(b, node.args[0])
    if start_node is None and node.keywords:
        start_node = node.keywords[0].value
    start = b.expr(start_node) if start_node is not None else ir.Const(0, weak=True)

    def item(i: ir.Value) -> Item:
        count = i if _is_zero(start) else b.emit(ir.BinOp("add", i, start), node)
        return [count, inner.item(i)]

    return Seq(inner.length, item)


def _zip(b: _Builder, node: ast.Call) -> Seq:
    if node.keywords:
        raise b.unsupported(
            node, "zip() keyword arguments are not supported", "write zip(a, b, ...)"
        )
    parts = [sequence(b, a) for a in node.args]
    if not parts:
        return Seq(lambda: ir.Const(0, weak=True), lambda i: [])

    def length() -> ir.Value:
        if len(parts) == 1:
            return parts[0].length()
        return b.emit(ir.Call(ir.Const(min), [p.length() for p in parts]), node)

    return Seq(length, lambda i: [p.item(i) for p in parts])


def _reversed(b: _Builder, node: ast.Call) -> Seq:
    if node.keywords or len(node.args) != 1:
        raise b.unsupported(node, "reversed() takes one sequence", "write reversed(seq)")
    arg = node.args[0]
    if isinstance(arg, ast.Call) and _builtin(b, arg.func) in (enumerate, zip):
        name = getattr(arg.func, "id", "this")
        raise b.unsupported(
            arg,
            f"a `{name}` object is not reversible (Python raises TypeError)",
            f"reverse the sequences inside {name}(...) instead",
        )
    inner = sequence(b, arg)
    n = inner.length()  # counted down from the length it had when the loop began
    last = b.emit(ir.BinOp("sub", n, ir.Const(1, weak=True)), node)

    def item(i: ir.Value) -> Item:
        return inner.item(b.emit(ir.BinOp("sub", last, i), node))

    return Seq(lambda: n, item)


_COMBINATORS: dict[object, Callable[[_Builder, ast.Call], Seq]] = {
    range: _range,
    enumerate: _enumerate,
    zip: _zip,
    reversed: _reversed,
}


def _is_zero(v: ir.Value) -> bool:
    return isinstance(v, ir.Const) and type(v.value) is int and v.value == 0


def materialize(b: _Builder, item: Item, node: ast.AST) -> ir.Value:
    """Build the tuple a composed item stands for (when a target does not unpack it)."""
    if not isinstance(item, list):
        return item
    return b.emit(ir.MakeTuple([materialize(b, part, node) for part in item]), node)


def bind(b: _Builder, target: ast.expr, item: Item, node: ast.AST) -> None:
    """Assign `item` to a loop target, unpacking composed items part by part."""
    if (
        isinstance(item, list)
        and isinstance(target, ast.Tuple | ast.List)
        and len(target.elts) == len(item)
        and not any(isinstance(e, ast.Starred) for e in target.elts)
    ):
        for elt, part in zip(target.elts, item):
            bind(b, elt, part, node)
        return
    b.assign(target, materialize(b, item, node), node)


# --- loops --------------------------------------------------------------------------------


def counted_loop(
    b: _Builder,
    length: Callable[[], ir.Value],
    at: ast.AST,
    body: Callable[[ir.Value], None],
    orelse: Callable[[], None] = lambda: None,
) -> None:
    """`for counter in range(length())`: a header testing the counter, `body(counter)` (where
    `continue` and `break` work), a latch adding one, and `orelse` when the test fails."""
    loc = b.parsed.loc(at)
    counter = b.hidden_var("i")
    b.write(counter, ir.Const(0, weak=True))
    header, body_b = b._new_block("for"), b._new_block("forbody")
    latch, orelse_b, exit_b = (
        b._new_block("forlatch"),
        b._new_block("forelse"),
        b._new_block("endfor"),
    )
    b._jump(header, loc)
    b._start(header)
    test = b.emit(ir.Compare("lt", b.read(counter), length()), at)
    b._terminate(ir.Branch(test, body_b, orelse_b, loc=loc))
    b.seal(body_b)
    b._start(body_b)
    b.loops.append(LoopTargets(latch, exit_b))
    body(b.read(counter))
    b.loops.pop()
    b._jump(latch, loc)
    b.seal(latch)
    b._start(latch)
    b.write(counter, b.emit(ir.BinOp("add", b.read(counter), ir.Const(1, weak=True)), at))
    b._jump(header, loc)
    b.seal(header)
    b.seal(orelse_b)
    b._start(orelse_b)
    orelse()
    b._jump(exit_b, loc)
    b.seal(exit_b)
    b._start(exit_b)


def for_loop(b: _Builder, node: ast.For) -> bool:
    """Build `for` over an iteration builtin or a literal; False leaves `node` to `ssa`'s own
    loops (ranges and plain sequences)."""
    it = node.iter
    if isinstance(it, ast.Tuple | ast.List) and _unrollable(it):
        _unrolled(b, node, [b.expr(e) for e in it.elts])
        return True
    count = _tuple_argument_length(b, it)
    if count is not None:  # a tuple argument (`*args`): each item with its own type
        whole = b.expr(it)
        items: list[ir.Value] = [b.emit(ir.GetItem(whole, ir.Const(k)), it) for k in range(count)]
        _unrolled(b, node, items)
        return True
    func = _builtin(b, it.func) if isinstance(it, ast.Call) and _plain_call(it) else None
    # a longer literal list loops over the tuple of its items
    if func not in (enumerate, zip, reversed) and not isinstance(it, ast.List):
        return False
    seq = sequence(b, it)

    def body(i: ir.Value) -> None:
        bind(b, node.target, seq.item(i), node)
        b.body(node.body)

    counted_loop(b, seq.length, node, body, lambda: b.body(node.orelse))
    return True


def _unrollable(it: ast.Tuple | ast.List) -> bool:
    return len(it.elts) <= UNROLL_LIMIT and not any(isinstance(e, ast.Starred) for e in it.elts)


def _tuple_argument_length(b: _Builder, it: ast.expr) -> int | None:
    """The length of a parameter that is a tuple of at most UNROLL_LIMIT items and is never
    reassigned, else None."""
    if not isinstance(it, ast.Name) or it.id in b.assigned_names:
        return None
    t = b.arg_types.get(it.id)
    if isinstance(t, T.Tuple) and len(t.items) <= UNROLL_LIMIT:
        return len(t.items)
    return None


def _unrolled(b: _Builder, node: ast.For, values: list[ir.Value]) -> None:
    """`for x in (a, b, c)`: the body once per item (values computed before the loop runs),
    each item with its own type; `continue` goes to the next copy, `break` past the `else`."""
    loc = b.parsed.loc(node)
    exit_b = b._new_block("endfor")
    for value in values:
        nxt = b._new_block("fornext")
        b.loops.append(LoopTargets(nxt, exit_b))
        b.assign(node.target, value, node)
        b.body(node.body)
        b.loops.pop()
        b._jump(nxt, loc)
        b.seal(nxt)
        b._start(nxt)
    b.body(node.orelse)
    b._jump(exit_b, loc)
    b.seal(exit_b)
    b._start(exit_b)


# --- generator expressions ----------------------------------------------------------------


def _generator_names(gen: ast.GeneratorExp) -> set[str]:
    names: set[str] = set()
    for comp in gen.generators:
        for sub in ast.walk(comp.target):
            if isinstance(sub, ast.Name):
                names.add(sub.id)
    return names


def each_item(
    b: _Builder, source: ast.expr, visit: Callable[[ir.Value], None], stop: ir.Block
) -> None:
    """Run `visit(item)` for each item of a generator expression (or of a sequence), in
    Python's order; `visit` may jump to `stop`, where control continues afterwards. The
    generator's variables are its own: their outer values are restored at `stop`."""
    loc = b.parsed.loc(source)
    if isinstance(source, ast.GeneratorExp):
        saved = {name: b.read(name) for name in _generator_names(source) if name in b.locals}
        if any(c.is_async for c in source.generators):
            raise b.unsupported(source, "async generators are not supported", "use a loop")
        _nested(b, source, 0, visit)
    else:
        saved = {}
        seq = sequence(b, source)
        counted_loop(b, seq.length, source, lambda i: visit(materialize(b, seq.item(i), source)))
    b._jump(stop, loc)
    b.seal(stop)
    b._start(stop)
    for name, value in saved.items():
        b.write(name, value)


def _nested(b: _Builder, gen: ast.GeneratorExp, level: int, visit: Callable) -> None:  # type: ignore[type-arg]
    if level == len(gen.generators):
        visit(b.expr(gen.elt))
        return
    comp = gen.generators[level]
    seq = sequence(b, comp.iter)

    def body(i: ir.Value) -> None:
        bind(b, comp.target, seq.item(i), comp)
        for cond in comp.ifs:
            ok = b._new_block("genif")
            skip = b.loops[-1].continue_to
            b.condition(cond, ok, skip)
            b.seal(ok)
            b._start(ok)
        _nested(b, gen, level + 1, visit)

    counted_loop(b, seq.length, comp.iter, body)


# --- reductions ---------------------------------------------------------------------------

_EMPTY_MESSAGE = (
    "{}() iterable argument is empty"
    if sys.version_info >= (3, 12)
    else "{}() arg is an empty sequence"
)


def reduction(b: _Builder, node: ast.Call) -> ir.Value | None:
    """`sum/any/all/min/max` of one iterable as a loop; None if `node` is not one."""
    func = _builtin(b, node.func) if _plain_call(node) else None
    most = 2 if func is sum else 1  # sum(iterable, start)
    if func not in (sum, any, all, min, max) or not 1 <= len(node.args) <= most:
        return None
    name = func.__name__  # type: ignore[union-attr]
    allowed = {"sum": {"start"}, "min": {"default"}, "max": {"default"}}.get(name, set())
    keywords = {kw.arg: kw.value for kw in node.keywords}
    if name in ("min", "max") and not isinstance(node.args[0], ast.GeneratorExp):
        return None  # min/max of a list, tuple or array (key= too): the registered rules
    if any(k not in allowed for k in keywords):
        if name in ("min", "max") and "key" in keywords:
            hint = "make a list of the items first: max([x for x in ...], key=f)"
        else:
            hint = f"supported: {name}(iterable" + "".join(f", {k}=..." for k in allowed) + ")"
        raise b.unsupported(node, f"this {name}() keyword argument is not supported", hint)
    source = node.args[0]
    if name in ("min", "max") and not isinstance(source, ast.GeneratorExp):
        return None  # min/max of a tuple or array: the registered rules
    if name == "sum":
        start = node.args[1] if len(node.args) > 1 else keywords.get("start")
        return _sum(b, node, source, b.expr(start) if start else ir.Const(0, weak=True))
    if name in ("any", "all"):
        return _any_all(b, node, source, name == "any")
    return _min_max(b, node, source, name, keywords.get("default"))


def _sum(b: _Builder, node: ast.Call, source: ast.expr, start: ir.Value) -> ir.Value:
    acc = b.hidden_var("sum")
    b.write(acc, start)
    done = b._new_block("sumend")
    each_item(
        b,
        source,
        lambda x: b.write(acc, b.emit(ir.BinOp("add", b.read(acc), x), node, "sum")),
        done,
    )
    return b.read(acc)


def _any_all(b: _Builder, node: ast.Call, source: ast.expr, is_any: bool) -> ir.Value:
    """any: True at the first true item; all: False at the first false one."""
    result = b.hidden_var("any" if is_any else "all")
    done = b._new_block("anyend" if is_any else "allend")
    loc = b.parsed.loc(node)

    def visit(x: ir.Value) -> None:
        decided, go_on = b._new_block("decided"), b._new_block("next")
        test = b.truth(x, node)
        b._terminate(
            ir.Branch(test, decided, go_on, loc=loc)
            if is_any
            else ir.Branch(test, go_on, decided, loc=loc)
        )
        b.seal(decided)
        b._start(decided)
        b.write(result, ir.Const(is_any))
        b._jump(done, loc)
        b.seal(go_on)
        b._start(go_on)

    finished = b._new_block("exhausted")
    each_item(b, source, visit, finished)
    b.write(result, ir.Const(not is_any))
    b._jump(done, loc)
    b.seal(done)
    b._start(done)
    return b.read(result)


def _min_max(
    b: _Builder, node: ast.Call, source: ast.expr, name: str, default: ast.expr | None
) -> ir.Value:
    """Keep the first item no later item is strictly smaller (larger) than, as Python's
    `min`/`max` compare (`item < best`), so NaNs and ties agree."""
    have, best = b.hidden_var("have"), b.hidden_var(name)
    b.write(have, ir.Const(False))
    # `best` is unassigned before the first item, as a Python local would be: `have` guards
    # every read of it
    loc = b.parsed.loc(node)
    op = "lt" if name == "min" else "gt"

    def visit(x: ir.Value) -> None:
        first, later, take, join = (
            b._new_block("first"),
            b._new_block("later"),
            b._new_block("take"),
            b._new_block("kept"),
        )
        b._terminate(ir.Branch(b.read(have), later, first, loc=loc))
        b.seal(later)
        b._start(later)
        better = b.emit(ir.Compare(op, x, b.read(best)), node)
        b._terminate(ir.Branch(better, take, join, loc=loc))
        b.seal(first)
        b._start(first)
        b._jump(take, loc)
        b.seal(take)
        b._start(take)
        b.write(best, x)
        b.write(have, ir.Const(True))
        b._jump(join, loc)
        b.seal(join)
        b._start(join)

    done = b._new_block(f"{name}end")
    each_item(b, source, visit, done)
    empty, full = b._new_block("empty"), b._new_block("nonempty")
    b._terminate(ir.Branch(b.read(have), full, empty, loc=loc))
    b.seal(empty)
    b._start(empty)
    if default is None:
        message = _EMPTY_MESSAGE.format(name)
        b._terminate(ir.Raise(ValueError, message, loc=loc))
    else:
        b.write(best, b.expr(default))
        b._jump(full, loc)
    b.seal(full)
    b._start(full)
    return b.read(best)


# --- membership ---------------------------------------------------------------------------


def range_membership(b: _Builder, node: ast.Compare) -> ir.Value | None:
    """`x in range(...)` / `x not in range(...)` without building the range."""
    if len(node.ops) != 1 or not isinstance(node.ops[0], ast.In | ast.NotIn):
        return None
    rng = node.comparators[0]
    if not (isinstance(rng, ast.Call) and _plain_call(rng) and _builtin(b, rng.func) is range):
        return None
    x = b.expr(node.left)
    args = [b.expr(a) for a in rng.args]
    if rng.keywords or not 1 <= len(args) <= 3:
        raise b.unsupported(
            rng, "range() takes 1 to 3 positional arguments", "write range(start, stop, step)"
        )
    if len(args) == 1:
        args = [ir.Const(0, weak=True), args[0]]
    if len(args) == 2:
        args.append(ir.Const(1, weak=True))
    bounds = b.emit(ir.Call(ir.Const(range_bounds), args), rng)
    parts = [b.emit(ir.GetItem(bounds, ir.Const(k)), rng) for k in range(3)]
    found = b.emit(ir.Call(ir.Const(range_contains), [x, *parts]), node)
    if isinstance(node.ops[0], ast.NotIn):
        return b.emit(ir.UnaryOp("not", found), node)
    return found
