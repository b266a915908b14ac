"""`--jit-diff-library`: every operation in jitcore's registry, checked against Python.

A user kernel reaches an operation only where its own inputs take it, so a `tanh` wrong for
|x| >= 10 passes every kernel that never feeds it 10. This check does not wait for one: for
each function, method and operator that `jitcore.supported()` lists with numeric or array
arguments, it writes a one-line wrapper (`def op(a0): return math.tanh(a0)`), compiles it
(`mode="compiled"`: nothing falls back) and runs jitcheck's differential check on it, with
the corner-biased inputs of `jitcheck.corners` (overflow and underflow thresholds,
subnormals, large arguments of periodic functions, ints beyond 2**24 and 2**53, int64
limits) and the ULP-distance `target()` of every check steering towards the worst input.

Each operation runs under a few type profiles (float, int, float64 array, ...), each one a
compiled specialization and one item, `jitcore.lib::math.tanh(float)::jit-diff`. The
Hypothesis profile's example budget applies; the `thorough` profile runs every profile,
others the first `PROFILES_PER_OPERATION`. What cannot be driven generically is in `SKIP`
with the reason; the deviations known today are `KNOWN` (expected failures, not strict).
"""

from __future__ import annotations

import ast
import cmath
import linecache
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcheck.corners import corner_complex, corner_floats, corner_ints
from jitcore.methods import MadeTree

MODULE = "jitcore.lib"  # the records' module name and the node id's first part
PROFILES_PER_OPERATION = 1  # outside the `thorough` profile (CI time: test_supported drives two)

