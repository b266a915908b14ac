"""Hypothesis strategies for the arguments of a jitted function, and how they are derived.

Where inputs come from (DESIGN.md section 7): a parameter given a strategy by `@jitcheck(name=...)`
(or a `jitcheck` marker) uses it; the others take their types from the first of these sources
that types all of them:

1. the function's explicit jit signatures, `@jit(signatures=["f64, i64"])` (one alternative
   per signature, each example draws from one of them);
2. its annotations: `int`, `float`, `bool`, `complex`, NumPy scalar types, `tuple[...]` of
   these, `jitcore.Array[dtype, ndim(, layout)]`, and `numpy.typing.NDArray[dtype]` (ndim 1
   unless `@jitcheck(ndim={"a": 2})` says otherwise);
3. the signatures the dispatcher has compiled so far (order-dependent: a last resort).

A parameter with a default value and no source keeps its default. Anything else left makes
the function *underivable*; the item is skipped with a reason that says how to annotate it.

Default domains keep examples inside what compiled code computes exactly: ints are bounded
(`INT_BOUND`, also within the dtype's range), so most results stay in int64 and loop counts
stay small; floats cover the whole line with NaN, infinities and subnormals; arrays have
random shapes within `ARRAY_BUDGET` elements (empty ones included), in C order, Fortran order
or as non-contiguous strided views.
"""

from __future__ import annotations

import inspect
import math
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcheck.corners import corner_floats, corner_ints
from jitcheck.decorator import ShapeSpec
from jitcore import ArraySpec
from jitcore.argtypes import parse_signature
from jitcore.ir import types as T

INT_BOUND = 1000
ARRAY_BUDGET = 64  # elements per generated array
BENCH_ELEMENTS = 10_000  # elements per array of the default timing input
BENCH_INT = INT_BOUND  # an int argument of the default timing input: the largest one checked
DEFAULT_NDIM = 1  # of an `NDArray[dtype]` annotation without an `ndim` hint

_PY_TYPES: dict[object, T.Type] = {
    int: T.I64,
    float: T.F64,
    bool: T.BOOL,
    complex: T.C128,
    None: T.NONE,
    type(None): T.NONE,
}

HOW_TO = (
    "annotate it (`x: float`, `n: int`, `a: jitcore.Array[np.float64, 1]`), list jit "
    "signatures (`@jit(signatures=['f64, i64'])`), or give a strategy "
    "(`@jitcheck(n=st.integers(0, 100))`)"
)


class Underivable(Exception):
    """The inputs of a function cannot be derived; the message says how to fix that."""


