"""Session-wide jit-diff settings (from the command line and the ini file) and state.

Only the standard library and pytest here: the plugin builds these while configuring every
pytest run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

DEFAULT_TIMEOUT = 60.0  # seconds per call: Python reference, and isolated compiled calls
DEFAULT_MAX_REGRESSION = 0.10
DEFAULT_MIN_RETURNED = 0.5  # share of examples on which Python must return normally
DEFAULT_MAX_REJECTED = 0.5  # share of examples that may be out of the compiled domain
DEFAULT_STATISTIC = "min"
# pytest-benchmark's statistics that locate a timing (what `min:10%` may name): spreads such
# as stddev or iqr cannot be divided into a speedup
STATISTICS = ("min", "median", "mean", "max")


@dataclass(frozen=True)
class RunSettings:
    """How this session checks every function (a function's `@jitcheck` may add to it)."""

    enabled: bool = False  # --jit-diff: check every dispatcher, not only @jitcheck ones
    modules: tuple[str, ...] = ()  # --jit-diff-module / jit_diff_modules
    library: bool = False  # --jit-diff-library: every registry operation (jitcheck.library)
    modes: tuple[str, ...] = ()  # --jit-diff-modes / jit_diff_modes
    max_examples: int | None = None  # None: the Hypothesis profile's
    bench: bool = False
    isolate: bool = False
    timeout: float | None = DEFAULT_TIMEOUT  # None or 0: no limit
    report_json: str | None = None
    report_md: str | None = None
    report_html: str | None = None
    baseline: str | None = None
    max_regression: float = DEFAULT_MAX_REGRESSION  # a fraction: 0.10 is 10%
    regression_stat: str = DEFAULT_STATISTIC  # the timing statistic the gate compares
    allow_missing: bool = False  # --jit-diff-allow-missing: baseline timings may be absent
    replay: str | None = None  # --jit-diff-replay: a Hypothesis blob to rerun one example
    min_returned: float = DEFAULT_MIN_RETURNED
    max_rejected: float = DEFAULT_MAX_REJECTED


def parse_fraction(text: str) -> float:
    """A regression threshold as a fraction: `10%` and `10` both mean 0.10. Only (0, 100%):
    a speedup cannot fall by 100% or more, and 0 would fail on any noise."""
    raw = text.strip().removesuffix("%").strip()
    value = float(raw)
    if not 0 < value < 100:
        raise ValueError(f"a regression threshold lies strictly between 0% and 100%, not {text!r}")
    return value / 100.0


def parse_threshold(text: str) -> tuple[str, float]:
    """A gate threshold as pytest-benchmark's `--benchmark-compare-fail` writes it:
    `median:10%` compares medians and allows 10%; a bare `10%` (or `10`) compares minimums."""
    stat, sep, amount = text.strip().rpartition(":")
    stat = stat.strip() if sep else DEFAULT_STATISTIC
    if stat not in STATISTICS:
        raise ValueError(
            f"unknown statistic {stat!r} in {text!r}: use one of {', '.join(STATISTICS)}, "
            "as in median:10%"
        )
    return stat, parse_fraction(amount)


@dataclass
class SessionState:
    """What the plugin keeps for one session, in `config.stash[JIT_DIFF_KEY]`."""

    run: RunSettings
    seen: set[Any] = field(default_factory=set)  # functions already collected (collect.py)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)  # nodeid -> record
    report: dict[str, Any] | None = None  # built at session end, for the terminal summary
    comparison: Any = None  # jitcheck.baseline.Comparison with the baseline, if one was given
    baseline_error: str = ""  # why the baseline could not be compared


JIT_DIFF_KEY = pytest.StashKey[SessionState]()
