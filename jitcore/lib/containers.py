"""Strings, typed dicts and typed sets: typing rules and emitters.

Values of these types are pointers to runtime blocks (see `jitcore.codegen.rtstrings` and
`jitcore.codegen.rtdicts` for the memory layout). Every operation on them lowers to a call of a
runtime helper (`ncall "jitcore.rt.<op>:<type>"`) that codegen emits into the module and LLVM
inlines, or to a plain load (`len`). The helpers keep reference counts right: a value read out
of a container is a new reference, a value stored in one is increfed, a replaced or deleted
one decrefed.

An empty `{}` or `set()` starts with bottom item types; the first operation that says what
goes in (a store, `add`, `setdefault`, `get` with a default) returns `Resolved.refines`, and
`typeinfer` gives the instruction that made the container the joined type: Numba's typed
`Dict()` inferred from use, without a type annotation.

Layer: below `operators` (which dispatches string, dict and set operands here) and `builtins`.
"""

from __future__ import annotations

import dataclasses
from typing import cast

from jitcore.errors import TypingError, UnsupportedError
from jitcore.ir import containers as markers
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.ir.coerce import can_be_optional, unify
from jitcore.ir.markers import MISSING
from jitcore.lib.registry import (
    Operand,
    Resolved,
    call_kernel,
    constant,
    library_kernel,
    register_function,
    register_method,
)

_CHARS = "jitcore.strop:chars"  # codegen.strops: `for c in s` walks the list it makes
HELPER_PREFIX = "jitcore.rt."  # codegen.rtdicts.PREFIX: codegen defines these symbols
CONTAINERS = (T.Dict, T.Set)
_PYTHON_NUMBERS = (T.I64, T.F64, T.C128, T.BOOL)


def helper(op: str, t: T.Type | None = None) -> str:
    """The symbol of runtime helper `op` for values of type `t`."""
    return f"{HELPER_PREFIX}{op}" if t is None else f"{HELPER_PREFIX}{op}:{t.name}"


def is_runtime_type(t: T.Type | None) -> bool:
    """Strings, dicts, sets and views: the types this module types operations of."""
    return isinstance(t, T.Str | T.Dict | T.Set | T.View)


def origin_of(t: T.Type) -> object:
    """Items come out of a container as Python numbers when their type is one (`d[k] / 0`
    raises ZeroDivisionError for a float value, as Python)."""
    if isinstance(t, T.Tuple):
        return tuple(origin_of(i) for i in t.items)
    return t in _PYTHON_NUMBERS


def _call(b: LowBuilder, op: str, t: T.Type | None, args: list[ir.Value], ret: T.Type) -> ir.Value:
    return b.native_call(helper(op, t), args, ret)


def _header_i64(b: LowBuilder, v: ir.Value, offset: int) -> ir.Value:
    """The i64 at `offset` of a string's or container's runtime data (length fields)."""
    data: ir.Value = b.emit(ir.BlockData(v, type=T.PTR))
    if offset:
        data = b.ptr_add(data, ir.Const(offset, type=T.I64))
    return b.emit(ir.Load(data, type=T.I64))


def runtime_len(b: LowBuilder, v: ir.Value) -> ir.Value:
    """`len(v)`: code points of a string, items of a dict or set, a view's length."""
    t = v.type
    if isinstance(t, T.Str):
        return _header_i64(b, v, 8)
    if isinstance(t, T.View):
        return b.emit(ir.Extract(v, 1, type=T.I64))
    return _header_i64(b, v, 0)


def resolve_len(x: Operand) -> Resolved:
    if x.is_const and isinstance(x.const, str):
        return constant(len(x.const), T.I64)
    return Resolved((None,), T.I64, lambda b, args, kw: runtime_len(b, args[0]), origin=True)


def static_truth(x: Operand) -> object:
    if x.is_const and isinstance(x.const, str):
        return bool(x.const)
    return MISSING


def truth(b: LowBuilder, x: ir.Value) -> ir.Value:
    """`bool(x)`: not empty."""
    return b.cmp("ne", runtime_len(b, x), ir.Const(0, type=T.I64))


# --- item types ------------------------------------------------------------------------------


