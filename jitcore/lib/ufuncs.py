"""Elementwise array operations with NumPy's semantics: operators, comparisons, ufunc-style
functions (`np.sqrt`, `np.where`, ...), broadcasting and in-place updates.

Loop dtypes come from NumPy itself (`ufunc.resolve_dtypes`), so results have exactly the dtype
NumPy gives; a Python scalar operand is "weak" as in NumPy 2. Element semantics are NumPy's, not
Python's: integer division by zero gives 0 and float division inf/nan, without an exception.

Every operation is an `elementwise` loop nest (`lib/loops.py`) over the broadcast shape. When all
operands are C-contiguous and their shapes equal the result's, a flat unit-stride loop runs
instead, which LLVM vectorizes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np

from jitcore.errors import SourceLoc, TypingError, UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.lib import arrays as A
from jitcore.lib import layout as L
from jitcore.lib import matmul, scalar, ufuncout
from jitcore.lib.loops import Recipe, ScalarFn, elementwise
from jitcore.lib.registry import Lowerer, Operand, Resolved, register_function, register_method


def _elementwise_resolved(arg_count: int, result: T.Type, recipe: Recipe) -> Resolved:
    """The Resolved of an elementwise operation (scalar results compute one element). On 0-d
    arrays only, the result is a NumPy scalar, as NumPy's ufuncs return (`np.array(4.0) + 1`
    is np.float64(5.0), not a 0-d array)."""
    if isinstance(result, T.Scalar):
        return Resolved(
            (None,) * arg_count,
            result,
            lambda b, v, kw: b.cast(recipe.fn(b, recipe.prepare(b, v)), recipe.out),
        )
    if isinstance(result, T.Array) and result.ndim == 0:

        def lower_0d(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            return b.cast(recipe.fn(b, _items_of_0d(b, recipe.prepare(b, v))), recipe.out)

        return Resolved((None,) * arg_count, result.dtype, lower_0d)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        return elementwise(b, recipe.prepare(b, v), recipe.out, recipe.fn)

    resolved = Resolved((None,) * arg_count, result, lower)
    resolved.elementwise = recipe
    return resolved


def _items_of_0d(b: LowBuilder, operands: list[ir.Value]) -> list[ir.Value]:
    """The operands of an elementwise operation on numbers and 0-d arrays, as numbers."""
    return [
        L.load(b, L.data_of(b, x), x.type.dtype) if isinstance(x.type, T.Array) else x
        for x in operands
    ]


# --- NumPy dtype resolution ---------------------------------------------------------------

# NumPy's own spelling of weak Python scalars. A Python bool needs none: it is the lowest kind,
# so it promotes exactly as np.bool_ does (and `resolve_dtypes` does not take `bool`).
_WEAK = {T.I64: int, T.F64: float, T.C128: complex}


def _numpy_operand(op: Operand) -> np.dtype | type:
    """What to tell `resolve_dtypes` about an operand: a dtype, or a weak Python scalar type."""
    t = op.type
    if isinstance(t, T.Array):
        return t.dtype.dtype
    if isinstance(t, T.Scalar):
        weak = _WEAK.get(t) if op.weak else None  # an array's f64 element is not weak
        return weak if weak is not None else t.dtype
    raise TypingError(f"{t} is not a number or an array")


def _result_operand(op: Operand) -> object:
    """For `np.result_type`: a dtype, or a Python scalar value (weak) for Python numbers."""
    kind = _numpy_operand(op)
    return {int: 0, float: 0.0, complex: 0j}.get(kind, kind)  # type: ignore[arg-type]


def loop_dtypes(
    ufunc: np.ufunc, operands: list[Operand], loc: SourceLoc | None = None
) -> list[T.Scalar]:
    """NumPy's loop dtypes for `ufunc` on these operands: inputs..., output."""
    spec = tuple(_numpy_operand(o) for o in operands) + (None,) * ufunc.nout
    if all(isinstance(o.type, T.Scalar) and o.weak for o in operands):
        # only Python numbers: they count as their default dtypes (np.divide(1, 2) is f64)
        spec = (
            tuple(
                o.type.dtype if isinstance(o.type, T.Scalar) else x for o, x in zip(operands, spec)
            )
            + (None,) * ufunc.nout
        )
    try:
        dtypes = ufunc.resolve_dtypes(spec)
    except Exception as exc:  # noqa: BLE001 - NumPy's own message says why
        raise TypingError(
            f"np.{ufunc.__name__} does not support "
            f"{', '.join(str(o.type) for o in operands)}: {exc}",
            loc=loc,
        ) from None
    supported = {t.dtype for t in T.SCALARS.values()}
    unsupported = [d for d in dtypes if d not in supported]
    if unsupported:  # np.rint of bools computes in float16
        raise UnsupportedError(
            f"np.{ufunc.__name__} of {', '.join(str(o.type) for o in operands)} computes in "
            f"{unsupported[0]}, which compiled code does not support",
            loc=loc,
            hint="convert the operand first, e.g. `.astype(np.float32)`",
        )
    return [T.from_dtype(d) for d in dtypes]


