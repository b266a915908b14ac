"""np.linalg through LAPACK (jitcore/lib/lapack.py) timed as NumPy, jitcore and Numba in one run:
`python -m benchmarks.linalg` prints one line per kernel (best of several runs, and the
ratios); `pytest benchmarks/test_linalg.py --benchmark-only` times them with pytest-benchmark.
The three call LAPACK routines (NumPy its own build, jitcore and Numba SciPy's), so the times
show the cost around the call: the Fortran-ordered copy, workspace queries, boxing."""

from __future__ import annotations

from typing import Any

import numpy as np

from benchmarks.npalgo import Case, best_time, check
from benchmarks.variants import numba_available
from jitcore import jit


def solve(a, b):
    return np.linalg.solve(a, b)


def inv(a):
    return np.linalg.inv(a)


def det(a):
    return np.linalg.det(a)


def cholesky(a):
    return np.linalg.cholesky(a)


def eigvalsh(a):
    return np.linalg.eigvalsh(a)


def singular_values(a):
    return np.linalg.svd(a, compute_uv=False)


def lstsq_solution(a, b):
    return np.linalg.lstsq(a, b)[0]


def _matrix(n: int, m: int | None = None) -> np.ndarray:
    return np.random.default_rng(15).standard_normal((n, n if m is None else m))


def _spd(n: int) -> np.ndarray:
    a = _matrix(n)
    return a @ a.T + n * np.eye(n)


CASES = (
    Case("solve 200x200, 10 rhs", solve, lambda: (_matrix(200), _matrix(200, 10))),
    Case("inv 200x200", inv, lambda: (_matrix(200),)),
    Case("det 200x200", det, lambda: (_matrix(200),)),
    Case("cholesky 200x200", cholesky, lambda: (_spd(200),)),
    Case("eigvalsh 200x200", eigvalsh, lambda: (_spd(200),)),
    Case("svd values 300x100", singular_values, lambda: (_matrix(300, 100),)),
    Case("lstsq 300x100", lstsq_solution, lambda: (_matrix(300, 100), _matrix(300, 1)[:, 0])),
    Case("solve 4x4", solve, lambda: (_matrix(4), _matrix(4, 1)[:, 0])),
)
BY_NAME = {c.name: c for c in CASES}


def jitcore_version(case: Case) -> Any:
    return jit(mode="compiled")(case.kernel)


def numba_version(case: Case) -> Any:
    import numba

    return numba.njit(case.kernel)


def main(only: str = "") -> None:
    for case in CASES:
        if only not in case.name:
            continue
        args = case.inputs()
        expected = case.kernel(*args)
        impls: dict[str, Any] = {"numpy": case.kernel, "jitcore": jitcore_version(case)}
        if numba_available():
            impls["numba"] = numba_version(case)
        times = {}
        for name, fn in impls.items():
            try:
                check(fn(*args), expected)
            except Exception as exc:  # noqa: BLE001 - a Numba without SciPy: report, go on
                print(f"{case.name:24} {name}: {type(exc).__name__}: {str(exc)[:60]}")  # noqa: T201
                continue
            times[name] = best_time(fn, args, repeat=20)
        ratios = "  ".join(
            f"jitcore/{k} {times['jitcore'] / v:5.2f}x" for k, v in times.items() if k != "jitcore"
        )
        line = "  ".join(f"{k} {v * 1e3:8.3f} ms" for k, v in times.items())
        print(f"{case.name:24} {line}  {ratios}")  # noqa: T201


if __name__ == "__main__":
    import sys

    main(sys.argv[1] if len(sys.argv) > 1 else "")