@dataclass(frozen=True)
class InputPlan:
    """How to generate the arguments of one function.

    `alternatives` holds one `{parameter: strategy}` per signature; an example draws one.
    `types` holds the parameter types of each alternative where known (for timing inputs).
    """

    params: tuple[str, ...]  # generated parameters, in order
    positional: tuple[str, ...]  # the parameters passed positionally, up to the last generated
    defaults: Mapping[str, Any]
    alternatives: tuple[Mapping[str, st.SearchStrategy[Any]], ...]
    types: tuple[Mapping[str, T.Type], ...]
    source: str
    shapes: ShapeSpec | None = None  # coupled array shapes: alternatives draw whole dicts
    # with `shapes`, a strategy given for a shaped array parameter draws its elements
    elements: Mapping[str, st.SearchStrategy[Any]] = field(default_factory=dict)

    @property
    def joint(self) -> bool:
        """Whether an example is drawn as one dict (several signatures, coupled shapes, or
        arrays that may alias) rather than one keyword per parameter."""
        return (
            len(self.alternatives) > 1
            or self.shapes is not None
            or any(alias_groups(types, self.shapes) for types in self.types)
        )

    def call_args(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        """The positional arguments for one example's values (defaults fill the gaps)."""
        return tuple(values[n] if n in values else self.defaults[n] for n in self.positional)


# --- strategies from types -----------------------------------------------------------------


def for_type(t: T.Type) -> st.SearchStrategy[Any]:
    """Values of the IR type `t`, within the compiled domain."""
    if isinstance(t, T.Scalar):
        return scalars(t.dtype, as_python=t in (T.I64, T.F64, T.BOOL, T.C128))
    if isinstance(t, T.Tuple):
        return st.tuples(*(for_type(item) for item in t.items))
    if isinstance(t, T.NoneType):
        return st.none()
    if isinstance(t, T.Array):
        return arrays(t.dtype.dtype, t.ndim, t.layout)
    raise Underivable(f"jitcheck cannot generate values of type {t}")


def scalars(dtype: Any, *, as_python: bool = False) -> st.SearchStrategy[Any]:
    """Scalars of `dtype`: NumPy scalars, or Python numbers when `as_python` (int, float...)."""
    dt = np.dtype(dtype)
    elements = elements_of(dt)
    if as_python:
        return elements
    return elements.map(dt.type)


def elements_of(dtype: Any, *, in_array: bool = False) -> st.SearchStrategy[Any]:
    """Python numbers that `dtype` holds exactly, biased towards the corners compiled code
    gets wrong (`jitcheck.corners`): floats near overflow and underflow, subnormals, large
    arguments of periodic functions. Int parameters are bounded by `INT_BOUND` (they often
    count loop iterations or size allocations); ints in arrays (`in_array`) reach the limits
    of their dtype, 2**24 and 2**53."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return st.booleans()
    if dt.kind in "iu":
        info = np.iinfo(dt)
        if in_array:
            return corner_ints(int(info.min), int(info.max))
        return st.integers(max(int(info.min), -INT_BOUND), min(int(info.max), INT_BOUND))
    if dt.kind == "f":
        if dt.itemsize in (4, 8):  # half at the corners, half ordinary magnitudes
            width: Literal[32, 64] = 32 if dt.itemsize == 4 else 64
            return st.one_of(corner_floats(width), st.floats(-1e3, 1e3, width=width))
        return st.floats(width=8 * dt.itemsize)
    if dt.kind == "c":
        return st.complex_numbers(width=8 * dt.itemsize)
    raise Underivable(f"jitcheck cannot generate elements of dtype {dt}")


def arrays(
    dtype: Any,
    ndim: int,
    layout: str = "A",
    *,
    max_size: int = ARRAY_BUDGET,
    elements: st.SearchStrategy[Any] | None = None,
) -> st.SearchStrategy[np.ndarray]:
    """Arrays of `dtype` and `ndim` with random shapes (empty ones too) of at most about
    `max_size` elements. Layout "C" or "F" gives contiguous arrays of that order; "A" mixes
    C order, Fortran order and non-contiguous strided views (negative strides included).

        @jitcheck(a=arrays(np.float64, 2, "C", max_size=100))
    """
    dt = np.dtype(dtype)
    choices = _element_choices(dt, elements)
    side = max(1, math.ceil(max_size ** (1 / ndim))) if ndim else 1
    shapes = hnp.array_shapes(min_dims=ndim, max_dims=ndim, min_side=0, max_side=side)
    kinds = {"C": ("C",), "F": ("F",), "A": ("C", "F", "strided")}[layout]
    return st.tuples(shapes, st.sampled_from(kinds), choices).flatmap(
        lambda pick: _arrays_of(dt, pick[0], pick[1], pick[2])
    )


def _element_choices(
    dt: np.dtype, elements: st.SearchStrategy[Any] | None
) -> st.SearchStrategy[st.SearchStrategy[Any]]:
    """The element strategy of one array. Default float elements are finite in about half
    the arrays (what shrinking prefers): one NaN among 64 elements makes every sum and
    product NaN in Python and compiled code alike, which would hide a wrong accumulator."""
    if elements is not None:
        return st.just(elements)
    if dt.kind == "f" and dt.itemsize in (4, 8):
        width: Literal[32, 64] = 32 if dt.itemsize == 4 else 64
        finite = st.one_of(
            corner_floats(width, finite_only=True),
            st.floats(-1e3, 1e3, width=width),
        )
        return st.sampled_from((finite, elements_of(dt, in_array=True)))
    return st.just(elements_of(dt, in_array=True))


def _arrays_of(
    dt: np.dtype, shape: tuple[int, ...], kind: str, elems: st.SearchStrategy[Any]
) -> st.SearchStrategy[np.ndarray]:
    if kind != "strided" or not shape:
        contiguous = np.asfortranarray if kind == "F" else np.ascontiguousarray
        return hnp.arrays(dt, shape, elements=elems).map(contiguous)
    steps = st.tuples(*(st.sampled_from((2, -1, -2)) for _ in shape))
    return steps.flatmap(
        lambda s: hnp.arrays(dt, tuple(n * abs(k) for n, k in zip(shape, s)), elements=elems).map(
            lambda base: base[tuple(slice(None, None, k) for k in s)]
        )
    )


# --- coupled shapes ------------------------------------------------------------------------


def coupled(
    shapes: ShapeSpec,
    types: Mapping[str, T.Type],
    others: Mapping[str, st.SearchStrategy[Any]],
    elements: Mapping[str, st.SearchStrategy[Any]] | None = None,
) -> st.SearchStrategy[dict[str, Any]]:
    """Whole examples: the named dimensions drawn once, then each array of `shapes` with its
    dimensions (dtype and layout from `types`, elements from `elements` where given), and
    every other parameter from `others`."""
    bounds = shapes.bounds(ARRAY_BUDGET)
    sizes = st.fixed_dictionaries({d: st.integers(0, b) for d, b in sorted(bounds.items())})

    def arrays_for(drawn: dict[str, int]) -> st.SearchStrategy[dict[str, Any]]:
        parts = dict(others)
        for name, dims in shapes.dims.items():
            t = types[name]
            assert isinstance(t, T.Array)
            shape = tuple(drawn[d] if isinstance(d, str) else d for d in dims)
            parts[name] = _laid_out(t, shape, (elements or {}).get(name))
        return st.fixed_dictionaries(parts)

    return sizes.flatmap(arrays_for)


def _laid_out(
    t: T.Array, shape: tuple[int, ...], elements: st.SearchStrategy[Any] | None = None
) -> st.SearchStrategy[np.ndarray]:
    """Arrays of type `t` and exactly `shape`, in each layout `t` allows."""
    kinds = {"C": ("C",), "F": ("F",), "A": ("C", "F", "strided")}[t.layout]
    dt = np.dtype(t.dtype.dtype)
    choices = _element_choices(dt, elements)
    return st.tuples(st.sampled_from(kinds), choices).flatmap(
        lambda pick: _arrays_of(dt, shape, pick[0], pick[1])
    )


def _check_shapes(
    func: Callable[..., Any], shapes: ShapeSpec, types: Mapping[str, T.Type]
) -> None:
    """Every parameter of `shapes` is an array of as many dimensions as it is given."""
    for name, dims in shapes.dims.items():
        t = types.get(name)
        if t is None:
            raise Underivable(
                f"@jitcheck(shapes=...) names `{name}`, which `{func.__name__}` has no type "
                "for (annotate it as an array, or drop it from shapes)"
            )
        if not isinstance(t, T.Array):
            raise Underivable(f"@jitcheck(shapes=...) gives a shape to `{name}`, of type {t}")
        if t.ndim != len(dims):
            raise Underivable(
                f"@jitcheck(shapes=...) gives `{name}` {len(dims)} dimension(s), but it is {t}"
            )


# --- types from annotations and signatures -------------------------------------------------


def type_from_annotation(annotation: Any, ndim: int | None = None) -> T.Type:
    """The IR type an annotation stands for; Underivable if it names none."""
    if isinstance(annotation, ArraySpec):
        return T.Array(T.from_dtype(annotation.dtype), annotation.ndim, annotation.layout)  # type: ignore[arg-type]
    if isinstance(annotation, T.Type):
        return annotation
    if annotation in _PY_TYPES:
        return _PY_TYPES[annotation]
    if isinstance(annotation, type) and issubclass(annotation, np.generic):
        return _from_dtype(annotation)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is tuple and args and Ellipsis not in args:
        return T.Tuple(tuple(type_from_annotation(a) for a in args))
    if origin is np.ndarray:
        return T.Array(_ndarray_dtype(args), DEFAULT_NDIM if ndim is None else ndim, "A")
    if isinstance(annotation, str):
        raise Underivable(f"its annotation {annotation!r} could not be evaluated")
    raise Underivable(f"its annotation {_name(annotation)} is not one jitcheck can generate")


def _ndarray_dtype(args: tuple[Any, ...]) -> T.Scalar:
    """The element type of `NDArray[dtype]` (`np.ndarray[shape, np.dtype[dtype]]`)."""
    dtype_args = typing.get_args(args[1]) if len(args) == 2 else ()
    scalar = dtype_args[0] if dtype_args else None
    if not (isinstance(scalar, type) and issubclass(scalar, np.generic)):
        raise Underivable("its NDArray annotation has no concrete dtype (use NDArray[np.float64])")
    return _from_dtype(scalar)


def _from_dtype(dtype: Any) -> T.Scalar:
    try:
        return T.from_dtype(dtype)
    except TypeError:
        raise Underivable(f"jitcore has no type for dtype {np.dtype(dtype)}") from None


def _name(annotation: Any) -> str:
    return getattr(annotation, "__qualname__", None) or repr(annotation)


# --- deriving a plan -----------------------------------------------------------------------


def derive_plan(
    dispatcher: Any,
    strategies: Mapping[str, st.SearchStrategy[Any]],
    ndim: Mapping[str, int],
    shapes: ShapeSpec | None = None,
) -> InputPlan:
    """How to generate arguments for `dispatcher`; Underivable says why it cannot."""
    func = dispatcher.py_func
    params = _parameters(func)
    unknown = set(strategies) - {p.name for p in params}
    if unknown:
        raise Underivable(
            f"@jitcheck gives strategies for {_names(unknown)}, but {func.__name__} has no "
            f"such parameter (it has {_names(p.name for p in params)})"
        )
    # with shapes, a strategy given for a shaped array draws its elements
    elements = {n: s for n, s in strategies.items() if shapes is not None and n in shapes.dims}
    bad = [n for n, s in elements.items() if not isinstance(s, st.SearchStrategy)]
    if bad:
        raise Underivable(
            f"@jitcheck gives {_names(bad)} a shape, so its strategy must draw the array's "
            "elements (a Hypothesis strategy such as st.floats(-1e3, 1e3))"
        )
    strategies = {n: s for n, s in strategies.items() if n not in elements}
    required = [p.name for p in params if p.default is inspect.Parameter.empty]
    rest = [p.name for p in params if p.name not in strategies]
    needed = [n for n in required if n not in strategies]
    typed, source = _typed_alternatives(dispatcher, rest, needed, ndim)
    missing = [n for n in needed if not typed]
    if missing:
        raise Underivable(
            f"cannot derive inputs for `{func.__name__}`: {_missing_reason(func, missing, ndim)}"
            f"; {HOW_TO}"
        )
    generated = [
        p.name
        for p in params
        if p.name in strategies or (typed and all(p.name in t for t in typed))
    ]
    alternatives = tuple(
        {n: strategies[n] if n in strategies else for_type(types[n]) for n in generated}
        for types in (typed or [{}])
    )
    if shapes is not None:
        for types in typed or [{}]:
            _check_shapes(func, shapes, types)
    last = max(i for i, p in enumerate(params) if p.name in generated) if generated else -1
    return InputPlan(
        params=tuple(generated),
        positional=tuple(p.name for p in params[: last + 1]),
        defaults={p.name: p.default for p in params if p.default is not inspect.Parameter.empty},
        alternatives=alternatives,
        types=tuple({n: t for n, t in types.items() if n in generated} for types in typed),
        source=_describe_source(strategies, source) + (f"; shapes {shapes}" if shapes else ""),
        shapes=shapes,
        elements=elements,
    )


def example_strategy(plan: InputPlan, index: int) -> st.SearchStrategy[dict[str, Any]]:
    """Whole examples (a dict of every generated parameter) of alternative `index`; where
    several array parameters have one type, some examples alias them (`aliased`)."""
    strategies = plan.alternatives[index]
    if plan.shapes is None:
        whole = st.fixed_dictionaries(dict(strategies))
    else:
        others = {n: s for n, s in strategies.items() if n not in plan.shapes.dims}
        whole = coupled(plan.shapes, plan.types[index], others, plan.elements)
    types = plan.types[index] if index < len(plan.types) else {}
    groups = [[n for n in g if n in strategies] for g in alias_groups(types, plan.shapes)]
    groups = [g for g in groups if len(g) >= 2]
    return aliased(whole, groups) if groups else whole


# --- aliasing and permuted arguments ---------------------------------------------------------
# Compiled code that assumes two array arguments do not overlap (store-to-load forwarding,
# vectorized loops) is wrong exactly when they do; a kernel that swaps two operands of one
# type is wrong exactly when their values differ in order. Examples of functions with several
# array parameters of one type therefore sometimes pass the same array twice or overlapping
# views of one buffer, and sometimes permute the arrays among those parameters.


def alias_groups(types: Mapping[str, T.Type], shapes: ShapeSpec | None) -> list[list[str]]:
    """The parameters that could alias: array parameters of one dtype and ndim whose coupled
    shapes are the same (`shapes="a:(n,) b:(n,)"`), two or more; not Fortran-only ones (an
    overlapping view is made along the first axis of C memory). Arrays drawn with
    independent shapes rarely fit together, so they are not aliased either."""
    if shapes is None:
        return []
    by_type: dict[tuple[Any, ...], list[str]] = {}
    for name, t in types.items():
        dims = shapes.dims.get(name)
        if isinstance(t, T.Array) and t.ndim >= 1 and t.layout != "F" and dims is not None:
            by_type.setdefault((t.dtype, t.ndim, dims), []).append(name)
    return [names for names in by_type.values() if len(names) >= 2]


def aliased(
    whole: st.SearchStrategy[dict[str, Any]], groups: list[list[str]]
) -> st.SearchStrategy[dict[str, Any]]:
    """Examples of `whole`, in which for each group of same-typed array parameters a drawn
    choice keeps them apart (what shrinking goes back to), passes the first array as the
    second too, makes the two overlapping views of one buffer (shifted by one row), or
    permutes the arrays among the parameters. The choice is drawn first, so the shrinker
    tries "apart" before it simplifies the arrays."""
    kinds = st.sampled_from((0, 1, 2, 3))  # apart, same, overlapping, permuted
    choices = st.tuples(*(st.tuples(kinds, st.permutations(g)) for g in groups))
    return st.tuples(choices, whole).map(lambda drawn: _apply_aliasing(drawn[1], drawn[0], groups))


def _apply_aliasing(
    values: dict[str, Any], choices: tuple[tuple[int, list[str]], ...], groups: list[list[str]]
) -> dict[str, Any]:
    values = dict(values)
    for group, (kind, order) in zip(groups, choices):
        first, second = group[0], group[1]
        if kind == 1:
            values[second] = values[first]
        elif kind == 2:
            values[first], values[second] = overlapping(values[first])
        elif kind == 3:
            arrays = [values[n] for n in order]
            values.update(zip(group, arrays))
    return values


def same_array_variant(plan: InputPlan, values: Mapping[str, Any]) -> dict[str, Any] | None:
    """The example `values` with the second array of the first aliasable group replaced by
    the first (the same array passed twice), or None when there is no such group or the
    example already shares memory there. The check runs every example also in this form: a
    drawn choice alone reaches it in only some examples, and often with NaN or empty
    arrays, where a wrongly forwarded value cannot show."""
    if len(plan.types) != 1:
        return None
    for group in alias_groups(plan.types[0], plan.shapes):
        first, second = (values.get(n) for n in group[:2])
        if not (isinstance(first, np.ndarray) and isinstance(second, np.ndarray)):
            continue
        if first.size == 0 or np.shares_memory(first, second):
            continue
        return {**values, group[1]: first}
    return None


def overlapping(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two views of one new C-ordered buffer with `a`'s shape, the second starting one row
    (one element, for a vector) after the first: they share all rows but one."""
    base = np.empty((a.shape[0] + 1, *a.shape[1:]), dtype=a.dtype)
    base[:-1] = a
    base[-1:] = a[-1:] if a.shape[0] else 0
    return base[:-1], base[1:]


def _parameters(func: Callable[..., Any]) -> list[inspect.Parameter]:
    params = list(inspect.signature(func).parameters.values())
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.KEYWORD_ONLY):
            raise Underivable(
                f"`{func.__name__}` has a {p.kind.description} parameter `{p.name}`; "
                "jitcore compiles positional parameters only"
            )
    return params