SKIP: dict[str, str] = {
    "slice": "builds a slice object for indexing",
    "len": "of tuples and arrays only",
    "range": "only in `for` loops",
    "bool": "`bool(x)` is the truth operator",
    "float": "the string form is checked by test_strmethods.py (no strings are drawn)",
    "ord": "takes a one-character string, not drawn (test_strmethods.py checks it)",
    "np.empty": "the contents are uninitialized, so there is nothing to compare",
    "np.empty_like": "the contents are uninitialized, so there is nothing to compare",
    "np.arange": "a drawn range asks Python for any amount of memory",
    "np.linspace": "a drawn `num` asks Python for any amount of memory",
    "ndarray.astype": "takes a constant dtype, not a drawn value",
    "np.zeros": "takes a shape: a drawn shape asks Python for any amount of memory",
    "np.ones": "takes a shape, as np.zeros",
    "np.full": "takes a shape, as np.zeros",
    "@": "needs arrays of matching shapes (the bundled kernels' matmul checks it)",
    **{
        f"np.linalg.{f}": "takes 2-D (mostly square, Hermitian or definite) matrices "
        "(tests/jitcore/lib/test_lapack.py)"
        for f in (
            "inv det slogdet solve cholesky eigh eigvalsh eig eigvals svd qr lstsq pinv "
            "matrix_rank"
        ).split()
    },
    "np.linalg.matrix_power": "takes square matrices (tests/jitcore/lib/test_npextra.py)",
    "np.linalg.cond": "takes matrices (tests/jitcore/lib/test_npextra.py)",
    "[]": "indexing has its own tests and needs in-range indices",
    "is": "`x is None` takes None, nothing to draw",
    "in": "`x in (a, b)` takes a tuple written in the source",
    "np.reshape": "takes a shape that must fit the array (tests/jitcore/e2e/test_shapes.py)",
    "np.broadcast_to": "takes a shape, as np.reshape",
    "np.swapaxes": "takes constant axes (tests/jitcore/e2e/test_shapes.py)",
    "ndarray.swapaxes": "takes constant axes, as np.swapaxes",
    "np.squeeze": "takes constant axes, as np.swapaxes",
    "ndarray.squeeze": "takes constant axes, as np.swapaxes",
    "np.expand_dims": "takes constant axes, as np.swapaxes",
    "np.concatenate": "takes a tuple of arrays (tests/jitcore/e2e/test_joining.py)",
    "np.vstack": "takes a tuple of arrays, as np.concatenate",
    "np.hstack": "takes a tuple of arrays, as np.concatenate",
    "np.column_stack": "takes a tuple of arrays, as np.concatenate",
    "np.dstack": "takes a tuple of arrays, as np.concatenate",
    "np.stack": "takes a tuple of arrays, as np.concatenate",
    "np.tile": "a drawn repetition count asks Python for any amount of memory (test_joining.py)",
    "ndarray.reshape": "takes a shape, as np.reshape",
    "np.eye": "takes a shape, as np.zeros; tests/jitcore/e2e/test_creation.py",
    "np.identity": "takes a shape, as np.zeros",
    "np.tri": "takes a shape, as np.zeros",
    "np.diag": "of a drawn k, Python would allocate (k, k); tests/jitcore/e2e/test_creation.py",
    "np.diagflat": "k, as np.diag",
    "np.transpose": "takes constant axes; tests/jitcore/e2e/test_shapes.py",
    "ndarray.transpose": "takes constant axes, as np.transpose",
    "np.moveaxis": "takes constant axes, as np.transpose",
    "np.repeat": "repeats, as np.tile",
    "np.ndindex": "only as the iterable of a `for` loop (tests/jitcore/e2e/test_shapes.py)",
    "np.nditer": "only as the iterable of a `for` loop (tests/jitcore/e2e/test_shapes.py)",
    "isinstance": "takes constant classes; tests/jitcore/test_liveblocks.py",
    "print": "writes to stdout, returns None; tests/jitcore/e2e/test_print.py",
    "np.logspace": "a drawn num asks Python for any amount of memory, as np.linspace; "
    "tests/jitcore/lib/test_npmore.py",
    "np.geomspace": "num, as np.logspace",
    "np.vander": "a drawn N asks Python for any amount of memory; "
    "tests/jitcore/lib/test_npmore.py",
    "np.select": "takes lists or tuples of arrays; tests/jitcore/lib/test_npselect.py",
    "np.unravel_index": "takes a shape; tests/jitcore/lib/test_npselect.py",
    "np.ravel_multi_index": "takes coordinates and a shape; tests/jitcore/lib/test_npselect.py",
    "np.argsort": "equal keys may come in another order than NumPy's quicksort (documented); "
    "kind='stable' is checked in tests/jitcore/lib/test_npsort.py",
    "ndarray.argsort": "equal keys, as np.argsort",
    "np.argpartition": "any valid partition, not NumPy's indices (documented; test_npsort.py)",
    "np.cross": "two 2-vectors raise ValueError where NumPy gives a 0-d array (documented)",
    "np.bincount": "a drawn value asks Python for any amount of memory (test_npstats.py)",
    "sum": "of a list here (tests/jitcore/e2e/test_lists.py); of arrays, np.sum is checked",
    "np.iinfo": "takes a dtype, not a drawn value (tests/jitcore/e2e/test_small_things.py)",
    "np.finfo": "takes a dtype, not a drawn value (tests/jitcore/e2e/test_small_things.py)",
    "np.random.rand": "takes the shape as ints: a drawn one asks Python for any amount of "
    "memory (tests/jitcore/lib/test_nprandom.py draws sizes)",
    "np.random.randn": "takes the shape, as np.random.rand",
    "np.random.permutation": "of an int, np.arange of a drawn int, as np.arange",
    "np.random.default_rng": "a Generator cannot be returned to Python: one made in compiled "
    "code is drawn from there (tests/jitcore/lib/test_nprandomrng.py)",
    **{
        f"np.random.{name}": "takes only a size, which is not drawn "
        "(tests/jitcore/lib/test_nprandom.py draws sizes and seeds)"
        for name in (
            "random_sample random ranf sample standard_normal standard_exponential".split()
        )
    },
}

_COMPLEX_SPECIAL = "special values of complex maths differ from CPython's cmath tables"
_GAMMA = (
    "CPython computes gamma and lgamma with its own Lanczos approximation, jitcore calls the C "
    "library: a few ULPs apart (gamma(26): 5), and near lgamma's zeros at 1 and 2 far more"
)
KNOWN: dict[str, str] = {
    "math.gamma": _GAMMA,
    "math.lgamma": _GAMMA,
    "np.where(float, float, float)": "returns a scalar where NumPy returns a 0-d array",
    "np.where(int, int, int)": "returns a scalar where NumPy returns a 0-d array",
    "pow(complex, complex)": _COMPLEX_SPECIAL,
    "**(complex, complex)": _COMPLEX_SPECIAL,
    "cmath.sqrt": _COMPLEX_SPECIAL,
    "cmath.exp": _COMPLEX_SPECIAL,
    "cmath.log": _COMPLEX_SPECIAL,
    "cmath.rect": _COMPLEX_SPECIAL,
    "cmath.polar": _COMPLEX_SPECIAL,
    "cmath.phase": _COMPLEX_SPECIAL,
}

