"""Array creation beyond empty/zeros/ones: np.array and np.asarray of numbers, (nested) tuples
and arrays, eye, identity, diag, diagflat, tri, tril, triu and full_like.

`np.array` of a tuple literal takes its shape from the tuple's structure, which is known while
compiling (a ragged tuple is a TypingError where NumPy raises ValueError), and its dtype from
NumPy's `result_type` of the items (Python ints as int64, floats as float64) unless `dtype=`
says. A tuple of arrays is stacked (`np.array((a, b))` is `np.stack((a, b))`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import Loop, LowBuilder, i64
from jitcore.lib import arrays as A
from jitcore.lib import joining as J
from jitcore.lib import listkernels, lists
from jitcore.lib import shapes as S
from jitcore.lib.layout import (
    Layout,
    data_of,
    index_values,
    itemsize,
    load,
    make_view,
    shapes_of,
    size_of,
    store,
    strides_of,
)
from jitcore.lib.registry import Operand, Resolved, call_kernel, register_function

# --- np.array, np.asarray ---------------------------------------------------------------------


def _nested_shape(t: T.Type, what: str) -> tuple[tuple[int, ...], list[T.Scalar]]:
    """The shape of a nested tuple of numbers and its leaf types in C order."""
    if isinstance(t, T.Scalar):
        return (), [t]
    if not isinstance(t, T.Tuple):
        raise TypingError(f"{what}: cannot make an array of {t}")
    parts = [_nested_shape(item, what) for item in t.items]
    inner = {shape for shape, _ in parts}
    if len(inner) > 1:
        raise TypingError(
            f"{what}: setting an array element with a sequence. The requested array has an "
            "inhomogeneous shape",
            hint="give every nested tuple the same length",
        )
    shape = (len(t.items), *(inner.pop() if inner else ()))
    return shape, [leaf for _, leaves in parts for leaf in leaves]


def _leaves(b: LowBuilder, v: ir.Value) -> list[ir.Value]:
    if isinstance(v.type, T.Tuple):
        return [leaf for item in index_values(b, v) for leaf in _leaves(b, item)]
    return [v]


def _array_rule(copy: bool):  # noqa: ANN202
    name = "array" if copy else "asarray"

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        kwargs = dict(kwargs)
        dtype_op = kwargs.pop("dtype", args[1] if len(args) > 1 else None)
        if kwargs or not 1 <= len(args) <= 2:
            return None
        t = args[0].type
        given = None if dtype_op is None else A.dtype_arg(dtype_op, np.float64)
        if isinstance(t, T.Array):
            return _from_array(t, given, copy)
        if isinstance(t, T.Tuple) and t.items and all(isinstance(i, T.Array) for i in t.items):
            return _from_arrays(t, given)
        if isinstance(t, T.List):
            return _from_list(t, given, f"np.{name}")
        shape, leaves = _nested_shape(t, f"np.{name}")
        dtype = given or T.from_dtype(np.result_type(*[leaf.dtype for leaf in leaves]))
        out = T.Array(dtype, len(shape), "C")

        # Python numbers convert as NumPy 2 converts them: an int must fit the dtype, a float
        # into ints is int() of it (NaN: ValueError), a complex goes into no real dtype
        python_numbers = args[0].weak
        refused = None
        if python_numbers and any(leaf.is_complex for leaf in leaves):
            refused = A.complex_store_error(Operand(T.C128, weak=True), dtype)

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            if refused is not None:
                b.raise_if(ir.Const(True, type=T.BOOL), TypeError, refused)
            leaves = _leaves(b, v[0])
            if python_numbers:
                for leaf in leaves:
                    A.check_python_int(b, leaf, dtype)
            arr = A.allocate(b, dtype, [i64(n) for n in shape], "C")
            data = data_of(b, arr)
            for k, leaf in enumerate(leaves):
                ptr = b.ptr_add(data, i64(k * dtype.dtype.itemsize))
                store(b, ptr, b.cast(leaf, dtype))
            return arr

        return Resolved((None,) * len(args), out, lower, kwargs={"dtype": None})

    return rule


def _from_array(t: T.Array, given: T.Scalar | None, copy: bool) -> Resolved:
    dtype = given or t.dtype
    if not copy and dtype == t.dtype:
        return Resolved((None,) * 2, t, lambda b, v, kw: v[0], kwargs={"dtype": None})
    layout: Layout = "F" if t.layout == "F" and t.ndim > 1 else "C"
    out = T.Array(dtype, t.ndim, layout)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        arr = A.allocate(b, dtype, shapes_of(b, v[0]), layout)
        J.copy_into(b, arr, v[0])
        return arr

    return Resolved((None,) * 2, out, lower, kwargs={"dtype": None})


def _from_arrays(t: T.Tuple, given: T.Scalar | None) -> Resolved:
    items = cast(tuple[T.Array, ...], t.items)
    if len({i.ndim for i in items}) != 1:
        raise TypingError(
            "np.array: setting an array element with a sequence. The requested array has an "
            "inhomogeneous shape"
        )
    dtype = given or J.result_dtype(list(items))
    out = T.Array(dtype, items[0].ndim + 1, "C")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        return J.stack(b, index_values(b, v[0]), 0, dtype)

    return Resolved((None,) * 2, out, lower, kwargs={"dtype": None})


def _from_list(t: T.List, given: T.Scalar | None, what: str) -> Resolved:
    """`np.array` of a list of numbers (1-D), of lists or tuples of numbers (2-D; rows of
    one length) or of arrays (stacked; arrays of one shape). The list's length is known only
    when it runs, so an empty list of lists, tuples or arrays keeps the static number of
    dimensions, with inner axes of length 0 (a tuple's own length for tuples): NumPy, which
    sees no item, makes shape `(0,)`."""
    item = t.item
    if lists.unsettled(t):
        return lists.PENDING  # a comprehension still filling its list: typed next round
    if isinstance(item, T.Scalar):
        kernel, dtypes, ndim = listkernels.array_of_numbers, [item], 1
    elif isinstance(item, T.List) and isinstance(item.item, T.Scalar):
        kernel, dtypes, ndim = listkernels.array_of_rows, [item.item], 2
    elif isinstance(item, T.Tuple) and all(isinstance(i, T.Scalar) for i in item.items):
        kernel, dtypes, ndim = (
            listkernels.array_of_rows,
            [cast(T.Scalar, i) for i in item.items],
            2,
        )
    elif isinstance(item, T.Array):
        kernel, dtypes, ndim = listkernels.array_of_arrays, [item.dtype], item.ndim + 1
    else:
        raise TypingError(
            f"{what}: cannot make an array of {t}",
            hint="lists of numbers, of lists or tuples of numbers, or of arrays",
        )
    dtype = given or T.from_dtype(np.result_type(*[cast(T.Scalar, d).dtype for d in dtypes]))
    if given is not None and not given.is_complex and any(d.is_complex for d in dtypes):
        raise TypingError(f"{what}: cannot store complex items into {given} (NumPy: TypeError)")
    proto_t = T.Array(dtype, ndim, "C")
    fill = call_kernel(kernel, [t, proto_t])

    empty_shape: list[ir.Value] = [i64(0)] * ndim
    if isinstance(item, T.Tuple):
        empty_shape[1] = i64(len(item.items))  # a tuple's length is known: (0, k)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        proto = A.allocate(b, dtype, empty_shape, "C")
        return fill.lower(b, [v[0], proto], {})  # type: ignore[misc]

    return Resolved((None,) * 2, fill.ret, lower, kwargs={"dtype": None})


_ARRAY_PARAMS = "object: number | array | tuple | list, dtype?: dtype"
register_function(
    np.array,
    params=_ARRAY_PARAMS,
    notes="a copy; of a tuple of arrays: stacked; copies of arrays neither C nor F are C",
)(_array_rule(True))
register_function(np.asarray, params=_ARRAY_PARAMS, notes="the array itself if its dtype fits")(
    _array_rule(False)
)


# --- matrices ---------------------------------------------------------------------------------

# The value of element (i, j) of a matrix being filled, from the loop indices.
Element = Callable[[LowBuilder, ir.Value, ir.Value], ir.Value]


def _fill_2d(b: LowBuilder, out: ir.Value, element: Element) -> None:
    """out[i, j] = element(i, j) over a fresh C-ordered 2-D array."""
    rows, cols = shapes_of(b, out)
    data = data_of(b, out)
    size = itemsize(cast(T.Array, out.type))
    outer = Loop(b, i64(0), rows)
    inner = Loop(b, i64(0), cols)
    flat = b.binop("add", b.binop("mul", outer.index, cols), inner.index)
    store(
        b, b.ptr_add(data, b.binop("mul", flat, i64(size))), element(b, outer.index, inner.index)
    )
    inner.finish()
    outer.finish()


def _int_arg(op: Operand | None, what: str) -> None:
    if op is None or (op.is_const and op.const is None):
        return
    if not (isinstance(op.type, T.Scalar) and op.type.kind in "iub"):
        raise TypingError(f"{what} must be an int, not {op.type}")


def _eye_like(kind: str):  # noqa: ANN202
    """eye(N, M=None, k=0, dtype=float) and tri(N, M=None, k=0, dtype=float): element (i, j)
    is 1 where j - i == k (eye) or j - i <= k (tri). Indexes are never negative, so `j - i`
    cannot overflow where `i + k` would wrap for a k near the int64 limits."""

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        names = ("N", "M", "k", "dtype")
        ops: dict[str, Operand] = dict(zip(names, args))
        for key, op in kwargs.items():
            if key not in names or key in ops:
                return None
            ops[key] = op
        if "N" not in ops or len(args) > 4:
            return None
        for key in ("N", "M", "k"):
            _int_arg(ops.get(key), f"np.{kind}: {key}")
        dtype = A.dtype_arg(ops.get("dtype"), np.float64)
        square = "M" not in ops or (ops["M"].is_const and ops["M"].const is None)
        has_k = "k" in ops
        order = list(ops)

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            given = dict(zip(order, v))
            given.update(kw)
            n, m = S.shape_values(b, given["N"])[0], given.get("M")
            m = n if square else S.shape_values(b, cast(ir.Value, m))[0]
            if kind == "tri":  # NumPy's tri is an outer comparison: a negative side is empty
                n = b.select(b.cmp("lt", n, i64(0)), i64(0), n)
                m = b.select(b.cmp("lt", m, i64(0)), i64(0), m)
            k = b.cast(given["k"], T.I64) if has_k else i64(0)
            out = A.allocate(b, dtype, [n, m], "C")
            one, zero = ir.Const(1, type=dtype), ir.Const(0, type=dtype)

            def element(b: LowBuilder, i: ir.Value, j: ir.Value) -> ir.Value:
                op = "eq" if kind == "eye" else "le"
                return b.select(b.cmp(op, b.binop("sub", j, i), k), one, zero)

            _fill_2d(b, out, element)
            return out

        return Resolved(
            (None,) * len(args),
            T.Array(dtype, 2, "C"),
            lower,
            kwargs={key: None for key in kwargs},
        )

    return rule


_EYE_PARAMS = "N: int, M?: int | None, k?: int, dtype?: dtype"
register_function(np.eye, params=_EYE_PARAMS)(_eye_like("eye"))
_K_NOTES = (
    "any int64 `k` is exact: `j - i` is compared with `k`, never `j` with `i + k`, which"
    " wraps (NumPy raises OverflowError for a `k` near -2**63)"
)
register_function(np.tri, params=_EYE_PARAMS, notes=_K_NOTES)(_eye_like("tri"))


@register_function(np.identity, params="n: int, dtype?: dtype")
def _identity(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    kwargs = dict(kwargs)
    dtype_op = kwargs.pop("dtype", args[1] if len(args) > 1 else None)
    if kwargs or not 1 <= len(args) <= 2:
        return None
    _int_arg(args[0], "np.identity: n")
    dtype = A.dtype_arg(dtype_op, np.float64)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        (n,) = S.shape_values(b, v[0])
        out = A.allocate(b, dtype, [n, n], "C")
        one, zero = ir.Const(1, type=dtype), ir.Const(0, type=dtype)
        _fill_2d(b, out, lambda b, i, j: b.select(b.cmp("eq", i, j), one, zero))
        return out

    return Resolved((None,) * len(args), T.Array(dtype, 2, "C"), lower, kwargs={"dtype": None})


def _k_arg(args: list[Operand], kwargs: dict[str, Operand], position: int) -> bool:
    op = kwargs.get("k", args[position] if len(args) > position else None)
    _int_arg(op, "k")
    return op is not None


def _diag_rule(flat: bool):  # noqa: ANN202
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if set(kwargs) - {"k"} or not 1 <= len(args) <= 2:
            return None
        t = S.array_of(args[0], "np.diagflat" if flat else "np.diag")
        has_k = _k_arg(args, kwargs, 1)
        if flat or t.ndim == 1:
            out = T.Array(t.dtype, 2, "C")
        elif t.ndim == 2:
            out = T.Array(t.dtype, 1, "C")
        else:
            raise TypingError("np.diag: Input must be 1- or 2-d.")

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            a = v[0]
            k_value = kw.get("k", v[1] if len(v) > 1 else None)
            k = b.cast(k_value, T.I64) if has_k and k_value is not None else i64(0)
            if flat:
                a = S.c_view_or_copy(b, a, [size_of(b, shapes_of(b, a))])
            if out.ndim == 2:
                return _diag_matrix(b, a, k)
            return _diagonal(b, a, k)

        return Resolved((None,) * len(args), out, lower, kwargs={"k": None})

    return rule


def _element_address(b: LowBuilder, a: ir.Value, idx: list[ir.Value]) -> ir.Value:
    offset: ir.Value = i64(0)
    for i, st in zip(idx, strides_of(b, a)):
        offset = b.binop("add", offset, b.binop("mul", i, st))
    return b.ptr_add(data_of(b, a), offset)


def _abs(b: LowBuilder, x: ir.Value) -> ir.Value:
    return b.select(b.cmp("lt", x, i64(0)), b.emit(ir.UnaryOp("neg", x, type=T.I64)), x)


def _diag_matrix(b: LowBuilder, v: ir.Value, k: ir.Value) -> ir.Value:
    """The square matrix with `v` on diagonal k and zeros elsewhere."""
    t = cast(T.Array, v.type)
    n = shapes_of(b, v)[0]
    size = b.binop("add", n, _abs(b, k))
    out = A.allocate(b, t.dtype, [size, size], "C")
    A.fill_contiguous(b, out, ir.Const(0, type=t.dtype))
    row0 = b.select(b.cmp("lt", k, i64(0)), b.emit(ir.UnaryOp("neg", k, type=T.I64)), i64(0))
    col0 = b.select(b.cmp("gt", k, i64(0)), k, i64(0))
    data, stride = data_of(b, v), strides_of(b, v)[0]
    loop = Loop(b, i64(0), n)
    x = load(b, b.ptr_add(data, b.binop("mul", loop.index, stride)), t.dtype)
    flat = b.binop(
        "add",
        b.binop("mul", b.binop("add", row0, loop.index), size),
        b.binop("add", col0, loop.index),
    )
    store(b, b.ptr_add(data_of(b, out), b.binop("mul", flat, i64(t.dtype.dtype.itemsize))), x)
    loop.finish()
    return out


def _diagonal(b: LowBuilder, m: ir.Value, k: ir.Value) -> ir.Value:
    """A copy of diagonal k of a 2-D array (empty when k is beyond the matrix)."""
    t = cast(T.Array, m.type)
    rows, cols = shapes_of(b, m)
    rstride, cstride = strides_of(b, m)
    row0 = b.select(b.cmp("lt", k, i64(0)), b.emit(ir.UnaryOp("neg", k, type=T.I64)), i64(0))
    col0 = b.select(b.cmp("gt", k, i64(0)), k, i64(0))
    left_r, left_c = b.binop("sub", rows, row0), b.binop("sub", cols, col0)
    n = b.select(b.cmp("lt", left_r, left_c), left_r, left_c)
    n = b.select(b.cmp("lt", n, i64(0)), i64(0), n)
    out = A.allocate(b, t.dtype, [n], "C")
    loop = Loop(b, i64(0), n)
    r, c = b.binop("add", row0, loop.index), b.binop("add", col0, loop.index)
    offset = b.binop("add", b.binop("mul", r, rstride), b.binop("mul", c, cstride))
    x = load(b, b.ptr_add(data_of(b, m), offset), t.dtype)
    store(b, b.ptr_add(data_of(b, out), b.binop("mul", loop.index, i64(itemsize(t)))), x)
    loop.finish()
    return out


register_function(np.diag, params="v: array, k?: int", notes="of a 2-D array: a copy")(
    _diag_rule(False)
)
register_function(np.diagflat, params="v: array, k?: int")(_diag_rule(True))


def _triangle(lower_part: bool):  # noqa: ANN202
    """tril/triu of the last two axes: a C-ordered copy with the other triangle zeroed."""

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if set(kwargs) - {"k"} or not 1 <= len(args) <= 2:
            return None
        name = "np.tril" if lower_part else "np.triu"
        t = S.array_of(args[0], name)
        if t.ndim == 0:
            raise TypingError(f"{name} needs an array of 1 or more dimensions")
        has_k = _k_arg(args, kwargs, 1)
        out_t = T.Array(t.dtype, max(t.ndim, 2), "C")

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            k_value = kw.get("k", v[1] if len(v) > 1 else None)
            k = b.cast(k_value, T.I64) if has_k and k_value is not None else i64(0)
            a = v[0]
            if t.ndim == 1:  # NumPy broadcasts a 1-D array to the rows of a square matrix
                (n,), (st,) = shapes_of(b, a), strides_of(b, a)
                square = T.Array(t.dtype, 2, "A")
                a = make_view(b, a, square, data_of(b, a), [n, n], [i64(0), st])
            out = A.allocate(b, t.dtype, shapes_of(b, a), "C")
            zero = ir.Const(0, type=t.dtype)
            loops = [Loop(b, i64(0), n) for n in shapes_of(b, a)]
            idx: list[ir.Value] = [loop.index for loop in loops]
            src = _element_address(b, a, idx)
            i, j = idx[-2], idx[-1]
            # j - i cannot overflow (both are indexes); i + k wraps for a k near the limits
            keep = b.cmp("le" if lower_part else "ge", b.binop("sub", j, i), k)
            value = b.select(keep, load(b, src, t.dtype), zero)
            store(b, _element_address(b, out, idx), value)
            for loop in reversed(loops):
                loop.finish()
            return out

        return Resolved((None,) * len(args), out_t, lower, kwargs={"k": None})

    return rule


register_function(np.tril, params="m: array, k?: int", notes=_K_NOTES)(_triangle(True))
register_function(np.triu, params="m: array, k?: int", notes=_K_NOTES)(_triangle(False))


@register_function(np.full_like, params="a: array, fill_value: number, *, dtype?: dtype")
def _full_like(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    kwargs = dict(kwargs)
    dtype_op = kwargs.pop("dtype", args[2] if len(args) > 2 else None)
    if kwargs or not 2 <= len(args) <= 3:
        return None
    t = S.array_of(args[0], "np.full_like")
    if not isinstance(args[1].type, T.Scalar):
        raise TypingError(f"np.full_like: the fill value must be a number, not {args[1].type}")
    dtype = A.dtype_arg(dtype_op, t.dtype.dtype)
    layout: Layout = "F" if t.layout == "F" and t.ndim > 1 else "C"
    out = T.Array(dtype, t.ndim, layout)

    # NumPy 2 refuses a Python int that does not fit the dtype; a float it casts unchecked,
    # as np.full does (NaN into ints is what the hardware's conversion gives)
    python_int = args[1].weak and args[1].type == T.I64

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        if python_int:
            A.check_python_int(b, v[1], dtype)
        arr = A.allocate(b, dtype, shapes_of(b, v[0]), layout)
        A.fill_contiguous(b, arr, b.cast(v[1], dtype))
        return arr

    return Resolved((None,) * len(args), out, lower, kwargs={"dtype": None})
