"""The differential check of one function: Hypothesis examples, Python versus each mode.

For every example: Python runs first on its own copy of the arguments (the reference); an
example whose Python result is outside the compiled domain is rejected and counted. Then each
compiled mode runs on a fresh copy and is judged by `jitcheck.compare`. A disagreement raises
`Mismatch`, which Hypothesis shrinks to a minimal example and saves in its database, so the
next run replays it first.

Three things end a check at once, without shrinking (`StopCheck`, a BaseException that
Hypothesis lets through): an isolated child that crashed or hung, and a Python reference
that does not return within the timeout (shrinking would repeat each of them many times).
A mode that cannot compile the function fails the check, unless the function's own jit mode
is AUTO or PYTHON: then jitcore would run it as Python, and the check is skipped with the
compile error as the reason.
"""

from __future__ import annotations

import contextlib
import random
import re
import shlex
import signal
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import hypothesis
import pytest
from hypothesis import (
    HealthCheck,
    Phase,
    event,
    given,
    note,
    reject,
    reproduce_failure,
    seed,
    settings,
    target,
)
from hypothesis import strategies as st
from hypothesis.database import ExampleDatabase
from hypothesis.errors import Unsatisfiable
from hypothesis.statistics import collector, describe_statistics

from jitcheck.compare import (
    Difference,
    Outcome,
    Tolerance,
    max_ulps,
    out_of_domain_result,
    unchecked_exempt,
)
from jitcheck.execute import CompileFailure
from jitcheck.isolate import ChildDied
from jitcheck.judge import judge
from jitcheck.modes import Mode
from jitcheck.strategies import InputPlan, example_strategy, same_array_variant
from jitcheck.values import describe_call, fresh_copy

_ALTERNATIVE = "arguments"  # the keyword of the drawn dict (alternatives, coupled shapes)


class Mismatch(AssertionError):
    """A compiled mode disagreed with Python on an example."""

    jitcheck_report = True  # the item shows the message, not a traceback


class VacuousCheck(AssertionError):
    """Python raised on too many examples: comparing two identical exceptions proves little."""

    jitcheck_report = True


class CompileFailed(AssertionError):
    """A compiled mode could not compile the function (and skipping is not allowed)."""

    jitcheck_report = True


class StopCheck(BaseException):  # noqa: N818 - a control-flow signal, not an error class
    """End the check now, unshrunk: a crash, a hang, or a reference that never returns."""

    jitcheck_report = True


class _ReferenceTimeout(BaseException):  # noqa: N818
    """Raised by SIGALRM inside a Python reference call that ran out of time."""


@dataclass(frozen=True)
class DiffSpec:
    """Everything the check of one function needs besides the executor."""

    name: str  # the function's name, as examples are shown
    key: str  # Hypothesis database key: stable across runs, unique per function
    plan: InputPlan
    modes: list[Mode]
    tolerance: Tolerance
    max_examples: int
    timeout: float | None
    may_skip: bool  # the function's own mode falls back to Python, so no compile: skip
    min_returned: float = 0.0  # share of compared examples Python must return normally on
    max_rejected: float = 1.0  # share of examples that may be out of the compiled domain
    nodeid: str = ""  # the pytest item, for the command that reruns a failing example
    replay: str | None = None  # a Hypothesis blob to replay instead of searching


