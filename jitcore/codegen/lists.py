"""LLVM code of typed lists: the `listop` low-IR instruction and the reference counts of lists.

A list value is a pointer to a runtime block (`runtime.nrt`) whose data is the header
`{i64 len, i64 cap, ptr items, ptr items_block}`; the items live in a second runtime block of
`cap` slots (null while `cap` is 0), each holding one item in its in-memory form (a bool takes
a byte, as in arrays; an array item is its `{block, data, shape, strides}` value; a list item is
its pointer). The list owns one reference to every array or list among its items.

Growth doubles the capacity (at least 4 slots); a capacity whose size in bytes would not fit is
refused like an allocation without memory, and the caller raises MemoryError. The helpers are
internal functions of each kernel's module, one per operation and item type, so LLVM inlines
the small ones (`append`'s fast path is a compare, a store and an add).

Indices reaching these helpers are already normalized and in range: `jitcore.lib.lists` wrote
the checks and the exceptions around each `listop`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from llvmlite import ir as ll

from jitcore.codegen import rtdicts
from jitcore.codegen.types import I1, I8, I32, I64, NULL, PTR, VOID, declare_function, llvm_type
from jitcore.errors import InternalCompilerError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.runtime import nrt

HEADER = ll.LiteralStructType([I64, I64, PTR, PTR])
_LEN, _CAP, _ITEMS, _ITEMS_BLOCK = 0, 1, 2, 3
MIN_CAPACITY = 4


# --- reference counts of any managed value -------------------------------------------------


def emit_refcount(
    b: ll.IRBuilder, module: ll.Module, value: ll.Value, t: T.Type, increment: bool
) -> None:
    """Incref or decref every runtime block `value` holds: an array's, a list's (the last
    reference to a list releases its items too), a string's, dict's or set's, those inside a
    tuple."""
    if isinstance(t, T.Array):
        block = b.extract_value(value, 0)
        if increment:
            nrt.emit_incref(b, block)
        else:
            nrt.emit_decref(b, block, declare_function(module, nrt.RELEASE, VOID, [PTR]))
    elif isinstance(t, T.List):
        if increment:
            nrt.emit_incref(b, value)
        else:
            nrt.emit_decref(b, value, _free(module, t))
    elif isinstance(t, T.Tuple):
        for i, item in enumerate(t.items):
            if T.contains_array(item):
                emit_refcount(b, module, b.extract_value(value, i), item, increment)
    elif isinstance(t, T.Optional):  # None holds null blocks, which counting skips
        emit_refcount(b, module, b.extract_value(value, 1), t.inner, increment)
    elif T.contains_array(t):  # strings, dicts, sets and their views
        rtdicts.emit_block_ref(b, value, t, increment)


rtdicts.set_refcount_walk(emit_refcount)


# --- the header and the items --------------------------------------------------------------


def _header(b: ll.IRBuilder, lst: ll.Value) -> ll.Value:
    slot = b.gep(lst, [I32(0), I32(2)], inbounds=True, source_etype=nrt.BLOCK)
    return b.load(slot, typ=PTR)


def _field(b: ll.IRBuilder, header: ll.Value, index: int) -> ll.Value:
    return b.gep(header, [I32(0), I32(index)], inbounds=True, source_etype=HEADER)


def _load_field(b: ll.IRBuilder, header: ll.Value, index: int) -> ll.Value:
    return b.load(_field(b, header, index), typ=PTR if index >= _ITEMS else I64)


def memory_type(t: T.Type) -> ll.Type:
    """An item's type in memory (bools take a byte)."""
    return I8 if isinstance(t, T.Scalar) and t.is_bool else llvm_type(t)


def _item_size(b: ll.IRBuilder, t: T.Type) -> ll.Value:
    """sizeof the item slot, as LLVM lays it out (a constant once folded)."""
    return b.ptrtoint(b.gep(NULL, [I64(1)], source_etype=memory_type(t)), I64)


