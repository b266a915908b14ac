"""Shapes and views: reshape, ravel, flatten, transpose, swapaxes, squeeze, expand_dims,
atleast_1d/2d/3d and broadcast_to.

Each of these rearranges an array's shape and strides without touching its elements, so the
result is a view sharing the array's memory block (`make_view`), as in NumPy. `reshape` and
`ravel` are views of arrays that are C-contiguous at run time; otherwise `reshape` follows
NumPy's no-copy rule (`shapekernels.nocopy_strides`: a view where the strides allow one) and
copies in C order where they do not, and `ravel` copies, as NumPy. Axes are compile-time
constants, checked while typing; sizes are checked at run time with NumPy's exceptions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.ir.markers import ndindex_count, ndindex_item
from jitcore.lib import arrays as A
from jitcore.lib import shapekernels
from jitcore.lib.layout import (
    TOO_BIG,
    Layout,
    check_view_shape,
    contiguous_strides,
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
from jitcore.lib.registry import (
    Lowerer,
    Operand,
    Resolved,
    call_kernel,
    describe,
    register_function,
    register_method,
)

# --- helpers --------------------------------------------------------------------------------


def array_of(op: Operand, what: str) -> T.Array:
    if not isinstance(op.type, T.Array):
        raise TypingError(f"{what} needs an array, not {op.type}")
    return op.type


def const_axes(op: Operand | None, ndim: int, what: str) -> tuple[int, ...] | None:
    """A constant axis or tuple of axes, normalized into [0, ndim) (None if not given);
    NumPy's AxisError is a TypingError here (the axes and ndim are known while compiling)."""
    if op is None or (op.is_const and op.const is None):
        return None
    value = op.const
    if not op.is_const or not (
        isinstance(value, int)
        or (isinstance(value, tuple) and all(isinstance(v, int) for v in value))
    ):
        raise TypingError(f"{what}: axis must be a constant int or tuple of ints")
    axes = (value,) if isinstance(value, int) else cast(tuple[int, ...], value)
    out = []
    for axis in axes:
        if not -ndim <= axis < ndim:
            raise TypingError(
                f"{what}: axis {axis} is out of bounds for array of dimension {ndim}"
            )
        out.append(axis % ndim)
    if len(set(out)) != len(out):
        raise TypingError(f"{what}: repeated axis")
    return tuple(out)


def is_c_contiguous(b: LowBuilder, a: ir.Value) -> ir.Value:
    """Whether `a`'s elements lie in C order without gaps, at run time (as NumPy's flag:
    axes of length 1 have any stride, and an empty array is contiguous)."""
    t = cast(T.Array, a.type)
    if t.layout == "C" or t.ndim == 0:
        return ir.Const(True, type=T.BOOL)
    shapes, strides = shapes_of(b, a), strides_of(b, a)
    ok: ir.Value = ir.Const(True, type=T.BOOL)
    expected: ir.Value = i64(itemsize(t))
    for n, st in zip(reversed(shapes), reversed(strides)):
        ok = b.and_(ok, b.or_(b.cmp("eq", n, i64(1)), b.cmp("eq", st, expected)))
        expected = b.binop("mul", expected, n)
    return b.or_(ok, b.cmp("eq", size_of(b, shapes), i64(0)))


def c_view_or_copy(b: LowBuilder, a: ir.Value, shapes: list[ir.Value]) -> ir.Value:
    """A C-ordered array of `shapes` (whose size is `a`'s) holding `a`'s elements in C order:
    a view when `a` is C-contiguous, else a view of a C-ordered copy."""
    t = cast(T.Array, a.type)
    out = T.Array(t.dtype, len(shapes), "C")

    def view(src: ir.Value) -> ir.Value:
        strides = contiguous_strides(b, shapes, itemsize(t), "C")
        return make_view(b, src, out, data_of(b, src), shapes, strides)

    contiguous = is_c_contiguous(b, a)
    if isinstance(contiguous, ir.Const) and contiguous.value:
        return view(a)
    return _either(b, contiguous, out, lambda: view(a), lambda: view(A.copy_array(b, a)))