def _result_type(operands: list[Operand], dtype: T.Scalar) -> T.Type:
    arrays = [o.type for o in operands if isinstance(o.type, T.Array)]
    if not arrays:
        return dtype
    return T.Array(dtype, max(a.ndim for a in arrays), "C")


# --- element semantics (NumPy's) ----------------------------------------------------------


def _int_floordiv_mod(b: LowBuilder, x: ir.Value, y: ir.Value) -> tuple[ir.Value, ir.Value]:
    return scalar.int_divmod(b, x, y, numpy_rules=True)


def _float_floordiv_mod(b: LowBuilder, x: ir.Value, y: ir.Value) -> tuple[ir.Value, ir.Value]:
    return scalar.float_divmod(b, x, y, None)


def _power(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    t = x.type
    assert isinstance(t, T.Scalar)
    if t.is_int:
        if t.is_signed:
            b.raise_if(
                b.cmp("lt", y, ir.Const(0, type=t)),
                ValueError,
                "Integers to negative integer powers are not allowed.",
            )
        return b.intrinsic("ipow", [x, y], t)
    if t.is_complex:
        return scalar.numpy_complex_pow(b, x, y)
    return scalar.float_pow(b, x, y)


def _shift(b: LowBuilder, op: str, x: ir.Value, n: ir.Value) -> ir.Value:
    t = cast(T.Scalar, x.type)
    zero = ir.Const(0, type=t)
    width = ir.Const(t.bits, type=t)
    too_far = (
        b.or_(b.cmp("ge", n, width), b.cmp("lt", n, zero))
        if t.is_signed
        else b.cmp("ge", n, width)
    )
    safe = b.select(too_far, zero, n)
    if op == "shl":
        return b.select(too_far, zero, b.binop("shl", x, safe))
    fill = b.select(b.cmp("lt", x, zero), ir.Const(-1, type=t), zero) if t.is_signed else zero
    return b.select(too_far, fill, b.binop("shr", x, safe))


def _binary_element(op: str) -> Callable[[LowBuilder, ir.Value, ir.Value], ir.Value]:
    def emit(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
        t = x.type
        assert isinstance(t, T.Scalar)
        if op in {"add", "sub", "mul"}:
            if t.is_bool:
                return b.binop({"add": "or", "mul": "and", "sub": "xor"}[op], x, y)
            return b.binop(op, x, y)
        if op == "div":
            if t.is_complex:
                return scalar.numpy_complex_div(b, x, y)
            return b.binop("div", x, y)
        if op in {"floordiv", "mod"}:
            pair = _int_floordiv_mod(b, x, y) if t.kind in "iub" else _float_floordiv_mod(b, x, y)
            return pair[0] if op == "floordiv" else pair[1]
        if op == "pow":
            return _power(b, x, y)
        if op in {"and", "or", "xor"}:
            return b.binop(op, x, y)
        if op in {"shl", "shr"}:
            return _shift(b, op, x, y)
        if op in {"eq", "ne", "lt", "le", "gt", "ge"}:
            return b.cmp(op, x, y)
        if op in {"minimum", "maximum"}:
            return scalar.extreme(b, op, x, y)
        if op in {"arctan2", "hypot"}:
            return b.intrinsic({"arctan2": "atan2", "hypot": "hypot"}[op], [x, y], t)
        raise TypingError(f"no elementwise {op}")

    return emit


UFUNC_OF_OP = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.true_divide,
    "floordiv": np.floor_divide,
    "mod": np.remainder,
    "pow": np.power,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
    "shl": np.left_shift,
    "shr": np.right_shift,
    "eq": np.equal,
    "ne": np.not_equal,
    "lt": np.less,
    "le": np.less_equal,
    "gt": np.greater,
    "ge": np.greater_equal,
}


def resolve_array_binop(op: str, a: Operand, b: Operand, loc: SourceLoc) -> Resolved:
    if op == "matmul":
        return matmul.resolve_matmul([a, b], loc)
    if op not in UFUNC_OF_OP:
        raise TypingError(f"unsupported array operation {op}", loc=loc)
    if op == "pow" and _squares_bools(a, b):  # NumPy's `arr ** 2` is np.square(arr)
        return _elementwise_resolved(
            2, _result_type([a, b], T.I8), Recipe(T.I8, lambda bb, xs: _square_bool(bb, xs[0]))
        )
    in1, in2, out = loop_dtypes(UFUNC_OF_OP[op], [a, b], loc)
    element = _binary_element(op)
    result = _result_type([a, b], out)
    kinds = [_element_type(x) for x in (a, b)]
    mixed_sign = (
        op in _COMPARISONS
        and all(k.is_int for k in kinds)
        and kinds[0].is_signed != kinds[1].is_signed
    )

    def prepare(bb: LowBuilder, v: list[ir.Value]) -> list[ir.Value]:
        return [check_weak_ints(bb, v[0], a, in1), check_weak_ints(bb, v[1], b, in2)]

    if op in _COMPARISONS and _python_int_against_ints(a, b):  # by value: no OverflowError
        exact: ScalarFn = lambda b2, xs: exact_int_compare(b2, op, xs[0], xs[1])  # noqa: E731
        return _elementwise_resolved(2, result, Recipe(out, exact))
    if mixed_sign:  # exact, as NumPy's mixed signed/unsigned comparison loops
        fn: ScalarFn = lambda b2, xs: mixed_sign_compare(b2, op, xs[0], xs[1])  # noqa: E731
    else:
        fn = lambda b2, xs: element(b2, b2.cast(xs[0], in1), b2.cast(xs[1], in2))  # noqa: E731
    return _elementwise_resolved(2, result, Recipe(out, fn, prepare))


_COMPARISONS = {"eq", "ne", "lt", "le", "gt", "ge"}


def _squares_bools(a: Operand, b: Operand) -> bool:
    """`bool_array ** 2`: NumPy computes a Python-int exponent of 2 as np.square, whose bool
    loop is int8's (power itself would give int64)."""
    return (
        isinstance(a.type, T.Array)
        and a.type.dtype.is_bool
        and b.weak
        and type(b.const) is int
        and b.const == 2
    )


def _square_bool(b: LowBuilder, x: ir.Value) -> ir.Value:
    return b.cast(x, T.I8)  # 0 * 0 and 1 * 1


def _python_int_against_ints(a: Operand, b: Operand) -> bool:
    """A Python int (weak) compared with integers of another dtype than int64."""
    kinds = [_element_type(x) for x in (a, b)]
    weak_int = [isinstance(o.type, T.Scalar) and o.weak and o.type == T.I64 for o in (a, b)]
    return (
        any(weak_int)
        and all(k.is_int for k in kinds)
        and any(k != T.I64 for k, w in zip(kinds, weak_int) if not w)
    )


def _element_type(op: Operand) -> T.Scalar:
    t = op.type
    return t.dtype if isinstance(t, T.Array) else t  # type: ignore[return-value]


def exact_int_compare(b: LowBuilder, op: str, x: ir.Value, y: ir.Value) -> ir.Value:
    """Compare two integers of any dtypes by value, as NumPy 2 compares a Python int with
    a NumPy int: in int64, or sign-aware when one side is uint64."""
    if T.U64 in (x.type, y.type) and x.type != y.type:
        return mixed_sign_compare(b, op, x, y)
    return b.cmp(op, b.cast(x, T.I64), b.cast(y, T.I64))


def mixed_sign_compare(b: LowBuilder, op: str, x: ir.Value, y: ir.Value) -> ir.Value:
    """Compare a signed and an unsigned integer exactly: a negative signed value is below any
    unsigned one; otherwise both fit the unsigned 64-bit type."""
    signed_first = x.type.is_signed  # type: ignore[union-attr]
    s, u = (x, y) if signed_first else (y, x)
    negative = b.cmp("lt", s, ir.Const(0, type=s.type))
    xs = (
        b.cast(x, T.U64)
        if not signed_first
        else b.cast(b.select(negative, ir.Const(0, type=s.type), x), T.U64)
    )
    ys = (
        b.cast(y, T.U64)
        if signed_first
        else b.cast(b.select(negative, ir.Const(0, type=s.type), y), T.U64)
    )
    plain = b.cmp(op, xs, ys)
    # with the signed side negative: signed < unsigned always
    neg_result = {
        "eq": False,
        "ne": True,
        "lt": signed_first,
        "le": signed_first,
        "gt": not signed_first,
        "ge": not signed_first,
    }[op]
    del u
    return b.select(negative, ir.Const(neg_result, type=T.BOOL), plain)


def check_weak_ints(b: LowBuilder, value: ir.Value, op: Operand, loop: T.Scalar) -> ir.Value:
    """NumPy 2 raises OverflowError when a Python int does not fit the loop's integer dtype."""
    if op.weak and op.type == T.I64:
        A.check_python_int(b, value, loop)
    return value


def resolve_scalar_numpy_binop(op: str, a: Operand, b: Operand, loc: SourceLoc) -> Resolved:
    """A NumPy scalar operation: NumPy's result dtype and element semantics, no exceptions for
    division by zero or overflow (NumPy warns and gives inf, nan or 0)."""
    in1, in2, out = loop_dtypes(UFUNC_OF_OP[op], [a, b], loc)
    element = _binary_element(op)

    def lower(bb: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        x, y = check_weak_ints(bb, v[0], a, in1), check_weak_ints(bb, v[1], b, in2)
        return bb.cast(element(bb, bb.cast(x, in1), bb.cast(y, in2)), out)

    return Resolved((None, None), out, lower)


def resolve_array_compare(op: str, a: Operand, b: Operand, loc: SourceLoc) -> Resolved:
    return resolve_array_binop(op, a, b, loc)


def resolve_inplace_binop(op: str, a: Operand, b: Operand, loc: SourceLoc) -> Resolved:
    """`a op= b` on an array: NumPy computes into `a` (same-kind casting) and `a` stays bound."""
    target = a.type
    assert isinstance(target, T.Array)
    if op not in UFUNC_OF_OP:
        raise TypingError(f"unsupported in-place array operation {op}", loc=loc)
    in1, in2, out = loop_dtypes(UFUNC_OF_OP[op], [a, b], loc)
    if not np.can_cast(out.dtype, target.dtype.dtype, "same_kind"):
        raise TypingError(
            f"cannot cast the result {out} of {op} back to {target.dtype} in place",
            loc=loc,
            hint="NumPy refuses this cast too (UFuncTypeError); assign a new array",
        )
    element = _binary_element(op)
    other = b.type
    if isinstance(other, T.Array) and other.ndim > target.ndim:
        # the broadcast shape has more dimensions than `a`: NumPy's ValueError whatever the
        # shapes (raised where the statement runs, as NumPy raises it)
        from jitcore.lib.shapes import always_raise

        message = (
            f"non-broadcastable output operand: a {target.ndim}-d array cannot take the "
            f"result of an operation with a {other.ndim}-d array in place"
        )
        return Resolved((None, None), target, always_raise(ValueError, message, target))

    def lower(bb: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        dest = v[0]
        v = [dest, check_weak_ints(bb, v[1], b, in2)]  # `a8 += 300`: NumPy's OverflowError
        operands, full = A.update_operands(bb, v, dest)
        fn = lambda b2, xs: element(b2, b2.cast(xs[0], in1), b2.cast(xs[1], in2))  # noqa: E731
        elementwise(bb, operands, target.dtype, fn, out=dest, full=full)
        return A.make_view(
            bb, dest, target, A.data_of(bb, dest), A.shapes_of(bb, dest), A.strides_of(bb, dest)
        )

    return Resolved((None, None), target, lower)


# --- unary operators and ufunc functions --------------------------------------------------


# NumPy's complex ufuncs call C99's complex functions (npy_csqrt is csqrt, ...); so does
# compiled code where it knows the C calling convention of complex numbers (x86-64 System V:
# Linux, macOS). Elsewhere sqrt, exp and log of complex128 follow cmath (which raises where
# NumPy gives inf or nan).
_C99_COMPLEX = {
    "sqrt": "csqrt",
    "exp": "cexp",
    "log": "clog",
    "sin": "csin",
    "cos": "ccos",
    "tan": "ctan",
    "sinh": "csinh",
    "cosh": "ccosh",
    "tanh": "ctanh",
    "arcsin": "casin",
    "arccos": "cacos",
    "arctan": "catan",
}


def _unary_element(name: str) -> Callable[[LowBuilder, ir.Value], ir.Value]:
    def emit(b: LowBuilder, x: ir.Value) -> ir.Value:
        t = x.type
        assert isinstance(t, T.Scalar)
        if name == "negative":
            return b.emit(ir.UnaryOp("neg", x, type=t))
        if name == "positive":
            return x
        if name == "invert":
            return b.not_(x) if t.is_bool else b.binop("xor", x, ir.Const(-1, type=t))
        if name == "absolute":
            if t.is_complex:
                return b.intrinsic("hypot", [b.real(x), b.imag(x)], T.complex_part(t))
            if t.is_float:
                return b.intrinsic("fabs", [x], t)
            if t.is_signed:
                return b.select(
                    b.cmp("lt", x, ir.Const(0, type=t)), b.emit(ir.UnaryOp("neg", x, type=t)), x
                )
            return x
        if name == "sign" and t.is_complex:
            return _complex_sign(b, x)
        if name in {"isnan", "isinf", "isfinite"} and t.is_complex:  # of either part
            test = {"isnan": b.isnan, "isinf": b.isinf, "isfinite": b.isfinite}[name]
            join = b.and_ if name == "isfinite" else b.or_
            return join(test(b.real(x)), test(b.imag(x)))
        if name == "sign":
            zero = ir.Const(0.0 if t.is_float else 0, type=t)
            one = ir.Const(1.0 if t.is_float else 1, type=t)
            pos = b.select(b.cmp("gt", x, zero), one, zero)
            value = b.select(b.cmp("lt", x, zero), b.emit(ir.UnaryOp("neg", one, type=t)), pos)
            return b.select(b.isnan(x), x, value) if t.is_float else value
        if name in {"isnan", "isinf", "isfinite"}:
            if not t.is_float:
                return ir.Const(name == "isfinite", type=T.BOOL)
            return {"isnan": b.isnan, "isinf": b.isinf, "isfinite": b.isfinite}[name](x)
        if name in {"floor", "ceil", "trunc", "rint"} and t.kind in "iub":
            return x  # NumPy 2 keeps integer and bool dtypes: already integral
        if t.is_complex:
            if name in _C99_COMPLEX and scalar.C_COMPLEX_ABI:
                return b.intrinsic(_C99_COMPLEX[name], [x], t)
            complex_fns = {"sqrt": scalar.csqrt, "exp": scalar.cexp, "log": scalar.clog}
            if name in complex_fns and t == T.C128:
                return complex_fns[name](b, x)
            raise TypingError(f"np.{name} of complex arrays is not supported")
        intrinsic = {
            "sqrt": "sqrt",
            "exp": "exp",
            "log": "log",
            "log1p": "log1p",
            "expm1": "expm1",
            "sin": "sin",
            "cos": "cos",
            "tan": "tan",
            "tanh": "tanh",
            "floor": "floor",
            "ceil": "ceil",
            "arcsin": "asin",
            "arccos": "acos",
            "arctan": "atan",
            "sinh": "sinh",
            "cosh": "cosh",
            "log2": "log2",
            "log10": "log10",
            "trunc": "trunc",
            "rint": "roundeven",
        }[name]
        return b.intrinsic(intrinsic, [x], t)

    return emit


def _complex_sign(b: LowBuilder, x: ir.Value) -> ir.Value:
    """NumPy 2's sign of a complex number: z / |z|; 0 for 0, NaN for a NaN |z|; for an
    infinite |z|, the unit of the infinite part (NaN when both are)."""
    t = x.type
    assert isinstance(t, T.Scalar)
    part = T.complex_part(t)
    re, im = b.real(x), b.imag(x)
    zero, one = ir.Const(0.0, type=part), ir.Const(1.0, type=part)
    minus_one, nan = ir.Const(-1.0, type=part), ir.Const(float("nan"), type=part)
    size = b.intrinsic("hypot", [re, im], part)
    unit_re, unit_im = b.binop("div", re, size), b.binop("div", im, size)
    # |z| infinite: the infinite part's unit
    re_inf, im_inf = b.isinf(re), b.isinf(im)
    sign_re = b.select(b.cmp("gt", re, zero), one, minus_one)
    sign_im = b.select(b.cmp("gt", im, zero), one, minus_one)
    inf_re = b.select(re_inf, b.select(im_inf, nan, sign_re), zero)
    inf_im = b.select(re_inf, b.select(im_inf, nan, zero), sign_im)
    out_re = b.select(b.isinf(size), inf_re, unit_re)
    out_im = b.select(b.isinf(size), inf_im, unit_im)
    is_zero = b.cmp("eq", size, zero)
    out_re, out_im = b.select(is_zero, zero, out_re), b.select(is_zero, zero, out_im)
    size_nan = b.isnan(size)
    return b.complex(b.select(size_nan, nan, out_re), b.select(size_nan, nan, out_im), t)


def resolve_array_unary(op: str, x: Operand, loc: SourceLoc) -> Resolved:
    name = {"neg": "negative", "pos": "positive", "invert": "invert"}[op]
    return _ufunc_rule(name)([x], {}) or _no_rule(name, loc)


def _no_rule(name: str, loc: SourceLoc) -> Resolved:
    raise TypingError(f"np.{name} is not supported for these operands", loc=loc)


UNARY_UFUNCS = [
    "negative",
    "positive",
    "invert",
    "absolute",
    "sign",
    "isnan",
    "isinf",
    "isfinite",
    "sqrt",
    "exp",
    "log",
    "log1p",
    "expm1",
    "sin",
    "cos",
    "tan",
    "tanh",
    "floor",
    "ceil",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "log2",
    "log10",
    "trunc",
    "rint",
]
BINARY_UFUNCS = {
    "power": "pow",
    "minimum": "minimum",
    "maximum": "maximum",
    "arctan2": "arctan2",
    "hypot": "hypot",
    "add": "add",
    "subtract": "sub",
    "multiply": "mul",
    "divide": "div",
    "true_divide": "div",
    "floor_divide": "floordiv",
    "remainder": "mod",
    "mod": "mod",
}


def _ufunc_rule(name: str):  # noqa: ANN202
    ufunc = getattr(np, name)

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        out_op, rest = ufuncout.split_out(name, ufunc.nin, args, kwargs)
        if rest:
            raise TypingError(
                f"np.{name}: keyword arguments are not supported here ({', '.join(rest)})"
            )
        if len(args) < ufunc.nin:
            return None
        inputs = args[: ufunc.nin]
        dtypes = loop_dtypes(ufunc, inputs)
        ins, out = dtypes[: ufunc.nin], dtypes[-1]

        def prepare(b: LowBuilder, v: list[ir.Value]) -> list[ir.Value]:
            return [check_weak_ints(b, x, op, t) for x, op, t in zip(v, inputs, ins)]

        if ufunc.nin == 1:
            element1 = _unary_element(name)
            fn: ScalarFn = lambda b, xs: element1(b, b.cast(xs[0], ins[0]))  # noqa: E731
        else:
            element2 = _binary_element(BINARY_UFUNCS[name])
            fn = lambda b, xs: element2(b, b.cast(xs[0], ins[0]), b.cast(xs[1], ins[1]))  # noqa: E731
        recipe = Recipe(out, fn, prepare)
        if out_op is not None:  # np.add(a, b, out=c)
            return ufuncout.into(name, recipe, args, out_op, ufunc.nin, kwargs)
        return _elementwise_resolved(len(args), _result_type(args, out), recipe)

    return rule


# Which ufuncs take complex operands (the others raise TypingError for them).
_COMPLEX_UFUNCS = {"negative", "positive", "absolute", "sqrt", "exp", "log"} | {
    "power",
    "add",
    "subtract",
    "multiply",
    "divide",
    "true_divide",
}


def _ufunc_params(name: str) -> str:
    scalar = "number" if name in _COMPLEX_UFUNCS else "real"
    if name == "invert":
        return "x: int | intarray"
    if name in BINARY_UFUNCS:
        return f"x1: {scalar} | array, x2: {scalar} | array"
    return f"x: {scalar} | array"


for _name in UNARY_UFUNCS:
    register_function(getattr(np, _name), params=_ufunc_params(_name), listed_as=f"np.{_name}")(
        _ufunc_rule(_name)
    )
for _name in BINARY_UFUNCS:
    register_function(getattr(np, _name), params=_ufunc_params(_name), listed_as=f"np.{_name}")(
        _ufunc_rule(_name)
    )
register_function(np.abs, params=_ufunc_params("absolute"), listed_as="np.abs")(
    _ufunc_rule("absolute")
)


def resolve_ufunc_call(name: str, args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    resolved = _ufunc_rule(name)(args, kwargs)
    if resolved is None:
        raise TypingError(f"np.{name} takes different arguments")
    return resolved


@register_function(
    np.where,
    params="condition: real | array, x: real | array, y: real | array; condition: array",
)
def _where(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) == 1 and not kwargs and isinstance(args[0].type, T.Array):
        from jitcore.lib import npsort  # np.where(condition) is np.nonzero(condition)

        return npsort.nonzero_rule(args, kwargs)
    if len(args) != 3 or kwargs:
        return None
    out = T.from_dtype(np.result_type(*[_result_operand(o) for o in args[1:]]))  # type: ignore[arg-type]
    result = _result_type(args, out)

    def fn(b: LowBuilder, xs: list[ir.Value]) -> ir.Value:
        return b.select(scalar.truth(b, xs[0]), b.cast(xs[1], out), b.cast(xs[2], out))

    if not (isinstance(result, T.Array) and result.ndim > 0):
        return Resolved((None,) * 3, T.Array(out, 0, "C"), _where_0d(Recipe(out, fn)))
    return _elementwise_resolved(3, result, Recipe(out, fn))


def _where_0d(recipe: Recipe) -> Lowerer:
    """np.where of numbers and 0-d arrays: a 0-d array, as NumPy's (np.where is no ufunc, so
    its result is not unwrapped to a scalar as `_elementwise_resolved` unwraps a ufunc's)."""

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        xs = _items_of_0d(b, recipe.prepare(b, v))
        arr = L.allocate(b, recipe.out, [], "C")
        L.store(b, L.data_of(b, arr), b.cast(recipe.fn(b, xs), recipe.out))
        return arr

    return lower


def _clip_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """NumPy's clip: its `clip` ufunc's dtypes (the bounds count: an int array clipped to
    1.5 is float64), minimum(maximum(a, lo), hi); a Python int bound beyond an int dtype's
    range clips nothing on its side (NumPy drops it), one beyond the other end raises."""
    if len(args) != 3 or kwargs:
        return None
    dtypes = loop_dtypes(_CLIP_UFUNC, args)
    out = dtypes[-1]
    maximum, minimum = _binary_element("maximum"), _binary_element("minimum")
    a_kind = _element_type(args[0])

    def bound(b: LowBuilder, v: ir.Value, op: Operand, lower_side: bool) -> ir.Value:
        """NumPy's `_clip` drops a Python-int bound at or beyond the int array's range."""
        if not (op.weak and op.type == T.I64 and a_kind.is_int):
            return v
        info = np.iinfo(a_kind.dtype)
        edge = int(info.min) if lower_side else min(int(info.max), 2**63 - 1)
        beyond = b.cmp("le" if lower_side else "ge", v, ir.Const(edge, type=T.I64))
        if out.is_float:  # no bound on that side
            unbounded = ir.Const(float("-inf") if lower_side else float("inf"), type=out)
            return b.select(beyond, unbounded, b.cast(v, out))
        if not out.is_int:
            return v
        # the widest bound of `out` a Python int can be (uint64's top is past int64's: a bound
        # there is the int itself); a bound beyond the other end raises, as NumPy's
        out_info = np.iinfo(out.dtype)
        widest = int(out_info.min) if lower_side else min(int(out_info.max), 2**63 - 1)
        clamped = b.select(beyond, ir.Const(widest, type=T.I64), v)
        return check_weak_ints(b, clamped, op, out)

    def prepare(b: LowBuilder, v: list[ir.Value]) -> list[ir.Value]:
        return [v[0], bound(b, v[1], args[1], True), bound(b, v[2], args[2], False)]

    def fn(b: LowBuilder, xs: list[ir.Value]) -> ir.Value:
        x, lo, hi = (b.cast(v, out) for v in xs)
        return minimum(b, maximum(b, x, lo), hi)

    return _elementwise_resolved(3, _result_type(args, out), Recipe(out, fn, prepare))


_CLIP_UFUNC = np._core.umath.clip  # type: ignore[attr-defined]  # the ufunc np.clip calls


register_function(np.clip, params="a: real | array, a_min: real | array, a_max: real | array")(
    _clip_rule
)
register_method(T.Array, "clip", params="a_min: real | array, a_max: real | array")(_clip_rule)


@register_method(T.Array, "astype", params="dtype: dtype")
def _astype(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 2 or kwargs:
        return None
    src = args[0].type
    assert isinstance(src, T.Array)
    dtype = A.dtype_arg(args[1], src.dtype.dtype)
    out = T.Array(dtype, src.ndim, "C")
    return Resolved(
        (None, None), out, lambda b, v, kw: elementwise(b, [v[0]], dtype, lambda bb, xs: xs[0])
    )


def _scalar_constructor(scalar_type: type):  # noqa: ANN202
    dtype = T.from_dtype(scalar_type)

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if kwargs or len(args) > 1:
            return None
        if not args:
            return Resolved((), dtype, lambda b, v, kw: ir.Const(0, type=dtype))
        if isinstance(args[0].type, T.Array):
            src = args[0].type
            out = T.Array(dtype, src.ndim, "C")
            return Resolved(
                (None,), out, lambda b, v, kw: elementwise(b, [v[0]], dtype, lambda bb, xs: xs[0])
            )
        if not isinstance(args[0].type, T.Scalar):
            return None
        arg = args[0]
        if dtype.is_int and arg.weak and cast(T.Scalar, arg.type).kind in "iuf":
            # NumPy 2 converts a Python number as Python's int() and checks the range
            return Resolved((None,), dtype, lambda b, v, kw: _python_to_int(b, v[0], arg, dtype))
        return Resolved((None,), dtype, lambda b, v, kw: b.cast(v[0], dtype))

    return rule


def _python_to_int(b: LowBuilder, x: ir.Value, op: Operand, to: T.Scalar) -> ir.Value:
    """`np.int8(x)` of a Python int or float: ValueError for NaN, OverflowError for infinity
    and for a value outside `to`'s range, as NumPy 2 raises them."""
    t = cast(T.Scalar, x.type)
    if t.is_int:
        return b.cast(check_weak_ints(b, x, op, to), to)
    b.raise_if(b.isnan(x), ValueError, "cannot convert float NaN to integer")
    b.raise_if(b.isinf(x), OverflowError, "cannot convert float infinity to integer")
    whole = b.intrinsic("trunc", [x], t)
    low = -(2 ** (to.bits - 1)) if to.is_signed else 0
    high = 2 ** (to.bits - 1) if to.is_signed else 2**to.bits
    out = b.or_(
        b.cmp("lt", whole, ir.Const(float(low), type=t)),
        b.cmp("ge", whole, ir.Const(float(high), type=t)),
    )
    b.raise_if(out, OverflowError, f"Python integer out of bounds for {to.dtype}")
    return b.cast(whole, to)


for _t in (
    np.bool_,
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    np.float32,
    np.float64,
    np.complex64,
    np.complex128,
):
    register_function(_t, params="x?: real | array", listed_as=f"np.{np.dtype(_t).name}")(
        _scalar_constructor(_t)
    )