def _concrete(t: T.Type) -> bool:
    if isinstance(t, T.Bottom):
        return False
    if isinstance(t, T.Dict):
        return _concrete(t.key) and _concrete(t.value)
    if isinstance(t, T.Set):
        return _concrete(t.key)
    if isinstance(t, T.Tuple):
        return all(_concrete(i) for i in t.items)
    return True


def is_unrefined(t: T.Type | None) -> bool:
    """A dict or set whose item types are not known yet (an empty `{}` waiting for a store)."""
    return isinstance(t, CONTAINERS) and not _concrete(t)


def check_key_type(t: T.Type, what: str = "dict keys") -> None:
    """Keys must hash: numbers, strings, None and tuples of them (not arrays or containers)."""
    if isinstance(t, T.Scalar | T.Str | T.NoneType | T.Bottom):
        return
    if isinstance(t, T.Tuple):
        for item in t.items:
            check_key_type(item, what)
        return
    raise TypingError(
        f"{t} cannot be among {what}: it is not hashable",
        hint="use numbers, strings or tuples of them as keys",
    )


def check_value_type(t: T.Type) -> None:
    """Values are numbers, strings, None, arrays and tuples of them: a list, dict or set held
    in a dict is not reference counted as one (storing one corrupted the heap)."""
    if isinstance(t, T.Tuple):
        for item in t.items:
            check_value_type(item)
        return
    if isinstance(t, T.List | T.Dict | T.Set | T.View):
        raise TypingError(
            f"a {t} cannot be a dict value: values are numbers, strings, arrays and tuples",
            hint="keep the lists in a list and store their indices, or use a tuple or an array",
        )


def _item_join(a: T.Type, b: T.Type) -> T.Type | None:
    """Where two stores give an item type: equal, or numbers that promote (bool -> int ->
    float), or an empty container's type filled in."""
    if isinstance(a, T.Bottom):
        return b
    if isinstance(b, T.Bottom):
        return a
    return unify(a, b)


def _item_operand(target: T.Type, given: Operand, what: str) -> T.Type | None:
    """The cast an item operand needs to be stored as `target` (None: none); TypingError when
    Python would store a different value (`1.5` into int keys)."""
    t = given.type
    if t == target:
        return None
    if isinstance(target, T.Scalar) and isinstance(t, T.Scalar):
        if T.promote(t, target) == target or (given.is_const and t.is_int and target.is_int):
            return target
    if (
        isinstance(target, T.Tuple)
        and isinstance(t, T.Tuple)
        and len(t.items) == len(target.items)
    ):
        ok = all(
            _item_operand(x, Operand(y), what) is not None or x == y
            for x, y in zip(target.items, t.items)
        )
        if ok:
            return target
    if isinstance(target, CONTAINERS) and unify(target, t) == target:
        return target
    raise TypingError(
        f"a {t} cannot be used as one of the {what}, which are {target}",
        hint="give every key (and every value) of a dict one type",
    )


def _refined(t: T.Dict | T.Set, key: T.Type, value: T.Type | None = None) -> T.Type | None:
    """The container type after storing a `key` (and `value`): the refinement of an empty one,
    or None when the types are already known."""
    if not is_unrefined(t):
        return None
    check_key_type(key)
    new_key = _item_join(t.key, key)
    if isinstance(t, T.Set):
        return None if new_key is None else T.Set(new_key)
    assert value is not None
    check_value_type(value)
    new_value = _item_join(t.value, value)
    if new_key is None or new_value is None:
        return None
    return T.Dict(new_key, new_value)


def join_refinement(old: T.Type, new: T.Type) -> T.Type:
    """Two stores' refinements of one empty container, joined item by item (promoting)."""
    if isinstance(old, T.Dict) and isinstance(new, T.Dict):
        key, value = _item_join(old.key, new.key), _item_join(old.value, new.value)
        if key is not None and value is not None:
            return T.Dict(key, value)
    if isinstance(old, T.Set) and isinstance(new, T.Set):
        key = _item_join(old.key, new.key)
        if key is not None:
            return T.Set(key)
    raise TypingError(
        f"this container holds {old} and {new}",
        hint="give every key (and every value) of a dict or set one type",
    )


