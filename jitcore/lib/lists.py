"""Typed lists: literals, item access, methods, and the builtins and operators over lists.

A list holds items of one type (`T.List`): numbers, tuples, arrays or lists. The raw steps
(a new list, its length, an item, `append`, `pop`, `insert`, growth) are `listop` low-IR
instructions (`jitcore.codegen.lists` writes their LLVM); the checks around them are written
here as Python raises them (`IndexError: list index out of range`, `pop from empty list`,
MemoryError when a size does not fit). Everything else is a library kernel in `listkernels`.

Item types: a literal's items join as variables do (`[1, 2.5]` holds f64); an empty `[]`
takes its item type from what the function stores into it later (`jitcore.listinfer`); a
store that cannot convert to the item type without loss is a TypingError.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from jitcore.errors import TypingError, UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.ir.coerce import unify
from jitcore.ir.listmarkers import list_literal, list_reserve
from jitcore.lib import arrays, containers, listkernels
from jitcore.lib.layout import index_int
from jitcore.lib.registry import (
    Operand,
    Resolved,
    call_kernel,
    register_function,
    register_method,
    with_name,
)

# Item types whose values are Python numbers (as an `int`/`float`/`complex`/`bool` argument).
PYTHON_ITEMS = (T.I64, T.F64, T.C128, T.BOOL)
_HINT = "a list holds items of one type; convert the item, or start the list with that type"


def python_items(t: T.Type | None) -> bool | tuple[object, ...]:
    """Which parts of the items of a list of type `t` are Python numbers (a `typeinfer.Origin`:
    True, False, or one entry per item of a tuple), by the item type alone."""
    return isinstance(t, T.List) and item_origin(t.item)


def item_origin(item: T.Type) -> bool | tuple[object, ...]:
    """The `typeinfer.Origin` of a list item of type `item`: numbers of the types Python numbers
    have are Python numbers, as are those inside tuples and lists of them (`[(i, -i)]`,
    `[[1, 2], [n]]`: Python builds them from Python numbers); an empty `[]` counts as one until
    it has a type. A list's own origin is that of its items."""
    if item in PYTHON_ITEMS or isinstance(item, T.Bottom):
        return True
    if isinstance(item, T.List):
        return item_origin(item.item)
    if isinstance(item, T.Tuple):
        parts = tuple(item_origin(i) for i in item.items)
        return True if all(p is True for p in parts) else parts
    return False


def is_list_literal(instr: ir.Instr) -> bool:
    return (
        isinstance(instr, ir.Call)
        and isinstance(instr.func, ir.Const)
        and instr.func.value is list_literal
    )


def join_items(a: T.Type, b: T.Type) -> T.Type | None:
    """The item type holding both (bottom joins anything); None if there is none."""
    if isinstance(a, T.Bottom):
        return b
    if isinstance(b, T.Bottom):
        return a
    if isinstance(a, T.List) and isinstance(b, T.List):
        item = join_items(a.item, b.item)
        return None if item is None else T.List(item)
    if isinstance(a, T.List) or isinstance(b, T.List):
        return None
    return unify(a, b)


def accepts(item: T.Type, value: T.Type) -> bool:
    """Whether a `value` stored into a list of `item`s converts without loss of kind."""
    if isinstance(item, T.Bottom):
        return True
    joined = join_items(item, value)
    return joined is not None and (joined == item or unsettled(T.List(item)))


def stored_type(t: T.Type) -> T.Type | None:
    """The item type of what `extend`/`list()`/`sorted` take items from: a list, tuple or
    array (by position), a set, dict or dict view (by iteration: `copy_kernel`)."""
    iterated = containers.iterated_item(t)
    if iterated is not None:
        return iterated
    if isinstance(t, T.List):
        return t.item
    if isinstance(t, T.Tuple):
        out: T.Type = T.BOTTOM
        for item in t.items:
            joined = join_items(out, item)
            if joined is None:
                return None
            out = joined
        return out
    if isinstance(t, T.Array):
        return t.dtype if t.ndim == 1 else T.Array(t.dtype, t.ndim - 1, "A")
    return None


def unsettled(*types: T.Type) -> bool:
    """Whether a list among `types` still waits for its item type (an empty `[]` early in
    type inference): operations on it are typed later, when it has one."""
    for t in types:
        if isinstance(t, T.List) and (isinstance(t.item, T.Bottom) or unsettled(t.item)):
            return True
    return False


