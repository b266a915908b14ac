"""The listing of supported operations, the README generated from it, and a differential test of
every listed function and method against Python.

For each function or method of `jitcore.supported()` whose arguments are numbers or arrays, a
one-line wrapper (`def op(a0, a1): return np.hypot(a0, a1)`) is compiled (`mode=COMPILED`, so
nothing falls back to Python) and compared with the same wrapper run by Python on inputs that
Hypothesis draws from the argument kinds the listing declares: ints (int64 edges included),
floats (NaN, infinities, signed zeros, subnormals), complex numbers, bools, small arrays of
several dtypes. The comparison is jitcheck's (`jitcheck.compare`): same exception type or
equivalent values, and the documented differences (README, "deliberate differences") are out
of the compiled domain, not failures.

Each operation runs under a few *type profiles* (all ints, all floats, float arrays, ...), each
one a compiled specialization. The `dev`/`ci` Hypothesis profiles run the first two that
apply and a handful of examples each; `thorough` runs every profile with many more examples.
What the generic test cannot drive is in `SKIP`, each with its reason.
"""

from __future__ import annotations

import cmath
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jitcore
from jitcheck.compare import assert_equivalent, out_of_domain_error, out_of_domain_result
from jitcheck.execute import invoke
from jitcheck.library import seeding
from jitcore import ExecutionMode, jit
from jitcore.lib import catalog
from jitcore.lib.registry import ARG_KINDS, Entry, Param
from tests.jitcore.support import assert_ran_compiled, function_from_source

ROOT = Path(__file__).resolve().parents[2]

# --- the listing and the README ------------------------------------------------------------


def test_supported_is_exported_and_lists_each_kind() -> None:
    listing = jitcore.supported()
    names = {e.name: e for e in listing}
    assert {"math.sin", "np.sum", "abs", "ndarray.sum", "+", "ndarray.shape"} <= set(names)
    assert {e.kind for e in listing} == {"function", "method", "operator", "attribute"}
    assert names["math.log"].signature == "math.log(x: real, base?: real)"
    assert names["np.abs"].obj is np.abs


def test_every_listed_kind_is_known_and_described() -> None:
    for entry in jitcore.supported():
        for form in entry.forms:
            for param in form:
                assert set(param.kinds) <= set(ARG_KINDS), entry.name


def test_every_function_and_method_declares_its_arguments() -> None:
    """A rule registered without `params` would be listed as taking no arguments."""
    takes_no_arguments = {"ndarray.copy", "ndarray.nonzero", "dict"}
    takes_no_arguments |= {"dict.keys", "dict.values", "dict.items"}
    takes_no_arguments |= {"list.clear", "list.copy", "list.reverse"}
    takes_no_arguments |= {"ndarray.ravel", "ndarray.flatten"}
    takes_no_arguments |= {"Scalar.conjugate", "Scalar.conj"}
    takes_no_arguments |= {
        f"str.{m}"
        for m in (
            "upper lower casefold capitalize title swapcase isdigit isalpha isspace isalnum "
            "isupper islower isdecimal isnumeric istitle isidentifier isascii isprintable"
        ).split()
    }
    for entry in jitcore.supported():
        if entry.kind in ("function", "method") and entry.name not in takes_no_arguments:
            assert any(entry.forms[0]), f"{entry.name} is registered without params="


def test_readme_tables_are_generated_from_the_listing() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    expected = catalog.markdown()
    actual = catalog.readme_region(readme)
    assert actual == expected, (
        "README.md's supported-operations tables differ from jitcore.supported(); "
        f"regenerate them with `{catalog.REGENERATE}`"
    )


# --- the differential test -----------------------------------------------------------------