def _either(
    b: LowBuilder,
    cond: ir.Value,
    out: T.Array,
    yes: Callable[[], ir.Value],
    no: Callable[[], ir.Value],
) -> ir.Value:
    """`yes()` if `cond` else `no()`, both arrays of type `out` (new references)."""
    yes_b, no_b, join = b.new_block("then"), b.new_block("else"), b.new_block("endif")
    b.branch(cond, yes_b, no_b)
    b.position(yes_b)
    first = yes()
    yes_end = b.block
    b.jump(join)
    b.position(no_b)
    second = no()
    no_end = b.block
    b.jump(join)
    b.position(join)
    return b.phi(out, {yes_end: first, no_end: second})


def nocopy_kernel() -> Resolved:
    """The compiled `nocopy_strides` (a rule calls this while typing, so the kernel is ready
    when `reshaped_view` lowers)."""
    vec = T.Array(T.I64, 1, "C")
    return call_kernel(shapekernels.nocopy_strides, [vec, vec, vec, vec, T.I64])


def reshaped_view(
    b: LowBuilder, a: ir.Value, shapes: list[ir.Value], out: T.Array, kernel: Resolved | None
) -> ir.Value:
    """NumPy's reshape of `a` (of as many elements as `shapes` holds): a view when `a` is
    C-contiguous or NumPy's no-copy rule finds strides for one (`nocopy_strides`), else a
    C-ordered copy."""
    t = cast(T.Array, a.type)
    size = itemsize(t)

    def c_view(src: ir.Value) -> ir.Value:
        strides = contiguous_strides(b, shapes, size, "C")
        return make_view(b, src, out, data_of(b, src), shapes, strides)

    contiguous = is_c_contiguous(b, a)
    if isinstance(contiguous, ir.Const) and contiguous.value:
        return c_view(a)

    def attempt() -> ir.Value:
        old_shape = _small_array(b, shapes_of(b, a))
        old_strides = _small_array(b, strides_of(b, a))
        new_shape = _small_array(b, shapes)
        new_strides = _small_array(b, [i64(0)] * len(shapes))
        assert kernel is not None, "the rule compiles nocopy_strides for arrays not C-ordered"
        args = [old_shape, old_strides, new_shape, new_strides, i64(size)]
        found = cast(Lowerer, kernel.lower)(b, args, {})
        data = data_of(b, new_strides)
        strides = [load(b, b.ptr_add(data, i64(8 * k)), T.I64) for k in range(len(shapes))]
        return _either(
            b,
            found,
            out,
            lambda: make_view(b, a, out, data_of(b, a), shapes, strides),
            lambda: c_view(A.copy_array(b, a)),
        )

    return _either(b, contiguous, out, lambda: c_view(a), attempt)


def _small_array(b: LowBuilder, values: list[ir.Value]) -> ir.Value:
    arr = A.allocate(b, T.I64, [i64(len(values))], "C")
    data = data_of(b, arr)
    for k, v in enumerate(values):
        store(b, b.ptr_add(data, i64(8 * k)), b.cast(v, T.I64))
    return arr


def always_raise(exc: type, message: str, out: T.Array) -> Lowerer:
    """An emitter that raises `exc(message)`: for arguments NumPy rejects at run time whatever
    their values (known while compiling here, but raised as NumPy raises them, so that code
    catching NumPy's exception behaves the same). The first operand must be an array: an
    empty view of it of type `out` stands for the result, which is never reached."""

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        b.raise_if(ir.Const(True, type=T.BOOL), exc, message)
        zeros: list[ir.Value] = [i64(0)] * out.ndim
        return make_view(b, v[0], out, data_of(b, v[0]), zeros, zeros)

    return lower


def _shape_items(op: Operand, what: str) -> int:
    t = op.type
    if isinstance(t, T.Scalar) and t.kind in "iub":
        return 1
    if isinstance(t, T.Tuple) and all(
        isinstance(i, T.Scalar) and i.kind in "iub" for i in t.items
    ):
        return len(t.items)
    raise TypingError(f"{what}: the shape must be an int or a tuple of ints, not {t}")


def shape_values(b: LowBuilder, shape: ir.Value) -> list[ir.Value]:
    """The ints of a shape argument; NumPy refuses bools there (TypeError at run time)."""
    items = index_values(b, shape) if isinstance(shape.type, T.Tuple) else [shape]
    if any(x.type == T.BOOL for x in items):
        b.raise_if(ir.Const(True, type=T.BOOL), TypeError, "an integer is required")
    return [b.cast(x, T.I64) for x in items]