def _typed_alternatives(
    dispatcher: Any, names: list[str], needed: list[str], ndim: Mapping[str, int]
) -> tuple[list[dict[str, T.Type]], str]:
    """Types for `names` from the first source that types every `needed` one: jit signatures,
    annotations, compiled signatures. Each alternative maps the parameters it types."""
    all_names = [p.name for p in _parameters(dispatcher.py_func)]
    annotated = _annotated(dispatcher.py_func, names, ndim)
    sources = (
        ("jit signatures", lambda: [parse_signature(s) for s in dispatcher.options.signatures]),
        ("annotations", lambda: [annotated] if annotated else []),
        ("compiled signatures", lambda: list(dispatcher.signatures)),
    )
    for source, alternatives in sources:
        typed = [
            alt if isinstance(alt, dict) else _by_name(all_names, alt, names)
            for alt in alternatives()
        ]
        if typed and all(n in alt for alt in typed for n in needed):
            return typed, source
    return [], ""


def _by_name(
    all_names: list[str], sig: tuple[T.Type, ...], wanted: list[str]
) -> dict[str, T.Type]:
    return {n: t for n, t in zip(all_names, sig) if n in wanted}


def _annotated(func: Callable[..., Any], names: list[str], ndim: Mapping[str, int]) -> dict:
    hints = _annotations(func)
    out: dict[str, T.Type] = {}
    for name in names:
        if name in hints:
            try:
                out[name] = type_from_annotation(hints[name], ndim.get(name))
            except Underivable:
                continue
    return out


