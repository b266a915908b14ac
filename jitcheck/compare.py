"""The one equivalence policy: when does a compiled result count as the Python result?

Python is the reference. A compiled call agrees when it raised an exception of the same type,
or returned an equal value: ints and bools exactly; floats within a tolerance in ULPs (NaN
equals NaN, -0.0 equals 0.0); complex numbers part by part; NumPy scalars of the same dtype
(Python's numbers count as int64, float64, complex128 and bool); arrays in shape, dtype and
every element; tuples and lists item by item. Arguments are compared after the call too,
because kernels write into their input arrays.

Two documented typing rules of jitcore (README, "Types") are not differences, and the value
is still compared: a number may come back promoted to float64 or complex128 (a variable
assigned an int and a float, `min(1, 2.5)`); and a Python number may come back as the NumPy
type its variable has on other paths (`s = 0.0; for x in a32: s += x` on an empty array),
compared in Python's precision.

Some differences are jitcore's documented semantics (DESIGN.md section 3), not bugs. An example
that hits one is *out of the compiled domain*: jitcheck rejects and counts it, never fails it:

* Python returned an int outside int64 (compiled ints wrap);
* compiled code raised one of the documented errors of `DOCUMENTED_ERRORS` (README, "the
  deliberate differences"), matched by exception type *and* jitcore's message: the float to
  int conversions, `int()`/`range()` of a uint64 and `math.factorial` beyond int64
  (OverflowError, where Python returned a big int), an int to a negative int power and
  `pow(a, -b, m)` (ValueError: Python returns a float, or a modular inverse), a negative
  float to a fractional power (ValueError: Python returns a complex number). Any other error
  of compiled code is a difference: an OverflowError from an `exp` that overflows too early
  is a bug, not the domain.

Fast-math modes are also exempt wherever NaN or infinity appears (`fastmath_exempt`), and
compare with a looser tolerance (`Tolerance.for_fastmath`); modes without bounds checks are
not run where Python found an index out of bounds (`unchecked_exempt`).

The plugin, `assert_equivalent` and the tests all use this module, so there is one policy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
DEFAULT_ULPS = 4.0
# fast-math lets LLVM reassociate, so a result may differ by more than a few ULPs relative
# to itself; relative to the result's magnitude it stays small.
FASTMATH_RTOL = 1e-6
# Why an example is out of the compiled domain (the keys of the reports' `rejected` counts).
OUT_OF_INT64 = "int result beyond int64"
COMPILED_OVERFLOW = "float to int beyond int64"
FACTORIAL_OVERFLOW = "math.factorial(n > 20)"
UINT64_OVERFLOW = "uint64 to int beyond int64"
NEGATIVE_POWER = "int ** negative int"
MODULAR_INVERSE = "pow(a, negative b, m)"
COMPLEX_RESULT = "Python's result is complex where compiled code computes floats"

# The deliberate differences where compiled code raises and Python does not (README,
# "Semantics, and the deliberate differences from Python"), by exception type and the start
# of jitcore's message, with whether Python may have raised something else (`0 ** -1` raises
# ZeroDivisionError in Python, where compiled code refuses the negative exponent first).
DOCUMENTED_ERRORS: tuple[tuple[type[BaseException], str, str, bool], ...] = (
    (OverflowError, "float too large for int64 (Python would return a big int)",
     COMPILED_OVERFLOW, False),
    (OverflowError, "factorial() of n > 20 does not fit in int64", FACTORIAL_OVERFLOW, False),
    (OverflowError, "uint64 too large for int64 (Python would return a big int)",
     UINT64_OVERFLOW, False),
    (ValueError, "integer to a negative power: Python returns a float here", NEGATIVE_POWER,
     True),
    (ValueError, "pow() with a negative exponent and a modulus is not supported",
     MODULAR_INVERSE, True),
    # Python's complex result may itself overflow (OverflowError: complex exponentiation)
    (ValueError, "negative number to a fractional power: Python returns a complex number",
     COMPLEX_RESULT, True),
)  # fmt: skip


@dataclass(frozen=True)
class Tolerance:
    """How far apart two floats may be: within `ulps` ULPs, or within `atol + rtol * |python|`."""

    ulps: float = DEFAULT_ULPS
    rtol: float = 0.0
    atol: float = 0.0

    def for_fastmath(self) -> Tolerance:
        """The looser tolerance of a fast-math mode (reassociation changes the rounding)."""
        return Tolerance(self.ulps, max(self.rtol, FASTMATH_RTOL), self.atol)

    def __str__(self) -> str:
        parts = [f"{self.ulps:g} ulps"]
        if self.rtol:
            parts.append(f"rtol {self.rtol:g}")
        if self.atol:
            parts.append(f"atol {self.atol:g}")
        return ", ".join(parts)


@dataclass(frozen=True)
class Difference:
    """The first place where a compiled value differs from Python's."""

    path: str  # "result", "result[1]", "result[2, 0]", "argument `a`[3]"
    python: str
    compiled: str
    detail: str  # why they differ: "7 ulps apart (tolerance 4 ulps)", "shape (3,) != (4,)"
    ulps: int | None = None

    def __str__(self) -> str:
        return f"{self.path}: python {self.python}, compiled {self.compiled}: {self.detail}"