# What the generic test cannot drive, with the reason (reviewed: each is covered elsewhere or
# cannot be compared generically).
_CONTAINERS_TESTED = "dicts and sets: tests/jitcore/e2e/test_dicts.py and test_sets.py"
_GENERATOR_DISTRIBUTIONS = (
    "normal standard_normal exponential standard_exponential standard_cauchy standard_gamma "
    "gamma beta chisquare f noncentral_chisquare noncentral_f standard_t vonmises pareto "
    "weibull power laplace gumbel logistic lognormal rayleigh wald triangular geometric "
    "logseries zipf negative_binomial hypergeometric"
).split()
SKIP: dict[str, str] = {
    **{
        name: _CONTAINERS_TESTED
        for name in (
            "dict set dict.get dict.pop dict.setdefault dict.keys dict.values dict.items "
            "set.add set.discard set.remove"
        ).split()
    },
    "slice": "builds a slice object for indexing; tests/jitcore/e2e/test_arrays.py slices",
    "len": "of tuples and arrays only: the e2e tests call it on both",
    "range": "only in `for` loops (tests/jitcore/e2e/test_control_flow.py)",
    "sum": "over lists: tests/jitcore/e2e/test_lists.py",
    "sorted": "over lists: tests/jitcore/e2e/test_lists.py",
    "list": "tests/jitcore/e2e/test_lists.py",
    "bool": "`bool(x)` is the truth operator, covered by the control-flow tests",
    "float": "float(s) of strings is in tests/jitcore/lib/test_strmethods.py (the generic "
    "test draws no strings); float(x) of numbers is a cast the number tests cover",
    "ord": "takes a one-character string, which the generic test does not draw; "
    "tests/jitcore/lib/test_strmethods.py",
    "np.bincount": "a drawn value asks Python for any amount of memory (int32 values up to "
    "2**31: 16 GiB on each side, one CI worker reached 14 GiB); tests/jitcore/lib/"
    "test_npstats.py draws bounded counts",
    "np.empty": "the contents are uninitialized, so there is nothing to compare",
    "np.empty_like": "the contents are uninitialized, so there is nothing to compare",
    "np.arange": "Python would allocate whatever a drawn range asks for (1e300 elements); "
    "tests/jitcore/e2e/test_arrays.py checks arange on bounded ranges",
    "np.linspace": "`num` must stay small for the same reason; covered by the array tests",
    "ndarray.astype": "takes a constant dtype, not a drawn value; covered by the array tests",
    "np.zeros": "takes a shape (a drawn shape would ask Python for any amount of memory); "
    "tests/jitcore/e2e/test_arrays.py creates arrays",
    "np.ones": "takes a shape, as np.zeros",
    "np.full": "takes a shape, as np.zeros",
    "np.iinfo": "takes a constant dtype; tests/jitcore/e2e/test_small_things.py reads its "
    "attributes",
    "np.finfo": "takes a constant dtype, as np.iinfo",
    "np.reshape": "takes a shape that must fit the array's size; tests/jitcore/e2e/"
    "test_shapes.py reshapes",
    "ndarray.reshape": "takes a shape, as np.reshape",
    "np.broadcast_to": "takes a shape, as np.reshape",
    "np.tile": "takes repetitions per axis (a drawn int asks Python for any amount of memory); "
    "tests/jitcore/e2e/test_joining.py tiles",
    "np.repeat": "repeats, as np.tile",
    "np.eye": "takes a shape, as np.zeros; tests/jitcore/e2e/test_creation.py",
    "np.identity": "takes a shape, as np.zeros",
    "np.tri": "takes a shape, as np.zeros",
    "np.diag": "of a drawn k, Python would allocate (k, k); tests/jitcore/e2e/test_creation.py",
    "np.diagflat": "k, as np.diag",
    "np.concatenate": "takes a tuple of arrays; tests/jitcore/e2e/test_joining.py",
    "np.stack": "takes a tuple of arrays, as np.concatenate",
    "np.vstack": "takes a tuple of arrays, as np.concatenate",
    "np.hstack": "takes a tuple of arrays, as np.concatenate",
    "np.column_stack": "takes a tuple of arrays, as np.concatenate",
    "np.dstack": "takes a tuple of arrays, as np.concatenate",
    "np.transpose": "takes constant axes; tests/jitcore/e2e/test_shapes.py",
    "ndarray.transpose": "takes constant axes, as np.transpose",
    "np.swapaxes": "takes constant axes, as np.transpose",
    "ndarray.swapaxes": "takes constant axes, as np.transpose",
    "np.moveaxis": "takes constant axes, as np.transpose",
    "isinstance": "takes constant classes; tests/jitcore/test_liveblocks.py",
    "print": "writes to stdout, returns None; tests/jitcore/e2e/test_print.py",
    "np.logspace": "`num` must stay small (a drawn num asks Python for any amount of memory), "
    "as np.linspace; tests/jitcore/lib/test_npmore.py draws small counts",
    "np.geomspace": "`num`, as np.logspace",
    "np.vander": "a drawn N asks Python for any amount of memory ((len(x), N) items), as "
    "np.tile; tests/jitcore/lib/test_npmore.py draws small N",
    "Scalar.conjugate": "a method of numbers: the generic test draws array receivers; "
    "tests/jitcore/lib/test_npmore.py",
    "Scalar.conj": "a method of numbers, as Scalar.conjugate",
    "np.select": "takes lists or tuples of arrays, which the generic test does not draw; "
    "tests/jitcore/lib/test_npselect.py",
    "np.unravel_index": "takes a shape, which the generic test does not draw; "
    "tests/jitcore/lib/test_npselect.py",
    "np.ravel_multi_index": "takes a tuple of coordinates and a shape; "
    "tests/jitcore/lib/test_npselect.py",
    "np.argsort": "equal keys may come in another order than NumPy's quicksort (documented); "
    "kind='stable' is checked in tests/jitcore/lib/test_npsort.py",
    "ndarray.argsort": "equal keys, as np.argsort",
    "np.squeeze": "takes constant axes, as np.transpose",
    "ndarray.squeeze": "takes constant axes, as np.transpose",
    "np.expand_dims": "takes constant axes, as np.transpose",
    "np.ndindex": "only as the iterable of a `for` loop (tests/jitcore/e2e/test_shapes.py)",
    "np.nditer": "only as the iterable of a `for` loop (tests/jitcore/e2e/test_shapes.py)",
    "np.random.rand": "takes the shape as ints: a drawn one asks Python for any amount of "
    "memory; tests/jitcore/lib/test_nprandom.py draws sizes",
    "np.random.randn": "takes the shape, as np.random.rand",
    "np.random.permutation": "of an int, np.arange of a drawn int, as np.arange; "
    "tests/jitcore/lib/test_nprandom.py",
    "np.random.default_rng": "a Generator cannot be returned to Python: "
    "tests/jitcore/lib/test_nprandomrng.py draws from it",
    **{
        f"Generator.{name}": "a method of a np.random.Generator argument: "
        "tests/jitcore/lib/test_nprandomgen.py"
        for name in ("random uniform integers choice shuffle permutation poisson binomial".split())
    },
    **{
        f"Generator.{name}": "a method of a np.random.Generator argument: "
        "tests/jitcore/lib/test_nprandomgd.py"
        for name in _GENERATOR_DISTRIBUTIONS
    },
}