PENDING = Resolved((), T.BOTTOM)  # the type of an operation on an unsettled list, for now


# --- raw steps in low IR ---------------------------------------------------------------------


def _op(b: LowBuilder, op: str, args: list[ir.Value], t: T.Type) -> ir.Value:
    return b.emit(ir.ListOp(op, list(args), type=t))


def new_list(b: LowBuilder, item: T.Type, capacity: ir.Value) -> ir.Value:
    lst = _op(b, "new", [b.cast(capacity, T.I64)], T.List(item))
    address = b.emit(ir.PtrToInt(lst, type=T.I64))
    b.raise_if(b.cmp("eq", address, i64(0)), MemoryError, "")
    return lst


def length(b: LowBuilder, lst: ir.Value) -> ir.Value:
    return _op(b, "len", [lst], T.I64)


def append(b: LowBuilder, lst: ir.Value, value: ir.Value) -> None:
    ok = _op(b, "append", [lst, value], T.BOOL)
    b.raise_if(b.not_(ok), MemoryError, "")


def _item(lst: ir.Value) -> T.Type:
    assert isinstance(lst.type, T.List)
    return lst.type.item


def _checked_index(b: LowBuilder, lst: ir.Value, index: ir.Value, message: str) -> ir.Value:
    """`index` with a negative one counted from the end; IndexError(message) if out of range."""
    n = length(b, lst)
    i = index_int(b, index, IndexError)
    wrapped = b.select(b.cmp("lt", i, i64(0)), b.binop("add", i, n), i)
    # one unsigned compare catches both ends
    outside = b.emit(ir.Compare("ge", b.cast(wrapped, T.U64), b.cast(n, T.U64), type=T.BOOL))
    b.raise_if(outside, IndexError, message)
    return wrapped


def _build_literal(item: T.Type) -> Callable[[LowBuilder, list[ir.Value], dict], ir.Value]:
    def lower(b: LowBuilder, values: list[ir.Value], kwargs: dict) -> ir.Value:
        lst = new_list(b, item, i64(len(values)))
        for v in values:
            append(b, lst, v)
        return lst

    return lower


# --- literals --------------------------------------------------------------------------------


def literal(count: int, item: T.Type) -> Resolved:
    """`[a, b, ...]` of `count` items converted to `item`."""
    return Resolved((item,) * count, T.List(item), _build_literal(item))