def _annotations(func: Callable[..., Any]) -> dict[str, Any]:
    """The function's parameter annotations, evaluated where possible (PEP 563 strings)."""
    try:
        return dict(inspect.get_annotations(func, eval_str=True))
    except Exception:  # noqa: BLE001 - any failure to evaluate leaves the raw strings
        return dict(inspect.get_annotations(func))


def _missing_reason(func: Callable[..., Any], missing: list[str], ndim: Mapping[str, int]) -> str:
    """What is wrong with each parameter no source types (annotated ones are fine)."""
    hints = _annotations(func)
    reasons = []
    for name in missing:
        if name not in hints:
            reasons.append(f"parameter `{name}` has no annotation")
            continue
        try:
            type_from_annotation(hints[name], ndim.get(name))
        except Underivable as exc:
            reasons.append(f"parameter `{name}`: {exc}")
    return "; ".join(reasons)


def _describe_source(strategies: Mapping[str, Any], typed_source: str) -> str:
    parts = (["@jitcheck strategies"] if strategies else []) + (
        [typed_source] if typed_source else []
    )
    return " + ".join(parts)


def _names(names: Any) -> str:
    return ", ".join(f"`{n}`" for n in sorted(names))


# --- the timing input ----------------------------------------------------------------------


def timing_input(
    plan: InputPlan, explicit: Mapping[str, Any], elements: int = BENCH_ELEMENTS
) -> tuple[Any, ...]:
    """A deterministic, representative argument tuple for timing (the same on every run, so
    speedups compare across runs): typed parameters get `representative` values with arrays
    of about `elements` elements, the ones with explicit strategies the largest of a
    fixed-seed sample of their strategy."""
    types = plan.types[0] if plan.types else {}
    rng = np.random.default_rng(0)
    sizes = _timing_sizes(plan.shapes, elements) if plan.shapes else {}
    values = {}
    for name in plan.params:
        if plan.shapes and name in plan.shapes.dims:
            t = types[name]
            assert isinstance(t, T.Array)
            shape = tuple(sizes[d] if isinstance(d, str) else d for d in plan.shapes.dims[name])
            data = _random_elements(t.dtype.dtype, shape, rng)
            values[name] = np.asfortranarray(data) if t.layout == "F" else data
        elif name in types and name not in explicit:
            values[name] = representative(types[name], rng, elements)
        else:
            values[name] = _largest_draw(plan.alternatives[0][name])
    return plan.call_args(values)


