"""The fuzzer in CI: a bounded, derandomized campaign that must find nothing.

A fixed seed makes the sequence of programs fixed; the budget (programs, and seconds as a
guard on a slow machine) decides how far along it the run gets. `make test` runs
`CI_PROGRAMS` programs in at most `CI_SECONDS`; under the `thorough` Hypothesis profile
(`make thorough`) the campaign runs `THOROUGH_SECONDS` with no program limit, and
`JITCHECK_FUZZ_SECONDS` / `JITCHECK_FUZZ_SEED` override both. A finding fails the test with
the shrunk program and where its regression test was written.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from jitcheck.fuzz.campaign import Campaign, Options
from jitcheck.fuzz.cli import summary

CI_PROGRAMS = 150
CI_SECONDS = 35.0
THOROUGH_SECONDS = 600.0


def _budget() -> tuple[float, int | None]:
    thorough = settings.get_current_profile_name() == "thorough"
    seconds = THOROUGH_SECONDS if thorough else CI_SECONDS
    programs = None if thorough else CI_PROGRAMS
    if "JITCHECK_FUZZ_SECONDS" in os.environ:
        return float(os.environ["JITCHECK_FUZZ_SECONDS"]), None
    return seconds, programs


@pytest.mark.slow  # about 30 s
def test_random_programs_compile_to_what_python_computes(tmp_path: Path) -> None:
    seconds, programs = _budget()
    options = Options(
        seconds=seconds,
        seed=int(os.environ.get("JITCHECK_FUZZ_SEED", "0")),
        out=str(tmp_path),
        max_programs=programs,
    )
    lines: list[str] = []
    stats = Campaign(options, log=lines.append).run()
    report = "\n".join([*lines, summary(stats, str(tmp_path))])
    assert stats.programs > 0, report
    assert stats.findings == 0, report
    assert stats.compiled >= stats.programs // 2, report  # jitcore compiles most of them