@dataclass
class DiffStats:
    """What the check saw. `examples` counts examples compared in every mode (shrinking
    included); `rejected` those outside the compiled domain, by reason."""

    examples: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    not_compared: Counter[str] = field(default_factory=Counter)  # mode -> examples skipped
    failures: list[dict[str, str]] = field(default_factory=list)  # of the last failing example
    # per `python` and compiled mode: examples that returned normally, and raised by type
    returned: Counter[str] = field(default_factory=Counter)
    raised: dict[str, Counter[str]] = field(default_factory=dict)
    first_error: dict[str, str] = field(default_factory=dict)  # python's, one per type
    # the last failing example: its arguments, Python's outcome, the disagreeing modes
    failing: tuple[tuple[Any, ...], Outcome, list[Mode]] | None = None
    min_returned: float = 0.0
    statistics: str = ""  # Hypothesis's own statistics of the run (--hypothesis-show-statistics)
    # how Hypothesis ran: profile, seed (None when derandomized), version, and the replay
    # blob of the failing example with the command that reruns it
    hypothesis: dict[str, Any] = field(
        default_factory=lambda: {
            "version": hypothesis.__version__,
            "profile": settings.get_current_profile_name(),
            "derandomize": settings().derandomize,
            "seed": None,
            "replay": None,
            "command": None,
        }
    )

    def count(self, who: str, outcome: Outcome) -> None:
        """Count one compared example's outcome for `python` or a mode."""
        self.raised.setdefault(who, Counter())
        if outcome.error_type is None:
            self.returned[who] += 1
            return
        name = outcome.error_type.__name__
        self.raised[who][name] += 1
        if who == "python":
            self.first_error.setdefault(name, outcome.error_text)

    @property
    def returned_share(self) -> float | None:
        """The share of compared examples on which Python returned normally."""
        total = self.returned["python"] + sum(self.raised.get("python", Counter()).values())
        return self.returned["python"] / total if total else None

    def as_dict(self) -> dict[str, Any]:
        share = self.returned_share
        return {
            "examples": self.examples,
            "rejected": sum(self.rejected.values()),
            "rejected_by_reason": dict(self.rejected),
            "not_compared": dict(self.not_compared),
            "failures": list(self.failures),
            "outcomes": {
                who: {"returned": self.returned[who], "raised": dict(self.raised[who])}
                for who in self.raised
            },
            "returned_share": None if share is None else round(share, 4),
            "min_returned": self.min_returned,
            "hypothesis": dict(self.hypothesis),
        }


def run_differential(spec: DiffSpec, executor: Any, stats: DiffStats) -> None:
    """Run the check, counting into `stats`; raises Mismatch, CompileFailed or StopCheck, or
    pytest's skip (a compile failure in a function that falls back to Python)."""

    joint = spec.plan.joint
    stats.min_returned = spec.min_returned

    def check(**drawn: Any) -> None:
        values = drawn[_ALTERNATIVE] if joint else drawn
        _check_example(spec, executor, stats, spec.plan.call_args(values))
        shared = same_array_variant(spec.plan, values)
        if shared is not None:  # and once more with two same-typed arrays passed as one
            _check_example(spec, executor, stats, spec.plan.call_args(shared), steer=False)

    check.__name__ = check.__qualname__ = spec.name
    # Hypothesis keys its database by the test's source, identical for every function here:
    # each function gets its own key space in the profile's database instead
    database = settings().database
    keyed = None if database is None else KeyedDatabase(database, spec.key.encode())
    if not settings().derandomize:
        # a seed of our own where Hypothesis would pick one at random, so the report says it
        stats.hypothesis["seed"] = random.getrandbits(64)
    if stats.hypothesis["seed"] is not None:
        check = seed(stats.hypothesis["seed"])(check)
    if spec.replay:
        check = reproduce_failure(hypothesis.__version__, spec.replay.encode())(check)
    test = given(**_given_arguments(spec.plan))(
        settings(
            max_examples=spec.max_examples,
            deadline=None,  # the first call of each mode compiles
            report_multiple_bugs=False,
            print_blob=True,  # the replay blob goes to the report and the rerun command
            database=keyed,
            # the explain phase points at lines that ran only for failing examples: in
            # jitcheck's comparison code, not in the kernel; the message says it better
            phases=[p for p in settings().phases if p is not Phase.explain],
            suppress_health_check=[
                HealthCheck.too_slow,
                HealthCheck.filter_too_much,
                HealthCheck.data_too_large,
                HealthCheck.large_base_example,
            ],
        )(check)
    )

    def keep_statistics(raw: Any) -> None:
        raw["nodeid"] = spec.nodeid or spec.name
        stats.statistics = describe_statistics(raw)

    try:
        with collector.with_value(keep_statistics):  # type: ignore[arg-type]
            test()
    except Unsatisfiable:
        raise Mismatch(_unsatisfiable_message(spec, stats)) from None
    except Mismatch as exc:
        _name_the_guilty_pass(spec, executor, stats, exc)
        blob = _replay_blob(exc)
        if blob is not None:
            stats.hypothesis["replay"] = blob
            stats.hypothesis["command"] = rerun_command(spec.nodeid, blob)
            exc.add_note(f"rerun this example: {stats.hypothesis['command']}")
        raise
    share = stats.returned_share
    if share is not None and share < spec.min_returned:
        raise VacuousCheck(_vacuous_message(spec, stats, share))
    rejected = sum(stats.rejected.values())
    if rejected > spec.max_rejected * (rejected + stats.examples):
        raise VacuousCheck(_rejected_message(spec, stats, rejected))


