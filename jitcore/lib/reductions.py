"""Reductions, scans and products of arrays: typing rules that call the kernels in `npkernels`.

Each rule decides NumPy's result dtype, prepares a contiguous input of the accumulation dtype
(a flat view when the array already is one, a converting copy otherwise) and calls the compiled
kernel directly. `axis=` is supported for 2-D arrays (0, 1, -1, -2).
"""

from __future__ import annotations

import numpy as np

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.lib import arrays as A
from jitcore.lib import axisreduce, npkernels
from jitcore.lib.loops import elementwise
from jitcore.lib.npparallel import PARALLEL_KERNELS
from jitcore.lib.nprows import (
    axes_arg,
    const_flag,
    is_none,
    reduced_type,
    rows,
    take_args,
    unrows_reduced,
)
from jitcore.lib.outlining import parallel_symbol
from jitcore.lib.registry import (
    Operand,
    Resolved,
    call_kernel,
    register_function,
    register_method,
)


def _call(kernel_name: str, arg_types: list[T.Type]) -> Resolved:
    """Type a call of a library kernel (compiling it for these types)."""
    return call_kernel(getattr(npkernels, kernel_name), arg_types)


def sum_dtype(t: T.Scalar) -> T.Scalar:
    """NumPy's accumulator for add/multiply reductions: ints widen to 64 bits."""
    if t.is_bool or (t.is_signed and t.bits < 64):
        return T.I64
    if t.kind == "u" and t.bits < 64:
        return T.U64
    return t


def mean_dtype(t: T.Scalar) -> T.Scalar:
    return t if t.is_float or t.is_complex else T.F64


def flat(b: LowBuilder, a: ir.Value, dtype: T.Scalar) -> ir.Value:
    """A C-contiguous 1-D array of `dtype` with a's elements in C order (a view if possible)."""
    t = a.type
    assert isinstance(t, T.Array)
    source = a
    if not (t.layout == "C" and t.dtype == dtype):
        source = A.allocate(b, dtype, A.shapes_of(b, a), "C")
        elementwise(b, [a], dtype, lambda bb, xs: xs[0], out=source)
    n = A.size_of(b, A.shapes_of(b, source))
    out_t = T.Array(dtype, 1, "C")
    return A.make_view(b, source, out_t, A.data_of(b, source), [n], [i64(dtype.dtype.itemsize)])


def _array_arg(args: list[Operand], what: str) -> T.Array:
    if not args or not isinstance(args[0].type, T.Array):
        raise TypingError(f"{what} needs an array argument")
    return args[0].type


_ROW_KERNELS = {
    "sum": "sum_rows",
    "prod": "prod_rows",
    "min": "min_rows",
    "max": "max_rows",
    "amin": "min_rows",
    "amax": "max_rows",
    "any": "any_rows",
    "all": "all_rows",
    "mean": "mean_rows",
}

# The parameters after the array, by reduction (NumPy's order).
_PARAMS = {
    "sum": ["axis", "dtype", "out", "keepdims"],
    "prod": ["axis", "dtype", "out", "keepdims"],
    "mean": ["axis", "dtype", "out", "keepdims"],
    "var": ["axis", "dtype", "out", "ddof", "keepdims"],
    "std": ["axis", "dtype", "out", "ddof", "keepdims"],
    "argmin": ["axis", "out", "keepdims"],
    "argmax": ["axis", "out", "keepdims"],
}
_DEFAULT_PARAMS = ["axis", "out", "keepdims"]


