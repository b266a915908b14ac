"""Helpers shared by jitcore's tests: run a function both ways and compare outcomes."""

from __future__ import annotations

import cmath
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from jitcore import jit


def outcome(f: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    """("value", result) or ("raise", exception type)."""
    try:
        return "value", f(*args)
    except Exception as exc:  # noqa: BLE001 - the exception type is the outcome
        return "raise", type(exc)


def ulp_distance(a: float, b: float) -> float:
    if a == b:
        return 0.0
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
        return math.inf
    spacing = np.spacing(max(abs(a), abs(b)))
    return abs(a - b) / float(spacing)


def equivalent(expected: Any, got: Any, ulps: float = 4, atol: float = 0.0) -> bool:
    """Python's result and the compiled one agree: ints exact, floats within `ulps` (NaN equals
    NaN), complex parts likewise, tuples item by item."""
    if isinstance(expected, tuple):
        return (
            isinstance(got, tuple)
            and len(got) == len(expected)
            and all(equivalent(e, g, ulps, atol) for e, g in zip(expected, got))
        )
    if isinstance(expected, bool | np.bool_) or isinstance(got, bool | np.bool_):
        return bool(expected) == bool(got) and isinstance(got, bool | np.bool_ | int)
    if isinstance(expected, complex) or isinstance(got, complex):
        e, g = complex(expected), complex(got)
        if any(map(math.isnan, (e.real, e.imag, g.real, g.imag))):
            return cmath.isnan(e) and cmath.isnan(g)
        if e == g:
            return True
        # component errors are relative to the number's magnitude, as complex math is
        scale = float(np.spacing(max(abs(e), abs(g))))
        return abs(e - g) <= ulps * scale + atol
    if isinstance(expected, float) or isinstance(got, float | np.floating):
        e, g = float(expected), float(got)
        if math.isnan(e) or math.isnan(g):
            return math.isnan(e) and math.isnan(g)
        return ulp_distance(e, g) <= ulps or abs(e - g) <= max(atol, 1e-300)
    return expected == got


_COMPILED: dict[tuple, Any] = {}


def compiled(f: Callable[..., Any], **options: Any) -> Any:
    """One compiled dispatcher per (function, options), so Hypothesis examples reuse it."""
    key = (f, tuple(sorted(options.items())))
    if key not in _COMPILED:
        _COMPILED[key] = jit(mode="compiled", **options)(f)
    return _COMPILED[key]


def assert_same(
    f: Callable[..., Any], *args: Any, ulps: float = 4, atol: float = 0.0, **options: Any
) -> Any:
    """Compile `f` (mode compiled) and check it behaves like Python on `args`."""
    compiled_f = compiled(f, **options)
    want = outcome(f, *args)
    got = outcome(compiled_f, *args)
    if want[0] == "value" and not in_compiled_domain(want[1]):
        from hypothesis import reject

        reject()  # Python's int does not fit int64: outside what compiled code represents
    if want[0] == "raise" or got[0] == "raise":
        assert want == got, f"{f.__name__}{args}: Python {want}, compiled {got}"
    else:
        assert equivalent(want[1], got[1], ulps, atol), (
            f"{f.__name__}{args}: Python {want[1]!r}, compiled {got[1]!r}"
        )
    return got[1]


def in_compiled_domain(value: Any) -> bool:
    """False if `value` holds a Python int that int64 cannot represent."""
    if isinstance(value, tuple):
        return all(in_compiled_domain(v) for v in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return -(2**63) <= value < 2**63
    return True


def in_int64(*values: int) -> bool:
    return all(-(2**63) <= v < 2**63 for v in values)


__all__ = ["assert_same", "cmath", "compiled", "equivalent", "in_int64", "outcome", "ulp_distance"]


def same_value(want: Any, got: Any, ulps: float = 4) -> bool:
    """Like `equivalent`, and arrays must agree in shape, dtype and every element."""
    if isinstance(want, tuple):
        return (
            isinstance(got, tuple)
            and len(want) == len(got)
            and all(same_value(w, g, ulps) for w, g in zip(want, got))
        )
    if isinstance(want, np.ndarray):
        if not isinstance(got, np.ndarray) or got.shape != want.shape or got.dtype != want.dtype:
            return False
        if want.dtype.kind in "fc":
            return _close_in_dtype(want, got, ulps)
        return bool(np.array_equal(want, got))
    if isinstance(want, np.floating | np.complexfloating):  # ULPs of its own precision
        return _close_in_dtype(np.asarray([want]), np.asarray([got], dtype=want.dtype), ulps)
    if isinstance(want, np.generic):
        want = want.item()
    if isinstance(got, np.generic):
        got = got.item()
    return equivalent(want, got, ulps)


def _close_in_dtype(want: np.ndarray, got: np.ndarray, ulps: float) -> bool:
    """Elementwise within `ulps` units of the array's own precision; NaN equals NaN."""
    w = want.astype(np.complex128).ravel() if want.dtype.kind == "c" else want.ravel()
    g = got.astype(np.complex128).ravel() if got.dtype.kind == "c" else got.ravel()
    part = np.finfo(want.dtype).dtype
    for parts in ((w.real, g.real), (w.imag, g.imag)) if want.dtype.kind == "c" else ((w, g),):
        a, b = (np.asarray(p, dtype=part) for p in parts)
        nan_a, nan_b = np.isnan(a), np.isnan(b)
        if not np.array_equal(nan_a, nan_b):
            return False
        a, b = a[~nan_a], b[~nan_b]
        same = a == b
        with np.errstate(all="ignore"):
            spacing = np.spacing(np.maximum(np.abs(a), np.abs(b)).astype(part))
            close = np.abs(a.astype(np.float64) - b.astype(np.float64)) <= ulps * spacing.astype(
                np.float64
            )
        if not np.all(same | close):
            return False
    return True


def _copy(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        # keep layout and strides: a copy of the base, viewed the same way
        base = (
            value.base if value.base is not None and isinstance(value.base, np.ndarray) else None
        )
        if base is None:
            return value.copy(order="K")
        offset = value.__array_interface__["data"][0] - base.__array_interface__["data"][0]
        new_base = (
            base.copy(order="K")
            if base.flags.c_contiguous or base.flags.f_contiguous
            else base.copy()
        )
        return np.ndarray(
            value.shape, value.dtype, buffer=new_base, offset=offset, strides=value.strides
        )
    return value


def assert_same_arrays(f: Callable[..., Any], *args: Any, ulps: float = 4, **options: Any) -> Any:
    """Run `f` as Python and compiled on separate copies of `args`; compare the results and the
    arguments afterwards (kernels write into their inputs)."""
    import warnings

    py_args = [_copy(a) for a in args]
    jit_args = [_copy(a) for a in args]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        want = outcome(f, *py_args)
        got = outcome(compiled(f, **options), *jit_args)
    if want[0] == "raise" or got[0] == "raise":
        assert (
            want[0] == got[0] and issubclass(got[1], want[1]) if want[0] == "raise" else False
        ), f"{f.__name__}: Python {want}, compiled {got}"
        return got
    assert same_value(want[1], got[1], ulps), (
        f"{f.__name__}: Python {want[1]!r}, compiled {got[1]!r}"
    )
    for p, j in zip(py_args, jit_args):
        if isinstance(p, np.ndarray):
            assert same_value(p, j, ulps), f"{f.__name__}: argument after the call: {p!r} vs {j!r}"
    return got[1]