def retyped(resolved: Resolved, t: T.Type) -> Resolved:
    """The implementation of `{}` / `set()` once its item types are known."""
    return dataclasses.replace(resolved, ret=t, lower=new_container(t).lower)


def _reads_value(op: str, t: T.Dict, casts: tuple, may_raise: bool = False) -> Resolved:
    """An operation whose result is a value of `t` (a new reference, a Python number when its
    type is one)."""
    return Resolved(
        casts,
        t.value,
        lambda b, a, kw: _call(b, op, t, a, t.value),
        origin=origin_of(t.value),
        may_raise=may_raise,
    )


def _waiting(t: T.Type, refines: T.Type | None, ret: T.Type = T.BOTTOM) -> Resolved:
    """The rule's answer while the container's types are still being inferred."""
    return Resolved(tuple(None for _ in range(4)), ret, refines=refines)


# --- constructors ------------------------------------------------------------------------------


def new_container(t: T.Type) -> Resolved:
    """`{}`, `dict()` or `set()` of type `t` (typeinfer re-makes it with the refined type)."""
    return Resolved((), t, lambda b, a, kw: _call(b, "new", t, [], t), origin=False)


@register_function(dict, params="", notes="empty; the item types come from the first stores")
def _dict(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if args or kwargs:
        raise UnsupportedError(
            "dict() takes no arguments in compiled code", hint="write {k: v, ...} or a loop"
        )
    return new_container(T.Dict(T.BOTTOM, T.BOTTOM))


@register_function(
    set, params="items?: array | set", notes="`set()` takes its key type from the first `add`"
)
def _set(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or len(args) > 1:
        return None
    if not args:
        return new_container(T.Set(T.BOTTOM))
    source = args[0].type
    if isinstance(source, T.Array) and source.ndim != 1:
        raise TypingError("set() of an array needs a 1-D array", hint="use set(a.ravel())")
    return call_kernel(_set_from, [source])


@register_function(markers.dict_literal)
def _dict_literal(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    keys, values = [a.type for a in args[0::2]], [a.type for a in args[1::2]]
    key, value = _join_all(keys, "dict keys"), _join_all(values, "dict values")
    check_key_type(key)
    check_value_type(value)
    t = T.Dict(key, value)
    casts = tuple(
        _item_operand(
            key if i % 2 == 0 else value, a, "dict keys" if i % 2 == 0 else "dict values"
        )
        for i, a in enumerate(args)
    )

    def lower(b: LowBuilder, vals: list[ir.Value], kw: dict) -> ir.Value:
        d = _call(b, "new", t, [], t)
        for k, v in zip(vals[0::2], vals[1::2]):
            _call(b, "setitem", t, [d, k, v], T.NONE)
        return d

    return Resolved(casts, t, lower, origin=False)


@register_function(markers.set_literal)
def _set_literal(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    key = _join_all([a.type for a in args], "set items")
    check_key_type(key, "set items")
    t = T.Set(key)
    casts = tuple(_item_operand(key, a, "set items") for a in args)

    def lower(b: LowBuilder, vals: list[ir.Value], kw: dict) -> ir.Value:
        s = _call(b, "new", t, [], t)
        for v in vals:
            _call(b, "add", t, [s, v], T.NONE)
        return s

    return Resolved(casts, t, lower)


def _join_all(types: list[T.Type], what: str) -> T.Type:
    out: T.Type = T.BOTTOM
    for t in types:
        joined = _item_join(out, t)
        if joined is None:
            raise TypingError(
                f"{what} of types {out} and {t} in one literal",
                hint="give every key (and every value) one type",
            )
        out = joined
    return out


# --- items -----------------------------------------------------------------------------------


def resolve_getitem(obj: Operand, index: Operand) -> Resolved:
    t = obj.type
    if isinstance(t, T.View):
        return Resolved(
            (None, T.I64),
            _view_item_type(t),
            lambda b, a, kw: _call(b, "viewitem", t, a, _view_item_type(t)),
            origin=origin_of(_view_item_type(t)),
        )
    if isinstance(t, T.Set):
        raise TypingError("'set' object is not subscriptable", hint="use `x in s`")
    assert isinstance(t, T.Dict)  # strings: `strmethods.resolve_getitem`
    if is_unrefined(t):
        return _waiting(t, None)
    key = _item_operand(t.key, index, "dict keys")
    return _reads_value("getitem", t, (None, key), may_raise=True)


def resolve_setitem(obj: Operand, index: Operand, value: Operand) -> Resolved:
    t = obj.type
    if not isinstance(t, T.Dict):
        raise TypingError(f"{t} does not support item assignment")
    refines = _refined(t, index.type, value.type)
    if refines is not None or is_unrefined(t):
        return _waiting(t, refines, T.NONE)
    check_value_type(t.value)  # (a dict argument of lists can be read, not stored into)
    key = _item_operand(t.key, index, "dict keys")
    val = _item_operand(t.value, value, "dict values")
    return Resolved((None, key, val), T.NONE, lambda b, a, kw: _call(b, "setitem", t, a, T.NONE))


@register_function(markers.delitem)
def _delitem(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    obj, key = args
    t = obj.type
    if isinstance(t, T.List):
        raise UnsupportedError(
            "`del` of list items is not supported", hint="use lst.pop(i) or lst.remove(x)"
        )
    if not isinstance(t, T.Dict):
        raise TypingError(f"'{T.python_name(t)}' object doesn't support item deletion")
    if is_unrefined(t):
        return _waiting(t, None, T.NONE)
    cast_key = _item_operand(t.key, key, "dict keys")
    return Resolved((None, cast_key), T.NONE, lambda b, a, kw: _call(b, "delitem", t, a, T.NONE))


def resolve_contains(op: str, x: Operand, container: Operand) -> Resolved:
    """`x in c` for a dict, a set, a view or a string (substring)."""
    t = container.type
    negate = op == "notin"

    def finish(found: ir.Value, b: LowBuilder) -> ir.Value:
        return b.not_(found) if negate else found

    if isinstance(t, T.Str):
        if not isinstance(x.type, T.Str):
            raise TypingError(f"'in <string>' requires a string as left operand, not {x.type}")
        if x.is_const and container.is_const:
            return constant((x.const in container.const) != negate, T.BOOL)  # type: ignore[operator]
        return Resolved(
            (None, None),
            T.BOOL,
            lambda b, a, kw: finish(_call(b, "strcontains", None, [a[1], a[0]], T.BOOL), b),
            origin=True,
        )
    if isinstance(t, T.View):
        if t.kind != "keys":
            raise UnsupportedError(
                f"`in` on a dict's {t.kind}() is not supported", hint="test the keys: `k in d`"
            )
        t = t.container
    assert isinstance(t, CONTAINERS)
    if is_unrefined(t):
        return Resolved((None, None), T.BOOL, const=negate)  # nothing was ever stored
    if _mismatched_key(t.key, x.type):
        return Resolved((None, None), T.BOOL, const=negate)  # `"a" in {1: 2}` is False
    key = _item_operand(t.key, x, "keys")
    container_t = t

    def lower(b: LowBuilder, a: list[ir.Value], kw: dict) -> ir.Value:
        c = a[1]
        if isinstance(c.type, T.View):
            c = b.emit(ir.Extract(c, 0, type=container_t))
        return finish(_call(b, "contains", container_t, [c, a[0]], T.BOOL), b)

    return Resolved((key, None), T.BOOL, lower, origin=True)


def _mismatched_key(key: T.Type, t: T.Type) -> bool:
    """A key of another kind can never be in the container (Python says False)."""
    kinds = (T.Scalar, T.Str, T.Tuple, T.NoneType)
    return any(isinstance(key, k) for k in kinds) and not isinstance(t, type(key))


# --- methods ---------------------------------------------------------------------------------


@register_method(T.Dict, "get", params="key: const, default?: const")
def _get(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or len(args) not in (2, 3):
        return None
    d, key = args[0], args[1]
    t = cast(T.Dict, d.type)
    default = args[2] if len(args) == 3 else Operand(T.NONE, None)
    refines = _refined(t, key.type, default.type) if len(args) == 3 else None
    if is_unrefined(t) or refines is not None:
        return _waiting(t, refines)
    if len(args) == 2:
        return _get_optional(t, _item_operand(t.key, key, "dict keys"))
    k = _item_operand(t.key, key, "dict keys")
    v = _item_operand(t.value, default, "dict values")
    return _reads_value("get", t, (None, k, v))


def _get_optional(t: T.Dict, key: T.Type | None) -> Resolved:
    """`d.get(key)`: the value, or None (an optional value, `lib.optional`): a lookup for
    `in`, then one for the value where it is there."""
    if not can_be_optional(t.value):
        raise UnsupportedError(
            f"d.get(key) without a default would give an optional {t.value}, which cannot be",
            hint="give a default of the value type: d.get(key, default)",
        )
    result_t = T.Optional(t.value)

    def lower(b: LowBuilder, a: list[ir.Value], kw: dict) -> ir.Value:
        present = _call(b, "contains", t, [a[0], a[1]], T.BOOL)
        found, missing, joined = b.new_block("found"), b.new_block("missing"), b.new_block("got")
        b.branch(present, found, missing)
        b.position(found)
        value = _call(b, "getitem", t, [a[0], a[1]], t.value)
        wrapped = b.emit(ir.MakeTuple([ir.Const(True, type=T.BOOL), value], type=result_t))
        found_end = b.block
        b.jump(joined)
        b.position(missing)
        b.jump(joined)
        b.position(joined)
        return b.phi(result_t, {found_end: wrapped, missing: ir.Const(None, type=result_t)})

    return Resolved((None, key), result_t, lower, origin=origin_of(t.value))


@register_method(T.Dict, "setdefault", params="key: const, default: const")
def _setdefault(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or len(args) != 3:
        return None
    d, key, default = args
    t = cast(T.Dict, d.type)
    refines = _refined(t, key.type, default.type)
    if is_unrefined(t) or refines is not None:
        return _waiting(t, refines)
    check_value_type(t.value)
    k = _item_operand(t.key, key, "dict keys")
    v = _item_operand(t.value, default, "dict values")
    return _reads_value("setdefault", t, (None, k, v))


@register_method(T.Dict, "pop", params="key: const, default?: const")
def _pop(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or len(args) not in (2, 3):
        return None
    d, key = args[0], args[1]
    t = cast(T.Dict, d.type)
    if is_unrefined(t):
        return _waiting(t, None)
    k = _item_operand(t.key, key, "dict keys")
    if len(args) == 2:
        return _reads_value("pop", t, (None, k), may_raise=True)
    v = _item_operand(t.value, args[2], "dict values")
    return _reads_value("popdefault", t, (None, k, v))


def _view_method(kind: str):  # noqa: ANN202
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if kwargs or len(args) != 1:
            return None
        t = cast(T.Dict, args[0].type)
        if is_unrefined(t):
            return _waiting(t, None)
        view = T.View(t, kind)  # type: ignore[arg-type]
        return Resolved((None,), view, lambda b, a, kw: _call(b, "iter", view, a, view))

    return rule


for _kind in ("keys", "values", "items"):
    register_method(T.Dict, _kind, params="")(_view_method(_kind))


def _set_method(op: str, must_exist: bool = False):  # noqa: ANN202
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if kwargs or len(args) != 2:
            return None
        s, key = args
        t = cast(T.Set, s.type)
        refines = _refined(t, key.type) if op == "add" else None
        if is_unrefined(t) or refines is not None:
            if op != "add" and not must_exist:
                return Resolved(
                    (None, None), T.NONE, lambda b, a, kw: ir.Const(None, type=T.NONE)
                )  # nothing stored
            return _waiting(t, refines, T.NONE)
        k = _item_operand(t.key, key, "set items")
        return Resolved(
            (None, k),
            T.NONE,
            lambda b, a, kw: _call(b, op, t, a, T.NONE),
            may_raise=must_exist,
        )

    return rule


register_method(T.Set, "add", params="item: const")(_set_method("add"))
register_method(T.Set, "discard", params="item: const")(_set_method("discard"))
register_method(T.Set, "remove", params="item: const", notes="KeyError if absent")(
    _set_method("delitem", must_exist=True)
)


def iterated_item(t: T.Type) -> T.Type | None:
    """What `for x in t` gives for a set, a dict (its keys) or a view; None for other types."""
    if isinstance(t, T.View):
        return _view_item_type(t)
    if isinstance(t, T.Set | T.Dict):
        return t.key
    return None


def _view_item_type(t: T.View) -> T.Type:
    c = t.container
    if isinstance(c, T.Set) or t.kind == "keys":
        return cast(T.Dict | T.Set, c).key
    assert isinstance(c, T.Dict)
    return c.value if t.kind == "values" else T.Tuple((c.key, c.value))


@register_function(markers.iterate)
def _iterate(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    t = args[0].type
    if isinstance(t, CONTAINERS):
        if is_unrefined(t):
            return _waiting(t, None)
        view = T.View(t, "keys")
        return Resolved((None,), view, lambda b, a, kw: _call(b, "iter", view, a, view))
    if isinstance(t, T.Str):  # its characters, split in one pass (`codegen.strops`)
        chars = T.List(T.STR)
        return Resolved((None,), chars, lambda b, a, kw: b.native_call(_CHARS, a, chars))
    return Resolved((None,), t, lambda b, a, kw: a[0])  # any other sequence is itself


# --- set operators (library kernels: jitcore compiles them like user code) ---------------------


@library_kernel
def _set_from(items):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    s = set()
    for x in items:
        s.add(x)
    return s


@library_kernel
def _set_union(a, b):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    s = set()
    for x in a:
        s.add(x)
    for x in b:
        s.add(x)
    return s


@library_kernel
def _set_intersection(a, b):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    s = set()
    for x in a:
        if x in b:
            s.add(x)
    return s


@library_kernel
def _set_difference(a, b):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    s = set()
    for x in a:
        if x not in b:
            s.add(x)
    return s


@library_kernel
def _set_symmetric_difference(a, b):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    s = set()
    for x in a:
        if x not in b:
            s.add(x)
    for x in b:
        if x not in a:
            s.add(x)
    return s


_SET_OPS = {
    "or": _set_union,
    "and": _set_intersection,
    "sub": _set_difference,
    "xor": _set_symmetric_difference,
}


def resolve_binop(op: str, a: Operand, b: Operand) -> Resolved:
    ta, tb = a.type, b.type
    if isinstance(ta, T.Str) and isinstance(tb, T.Str) and op in ("add", "iadd"):
        if a.is_const and b.is_const:
            return constant(cast(str, a.const) + cast(str, b.const), T.STR)
        return Resolved(
            (None, None), T.STR, lambda bld, v, kw: _call(bld, "strconcat", None, v, T.STR)
        )
    name = op[1:] if op.startswith("i") and op[1:] in _SET_OPS else op
    if isinstance(ta, T.Set) and isinstance(tb, T.Set) and name in _SET_OPS:
        if is_unrefined(ta) or is_unrefined(tb):
            return Resolved((None, None), T.BOTTOM)
        return call_kernel(_SET_OPS[name], [ta, tb])
    raise TypingError(f"unsupported operand types for {op}: {ta} and {tb}")


# --- comparisons -----------------------------------------------------------------------------

_FLIP = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}


def resolve_compare(op: str, a: Operand, b: Operand) -> Resolved:
    ta, tb = a.type, b.type
    if not (isinstance(ta, T.Str) and isinstance(tb, T.Str)):
        if op in ("eq", "ne") and not (is_runtime_type(ta) and type(ta) is type(tb)):
            return constant(op == "ne", T.BOOL)  # a string is never equal to a number
        raise TypingError(
            f"cannot compare {ta} and {tb} with {op}",
            hint="compare strings with strings; dicts and sets cannot be compared",
        )
    if a.is_const and b.is_const:
        x, y = cast(str, a.const), cast(str, b.const)
        result = {"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y}
        return constant(result[op], T.BOOL)
    if op in ("eq", "ne"):

        def lower_eq(bld: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            same = _call(bld, "streq", None, v, T.BOOL)
            return same if op == "eq" else bld.not_(same)

        return Resolved((T.STR, T.STR), T.BOOL, lower_eq, origin=True)

    def lower_order(bld: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        sign = _call(bld, "strcmp", None, v, T.I64)
        return bld.cmp(op, sign, ir.Const(0, type=T.I64))

    return Resolved((T.STR, T.STR), T.BOOL, lower_order, origin=True)
