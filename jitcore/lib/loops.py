"""The elementwise loop engine: compute a scalar function over the broadcast of arrays.

`elementwise` emits a loop nest over the broadcast shape; when all operands are C-contiguous and
their shapes equal the result's, a flat unit-stride loop runs instead, which LLVM vectorizes.
A `Recipe` describes one element of an operation; `fuse` composes two elementwise operations
into one loop (the fusion pass uses it, and so does the IR parser to read a fused loop back).

Layer: depends on `layout`; `arrays`, `ufuncs`, `reductions` and `optimize.fusion` use it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import Loop, LowBuilder, i64
from jitcore.lib import layout as L
from jitcore.lib.outlining import parallel_or_serial
from jitcore.lib.registry import Operand, Resolved

ScalarFn = Callable[[LowBuilder, list[ir.Value]], ir.Value]


def _no_preparation(b: LowBuilder, values: list[ir.Value]) -> list[ir.Value]:
    return list(values)


@dataclass
class Recipe:
    """One element of an elementwise operation: `fn` maps the operands' elements (scalar
    operands as they are) to the result element; `prepare` runs once before the loop."""

    out: T.Scalar
    fn: ScalarFn
    prepare: Callable[[LowBuilder, list[ir.Value]], list[ir.Value]] = _no_preparation


def fused_elementwise(*args: object) -> object:
    """The callee a fused loop's `call` names (`call @fused_elementwise(a, b)`); never called."""
    raise AssertionError("fused expressions exist only in compiled code")


def fuse(inner: Resolved, outer: Resolved, position: int) -> Resolved:
    """One elementwise loop for `outer` whose operand `position` is computed by `inner`.

    The fused operation takes `outer`'s operands with that one replaced by `inner`'s, and is
    named like `outer` with `inner` in that operand's place (`binop.add(binop.mul(...), ...)`).
    """
    inner_recipe, outer_recipe = inner.elementwise, outer.elementwise
    assert isinstance(inner_recipe, Recipe) and isinstance(outer_recipe, Recipe)
    width = len(inner.args)
    inner_out = inner_recipe.out

    def fn(b: LowBuilder, xs: list[ir.Value]) -> ir.Value:
        value = b.cast(inner_recipe.fn(b, xs[position : position + width]), inner_out)
        return outer_recipe.fn(b, xs[:position] + [value] + xs[position + width :])

    def prepare(b: LowBuilder, xs: list[ir.Value]) -> list[ir.Value]:
        xs = list(xs)
        xs[position : position + width] = inner_recipe.prepare(b, xs[position : position + width])
        head, mid, tail = xs[:position], [cast(ir.Value, None)], xs[position + width :]
        prepared = outer_recipe.prepare(b, head + mid + tail)
        return prepared[:position] + xs[position : position + width] + prepared[position + 1 :]

    recipe = Recipe(outer_recipe.out, fn, prepare)

    def lower(b: LowBuilder, values: list[ir.Value], kwargs: dict) -> ir.Value:
        return elementwise(b, recipe.prepare(b, values), recipe.out, recipe.fn)

    return Resolved(
        (None,) * (len(outer.args) - 1 + width),
        outer.ret,
        lower,
        elementwise=recipe,
        name=outer.name,
        operands=(_graft(outer.operands[0], position, inner), ()),
    )


def _graft(
    operands: tuple[Operand | Resolved, ...], position: int, inner: Resolved
) -> tuple[Operand | Resolved, ...]:
    """`operands` with leaf number `position` (counting the leaves of operations fused into
    them, in order) replaced by `inner`: the name of a fused loop is the tree of what it
    computes, whatever order the fusion pass merged its parts in."""
    out: list[Operand | Resolved] = []
    for op in operands:
        width = len(op.args) if isinstance(op, Resolved) else 1
        if not 0 <= position < width:
            out.append(op)
        elif isinstance(op, Resolved):
            grafted = _graft(op.operands[0], position, inner)
            out.append(dataclasses.replace(op, operands=(grafted, op.operands[1])))
        else:
            out.append(inner)
        position -= width
    return tuple(out)