# Operations whose int arguments must stay small so that Python itself finishes
# (the splits make as many views as a drawn int, tril/triu_indices an n x n mask)
SMALL_INTS = {
    "pow",
    "**",
    "round",
    "math.factorial",
    "math.gcd",
    "math.ldexp",
    "<<",
    ">>",
    "np.split",
    "np.array_split",
    "np.hsplit",
    "np.vsplit",
    "np.dsplit",
    "np.tril_indices",
    "np.triu_indices",
}
_DRAWABLE = {"bool", "int", "float", "real", "complex", "number", "array", "intarray"}
_UNARY = {"unary -": "-", "unary +": "+", "~": "~", "not": "not "}


@dataclass(frozen=True)
class Profile:
    """The concrete type every argument gets: a scalar kind and, for arrays, a dtype."""

    name: str
    scalar: str | None
    array: str | None


PROFILES = (
    Profile("float", "float", None),
    Profile("int", "int", None),
    Profile("float64 array", "float", "float64"),
    Profile("int64 array", "int", "int64"),
    Profile("float32 array", "float", "float32"),
    Profile("complex", "complex", None),
    Profile("bool", "bool", None),
)
_ACCEPTS = {
    "int": {"int", "real", "number"},
    "float": {"float", "real", "number"},
    "bool": {"bool", "int", "real", "number"},
    "complex": {"complex", "number"},
}


@dataclass(frozen=True)
class LibraryCase:
    """One operation under one profile: `types` per argument ("float", "array:int64")."""

    name: str
    kind: str
    obj: Any
    types: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.name}({', '.join(t.rpartition(':')[2] for t in self.types)})"


def library_cases(every_profile: bool | None = None) -> list[LibraryCase]:
    """The cases to check: every profile under `thorough` (or when asked), else the first
    `PROFILES_PER_OPERATION` of each operation."""
    import jitcore

    if every_profile is None:
        every_profile = hypothesis_settings().max_examples >= 500
    cases: list[LibraryCase] = []
    for entry in jitcore.supported():
        if entry.kind == "attribute" or entry.name in SKIP or undrivable(entry):
            continue
        found: dict[str, LibraryCase] = {}
        for form in entry.forms:
            params = [p for p in form if not (p.optional or p.variadic or p.keyword)]
            if not params and entry.kind != "method":  # np.bool(x=False): pass the first
                params = [p for p in form if not p.keyword][:1]
            if not (params or entry.kind == "method"):
                continue
            if not all(set(p.kinds) & _DRAWABLE for p in params):
                continue
            for profile in PROFILES:
                types = _types(params, profile, entry.kind == "method")
                if types is not None:
                    case = LibraryCase(entry.name, entry.kind, entry.obj, types)
                    found.setdefault(case.id, case)
        chosen = list(found.values())
        cases += chosen if every_profile else chosen[:PROFILES_PER_OPERATION]
    return cases


def undrivable(entry: Any) -> str | None:
    """Why an operation cannot be checked generically (beyond the named `SKIP`), or None."""
    if entry.kind == "method" and not entry.name.startswith("ndarray."):
        return "a method of dicts, sets or strings: their own end-to-end tests check it"
    if entry.kind == "function" and not any(form for form in entry.forms):
        return "takes no argument to draw (an empty container)"
    return None


def _types(params: list[Any], profile: Profile, method: bool) -> tuple[str, ...] | None:
    types = [f"array:{profile.array or 'float64'}"] if method else []
    arrays = int(method)
    for p in params:
        kinds = set(p.kinds)
        if profile.array and ("array" in kinds or ("intarray" in kinds and _int(profile))):
            types.append(f"array:{profile.array}")
            arrays += 1
        elif profile.scalar and kinds & _ACCEPTS[profile.scalar]:
            types.append(profile.scalar)
        else:
            return None
    if profile.array and not arrays:
        return None
    return tuple(types)


def _int(profile: Profile) -> bool:
    return profile.array is not None and np.dtype(profile.array).kind in "biu"