# Differences the generic test found and that are not fixed yet: expected to fail (not
# strictly: an unlucky draw may miss the example). Each is a jitcore bug to fix, or a deviation
# to document in the README; remove the entry when it is done.
_COMPLEX_SPECIAL = (
    "special values (infinite or NaN parts, overflow of intermediate results) differ from "
    "CPython's cmath tables"
)
_LIST_METHODS = ("append", "pop", "insert", "clear", "extend", "copy", "index", "count")
SKIP.update(
    {
        f"list.{m}": "tests/jitcore/e2e/test_lists.py (the generic test draws no lists)"
        for m in (*_LIST_METHODS, "remove", "reverse", "sort")
    }
)
_LAPACK = (
    "inv det slogdet solve cholesky eigh eigvalsh eig eigvals svd qr lstsq pinv matrix_rank"
).split()
SKIP.update(
    {
        f"np.linalg.{f}": "takes 2-D (mostly square, Hermitian or definite) matrices, the "
        "drawn arrays are 1-D: tests/jitcore/lib/test_lapack.py draws matrices"
        for f in _LAPACK
    }
)
SKIP.update(
    {
        e.name: "a method of strings: the generic test draws array receivers; "
        "tests/jitcore/lib/test_strmethods.py"
        for e in jitcore.supported()
        if e.name.startswith("str.")
    }
)
SKIP.update(
    {
        f"np.linalg.{f}": "takes square matrices (or stacks of them), the drawn arrays are "
        "1-D: tests/jitcore/lib/test_npextra.py draws matrices"
        for f in ("matrix_power", "cond")
    }
)

