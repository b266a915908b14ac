"""A fuzzing campaign: Hypothesis draws programs, the runner judges them, findings shrink.

The campaign runs batches of Hypothesis examples (`cases()`), each batch with its own seed
(`seed * 1000 + batch`), until the time is up or enough programs ran. When a program is a
finding, the example raises `FoundBug` and Hypothesis shrinks program and inputs to a
minimal example that still shows a finding of the *same kind* (a candidate showing another
kind counts as passing, so shrinking stays on one bug). Shrinking has a budget: after
`shrink_programs` new candidates (or `shrink_seconds`) the search stops and the smallest
failing example seen so far is the result. Then `jitcheck.fuzz.reduce` deletes statements
that do not matter. The shrunk example is written as a
pytest regression test (`jitcheck.fuzz.regress`), and the campaign goes on with the next
seed. A finding whose signature was already shrunk twice is counted but not shrunk again.

Counted per minute (`Stats.minutes`): programs generated, compiled (and compared), rejected
by jitcore (UnsupportedError, TypingError), findings; the rejection reasons are counted too.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis.errors import HypothesisException

from jitcheck.fuzz.grammar import Case, Program, cases
from jitcheck.fuzz.reduce import reduce_program
from jitcheck.fuzz.regress import write_regression_test
from jitcheck.fuzz.runner import Finding, Result, Runner
from jitcheck.values import exact

BATCH = 200  # examples per Hypothesis run (a new seed each)
SHRINK_PROGRAMS = 300  # candidates tried while shrinking one finding
SHRINK_SECONDS = 120.0
SHRINK_CALLS_PER_PROGRAM = 10  # candidates seen (new or not) per new candidate budgeted
REDUCE_SECONDS = 60.0  # for deleting statements after Hypothesis shrank (`reduce`)
SHRINK_AGAIN = 2  # a finding signature is shrunk (and written) at most this many times


class FoundBug(AssertionError):
    """A program disagreed; carries the finding and the case."""

    def __init__(self, finding: Finding, case: Case) -> None:
        super().__init__(finding.signature)
        self.finding = finding
        self.case = case


class _TimeUp(BaseException):  # noqa: N818 - a control-flow signal Hypothesis lets through
    """The campaign's time (or program budget) is spent."""


@dataclass
class Written:
    """A shrunk finding and the regression test written for it."""

    kind: str
    signature: str
    detail: str
    path: str
    source: str
    args: str
    python: str
    compiled: str
    seed: int


@dataclass
class Stats:
    programs: int = 0
    compiled: int = 0
    rejected: int = 0
    findings: int = 0  # programs that were findings (while searching, not shrinking)
    skipped: int = 0
    examples: int = 0  # inputs compared
    out_of_domain: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    signatures: Counter[str] = field(default_factory=Counter)
    minutes: list[dict[str, Any]] = field(default_factory=list)
    written: list[Written] = field(default_factory=list)
    seconds: float = 0.0
    shrink_seconds: float = 0.0

    def count(self, result: Result) -> None:
        self.programs += 1
        self.examples += result.examples
        self.out_of_domain += result.out_of_domain
        if result.status == "rejected":
            self.rejected += 1
            self.reasons[result.reason] += 1
        elif result.status == "finding":
            assert result.finding is not None
            self.findings += 1
            self.signatures[result.finding.signature] += 1
        elif result.status == "skipped":
            self.skipped += 1
        else:
            self.compiled += 1

    @property
    def rejection_rate(self) -> float:
        return self.rejected / self.programs if self.programs else 0.0

    def snapshot(self, minute: int) -> dict[str, Any]:
        row = {
            "minute": minute,
            "programs": self.programs,
            "compiled": self.compiled,
            "rejected": self.rejected,
            "findings": self.findings,
            "distinct_findings": len(self.signatures),
        }
        self.minutes.append(row)
        return row

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["reasons"] = dict(self.reasons.most_common())
        data["signatures"] = dict(self.signatures.most_common())
        data["rejection_rate"] = round(self.rejection_rate, 4)
        return data