def _reduction(name: str, kernel: str, result: str):  # noqa: ANN202
    """A reduction: the whole-array form calls `kernel` on a flat view; `axis=` (an int or a
    tuple, any ndim), `keepdims=` and `ddof=` reduce rows of the array brought to 2-D
    (`nprows`)."""

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        t = _array_arg(args, f"np.{name}")
        ops = take_args(args, kwargs, _PARAMS.get(name, _DEFAULT_PARAMS), f"np.{name}")
        for unsupported in ("dtype", "out"):
            if not is_none(ops.get(unsupported)):
                raise TypingError(f"np.{name}: {unsupported}= is not supported")
        axes = axes_arg(ops.get("axis"), t.ndim, f"np.{name}")
        axis_op = ops.get("axis")
        if name.startswith("arg") and axis_op is not None and isinstance(axis_op.const, tuple):
            raise TypingError(f"np.{name}: axis must be an integer, not a tuple")
        keepdims = const_flag(ops.get("keepdims"), "keepdims")
        ddof = ops.get("ddof")
        if ddof is not None and not (isinstance(ddof.type, T.Scalar) and ddof.type.kind in "iub"):
            raise TypingError(f"np.{name}: ddof must be an integer")
        acc = {"sum": sum_dtype, "same": lambda d: d, "mean": mean_dtype, "bool": lambda d: d}[
            result
        ](t.dtype)
        if axes is not None or keepdims or ddof is not None:
            return _axis_reduction(name, t, acc, axes, keepdims, args, kwargs)
        kern = _kernel_for(kernel, acc)
        if kernel == "sum_flat" and acc.kind in "iub":
            kern = "sum_ints"
            if t.dtype != acc:  # read the items as they are, add them as `acc`
                return _sum_widening(t, acc, args, kwargs)
        resolved = _call(kern, [T.Array(acc, 1, "C")])
        out = resolved.ret

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            chosen = resolved
            if parallel_symbol(b) is not None and kern in PARALLEL_KERNELS:
                chosen = call_kernel(PARALLEL_KERNELS[kern], [T.Array(acc, 1, "C")])
            return chosen.lower(b, [flat(b, v[0], acc)], {})  # type: ignore[misc]

        return Resolved((None,) * len(args), out, lower, kwargs=dict.fromkeys(kwargs))

    return rule


# Kernels with a version for floats: min/max as IEEE minimum/maximum, which vectorize.
_FLOAT_KERNELS = {
    "min_flat": "min_floats",
    "max_flat": "max_floats",
    "min_rows": "min_rows_floats",
    "max_rows": "max_rows_floats",
}


# Kernels with a version for complex numbers: NumPy sums the parts of complex items in its
# float blocks (so in blocks of 4 items, not 8), and a complex var is real (|deviation|**2).
_COMPLEX_KERNELS = {
    "sum_flat": "sum_complex",
    "mean_flat": "mean_complex",
    "var_flat": "var_complex",
    "std_flat": "std_complex",
    "sum_rows": "sum_rows_complex",
    "mean_rows": "mean_rows_complex",
    "var_rows": "var_rows_complex",
}


def _kernel_for(kernel: str, acc: T.Scalar) -> str:
    """`kernel`, or its version for the items' kind: floats (`ieeeminmax`), complex numbers."""
    if acc.is_float:
        return _FLOAT_KERNELS.get(kernel, kernel)
    if acc.is_complex:
        return _COMPLEX_KERNELS.get(kernel, kernel)
    return kernel


def _sum_widening(
    t: T.Array, acc: T.Scalar, args: list[Operand], kwargs: dict[str, Operand]
) -> Resolved:
    """The sum of an integer or bool array whose sum has a wider type (`sum_ints_as_int64`)."""
    kernel = "sum_ints_as_uint64" if acc == T.U64 else "sum_ints_as_int64"
    resolved = _call(kernel, [T.Array(t.dtype, 1, "C")])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        return resolved.lower(b, [flat(b, v[0], t.dtype)], {})  # type: ignore[misc]

    return Resolved((None,) * len(args), resolved.ret, lower, kwargs=dict.fromkeys(kwargs))


