"""`@`, np.matmul and np.dot through SciPy's BLAS (jitcore/lib/matmul.py, jitcore/lib/blas.py):
every ndim combination NumPy accepts, every layout (C, Fortran, strided, reversed,
transposed, broadcast stacks), float32/float64/complex by BLAS and ints/bools by the blocked
kernels, NumPy's errors; the same without SciPy; and compiled code cached in one process
calling BLAS in another (where SciPy lives at other addresses)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jitcore.lib.catalog  # noqa: F401 - every rule registered first, in the README's order
from jitcore.lib import blas, matmul
from jitcore.runtime import externs
from tests.jitcore.lib.arrays_strategy import laid_out
from tests.jitcore.support import compiled, run_twice_on_one_cache

pytestmark = pytest.mark.skipif(not blas.available(), reason="SciPy is not installed")

DTYPES = ("float64", "float32", "complex128", "complex64", "int64", "int32", "bool")
LAYOUTS = ("C", "F", "strided", "reversed", "transposed")


def mm(a, b):
    return a @ b


def np_matmul(a, b):
    return np.matmul(a, b)


def dot(a, b):
    return np.dot(a, b)


def method_dot(a, b):
    return a.dot(b)


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith("int"):
        return rng.integers(-9, 10, shape).astype(dtype)
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _layout(a: np.ndarray, layout: str) -> np.ndarray:
    if layout == "transposed":  # a transposed Fortran array: C order through another path
        return np.asfortranarray(a.T).T if a.ndim == 2 else a
    return laid_out(a, layout)


def _tolerance(dtype: np.dtype, k: int) -> float:
    eps = float(np.finfo(dtype).eps) if dtype.kind in "fc" else 0.0
    return 8 * eps * max(k, 1)


def _check(result: Any, expected: Any, k: int) -> None:
    expected = np.asarray(expected)
    assert isinstance(result, np.ndarray | np.generic)
    assert np.asarray(result).dtype == expected.dtype
    assert np.shape(result) == expected.shape
    if expected.dtype.kind in "fc":
        finite = np.abs(expected[np.isfinite(expected)])
        scale = finite.max() if finite.size else 1.0
        tol = _tolerance(expected.dtype, k) * max(float(scale), 1.0)
        np.testing.assert_allclose(result, expected, rtol=0, atol=tol, equal_nan=True)
    else:
        assert np.array_equal(result, expected)


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(0, 6),
    k=st.integers(0, 6),
    m=st.integers(0, 6),
    ndims=st.sampled_from([(1, 1), (1, 2), (2, 1), (2, 2)]),
    dtype=st.sampled_from(DTYPES),
    layouts=st.tuples(st.sampled_from(LAYOUTS), st.sampled_from(LAYOUTS)),
    nan=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_products_of_vectors_and_matrices(
    n: int, k: int, m: int, ndims: tuple, dtype: str, layouts: tuple, nan: bool, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    shape_a = (n, k) if ndims[0] == 2 else (k,)
    shape_b = (k, m) if ndims[1] == 2 else (k,)
    a = _values(rng, shape_a, dtype)
    b = _values(rng, shape_b, dtype)
    if nan and a.dtype.kind in "fc" and a.size:
        a.flat[rng.integers(a.size)] = np.nan
    a, b = _layout(a, layouts[0]), _layout(b, layouts[1])
    for f in (mm, dot):
        _check(compiled(f)(a, b), f(a, b), k)


@pytest.mark.parametrize(
    ("da", "db"),
    [("float32", "float64"), ("int32", "float32"), ("float64", "complex64"), ("bool", "int64")],
)
@pytest.mark.parametrize("f", [np_matmul, method_dot])
def test_mixed_dtypes_convert_to_numpys_result_type(f: Any, da: str, db: str) -> None:
    rng = np.random.default_rng(3)
    a = np.asfortranarray(_values(rng, (4, 5), da))
    b = _values(rng, (5, 3), db)[:, ::-1]
    _check(compiled(f)(a, b), f(a, b), 5)
    v = _values(rng, (5,), db)
    _check(compiled(f)(a, v), f(a, v), 5)


@settings(max_examples=25, deadline=None)
@given(
    batch_a=st.lists(st.integers(1, 3), max_size=2),
    batch_b=st.lists(st.integers(1, 3), max_size=2),
    n=st.integers(0, 4),
    k=st.integers(0, 4),
    m=st.integers(0, 4),
    vector=st.sampled_from([None, "a", "b"]),
    dtype=st.sampled_from(DTYPES),
    layout=st.sampled_from(LAYOUTS),
    seed=st.integers(0, 2**32 - 1),
)
def test_stacks_broadcast_like_numpy(
    batch_a: list,
    batch_b: list,
    n: int,
    k: int,
    m: int,
    vector: str | None,
    dtype: str,
    layout: str,
    seed: int,
) -> None:
    rng = np.random.default_rng(seed)
    # where both have a batch axis, make them broadcastable (equal, or one of them 1)
    size = min(len(batch_a), len(batch_b))
    for i in range(1, size + 1):
        if batch_a[-i] != batch_b[-i] and 1 not in (batch_a[-i], batch_b[-i]):
            batch_b[-i] = batch_a[-i]
    shape_a = (k,) if vector == "a" else (*batch_a, n, k)
    shape_b = (k,) if vector == "b" else (*batch_b, k, m)
    if max(len(shape_a), len(shape_b)) < 3:
        shape_a = (2, *shape_a) if vector != "a" else shape_a
        shape_b = (2, *shape_b) if vector != "b" else shape_b
        if vector is None:
            shape_b = (1, *shape_b)
    a = laid_out(_values(rng, shape_a, dtype), layout if layout != "transposed" else "F")
    b = _values(rng, shape_b, dtype)
    _check(compiled(mm)(a, b), a @ b, k)
    _check(compiled(np_matmul)(a, b), np.matmul(a, b), k)


@pytest.mark.parametrize("f", [mm, dot])
@pytest.mark.parametrize(
    ("sa", "sb"),
    [((2, 3), (4, 5)), ((3,), (4,)), ((2, 3), (2,)), ((3,), (2, 3)), ((3, 2, 4), (3, 5, 2))],
)
def test_mismatched_shapes_raise_value_error(f: Any, sa: tuple, sb: tuple) -> None:
    a, b = np.ones(sa), np.ones(sb)
    with pytest.raises(ValueError):
        f(a, b)
    with pytest.raises(ValueError):
        compiled(f)(a, b)


def test_stack_batches_that_do_not_broadcast_raise() -> None:
    a, b = np.ones((2, 3, 4)), np.ones((3, 4, 5))
    with pytest.raises(ValueError):
        a @ b
    with pytest.raises(ValueError):
        compiled(mm)(a, b)


@settings(max_examples=20, deadline=None)
@given(
    lead_a=st.lists(st.integers(0, 3), max_size=2),
    lead_b=st.lists(st.integers(0, 3), max_size=2),
    k=st.integers(0, 4),
    m=st.integers(1, 3),
    vector=st.sampled_from([None, "a", "b"]),
    dtype=st.sampled_from(DTYPES),
    layout=st.sampled_from(["C", "F", "strided", "reversed"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_dot_of_n_dimensional_arrays(
    lead_a: list,
    lead_b: list,
    k: int,
    m: int,
    vector: str | None,
    dtype: str,
    layout: str,
    seed: int,
) -> None:
    """np.dot sums over a's last axis and b's second-to-last: a.shape[:-1] + b.shape[:-2] +
    b.shape[-1:]."""
    rng = np.random.default_rng(seed)
    shape_a = (k,) if vector == "a" else (*lead_a, 2, k)
    shape_b = (k,) if vector == "b" else (*lead_b, k, m)
    if max(len(shape_a), len(shape_b)) < 3:
        shape_a = (2, *shape_a) if vector != "a" else shape_a
        shape_b = (2, *shape_b) if len(shape_a) < 3 else shape_b
    a = laid_out(_values(rng, shape_a, dtype), layout)
    b = _values(rng, shape_b, dtype)
    _check(compiled(dot)(a, b), np.dot(a, b), k)
    _check(compiled(method_dot)(a, b), a.dot(b), k)


def test_float_products_call_blas_and_int_products_do_not() -> None:
    """The compiled code names SciPy's routine (resolved at link time, never an address)."""

    def product(a, b):
        return a @ b

    f = compiled(product)
    a = np.ones((3, 3))
    f(a, a)
    floats = f.signatures[0]
    f(a.astype(np.int64), a.astype(np.int64))
    ints = f.signatures[1]
    assert "matmul_mm" in f.inspect("lower", floats)
    assert "matmul_mm" not in f.inspect("lower", ints)