def elementwise(
    b: LowBuilder,
    inputs: list[ir.Value],
    out_dtype: T.Scalar,
    fn: ScalarFn,
    out: ir.Value | None = None,
    full: Sequence[ir.Value] = (),
) -> ir.Value:
    """Compute `fn` over the broadcast of `inputs` (arrays and scalars) into `out` (allocated
    C-contiguous when None). Returns the output array (a new reference if allocated here).

    `full`: inputs known to have `out`'s shape (the destination of `a += b` read as an
    operand): they are addressed with their own strides, not broadcast ones, so that where they
    are `out` itself LLVM sees each element read and written at one address and vectorizes
    without a run-time overlap test (that test failed for every in-place update, which then
    ran scalar: `X -= mu` was 0.29x Numba)."""
    arrays = [x for x in inputs if isinstance(x.type, T.Array)]
    ndim = max([a.type.ndim for a in arrays] + ([out.type.ndim] if out is not None else []) + [0])  # type: ignore[union-attr]
    shape = _broadcast_shape(b, arrays, ndim, out)
    if out is None:
        out = L.allocate(b, out_dtype, shape, "C")
    if ndim == 0:
        _store_element(b, inputs, fn, out, [], {})
        return out
    everything = arrays + [out]
    if all(a.type.layout == "C" for a in everything):  # type: ignore[union-attr]
        same: ir.Value = ir.Const(True, type=T.BOOL)
        for a in arrays:
            if a.type.ndim != ndim:  # type: ignore[union-attr]
                same = ir.Const(False, type=T.BOOL)
                break
            for k in range(ndim):
                same = b.and_(same, b.cmp("eq", L.shape_of(b, a, k), shape[k]))
        if isinstance(same, ir.Const) and not same.value:
            _general_loops(b, inputs, fn, out, shape, full)
        else:
            flat, general, join = (
                b.new_block("flat"),
                b.new_block("broadcast"),
                b.new_block("done"),
            )
            b.branch(same, flat, general)
            b.position(flat)
            _flat_loops(b, inputs, fn, out, L.size_of(b, shape))
            b.jump(join)
            b.position(general)
            # In one dimension an operand here has a different length, one, so it cannot run
            # along the axis with unit stride: no unit-stride copy of the loop.
            _general_loops(b, inputs, fn, out, shape, full, version_inner=ndim > 1)
            b.jump(join)
            b.position(join)
    else:
        _general_loops(b, inputs, fn, out, shape, full)
    return out


def _broadcast_shape(
    b: LowBuilder, arrays: list[ir.Value], ndim: int, out: ir.Value | None
) -> list[ir.Value]:
    if out is not None:
        shape = L.shapes_of(b, out)
        for a in arrays:
            offset = ndim - a.type.ndim  # type: ignore[union-attr]
            for k, ak in enumerate(L.shapes_of(b, a)):
                ok = b.or_(b.cmp("eq", ak, shape[k + offset]), b.cmp("eq", ak, i64(1)))
                b.raise_if(
                    b.not_(ok),
                    ValueError,
                    "non-broadcastable operand: shapes do not match the output",
                )
        return shape
    shape = [i64(1)] * ndim
    for a in arrays:
        offset = ndim - a.type.ndim  # type: ignore[union-attr]
        for k, ak in enumerate(L.shapes_of(b, a)):
            cur = shape[k + offset]
            if isinstance(cur, ir.Const) and cur.value == 1:
                shape[k + offset] = ak
                continue
            ok = b.or_(
                b.or_(b.cmp("eq", cur, ak), b.cmp("eq", cur, i64(1))), b.cmp("eq", ak, i64(1))
            )
            b.raise_if(b.not_(ok), ValueError, "operands could not be broadcast together")
            shape[k + offset] = b.select(b.cmp("eq", cur, i64(1)), ak, cur)
    return shape


def _flat_loops(
    b: LowBuilder, inputs: list[ir.Value], fn: ScalarFn, out: ir.Value, n: ir.Value
) -> None:
    """The flat loop over `0..n`; in a `parallel=True` function, over chunks of it on
    native threads when `n` is large (`outlining`): each element is computed as serially."""
    captured = [x for x in inputs if not isinstance(x, ir.Const)] + [out]

    def chunk(cb: LowBuilder, lo: ir.Value, hi: ir.Value, values: list[ir.Value]) -> None:
        rename = {id(x): v for x, v in zip(captured, values)}
        local = [rename.get(id(x), x) for x in inputs]
        _flat_loop(cb, local, fn, values[-1], lo, hi)

    parallel_or_serial(b, n, captured, chunk)


def _flat_loop(
    b: LowBuilder,
    inputs: list[ir.Value],
    fn: ScalarFn,
    out: ir.Value,
    lo: ir.Value,
    hi: ir.Value,
) -> None:
    datas = {id(x): L.data_of(b, x) for x in inputs if isinstance(x.type, T.Array)}
    out_data = L.data_of(b, out)
    loop = Loop(b, lo, hi)
    values = []
    for x in inputs:
        if isinstance(x.type, T.Array):
            ptr = b.ptr_add(datas[id(x)], b.binop("mul", loop.index, i64(L.itemsize(x.type))))
            values.append(L.load(b, ptr, x.type.dtype))
        else:
            values.append(x)
    result = b.cast(fn(b, values), out.type.dtype)  # type: ignore[union-attr]
    L.store(
        b,
        b.ptr_add(out_data, b.binop("mul", loop.index, i64(L.itemsize(cast(T.Array, out.type))))),
        result,
    )
    loop.finish()


