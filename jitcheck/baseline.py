"""Comparing a report's speedups with a baseline (an earlier JSON report).

Speedups (Python time over compiled time, measured in one run) are compared function by
function and mode by mode, so a baseline from a faster or slower machine still compares fairly.
The plugin's `--jit-diff-baseline` and `python -m jitcheck compare` share this module.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Change:
    """How one function's speedup in one mode moved from the baseline."""

    function: str
    mode: str
    old: float
    new: float

    @property
    def change(self) -> float:
        """Relative change of the speedup: -0.25 means it fell by 25%."""
        return self.new / self.old - 1.0

    def __str__(self) -> str:
        return (
            f"{self.function} [{self.mode}]: speedup {self.old:.2f}x -> {self.new:.2f}x "
            f"({self.change:+.1%})"
        )


@dataclass
class Comparison:
    """Speedups of a report against a baseline."""

    max_regression: float
    regressions: list[Change]
    improvements: list[Change]
    unchanged: list[Change]
    missing: list[str]  # "function [mode]" timed in the baseline but not now

    def as_dict(self, baseline_path: str) -> dict[str, Any]:
        return {
            "path": str(baseline_path),
            "max_regression": self.max_regression,
            "regressions": [asdict(c) | {"change": c.change} for c in self.regressions],
            "improvements": [asdict(c) | {"change": c.change} for c in self.improvements],
            "unchanged": len(self.unchanged),
            "missing": self.missing,
        }


def compare_reports(old: dict[str, Any], new: dict[str, Any], max_regression: float) -> Comparison:
    """Compare speedups mode by mode; a fall of more than `max_regression` is a regression."""
    result = Comparison(max_regression, [], [], [], [])
    for name, old_fn in old.get("functions", {}).items():
        new_fn = new.get("functions", {}).get(name, {})
        for mode, old_speedup in (old_fn.get("speedup") or {}).items():
            new_speedup = (new_fn.get("speedup") or {}).get(mode)
            if not old_speedup:
                continue
            if not new_speedup:
                result.missing.append(f"{name} [{mode}]")
                continue
            change = Change(name, mode, float(old_speedup), float(new_speedup))
            if change.change < -max_regression:
                result.regressions.append(change)
            elif change.change > max_regression:
                result.improvements.append(change)
            else:
                result.unchanged.append(change)
    result.regressions.sort(key=lambda c: c.change)
    result.improvements.sort(key=lambda c: -c.change)
    return result


def comparison_lines(comparison: Comparison, baseline: str) -> list[str]:
    """The comparison as text: the plugin's summary and `python -m jitcheck compare` share it."""
    threshold = f"{comparison.max_regression:.0%}"
    checked = len(comparison.regressions) + len(comparison.improvements)
    checked += len(comparison.unchanged)
    lines = [f"speedups against baseline {baseline} ({checked} compared, threshold {threshold}):"]
    for change in comparison.regressions:
        lines.append(f"  REGRESSION {change}")
    for change in comparison.improvements:
        lines.append(f"  improved   {change}")
    for missing in comparison.missing:
        lines.append(f"  not timed now: {missing}")
    if comparison.regressions:
        lines.append(
            f"FAILED: {len(comparison.regressions)} speedup(s) fell by more than {threshold}"
        )
    else:
        lines.append(f"OK: no speedup fell by more than {threshold}")
    return lines
