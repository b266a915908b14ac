"""String search on adversarial inputs: `("a" * n).rfind("a" * (n // 2) + "b")`, where comparing
the needle at every position costs O(n * m). jitcore's `rfind` runs Knuth-Morris-Pratt
backwards (`jitcore.codegen.strsearch`), linear as CPython's search; `find` calls glibc's
`memmem`. Times at n and 8n show the growth (8x when linear, 64x when quadratic).

    pytest benchmarks/test_strsearch.py -p no:xdist --benchmark-only --benchmark-group-by=group
"""

from __future__ import annotations

from typing import Any

import pytest

from jitcore import jit


def rfind(s, t):  # noqa: ANN001, ANN201
    return s.rfind(t)


def find(s, t):  # noqa: ANN001, ANN201
    return s.find(t)


_COMPILED = {f: jit(f, mode="compiled") for f in (rfind, find)}


@pytest.mark.parametrize("n", [50_000, 400_000])
@pytest.mark.parametrize("impl", ["python", "jitcore"])
@pytest.mark.parametrize("op", [rfind, find], ids=["rfind", "find"])
def test_adversarial_search(benchmark: Any, op: Any, impl: str, n: int) -> None:
    s, t = "a" * n, "a" * (n // 2) + "b"
    f = op if impl == "python" else _COMPILED[op]
    assert f(s, t) == -1 and f(t + s, t) == 0 and f(s + t, t) == n
    benchmark.group = f"{op.__name__} adversarial (n={n:,})"
    benchmark.extra_info.update(kind="strsearch", impl=impl, n=n)
    benchmark(f, s, t)