@dataclass
class Options:
    seconds: float
    seed: int = 0
    out: str = os.path.join("reports", "fuzz")
    max_programs: int | None = None
    max_findings: int | None = None  # stop once this many findings were shrunk and written
    preload: Sequence[str] = ()
    shrink_programs: int = SHRINK_PROGRAMS
    shrink_seconds: float = SHRINK_SECONDS
    batch: int = BATCH
    write_tests: bool = True
    reduce_seconds: float = REDUCE_SECONDS


class Campaign:
    """One campaign: call `run()`; `stats` holds what it saw."""

    def __init__(self, options: Options, log: Callable[[str], None] = print) -> None:
        self.options = options
        self.log = log
        self.stats = Stats()
        self._start = 0.0
        self._next_minute = 60.0

    def run(self) -> Stats:
        self._start = time.monotonic()
        with Runner(preload=self.options.preload) as runner:
            batch = 0
            try:
                while not self._spent():
                    self._batch(runner, self.options.seed * 1000 + batch)
                    batch += 1
            except _TimeUp:
                pass
        self.stats.seconds = round(time.monotonic() - self._start, 1)
        self._tick(final=True)
        self._save()
        return self.stats

    def _spent(self) -> bool:
        limit, found = self.options.max_programs, self.options.max_findings
        over = limit is not None and self.stats.programs >= limit
        over = over or (found is not None and len(self.stats.written) >= found)
        return over or time.monotonic() - self._start >= self.options.seconds

    def _tick(self, final: bool = False) -> None:
        elapsed = time.monotonic() - self._start
        while elapsed >= self._next_minute or final:
            row = self.stats.snapshot(int(self._next_minute // 60) if not final else -1)
            label = "end" if final else f"minute {row['minute']}"
            self.log(
                f"fuzz {label}: {row['programs']} programs, {row['compiled']} compiled, "
                f"{row['rejected']} rejected, {row['findings']} findings "
                f"({row['distinct_findings']} distinct)"
            )
            if final:
                break
            self._next_minute += 60.0

    def _batch(self, runner: Runner, batch_seed: int) -> None:
        """One Hypothesis run; a finding is shrunk, written, and recorded."""
        shrink = _ShrinkState()

        def check(case: Case) -> None:
            if shrink.target is None:
                self._tick()
                if self._spent():
                    raise _TimeUp
            if shrink.exhausted(self.options):
                raise _ShrinkDone  # Hypothesis's shrinker can spin for minutes
            result = shrink.cached(case)
            if result is None:
                result = runner.run(case.program, case.inputs)
                shrink.remember(case, result)
            if shrink.target is None:
                self.stats.count(result)
            finding = result.finding
            if finding is None:
                return
            if shrink.target is None:
                if self.stats.signatures[finding.signature] > SHRINK_AGAIN:
                    return  # known: counted, not shrunk again
                shrink.begin(finding)
            if shrink.matches(finding):
                shrink.keep(case, finding)
                raise FoundBug(finding, case)

        test = given(cases())(check)
        test = settings(
            max_examples=self.options.batch,
            deadline=None,
            database=None,
            derandomize=False,
            report_multiple_bugs=False,
            phases=[Phase.generate, Phase.shrink],
            suppress_health_check=list(HealthCheck),
        )(test)
        test = seed(batch_seed)(test)
        try:
            test()
        except FoundBug as bug:
            self._record(runner, bug, batch_seed)
            self.stats.shrink_seconds += shrink.seconds()
        except _ShrinkDone:
            assert shrink.best is not None
            self._record(runner, FoundBug(shrink.best[1], shrink.best[0]), batch_seed)
            self.stats.shrink_seconds += shrink.seconds()
        except HypothesisException as exc:  # a flaky finding: say so, go on
            self.log(f"fuzz: batch {batch_seed} ended by Hypothesis: {type(exc).__name__}")

    def _record(self, runner: Runner, bug: FoundBug, batch_seed: int) -> None:
        finding, program = bug.finding, bug.case.program
        args = finding.args if finding.args is not None else bug.case.inputs[0]
        program, finding = self._reduce(runner, program, args, finding)
        path = ""
        if self.options.write_tests:
            path = write_regression_test(self.options.out, program, args, finding, batch_seed)
        written = Written(
            finding.kind,
            finding.signature,
            finding.detail,
            path,
            program.function_source(),
            exact(args),
            finding.python,
            finding.compiled,
            batch_seed,
        )
        self.stats.written.append(written)
        self.log(f"fuzz: FINDING ({finding.signature}) shrunk to:\n{written.source}")
        self.log(f"  args: {written.args}\n  python: {finding.python}")
        self.log(f"  compiled: {finding.compiled}\n  regression test: {path or '(not written)'}")

    def _reduce(
        self, runner: Runner, program: Program, args: tuple[Any, ...], finding: Finding
    ) -> tuple[Program, Finding]:
        """Delete statements while the finding stays (`jitcheck.fuzz.reduce`)."""
        if self.options.reduce_seconds <= 0:
            return program, finding
        kind = _kind_key(finding)
        reduced, kept = reduce_program(
            runner, program, args, lambda f: _kind_key(f) == kind, self.options.reduce_seconds
        )
        return (reduced, kept) if kept is not None else (program, finding)

    def _save(self) -> None:
        if not self.options.write_tests:
            return
        os.makedirs(self.options.out, exist_ok=True)
        path = os.path.join(self.options.out, "campaign.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"seed": self.options.seed, **self.stats.as_dict()}, f, indent=1)


class _ShrinkDone(BaseException):  # noqa: N818 - a control-flow signal
    """The shrinking budget is spent: the smallest failing example so far is the result."""


class _ShrinkState:
    """What one batch knows while shrinking: the kind it shrinks towards, the verdicts seen
    (by program and inputs), the smallest failing example, and the budget."""

    def __init__(self) -> None:
        self.target: str | None = None
        self.best: tuple[Case, Finding] | None = None
        self._known: dict[tuple[str, str], Result] = {}
        self._tried = 0  # new candidates run while shrinking
        self._calls = 0  # candidates seen while shrinking (most draw a program seen before)
        self._start = 0.0

    @staticmethod
    def _key(case: Case) -> tuple[str, str]:
        return case.program.source, exact(case.inputs)

    def cached(self, case: Case) -> Result | None:
        if self.target is not None:
            self._calls += 1
        return self._known.get(self._key(case))

    def remember(self, case: Case, result: Result) -> None:
        self._known[self._key(case)] = result
        if self.target is not None:
            self._tried += 1

    def begin(self, finding: Finding) -> None:
        self.target = _kind_key(finding)
        self._start = time.monotonic()

    def keep(self, case: Case, finding: Finding) -> None:
        """Remember `case` if it is the smallest failing example yet."""
        if self.best is None or _size(case) <= _size(self.best[0]):
            self.best = (case, finding)

    def matches(self, finding: Finding) -> bool:
        return _kind_key(finding) == self.target

    def exhausted(self, options: Options) -> bool:
        return self.target is not None and (
            self._tried >= options.shrink_programs
            or self._calls >= SHRINK_CALLS_PER_PROGRAM * options.shrink_programs
            or time.monotonic() - self._start >= options.shrink_seconds
        )

    def seconds(self) -> float:
        return time.monotonic() - self._start if self.target is not None else 0.0


def _size(case: Case) -> int:
    return len(case.program.source) + len(exact(case.inputs))


def _kind_key(finding: Finding) -> str:
    """What shrinking must preserve: the kind, and for compiler errors the error class."""
    if finding.kind == "internal error":
        return f"{finding.kind}: {finding.detail.split(':', 1)[0]}"
    return finding.kind
