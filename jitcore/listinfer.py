"""The item types of list literals, settled by what a function stores into its lists (part of
the `typeinfer` stage).

`[]` has no item type of its own; `[1, 2]` has one that a later `append(2.5)` widens, as a
variable assigned an int and then a float becomes a float. During the type inference fixpoint,
every store into a list (`append`, `insert`, `extend`, `lst[i] = v`, `lst += other`) is traced
back to the literals the list may come from (through phis, and through the items of lists of
lists: `rows[i].append(x)` reaches the `[]` appended to `rows`), and each literal's item type
becomes the join of what it holds. A store that cannot join is a TypingError at the store; a
literal that nothing gives a type is one at the literal.
"""

from __future__ import annotations

from collections.abc import Callable

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.containers import iterate
from jitcore.lib import lists
from jitcore.lib.registry import Operand, Resolved

_STORING_METHODS = {"append": 0, "insert": 1}


class ListInference:
    """Per function: the item type settled for each list literal, and what was stored into it."""

    def __init__(self) -> None:
        self.items: dict[ir.Instr, T.Type] = {}
        self.stored: dict[ir.Instr, list[ir.Value]] = {}
        self.changed = False

    def take_changed(self) -> bool:
        changed, self.changed = self.changed, False
        return changed

    def observe(
        self, instr: ir.Instr, new: T.Type | None, operand: Callable[[ir.Value], Operand]
    ) -> T.Type | None:
        """After `instr` was typed `new`: retype a literal whose item type was settled, and
        record what a store puts into a list. Returns the instruction's type."""
        if new is None:
            return new
        if isinstance(instr, ir.Call) and lists.is_list_literal(instr) and instr in self.items:
            item = self.items[instr]
            instr.impl = lists.refined_literal(instr, item, [operand(a) for a in instr.args])
            return T.List(item)
        store = _store(instr)
        if store is not None:
            target, value, item = store
            self._record(target, item, value, instr.loc)
        if isinstance(instr, ir.Phi) and isinstance(new, T.List):
            for v in instr.incoming.values():
                self._record(v, new.item, None, instr.loc)
        return new

    def _record(self, target: ir.Value, item: T.Type, value: ir.Value | None, loc) -> None:  # noqa: ANN001
        if isinstance(item, T.Bottom):
            return
        sources = self._sources(target, set())
        if not sources and not lists.accepts(_item_of(target.type), item):
            raise TypingError(
                f"a {target.type} cannot hold {item} (its item type is fixed where it is made)",
                loc=loc,
                hint="convert the item, or make the list with items of that type",
            )
        for literal in sources:
            current = self.items.get(literal) or _item_of(literal.type)
            joined = lists.join_items(current, item)
            if joined is None:
                raise TypingError(
                    f"a list of {current} cannot hold {item}",
                    loc=loc,
                    hint="a list holds items of one type; convert the item, or start the "
                    "list with items of that type",
                )
            held = self.stored.setdefault(literal, [])
            if value is not None and not any(value is x for x in held):
                held.append(value)
            if joined != current:
                self.items[literal] = joined
                self.changed = True

    def _sources(self, v: ir.Value, seen: set[int]) -> list[ir.Instr]:
        """The list literals `v` may be (the lists a value read from a list may be, too)."""
        if id(v) in seen:
            return []
        seen.add(id(v))
        if isinstance(v, ir.Phi):
            return [s for x in v.incoming.values() for s in self._sources(x, seen)]
        if isinstance(v, ir.Cast):
            return self._sources(v.value, seen)
        if isinstance(v, ir.Call) and lists.is_list_literal(v):
            return [v]
        if isinstance(v, ir.Call) and _is_iterate(v):  # `for x in lst` walks `lst` itself
            return self._sources(v.args[0], seen)
        container = _read_from(v)
        if container is None:
            return []
        out: list[ir.Instr] = []
        for literal in self._sources(container, seen):
            held = [*literal.args, *self.stored.get(literal, [])]  # type: ignore[attr-defined]
            for x in held:
                out.extend(self._sources(x, seen))
        return out


def _is_iterate(call: ir.Call) -> bool:
    func = call.func
    return isinstance(func, ir.Const) and func.value is iterate


def _item_of(t: T.Type | None) -> T.Type:
    return t.item if isinstance(t, T.List) else T.BOTTOM


def _store(instr: ir.Instr) -> tuple[ir.Value, ir.Value | None, T.Type] | None:
    """(the list stored into, the value stored or None, its item type) for a store."""
    if isinstance(instr, ir.SetItem) and isinstance(instr.obj.type, T.List):
        return instr.obj, instr.value, _typed(instr.value)
    if isinstance(instr, ir.BinOp) and instr.op == "iadd" and isinstance(instr.lhs.type, T.List):
        return instr.lhs, None, _item_of(instr.rhs.type)
    if not (isinstance(instr, ir.Call) and isinstance(instr.func, ir.GetAttr)):
        return None
    recv = instr.func.obj
    if not isinstance(recv.type, T.List):
        return None
    attr = instr.func.attr
    if attr in _STORING_METHODS and len(instr.args) > _STORING_METHODS[attr]:
        value = instr.args[_STORING_METHODS[attr]]
        return recv, value, _typed(value)
    if attr == "extend" and instr.args:
        item = lists.stored_type(_typed(instr.args[0]))
        return (recv, None, item) if item is not None else None
    return None


def _typed(v: ir.Value) -> T.Type:
    return v.type if v.type is not None else T.BOTTOM


def _read_from(v: ir.Value) -> ir.Value | None:
    """The list `v` was read out of (`lst[i]`, `lst.pop()`), if any."""
    if isinstance(v, ir.GetItem) and isinstance(v.obj.type, T.List):
        return v.obj
    if isinstance(v, ir.Call) and isinstance(v.func, ir.GetAttr) and v.func.attr == "pop":
        return v.func.obj if isinstance(v.func.obj.type, T.List) else None
    return None


def check_lists_typed(fn: ir.Function) -> None:
    """Every list has an item type once inference settled; else a TypingError at the list."""
    for _, instr in fn.instructions():
        if _holds_untyped_list(instr.type):
            raise TypingError(
                "cannot tell the item type of this empty list",
                loc=instr.loc,
                hint="append to it in this function, or start it with an item "
                "(`[0.0] * 0` is an empty list of floats)",
            )


def _holds_untyped_list(t: T.Type | None) -> bool:
    if isinstance(t, T.List):
        return isinstance(t.item, T.Bottom) or _holds_untyped_list(t.item)
    if isinstance(t, T.Tuple):
        return any(_holds_untyped_list(i) for i in t.items)
    return False


def origin(instr: ir.Instr, resolved: Resolved) -> bool | tuple[object, ...] | None:
    """Whether `instr`'s result is a Python number (a `typeinfer.Origin`), for list
    operations (None: not one): items of lists of i64/f64/c128/bool, and of tuples and lists
    of them, are Python numbers (the types Python numbers have as arguments); a list value
    carries the same flag for its items."""
    if isinstance(resolved.ret, T.List):
        return lists.python_items(resolved.ret)
    container = _read_from(instr)
    if container is not None:
        return lists.python_items(container.type)
    return None