@dataclass
class Outcome:
    """What one call did: returned `value`, or raised `error_type` with `error_text`.

    `args_after` holds the arguments after the call (kernels may write into arrays). Errors
    are kept as type and text, so an outcome can cross a process boundary (isolation).
    """

    value: Any = None
    error_type: type[BaseException] | None = None
    error_text: str = ""
    args_after: tuple[Any, ...] = field(default_factory=tuple)

    @property
    def raised(self) -> bool:
        return self.error_type is not None

    def describe(self) -> str:
        if self.error_type is not None:
            return f"raised {self.error_type.__name__}: {self.error_text}"
        return show(self.value)


def show(value: Any) -> str:
    """A short, exact representation: full float precision, arrays abbreviated."""
    if isinstance(value, np.ndarray):
        body = np.array2string(value, threshold=12, edgeitems=3, separator=", ")
        return f"array({body}, dtype={value.dtype}, shape={value.shape})"
    if isinstance(value, np.generic):
        return f"np.{type(value).__name__}({value.item()!r})"
    return repr(value)


# --- the domain of compiled code -----------------------------------------------------------


def out_of_domain_result(value: Any) -> str | None:
    """Why Python's `value` cannot be a compiled result (an int beyond int64), or None."""
    if isinstance(value, tuple | list):
        for item in value:
            reason = out_of_domain_result(item)
            if reason is not None:
                return reason
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        if not INT64_MIN <= value <= INT64_MAX:
            return OUT_OF_INT64
    return None


def out_of_domain_error(python: Outcome, compiled: Outcome) -> str | None:
    """Why a compiled error is documented semantics rather than a difference, or None."""
    if not compiled.raised or same_error_type(python.error_type, compiled.error_type):
        return None
    for error, message, reason, python_may_raise in DOCUMENTED_ERRORS:
        if (
            compiled.error_type is error
            and compiled.error_text.startswith(message)
            and (python_may_raise or not python.raised)
        ):
            return reason
    return None


def fastmath_exempt(args: tuple[Any, ...], python: Outcome, compiled: Outcome) -> bool:
    """True if a fast-math mode need not match Python on this example.

    Fast-math lets LLVM assume that no value is NaN or infinite, so where one appears (in an
    argument, in either result, or as the OverflowError or ValueError by which Python reports
    a float overflow or a math domain error) the compiled result is unspecified.
    """
    if has_nonfinite(args) or has_nonfinite(python.value) or has_nonfinite(compiled.value):
        return True
    return python.error_type in (OverflowError, ValueError) and not compiled.raised


def unchecked_exempt(python: Outcome) -> bool:
    """True if a mode without bounds checks must not even run this example: Python raised
    IndexError, and an access out of bounds without checks is undefined behaviour."""
    return python.error_type is IndexError