# --- reshape, ravel, flatten -----------------------------------------------------------------


def _reshape_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """`a.reshape(shape)`, `a.reshape(d0, d1, ...)`, `np.reshape(a, shape)`."""
    kwargs = dict(kwargs)
    order = kwargs.pop("order", None)
    if order is not None and not (order.is_const and order.const in ("C", "F")):
        raise TypingError("reshape: order must be the constant 'C' or 'F'")
    fortran = order is not None and order.const == "F"
    if "shape" in kwargs:
        args = [*args, kwargs.pop("shape")]
    if "newshape" in kwargs:
        args = [*args, kwargs.pop("newshape")]
    if kwargs or len(args) < 2:
        return None
    t = array_of(args[0], "reshape")
    if len(args) == 2:
        ndim = _shape_items(args[1], "reshape")
    else:
        ndim = sum(_shape_items(op, "reshape") for op in args[1:])
        if any(isinstance(op.type, T.Tuple) for op in args[1:]):
            raise TypingError("reshape: give the shape as one tuple or as separate ints")
    if fortran:  # order='F' is the C-order reshape of the transpose, transposed
        return _reshape_fortran(t, ndim, len(args))
    out = T.Array(t.dtype, ndim, "C" if t.layout == "C" else "A")
    kernel = None if t.layout == "C" else nocopy_kernel()

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        dims = [d for s in v[1:] for d in shape_values(b, s)]
        return reshaped_view(b, v[0], _resolve_shape(b, v[0], dims), out, kernel)

    return Resolved((None,) * len(args), out, lower, kwargs={"order": None})


_TRANSPOSED_LAYOUT: dict[str, Layout] = {"C": "F", "F": "C", "A": "A"}


def _reversed_view(b: LowBuilder, a: ir.Value, t: T.Array) -> ir.Value:
    """`a.T` typed as `t`."""
    return make_view(b, a, t, data_of(b, a), shapes_of(b, a)[::-1], strides_of(b, a)[::-1])


def _reshape_fortran(t: T.Array, ndim: int, nargs: int) -> Resolved:
    """`reshape(..., order='F')`: elements read and written first index fastest, which is
    `a.T.reshape(reversed shape).T` (a view where NumPy gives one)."""
    at = T.Array(t.dtype, t.ndim, _TRANSPOSED_LAYOUT[t.layout] if t.ndim > 1 else t.layout)
    inner = T.Array(t.dtype, ndim, "C" if at.layout == "C" else "A")
    out = T.Array(t.dtype, ndim, _TRANSPOSED_LAYOUT[inner.layout] if ndim > 1 else inner.layout)
    kernel = None if at.layout == "C" else nocopy_kernel()

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        dims = [d for s in v[1:] for d in shape_values(b, s)][::-1]
        a_t = _reversed_view(b, v[0], at)
        return _reversed_view(
            b, reshaped_view(b, a_t, _resolve_shape(b, a_t, dims), inner, kernel), out
        )

    return Resolved((None,) * nargs, out, lower, kwargs={"order": None})


def _resolve_shape(b: LowBuilder, a: ir.Value, dims: list[ir.Value]) -> list[ir.Value]:
    """The shape `dims` asks for, with its one negative ("unknown") dimension computed from
    `a`'s size; ValueError as NumPy for a second unknown or a size that does not match."""
    size = size_of(b, shapes_of(b, a))
    known: ir.Value = i64(1)
    unknown: ir.Value = i64(0)
    for d in dims:
        negative = b.cmp("lt", d, i64(0))
        unknown = b.binop("add", unknown, b.cast(negative, T.I64))
        factor = b.select(negative, i64(1), d)
        b.raise_if(b.intrinsic("smul_overflows", [known, factor], T.BOOL), ValueError, TOO_BIG)
        known = b.binop("mul", known, factor)
    b.raise_if(b.cmp("gt", unknown, i64(1)), ValueError, "can only specify one unknown dimension")
    bad = "cannot reshape array into the requested shape"
    has_unknown = b.cmp("eq", unknown, i64(1))
    safe = b.select(b.cmp("eq", known, i64(0)), i64(1), known)
    b.raise_if(
        b.and_(
            has_unknown,
            b.or_(
                b.cmp("eq", known, i64(0)),
                b.cmp("ne", b.binop("trem", size, safe), i64(0)),
            ),
        ),
        ValueError,
        bad,
    )
    b.raise_if(b.and_(b.not_(has_unknown), b.cmp("ne", known, size)), ValueError, bad)
    missing = b.binop("tdiv", size, safe)
    return [b.select(b.cmp("lt", d, i64(0)), missing, d) for d in dims]