KNOWN_BUGS: dict[str, str] = {
    "np.where(float, float, float)": "returns a scalar where NumPy returns a 0-d array",
    "np.where(int, int, int)": "returns a scalar where NumPy returns a 0-d array",
    "pow(complex, complex)": _COMPLEX_SPECIAL,
    "np.gcd(bool, bool)": "NumPy has no bool loop: a compile-time TypingError in jitcore, "
    "UFuncTypeError when NumPy runs the call",
    "np.lcm(bool, bool)": "as np.gcd(bool, bool)",
    "np.histogram(float32)": "documented: float32 edges are computed in float64 and rounded "
    "(NumPy computes them in float32; a few ULPs apart)",
    "np.cross": "documented: two 2-vectors (a 0-d result in NumPy) raise ValueError",
    "cmath.sqrt": _COMPLEX_SPECIAL,
    "cmath.exp": _COMPLEX_SPECIAL,
    "cmath.log": _COMPLEX_SPECIAL,
    "cmath.rect": _COMPLEX_SPECIAL,
    "cmath.polar": _COMPLEX_SPECIAL,
    "cmath.phase": _COMPLEX_SPECIAL,
}

# Arguments that must stay small so that Python itself finishes (pow(2, 2**62)).
# (and where NumPy would allocate per unit of a drawn int: the splits make that many views,
# tril/triu_indices an n x n mask)
SMALL_INT_OPS = {
    "pow",
    "round",
    "math.factorial",
    "math.gcd",
    "math.ldexp",
    "np.split",
    "np.array_split",
    "np.hsplit",
    "np.vsplit",
    "np.dsplit",
    "np.tril_indices",
    "np.triu_indices",
}
DRAWABLE = {"bool", "int", "float", "real", "complex", "number", "array", "intarray"}


@dataclass(frozen=True)
class Profile:
    """The concrete type each argument gets: a scalar kind or an array dtype."""

    name: str
    scalar: str | None  # "int", "float", "bool", "complex", or None (no scalars)
    array: str | None  # a NumPy dtype name for array parameters, or None (no arrays)
    ndim: int = 1


PROFILES = (
    Profile("float", "float", None),
    Profile("int", "int", None),
    Profile("float64 array", "float", "float64"),
    Profile("int64 array", "int", "int64"),
    Profile("complex", "complex", None),
    Profile("bool", "bool", None),
    Profile("float32 array", "float", "float32"),
    Profile("bool array", "bool", "bool"),
    Profile("complex128 array", "complex", "complex128"),
    Profile("2-d float64 array", "float", "float64", ndim=2),
    Profile("int32 array", "int", "int32"),
)
_SCALAR_ACCEPTED = {
    "int": {"int", "real", "number"},
    "float": {"float", "real", "number"},
    "bool": {"bool", "int", "real", "number"},
    "complex": {"complex", "number"},
}