def _name_the_guilty_pass(
    spec: DiffSpec, executor: Any, stats: DiffStats, exc: BaseException
) -> None:
    """Bisect the passes on the shrunk failing example (`jitcheck.bisect`) and add the
    answer to the failure; only in-process (an isolated child cannot be bisected)."""
    dispatchers = getattr(executor, "dispatchers", None)
    if stats.failing is None or dispatchers is None:
        return
    from jitcheck.bisect import find_guilty_pass

    args, python, modes = stats.failing
    mode = modes[0]

    def agrees(compiled: Outcome) -> bool:
        verdict = judge(mode, args, python, compiled, spec.tolerance, spec.plan.positional)
        return verdict.difference is None

    culprit = find_guilty_pass(dispatchers[mode.label], args, agrees)
    if culprit is not None:
        exc.add_note(f"{mode.label}: {culprit}")


class KeyedDatabase(ExampleDatabase):
    """The profile's example database, with every key prefixed by one function's key, so
    examples saved for one checked function are replayed for that function only (the test
    function Hypothesis sees is the same for all of them)."""

    def __init__(self, inner: ExampleDatabase, prefix: bytes) -> None:
        super().__init__()
        self.inner = inner
        self.prefix = prefix + b"\0"

    def save(self, key: bytes, value: bytes) -> None:
        self.inner.save(self.prefix + key, value)

    def fetch(self, key: bytes) -> Iterable[bytes]:
        return self.inner.fetch(self.prefix + key)

    def delete(self, key: bytes, value: bytes) -> None:
        self.inner.delete(self.prefix + key, value)

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        self.inner.move(self.prefix + src, self.prefix + dest, value)


_BLOB = re.compile(r"@reproduce_failure\('[^']*', b'([^']*)'\)")


def _replay_blob(exc: BaseException) -> str | None:
    """The blob of Hypothesis's `@reproduce_failure(...)` note on `exc`, if it added one."""
    for text in getattr(exc, "__notes__", []):
        match = _BLOB.search(text)
        if match:
            return match.group(1)
    return None


def rerun_command(nodeid: str, blob: str) -> str:
    """One command that reruns exactly this failing example of this item."""
    return f"pytest {shlex.quote(nodeid)} --jit-diff --jit-diff-replay={shlex.quote(blob)}"


def _given_arguments(plan: InputPlan) -> dict[str, st.SearchStrategy[Any]]:
    """One keyword per parameter (so a falsifying example reads `f(x=..., n=...)`), or one
    dict of them when several signatures are alternatives or shapes are coupled."""
    if not plan.joint:
        return dict(plan.alternatives[0])
    whole = [example_strategy(plan, i) for i in range(len(plan.alternatives))]
    return {_ALTERNATIVE: st.one_of(*whole)}