def _timing_sizes(shapes: ShapeSpec, elements: int) -> dict[str, int]:
    """Named dimensions of the timing input: all the same size, so that the array with most
    named dimensions has about `elements` elements (as `representative` sizes arrays)."""
    most = max(sum(isinstance(d, str) for d in dims) for dims in shapes.dims.values())
    side = max(1, round(elements ** (1 / max(most, 1))))
    return {d: side for dims in shapes.dims.values() for d in dims if isinstance(d, str)}


def representative(t: T.Type, rng: np.random.Generator, elements: int = BENCH_ELEMENTS) -> Any:
    """A typical value of `t` for timing: arrays of about `elements` finite elements, ints
    `BENCH_INT` (the largest the differential check tried), floats in [0.5, 2)."""
    if isinstance(t, T.Tuple):
        return tuple(representative(item, rng, elements) for item in t.items)
    if isinstance(t, T.NoneType):
        return None
    if isinstance(t, T.Array):
        side = max(1, round(elements ** (1 / t.ndim))) if t.ndim else 1
        data = _random_elements(t.dtype.dtype, (side,) * t.ndim, rng)
        return np.asfortranarray(data) if t.layout == "F" else data
    if not isinstance(t, T.Scalar):
        raise Underivable(f"jitcheck cannot build a timing value of type {t}")
    value = _random_elements(t.dtype, (), rng)[()]
    if t in (T.I64, T.F64, T.BOOL, T.C128):
        return value.item()
    return value


