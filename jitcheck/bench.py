"""Timing with pytest-benchmark's calibrated timers, rounds and statistics.

Each mode is timed by a `pytest_benchmark.fixture.BenchmarkFixture`, driven the way the
`benchmark` fixture drives it: it calibrates how many iterations make one round measurable
with the timer, runs rounds until `--benchmark-max-time` (at least `--benchmark-min-rounds`),
and keeps its `Stats`. jitcheck stores what pytest-benchmark stores for a benchmark (its
`as_dict()`), so the numbers read the same in both tools, and takes the timing options from
pytest-benchmark's own command-line options.

The speedup of a mode is Python's minimum time over the mode's minimum time (or another
statistic: `median:10%` on the gate), both measured in the same process and run: the minimum
is the least noisy estimate of a call's cost.

Besides pytest-benchmark's rounds, which time Python and then each mode one after the other
(a load burst during one of them moves its numbers alone), `paired_rounds` times them
interleaved: each round runs Python and every mode back to back, so a round's Python time
over its compiled time (a *paired ratio*) cancels load that lasts longer than a round. The
baseline gate tests those ratios, and their spread is the noise level it reports.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from pytest_benchmark.fixture import BenchmarkFixture
from pytest_benchmark.logger import Logger
from pytest_benchmark.utils import load_timer

SPEEDUP_STAT = "min"
# Raw per-round samples kept per benchmark (evenly spaced over the run when there are more):
# enough for the baseline's significance test, small enough for a report of many functions.
MAX_SAMPLES = 200
PAIRED_ROUNDS = 30  # interleaved rounds per function (fewer when --benchmark-max-time is tiny)
PAIRED_ROUND_TIME = 0.002  # seconds each side of a paired round aims at


@dataclass(frozen=True)
class BenchOptions:
    """pytest-benchmark's timing options, as plain data (it crosses to isolation children)."""

    min_time: float = 0.000005
    max_time: float = 1.0
    min_rounds: int = 5
    timer: str = "time.perf_counter"
    disable_gc: bool = False
    warmup: bool = False
    warmup_iterations: int = 100000
    calibration_precision: int = 10

    @classmethod
    def from_config(cls, config: Any) -> BenchOptions:
        """The options given to pytest-benchmark (`--benchmark-max-time` ...), else defaults."""
        values: dict[str, Any] = {}
        for name in asdict(cls()):
            try:
                value = config.getoption(f"benchmark_{name}")
            except ValueError:  # pytest-benchmark disabled with -p no:benchmark
                continue
            if value is not None:
                values[name] = str(value) if name == "timer" else value
        return cls(
            min_time=float(values.get("min_time", cls.min_time)),
            max_time=float(values.get("max_time", cls.max_time)),
            min_rounds=int(values.get("min_rounds", cls.min_rounds)),
            timer=values.get("timer", cls.timer),
            disable_gc=bool(values.get("disable_gc", cls.disable_gc)),
            warmup=bool(values.get("warmup", cls.warmup)),
            warmup_iterations=int(values.get("warmup_iterations", cls.warmup_iterations)),
            calibration_precision=int(
                values.get("calibration_precision", cls.calibration_precision)
            ),
        )


@dataclass(frozen=True)
class _Node:
    """What BenchmarkFixture reads from a pytest item: the names of the benchmark."""

    name: str
    nodeid: str


def time_call(
    func: Callable[..., Any],
    args: tuple[Any, ...],
    name: str,
    options: BenchOptions,
    sink: Callable[[Any], None] | None = None,
) -> dict[str, Any]:
    """Time `func(*args)` and return pytest-benchmark's record of it, with at most
    `MAX_SAMPLES` of its raw per-round samples (`stats.data`, seconds per call). `sink`, if
    given, also receives pytest-benchmark's record (its session's `benchmarks.append`), so
    its table, `--benchmark-json`, storage, compare and histogram include jitcheck's timings;
    the benchmark is named `name` and grouped as `jitcheck`."""
    records: list[Any] = []

    def add_stats(record: Any) -> None:
        records.append(record)
        if sink is not None:
            sink(record)

    fixture = BenchmarkFixture(
        _Node(name, name),
        disable_gc=options.disable_gc,
        timer=load_timer(options.timer),
        min_rounds=options.min_rounds,
        min_time=options.min_time,
        max_time=options.max_time,
        precision=None,
        confidence=None,
        warmup=options.warmup,
        warmup_iterations=options.warmup_iterations,
        calibration_precision=options.calibration_precision,
        add_stats=add_stats,
        group="jitcheck",
        logger=Logger(Logger.QUIET),
        warner=warnings.warn,
        disabled=False,
        cprofile=False,
        cprofile_loops=None,
        cprofile_dump=False,
    )
    fixture(func, *args)
    record = records[0].as_dict(include_data=True)
    data = record["stats"]["data"]
    if len(data) > MAX_SAMPLES:
        step = len(data) / MAX_SAMPLES
        picked = [int(i * step) for i in range(MAX_SAMPLES)]
        # the fastest round stays among the kept samples, so they agree with stats.min
        fastest = min(range(len(data)), key=data.__getitem__)
        picked[min(int(fastest / step), MAX_SAMPLES - 1)] = fastest
        record["stats"]["data"] = [data[i] for i in picked]
    record["stats"]["data"] = [float(x) for x in record["stats"]["data"]]
    return record


def speedup(
    python: dict[str, Any], compiled: dict[str, Any], stat: str = SPEEDUP_STAT
) -> float | None:
    """Python's time over the compiled time by `stat` (None if either is missing or zero)."""
    p = python.get("stats", {}).get(stat)
    c = compiled.get("stats", {}).get(stat)
    if not p or not c:
        return None
    return float(p) / float(c)


def paired_rounds(
    calls: Mapping[str, Callable[[], Any]],
    per_call: Mapping[str, float],
    options: BenchOptions,
) -> dict[str, list[float]]:
    """Seconds per call of each of `calls`, one sample per round, timed interleaved: every
    round runs each callable back to back (the order rotated from round to round, so none is
    always first after a pause) for about `PAIRED_ROUND_TIME`, its iteration count chosen from
    `per_call` (a first estimate, e.g. pytest-benchmark's minimum). Rounds: `PAIRED_ROUNDS`,
    fewer when `options.max_time` cannot hold them, never fewer than `options.min_rounds`."""
    names = list(calls)
    target = min(PAIRED_ROUND_TIME, options.max_time / 10)
    loops = {n: max(1, math.ceil(target / max(per_call[n], 1e-9))) for n in names}
    round_time = sum(loops[n] * per_call[n] for n in names) or target
    rounds = max(options.min_rounds, min(PAIRED_ROUNDS, int(options.max_time / round_time)))
    timer = load_timer(options.timer).target
    samples: dict[str, list[float]] = {n: [] for n in names}
    for r in range(rounds):
        for n in names[r % len(names) :] + names[: r % len(names)]:
            call, count = calls[n], loops[n]
            start = timer()
            for _ in range(count):
                call()
            samples[n].append((timer() - start) / count)
    return samples


def ratios(python: list[float], compiled: list[float]) -> list[float]:
    """Per paired round, Python's time over the compiled time."""
    return [p / c for p, c in zip(python, compiled) if p > 0 and c > 0]


def relative_spread(samples: list[float]) -> float | None:
    """The noise level of samples: their interquartile range over their median."""
    if len(samples) < 4:
        return None
    ordered = sorted(samples)
    n = len(ordered)
    q1, median, q3 = ordered[n // 4], ordered[n // 2], ordered[(3 * n) // 4]
    return (q3 - q1) / median if median else None