def _profile_types(form: tuple[Param, ...], profile: Profile) -> tuple[str, ...] | None:
    """Each parameter's concrete type under `profile` ("scalar:float", "array:int64"), or None
    if a required parameter cannot take it. Optional non-numeric parameters are left out."""
    types: list[str] = []
    arrays = 0
    for p in form:
        kinds = set(p.kinds)
        scalar_ok = profile.scalar is not None and kinds & _SCALAR_ACCEPTED[profile.scalar]
        array_ok = profile.array is not None and _array_accepted(kinds, profile)
        if array_ok:
            types.append(f"array:{profile.array}")
            arrays += 1
        elif scalar_ok:
            types.append(f"scalar:{profile.scalar}")
        elif p.optional or p.variadic:
            break
        else:
            return None
    if profile.array is not None and arrays == 0:
        return None  # an array profile must pass an array
    return tuple(types)


def _array_accepted(kinds: set[str], profile: Profile) -> bool:
    dtype = np.dtype(profile.array)
    if dtype.kind == "c":
        return "array" in kinds and bool(kinds & {"complex", "number"})
    if "intarray" in kinds:
        return dtype.kind in "biu"
    return "array" in kinds


@dataclass(frozen=True)
class Case:
    entry: Entry
    form: tuple[Param, ...]
    types: tuple[str, ...]
    profile: Profile

    @property
    def id(self) -> str:
        return f"{self.entry.name}({', '.join(t.split(':')[1] for t in self.types)})"


def _arities(form: tuple[Param, ...]) -> list[tuple[Param, ...]]:
    """The form with each count of its trailing optional positional parameters (a variadic
    parameter counts as two arguments)."""
    positional = [p for p in form if not p.keyword]
    required = [p for p in positional if not (p.optional or p.variadic)]
    out = [tuple(required)]
    extra: list[Param] = []
    for p in positional[len(required) :]:
        extra += [p, p] if p.variadic else [p]
        out.append(tuple(required + extra))
    return out


def _max_examples() -> int:
    """The loaded Hypothesis profile's example budget (root conftest: dev, ci, thorough)."""
    return settings().max_examples


def _cases() -> list[Case]:
    many = _max_examples() >= 500  # the `thorough` profile
    cases: list[Case] = []
    for entry in jitcore.supported():
        if entry.kind not in ("function", "method") or entry.name in SKIP:
            continue
        found: list[Case] = []
        for form in entry.forms:
            for arity in _arities(form):
                if not all(set(p.kinds) & DRAWABLE for p in arity):
                    continue
                for profile in PROFILES:
                    types = _profile_types(arity, profile)
                    if types is not None and len(types) == len(arity):
                        found.append(Case(entry, arity, types, profile))
        seen: set[str] = set()
        unique = [c for c in found if not (c.id in seen or seen.add(c.id))]  # type: ignore[func-returns-value]
        cases += unique if many else unique[:2]  # (three took too long for a CI run)
    return cases


CASES = _cases()


def test_every_function_and_method_is_driven_or_skipped_with_a_reason() -> None:
    driven = {c.entry.name for c in CASES}
    for entry in jitcore.supported():
        if entry.kind in ("function", "method"):
            assert entry.name in driven or entry.name in SKIP, (
                f"{entry.name}: the generic test cannot draw its arguments; "
                "give it a reason in SKIP or declare drawable argument kinds"
            )
    assert not set(SKIP) - {e.name for e in jitcore.supported()}, "SKIP names unknown ops"


# --- inputs ---------------------------------------------------------------------------------

_FLOAT_EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, math.inf, -math.inf, math.nan, 1e308, 5e-324]
_INT_EDGES = [0, 1, -1, 2, -(2**63), 2**63 - 1, 2**31, -(2**31) - 1]


def _scalar(kind: str, small: bool) -> st.SearchStrategy[Any]:
    if kind == "bool":
        return st.booleans()
    if kind == "int":
        if small:
            return st.integers(-30, 30)
        return st.one_of(
            st.sampled_from(_INT_EDGES), st.integers(-10, 10), st.integers(-(2**63), 2**63 - 1)
        )
    if kind == "float":
        if small:
            return st.floats(-30, 30)
        return st.one_of(st.sampled_from(_FLOAT_EDGES), st.floats())
    part = st.one_of(st.sampled_from(_FLOAT_EDGES), st.floats(-1e3, 1e3), st.floats())
    return st.builds(complex, part, part)