def _check_example(
    spec: DiffSpec, executor: Any, stats: DiffStats, args: tuple, steer: bool = True
) -> None:
    """Run Python and every mode on `args` and compare; `steer` feeds Hypothesis `target()`
    (once per example: not for the same-array variant of one)."""
    example = describe_call(spec.name, spec.plan.positional, args)
    python = _reference(executor, args, spec.timeout, example)
    error = python.error_type
    event(f"python raised {error.__name__}" if error else "python returned")
    reason = None if python.raised else out_of_domain_result(python.value)
    _reject_if(reason, stats)
    found: list[tuple[Mode, Outcome, Difference]] = []
    compared: list[tuple[str, Outcome]] = [("python", python)]
    for mode in spec.modes:
        if not mode.boundscheck and unchecked_exempt(python):
            stats.not_compared[mode.label] += 1
            continue
        compiled = _compiled(spec, executor, mode, args, example)
        verdict = judge(mode, args, python, compiled, spec.tolerance, spec.plan.positional)
        _reject_if(verdict.rejected, stats)
        if verdict.not_compared:
            stats.not_compared[mode.label] += 1
            continue
        compared.append((mode.label, compiled))
        if steer:
            _steer(mode, python, compiled)
        if verdict.difference is not None:
            found.append((mode, compiled, verdict.difference))
    if found:
        stats.failing = (args, python, [m for m, _, _ in found])
        stats.failures = [
            {"mode": m.label, "example": example, "python": python.describe(),
             "compiled": c.describe(), "difference": str(d)}
            for m, c, d in found
        ]  # fmt: skip
        raise Mismatch(mismatch_message(spec, example, python, found))
    stats.examples += 1
    for who, outcome in compared:
        stats.count(who, outcome)


def _steer(mode: Mode, python: Outcome, compiled: Outcome) -> None:
    """Tell Hypothesis how far this mode's result is from Python's in ULPs: `target` steers
    the search towards inputs where the distance grows (a maths function drifting off near a
    threshold), and `--hypothesis-show-statistics` shows the largest distance seen."""
    if python.raised or compiled.raised:
        return
    ulps = max_ulps(python.value, compiled.value)
    if ulps is None:
        return
    target(float(ulps), label=f"ULPs from Python ({mode.label})")
    if 0 < ulps <= 2**20:  # beyond, ULPs count floats across zero or exponents: no meaning
        note(f"{mode.label}: largest distance from Python {ulps} ULPs")


def _reject_if(reason: str | None, stats: DiffStats) -> None:
    if reason is not None:
        stats.rejected[reason] += 1
        event(f"rejected: {reason}")
        reject()


def _reference(executor: Any, args: tuple, timeout: float | None, example: str) -> Outcome:
    try:
        with _deadline(timeout):
            return executor.call_python(fresh_copy(args))
    except _ReferenceTimeout:
        raise StopCheck(
            f"the Python reference did not return within {timeout:g} s on\n  {example}\n"
            "give the slow parameter a smaller strategy, e.g. @jitcheck(n=st.integers(0, 20)),"
            " or raise --jit-diff-timeout"
        ) from None


@contextlib.contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    """Interrupt Python code after `seconds` with SIGALRM, where that is safe: in the main
    thread, and only if nobody else (e.g. pytest-timeout) handles SIGALRM."""
    usable = (
        seconds
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, signal.SIG_IGN, None)
    )
    if not usable or seconds is None:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise _ReferenceTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _compiled(spec: DiffSpec, executor: Any, mode: Mode, args: tuple, example: str) -> Outcome:
    try:
        return executor.call(mode.label, fresh_copy(args))
    except CompileFailure as exc:
        _compile_failure(spec, mode, exc, example)
        raise  # pragma: no cover - _compile_failure always raises
    except ChildDied as exc:
        raise StopCheck(f"{exc} in mode {mode.label} on\n  {example}") from None


