"""Distributions of a `np.random.Generator` passed in (`rng.normal(...)` in compiled code),
drawn by NumPy's own C functions.

NumPy's Generator draws normals, exponentials and gammas with ziggurats whose tables are C
constants, and the other distributions on top of those; recomputing the tables gives values a
few ULPs off. So these methods call NumPy's C functions themselves (`random_normal(bitgen_t *,
double, double)`, ...: `runtime.npdists` lists them, `nprandomgdk` makes them primitives and
fills arrays with them, `codegen.npdistcalls` calls them) with the Generator's `bitgen_t`: the
draws are NumPy's, bit for bit, and the caller's Generator ends in the state NumPy's methods
would leave it in.

Each method does what NumPy's Cython method does around the C function (`_common.pyx`'s
`cont`/`disc`): the scalar parameters' checks, with NumPy's messages and in its order (before
the size is looked at), then one call for `size=None` or a loop of calls filling a new
C-contiguous array of shape `size`, in order. Parameters are numbers (NumPy's broadcasting of
array parameters is not compiled); `size` is None, an int or a tuple of ints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from jitcore.errors import TypingError, UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.lib.arrays import dtype_arg
from jitcore.lib.nprandom import (
    _bind,
    _int_bound,
    _is_none,
    _operand,
    _real,
    _result,
    _size_ndim,
    _value,
)
from jitcore.lib.nprandomgdk import draw, fill_kernel, fill_type
from jitcore.lib.nprandomgen import RANDOM_FLOAT64, generator_method, require_generator
from jitcore.lib.registry import Operand, Resolved

Rule = Callable[[list[Operand], dict[str, Operand]], Resolved]


# --- parameter checks (`_common.pyx`'s `check_constraint`) --------------------------------------

Check = Callable[[LowBuilder, ir.Value, str], None]


def _not(b: LowBuilder, op: str, x: ir.Value, bound: float) -> ir.Value:
    """not (x <op> bound): true for NaN, as NumPy's `not (val > 0)`."""
    return b.not_(b.cmp(op, x, ir.Const(bound, type=T.F64)))


def non_negative(b: LowBuilder, x: ir.Value, name: str) -> None:
    """NaN passes; -0.0 does not (NumPy tests the sign bit)."""
    sign = b.intrinsic("copysign", [ir.Const(1.0, type=T.F64), x], T.F64)
    negative = b.cmp("lt", sign, ir.Const(0.0, type=T.F64))
    b.raise_if(b.and_(negative, b.not_(b.isnan(x))), ValueError, f"{name} < 0")


def positive(b: LowBuilder, x: ir.Value, name: str) -> None:
    """NaN passes (`val <= 0` is false)."""
    b.raise_if(b.cmp("le", x, ir.Const(0.0, type=T.F64)), ValueError, f"{name} <= 0")


def positive_not_nan(b: LowBuilder, x: ir.Value, name: str) -> None:
    b.raise_if(b.isnan(x), ValueError, f"{name} must not be NaN")
    positive(b, x, name)


def gt_0_le_1(b: LowBuilder, x: ir.Value, name: str) -> None:
    bad = b.or_(_not(b, "gt", x, 0.0), _not(b, "le", x, 1.0))
    b.raise_if(bad, ValueError, f"{name} <= 0, {name} > 1 or {name} contains NaNs")


def ge_0_lt_1(b: LowBuilder, x: ir.Value, name: str) -> None:
    bad = b.or_(_not(b, "ge", x, 0.0), _not(b, "lt", x, 1.0))
    b.raise_if(bad, ValueError, f"{name} < 0, {name} >= 1 or {name} is NaN")


def gt_1(b: LowBuilder, x: ir.Value, name: str) -> None:
    b.raise_if(_not(b, "gt", x, 1.0), ValueError, f"{name} <= 1 or {name} is NaN")


def any_value(b: LowBuilder, x: ir.Value, name: str) -> None:
    """No constraint."""


# --- the methods ---------------------------------------------------------------------------------

