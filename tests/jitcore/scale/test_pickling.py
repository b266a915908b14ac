"""Pickling jitted functions: by reference, by value (closures, globals, helpers), and shipped
to worker processes (ProcessPoolExecutor with spawn, joblib)."""

from __future__ import annotations

import linecache
import multiprocessing
import pickle
import sys
import textwrap
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from jitcore import jit
from tests.jitcore.scale import kernels

A = np.linspace(-1.0, 2.0, 7)


def test_module_level_function_pickles_by_reference() -> None:
    data = pickle.dumps(kernels.scaled_sum)
    assert b"make_power_sum" not in data and len(data) < 200  # two names, no code
    assert pickle.loads(data) is kernels.scaled_sum


def test_closure_pickles_by_value_with_helpers_globals_and_defaults() -> None:
    power_sum = kernels.make_power_sum(3)
    copy = pickle.loads(pickle.dumps(power_sum))
    assert copy is not power_sum
    assert copy(A) == power_sum(A) == power_sum.py_func(A)
    assert copy(A, 1.5) == power_sum.py_func(A, 1.5)
    # the closure value travelled: another exponent gives another function
    assert pickle.loads(pickle.dumps(kernels.make_power_sum(2)))(A) != copy(A)


def test_by_value_keeps_options_and_eager_signatures() -> None:
    def inner(x: float) -> float:
        return x * 2.0

    j = jit(mode="compiled", fastmath=True, signatures=["f64"])(inner)
    copy = pickle.loads(pickle.dumps(j))
    assert copy.options == j.options
    assert [str(t) for t in copy.signatures[0]] == ["f64"]  # compiled on arrival
    assert copy(1.25) == 2.5


def test_with_options_variant_pickles_as_its_origin_plus_options() -> None:
    variant = kernels.scaled_sum.with_options(opt=1, boundscheck=False)
    copy = pickle.loads(pickle.dumps(variant))
    assert copy is variant  # in one process the origin's variant table gives the same object
    assert copy(A) == kernels.scaled_sum(A)


def test_recursive_local_function_pickles_by_value() -> None:
    @jit(mode="compiled")
    def fib(n: int) -> int:
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    copy = pickle.loads(pickle.dumps(fib))
    assert copy is not fib and copy(15) == 610


def test_by_value_compiles_where_the_source_file_is_gone(tmp_path: Path) -> None:
    """The receiving machine may not have the file: the source lines travel along."""
    path = tmp_path / "gone_module.py"
    path.write_text(
        textwrap.dedent(
            """
            import numpy as np
            from jitcore import jit

            def make(k):
                @jit(mode="compiled")
                def f(a):
                    return np.sum(a) * k
                return f
            """
        )
    )
    sys.path.insert(0, str(tmp_path))
    try:
        import gone_module  # type: ignore[import-not-found]

        data = pickle.dumps(gone_module.make(3.0))
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("gone_module", None)
    path.unlink()
    # forget that file's lines only: clearing the whole cache also dropped the lines other
    # tests registered for their generated functions (test_nprandomrng's `made_*`)
    linecache.checkcache(str(path))
    assert str(path) not in linecache.cache
    copy = pickle.loads(data)
    assert copy(A) == pytest.approx(np.sum(A) * 3.0)


def _spawn_pool(workers: int = 2) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))


def test_process_pool_map_ships_by_reference_and_by_value() -> None:
    chunks = np.array_split(np.linspace(0.0, 1.0, 40), 4)
    power_sum = kernels.make_power_sum(2)
    with _spawn_pool() as pool:
        by_reference = list(pool.map(kernels.scaled_sum, chunks))
        by_value = list(pool.map(power_sum, chunks))
    assert by_reference == [kernels.scaled_sum.py_func(c) for c in chunks]
    assert by_value == pytest.approx([power_sum.py_func(c) for c in chunks], rel=1e-15)


@pytest.mark.parametrize("kernel", ["chunk_stats", "parallel_count"])
def test_workers_share_the_disk_cache(
    kernel: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One worker compiles, the next loads (workers read JITCORE_CACHE* when they start);
    a parallel kernel loads with the function its prange loop became."""
    func = getattr(kernels, kernel)
    monkeypatch.setenv("JITCORE_CACHE", "1")
    monkeypatch.setenv("JITCORE_CACHE_DIR", str(tmp_path / "cache"))
    results = []
    for _ in range(2):  # one fresh process after the other
        with _spawn_pool(1) as pool:
            results.append(pool.submit(kernels.run_in_worker, (func, A)).result())
    expected = func.py_func(A)
    assert [r for r, _ in results] == [expected, expected]
    assert [hit for _, hit in results] == [False, True]


def test_joblib_parallel_map() -> None:
    joblib = pytest.importorskip("joblib", reason="joblib is in the `distributed` extra")
    chunks = np.array_split(np.linspace(-2.0, 2.0, 30), 3)
    power_sum = kernels.make_power_sum(3)
    out = joblib.Parallel(n_jobs=2)(joblib.delayed(power_sum)(c) for c in chunks)
    assert out == pytest.approx([power_sum.py_func(c) for c in chunks], rel=1e-15)
