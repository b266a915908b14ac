"""The machine a benchmark ran on, as far as jitcore's speed depends on it.

Generated code is tuned to the host CPU (name and features, as the `llvm-opt` stage and the
cache key see them), so a table of ratios means little without it.
"""

from __future__ import annotations

import importlib.metadata
import platform
from typing import Any

# Features that decide what the vectorizer can use, widest last.
SIMD_FEATURES = (
    "sse4.2",
    "avx",
    "avx2",
    "fma",
    "avx512f",
    "avx512dq",
    "avx512vl",
    "avx512bw",
    "neon",
    "sve",
)


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def summarize_features(features: str) -> str:
    """`+avx2,+fma,-avx512f,...` -> `avx, avx2, fma (61 features enabled)`."""
    enabled = {f[1:] for f in features.split(",") if f.startswith("+")}
    simd = [f for f in SIMD_FEATURES if f in enabled]
    return f"{', '.join(simd) or 'no wide SIMD'} ({len(enabled)} features enabled)"


def describe() -> dict[str, Any]:
    """CPU, Python and library versions: plain data, stored in the benchmark JSON."""
    import llvmlite.binding as llvm
    import numpy as np

    from benchmarks.variants import numba_available
    from jitcore.llvm_opt import host_cpu

    cpu, features = host_cpu()
    return {
        "cpu": cpu,
        "cpu_features": summarize_features(features),
        "processor": platform.processor() or platform.machine(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "llvmlite": _version("llvmlite"),
        "llvm": ".".join(map(str, llvm.llvm_version_info)),
        "numba": _version("numba") if numba_available() else None,
        "jitcore": _version("jitcore"),
    }