REQUIRED = None


@dataclass(frozen=True)
class Param:
    name: str
    default: float | None  # None: required
    check: Check = any_value


@dataclass(frozen=True)
class Method:
    """`Generator.<name>(*params, size=None)` drawing with NumPy's `function`; `extra` checks
    run after the parameters' own (`negative_binomial`'s, `triangular`'s)."""

    name: str
    function: str
    params: tuple[Param, ...] = ()
    extra: Callable[[LowBuilder, list[ir.Value]], None] | None = None
    notes: str = ""


def _triangular(b: LowBuilder, v: list[ir.Value]) -> None:
    left, mode, right = v
    b.raise_if(b.cmp("gt", left, mode), ValueError, "left > mode")
    b.raise_if(b.cmp("gt", mode, right), ValueError, "mode > right")
    b.raise_if(b.cmp("eq", left, right), ValueError, "left == right")


POISSON_LAM_MAX = float(np.iinfo("int64").max) - float(np.sqrt(np.iinfo("int64").max)) * 10


def _negative_binomial(b: LowBuilder, v: list[ir.Value]) -> None:
    """Its Poisson mixture's largest `lam` must stay below `random_poisson`'s limit."""
    n, p = v
    one = ir.Const(1.0, type=T.F64)
    ratio = b.binop("div", b.binop("sub", one, p), p)
    root = b.intrinsic("sqrt", [n], T.F64)
    spread = b.binop("add", n, b.binop("mul", ir.Const(10.0, type=T.F64), root))
    too_large = b.cmp("gt", b.binop("mul", ratio, spread), ir.Const(POISSON_LAM_MAX, type=T.F64))
    message = "n too large or p too small, see Generator.negative_binomial Notes"
    b.raise_if(too_large, ValueError, message)


_LOC_SCALE = (Param("loc", 0.0), Param("scale", 1.0, non_negative))
METHODS = (
    Method("normal", "random_normal", _LOC_SCALE, notes="NumPy's ziggurat (its C code)"),
    Method("exponential", "random_exponential", (Param("scale", 1.0, non_negative),)),
    Method("standard_cauchy", "random_standard_cauchy"),
    Method("standard_gamma", "random_standard_gamma", (Param("shape", REQUIRED, non_negative),)),
    Method(
        "gamma",
        "random_gamma",
        (Param("shape", REQUIRED, non_negative), Param("scale", 1.0, non_negative)),
    ),
    Method(
        "beta", "random_beta", (Param("a", REQUIRED, positive), Param("b", REQUIRED, positive))
    ),
    Method("chisquare", "random_chisquare", (Param("df", REQUIRED, positive),)),
    Method(
        "f", "random_f", (Param("dfnum", REQUIRED, positive), Param("dfden", REQUIRED, positive))
    ),
    Method(
        "noncentral_chisquare",
        "random_noncentral_chisquare",
        (Param("df", REQUIRED, positive), Param("nonc", REQUIRED, non_negative)),
    ),
    Method(
        "noncentral_f",
        "random_noncentral_f",
        (
            Param("dfnum", REQUIRED, positive),
            Param("dfden", REQUIRED, positive),
            Param("nonc", REQUIRED, non_negative),
        ),
    ),
    Method("standard_t", "random_standard_t", (Param("df", REQUIRED, positive),)),
    Method(
        "vonmises",
        "random_vonmises",
        (Param("mu", REQUIRED), Param("kappa", REQUIRED, non_negative)),
    ),
    Method("pareto", "random_pareto", (Param("a", REQUIRED, positive),)),
    Method("weibull", "random_weibull", (Param("a", REQUIRED, non_negative),)),
    Method("power", "random_power", (Param("a", REQUIRED, positive),)),
    Method("laplace", "random_laplace", _LOC_SCALE),
    Method("gumbel", "random_gumbel", _LOC_SCALE),
    Method("logistic", "random_logistic", _LOC_SCALE),
    Method(
        "lognormal",
        "random_lognormal",
        (Param("mean", 0.0), Param("sigma", 1.0, non_negative)),
    ),
    Method("rayleigh", "random_rayleigh", (Param("scale", 1.0, non_negative),)),
    Method(
        "wald",
        "random_wald",
        (Param("mean", REQUIRED, positive), Param("scale", REQUIRED, positive)),
    ),
    Method(
        "triangular",
        "random_triangular",
        (Param("left", REQUIRED), Param("mode", REQUIRED), Param("right", REQUIRED)),
        extra=_triangular,
    ),
    Method(
        "geometric", "random_geometric", (Param("p", REQUIRED, gt_0_le_1),), notes="int64 results"
    ),
    Method(
        "logseries", "random_logseries", (Param("p", REQUIRED, ge_0_lt_1),), notes="int64 results"
    ),
    Method("zipf", "random_zipf", (Param("a", REQUIRED, gt_1),), notes="int64 results"),
    Method(
        "negative_binomial",
        "random_negative_binomial",
        (Param("n", REQUIRED, positive_not_nan), Param("p", REQUIRED, gt_0_le_1)),
        extra=_negative_binomial,
        notes="int64 results",
    ),
)


