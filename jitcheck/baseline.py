"""Comparing a report's timings with a baseline (an earlier JSON report): a gate that fails
closed.

Two comparisons per function and mode:

* the **speedup** (Python time over compiled time, both measured in one run), which
  compares fairly across machines;
* the **compiled time against its own baseline**, so a compiled-only slowdown shows even
  when the Python reference's timing is noisy (it is, much more than compiled code's);
  only on the same machine (CPU, LLVM), where absolute times mean something, and only when
  the machine was as busy: when the Python reference itself (the same code in both runs) is
  slower beyond the threshold with confidence, the run was loaded differently and only the
  speedup, whose paired ratios cancel load, decides.

A change counts as a regression when, by the chosen statistic (`min` by default, or
`median:10%` as pytest-benchmark writes it), it is beyond the threshold *and* it is beyond
the threshold with confidence: a one-sided Mann-Whitney U test (as asv uses) of the new
samples against the old ones moved by the threshold says so with p < `ALPHA`. Speedups are
tested on *paired ratios* (`bench.paired_rounds`: Python and compiled code timed back to back
in each round, so load that spans a round cancels out); compiled times on their raw rounds.
When a record has no samples, or too few for the test ever to reach `ALPHA`, the factor
alone decides. The spread of the ratios (interquartile range over median) is reported as the
noise level of each comparison. In a session, a suspected regression is timed again
(`check.confirm_timing`) before it can fail the gate.

The gate fails closed: a speedup the baseline has and this run lacks (a mode renamed because
the options changed, a function skipped or failing) is a failure unless missing ones are
explicitly allowed; a baseline measured on another CPU, LLVM or jitcore configuration is
reported as a warning first. The plugin's `--jit-diff-baseline` and `python -m jitcheck
compare` share this module.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from jitcheck.bench import SPEEDUP_STAT, ratios, relative_spread

ALPHA = 0.01  # significance level of the one-sided Mann-Whitney U test


@dataclass(frozen=True)
class Change:
    """How one function's speedup (or compiled time) in one mode moved from the baseline."""

    function: str
    mode: str
    old: float
    new: float
    p_value: float | None = None  # of "worse beyond the threshold"; None: no test possible
    kind: str = "speedup"  # "speedup", or "time" for the compiled code's own time
    noise: float | None = None  # the new samples' interquartile range over their median
    # For a time: how much slower the Python reference ran in this run (1.0: not slower),
    # which the compiled time is allowed too
    drift: float = 1.0

    @property
    def change(self) -> float:
        """Relative change of the speedup: -0.25 means it fell by 25%; for a time, +0.25
        means it takes 25% longer."""
        return self.new / self.old - 1.0

    @property
    def worse(self) -> float:
        """How much worse, as a positive fraction when it got worse (a time: beyond the
        Python reference's own drift)."""
        if self.kind == "speedup":
            return -self.change
        return self.new / (self.old * self.drift) - 1.0

    def __str__(self) -> str:
        test = "" if self.p_value is None else f", p={self.p_value:.2g}"
        test += "" if self.noise is None else f", noise {self.noise:.0%}"
        if self.drift > 1.0:
            test += f", Python reference {self.drift - 1.0:+.0%}"
        if self.kind == "time":
            return (
                f"{self.function} [{self.mode}]: compiled time {self.old * 1e6:.3g} µs -> "
                f"{self.new * 1e6:.3g} µs ({self.change:+.1%}{test})"
            )
        return (
            f"{self.function} [{self.mode}]: speedup {self.old:.2f}x -> {self.new:.2f}x "
            f"({self.change:+.1%}{test})"
        )

    def as_dict(self) -> dict[str, Any]:
        return asdict(self) | {"change": self.change}