@register_function(list_literal)
def _list_literal(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    if "item" in kwargs:  # the item type typeinfer settled on (as the IR text records it)
        return literal(len(args), kwargs["item"].type)
    item: T.Type = T.BOTTOM
    for a in args:
        joined = join_items(item, a.type)
        if joined is None:
            raise TypingError(f"a list of {item} cannot hold {a.type}", hint=_HINT)
        item = joined
    return literal(len(args), item)


def refined_literal(instr: ir.Call, item: T.Type, operands: list[Operand]) -> Resolved:
    """The literal `instr` once typeinfer knows its item type from later stores."""
    return with_name(
        literal(len(instr.args), item), "list_literal", operands, {"item": Operand(item)}
    )


@register_function(list_reserve)
def _list_reserve(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 2 or not isinstance(args[0].type, T.List):
        return None

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        ok = _op(b, "reserve", [v[0], b.cast(v[1], T.I64)], T.BOOL)
        b.raise_if(b.not_(ok), MemoryError, "")
        return ir.Const(None, type=T.NONE)

    return Resolved((None, T.I64), T.NONE, lower)


@register_function(list, params="x?: list | tuple | array | set | dict")
def _list(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if args and unsettled(args[0].type):
        return PENDING
    if kwargs or len(args) > 1:
        return None
    if not args:
        return literal(0, T.BOTTOM)
    item = stored_type(args[0].type)
    if item is None:
        raise TypingError(f"list() of {args[0].type} is not supported", hint=_LIST_HINT)
    if containers.is_unrefined(args[0].type):
        return PENDING  # an empty set or dict still waiting for its item types
    return call_kernel(copy_kernel(args[0].type), [args[0].type])


_LIST_HINT = "list() takes a list, a tuple, an array, a set, a dict, a dict view or range(...)"


def copy_kernel(t: T.Type) -> Callable[..., object]:
    """The kernel that copies the items of `t` into a new list: by position, or by iterating
    (sets, dicts and their views have no positions)."""
    if containers.iterated_item(t) is not None:
        return listkernels.list_from_iterable
    return listkernels.list_from


# --- length, items, truth --------------------------------------------------------------------


def resolve_len(x: Operand) -> Resolved:
    return Resolved((None,), T.I64, lambda b, v, kw: length(b, v[0]))


def resolve_truth(x: Operand, negate: bool) -> Resolved:
    op = "eq" if negate else "ne"
    return Resolved((None,), T.BOOL, lambda b, v, kw: b.cmp(op, length(b, v[0]), i64(0)))


def resolve_getitem(obj: Operand, index: Operand) -> Resolved:
    if isinstance(obj.type, T.List) and isinstance(obj.type.item, T.Bottom):
        return PENDING
    t = obj.type
    assert isinstance(t, T.List)
    if isinstance(index.type, T.Slice):
        kernel = call_kernel(listkernels.list_slice, [t, T.I64, T.I64, T.I64])

        def lower_slice(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            start, count, step = arrays.resolve_slice(b, v[1], length(b, v[0]))
            return kernel.lower(b, [v[0], start, count, step], {})  # type: ignore[misc]

        return Resolved((None, None), t, lower_slice, may_raise=True)
    _check_int_index(index.type, "list indices")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        i = _checked_index(b, v[0], v[1], "list index out of range")
        return _op(b, "get", [v[0], i], t.item)

    return Resolved((None, None), t.item, lower, may_raise=True)


def resolve_setitem(obj: Operand, index: Operand, value: Operand) -> Resolved:
    t = obj.type
    assert isinstance(t, T.List)
    if isinstance(index.type, T.Slice):
        raise UnsupportedError(
            "slice assignment to lists is not supported",
            hint="assign the items one by one, or build a new list (`lst[:i] + new + lst[j:]`)",
        )
    _check_int_index(index.type, "list indices")
    _check_store(t, value.type)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        i = _checked_index(b, v[0], v[1], "list assignment index out of range")
        _op(b, "set", [v[0], i, v[2]], T.NONE)
        return ir.Const(None, type=T.NONE)

    return Resolved((None, None, _target(t)), T.NONE, lower)


def _check_int_index(t: T.Type, what: str | None) -> None:
    """An int index, else Python's message: `list indices must be integers or slices, not
    float`, or for `what=None` (pop, insert) `'float' object cannot be interpreted as an
    integer`."""
    if not (isinstance(t, T.Scalar) and t.kind in "iub"):
        name = T.python_name(t)
        raise TypingError(
            f"{what} must be integers or slices, not {name}"
            if what is not None
            else f"'{name}' object cannot be interpreted as an integer",
            hint="index lists with an int",
        )


def _check_store(t: T.List, value: T.Type) -> None:
    """Items that cannot join at all; a lossy store (a float into a list of ints) is caught
    by `listinfer`, which widens a literal's item type instead where it can."""
    if join_items(t.item, value) is None:
        raise TypingError(f"a list of {t.item} cannot hold {value}", hint=_HINT)


def _target(t: T.List) -> T.Type | None:
    """The type a stored item converts to (none while the list's item type is unknown)."""
    return None if isinstance(t.item, T.Bottom) else t.item


# --- methods ---------------------------------------------------------------------------------


def _receiver(args: list[Operand]) -> T.List:
    t = args[0].type
    assert isinstance(t, T.List)
    return t


@register_method(T.List, "append", params="x: number | tuple | array")
def _append(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or len(args) != 2:
        return None
    t = _receiver(args)
    _check_store(t, args[1].type)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        append(b, v[0], v[1])
        return ir.Const(None, type=T.NONE)

    return Resolved((None, _target(t)), T.NONE, lower)


@register_method(T.List, "pop", params="index?: int")
def _pop(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if args and isinstance(args[0].type, T.List) and isinstance(args[0].type.item, T.Bottom):
        return PENDING
    if kwargs or len(args) > 2:
        return None
    t = _receiver(args)
    if len(args) == 2:
        _check_int_index(args[1].type, None)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        n = length(b, v[0])
        b.raise_if(b.cmp("eq", n, i64(0)), IndexError, "pop from empty list")
        index = v[1] if len(v) == 2 else b.binop("sub", n, i64(1))
        i = _checked_index(b, v[0], index, "pop index out of range")
        return _op(b, "pop", [v[0], i], t.item)

    return Resolved((None,) * len(args), t.item, lower, may_raise=True)


@register_method(T.List, "insert", params="index: int, x: number | tuple | array")
def _insert(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or len(args) != 3:
        return None
    t = _receiver(args)
    _check_int_index(args[1].type, None)
    _check_store(t, args[2].type)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        n = length(b, v[0])
        i = b.cast(v[1], T.I64)
        i = b.select(b.cmp("lt", i, i64(0)), b.binop("add", i, n), i)
        i = b.select(b.cmp("lt", i, i64(0)), i64(0), i)
        i = b.select(b.cmp("gt", i, n), n, i)
        ok = _op(b, "insert", [v[0], i, v[2]], T.BOOL)
        b.raise_if(b.not_(ok), MemoryError, "")
        return ir.Const(None, type=T.NONE)

    return Resolved((None, None, _target(t)), T.NONE, lower)


@register_method(T.List, "clear", params="")
def _clear(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or len(args) != 1:
        return None

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        _op(b, "truncate", [v[0], i64(0)], T.NONE)
        return ir.Const(None, type=T.NONE)

    return Resolved((None,), T.NONE, lower)


@register_method(T.List, "extend", params="items: list | tuple | array | set | dict")
def _extend(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or len(args) != 2:
        return None
    t = _receiver(args)
    if containers.is_unrefined(args[1].type):
        return PENDING  # an empty set or dict still waiting for its item types
    item = stored_type(args[1].type)
    if item is None:
        raise TypingError(f"cannot extend a list with {args[1].type}", hint=_LIST_HINT)
    _check_store(t, item)
    if isinstance(t.item, T.Bottom):  # typed once the item type is known (listinfer)
        return Resolved((None, None), T.NONE)
    if containers.iterated_item(args[1].type) is not None:
        kernel = call_kernel(listkernels.list_extend_iterable, [t, args[1].type])
    else:
        kernel = call_kernel(listkernels.list_extend, [t, args[1].type])
    return _discard(kernel)


def _discard(kernel: Resolved) -> Resolved:
    """A kernel call whose result (the list itself) the method does not return."""

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        kernel.lower(b, v, kw)  # type: ignore[misc]
        return ir.Const(None, type=T.NONE)

    return Resolved(kernel.args, T.NONE, lower, callee=None, may_raise=True)


def _kernel_method(
    name: str, kernel: Callable[..., object], params: str, defaults: tuple[object, ...] = ()
) -> None:
    """`lst.name(args)` as `kernel(lst, args..., defaults...)`; `index` and `count` give a
    Python int, as Python's do (not the kernel's NumPy int64)."""
    python_int = name in {"index", "count"}

    @register_method(T.List, name, params=params)
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if unsettled(*(a.type for a in args)):
            return PENDING
        if kwargs:
            return None
        missing_count = _arity(kernel) - len(args)
        if not 0 <= missing_count <= len(defaults):
            return None
        missing = defaults[len(defaults) - missing_count :]
        types = [a.type for a in args] + [_const_type(d) for d in missing]
        resolved = call_kernel(kernel, types)
        origin = True if python_int else None
        if not missing:
            if origin:
                resolved.origin = origin
            return resolved

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            extra = [ir.Const(d, type=_const_type(d)) for d in missing]
            return resolved.lower(b, [*v, *extra], kw)  # type: ignore[misc]

        return Resolved((None,) * len(args), resolved.ret, lower, may_raise=True, origin=origin)


def _arity(kernel: Callable[..., object]) -> int:
    return kernel.__code__.co_argcount  # type: ignore[attr-defined]


def _const_type(value: object) -> T.Type:
    return T.BOOL if isinstance(value, bool) else T.I64


_kernel_method("copy", listkernels.list_copy, "")
_kernel_method(
    "index", listkernels.list_index, "x: number, start?: int, stop?: int", (0, 2**63 - 1)
)
_kernel_method("count", listkernels.list_count, "x: number")
_kernel_method("remove", listkernels.list_remove, "x: number")
_kernel_method("reverse", listkernels.list_reverse, "")


@register_method(T.List, "sort", params="*, key?: const, reverse?: bool")
def _sort(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if args and unsettled(args[0].type):
        return PENDING
    if len(args) != 1 or set(kwargs) - {"reverse", "key"}:
        return None
    kernels = (listkernels.list_sort, listkernels.list_sort_key)
    return _with_reverse(kernels, args[0].type, kwargs, "list.sort")


def _with_reverse(
    kernels: tuple[Callable[..., object], Callable[..., object]],
    t: T.Type,
    kwargs: dict[str, Operand],
    what: str,
) -> Resolved:
    """A sort (`kernels`: without, with a key function) with keywords `reverse` and `key`."""
    key = key_function(kwargs.get("key"), what)
    if key is None:
        _check_orderable(t)
    resolved = call_kernel(kernels[key is not None], [t, *([key] if key else []), T.BOOL])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        reverse = kw.get("reverse", ir.Const(False, type=T.BOOL))
        keyed = [kw["key"]] if key is not None else []
        return resolved.lower(b, [v[0], *keyed, b.cast(reverse, T.BOOL)], {})  # type: ignore[misc]

    kinds: dict[str, T.Type | None] = {"reverse": T.BOOL, "key": None}
    return Resolved((None,), resolved.ret, lower, kwargs=kinds, may_raise=True)


def key_function(op: Operand | None, what: str) -> T.Type | None:
    """The type of a `key=` argument (None when absent or None): a function known while
    compiling, which the sorting kernel is specialized for."""
    if op is None or isinstance(op.type, T.NoneType) or (op.is_const and op.const is None):
        return None
    if isinstance(op.type, T.Opaque) and isinstance(op.type.obj, type):
        name = op.type.obj.__name__
        raise TypingError(
            f"{what}: key={name} (a class) is not supported as a key function",
            hint=f"write key=lambda x: {name}(x)",
        )
    if isinstance(op.type, T.Opaque) and callable(op.type.obj):
        return op.type
    raise TypingError(
        f"{what}: key must be a function known while compiling, not {op.type}",
        hint="pass a module-level function, a jitted one, or a lambda that uses no local "
        "variables",
    )


def _orderable(t: T.Type) -> bool:
    """Real numbers, and (nested) tuples of them: what `<` orders as Python does."""
    if isinstance(t, T.Tuple):
        return all(_orderable(i) for i in t.items)
    return isinstance(t, T.Scalar) and not t.is_complex


def _check_orderable(t: T.Type) -> None:
    assert isinstance(t, T.List)
    if not _orderable(t.item):
        raise TypingError(
            f"sorting a list of {t.item} is not supported",
            hint="sort lists of ints, floats, bools or tuples of them, or give key=",
        )


# --- builtins over lists (called from their rules in `builtins`) ----------------------------


@register_function(sum, params="items: list, start?: number")
def _sum(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if args and unsettled(args[0].type):
        return PENDING
    if kwargs or not 1 <= len(args) <= 2 or not isinstance(args[0].type, T.List):
        return None
    t = args[0].type
    if not isinstance(t.item, T.Scalar):
        raise TypingError(f"sum() of a list of {t.item} is not supported", hint="sum numbers")
    start = args[1].type if len(args) == 2 else T.I64
    resolved = call_kernel(listkernels.list_sum, [t, start])
    if len(args) == 2:
        return resolved

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        return resolved.lower(b, [v[0], i64(0)], {})  # type: ignore[misc]

    return Resolved((None,), resolved.ret, lower, may_raise=True)


def resolve_extreme(name: str, args: list[Operand], key: Operand | None = None) -> Resolved:
    """`min`/`max` of a list, with `key=` a function known while compiling."""
    if unsettled(args[0].type):
        return PENDING
    t = args[0].type
    assert isinstance(t, T.List)
    key_t = key_function(key, f"{name}()")
    if key_t is not None:
        kernel = listkernels.list_min_key if name == "min" else listkernels.list_max_key
        keyed = call_kernel(kernel, [t, key_t])

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            return keyed.lower(b, [v[0], kw["key"]], {})  # type: ignore[misc]

        # the kernel's own Resolved (whether its result is a Python number, too), called so
        return dataclasses.replace(keyed, args=(None,), lower=lower, kwargs={"key": None})
    if not isinstance(t.item, T.Scalar) or t.item.is_complex:
        raise TypingError(
            f"{name}() of a list of {t.item} is not supported", hint="use numbers, or give key="
        )
    kernel = listkernels.list_min if name == "min" else listkernels.list_max
    return call_kernel(kernel, [t])


def resolve_sorted(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 1 or set(kwargs) - {"reverse", "key"}:
        return None
    kernels = (listkernels.list_sorted, listkernels.list_sorted_key)
    return _with_reverse(kernels, args[0].type, kwargs, "sorted()")


@register_function(
    sorted, params="items: list | tuple | array | set | dict, *, key?: const, reverse?: bool"
)
def _sorted(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if args and unsettled(args[0].type):
        return PENDING
    if args and isinstance(args[0].type, T.List):
        return resolve_sorted(args, kwargs)
    if len(args) == 1 and stored_type(args[0].type) is not None:
        if containers.is_unrefined(args[0].type):
            return PENDING
        listed = call_kernel(copy_kernel(args[0].type), [args[0].type])
        inner = resolve_sorted([Operand(listed.ret)], kwargs)
        if inner is None:
            return None

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            lst = listed.lower(b, [v[0]], {})  # type: ignore[misc]
            return inner.lower(b, [lst], kw)  # type: ignore[misc]

        return Resolved((None,), inner.ret, lower, kwargs=inner.kwargs, may_raise=True)
    return None


# --- operators -------------------------------------------------------------------------------


def resolve_binop(op: str, a: Operand, b: Operand) -> Resolved | None:
    if unsettled(a.type, b.type):
        return PENDING
    ta, tb = a.type, b.type
    if op in ("add", "iadd") and isinstance(ta, T.List) and isinstance(tb, T.List):
        if ta != tb and join_items(ta, tb) is None:
            raise TypingError(f"cannot concatenate {ta} and {tb}", hint=_HINT)
        if op == "iadd":
            return call_kernel(listkernels.list_extend, [ta, tb])
        return call_kernel(listkernels.list_concat, [ta, tb])
    if op in ("mul", "imul"):
        lst, times = (a, b) if isinstance(ta, T.List) else (b, a)
        if not (isinstance(times.type, T.Scalar) and times.type.kind in "iub"):
            return None
        kernel = listkernels.list_irepeat if op == "imul" else listkernels.list_repeat
        resolved = call_kernel(kernel, [lst.type, T.I64])
        if lst is a:
            return Resolved((None, T.I64), resolved.ret, resolved.lower, may_raise=True)

        def swapped(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            return resolved.lower(b, [v[1], v[0]], kw)  # type: ignore[misc]

        return Resolved((T.I64, None), resolved.ret, swapped, may_raise=True)
    return None


def resolve_compare(op: str, a: Operand, b: Operand) -> Resolved | None:
    if unsettled(a.type, b.type):
        return PENDING
    """`==`/`!=` between lists, `in`/`not in` of a list."""
    if op in ("in", "notin") and isinstance(b.type, T.List):
        _check_comparable(b.type)
        kernel = call_kernel(listkernels.list_contains, [b.type, a.type])

        def contains(bld: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            return kernel.lower(bld, [v[1], v[0]], kw)  # type: ignore[misc]

        found = Resolved((None, None), T.BOOL, contains, may_raise=True)
        return _negated(found, op == "notin")
    if op in ("eq", "ne") and isinstance(a.type, T.List) and isinstance(b.type, T.List):
        _check_comparable(a.type)
        _check_comparable(b.type)
        return _negated(call_kernel(listkernels.list_eq, [a.type, b.type]), op == "ne")
    return None


def _check_comparable(t: T.List) -> None:
    if not isinstance(t.item, T.Scalar | T.Tuple | T.List):
        raise TypingError(
            f"comparing items of a list of {t.item} is not supported",
            hint="compare lists of numbers, tuples or lists",
        )


def _negated(resolved: Resolved, negate: bool) -> Resolved:
    if not negate:
        return resolved

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        return b.not_(resolved.lower(b, v, kw))  # type: ignore[misc]

    return Resolved(resolved.args, T.BOOL, lower, may_raise=True)