register_function(
    np.reshape,
    params="a: array, shape: shape, *, order?: order",
    notes="a view of a C-contiguous array, else a copy",
)(_reshape_rule)
register_method(
    T.Array,
    "reshape",
    params="shape: shape; *dims: int",
    notes="a view of a C-contiguous array, else a copy",
)(_reshape_rule)


def _ravel_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 1 or kwargs:
        return None
    t = array_of(args[0], "ravel")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        return c_view_or_copy(b, v[0], [size_of(b, shapes_of(b, v[0]))])

    return Resolved((None,), T.Array(t.dtype, 1, "C"), lower)


def _flatten_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 1 or kwargs:
        return None
    t = array_of(args[0], "flatten")
    out = T.Array(t.dtype, 1, "C")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        copied = A.copy_array(b, v[0])
        n = size_of(b, shapes_of(b, copied))
        return make_view(b, copied, out, data_of(b, copied), [n], [i64(itemsize(t))])

    return Resolved((None,), out, lower)


_RAVEL_NOTES = "a view of a C-contiguous array, else a copy"
register_function(np.ravel, params="a: array", notes=_RAVEL_NOTES)(_ravel_rule)
register_method(T.Array, "ravel", params="", notes=_RAVEL_NOTES)(_ravel_rule)
register_method(T.Array, "flatten", params="", notes="a copy in C order")(_flatten_rule)


# --- transpose, swapaxes, squeeze, expand_dims ------------------------------------------------


def permuted(b: LowBuilder, a: ir.Value, perm: tuple[int, ...]) -> ir.Value:
    """The view of `a` whose axis k is `a`'s axis `perm[k]`."""
    out = _permuted_type(cast(T.Array, a.type), perm)
    shapes, strides = shapes_of(b, a), strides_of(b, a)
    return make_view(
        b, a, out, data_of(b, a), [shapes[k] for k in perm], [strides[k] for k in perm]
    )


def _permuted_type(t: T.Array, perm: tuple[int, ...]) -> T.Array:
    layout: Layout = "A"
    if perm == tuple(range(t.ndim)) or t.ndim <= 1:
        layout = t.layout
    elif perm == tuple(reversed(range(t.ndim))) and t.layout != "A":
        layout = "F" if t.layout == "C" else "C"
    return T.Array(t.dtype, t.ndim, layout)


def _transpose_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """`np.transpose(a, axes)`, `a.transpose()`, `a.transpose(axes)`, `a.transpose(1, 0)`."""
    kwargs = dict(kwargs)
    if "axes" in kwargs:
        args = [*args, kwargs.pop("axes")]
    if kwargs or not args:
        return None
    t = array_of(args[0], "transpose")
    rest = args[1:]
    if not rest or (len(rest) == 1 and rest[0].is_const and rest[0].const is None):
        perm = tuple(reversed(range(t.ndim)))
    else:
        if len(rest) > 1:
            if not all(op.is_const and isinstance(op.const, int) for op in rest):
                raise TypingError("transpose: axes must be constant ints")
            given = Operand(T.Tuple((T.I64,) * len(rest)), tuple(op.const for op in rest))
        else:
            given = rest[0]
        perm = const_axes(given, t.ndim, "transpose") or ()
        if len(perm) != t.ndim:
            raise TypingError("transpose: axes don't match array")
    out = _permuted_type(t, perm)
    return Resolved((None,) * len(args), out, lambda b, v, kw: permuted(b, v[0], perm))


register_function(np.transpose, params="a: array, axes?: const", notes="a view")(_transpose_rule)
register_method(T.Array, "transpose", params="*axes: const", notes="a view")(_transpose_rule)