@dataclass
class Comparison:
    """Timings of a report against a baseline."""

    max_regression: float
    regressions: list[Change] = field(default_factory=list)  # beyond threshold, significant
    improvements: list[Change] = field(default_factory=list)
    unchanged: list[Change] = field(default_factory=list)  # within threshold or not significant
    missing: list[str] = field(default_factory=list)  # "function [mode]": in the baseline only
    warnings: list[str] = field(default_factory=list)  # machine or configuration differences
    # "function" or "function [mode]" -> why its timings were not compared: the machine was
    # not as free as in the baseline
    loaded: dict[str, str] = field(default_factory=dict)
    allow_missing: bool = False
    stat: str = SPEEDUP_STAT  # the timing statistic compared (`median:10%` names median)

    @property
    def changes(self) -> list[Change]:
        return [*self.regressions, *self.improvements, *self.unchanged]

    def noise_level(self) -> float | None:
        """The median noise of the speedup comparisons (None without paired samples)."""
        noises = sorted(c.noise for c in self.changes if c.kind == "speedup" and c.noise)
        return noises[len(noises) // 2] if noises else None

    @property
    def failed(self) -> bool:
        return bool(self.regressions) or (bool(self.missing) and not self.allow_missing)

    def as_dict(self, baseline_path: str) -> dict[str, Any]:
        return {
            "path": str(baseline_path),
            "max_regression": self.max_regression,
            "statistic": self.stat,
            "noise": self.noise_level(),
            "regressions": [c.as_dict() for c in self.regressions],
            "improvements": [c.as_dict() for c in self.improvements],
            "unchanged": len(self.unchanged),
            "missing": self.missing,
            "allow_missing": self.allow_missing,
            "warnings": self.warnings,
            "loaded": self.loaded,
            "failed": self.failed,
        }


def compare_reports(
    old: dict[str, Any],
    new: dict[str, Any],
    max_regression: float,
    allow_missing: bool = False,
    stat: str = SPEEDUP_STAT,
) -> Comparison:
    """Compare speedups, and compiled times on the same machine, mode by mode."""
    result = Comparison(max_regression, allow_missing=allow_missing, stat=stat)
    result.warnings = configuration_warnings(old.get("machine", {}), new.get("machine", {}))
    for name, old_fn in old.get("functions", {}).items():
        new_fn = new.get("functions", {}).get(name, {})
        compare_function(result, name, old_fn, new_fn, same_machine=not result.warnings)
    result.regressions.sort(key=lambda c: -c.worse)
    result.improvements.sort(key=lambda c: c.worse)
    return result


def compare_function(
    result: Comparison, name: str, old_fn: dict, new_fn: dict, same_machine: bool
) -> None:
    """Sort one function's changes into `result`; a mode the baseline timed and `new_fn`
    did not is missing."""
    for mode, old_speedup in (old_fn.get("speedup") or {}).items():
        if not old_speedup:
            continue
        if not (new_fn.get("speedup") or {}).get(mode):
            why = new_fn.get("outcome", "not checked") if new_fn else "not in this run"
            result.missing.append(f"{name} [{mode}] ({why})")
            continue
        if _contended(name, mode, old_fn, new_fn, result):
            continue
        change = _speedup_change(name, mode, old_fn, new_fn, result)
        if change is not None:
            _sort(result, change)
        if same_machine and not _machine_slowed(name, old_fn, new_fn, result):
            change = _time_change(name, mode, old_fn, new_fn, result)
            if change is not None:
                _sort(result, change)


# Compiled calls faster than this (by the baseline) are compared through their speedup only:
# between two processes such calls move 10-15% with the allocator's state and where the code
# landed (unchanged code beside a CPU hog: `add`, 0.1 µs, +11%; `alloc_returned`, about 1 µs
# with an allocation, +15%), a run effect no statistic of one run's rounds sees.
MIN_TIME_COMPARED = 10e-6

# Cores other processes may keep busy while a parallel mode is timed before its timing no
# longer compares: half a core (a CPU hog is a whole one).
CONTENDED = 0.5


# CPU time over wall time above which a timing ran on several threads (`load.cores_used`)
THREADED = 1.2


def _threaded(mode: str, fns: tuple[dict, ...]) -> bool:
    """Whether `mode` or its Python reference ran on several threads: a parallel mode, or a
    threaded library call (BLAS) seen in the CPU time a timing used."""
    if "parallel" in mode.split("+"):
        return True
    for fn in fns:
        timing = fn.get("timing") or {}
        for key in ("python", mode):
            cores = (timing.get(key) or {}).get("cores")
            if cores is not None and cores > THREADED:
                return True
    return False


def _contended(name: str, mode: str, old_fn: dict, new_fn: dict, result: Comparison) -> bool:
    """Whether `mode` (or its reference) runs on threads and either run timed it while other
    processes kept cores busy (`load.py`): its threads then wait for cores by however the
    scheduler deals them, a difference no statistic of one run's rounds can tell from a
    regression (a single-threaded side of the paired ratio is not slowed alike; NumPy's and
    SciPy's BLAS are two libraries with two thread pools)."""
    if not _threaded(mode, (old_fn, new_fn)):
        return False
    loads = [fn.get("load") for fn in (old_fn, new_fn)]
    if not any(load is not None and load >= CONTENDED for load in loads):
        return False
    shown = " and ".join("unknown" if v is None else f"{v:.1f}" for v in loads)
    result.loaded[f"{name} [{mode}]"] = (
        f"ran on threads while other processes kept {shown} cores busy (baseline and this "
        "run): its threads waited for cores, neither speedup nor time compared"
    )
    return True


def _machine_slowed(name: str, old_fn: dict, new_fn: dict, result: Comparison) -> bool:
    """Whether the Python reference, the same code in both runs, is itself slower beyond the
    threshold with confidence: then the machine was loaded differently (a CPU hog beside a
    threaded BLAS call slows it 10x), absolute compiled times do not compare, and only the
    speedup (its paired ratios cancel the load) decides. Noted once per function."""
    old_p, new_p = _samples(old_fn, "python"), _samples(new_fn, "python")
    if old_p is None or new_p is None:
        return False
    p_value = slower_p_value(old_p * (1.0 + result.max_regression), new_p)
    if p_value is None or p_value >= ALPHA:
        return False
    change = float(np.min(new_p) / np.min(old_p)) - 1.0
    result.loaded.setdefault(
        name,
        f"its Python reference ran {change:+.0%} (the machine was busier): compiled time not "
        "compared, the speedup decides",
    )
    return True


def _sort(result: Comparison, change: Change) -> None:
    significant = change.p_value is None or change.p_value < ALPHA
    if change.worse > result.max_regression and significant:
        result.regressions.append(change)
    elif change.worse < -result.max_regression:
        result.improvements.append(change)
    else:
        result.unchanged.append(change)


def speedup_of(fn: dict[str, Any], mode: str, stat: str) -> float | None:
    """Python's time over the mode's by `stat`; the recorded speedup when timings lack it."""
    p, c = _stat(fn, "python", stat), _stat(fn, mode, stat)
    if p and c:
        return p / c
    recorded = (fn.get("speedup") or {}).get(mode)
    return float(recorded) if recorded and stat == SPEEDUP_STAT else None


def _speedup_change(
    name: str, mode: str, old_fn: dict, new_fn: dict, result: Comparison
) -> Change | None:
    """The speedup's change by the statistic; its test: the new paired ratios against the
    old ones lowered by the threshold (else compiled samples in units of the run's Python
    time, raised by it)."""
    old_s, new_s = speedup_of(old_fn, mode, result.stat), speedup_of(new_fn, mode, result.stat)
    if not old_s or not new_s:
        return None
    keep = 1.0 - result.max_regression
    old_r, new_r = _paired_ratios(old_fn, mode), _paired_ratios(new_fn, mode)
    p_value = noise = None
    if old_r is not None and new_r is not None:
        p_value = slower_p_value(new_r, old_r * keep)  # "old x keep tends to exceed new"
        noise = relative_spread(new_r.tolist())
    else:
        old_c, new_c = _samples(old_fn, mode), _samples(new_fn, mode)
        old_p, new_p = _stat(old_fn, "python"), _stat(new_fn, "python")
        if old_c is not None and new_c is not None and old_p and new_p:
            p_value = slower_p_value(old_c / old_p / keep, new_c / new_p)
            noise = relative_spread((new_c / new_p).tolist())
    return Change(name, mode, old_s, new_s, p_value, noise=noise)


def _time_change(
    name: str, mode: str, old_fn: dict, new_fn: dict, result: Comparison
) -> Change | None:
    """The compiled code's own time against its baseline by the statistic, if both runs
    timed it; tested against the old samples raised by the threshold and by the Python
    reference's drift: the same Python code running slower in this run (by its median) is
    the machine, not the compiler, and the compiled time may drift as much (a run effect
    that no statistic of one run's rounds sees: 0.1 µs calls moved 8-11% between two runs
    of unchanged code beside a CPU hog)."""
    old_t, new_t = _stat(old_fn, mode, result.stat), _stat(new_fn, mode, result.stat)
    if not old_t or not new_t or old_t < MIN_TIME_COMPARED:
        return None
    old_c, new_c = _samples(old_fn, mode), _samples(new_fn, mode)
    drift = _python_drift(old_fn, new_fn)
    p_value = noise = None
    if old_c is not None and new_c is not None:
        p_value = slower_p_value(old_c * (1.0 + result.max_regression) * drift, new_c)
        noise = relative_spread(new_c.tolist())
    return Change(name, mode, old_t, new_t, p_value, kind="time", noise=noise, drift=drift)


def _python_drift(old_fn: dict, new_fn: dict) -> float:
    """How much slower the Python reference's median round ran in this run (>= 1.0)."""
    old_p, new_p = _samples(old_fn, "python"), _samples(new_fn, "python")
    if old_p is None or new_p is None:
        return 1.0
    return max(1.0, float(np.median(new_p) / np.median(old_p)))


def _paired_ratios(fn: dict[str, Any], mode: str) -> np.ndarray | None:
    timing = fn.get("timing") or {}
    python = (timing.get("python") or {}).get("paired")
    compiled = (timing.get(mode) or {}).get("paired")
    if not python or not compiled:
        return None
    values = ratios(python, compiled)
    return np.asarray(values, dtype=np.float64) if values else None


def _stat(fn: dict[str, Any], key: str, stat: str = SPEEDUP_STAT) -> float | None:
    value = ((fn.get("timing") or {}).get(key) or {}).get("stats", {}).get(stat)
    return float(value) if value else None


def _samples(fn: dict[str, Any], key: str) -> np.ndarray | None:
    data = ((fn.get("timing") or {}).get(key) or {}).get("stats", {}).get("data")
    return np.asarray(data, dtype=np.float64) if data else None


def slower_p_value(old: np.ndarray, new: np.ndarray) -> float | None:
    """One-sided Mann-Whitney U test of "`new` tends to be larger than `old`": the p-value
    by the normal approximation with tie correction, or None when the samples are too few for
    any outcome to reach `ALPHA` (then the factor alone decides)."""
    n1, n2 = len(new), len(old)
    if n1 == 0 or n2 == 0 or math.comb(n1 + n2, n1) * ALPHA < 1:
        return None  # even the most extreme ranking has p >= ALPHA
    pooled = np.concatenate([new, old])
    ranks = _ranks(pooled)
    u = ranks[:n1].sum() - n1 * (n1 + 1) / 2  # pairs (new, old) with new > old, ties half
    _, counts = np.unique(pooled, return_counts=True)
    n = n1 + n2
    ties = float((counts**3 - counts).sum())
    variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if variance <= 0:
        return 1.0  # every sample equal: no evidence either way
    z = (u - n1 * n2 / 2 - 0.5) / math.sqrt(variance)  # continuity correction
    return 0.5 * math.erfc(z / math.sqrt(2))


def _ranks(values: np.ndarray) -> np.ndarray:
    """Ranks from 1, ties sharing their average rank."""
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(len(values), dtype=np.float64)
    ranks[order] = np.arange(1, len(values) + 1)
    sorted_values = values[order]
    start = 0
    for end in range(1, len(values) + 1):
        if end == len(values) or sorted_values[end] != sorted_values[start]:
            ranks[order[start:end]] = (start + 1 + end) / 2
            start = end
    return ranks


def configuration_warnings(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between where the baseline and this run were measured: CPU, LLVM,
    jitcore and its JITCORE_* configuration (each changes generated code or timings)."""
    fields = (
        ("CPU", lambda m: (m.get("cpu") or {}).get("name")),
        ("CPU features", lambda m: (m.get("cpu") or {}).get("features")),
        ("LLVM", lambda m: m.get("llvm")),
        ("jitcore", lambda m: m.get("jitcore")),
    )
    warnings = []
    for label, get in fields:
        before, now = get(old), get(new)
        if before != now:
            if label == "CPU features":
                before, now = _feature_difference(before or "", now or "")
            warnings.append(f"{label} differs: baseline {before or '?'}, this run {now or '?'}")
    old_env, new_env = old.get("jitcore_env") or {}, new.get("jitcore_env") or {}
    changed = sorted(k for k in {*old_env, *new_env} if old_env.get(k) != new_env.get(k))
    if changed:
        warnings.append(
            f"jitcore configuration differs: baseline {_env_text(old_env, changed)}, "
            f"this run {_env_text(new_env, changed)}"
        )
    return warnings


def _env_text(env: dict[str, str], keys: list[str]) -> str:
    return " ".join(f"{k}={env[k]}" if k in env else f"{k} unset" for k in keys)


def _feature_difference(old: str, new: str) -> tuple[str, str]:
    a, b = set(old.split(",")), set(new.split(","))
    return ",".join(sorted(a - b)) or "-", ",".join(sorted(b - a)) or "-"


def comparison_lines(comparison: Comparison, baseline: str) -> list[str]:
    """The comparison as text: the plugin's summary and `python -m jitcheck compare` share it."""
    threshold = f"{comparison.max_regression:.0%}"
    if comparison.stat != SPEEDUP_STAT:
        threshold = f"{comparison.stat}:{threshold}"
    checked = len(comparison.changes)
    lines = [f"WARNING: {w}; timings compare less well" for w in comparison.warnings]
    if comparison.warnings:
        lines.append("WARNING: compiled times are not compared with the baseline's")
    lines.append(
        f"timings against baseline {baseline} ({checked} compared, threshold {threshold}, "
        f"significance p < {ALPHA:g}{_noise_text(comparison)}):"
    )
    for change in comparison.regressions:
        lines.append(f"  REGRESSION {change}")
    for change in comparison.improvements:
        lines.append(f"  improved   {change}")
    for name, why in comparison.loaded.items():
        lines.append(f"  loaded     {name}: {why}")
    label = "missing (allowed)" if comparison.allow_missing else "MISSING"
    for missing in comparison.missing:
        lines.append(f"  {label} {missing}: timed in the baseline, not in this run")
    problems = []
    if comparison.regressions:
        problems.append(f"{len(comparison.regressions)} timing(s) worse by more than {threshold}")
    if comparison.missing and not comparison.allow_missing:
        problems.append(
            f"{len(comparison.missing)} baseline timing(s) missing (--jit-diff-allow-missing "
            "accepts that)"
        )
    if problems:
        lines.append(f"FAILED: {'; '.join(problems)}")
    else:
        lines.append(f"OK: no timing worse by more than {threshold}")
    return lines


def _noise_text(comparison: Comparison) -> str:
    noise = comparison.noise_level()
    return "" if noise is None else f", noise level {noise:.1%} (median IQR/median of ratios)"