def _slot(b: ll.IRBuilder, items: ll.Value, index: ll.Value, t: T.Type) -> ll.Value:
    return b.gep(items, [index], inbounds=True, source_etype=memory_type(t))


def _load_item(b: ll.IRBuilder, items: ll.Value, index: ll.Value, t: T.Type) -> ll.Value:
    value = b.load(_slot(b, items, index, t), typ=memory_type(t))
    if isinstance(t, T.Scalar) and t.is_bool:
        return b.icmp_unsigned("!=", value, ll.Constant(I8, 0))
    return value


def _store_item(b: ll.IRBuilder, items: ll.Value, index: ll.Value, v: ll.Value, t: T.Type) -> None:
    if isinstance(t, T.Scalar) and t.is_bool:
        v = b.zext(v, I8)
    b.store(v, _slot(b, items, index, t))


def _memmove(b: ll.IRBuilder, dest: ll.Value, src: ll.Value, nbytes: ll.Value) -> None:
    fn = b.module.declare_intrinsic("llvm.memmove", [PTR, PTR, I64])
    b.call(fn, [dest, src, nbytes, ll.Constant(I1, 0)])


# --- helper functions, one per module, operation and item type -----------------------------


def _helper(
    module: ll.Module,
    op: str,
    t: T.Type,
    ret: ll.Type,
    params: list[ll.Type],
    body: Callable[[ll.IRBuilder, ll.Function], None],
    inline: bool = False,
) -> ll.Function:
    name = "jitcore.list." + op + "." + re.sub(r"[^A-Za-z0-9_.]", "_", t.name)
    existing = module.globals.get(name)
    if existing is not None:
        return existing
    fn = ll.Function(module, ll.FunctionType(ret, params), name=name)
    fn.linkage = "internal"
    fn.attributes.add("alwaysinline" if inline else "noinline")
    body(ll.IRBuilder(fn.append_basic_block("entry")), fn)
    return fn


def _free(module: ll.Module, t: T.List) -> ll.Function:
    """Release a list whose last reference went: its items' references, then its memory."""

    def body(b: ll.IRBuilder, fn: ll.Function) -> None:
        (lst,) = fn.args
        header = _header(b, lst)
        if T.contains_array(t.item):
            items, n = _load_field(b, header, _ITEMS), _load_field(b, header, _LEN)
            _for_range(b, I64(0), n, lambda i: _release_item(b, module, items, i, t.item))
        release = declare_function(module, nrt.RELEASE, VOID, [PTR])
        nrt.emit_decref(b, _load_field(b, header, _ITEMS_BLOCK), release)
        b.call(release, [lst])
        b.ret_void()

    return _helper(module, "free", t.item, VOID, [PTR], body)


def _release_item(
    b: ll.IRBuilder, module: ll.Module, items: ll.Value, i: ll.Value, t: T.Type
) -> None:
    emit_refcount(b, module, _load_item(b, items, i, t), t, increment=False)


def _for_range(
    b: ll.IRBuilder, start: ll.Value, stop: ll.Value, body: Callable[[ll.Value], None]
) -> None:
    """for i in range(start, stop): body(i), in LLVM."""
    pre = b.block
    head = b.append_basic_block("loop")
    inside = b.append_basic_block("body")
    done = b.append_basic_block("done")
    b.branch(head)
    b.position_at_end(head)
    i = b.phi(I64)
    i.add_incoming(start, pre)
    b.cbranch(b.icmp_signed("<", i, stop), inside, done)
    b.position_at_end(inside)
    body(i)
    i.add_incoming(b.add(i, I64(1)), b.block)
    b.branch(head)
    b.position_at_end(done)