def _swapaxes_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 3 or kwargs:
        return None
    t = array_of(args[0], "swapaxes")
    (i,) = const_axes(args[1], t.ndim, "swapaxes") or (0,)
    (j,) = const_axes(args[2], t.ndim, "swapaxes") or (0,)
    perm = list(range(t.ndim))
    perm[i], perm[j] = perm[j], perm[i]
    out = _permuted_type(t, tuple(perm))
    return Resolved((None,) * 3, out, lambda b, v, kw: permuted(b, v[0], tuple(perm)))


register_function(np.swapaxes, params="a: array, axis1: axis, axis2: axis", notes="a view")(
    _swapaxes_rule
)
register_method(T.Array, "swapaxes", params="axis1: axis, axis2: axis", notes="a view")(
    _swapaxes_rule
)


def _moveaxis_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """`np.moveaxis(a, source, destination)`: a view with the axes `source` (constant ints)
    moved to the positions `destination`, the others keeping their order."""
    named = dict(zip(("a", "source", "destination"), args)) | kwargs
    if len(args) > 3 or set(named) != {"a", "source", "destination"}:
        return None
    t = array_of(named["a"], "moveaxis")
    source = const_axes(named["source"], t.ndim, "moveaxis source") or ()
    destination = const_axes(named["destination"], t.ndim, "moveaxis destination") or ()
    if len(source) != len(destination):
        raise TypingError(
            "moveaxis: `source` and `destination` arguments must have the same number of elements"
        )
    perm = [k for k in range(t.ndim) if k not in source]
    for dest, src in sorted(zip(destination, source)):
        perm.insert(dest, src)
    order = tuple(perm)
    positional = len(args)
    return Resolved(
        (None,) * positional,
        _permuted_type(t, order),
        lambda b, v, kw: permuted(b, v[0] if v else kw["a"], order),
        kwargs={k: None for k in kwargs},
    )


register_function(np.moveaxis, params="a: array, source: axis, destination: axis", notes="a view")(
    _moveaxis_rule
)


def _squeeze_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    kwargs = dict(kwargs)
    axis_op = kwargs.pop("axis", args[1] if len(args) > 1 else None)
    if kwargs or not 1 <= len(args) <= 2:
        return None
    t = array_of(args[0], "squeeze")
    axes = const_axes(axis_op, t.ndim, "squeeze")
    if axes is None:
        raise TypingError(
            "squeeze needs axis=: which axes are removed decides the result's dimensions, "
            "and those must be known while compiling",
            hint="write np.squeeze(a, axis=0) (or a tuple of axes)",
        )
    kept = [k for k in range(t.ndim) if k not in axes]
    layout = t.layout if len(kept) > 1 else ("C" if t.layout != "A" else "A")
    out = T.Array(t.dtype, len(kept), layout)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a = v[0]
        shapes, strides = shapes_of(b, a), strides_of(b, a)
        for k in axes:
            b.raise_if(
                b.cmp("ne", shapes[k], i64(1)),
                ValueError,
                "cannot select an axis to squeeze out which has size not equal to one",
            )
        return make_view(
            b, a, out, data_of(b, a), [shapes[k] for k in kept], [strides[k] for k in kept]
        )

    return Resolved((None,) * len(args), out, lower, kwargs={"axis": None})


register_function(np.squeeze, params="a: array, axis: const", notes="axis= is required")(
    _squeeze_rule
)
register_method(T.Array, "squeeze", params="axis: const", notes="axis= is required")(_squeeze_rule)


def _expand_dims_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    kwargs = dict(kwargs)
    axis_op = kwargs.pop("axis", args[1] if len(args) > 1 else None)
    if kwargs or axis_op is None or not 1 <= len(args) <= 2:
        return None
    t = array_of(args[0], "expand_dims")
    count = 1 if isinstance(axis_op.const, int) else len(cast(tuple, axis_op.const))
    ndim = t.ndim + count
    axes = const_axes(axis_op, ndim, "expand_dims") or ()
    layout: Layout = "F" if t.layout == "F" and t.ndim > 1 else "C" if t.layout == "C" else "A"
    out = T.Array(t.dtype, ndim, layout)  # axes of length 1 keep an order

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a = v[0]
        shapes, strides = iter(shapes_of(b, a)), iter(strides_of(b, a))
        new_shapes: list[ir.Value] = []
        new_strides: list[ir.Value] = []
        for k in range(ndim):
            if k in axes:
                new_shapes.append(i64(1))
                new_strides.append(i64(0))
            else:
                new_shapes.append(next(shapes))
                new_strides.append(next(strides))
        if out.layout != "A":
            new_strides = contiguous_strides(b, new_shapes, itemsize(t), out.layout)
        return make_view(b, a, out, data_of(b, a), new_shapes, new_strides)

    return Resolved((None,) * len(args), out, lower, kwargs={"axis": None})