def _array(dtype: str, ndim: int) -> st.SearchStrategy[np.ndarray]:
    shape = hnp.array_shapes(min_dims=ndim, max_dims=ndim, min_side=1, max_side=4)
    kind = np.dtype(dtype).kind
    if kind == "f":
        elements: st.SearchStrategy[Any] = st.floats(width=32 if dtype == "float32" else 64)
    elif kind == "c":
        elements = st.complex_numbers(width=128 if dtype == "complex128" else 64)
    elif kind == "b":
        elements = st.booleans()
    else:
        info = np.iinfo(dtype)
        elements = st.one_of(st.integers(-5, 5), st.integers(int(info.min), int(info.max)))
    return hnp.arrays(dtype, shape, elements=elements)


def _arguments(case: Case) -> st.SearchStrategy[tuple[Any, ...]]:
    small = case.entry.name in SMALL_INT_OPS
    parts = [
        _array(t.split(":")[1], case.profile.ndim)
        if t.startswith("array:")
        else _scalar(t.split(":")[1], small)
        for t in case.types
    ]
    if case.entry.kind == "method":
        parts.insert(0, _array(case.profile.array or "float64", case.profile.ndim))
    return st.tuples(*parts)


# --- wrappers -------------------------------------------------------------------------------

_counter = itertools.count()


def wrapper(entry: Entry, nargs: int) -> Callable[..., Any]:
    """`def op(a0, ...): return <entry>(a0, ...)`, with source jitcore can read (linecache)."""
    params = [f"a{i}" for i in range(nargs)]
    if entry.kind == "method":
        method = entry.name.rpartition(".")[2]
        body = f"recv.{method}({', '.join(params)})"
        params.insert(0, "recv")
    else:
        body = f"__op__({', '.join(params)})"
    # random numbers: seeded, so Python (NumPy's generator) and compiled code draw one stream
    source = f"def op({', '.join(params)}):\n{seeding(entry.name)}    return {body}\n"
    filename = f"<jitcore-supported-{next(_counter)}>"
    namespace: dict[str, Any] = {"__op__": entry.obj, "np": np, "math": math, "cmath": cmath}
    return function_from_source(source, "op", filename, namespace)


def _copy(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


def _examples() -> int:
    return max(6, _max_examples() // 8)


def _known_bug(case: Case) -> str | None:
    return KNOWN_BUGS.get(case.id) or KNOWN_BUGS.get(case.entry.name)


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, marks=pytest.mark.xfail(reason=_known_bug(c) or "", strict=False))
        if _known_bug(c)
        else c
        for c in CASES
    ],
    ids=[c.id for c in CASES],
)
def test_operation_matches_python(case: Case) -> None:
    python_op = wrapper(case.entry, len(case.types))
    compiled_op = jit(mode=ExecutionMode.COMPILED)(python_op)

    @settings(max_examples=_examples())
    @given(args=_arguments(case))
    def check(args: tuple[Any, ...]) -> None:
        python = invoke(python_op, _copy(args))
        compiled = invoke(compiled_op, _copy(args))
        if isinstance(compiled.error_type, type) and issubclass(
            compiled.error_type, jitcore.JitError
        ):
            if python.error_type is TypeError and issubclass(
                compiled.error_type, jitcore.TypingError
            ):
                return  # NumPy refuses these types too (`np.negative` of a bool): refused
            raise AssertionError(f"{case.id} does not compile: {compiled.error_text}")
        assert_ran_compiled(compiled_op, args)  # not Python against itself
        if out_of_domain_result(python.value) or out_of_domain_error(python, compiled):
            reject()
        if python.raised or compiled.raised:
            assert python.error_type is compiled.error_type, (
                f"{case.id}{args}: python {python.describe()}, compiled {compiled.describe()}"
            )
            return
        assert_equivalent(compiled.value, python.value)

    check()