def _reserve(module: ll.Module, t: T.Type) -> ll.Function:
    """`reserve(l, n) -> ok`: room for at least `n` items (doubling; at least 4 slots)."""

    def body(b: ll.IRBuilder, fn: ll.Function) -> None:
        lst, n = fn.args
        header = _header(b, lst)
        cap = _load_field(b, header, _CAP)
        grow = fn.append_basic_block("grow")
        enough = fn.append_basic_block("enough")
        b.cbranch(b.icmp_signed("<=", n, cap), enough, grow)
        b.position_at_end(enough)
        b.ret(ll.Constant(I1, 1))
        b.position_at_end(grow)
        doubled = b.shl(cap, I64(1))
        new_cap = b.select(b.icmp_signed(">", n, doubled), n, doubled)
        new_cap = b.select(
            b.icmp_signed("<", new_cap, I64(MIN_CAPACITY)), I64(MIN_CAPACITY), new_cap
        )
        size = _item_size(b, t)
        fail = fn.append_basic_block("fail")
        sized = fn.append_basic_block("sized")
        too_big = b.icmp_signed(">", new_cap, b.sdiv(I64(nrt.HEADER_MAX), size))
        b.cbranch(too_big, fail, sized)
        b.position_at_end(sized)
        alloc = declare_function(module, nrt.ALLOC, PTR, [I64])
        block = b.call(alloc, [b.mul(new_cap, size)])
        have = fn.append_basic_block("have")
        b.cbranch(b.icmp_unsigned("==", block, NULL), fail, have)
        b.position_at_end(have)
        data = b.load(
            b.gep(block, [I32(0), I32(2)], inbounds=True, source_etype=nrt.BLOCK), typ=PTR
        )
        old_items = _load_field(b, header, _ITEMS)
        with b.if_then(b.icmp_unsigned("!=", old_items, NULL)):
            _memmove(b, data, old_items, b.mul(_load_field(b, header, _LEN), size))
        release = declare_function(module, nrt.RELEASE, VOID, [PTR])
        nrt.emit_decref(b, _load_field(b, header, _ITEMS_BLOCK), release)
        b.store(data, _field(b, header, _ITEMS))
        b.store(block, _field(b, header, _ITEMS_BLOCK))
        b.store(new_cap, _field(b, header, _CAP))
        b.ret(ll.Constant(I1, 1))
        b.position_at_end(fail)
        b.ret(ll.Constant(I1, 0))

    return _helper(module, "reserve", t, I1, [PTR, I64], body)


def _new(module: ll.Module, t: T.Type) -> ll.Function:
    """`new(cap) -> list`: empty, with room for `cap` items; null without memory."""

    def body(b: ll.IRBuilder, fn: ll.Function) -> None:
        (cap,) = fn.args
        alloc = declare_function(module, nrt.ALLOC, PTR, [I64])
        lst = b.call(alloc, [I64(HEADER_BYTES)])
        fail = fn.append_basic_block("fail")
        have = fn.append_basic_block("have")
        b.cbranch(b.icmp_unsigned("==", lst, NULL), fail, have)
        b.position_at_end(have)
        header = _header(b, lst)
        b.store(ll.Constant(HEADER, [I64(0), I64(0), NULL, NULL]), header)
        reserved = b.call(_reserve(module, t), [lst, cap])
        ok = fn.append_basic_block("ok")
        undo = fn.append_basic_block("undo")
        b.cbranch(reserved, ok, undo)
        b.position_at_end(ok)
        b.ret(lst)
        b.position_at_end(undo)
        b.call(declare_function(module, nrt.RELEASE, VOID, [PTR]), [lst])
        b.branch(fail)
        b.position_at_end(fail)
        b.ret(NULL)

    return _helper(module, "new", t, PTR, [I64], body)


HEADER_BYTES = 32


def _append(module: ll.Module, t: T.Type) -> ll.Function:
    """`append(l, v) -> ok`: the fast path stores in place; growth calls `reserve`."""

    def body(b: ll.IRBuilder, fn: ll.Function) -> None:
        lst, v = fn.args
        header = _header(b, lst)
        n = _load_field(b, header, _LEN)
        room = fn.append_basic_block("room")
        grow = fn.append_basic_block("grow")
        fail = fn.append_basic_block("fail")
        b.cbranch(b.icmp_signed("<", n, _load_field(b, header, _CAP)), room, grow)
        b.position_at_end(grow)
        grown = b.call(_reserve(module, t), [lst, b.add(n, I64(1))])
        b.cbranch(grown, room, fail)
        b.position_at_end(room)
        emit_refcount(b, module, v, t, increment=True)
        _store_item(b, _load_field(b, header, _ITEMS), n, v, t)
        b.store(b.add(n, I64(1)), _field(b, header, _LEN))
        b.ret(ll.Constant(I1, 1))
        b.position_at_end(fail)
        b.ret(ll.Constant(I1, 0))

    return _helper(module, "append", t, I1, [PTR, llvm_type(t)], body, inline=True)


