"""Statistics and array algorithms: NaN-ignoring reductions, `ptp`, `count_nonzero`, scans and
`diff` along an axis, `bincount`, `histogram`, `digitize`, `interp`, `average`, `isclose`,
`allclose`, `array_equal`, `trace`, `outer`, `cross`, `kron`, `convolve`, `correlate`.

Rules pick NumPy's result types and bring arrays to 2-D rows (`nprows`) or flat C arrays; the
kernels of `npstatsk` do the work.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from jitcore.errors import TypingError, UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.lib import layout as L
from jitcore.lib import npkernels, npstatsk
from jitcore.lib.nprows import (
    Rows,
    axes_arg,
    const_flag,
    is_none,
    reduced_type,
    rows,
    take_args,
    unrows_lanes,
    unrows_reduced,
)
from jitcore.lib.reductions import mean_dtype, sum_dtype
from jitcore.lib.registry import (
    Operand,
    Resolved,
    call_kernel,
    register_function,
    register_method,
)

Lower = Callable[[LowBuilder, list[ir.Value], dict], ir.Value]


def _kernel(name: str, arg_types: list[T.Type]) -> Resolved:
    return call_kernel(getattr(npstatsk, name), arg_types)


def _array(args: list[Operand], what: str, position: int = 0) -> T.Array:
    if len(args) <= position or not isinstance(args[position].type, T.Array):
        raise TypingError(f"{what} needs an array argument")
    t = args[position].type
    assert isinstance(t, T.Array)
    if t.dtype.is_complex:
        raise UnsupportedError(f"{what} of complex arrays is not supported")
    return t


def flat1(b: LowBuilder, a: ir.Value, dtype: T.Scalar) -> ir.Value:
    """a's items in C order as a 1-D C array of dtype (a view when a already is one)."""
    r = rows(b, a, None, dtype)
    return L.make_view(
        b,
        r.rows,
        T.Array(dtype, 1, "C"),
        L.data_of(b, r.rows),
        [r.length],
        [i64(dtype.dtype.itemsize)],
    )


def _operand(v: list[ir.Value], kw: dict, args: list[Operand], position: int, name: str):  # noqa: ANN202
    """The value of an operand given positionally (at `position`) or by keyword."""
    if position < len(args):
        return v[position]
    return kw.get(name)


# --- NaN-ignoring reductions, ptp, count_nonzero -------------------------------------------


def _row_reduction(
    what: str,
    names: list[str],
    kernel: str,
    in_dtype: Callable[[T.Scalar], T.Scalar],
    out_dtype: Callable[[T.Scalar], T.Scalar],
    extra: Callable[[LowBuilder, dict[str, ir.Value | None]], list[ir.Value]],
    extra_types: list[T.Type],
    *,
    single_axis: bool = False,
) -> Callable[[list[Operand], dict[str, Operand]], Resolved | None]:
    """A reduction over `axis=` (None, an int or a tuple) with `keepdims=`, one kernel call on
    the rows."""

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        t = _array(args, what)
        ops = take_args(args, kwargs, names, what)
        for unsupported in ("dtype", "out"):
            if not is_none(ops.get(unsupported)):
                raise UnsupportedError(f"{what}: {unsupported}= is not supported")
        axis_op = ops.get("axis")
        if single_axis and axis_op is not None and isinstance(axis_op.const, tuple):
            raise TypingError(f"{what}: axis must be an integer, not a tuple")
        axes = axes_arg(axis_op, t.ndim, what)
        keepdims = const_flag(ops.get("keepdims"), "keepdims")
        src, dst = in_dtype(t.dtype), out_dtype(t.dtype)
        k = _kernel(kernel, [T.Array(src, 2, "C"), T.Array(dst, 1, "C"), *extra_types])

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            given = {n: _operand(v, kw, args, i + 1, n) for i, n in enumerate(names)}
            r = rows(b, v[0], axes, src)
            out = L.allocate(b, dst, [r.count], "C")
            k.lower(b, [r.rows, out, *extra(b, given)], {})  # type: ignore[misc]
            return unrows_reduced(b, out, r, t.ndim, axes, keepdims)

        return Resolved(
            (None,) * len(args),
            reduced_type(dst, t.ndim, axes, keepdims),
            lower,
            kwargs=dict.fromkeys(kwargs),
            may_raise=True,
        )

    return rule


def _flag_value(value: bool) -> Callable[[LowBuilder, dict], list[ir.Value]]:
    return lambda b, given: [ir.Const(value, type=T.BOOL)]


def _ddof_and(root: bool) -> Callable[[LowBuilder, dict], list[ir.Value]]:
    def extra(b: LowBuilder, given: dict) -> list[ir.Value]:
        ddof = given.get("ddof")
        return [
            i64(0) if ddof is None else b.cast(ddof, T.I64),
            ir.Const(root, type=T.BOOL),
        ]

    return extra


def _same(d: T.Scalar) -> T.Scalar:
    return d


def _plain(name: str) -> Callable[[list[Operand], dict[str, Operand]], Resolved | None]:
    """For arrays that cannot hold NaN, NumPy's nan-functions are the plain ones."""
    from jitcore.lib import reductions

    plain = reductions.REDUCTIONS[name]
    return reductions._reduction(name, plain[0], plain[1])


