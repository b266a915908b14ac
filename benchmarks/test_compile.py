"""Compile latency: the first call of a fresh jitcore (or Numba) function on tiny inputs.

Every round builds a new function object with `variants.rebuild`, callees included, so
nothing compiled earlier is reused. The inputs are tiny so that running the compiled code adds
next to nothing. Kernels jitcore cannot compile yet are skipped: a fallback has no latency.

`jitcore` is what a user gets: tiny inputs get first-tier code (`jitcore.tiering`; the
project's conftest turns tiering off for everything else, and it is turned on again here);
`jitcore-final` is the first call compiling the final (O3) code at once (`tiered=False`),
which a first call on large inputs gets, and what the background compile later spends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from benchmarks.cases import BY_NAME, CASES, Case
from benchmarks.harness import fallback_reason, first_line, rounds_for, time_once
from benchmarks.variants import fresh_jit, fresh_numba, numba_available

# Seconds of compiling per benchmark; every round is a whole compilation.
BUDGET = 1.5


def _factory(compiler: str) -> Callable[[Any], Any]:
    if compiler == "numba":
        if not numba_available():
            pytest.skip("numba is not installed (optional: pip install numba)")
        return fresh_numba
    if compiler == "jitcore-final":
        return lambda kernel: fresh_jit(kernel, tiered=False)
    return fresh_jit


@pytest.fixture(autouse=True)
def _tiered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiering as users get it (the project's conftest sets JITCORE_TIERED=0 for tests)."""
    monkeypatch.delenv("JITCORE_TIERED", raising=False)


def _probe(case: Case, compiler: str, make: Callable[[Any], Any], args: tuple) -> Any:
    """One fresh compilation, before timing: it skips what cannot compile, warms up the
    compiler itself (Numba's first compilation in a process is much slower), and keeps
    jitcore's per-stage times."""
    fn = make(case.kernel)
    if compiler != "numba":
        reason = fallback_reason(fn, args)
        if reason is not None:
            pytest.skip(f"jitcore cannot compile this kernel yet: {reason}")
        return fn
    try:
        fn(*args)
    except Exception as exc:
        pytest.skip(f"numba cannot compile this kernel: {first_line(str(exc))}")
    return fn


@pytest.mark.parametrize("compiler", ["jitcore", "jitcore-final", "numba"])
@pytest.mark.parametrize("kernel", [case.name for case in CASES])
def test_compile_latency(benchmark: Any, kernel: str, compiler: str) -> None:
    case = BY_NAME[kernel]
    benchmark.group = f"{case.name} (compile)"
    make = _factory(compiler)
    args = case.inputs(case.tiny_size)
    probe = _probe(case, compiler, make, args)
    benchmark.extra_info.update(kind="compile", kernel=case.name, impl=compiler)
    if compiler == "jitcore":
        stages = probe.stats().stages  # a callee compiles within the caller's typeinfer
        benchmark.extra_info["stages_ms"] = {k: 1e3 * v for k, v in stages.items()}

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (make(case.kernel), *args), {}

    rounds = rounds_for(time_once(make(case.kernel), args), BUDGET, 3, 10)
    benchmark.pedantic(lambda fn, *a: fn(*a), setup=setup, rounds=rounds)