def has_nonfinite(value: Any) -> bool:
    """True if a float or complex anywhere in `value` is NaN or infinite."""
    if isinstance(value, tuple | list):
        return any(has_nonfinite(v) for v in value)
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "fc" and not bool(np.isfinite(value).all())
    if isinstance(value, float | complex | np.floating | np.complexfloating):
        return not bool(np.isfinite(value))
    return False


# --- comparing outcomes and values ---------------------------------------------------------


def compare_outcomes(
    python: Outcome, compiled: Outcome, tol: Tolerance, arg_names: tuple[str, ...] = ()
) -> Difference | None:
    """The first difference between two calls on equal inputs, or None if they agree.

    Call `out_of_domain_error` first: this function treats every other difference as one.
    """
    if python.raised or compiled.raised:
        if same_error_type(python.error_type, compiled.error_type):
            return None
        return Difference("outcome", python.describe(), compiled.describe(), "different outcome")
    diff = first_difference(python.value, compiled.value, tol)
    if diff is not None:
        return diff
    names = arg_names or tuple(f"#{i}" for i in range(len(python.args_after)))
    for name, before, after in zip(names, python.args_after, compiled.args_after):
        diff = first_difference(before, after, tol, path=f"argument `{name}` after the call")
        if diff is not None:
            return diff
    return None


def same_error_type(python: type | None, compiled: type | None) -> bool:
    """Whether two calls raised the same exception type. NumPy raises private subclasses of
    built-in exceptions (`_ArrayMemoryError` is a MemoryError with NumPy's message);
    compiled code raises the built-in type they specialize, which counts as the same."""
    if python is compiled:
        return True
    return (
        python is not None
        and compiled is not None
        and compiled.__module__ == "builtins"
        and python.__module__.split(".")[0] == "numpy"
        and issubclass(python, compiled)
    )


def first_difference(
    python: Any, compiled: Any, tol: Tolerance, path: str = "result"
) -> Difference | None:
    """The first place where `compiled` differs from `python` under `tol`, or None."""
    kind, other = _kind(python), _kind(compiled)
    if _unified_with_numpy(python, kind, compiled, other):
        # A Python number where compiled code has a NumPy scalar: the variable also takes
        # NumPy values on a path this call did not take (`s = 0.0; for x in a32: s += x` on
        # an empty array), and jitcore types it as NumPy does (weak Python scalars). The value
        # must still be Python's, compared in Python's precision.
        diff = first_difference(python, compiled.item(), tol, path)
        if diff is None:
            return None
        return Difference(path, show(python), show(compiled), diff.detail, diff.ulps)
    if kind != other and _promoted(python, kind, compiled, other):
        # jitcore unifies mixed numbers by promotion (a variable assigned an int and a float,
        # `min(1, 2.5)`, a tuple indexed by a variable): compare the values as promoted
        kind, python = other, (float if other == "float" else complex)(python)
    if kind != other:
        return Difference(path, show(python), show(compiled), f"{kind} != {other}")
    if kind in _NUMBERS:
        dtypes = scalar_dtype(python), scalar_dtype(compiled)
        if dtypes[0] != dtypes[1]:
            detail = f"dtype {dtypes[0]} != {dtypes[1]}"
            return Difference(path, show(python), show(compiled), detail)
    if kind in ("tuple", "list"):  # a list item by item, as a tuple
        return _tuple_difference(python, compiled, tol, path)
    if kind == "dict":
        return _dict_difference(python, compiled, tol, path)
    if kind in ("set", "frozenset"):
        return _set_difference(python, compiled, path)
    if kind == "array":
        return _array_difference(python, compiled, tol, path)
    if kind == "float":
        return _scalar_float_difference(python, compiled, tol, path)
    if kind == "complex":
        for part in ("real", "imag"):
            diff = _scalar_float_difference(
                getattr(python, part), getattr(compiled, part), tol, path
            )
            if diff is not None:
                return Difference(
                    path, show(python), show(compiled), f"{part} part: {diff.detail}"
                )
        return None
    if python == compiled:
        return None
    return Difference(path, show(python), show(compiled), "not equal")