def _method_rule(method: Method) -> Rule:
    what = f"Generator.{method.name}"
    names = [p.name for p in method.params]

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        require_generator(args, what)
        where = _bind(args, kwargs, ["self", *names, "size"], what)
        for p in method.params:
            if p.default is None and p.name not in where:
                raise TypingError(f"{what} needs {p.name}")
            _real(_operand(args, kwargs, where, p.name), what, p.name)
        ndim = _size_ndim(_operand(args, kwargs, where, "size"))
        fill = fill_kernel(method.function, ndim)

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
            values = []
            for p in method.params:
                given = _value(v, kw, where, p.name)
                x = ir.Const(p.default, type=T.F64) if given is None else b.cast(given, T.F64)
                p.check(b, x, p.name)
                values.append(x)
            if method.extra is not None:
                method.extra(b, values)
            size = _value(v, kw, where, "size") if ndim is not None else None
            return draw(b, v[0], method.function, values, size, fill)

        return _result(args, kwargs, fill_type(method.function, ndim), lower)

    return rule


def _params_text(params: tuple[Param, ...]) -> str:
    given = [f"{p.name}{'' if p.default is None else '?'}: real" for p in params]
    return ", ".join([*given, "size?: shape | None"])


for _method in METHODS:
    generator_method(_method.name, params=_params_text(_method.params), notes=_method.notes)(
        _method_rule(_method)
    )


# --- standard_normal, standard_exponential: float64 or float32 ---------------------------------


def _float_dtype(op: Operand | None, what: str) -> T.Scalar:
    t = dtype_arg(op, np.float64)
    if t not in (T.F64, T.F32):
        raise TypingError(f"{what}: dtype must be np.float64 or np.float32, not {t}")
    return t


def _standard_rule(name: str, function: str, float64: Rule | None = None) -> Rule:
    """`name(size=None, dtype=np.float64, out=None)` (and standard_exponential's `method`)
    drawing with NumPy's `function` or its float32 twin `<function>_f`; `float64`, if given,
    is the rule of float64 draws (`random`'s: the bit generator's `next_double` directly)."""
    what = f"Generator.{name}"

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        require_generator(args, what)
        names = ["self", "size", "dtype"] + (["method"] if name == "standard_exponential" else [])
        where = _bind(args, kwargs, [*names, "out"], what)
        dtype = _float_dtype(_operand(args, kwargs, where, "dtype"), what)
        if float64 is not None and dtype == T.F64 and set(where) <= {"self", "size", "dtype"}:
            keep = [i for i, n in enumerate(names[: len(args)]) if n != "dtype"]
            return _without_dtype(float64, args, kwargs, keep)
        if not _is_none(_operand(args, kwargs, where, "out")):
            raise UnsupportedError(f"{what}: out= is not compiled", hint="use the result")
        method = _operand(args, kwargs, where, "method")
        if method is not None and not (method.is_const and method.const == "zig"):
            raise UnsupportedError(
                f"{what}: only method='zig' (the default) is compiled",
                hint="draw with method='inv' in Python",
            )
        c_function = function + ("_f" if dtype == T.F32 else "")
        ndim = _size_ndim(_operand(args, kwargs, where, "size"))
        # NumPy returns a Python float for size=None, whatever the dtype
        ret = T.F64 if ndim is None else fill_type(c_function, ndim)
        fill = fill_kernel(c_function, ndim)

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
            size = _value(v, kw, where, "size") if ndim is not None else None
            out = draw(b, v[0], c_function, [], size, fill)
            return b.cast(out, T.F64) if ndim is None else out

        return _result(args, kwargs, ret, lower)

    return rule