def _compile_failure(spec: DiffSpec, mode: Mode, exc: CompileFailure, example: str) -> None:
    headline = exc.text.splitlines()[0] if exc.text else ""
    if exc.internal:
        raise CompileFailed(
            f"jitcore crashed compiling `{spec.name}` in mode {mode.label} "
            f"(InternalCompilerError: a jitcore bug) on\n  {example}\n{exc.text}"
        )
    if spec.may_skip and mode.own:
        pytest.skip(
            f"jitcore cannot compile `{spec.name}` ({exc.error}: {headline}); its jit mode "
            "falls back to Python, so there is nothing to compare (use @jit(mode='compiled') "
            "to make this a failure)"
        )
    raise CompileFailed(
        f"jitcore cannot compile `{spec.name}` in mode {mode.label} on\n  {example}\n"
        f"{exc.error}: {exc.text}"
    )


def mismatch_message(
    spec: DiffSpec, example: str, python: Outcome, found: list[tuple[Mode, Outcome, Difference]]
) -> str:
    """The example, Python's outcome, each mode's, and the first difference; modes that
    went wrong the same way share a line."""
    groups: dict[tuple[str, str], list[str]] = {}
    for mode, compiled, diff in found:
        groups.setdefault((compiled.describe(), str(diff)), []).append(mode.label)
    rows = [("example", example), ("python", python.describe())]
    for (outcome, _), labels in groups.items():
        rows.append((", ".join(labels), outcome))
    width = max(len(label) for label, _ in rows) + 1
    modes = ", ".join(m.label for m, _, _ in found)
    lines = [f"`{spec.name}` disagrees with Python in mode{'s' * (len(found) > 1)} {modes}"]
    lines += [f"  {label + ':':<{width}} {text}" for label, text in rows]
    for (_, difference), labels in groups.items():
        if not difference.startswith("outcome:"):  # the outcome lines above say it all
            prefix = f" ({', '.join(labels)})" if len(groups) > 1 else ""
            lines.append(f"  first difference{prefix}: {difference}")
    return "\n".join(lines)


def _vacuous_message(spec: DiffSpec, stats: DiffStats, share: float) -> str:
    """Why the check proved little, the commonest errors, and how to fix the inputs."""
    raised = stats.raised.get("python", Counter())
    total = stats.returned["python"] + sum(raised.values())
    lines = [
        f"`{spec.name}` returned normally in Python on only {stats.returned['python']} of "
        f"{total} examples ({share:.0%}, at least {spec.min_returned:.0%} required): the rest "
        "raised, and two identical exceptions prove little"
    ]
    for name, count in raised.most_common(3):
        lines.append(f"  {count} raised {name}: {stats.first_error.get(name, '')[:160]}")
    lines.append(
        "  give inputs the function accepts: coupled array shapes, e.g. "
        '@jitcheck(shapes="X:(n,d) w:(d,)"), or narrower strategies; if raising is the '
        "point, lower the bar with @jitcheck(min_returned=0.2) or --jit-diff-min-returned"
    )
    return "\n".join(lines)


def _rejected_message(spec: DiffSpec, stats: DiffStats, rejected: int) -> str:
    total = rejected + stats.examples
    reasons = ", ".join(f"{n} {r}" for r, n in stats.rejected.most_common())
    return (
        f"{rejected} of {total} examples of `{spec.name}` were out of the compiled domain "
        f"({rejected / total:.0%}, at most {spec.max_rejected:.0%} allowed: {reasons}); "
        "give strategies with narrower ranges, e.g. @jitcheck(n=st.integers(-100, 100)), or "
        "allow more with @jitcheck(max_rejected=0.9) or --jit-diff-max-rejected"
    )


def _unsatisfiable_message(spec: DiffSpec, stats: DiffStats) -> str:
    reasons = ", ".join(f"{n} {r}" for r, n in stats.rejected.most_common())
    return (
        f"no example of `{spec.name}` stayed inside the compiled domain ({reasons or 'none'}); "
        "give strategies with narrower ranges, e.g. @jitcheck(n=st.integers(-100, 100))"
    )