def assert_equivalent(
    compiled: Any,
    python: Any,
    *,
    ulps: float = DEFAULT_ULPS,
    rtol: float = 0.0,
    atol: float = 0.0,
) -> None:
    """Assert that a compiled result is equivalent to Python's, by jitcheck's policy.

    assert_equivalent(jit(f)(a, b), f(a, b))
    """
    diff = first_difference(python, compiled, Tolerance(ulps, rtol, atol))
    if diff is not None:
        raise AssertionError(f"not equivalent: {diff}")


_NUMBERS = ("bool", "int", "float", "complex")
_PROMOTIONS = {("int", "float"), ("int", "complex"), ("float", "complex")}
_PROMOTED_DTYPES = (np.dtype(np.float64), np.dtype(np.complex128))


def scalar_dtype(value: Any) -> np.dtype:
    """A number's dtype: a NumPy scalar's own; Python's bool, int, float and complex as the
    dtypes compiled code returns them in (bool, int64, float64, complex128). Where Python
    returned a NumPy scalar, a compiled scalar of another dtype is a difference, as an
    array's dtype is."""
    if isinstance(value, np.generic):
        return value.dtype
    if isinstance(value, bool):
        return np.dtype(np.bool_)
    if isinstance(value, int):
        return np.dtype(np.int64)
    if isinstance(value, float):
        return np.dtype(np.float64)
    return np.dtype(np.complex128)


def _unified_with_numpy(python: Any, kind: str, compiled: Any, other: str) -> bool:
    """True if `python` is a Python number (weak in NumPy's sense) and `compiled` a NumPy
    scalar of another dtype, of the same or a wider kind."""
    if isinstance(python, np.generic) or not isinstance(compiled, np.generic):
        return False
    if kind not in _NUMBERS or scalar_dtype(python) == compiled.dtype:
        return False
    return kind == other or _promoted(python, kind, compiled.item(), other)


def _promoted(python: Any, kind: str, compiled: Any, other: str) -> bool:
    """True if `compiled` may be `python` promoted to a wider kind (then compared as that
    kind, within the tolerance): jitcore promotes to float64 and complex128, and from ints in
    int64 only (a larger Python int is out of the compiled domain anyway)."""
    if (kind, other) not in _PROMOTIONS or scalar_dtype(compiled) not in _PROMOTED_DTYPES:
        return False
    return kind != "int" or INT64_MIN <= int(python) <= INT64_MAX


def _kind(value: Any) -> str:
    """The comparison category: values of different categories never agree."""
    if isinstance(value, bool | np.bool_):
        return "bool"
    if isinstance(value, int | np.integer):
        return "int"
    if isinstance(value, float | np.floating):
        return "float"
    if isinstance(value, complex | np.complexfloating):
        return "complex"
    if isinstance(value, np.ndarray):
        return "array"
    if isinstance(value, tuple):
        return "tuple"
    if isinstance(value, list):
        return "list"
    if value is None:
        return "None"
    return type(value).__name__


def _set_difference(python: Any, compiled: Any, path: str) -> Difference | None:
    """Sets agree when their members do; NaN members, which equal nothing (so `==` of two
    sets holding a NaN each is False), are counted instead."""

    def split(members: Any) -> tuple[int, set]:
        nans = {id(x) for x in members if isinstance(x, float | np.floating) and x != x}
        return len(nans), {x for x in members if id(x) not in nans}

    if split(python) == split(compiled):
        return None
    return Difference(path, show(python), show(compiled), "not equal")


def _dict_difference(python: dict, compiled: dict, tol: Tolerance, path: str) -> Difference | None:
    """Dicts: the same items in the same (insertion) order, keys and values compared as
    results are (floats within the tolerance, NaN equal to NaN)."""
    if len(python) != len(compiled):
        detail = f"{len(python)} items != {len(compiled)}"
        return Difference(path, show(python), show(compiled), detail)
    for i, ((pk, pv), (ck, cv)) in enumerate(zip(python.items(), compiled.items())):
        diff = first_difference(pk, ck, tol, f"{path} key #{i}")
        if diff is None:
            diff = first_difference(pv, cv, tol, f"{path}[{pk!r}]")
        if diff is not None:
            return diff
    return None