def _without_dtype(
    rule: Rule, args: list[Operand], kwargs: dict[str, Operand], keep: list[int]
) -> Resolved:
    """`rule` applied to the call without its `dtype` argument (float64, the default): the
    result takes the operands of the full call, the dropped one ignored."""
    inner = rule([args[i] for i in keep], {k: v for k, v in kwargs.items() if k != "dtype"})
    assert inner.lower is not None
    lower_inner = inner.lower
    kept = [k for k in kwargs if k != "dtype"]

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        return lower_inner(b, [v[i] for i in keep], {k: kw[k] for k in kept})

    return _result(args, kwargs, inner.ret, lower)


generator_method(
    "random", params="size?: shape | None, dtype?: dtype", notes="float64 or float32"
)(_standard_rule("random", "random_standard_uniform", RANDOM_FLOAT64))
generator_method(
    "standard_normal",
    params="size?: shape | None, dtype?: dtype",
    notes="float64 or float32; NumPy's ziggurat (its C code)",
)(_standard_rule("standard_normal", "random_standard_normal"))
generator_method(
    "standard_exponential",
    params="size?: shape | None, dtype?: dtype, method?: const",
    notes="float64 or float32; method='zig' only",
)(_standard_rule("standard_exponential", "random_standard_exponential"))


# --- hypergeometric: int parameters --------------------------------------------------------------

HYPERGEOM_MAX = 10**9


@generator_method(
    "hypergeometric",
    params="ngood: int, nbad: int, nsample: int, size?: shape | None",
    notes="int64 results",
)
def _hypergeometric(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    what = "Generator.hypergeometric"
    require_generator(args, what)
    names = ["ngood", "nbad", "nsample"]
    where = _bind(args, kwargs, ["self", *names, "size"], what)
    for name in names:
        op = _operand(args, kwargs, where, name)
        if op is None:
            raise TypingError(f"{what} needs {name}")
        _int_bound(op, name, what)
    ndim = _size_ndim(_operand(args, kwargs, where, "size"))
    fill = fill_kernel("random_hypergeometric", ndim)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:
        good, bad, sample = (b.cast(_value(v, kw, where, n), T.I64) for n in names)  # type: ignore[arg-type]
        limit = ir.Const(HYPERGEOM_MAX, type=T.I64)
        too_many = b.or_(b.cmp("ge", good, limit), b.cmp("ge", bad, limit))
        message = f"both ngood and nbad must be less than {HYPERGEOM_MAX}"
        b.raise_if(too_many, ValueError, message)
        b.raise_if(
            b.cmp("lt", b.binop("add", good, bad), sample), ValueError, "ngood + nbad < nsample"
        )
        zero = ir.Const(0, type=T.I64)
        for name, x in zip(names, (good, bad, sample)):
            b.raise_if(b.cmp("lt", x, zero), ValueError, f"{name} < 0")
        size = _value(v, kw, where, "size") if ndim is not None else None
        return draw(b, v[0], "random_hypergeometric", [good, bad, sample], size, fill)

    return _result(args, kwargs, fill_type("random_hypergeometric", ndim), lower)
