"""Dispatch at scale: one function compiled for 500 signatures.

Measures, in one process: the CPU time of each block of new signatures (the total must grow
linearly: the native dispatcher is regenerated only for the first few signatures), the cost of
a warm call to the first and to the last signature (it must stay flat), and the resident
memory each specialization adds.

    python -m benchmarks.signatures [N]
"""

from __future__ import annotations

import itertools
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from jitcore import jit

# Eight argument types; signatures are triples of them (8**3 = 512 distinct signatures).
SAMPLES: tuple[object, ...] = (
    1,
    1.0,
    True,
    1j,
    np.int32(1),
    np.float32(1.0),
    np.int8(1),
    np.uint16(1),
)
BLOCK = 50


def pick(a, b, c):  # noqa: ANN001, ANN201 - typed by its arguments
    return 1


@dataclass
class ScaleResult:
    signatures: int
    block_seconds: list[float] = field(default_factory=list)  # CPU seconds per BLOCK signatures
    block_rss_kib: list[float] = field(default_factory=list)  # KiB of RSS per signature
    first_call_ns: float = 0.0
    last_call_ns: float = 0.0


def argument_triples(n: int) -> list[tuple[object, ...]]:
    return list(itertools.islice(itertools.product(SAMPLES, repeat=3), n))


def _rss_kib() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * 4.0


def _call_ns(f: object, args: tuple[object, ...], repeat: int = 20_000) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter_ns()
        for _ in range(repeat):
            f(*args)  # type: ignore[operator]
        best = min(best, (time.perf_counter_ns() - start) / repeat)
    return best


def measure(n: int = 500) -> ScaleResult:
    """Compile `pick` for `n` signatures, timing blocks of BLOCK, then time warm calls."""
    f = jit(mode="compiled")(pick)
    triples = argument_triples(n)
    result = ScaleResult(n)
    for start in range(0, n, BLOCK):
        block = triples[start : start + BLOCK]
        rss = _rss_kib()
        cpu = time.process_time()
        for args in block:
            f(*args)
        result.block_seconds.append(time.process_time() - cpu)
        result.block_rss_kib.append((_rss_kib() - rss) / len(block))
    assert len(f.signatures) == n
    result.first_call_ns = _call_ns(f, triples[0])
    result.last_call_ns = _call_ns(f, triples[-1])
    return result


def report(result: ScaleResult) -> str:
    lines = [
        f"{result.signatures} signatures of one function",
        "",
        "block  ms/signature  KiB RSS/signature",
    ]
    for i, (seconds, kib) in enumerate(zip(result.block_seconds, result.block_rss_kib)):
        lines.append(f"{i * BLOCK:>4}+  {seconds / BLOCK * 1e3:>12.1f}  {kib:>17.0f}")
    lines += [
        "",
        f"warm call, first signature: {result.first_call_ns:.0f} ns",
        f"warm call, last signature:  {result.last_call_ns:.0f} ns",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 500)))