def _nan(
    name: str, rule: Callable[[list[Operand], dict[str, Operand]], Resolved | None]
) -> Callable[[list[Operand], dict[str, Operand]], Resolved | None]:
    plain = _plain(name)

    def dispatch(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        t = _array(args, f"np.nan{name}")
        return rule(args, kwargs) if t.dtype.is_float else plain(args, kwargs)

    return dispatch


_SUM_PARAMS = ["axis", "dtype", "out", "keepdims"]
_VAR_PARAMS = ["axis", "dtype", "out", "ddof", "keepdims"]
_MIN_PARAMS = ["axis", "out", "keepdims"]
_NO_BOOL = lambda d: T.I64 if d.is_bool else sum_dtype(d)  # noqa: E731

_NAN_RULES = {
    "sum": _row_reduction(
        "np.nansum", _SUM_PARAMS, "nansum_rows", _same, _same, _flag_value(False), [T.BOOL]
    ),
    "mean": _row_reduction(
        "np.nanmean", _SUM_PARAMS, "nansum_rows", _same, _same, _flag_value(True), [T.BOOL]
    ),
    "var": _row_reduction(
        "np.nanvar", _VAR_PARAMS, "nanvar_rows", _same, _same, _ddof_and(False), [T.I64, T.BOOL]
    ),
    "std": _row_reduction(
        "np.nanstd", _VAR_PARAMS, "nanvar_rows", _same, _same, _ddof_and(True), [T.I64, T.BOOL]
    ),
    "min": _row_reduction(
        "np.nanmin", _MIN_PARAMS, "nanminmax_rows", _same, _same, _flag_value(False), [T.BOOL]
    ),
    "max": _row_reduction(
        "np.nanmax", _MIN_PARAMS, "nanminmax_rows", _same, _same, _flag_value(True), [T.BOOL]
    ),
    "argmin": _row_reduction(
        "np.nanargmin",
        _MIN_PARAMS,
        "nanarg_rows",
        _same,
        lambda d: T.I64,
        _flag_value(False),
        [T.BOOL],
        single_axis=True,
    ),
    "argmax": _row_reduction(
        "np.nanargmax",
        _MIN_PARAMS,
        "nanarg_rows",
        _same,
        lambda d: T.I64,
        _flag_value(True),
        [T.BOOL],
        single_axis=True,
    ),
}

_NAN_NOTES = {
    "mean": "an all-NaN lane gives nan without NumPy's warning",
    "var": "an all-NaN lane gives nan without NumPy's warning",
    "std": "an all-NaN lane gives nan without NumPy's warning",
    "min": "an all-NaN lane gives nan without NumPy's warning",
    "max": "an all-NaN lane gives nan without NumPy's warning",
}

for _name, _rule in _NAN_RULES.items():
    _extra = ", ddof?: int" if _name in ("var", "std") else ""
    register_function(
        getattr(np, f"nan{_name}"),
        params=f"a: array, axis?: axis | tuple | None, *, keepdims?: bool{_extra}",
        notes=_NAN_NOTES.get(_name, ""),
    )(_nan(_name, _rule))


def _ptp_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    t = _array(args, "np.ptp")
    if t.dtype.is_bool:
        raise TypingError(
            "np.ptp of a boolean array: NumPy's subtract does not take booleans",
            hint="convert with .astype(np.int64) first",
        )
    return _row_reduction("np.ptp", _MIN_PARAMS, "ptp_rows", _same, _same, lambda b, g: [], [])(
        args, kwargs
    )


register_function(np.ptp, params="a: array, axis?: axis | tuple | None, *, keepdims?: bool")(
    _ptp_rule
)

register_function(
    np.count_nonzero, params="a: array, axis?: axis | tuple | None, *, keepdims?: bool"
)(
    _row_reduction(
        "np.count_nonzero",
        ["axis", "keepdims"],
        "count_rows",
        _same,
        lambda d: T.I64,
        lambda b, g: [],
        [],
    )
)


# --- scans and diff along an axis ------------------------------------------------------------


def _scan(name: str):  # noqa: ANN202
    what = f"np.{name}"

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        t = _array(args, what)
        ops = take_args(args, kwargs, ["axis", "dtype", "out"], what)
        for unsupported in ("dtype", "out"):
            if not is_none(ops.get(unsupported)):
                raise UnsupportedError(f"{what}: {unsupported}= is not supported")
        axis_op = ops["axis"]
        if axis_op is not None and isinstance(axis_op.const, tuple):
            raise TypingError(f"{what}: axis must be an integer, not a tuple")
        axes = axes_arg(axis_op, t.ndim, what)
        acc = sum_dtype(t.dtype)
        k = _kernel("scan_rows", [T.Array(acc, 2, "C"), T.Array(acc, 2, "C"), T.BOOL])
        axis = None if axes is None else axes[0]
        out_t = (
            T.Array(acc, 1, "C")
            if axis is None
            else T.Array(acc, t.ndim, "C" if axis == t.ndim - 1 else "A")
        )

        multiply = ir.Const(name == "cumprod", type=T.BOOL)
        if t.ndim == 1:  # one lane, scanned where it lies whatever its strides: a copy into
            # C order first ran `np.cumsum(x[::-1])` at 0.22x Numba
            flat_kernel = npkernels.cumprod_flat if name == "cumprod" else npkernels.cumsum_flat
            vk = call_kernel(flat_kernel, [T.Array(t.dtype, 1, t.layout), out_t])

            def lower_vector(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
                out = L.allocate(b, acc, [L.shape_of(b, v[0], 0)], "C")
                vk.lower(b, [v[0], out], {})  # type: ignore[misc]
                return out

            return Resolved((None,) * len(args), out_t, lower_vector, kwargs=dict.fromkeys(kwargs))

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            r = rows(b, v[0], axes, acc)
            out = L.allocate(b, acc, [r.count, r.length], "C")
            k.lower(b, [r.rows, out, multiply], {})  # type: ignore[misc]
            return _lanes_back(b, out, r, t.ndim, axis)

        return Resolved((None,) * len(args), out_t, lower, kwargs=dict.fromkeys(kwargs))

    return rule


def _lanes_back(
    b: LowBuilder,
    out: ir.Value,
    r: Rows,
    ndim: int,
    axis: int | None,
    length=None,  # noqa: ANN001
) -> ir.Value:
    if axis is None:
        t = out.type
        assert isinstance(t, T.Array)
        n = r.length if length is None else length
        return L.make_view(
            b, out, T.Array(t.dtype, 1, "C"), L.data_of(b, out), [n], [i64(t.dtype.dtype.itemsize)]
        )
    return unrows_lanes(b, out, r, ndim, axis, length)


for _name in ("cumsum", "cumprod"):
    register_function(getattr(np, _name), params="a: array, axis?: axis | None")(_scan(_name))
    register_method(T.Array, _name, params="axis?: axis | None")(_scan(_name))


@register_function(np.diff, params="a: array, n?: int, axis?: axis")
def _diff(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    t = _array(args, "np.diff")
    ops = take_args(args, kwargs, ["n", "axis", "prepend", "append"], "np.diff")
    for unsupported in ("prepend", "append"):
        if ops[unsupported] is not None:
            raise UnsupportedError(f"np.diff: {unsupported}= is not supported")
    n_op = ops["n"]
    if n_op is not None and not (isinstance(n_op.type, T.Scalar) and n_op.type.kind in "iub"):
        raise TypingError("np.diff: n must be an integer")
    if t.ndim == 0:  # NumPy looks at n before the axis
        return Resolved(
            (None,) * len(args), t, _diff_0d(args), kwargs=dict.fromkeys(kwargs), may_raise=True
        )
    axis_op = ops["axis"]
    axes = axes_arg(axis_op, t.ndim, "np.diff") if axis_op is not None else [t.ndim - 1]
    if axes is None or len(axes) != 1:
        raise TypingError("np.diff: axis must be an integer")
    axis = axes[0]
    k = _kernel(
        "diff_rows_bool" if t.dtype.is_bool else "diff_rows",
        [T.Array(t.dtype, 2, "C"), T.Array(t.dtype, 2, "C"), T.I64, T.Array(t.dtype, 1, "C")],
    )

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        n_v = _operand(v, kw, args, 1, "n")
        n = i64(1) if n_v is None else b.cast(n_v, T.I64)
        b.raise_if(b.cmp("lt", n, i64(0)), ValueError, "order must be non-negative")
        r = rows(b, v[0], axes, t.dtype)
        left = b.binop("sub", r.length, n)
        m = b.select(b.cmp("lt", left, i64(0)), i64(0), left)
        out = L.allocate(b, t.dtype, [r.count, m], "C")
        work = L.allocate(b, t.dtype, [r.length], "C")
        k.lower(b, [r.rows, out, n, work], {})  # type: ignore[misc]
        return unrows_lanes(b, out, r, t.ndim, axis, m)

    out_t = T.Array(t.dtype, t.ndim, "C" if axis == t.ndim - 1 else "A")
    return Resolved(
        (None,) * len(args), out_t, lower, kwargs=dict.fromkeys(kwargs), may_raise=True
    )


def _diff_0d(args: list[Operand]):  # noqa: ANN202
    """np.diff of a 0-d array: the array itself for n=0 (NumPy returns `a` before looking at
    it), else NumPy's ValueError for a negative order or for the missing dimension."""

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        n_v = _operand(v, kw, args, 1, "n")
        n = i64(1) if n_v is None else b.cast(n_v, T.I64)
        b.raise_if(b.cmp("lt", n, i64(0)), ValueError, "order must be non-negative")
        b.raise_if(
            b.cmp("gt", n, i64(0)),
            ValueError,
            "diff requires input that is at least one dimensional",
        )
        return v[0]

    return lower


# --- bincount, digitize, histogram -------------------------------------------------------------


def _int_vector(args: list[Operand], what: str) -> T.Array:
    t = _array(args, what)
    if t.ndim != 1:
        raise TypingError(f"{what}: the array must be 1-D (NumPy: object too deep)")
    return t


@register_function(
    np.bincount,
    params="x: intarray, weights?: array | None, minlength?: int",
    notes="with weights the result is float64 even for an empty x (NumPy gives int64 then)",
)
def _bincount(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    t = _int_vector(args, "np.bincount")
    ops = take_args(args, kwargs, ["weights", "minlength"], "np.bincount")
    if t.dtype.kind not in "iub":
        raise TypingError(
            f"np.bincount: cannot cast array data from {t.dtype} to int64 according to the "
            "rule 'safe'"
        )
    if t.dtype == T.U64:
        raise TypingError("np.bincount: cannot cast uint64 to int64 safely")
    weighted = not is_none(ops["weights"])
    weights = ops["weights"].type if weighted and ops["weights"] is not None else None
    w_dtype = weights.dtype if isinstance(weights, T.Array) else weights
    if isinstance(w_dtype, T.Scalar) and w_dtype.is_complex:  # NumPy casts weights 'safe'ly
        raise TypingError(
            f"np.bincount: cannot cast array data from {w_dtype.dtype} to float64 according "
            "to the rule 'safe'"
        )
    ml = ops["minlength"]
    if (
        ml is not None
        and not is_none(ml)
        and not (isinstance(ml.type, T.Scalar) and ml.type.kind in "iu")
    ):
        raise TypingError("np.bincount: minlength must be an integer")
    x_t = T.Array(T.I64, 1, "C")
    w_t = T.Array(T.F64, 1, "C")
    k = (
        _kernel("bincount_weights", [x_t, w_t, T.I64])
        if weighted
        else _kernel("bincount_k", [x_t, T.I64])
    )

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        x = flat1(b, v[0], T.I64)
        ml_v = _operand(v, kw, args, 2, "minlength")
        minlength = i64(0) if ml_v is None or is_none_value(ml_v) else b.cast(ml_v, T.I64)
        if weighted:
            w = flat1(b, _operand(v, kw, args, 1, "weights"), T.F64)
            return k.lower(b, [x, w, minlength], {})  # type: ignore[misc]
        return k.lower(b, [x, minlength], {})  # type: ignore[misc]

    return Resolved((None,) * len(args), k.ret, lower, kwargs=dict.fromkeys(kwargs))


def is_none_value(v: ir.Value) -> bool:
    return isinstance(v.type, T.NoneType)


@register_function(np.digitize, params="x: real | array, bins: array, right?: bool")
def _digitize(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    ops = take_args(args, kwargs, ["bins", "right"], "np.digitize")
    bins = ops["bins"]
    if bins is None or not isinstance(bins.type, T.Array) or bins.type.ndim != 1:
        raise TypingError("np.digitize: bins must be a 1-D array")
    x = args[0].type
    x_dtype = x.dtype if isinstance(x, T.Array) else x
    assert isinstance(x_dtype, T.Scalar)
    if x_dtype.is_complex or bins.type.dtype.is_complex:
        raise TypingError("np.digitize: x may not be complex")
    dtype = T.from_dtype(np.result_type(x_dtype.dtype, bins.type.dtype.dtype))
    vec = T.Array(dtype, 1, "C")
    k = _kernel("digitize_k", [vec, vec, T.Array(T.I64, 1, "C"), T.BOOL])
    x_ndim = x.ndim if isinstance(x, T.Array) else 0  # a 0-d x too gives a NumPy scalar
    result: T.Type = T.Array(T.I64, x_ndim, "C") if x_ndim else T.I64

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        right_v = _operand(v, kw, args, 2, "right")
        right = ir.Const(False, type=T.BOOL) if right_v is None else b.cast(right_v, T.BOOL)
        edges = flat1(b, _operand(v, kw, args, 1, "bins"), dtype)
        xv = v[0]
        if isinstance(xv.type, T.Scalar):
            one = L.allocate(b, dtype, [i64(1)], "C")
            L.store(b, L.data_of(b, one), b.cast(xv, dtype))
            out = L.allocate(b, T.I64, [i64(1)], "C")
            k.lower(b, [one, edges, out, right], {})  # type: ignore[misc]
            return L.load(b, L.data_of(b, out), T.I64)
        shapes = L.shapes_of(b, xv)
        out = L.allocate(b, T.I64, shapes, "C")
        out1 = L.make_view(
            b, out, T.Array(T.I64, 1, "C"), L.data_of(b, out), [L.size_of(b, shapes)], [i64(8)]
        )
        k.lower(b, [flat1(b, xv, dtype), edges, out1, right], {})  # type: ignore[misc]
        return out if x_ndim else L.load(b, L.data_of(b, out), T.I64)

    return Resolved((None,) * len(args), result, lower, kwargs=dict.fromkeys(kwargs))


@register_function(np.histogram, params="a: array, bins?: int | array, range?: tuple | None")
def _histogram(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    t = _array(args, "np.histogram")
    ops = take_args(args, kwargs, ["bins", "range", "density", "weights"], "np.histogram")
    for unsupported in ("density", "weights"):
        op = ops[unsupported]
        if op is not None and not is_none(op) and not (op.is_const and op.const is False):
            raise UnsupportedError(f"np.histogram: {unsupported}= is not supported")
    bins = ops["bins"]
    rng = ops["range"]
    edges_dtype = t.dtype if t.dtype.is_float else T.F64
    vec = T.Array(T.F64, 1, "C")
    if bins is not None and isinstance(bins.type, T.Array):
        if not is_none(rng):
            raise UnsupportedError("np.histogram: range= with explicit bin edges is not supported")
        dtype = T.from_dtype(np.result_type(t.dtype.dtype, bins.type.dtype.dtype))
        k = _kernel("histogram_edges", [T.Array(dtype, 1, "C"), T.Array(dtype, 1, "C")])

        def lower_edges(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            edges_v = _operand(v, kw, args, 1, "bins")
            counts = k.lower(b, [flat1(b, v[0], dtype), flat1(b, edges_v, dtype)], {})  # type: ignore[misc]
            return b.make_tuple([counts, edges_v])

        result = T.Tuple((T.Array(T.I64, 1, "C"), bins.type))
        return Resolved((None,) * len(args), result, lower_edges, kwargs=dict.fromkeys(kwargs))
    if bins is not None and not (isinstance(bins.type, T.Scalar) and bins.type.kind in "iu"):
        raise TypingError("np.histogram: bins must be an integer or an array of edges")
    has_range = rng is not None and not is_none(rng)
    if has_range:
        rt = rng.type  # type: ignore[union-attr]
        if not (isinstance(rt, T.Tuple) and len(rt.items) == 2):
            raise TypingError("np.histogram: range must be a tuple (min, max)")
    k = _kernel("histogram_uniform", [vec, T.I64, T.BOOL, T.F64, T.F64])
    parts = k.ret
    assert isinstance(parts, T.Tuple)
    out_edges = T.Array(edges_dtype, 1, "C")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        bins_v = _operand(v, kw, args, 1, "bins")
        n = i64(10) if bins_v is None else b.cast(bins_v, T.I64)
        lo: ir.Value = ir.Const(0.0, type=T.F64)
        hi: ir.Value = ir.Const(0.0, type=T.F64)
        if has_range:
            rv = _operand(v, kw, args, 2, "range")
            lo = b.cast(b.extract(rv, 0), T.F64)
            hi = b.cast(b.extract(rv, 1), T.F64)
        res = k.lower(  # type: ignore[misc]
            b, [flat1(b, v[0], T.F64), n, ir.Const(has_range, type=T.BOOL), lo, hi], {}
        )
        counts, edges = b.extract(res, 0), b.extract(res, 1)
        if edges_dtype != T.F64:
            from jitcore.lib.arrays import copy_as

            edges = copy_as(b, edges, edges_dtype)
        return b.make_tuple([counts, edges])

    return Resolved(
        (None,) * len(args),
        T.Tuple((parts.items[0], out_edges)),
        lower,
        kwargs=dict.fromkeys(kwargs),
    )


# --- interp, average ------------------------------------------------------------------------


@register_function(
    np.interp, params="x: real | array, xp: array, fp: array, left?: float, right?: float"
)
def _interp(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    ops = take_args(args, kwargs, ["xp", "fp", "left", "right", "period"], "np.interp")
    if ops["period"] is not None and not is_none(ops["period"]):
        raise UnsupportedError("np.interp: period= is not supported")
    for name in ("xp", "fp"):
        op = ops[name]
        if op is None or not isinstance(op.type, T.Array) or op.type.ndim != 1:
            raise TypingError(f"np.interp: {name} must be a 1-D array")
        if op.type.dtype.is_complex:
            raise UnsupportedError("np.interp of complex values is not supported")
    x = args[0].type
    if isinstance(x, T.Array | T.Scalar) and (x.dtype if isinstance(x, T.Array) else x).is_complex:  # type: ignore[union-attr]
        raise TypingError("np.interp: x may not be complex")
    vec = T.Array(T.F64, 1, "C")
    k = _kernel("interp_k", [vec, vec, vec, vec, T.F64, T.F64, T.BOOL, T.BOOL])
    x_ndim = x.ndim if isinstance(x, T.Array) else 0  # a 0-d x too gives a NumPy scalar
    result: T.Type = T.Array(T.F64, x_ndim, "C") if x_ndim else T.F64
    given = {n: not is_none(ops[n]) for n in ("left", "right")}
    for n in ("left", "right"):
        end = ops[n]
        if given[n] and not _real_or_0d(end.type):  # type: ignore[union-attr]
            raise TypingError(f"np.interp: {n} must be a real number")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        xp = flat1(b, _operand(v, kw, args, 1, "xp"), T.F64)
        fp = flat1(b, _operand(v, kw, args, 2, "fp"), T.F64)
        ends = []
        for i, n in ((3, "left"), (4, "right")):
            value = _operand(v, kw, args, i, n)
            if given[n] and isinstance(value.type, T.Array):  # a 0-d array: its item
                value = L.load(b, L.data_of(b, value), value.type.dtype)
            ends.append(b.cast(value, T.F64) if given[n] else ir.Const(0.0, type=T.F64))
        flags = [ir.Const(given["left"], type=T.BOOL), ir.Const(given["right"], type=T.BOOL)]
        xv = v[0]
        if isinstance(xv.type, T.Scalar):
            one = L.allocate(b, T.F64, [i64(1)], "C")
            L.store(b, L.data_of(b, one), b.cast(xv, T.F64))
            out = L.allocate(b, T.F64, [i64(1)], "C")
            k.lower(b, [one, xp, fp, out, *ends, *flags], {})  # type: ignore[misc]
            return L.load(b, L.data_of(b, out), T.F64)
        shapes = L.shapes_of(b, xv)
        out = L.allocate(b, T.F64, shapes, "C")
        out1 = L.make_view(b, out, vec, L.data_of(b, out), [L.size_of(b, shapes)], [i64(8)])
        k.lower(b, [flat1(b, xv, T.F64), xp, fp, out1, *ends, *flags], {})  # type: ignore[misc]
        return out if x_ndim else L.load(b, L.data_of(b, out), T.F64)

    return Resolved((None,) * len(args), result, lower, kwargs=dict.fromkeys(kwargs))


def _real_or_0d(t: T.Type) -> bool:
    """A real number, or a 0-d array of them (which NumPy takes as its item)."""
    dtype = t.dtype if isinstance(t, T.Array) and t.ndim == 0 else t
    return isinstance(dtype, T.Scalar) and not dtype.is_complex


@register_function(
    np.average, params="a: array, axis?: axis | tuple | None, weights?: array | None"
)
def _average(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    t = _array(args, "np.average")
    ops = take_args(args, kwargs, ["axis", "weights", "returned", "keepdims"], "np.average")
    if ops["returned"] is not None and const_flag(ops["returned"], "returned"):
        raise UnsupportedError("np.average(returned=True) is not supported")
    from jitcore.lib import reductions

    if is_none(ops["weights"]):
        mean_args = [args[0]] + ([ops["axis"]] if ops["axis"] is not None else [])
        mean_kwargs = {"keepdims": ops["keepdims"]} if ops["keepdims"] is not None else {}
        mean = reductions._reduction("mean", "mean_flat", "mean")(mean_args, mean_kwargs)  # type: ignore[arg-type]
        assert mean is not None

        def lower_mean(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            axis_v = _operand(v, kw, args, 1, "axis")
            keep = kw.get("keepdims")
            mv = [v[0]] + ([axis_v] if ops["axis"] is not None else [])
            return mean.lower(b, mv, {"keepdims": keep} if keep is not None else {})  # type: ignore[misc]

        return Resolved((None,) * len(args), mean.ret, lower_mean, kwargs=dict.fromkeys(kwargs))
    w = ops["weights"]
    assert w is not None
    wt = w.type
    if not isinstance(wt, T.Array) or wt.ndim != t.ndim:
        raise UnsupportedError(
            "np.average: weights must be an array of the same shape as a",
            hint="broadcast the weights first",
        )
    axes = axes_arg(ops["axis"], t.ndim, "np.average")
    keepdims = const_flag(ops["keepdims"], "keepdims")
    if t.dtype.kind in "iub":
        dtype = T.from_dtype(np.result_type(t.dtype.dtype, wt.dtype.dtype, np.float64))
    else:
        dtype = T.from_dtype(np.result_type(t.dtype.dtype, wt.dtype.dtype))
    dtype = mean_dtype(dtype)
    k = _kernel(
        "average_rows",
        [T.Array(dtype, 2, "C"), T.Array(dtype, 2, "C"), T.Array(dtype, 1, "C")],
    )

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        wv = _operand(v, kw, args, 2, "weights")
        shapes_a, shapes_w = L.shapes_of(b, v[0]), L.shapes_of(b, wv)
        for sa, sw in zip(shapes_a, shapes_w):
            b.raise_if(
                b.cmp("ne", sa, sw),
                ValueError,
                "Axis must be specified when shapes of a and weights differ.",
            )
        ra = rows(b, v[0], axes, dtype)
        rw = rows(b, wv, axes, dtype)
        out = L.allocate(b, dtype, [ra.count], "C")
        k.lower(b, [ra.rows, rw.rows, out], {})  # type: ignore[misc]
        return unrows_reduced(b, out, ra, t.ndim, axes, keepdims)

    return Resolved(
        (None,) * len(args),
        reduced_type(dtype, t.ndim, axes, keepdims),
        lower,
        kwargs=dict.fromkeys(kwargs),
        may_raise=True,
    )


# --- isclose, allclose, array_equal ---------------------------------------------------------


def _close(kernel: str, what: str):  # noqa: ANN202
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if len(args) < 2:
            raise TypingError(f"{what} takes two arrays or numbers")
        ops = take_args(args[1:], kwargs, ["rtol", "atol", "equal_nan"], what)
        types = [a.type for a in args[:2]]
        for ty in types:
            if not isinstance(ty, T.Array | T.Scalar):
                raise TypingError(f"{what} takes arrays or numbers, not {ty}")
        if kernel == "allclose_k" and not any(isinstance(ty, T.Array) for ty in types):
            raise UnsupportedError(
                f"{what} of two numbers is not supported", hint="use math.isclose, or pass arrays"
            )
        k = _kernel(kernel, [*types, T.F64, T.F64, T.BOOL])

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            rtol = _operand(v, kw, args, 2, "rtol")
            atol = _operand(v, kw, args, 3, "atol")
            eq = _operand(v, kw, args, 4, "equal_nan")
            return k.lower(  # type: ignore[misc]
                b,
                [
                    v[0],
                    v[1],
                    ir.Const(1e-05, type=T.F64) if rtol is None else b.cast(rtol, T.F64),
                    ir.Const(1e-08, type=T.F64) if atol is None else b.cast(atol, T.F64),
                    ir.Const(False, type=T.BOOL) if eq is None else b.cast(eq, T.BOOL),
                ],
                {},
            )

        ret = k.ret
        if kernel == "isclose_k" and isinstance(ret, T.Array):
            ret = T.Array(T.BOOL, ret.ndim, "C")
        _ = ops
        return Resolved((None,) * len(args), ret, lower, kwargs=dict.fromkeys(kwargs))

    return rule


_CLOSE = "a: number | array, b: number | array, rtol?: float, atol?: float, equal_nan?: bool"
register_function(np.isclose, params=_CLOSE)(_close("isclose_k", "np.isclose"))
register_function(
    np.allclose,
    params="a: array, b: number | array, rtol?: float, atol?: float, equal_nan?: bool",
)(_close("allclose_k", "np.allclose"))


@register_function(np.array_equal, params="a1: array, a2: array, equal_nan?: bool")
def _array_equal(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) < 2 or not all(isinstance(a.type, T.Array) for a in args[:2]):
        raise TypingError("np.array_equal takes two arrays")
    ops = take_args(args[1:], kwargs, ["equal_nan"], "np.array_equal")
    ta, tb = args[0].type, args[1].type
    assert isinstance(ta, T.Array) and isinstance(tb, T.Array)
    if ta.ndim != tb.ndim:
        return Resolved(
            (None,) * len(args),
            T.BOOL,
            lambda b, v, kw: ir.Const(False, type=T.BOOL),
            kwargs=dict.fromkeys(kwargs),
        )
    equal_nan = const_flag(ops["equal_nan"], "equal_nan") if ops["equal_nan"] else False
    k = _kernel("array_equal_k", [ta, tb, T.BOOL])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        return k.lower(b, [v[0], v[1], ir.Const(equal_nan, type=T.BOOL)], {})  # type: ignore[misc]

    return Resolved((None,) * len(args), T.BOOL, lower, kwargs=dict.fromkeys(kwargs))


# --- trace, outer, cross, kron, convolve, correlate -------------------------------------------


def _product_dtype(a: T.Scalar, b: T.Scalar) -> T.Scalar:
    return T.from_dtype(np.result_type(a.dtype, b.dtype))


@register_function(np.trace, params="a: array, offset?: int")
def _trace(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    t = _array(args, "np.trace")
    ops = take_args(args, kwargs, ["offset", "axis1", "axis2", "dtype", "out"], "np.trace")
    if t.ndim > 2:
        raise UnsupportedError("np.trace is supported for 2-D arrays")
    for unsupported in ("axis1", "axis2", "dtype", "out"):
        if ops[unsupported] is not None:
            raise UnsupportedError(f"np.trace: {unsupported}= is not supported")
    acc = sum_dtype(t.dtype)
    k = _kernel("trace_k", [T.Array(t.dtype, 2, "A"), T.I64, T.Array(acc, 1, "C")])
    if t.ndim < 2:
        k = Resolved((), acc)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        off = _operand(v, kw, args, 1, "offset")
        a = v[0]
        if t.ndim < 2:  # NumPy's error, raised when the call runs
            b.raise_if(
                ir.Const(True, type=T.BOOL),
                ValueError,
                "diag requires an array of at least two dimensions",
            )
            return ir.Const(0, type=acc) if acc.kind in "iub" else ir.Const(0.0, type=acc)
        if t.layout != "A":
            a = L.make_view(
                b,
                a,
                T.Array(t.dtype, 2, "A"),
                L.data_of(b, a),
                L.shapes_of(b, a),
                L.strides_of(b, a),
            )
        proto = L.allocate(b, acc, [i64(0)], "C")
        return k.lower(b, [a, i64(0) if off is None else b.cast(off, T.I64), proto], {})  # type: ignore[misc]

    return Resolved((None,) * len(args), acc, lower, kwargs=dict.fromkeys(kwargs))


@register_function(np.outer, params="a: array, b: array")
def _outer(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or len(args) != 2:
        return None
    ta, tb = _array(args, "np.outer"), _array(args, "np.outer", 1)
    dtype = _product_dtype(ta.dtype, tb.dtype)
    if dtype.is_bool:
        dtype = T.BOOL
    vec = T.Array(dtype, 1, "C")
    k = _kernel("outer_k", [vec, vec, T.Array(dtype, 2, "C")])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        x, y = flat1(b, v[0], dtype), flat1(b, v[1], dtype)
        out = L.allocate(b, dtype, [L.shape_of(b, x, 0), L.shape_of(b, y, 0)], "C")
        return k.lower(b, [x, y, out], {})  # type: ignore[misc]

    return Resolved((None, None), T.Array(dtype, 2, "C"), lower)


@register_function(np.kron, params="a: array, b: array")
def _kron(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or len(args) != 2:
        return None
    ta, tb = _array(args, "np.kron"), _array(args, "np.kron", 1)
    if ta.ndim > 2 or tb.ndim > 2:
        raise UnsupportedError("np.kron is supported for 1-D and 2-D arrays")
    dtype = _product_dtype(ta.dtype, tb.dtype)
    nd = max(ta.ndim, tb.ndim)  # (of two 0-d arrays: a NumPy scalar, as NumPy's)
    m2 = T.Array(dtype, 2, "C")
    k = _kernel("kron_k", [m2, m2, m2])

    def as2(b: LowBuilder, a: ir.Value) -> tuple[ir.Value, ir.Value, ir.Value]:
        t = a.type
        assert isinstance(t, T.Array)
        r = rows(b, a, None, dtype)
        if t.ndim == 2:
            n0, n1 = L.shape_of(b, a, 0), L.shape_of(b, a, 1)
        elif t.ndim == 1:
            n0, n1 = i64(1), L.shape_of(b, a, 0)
        else:  # a 0-d array: a 1x1 matrix
            n0, n1 = i64(1), i64(1)
        size = i64(dtype.dtype.itemsize)
        view = L.make_view(
            b, r.rows, m2, L.data_of(b, r.rows), [n0, n1], [b.binop("mul", n1, size), size]
        )
        return view, n0, n1

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        x, xr, xc = as2(b, v[0])
        y, yr, yc = as2(b, v[1])
        out = L.allocate(b, dtype, [b.binop("mul", xr, yr), b.binop("mul", xc, yc)], "C")
        k.lower(b, [x, y, out], {})  # type: ignore[misc]
        if nd == 2:
            return out
        if nd == 0:
            return L.load(b, L.data_of(b, out), dtype)
        n = b.binop("mul", xc, yc)
        return L.make_view(
            b, out, T.Array(dtype, 1, "C"), L.data_of(b, out), [n], [i64(dtype.dtype.itemsize)]
        )

    return Resolved((None, None), T.Array(dtype, nd, "C") if nd else dtype, lower)


@register_function(
    np.cross,
    params="a: array, b: array",
    notes="1-D 3-vectors, or a 2-vector with a 3-vector; two 2-vectors raise ValueError "
    "(NumPy returns a 0-d array)",
)
def _cross(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or len(args) != 2:
        return None
    ta, tb = _array(args, "np.cross"), _array(args, "np.cross", 1)
    if ta.ndim != 1 or tb.ndim != 1:
        raise UnsupportedError("np.cross is supported for single vectors (1-D arrays)")
    dtype = _product_dtype(ta.dtype, tb.dtype)
    if dtype.is_bool:
        raise TypingError("np.cross of booleans: NumPy's subtract does not take booleans")
    vec = T.Array(dtype, 1, "C")
    k = _kernel("cross_k", [vec, vec, vec])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        x, y = flat1(b, v[0], dtype), flat1(b, v[1], dtype)
        out = L.allocate(b, dtype, [i64(3)], "C")
        return k.lower(b, [x, y, out], {})  # type: ignore[misc]

    return Resolved((None, None), vec, lower, may_raise=True)


_MODES = {"full": 0, "same": 1, "valid": 2}


def _convolution(name: str, default_mode: str):  # noqa: ANN202
    what = f"np.{name}"

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        ta, tv = _array(args, what), _array(args, what, 1)
        if ta.ndim != 1 or tv.ndim != 1:
            raise TypingError(f"{what}: both arrays must be 1-D")
        ops = take_args(args[1:], kwargs, ["mode"], what)
        mode_op = ops["mode"]
        mode = default_mode if mode_op is None else mode_op.const
        if mode not in _MODES:
            raise TypingError(f"{what}: mode must be 'full', 'same' or 'valid', not {mode!r}")
        dtype = _product_dtype(ta.dtype, tv.dtype)
        vec = T.Array(dtype, 1, "C")
        k = _kernel("correlate_mode", [vec, vec, vec, T.I64, T.BOOL])
        size = _kernel("correlate_length", [T.I64, T.I64, T.I64])

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            a, w = flat1(b, v[0], dtype), flat1(b, v[1], dtype)
            n, m = L.shape_of(b, a, 0), L.shape_of(b, w, 0)
            length = size.lower(b, [n, m, i64(_MODES[mode])], {})  # type: ignore[misc]
            # an empty operand raises in the kernel: allocate nothing for it
            empty = b.or_(b.cmp("eq", n, i64(0)), b.cmp("eq", m, i64(0)))
            out = L.allocate(b, dtype, [b.select(empty, i64(0), length)], "C")
            flags = [i64(_MODES[mode]), ir.Const(name == "convolve", type=T.BOOL)]
            return k.lower(b, [a, w, out, *flags], {})  # type: ignore[misc]

        return Resolved(
            (None,) * len(args), vec, lower, kwargs=dict.fromkeys(kwargs), may_raise=True
        )

    return rule


register_function(np.correlate, params="a: array, v: array, mode?: str")(
    _convolution("correlate", "valid")
)
register_function(np.convolve, params="a: array, v: array, mode?: str")(
    _convolution("convolve", "full")
)