def _insert(module: ll.Module, t: T.Type) -> ll.Function:
    """`insert(l, i, v) -> ok` with `0 <= i <= len`."""

    def body(b: ll.IRBuilder, fn: ll.Function) -> None:
        lst, i, v = fn.args
        grown = b.call(_reserve(module, t), [lst, b.add(_len(b, lst), I64(1))])
        room = fn.append_basic_block("room")
        fail = fn.append_basic_block("fail")
        b.cbranch(grown, room, fail)
        b.position_at_end(room)
        header = _header(b, lst)
        n, items = _load_field(b, header, _LEN), _load_field(b, header, _ITEMS)
        size = _item_size(b, t)
        at = _slot(b, items, i, t)
        _memmove(b, _slot(b, items, b.add(i, I64(1)), t), at, b.mul(b.sub(n, i), size))
        emit_refcount(b, module, v, t, increment=True)
        _store_item(b, items, i, v, t)
        b.store(b.add(n, I64(1)), _field(b, header, _LEN))
        b.ret(ll.Constant(I1, 1))
        b.position_at_end(fail)
        b.ret(ll.Constant(I1, 0))

    return _helper(module, "insert", t, I1, [PTR, I64, llvm_type(t)], body)


def _pop(module: ll.Module, t: T.Type) -> ll.Function:
    """`pop(l, i) -> item` with `0 <= i < len`; the item's reference goes to the caller."""

    def body(b: ll.IRBuilder, fn: ll.Function) -> None:
        lst, i = fn.args
        header = _header(b, lst)
        n, items = _load_field(b, header, _LEN), _load_field(b, header, _ITEMS)
        v = _load_item(b, items, i, t)
        after = b.add(i, I64(1))
        nbytes = b.mul(b.sub(n, after), _item_size(b, t))
        _memmove(b, _slot(b, items, i, t), _slot(b, items, after, t), nbytes)
        b.store(b.sub(n, I64(1)), _field(b, header, _LEN))
        b.ret(v)

    return _helper(module, "pop", t, llvm_type(t), [PTR, I64], body)


def _truncate(module: ll.Module, t: T.Type) -> ll.Function:
    """`truncate(l, n)` with `0 <= n`: drop the items from `n` on (nothing if `n >= len`)."""

    def body(b: ll.IRBuilder, fn: ll.Function) -> None:
        lst, n = fn.args
        header = _header(b, lst)
        length = _load_field(b, header, _LEN)
        with b.if_then(b.icmp_signed("<", n, length)):
            if T.contains_array(t):
                items = _load_field(b, header, _ITEMS)
                _for_range(b, n, length, lambda i: _release_item(b, module, items, i, t))
            b.store(n, _field(b, header, _LEN))
        b.ret_void()

    return _helper(module, "truncate", t, VOID, [PTR, I64], body)


def _len(b: ll.IRBuilder, lst: ll.Value) -> ll.Value:
    return _load_field(b, _header(b, lst), _LEN)


# --- the `listop` emitter --------------------------------------------------------------------


