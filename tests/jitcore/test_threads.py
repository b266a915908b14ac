"""First calls from many threads at once: right results, one compile per signature."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from jitcore import jit, pipeline


def _counting_compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the function name of every pipeline run (one per compiled specialization)."""
    runs: list[str] = []
    real = pipeline.run_pipeline

    def counted(parsed: Any, *args: Any, **kwargs: Any) -> Any:
        runs.append(parsed.qualname)
        return real(parsed, *args, **kwargs)

    monkeypatch.setattr(pipeline, "run_pipeline", counted)
    return runs


def _all_at_once(n: int, work: Callable[[int], Any]) -> list[Any]:
    """Run `work(i)` in `n` threads released together; return results (or exceptions)."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = work(i)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def _make_kernels() -> tuple[Any, Any]:
    def helper(x: float) -> float:
        return x * 2.0 + 1.0

    jhelper = jit(mode="compiled")(helper)

    def kernel(a: np.ndarray, x: float) -> float:
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * jhelper(x)
        return s

    return jit(mode="compiled")(kernel), kernel


def test_sixteen_threads_compile_one_function_once(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = _counting_compiles(monkeypatch)
    jkernel, kernel = _make_kernels()
    a = np.arange(10.0)
    results = _all_at_once(16, lambda i: jkernel(a, float(i)))
    assert results == [kernel(a, float(i)) for i in range(16)]
    assert sorted(runs) == ["_make_kernels.<locals>.helper", "_make_kernels.<locals>.kernel"]
    assert len(jkernel.signatures) == 1


def test_threads_compiling_different_signatures_and_functions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs = _counting_compiles(monkeypatch)
    jkernel, kernel = _make_kernels()
    inputs = [np.arange(5.0), np.arange(5, dtype=np.float32), np.arange(5), np.ones((5,))]

    def work(i: int) -> Any:
        return jkernel(inputs[i % 4], float(i))

    results = _all_at_once(16, work)
    assert results == [kernel(inputs[i % 4], float(i)) for i in range(16)]
    # three array types (f64 twice): three kernels and one helper
    assert runs.count("_make_kernels.<locals>.kernel") == 3
    assert runs.count("_make_kernels.<locals>.helper") == 1


@pytest.mark.parametrize("cache", [False, True])
def test_stress_rounds_of_first_calls(
    cache: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """16 threads x 20 rounds, each round a new function: every result right, one compile."""
    monkeypatch.setenv("JITCORE_CACHE_DIR", str(tmp_path / "cache"))
    runs = _counting_compiles(monkeypatch)
    for round_ in range(20):

        def poly(x: float, k: int = round_) -> float:
            return x * x + k

        jpoly = jit(mode="compiled", cache=cache)(poly)
        results = _all_at_once(16, lambda i, f=jpoly, k=round_: f(float(i), k))
        assert results == [poly(float(i), round_) for i in range(16)]
    assert len(runs) == 20