def test_the_primitives_run_as_python_too() -> None:
    """The routine families are plain functions: from Python they call the same routine."""
    rng = np.random.default_rng(1)
    a, b = rng.random((3, 4)), rng.random((4, 2))
    out = np.empty((3, 2))
    # out^T (2 x 3, column-major) = b^T a^T: the row-major buffers are those transposes
    blas.gemm(78, 78, 2, 3, 4, b, 2, a, 4, out, 2)
    np.testing.assert_allclose(out, a @ b)
    x = rng.random(4)
    assert np.isclose(blas.dot(4, x, 1, x, 1), x @ x)
    kernel_out = np.empty((3, 2))
    matmul.matmul_mm(np.asfortranarray(a), b, kernel_out)
    np.testing.assert_allclose(kernel_out, a @ b)


def test_without_scipy_the_blocked_kernels_run(monkeypatch: pytest.MonkeyPatch) -> None:
    from jitcore import jit

    monkeypatch.setattr(externs, "scipy_available", lambda: False)

    def product(a, b):
        return a @ b

    f = jit(mode="compiled")(product)
    rng = np.random.default_rng(2)
    a, b = rng.random((5, 4)), rng.random((4, 3))
    np.testing.assert_allclose(f(np.asfortranarray(a), b[:, ::-1]), a @ b[:, ::-1])
    assert "jitcore.scipy" not in f.inspect("llvm")
    assert "matmul_mm" not in f.inspect("lower")


CHILD = """
import json, os
import numpy as np
import kernels
a = np.arange(12.0).reshape(3, 4)
result = kernels.product(a, np.asfortranarray(a.T))
from jitcore.runtime import externs
print(json.dumps({"result": result.tolist(), "hit": kernels.product.stats().cache_hit,
                  "dgemm": externs.routine_address("blas", "dgemm")}))
"""


def test_cached_blas_code_links_in_another_process(tmp_path: Path) -> None:
    module = "from jitcore import jit\n\n@jit(cache=True)\ndef product(a, b):\n    return a @ b\n"
    runs = run_twice_on_one_cache(tmp_path, module, CHILD, timeout=180)
    a = np.arange(12.0).reshape(3, 4)
    assert not runs[0]["hit"] and runs[1]["hit"]
    assert runs[0]["result"] == runs[1]["result"] == (a @ a.T).tolist()