def _random_elements(dtype: np.dtype, shape: tuple[int, ...], rng: np.random.Generator) -> Any:
    if dtype.kind == "b":
        return np.ones(shape, dtype) if not shape else rng.random(shape) < 0.5
    if dtype.kind in "iu":
        if not shape:
            return np.array(min(BENCH_INT, int(np.iinfo(dtype).max)), dtype)
        return rng.integers(0, 100, shape).astype(dtype)
    real = rng.uniform(0.5, 2.0, shape)
    if dtype.kind == "c":
        real = real + 1j * rng.uniform(0.5, 2.0, shape)
    return np.asarray(real, dtype)


def _largest_draw(strategy: st.SearchStrategy[Any], samples: int = 20) -> Any:
    """The largest of the first `samples` values a fixed-seed Hypothesis run draws."""
    from hypothesis import Phase, given, seed, settings

    drawn: list[Any] = []

    @seed(0)
    @settings(database=None, max_examples=samples, phases=[Phase.generate], deadline=None)
    @given(strategy)
    def sample(value: Any) -> None:
        drawn.append(value)

    sample()
    return max(drawn, key=_size)


def _size(value: Any) -> float:
    """How much work a value probably means: elements of arrays, magnitude of ints."""
    if isinstance(value, np.ndarray):
        return float(value.size)
    if isinstance(value, tuple):
        return sum(_size(v) for v in value)
    if isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_):
        return float(abs(int(value)))
    return 0.0