def wrapper(case: LibraryCase) -> Callable[..., Any]:
    """`def op(a0, ...): return <operation>(a0, ...)`, with source jitcore reads through
    linecache (a fixed file name per case, so the example database keys stay stable)."""
    n = len(case.types)
    params = [f"a{i}" for i in range(n)]
    if case.kind == "method":
        body = f"a0.{case.name.rpartition('.')[2]}({', '.join(params[1:])})"
    elif case.kind == "operator":
        body = f"{_UNARY[case.name]}a0" if case.name in _UNARY else f"a0 {case.name} a1"
    else:
        body = f"__op__({', '.join(params)})"
    name = _identifier(case.id)
    source = f"def {name}({', '.join(params)}):\n{seeding(case.name)}    return {body}\n"
    filename = f"<jitcheck-library {case.id}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict[str, Any] = {"__op__": case.obj, "np": np, "math": math, "cmath": cmath}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - generated wrapper
    func = namespace[name]
    func.__module__ = MODULE
    # linecache entries do not survive everywhere (an xdist worker's fresh run lost them, so
    # jitcore could not read the source): hand jitcore the tree itself, as front ends do.
    tree = ast.parse(source, filename=filename).body[0]
    assert isinstance(tree, ast.FunctionDef)
    func.__jitcore_tree__ = MadeTree(tree, filename, source)  # type: ignore[attr-defined]
    return func


RANDOM_SEED = 12345


def seeding(name: str) -> str:
    """The line a wrapper of a random-number operation starts with: it seeds the generator,
    NumPy's in Python and compiled code's own when compiled, so that both draw the same
    stream and are compared exactly (jitcore matches NumPy's legacy `RandomState`)."""
    if name.startswith("np.random.") and name != "np.random.seed":
        return f"    np.random.seed({RANDOM_SEED})\n"
    return ""


def _identifier(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text).strip("_") or "op"


def strategies(case: LibraryCase) -> dict[str, st.SearchStrategy[Any]]:
    """A corner-biased strategy per argument."""
    small = case.name in SMALL_INTS
    return {f"a{i}": _strategy(t, small) for i, t in enumerate(case.types)}


def _strategy(kind: str, small: bool) -> st.SearchStrategy[Any]:
    if kind.startswith("array:"):
        dtype = np.dtype(kind.partition(":")[2])
        shape = hnp.array_shapes(min_dims=1, max_dims=1, min_side=1, max_side=5)
        return hnp.arrays(dtype, shape, elements=_elements(dtype, small))
    if kind == "bool":
        return st.booleans()
    if kind == "int":
        return st.integers(-30, 30) if small else corner_ints()
    if kind == "float":
        return st.floats(-30, 30) if small else corner_floats()
    return corner_complex()


def _elements(dtype: np.dtype, small: bool) -> st.SearchStrategy[Any]:
    if dtype.kind == "f":
        return corner_floats(32 if dtype.itemsize == 4 else 64)
    if dtype.kind == "b":
        return st.booleans()
    info = np.iinfo(dtype)
    return st.integers(-30, 30) if small else corner_ints(int(info.min), int(info.max))


def library_items(session: pytest.Session) -> list[pytest.Item]:
    """One jit-diff item per case, under a collector named `jitcore.lib`."""
    import jitcore
    from jitcheck.collect import JitDiffFunction, JitDiffModule
    from jitcheck.decorator import jitcheck
    from jitcore import ExecutionMode, jit

    module = _Namespace()
    collector = JitDiffModule.from_parent(
        session, path=Path(jitcore.__file__).parent / "lib", module=module, nodeid=MODULE
    )
    items: list[pytest.Item] = []
    for case in library_cases():
        known = KNOWN.get(case.id) or KNOWN.get(case.name)
        # corner inputs make Python raise or leave the compiled domain often: that is the
        # operation's domain, not a vacuous check
        settings: dict[str, Any] = {"min_returned": 0.0, "max_rejected": 1.0}
        if known:
            settings["xfail"] = known
        target = jit(mode=ExecutionMode.COMPILED)(wrapper(case))
        target = jitcheck(**settings, **strategies(case))(target)
        function = JitDiffFunction.from_parent(
            collector, name=case.id, target=target, binding=target.py_func.__name__
        )
        items.extend(function.collect())
    session.ihook.pytest_collectreport(
        report=pytest.CollectReport(collector.nodeid, "passed", None, list[Any](items))
    )
    return items


class _Namespace:
    """Stands for the module the generated wrappers live in."""

    __name__ = MODULE
    __file__ = None