def _general_loops(
    b: LowBuilder,
    inputs: list[ir.Value],
    fn: ScalarFn,
    out: ir.Value,
    shape: list[ir.Value],
    full: Sequence[ir.Value] = (),
    version_inner: bool = True,
) -> None:
    """The loop nest over the broadcast shape, versioned on the innermost axis: when every
    operand and the output run along it with unit stride (`X - mu`, any broadcast along the
    outer axes only), a copy of the nest with that stride constant runs, which LLVM
    vectorizes; so does one per operand of a binary operation broadcast along it, with its
    stride there 0 (`x[:, None] - y[None, :]`: 0.33x Numba without); otherwise every stride
    is read at run time, 0 where an operand is broadcast (`select(shape == 1, 0, stride)`),
    which no vectorizer can use."""
    ndim = len(shape)
    eff: dict[int, list[ir.Value]] = {}
    for x in inputs:
        if isinstance(x.type, T.Array):
            offset = ndim - x.type.ndim
            strides = L.strides_of(b, x)
            shapes = L.shapes_of(b, x)
            if any(x is y for y in full):
                eff[id(x)] = strides
                continue
            eff[id(x)] = [i64(0)] * offset + [
                b.select(b.cmp("eq", s, i64(1)), i64(0), st) for s, st in zip(shapes, strides)
            ]
    eff_out = L.strides_of(b, out)
    if not version_inner or not shape:
        _loop_nest(b, inputs, fn, out, shape, eff, eff_out)
        return
    arrays = [x for x in inputs if isinstance(x.type, T.Array) and x.type.ndim > 0]
    versions: list[frozenset[int]] = [frozenset()]
    if ndim >= 2 and len(arrays) == 2 and not full:  # an outer operation: x[:, None] - y
        versions += [frozenset({0}), frozenset({1})]
    join = b.new_block("done")
    out_inner = [*eff_out[:-1], i64(L.itemsize(cast(T.Array, out.type)))]
    for along in versions:
        fast, other = b.new_block("unitinner"), b.new_block("strided")
        b.branch(_inner_strides_are(b, arrays, along, out, shape), fast, other)
        b.position(fast)
        inner = {
            id(x): [*eff[id(x)][:-1], i64(0 if k in along else L.itemsize(cast(T.Array, x.type)))]
            for k, x in enumerate(arrays)
        }
        _loop_nest(b, inputs, fn, out, shape, eff | inner, out_inner)
        b.jump(join)
        b.position(other)
    _loop_nest(b, inputs, fn, out, shape, eff, eff_out)
    b.jump(join)
    b.position(join)


def _inner_strides_are(
    b: LowBuilder,
    arrays: list[ir.Value],
    broadcast: frozenset[int],
    out: ir.Value,
    shape: list[ir.Value],
) -> ir.Value:
    """Whether, along the innermost axis of the broadcast shape, the arrays at the positions
    in `broadcast` have length 1 (their element is the same all along it) and every other
    array and the output span it with unit stride."""
    cond: ir.Value = ir.Const(True, type=T.BOOL)
    for k, x in enumerate([*arrays, out]):
        last = L.shape_of(b, x, x.type.ndim - 1)  # type: ignore[union-attr]
        if k in broadcast:
            cond = b.and_(cond, b.cmp("eq", last, i64(1)))
            continue
        size = i64(L.itemsize(cast(T.Array, x.type)))
        spans = b.cmp("eq", last, shape[-1])
        unit = b.cmp("eq", L.strides_of(b, x)[-1], size)
        cond = b.and_(cond, b.and_(spans, unit))
    return cond


def _loop_nest(
    b: LowBuilder,
    inputs: list[ir.Value],
    fn: ScalarFn,
    out: ir.Value,
    shape: list[ir.Value],
    eff: dict[int, list[ir.Value]],
    eff_out: list[ir.Value],
) -> None:
    ndim = len(shape)
    loops: list[Loop] = []
    indices: list[ir.Value] = []
    for k in range(ndim):
        loop = Loop(b, i64(0), shape[k])
        loops.append(loop)
        indices.append(loop.index)
    _store_element(b, inputs, fn, out, indices, eff, eff_out)
    for loop in reversed(loops):
        loop.finish()


def _store_element(
    b: LowBuilder,
    inputs: list[ir.Value],
    fn: ScalarFn,
    out: ir.Value,
    indices: list[ir.Value],
    eff: dict[int, list[ir.Value]],
    eff_out: list[ir.Value] | None = None,
) -> None:
    values = []
    for x in inputs:
        if isinstance(x.type, T.Array):
            ptr = L.element_ptr(b, L.data_of(b, x), indices, eff.get(id(x), []))
            values.append(L.load(b, ptr, x.type.dtype))
        else:
            values.append(x)
    result = b.cast(fn(b, values), out.type.dtype)  # type: ignore[union-attr]
    L.store(b, L.element_ptr(b, L.data_of(b, out), indices, eff_out or []), result)
