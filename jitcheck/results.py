"""The record of one checked function, as it travels and as the JSON report stores it.

A record is a plain dict (the `function` object of `report.schema.json`): it rides on pytest's
test report from an xdist worker to the controller, is merged there, and is written to and
read back from JSON, so everything in it is JSON data. This module imports only the standard
library: the plugin uses it while collecting.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

OUTCOMES = ("passed", "failed", "skipped", "xfailed", "xpassed", "error")


@dataclass
class FunctionResult:
    """What jitcheck learned about one function in one run."""

    name: str  # dotted: module.function (the key of reports and baselines)
    nodeid: str
    module: str
    function: str
    outcome: str = "passed"
    reason: str = ""  # why it was skipped or failed, one line
    inputs: str = ""  # where the inputs came from: "annotations", "jit signatures", ...
    modes: list[str] = field(default_factory=list)  # compiled modes, the function's own first
    diff: dict[str, Any] | None = None  # DiffStats.as_dict(); None if the check never ran
    compile: dict[str, dict[str, Any]] = field(default_factory=dict)  # mode -> stats()
    timing: dict[str, dict[str, Any]] = field(default_factory=dict)  # python|mode -> record
    speedup: dict[str, float | None] = field(default_factory=dict)  # mode -> python/compiled
    bench_input: str = ""  # the timed call, abbreviated
    bench_error: str = ""  # why timing was incomplete, if it was
    retimed: int = 0  # timings repeated because one looked like a regression (check.py)
    load: float | None = None  # cores other processes kept busy while it was timed (load.py)
    # Hypothesis's statistics of the check, for --hypothesis-show-statistics (not reported)
    statistics: str = field(default="", repr=False)

    def as_dict(self) -> dict[str, Any]:
        record = asdict(self)
        del record["statistics"]
        return record


def empty_result(nodeid: str, outcome: str, reason: str) -> dict[str, Any]:
    """A record for an item whose own record never arrived (its xdist worker crashed). The
    name is guessed from the node id: `pkg/mod.py::f::jit-diff` is `pkg.mod.f`."""
    path, _, item = nodeid.partition("::")
    module = path.removesuffix(".py").replace("/", ".")
    function = item.removesuffix("::jit-diff")
    result = FunctionResult(f"{module}.{function}", nodeid, module, function, outcome, reason)
    return result.as_dict()


def first_line(text: str, limit: int = 200) -> str:
    """The first non-empty line of `text`, shortened to `limit` characters."""
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "…"