def _axis_reduction(
    name: str,
    t: T.Array,
    acc: T.Scalar,
    axes: list[int] | None,
    keepdims: bool,
    args: list[Operand],
    kwargs: dict[str, Operand],
) -> Resolved:
    out_dtype = T.BOOL if name in {"any", "all"} else (T.I64 if name.startswith("arg") else acc)
    if name in {"var", "std"} and acc.is_complex:  # |deviation|**2: real, as NumPy's
        out_dtype = T.Scalar("f", acc.bits // 2)
    empty_error = _EMPTY_REDUCTION.get(name)
    params = _PARAMS.get(name, _DEFAULT_PARAMS)
    ddof_at = params.index("ddof") + 1 if "ddof" in params else -1

    def ddof_of(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        ddof = kw.get("ddof") or (v[ddof_at] if len(v) > ddof_at else None)
        return i64(0) if ddof is None else b.cast(ddof, T.I64)

    if axes is not None and axisreduce.applies(name, t, axes):  # no transposing copy

        def lower_outer_axes(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            ddof = ddof_of(b, v, kw) if ddof_at > 0 else None
            return axisreduce.reduce_outer_axes(
                b, v[0], axes, keepdims, name, acc, out_dtype, empty_error or "", ddof
            )

        result_t = reduced_type(out_dtype, t.ndim, axes, keepdims)
        return Resolved(
            (None,) * len(args), result_t, lower_outer_axes, kwargs=dict.fromkeys(kwargs)
        )
    rows_t = T.Array(acc, 2, "C")
    out_t = T.Array(out_dtype, 1, "C")
    extra_args: list[ir.Value] = []
    if name.startswith("arg"):
        resolved = _call("argreduce_rows", [rows_t, out_t, T.I64])
        extra_args = [i64(0 if name == "argmin" else 1)]
    elif name in {"var", "std"}:
        resolved = _call(_kernel_for("var_rows", acc), [rows_t, out_t, T.I64, T.BOOL])
    else:
        resolved = _call(_kernel_for(_ROW_KERNELS[name], acc), [rows_t, out_t])

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        r = rows(b, v[0], axes, acc)
        if empty_error is not None:  # no identity: an empty reduced axis is an error in NumPy,
            # even when there is nothing to reduce (no rows)
            b.raise_if(b.cmp("eq", r.length, i64(0)), ValueError, empty_error)
        out = A.allocate(b, out_dtype, [r.count], "C")
        if ddof_at > 0:
            extra = [ddof_of(b, v, kw), ir.Const(name == "std", type=T.BOOL)]
        else:
            extra = extra_args
        resolved.lower(b, [r.rows, out, *extra], {})  # type: ignore[misc]
        return unrows_reduced(b, out, r, t.ndim, axes, keepdims)

    return Resolved(
        (None,) * len(args),
        reduced_type(out_dtype, t.ndim, axes, keepdims),
        lower,
        kwargs=dict.fromkeys(kwargs),
    )


# NumPy's errors for reductions without an identity over an empty axis.
_EMPTY_REDUCTION = {
    "min": "zero-size array to reduction operation minimum which has no identity",
    "max": "zero-size array to reduction operation maximum which has no identity",
    "argmin": "attempt to get argmin of an empty sequence",
    "argmax": "attempt to get argmax of an empty sequence",
}

_REDUCTION_NOTES = {
    "sum": "NumPy's order: pairwise along the last axis, sub-array by sub-array over the others",
    "prod": "multiplies in sequence (NumPy's vectorized order can differ where a product "
    "overflows)",
}

REDUCTIONS = {
    "sum": ("sum_flat", "sum"),
    "prod": ("prod_flat", "sum"),
    "min": ("min_flat", "same"),
    "max": ("max_flat", "same"),
    "amin": ("min_flat", "same"),
    "amax": ("max_flat", "same"),
    "mean": ("mean_flat", "mean"),
    "var": ("var_flat", "mean"),
    "std": ("std_flat", "mean"),
    "argmin": ("argmin_flat", "same"),
    "argmax": ("argmax_flat", "same"),
    "any": ("any_flat", "bool"),
    "all": ("all_flat", "bool"),
}


def _params_text(name: str, *, method: bool = False) -> str:
    head = "" if method else "a: array, "
    extra = ", ddof?: int" if name in {"var", "std"} else ""
    return f"{head}axis?: axis | tuple | None, *, keepdims?: bool{extra}"


for _name, (_kernel, _result) in REDUCTIONS.items():
    _rule = _reduction(_name.lstrip("a") if _name in {"amin", "amax"} else _name, _kernel, _result)
    _notes = _REDUCTION_NOTES.get(_name, "")
    if hasattr(np, _name):
        register_function(
            getattr(np, _name),
            params=_params_text(_name),
            notes=_notes,
            listed_as=f"np.{_name}",
        )(_rule)
    if _name not in {"amin", "amax"}:
        register_method(T.Array, _name, params=_params_text(_name, method=True), notes=_notes)(
            _rule
        )


# cumsum and cumprod (with axis=) are in `npstats`.


# np.dot, np.matmul, `@` and ndarray.dot are in `matmul`.