def _tuple_difference(
    python: tuple, compiled: tuple, tol: Tolerance, path: str
) -> Difference | None:
    if len(python) != len(compiled):
        detail = f"length {len(python)} != {len(compiled)}"
        return Difference(path, show(python), show(compiled), detail)
    for i, (p, c) in enumerate(zip(python, compiled)):
        diff = first_difference(p, c, tol, f"{path}[{i}]")
        if diff is not None:
            return diff
    return None


# --- floats and ULPs -----------------------------------------------------------------------


def float_dtype(*values: Any) -> np.dtype:
    """The precision to count ULPs in: the coarsest of the values (float32 if any is)."""
    for v in values:
        dt = getattr(v, "dtype", None)
        if dt is not None and dt.kind in "fc" and dt.itemsize <= (8 if dt.kind == "c" else 4):
            return np.dtype(np.float32)
    return np.dtype(np.float64)


def ulp_distance(a: float, b: float, dtype: np.dtype | type = np.float64) -> int:
    """How many representable floats of `dtype` lie between `a` and `b` (0 for -0.0 and 0.0).

    Raises ValueError for NaN; infinities count as one step beyond the largest finite value.
    """
    if math.isnan(a) or math.isnan(b):
        raise ValueError("ulp_distance of NaN")
    return abs(_ordinal(a, dtype) - _ordinal(b, dtype))


def max_ulps(python: Any, compiled: Any) -> int | None:
    """The largest ULP distance between the finite floats of two results of the same shape
    (scalars, tuples, arrays; complex parts apart), 0 when they are equal, None when there
    is nothing to measure (not floats, different shapes, NaN or infinity everywhere)."""
    if isinstance(python, tuple | list) and isinstance(compiled, tuple | list):
        if len(python) != len(compiled):
            return None
        found = [max_ulps(p, c) for p, c in zip(python, compiled)]
        known = [f for f in found if f is not None]
        return max(known) if known else None
    p, c = np.asarray(python), np.asarray(compiled)
    if p.shape != c.shape or p.dtype.kind not in "fc" or c.dtype.kind not in "fc":
        return None
    if p.dtype.kind == "c" or c.dtype.kind == "c":
        parts = [max_ulps(p.real, c.real), max_ulps(p.imag, c.imag)]
        known = [f for f in parts if f is not None]
        return max(known) if known else None
    dtype = float_dtype(python, compiled)
    p, c = p.astype(dtype).ravel(), c.astype(dtype).ravel()
    finite = np.isfinite(p) & np.isfinite(c)
    if not finite.any():
        return None
    return int(_ulp_distances(p[finite], c[finite]).max())


def _ordinal(x: float, dtype: np.dtype | type) -> int:
    """The float's position on the line of representable values, as a Python int."""
    dt = np.dtype(dtype)
    bits = int(np.array(x, dtype=dt).view(np.dtype(f"u{dt.itemsize}")))
    sign = 1 << (8 * dt.itemsize - 1)
    return -(bits & (sign - 1)) if bits & sign else bits


def _scalar_float_difference(
    python: Any, compiled: Any, tol: Tolerance, path: str
) -> Difference | None:
    p, c = float(python), float(compiled)
    if math.isnan(p) or math.isnan(c):
        if math.isnan(p) and math.isnan(c):
            return None
        which = "python" if math.isnan(p) else "compiled"
        return Difference(path, show(python), show(compiled), f"NaN on one side only ({which})")
    if p == c:
        return None
    if math.isinf(p) or math.isinf(c):
        return Difference(path, show(python), show(compiled), _infinite_in_words(p, c))
    ulps = ulp_distance(p, c, float_dtype(python, compiled))
    if ulps <= tol.ulps or abs(p - c) <= tol.atol + tol.rtol * abs(p):
        return None
    detail = float_gap_in_words(p, c, ulps) + f" (tolerance {tol})"
    return Difference(path, show(python), show(compiled), detail, ulps)