def emit_list_op(
    b: ll.IRBuilder, module: ll.Module, op: ir.ListOp, args: list[ll.Value]
) -> ll.Value:
    """The LLVM of one `listop` (its operands already LLVM values)."""
    nothing = ll.Constant(I8, 0)
    if op.op == "new":
        return b.call(_new(module, _item_type(op.type)), args, name=op.name)
    t = _item_type(op.args[0].type)
    if op.op == "len":
        return _len(b, args[0])
    if op.op == "get":
        items = _load_field(b, _header(b, args[0]), _ITEMS)
        value = _load_item(b, items, args[1], t)
        emit_refcount(b, module, value, t, increment=True)
        return value
    if op.op == "set":
        items = _load_field(b, _header(b, args[0]), _ITEMS)
        emit_refcount(b, module, args[2], t, increment=True)  # first: it may be the old item
        emit_refcount(b, module, _load_item(b, items, args[1], t), t, increment=False)
        _store_item(b, items, args[1], args[2], t)
        return nothing
    makers = {
        "append": _append,
        "reserve": _reserve,
        "pop": _pop,
        "insert": _insert,
        "truncate": _truncate,
    }
    maker = makers.get(op.op)
    if maker is None:
        raise InternalCompilerError(f"unknown list operation {op.op!r}", loc=op.loc)
    result = b.call(maker(module, t), args)
    return nothing if op.op == "truncate" else result


def _item_type(t: T.Type | None) -> T.Type:
    assert isinstance(t, T.List), t
    return t.item


# --- the Python boundary: a Python list in, a Python list out ---------------------------------

ItemUnboxer = Callable[[ll.Value, ll.Block], ll.Value]
ItemBoxer = Callable[[ll.Value], ll.Value]


def unbox_list(
    b: ll.IRBuilder, obj: ll.Value, t: T.List, unbox_item: ItemUnboxer, fail: ll.Block
) -> ll.Value:
    """A new native list with the items of the Python list `obj` (copy-in; the dispatcher
    checked every item's type). The caller owns the one reference; on a failed item the list
    is released and control goes to `fail`."""
    module = b.module
    size = declare_function(module, "PyList_Size", I64, [PTR])
    get_item = declare_function(module, "PyList_GetItem", PTR, [PTR, I64])
    n = b.call(size, [obj])
    lst = b.call(_new(module, t.item), [n])
    have = b.append_basic_block("list_made")
    no_memory = b.append_basic_block("list_no_memory")
    b.cbranch(b.icmp_unsigned("==", lst, NULL), no_memory, have)
    b.position_at_end(no_memory)
    b.call(declare_function(module, "PyErr_NoMemory", PTR, []), [])
    b.branch(fail)
    b.position_at_end(have)
    item_fail = b.append_basic_block("list_item_failed")

    def one(i: ll.Value) -> None:
        item = unbox_item(b.call(get_item, [obj, i]), item_fail)
        appended = b.call(_append(module, t.item), [lst, item])
        emit_refcount(b, module, item, t.item, increment=False)  # the list holds its own
        with b.if_then(b.not_(appended), likely=False):
            b.call(declare_function(module, "PyErr_NoMemory", PTR, []), [])
            b.branch(item_fail)

    _for_range(b, I64(0), n, one)
    done = b.block
    b.position_at_end(item_fail)
    emit_refcount(b, module, lst, t, increment=False)
    b.branch(fail)
    b.position_at_end(done)
    return lst


def box_list(b: ll.IRBuilder, lst: ll.Value, t: T.List, box_item: ItemBoxer) -> ll.Value:
    """A new Python list of the items of native list `lst` (copy-out); takes over and releases
    the reference `lst` came with."""
    module = b.module
    new = declare_function(module, "PyList_New", PTR, [I64])
    set_item = declare_function(module, "PyList_SetItem", I32, [PTR, I64, PTR])
    header = _header(b, lst)
    n = _load_field(b, header, _LEN)
    pylist = b.call(new, [n])

    def one(i: ll.Value) -> None:
        items = _load_field(b, header, _ITEMS)
        item = _load_item(b, items, i, t.item)
        emit_refcount(b, module, item, t.item, increment=True)  # boxing takes it over
        b.call(set_item, [pylist, i, box_item(item)])

    _for_range(b, I64(0), n, one)
    emit_refcount(b, module, lst, t, increment=False)
    return pylist