register_function(np.expand_dims, params="a: array, axis: const", notes="a view")(
    _expand_dims_rule
)


# --- atleast_nd, broadcast_to -------------------------------------------------------------------


def _atleast(n: int):  # noqa: ANN202
    """np.atleast_1d/2d/3d of one array or number: NumPy's placement of the new axes (in
    front; for 3-D, a 1-D array becomes (1, n, 1) and a 2-D one (m, n, 1))."""

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if len(args) != 1 or kwargs:
            return None
        t = args[0].type
        if isinstance(t, T.Scalar):
            scalar = t
            out = T.Array(scalar, n, "C")

            def lower_scalar(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
                arr = A.allocate(b, scalar, [i64(1)] * n, "C")
                A.fill_contiguous(b, arr, v[0])
                return arr

            return Resolved((None,), out, lower_scalar)
        t = array_of(args[0], f"atleast_{n}d")
        if t.ndim >= n:
            return Resolved((None,), t, lambda b, v, kw: v[0])
        ones_before = {0: n, 1: 1, 2: 0}[t.ndim] if n == 3 else n - t.ndim
        ones_after = n - t.ndim - ones_before
        out = T.Array(t.dtype, n, "C" if t.layout == "C" else "A")

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            a = v[0]
            one, zero = [i64(1)], [i64(0)]
            shapes = one * ones_before + shapes_of(b, a) + one * ones_after
            strides = zero * ones_before + strides_of(b, a) + zero * ones_after
            if out.layout == "C":
                strides = contiguous_strides(b, shapes, itemsize(t), "C")
            return make_view(b, a, out, data_of(b, a), shapes, strides)

        return Resolved((None,), out, lower)

    return rule


for _n, _f in ((1, np.atleast_1d), (2, np.atleast_2d), (3, np.atleast_3d)):
    register_function(_f, params="a: number | array", notes="one argument")(_atleast(_n))


@register_function(
    np.broadcast_to,
    params="array: array, shape: shape",
    notes="a view; NumPy makes it read-only, jitcore does not stop writes to it",
)
def _broadcast_to(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    kwargs = dict(kwargs)
    if "shape" in kwargs:
        args = [*args, kwargs.pop("shape")]
    if len(args) != 2 or kwargs:
        return None
    t = array_of(args[0], "broadcast_to")
    ndim = _shape_items(args[1], "broadcast_to")
    out = T.Array(t.dtype, ndim, "A")
    if ndim < t.ndim:
        message = "input operand has more dimensions than allowed by the axis remapping"
        return Resolved((None, None), out, always_raise(ValueError, message, out))

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a = v[0]
        target = shape_values(b, v[1])
        for n in target:
            b.raise_if(
                b.cmp("lt", n, i64(0)),
                ValueError,
                "all elements of broadcast shape must be non-negative",
            )
        shapes, strides = shapes_of(b, a), strides_of(b, a)
        lead = ndim - t.ndim
        new_strides: list[ir.Value] = [i64(0)] * lead
        for n, m, st in zip(target[lead:], shapes, strides):
            ok = b.or_(b.cmp("eq", m, n), b.cmp("eq", m, i64(1)))
            b.raise_if(
                b.not_(ok),
                ValueError,
                "operands could not be broadcast together with remapped shapes",
            )
            new_strides.append(b.select(b.cmp("eq", m, i64(1)), i64(0), st))
        check_view_shape(b, target, t.dtype.dtype.itemsize)
        return make_view(b, a, out, data_of(b, a), target, new_strides)

    return Resolved((None, None), out, lower)


# --- iteration: np.ndindex, np.nditer, a.flat -------------------------------------------


@register_function(ndindex_count, params="shape: shape")
def _ndindex_count(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 1 or kwargs:
        return None
    _shape_items(args[0], "np.ndindex")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        dims = shape_values(b, v[0])
        for n in dims:
            b.raise_if(b.cmp("lt", n, i64(0)), ValueError, "negative dimensions are not allowed")
        return size_of(b, dims)

    return Resolved((None,), T.I64, lower, may_raise=True)


@register_function(ndindex_item, params="shape: shape, k: int")
def _ndindex_item(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 2 or kwargs:
        return None
    ndim = _shape_items(args[0], "np.ndindex")
    out = T.Tuple((T.I64,) * ndim)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        dims = shape_values(b, v[0])
        rest = b.cast(v[1], T.I64)
        items: list[ir.Value] = []
        for n in reversed(dims):  # k < the product of dims, so no dimension is 0 here
            safe = b.select(b.cmp("eq", n, i64(0)), i64(1), n)
            items.append(b.binop("trem", rest, safe))
            rest = b.binop("tdiv", rest, safe)
        return b.make_tuple(items[::-1])

    # the index tuple holds Python ints, as NumPy's
    return Resolved((None, None), out, lower, python_result=(True,) * ndim)


describe(
    "np.ndindex",
    "function",
    "*shape: int | tuple",
    "in `for` loops: `for idx in np.ndindex(a.shape)` (tuples of Python ints)",
    module=__name__,
    obj=np.ndindex,
)


@register_function(
    np.nditer,
    params="op: array",
    notes="in `for` loops, read-only, in memory order (`order='K'`) for arrays that are C- or "
    "F-contiguous up to reversed axes, else in C order; each element is a NumPy scalar "
    "(NumPy: a 0-d array)",
)
def _nditer(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """`for x in np.nditer(a)`: the loop runs over a 1-D array of a's elements in memory order
    (a view when there is one)."""
    if len(args) != 1 or kwargs:
        return None
    t = array_of(args[0], "np.nditer")
    out = T.Array(t.dtype, 1, "C")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a = _unreversed(b, v[0])
        size = [size_of(b, shapes_of(b, a))]
        b.raise_if(
            b.cmp("eq", size[0], i64(0)),
            ValueError,
            "Iteration of zero-sized operands is not enabled",
        )
        if t.ndim < 2 or t.layout == "C":
            return c_view_or_copy(b, a, size)
        backwards = permuted(b, a, tuple(reversed(range(t.ndim))))
        if t.layout == "F":
            return c_view_or_copy(b, backwards, size)
        f_order = b.and_(b.not_(is_c_contiguous(b, a)), is_c_contiguous(b, backwards))
        return _either(
            b,
            f_order,
            out,
            lambda: c_view_or_copy(b, backwards, size),
            lambda: c_view_or_copy(b, a, size),
        )

    return Resolved((None,), out, lower)


def _unreversed(b: LowBuilder, a: ir.Value) -> ir.Value:
    """`a` with its negative-stride axes flipped (the order nditer's 'K' visits memory in)."""
    t = cast(T.Array, a.type)
    if t.layout != "A":
        return a
    shapes, strides = shapes_of(b, a), strides_of(b, a)
    offset: ir.Value = i64(0)
    flipped: list[ir.Value] = []
    for n, st in zip(shapes, strides):
        negative = b.cmp("lt", st, i64(0))
        last = b.select(b.cmp("gt", n, i64(0)), b.binop("sub", n, i64(1)), i64(0))
        offset = b.binop("add", offset, b.select(negative, b.binop("mul", last, st), i64(0)))
        flipped.append(b.select(negative, b.emit(ir.UnaryOp("neg", st, type=T.I64)), st))
    return make_view(b, a, t, b.ptr_add(data_of(b, a), offset), shapes, flipped)


def resolve_flat(obj: Operand) -> Resolved:
    """`a.flat` used as a value (`for x in a.flat`, `sum(a.flat)`): the elements in C order,
    a view of a C-contiguous array, else a copy (indexing `a.flat[i]` reads and writes `a`
    itself: `ssa` turns it into `flat_get`/`flat_set`)."""
    t = array_of(obj, "a.flat")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        return c_view_or_copy(b, v[0], [size_of(b, shapes_of(b, v[0]))])

    return Resolved((None,), T.Array(t.dtype, 1, "C"), lower)


describe(
    "ndarray.flat",
    "attribute",
    "a: array",
    "`a.flat[i]` reads and writes (int i); `for x in a.flat` iterates in C order",
    module=__name__,
)