def float_gap_in_words(p: float, c: float, ulps: int) -> str:
    """How far apart two finite floats are, for a reader: the relative error first, then
    ULPs while they mean something (across zero they count every float in between, a
    number like 4611686018427387904 that says nothing)."""
    relative = abs(p - c) / abs(p) if p else math.inf
    rel = "compiled is nonzero where python is 0" if not p else f"relative error {relative:.3g}"
    if (p < 0) != (c < 0) and p and c:
        return f"opposite signs, {rel}"
    if not c:
        return f"{rel}, compiled is 0"
    return f"{rel}, {ulps} ulps apart"


def _infinite_in_words(p: float, c: float) -> str:
    if math.isinf(p) and math.isinf(c):
        return "infinities of opposite signs"
    side, other = ("python", "compiled") if math.isinf(p) else ("compiled", "python")
    return f"{side} is infinite, {other} finite (overflow on one side only)"


# --- arrays --------------------------------------------------------------------------------


def _array_difference(
    python: np.ndarray, compiled: np.ndarray, tol: Tolerance, path: str
) -> Difference | None:
    if python.shape != compiled.shape:
        detail = f"shape {python.shape} != {compiled.shape}"
        return Difference(path, show(python), show(compiled), detail)
    if python.dtype != compiled.dtype:
        detail = f"dtype {python.dtype} != {compiled.dtype}"
        return Difference(path, show(python), show(compiled), detail)
    bad = _bad_elements(python, compiled, tol)
    if not bad.any():
        return None
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    p, c = python[index], compiled[index]
    where = f"{path}[{', '.join(map(str, index))}]"
    element = first_difference(p, c, tol, where)
    if element is None:  # pragma: no cover - the masks and the scalar rules are the same policy
        element = Difference(where, show(p), show(c), "not equal")
    count = int(bad.sum())
    suffix = f"; {count} of {bad.size} elements differ" if count > 1 else ""
    # the arrays' dtypes are known: show elements as plain numbers
    return Difference(where, repr(p.item()), repr(c.item()), element.detail + suffix, element.ulps)


def _bad_elements(python: np.ndarray, compiled: np.ndarray, tol: Tolerance) -> np.ndarray:
    """A boolean mask of the elements that differ beyond `tol`."""
    if python.dtype.kind == "c":
        return _bad_floats(python.real, compiled.real, tol) | _bad_floats(
            python.imag, compiled.imag, tol
        )
    if python.dtype.kind == "f":
        return _bad_floats(python, compiled, tol)
    if python.dtype.kind in "biu":
        return np.asarray(python != compiled)
    return np.asarray(
        [first_difference(p, c, tol) is not None for p, c in zip(python.flat, compiled.flat)]
    ).reshape(python.shape)


def _bad_floats(python: np.ndarray, compiled: np.ndarray, tol: Tolerance) -> np.ndarray:
    p_nan, c_nan = np.isnan(python), np.isnan(compiled)
    with np.errstate(invalid="ignore", over="ignore"):
        same = (python == compiled) | (p_nan & c_nan)
        close = np.abs(python - compiled) <= tol.atol + tol.rtol * np.abs(python)
    finite = np.isfinite(python) & np.isfinite(compiled)
    within = _ulp_distances(python, compiled) <= np.uint64(max(tol.ulps, 0))
    return ~same & ~(finite & (within | close))


def _ulp_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Vectorised `ulp_distance`, exact, as uint64 (NaN elements give meaningless values)."""
    oa, ob = _ordinals(a), _ordinals(b)
    with np.errstate(over="ignore"):
        same_side = (oa < 0) == (ob < 0)
        near = np.abs(oa - ob).astype(np.uint64)  # no overflow: same sign
        far = np.abs(oa).astype(np.uint64) + np.abs(ob).astype(np.uint64)
    return np.where(same_side, near, far)


def _ordinals(a: np.ndarray) -> np.ndarray:
    """Vectorised `_ordinal`: magnitudes below 2**63, so negation cannot overflow."""
    bits = np.ascontiguousarray(a).view(np.dtype(f"i{a.dtype.itemsize}")).astype(np.int64)
    magnitude_mask = np.int64(2 ** (8 * a.dtype.itemsize - 1) - 1)
    return np.where(bits < 0, -(bits & magnitude_mask), bits)
