"""Each bundled kernel timed as Python, NumPy, jitcore and Numba, side by side in one group.

jitcore runs in its default AUTO mode, so a kernel it cannot compile yet still runs, as Python;
such a row records `jitcore: fallback` and the reason, and `table.py` labels it. Python (and a
jitcore fallback) runs at the case's `python_size` when the full size would take seconds; the
test id then says `python@n=...` and `extra_info["scale"]` converts its time to the full size.
"""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.cases import BY_NAME, CASES, Case
from benchmarks.harness import (
    IMPLEMENTATIONS,
    applies,
    implementation,
    inputs,
    run_benchmark,
    warm_up,
)


def _id(case: Case, impl: str) -> str:
    scaled = impl == "python" and case.python_size != case.size
    return f"{case.name}-{impl}" + (f"@n={case.python_size}" if scaled else "")


PARAMS = [
    pytest.param(case.name, impl, id=_id(case, impl))
    for case in CASES
    for impl in IMPLEMENTATIONS
    if applies(case, impl)
]


@pytest.mark.parametrize(("kernel", "impl"), PARAMS)
def test_kernel(benchmark: Any, request: pytest.FixtureRequest, kernel: str, impl: str) -> None:
    case = BY_NAME[kernel]
    benchmark.group = case.name
    fn, n, info = implementation(case, impl)
    args = inputs(case.name, n)
    warm_up(impl, fn, args)
    benchmark.extra_info.update(
        kind="run",
        kernel=case.name,
        impl=impl,
        n=n,
        size=case.size,
        scale=case.scale(n),
        label=case.label(case.size),
        measured=case.label(n),
        **info,
    )
    budget = float(request.config.getoption("benchmark_max_time"))
    run_benchmark(benchmark, fn, args, case.resets, budget)
