"""Bisect LLVM's own optimization passes (`-opt-bisect-limit`) for a disagreement.

When the typed IR computes Python's result after every jitcore pass (or the disagreement
remains with every jitcore pass disabled), the difference comes from lowering, code
generation, or LLVM's optimizer. LLVM numbers every optional pass run over a module and
`-opt-bisect-limit=N` runs only the first N; bisecting N between 0 (no optional pass: the
code as jitcore generated it) and all of them names the first LLVM pass run after which the
compiled result differs, or says that the code disagrees before LLVM optimizes anything.

LLVM's bisection state is global to a process and cannot be reset, so every trial compiles
and runs in a forked child that exits afterwards (the parent's compiled callees and library
kernels come along, so only the function's own module is compiled, and numbered from 1). A
trial that crashes counts as disagreeing. POSIX only; elsewhere there is no LLVM answer.
"""

from __future__ import annotations

import difflib
import json
import os
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jitcheck.compare import Outcome
from jitcheck.values import fresh_copy

ALL_PASSES = 1 << 30  # a limit above any module's pass count: every pass runs (and is listed)
TRIAL_TIMEOUT = 60.0  # seconds for one trial (compile and run) before it counts as failed
MAX_DIFF_LINES = 40


@dataclass(frozen=True)
class LLVMCulprit:
    """The first LLVM pass run after which the result differs (`index` of `runs`, from 1),
    or `index == 0`: the code differs before any optional LLVM pass."""

    index: int
    runs: int
    name: str = ""  # as LLVM prints it: `instcombine on f`
    ir_diff: str = ""

    def __str__(self) -> str:
        if self.index == 0:
            return (
                "with none of LLVM's optional passes run, the compiled code already disagrees "
                "(LLVM's -opt-bisect-limit=0): the difference is in jitcore's lowering or code "
                "generation (or a callee or library kernel compiled on its own)"
            )
        return (
            f"LLVM's optimizer introduces it: pass run {self.index} of {self.runs}, "
            f"`{self.name}`, is the first after which the result differs (bisected with "
            f"LLVM's -opt-bisect-limit; LLVM IR before and after it below)\n{self.ir_diff}"
        )


@dataclass(frozen=True)
class _Trial:
    agrees: bool
    runs: list[str]
    llvm_ir: str


def bisect_llvm_passes(
    dispatcher: Any, args: tuple[Any, ...], agrees: Callable[[Outcome], bool]
) -> LLVMCulprit | None:
    """The LLVM pass run that makes `dispatcher` disagree on `args`; None when it cannot be
    told (no fork, a trial that fails to report, or every pass agreeing)."""
    if not hasattr(os, "fork"):
        return None
    full = _trial(dispatcher, args, agrees, ALL_PASSES)
    if full is None or full.agrees or not full.runs:
        return None
    runs = len(full.runs)
    none = _trial(dispatcher, args, agrees, 0)
    if none is None:
        return None
    if not none.agrees:
        return LLVMCulprit(0, runs)
    low, high = 0, runs  # the first `low` runs agree, the first `high` disagree
    trials = {0: none, runs: full}
    while high - low > 1:
        mid = (low + high) // 2
        trial = _trial(dispatcher, args, agrees, mid)
        if trial is None:
            return None
        trials[mid] = trial
        if trial.agrees:
            low = mid
        else:
            high = mid
    before, after = trials[low], trials[high]
    name = after.runs[high - 1] if len(after.runs) >= high else full.runs[high - 1]
    return LLVMCulprit(high, runs, name, _diff(before.llvm_ir, after.llvm_ir))


def _trial(
    dispatcher: Any, args: tuple[Any, ...], agrees: Callable[[Outcome], bool], limit: int
) -> _Trial | None:
    """Compile and run with the first `limit` LLVM pass runs, in a forked child."""
    read, write = os.pipe()
    data: bytes | None = None
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read)
        _child(write, dispatcher, args, agrees, limit)
    os.close(write)
    try:
        data = _read_all(read, TRIAL_TIMEOUT)
    finally:
        os.close(read)
        if data is None:  # still running: a hang counts as no answer
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    if data is None:
        return None
    if not data:  # the child died before reporting: a crash counts as disagreeing
        return _Trial(False, [], "")
    report = json.loads(data)
    if "error" in report:  # the child could not compile or judge: no answer
        return None
    return _Trial(report["agrees"], report["runs"], report["llvm_ir"])


def _child(
    write: int, dispatcher: Any, args: tuple[Any, ...], agrees: Any, limit: int
) -> None:  # pragma: no cover - runs in the forked child, reported through the pipe
    code = 1
    try:
        report = _child_report(dispatcher, args, agrees, limit)
    except Exception as exc:  # noqa: BLE001 - no answer, not a disagreement
        report = {"error": f"{type(exc).__name__}: {exc}"}
    try:
        payload = json.dumps(report).encode()
        while payload:
            payload = payload[os.write(write, payload) :]
        code = 0
    finally:
        os._exit(code)


def _child_report(
    dispatcher: Any, args: tuple[Any, ...], agrees: Any, limit: int
) -> dict[str, Any]:  # pragma: no cover - runs in the forked child
    """Compile with the limit, run, and judge, in the child; what `_trial` reads back."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)  # LLVM prints every pass decision, in codegen too
    from jitcheck.execute import invoke, signature_of

    trial = dispatcher.with_options(llvm_bisect_limit=limit)
    outcome = invoke(trial, fresh_copy(args))
    overload = trial.overload(signature_of(args))
    texts = overload.record.texts if overload is not None else {}
    # the symbol names the options, the limit among them: one readable name in all trials
    symbol = overload.record.symbol if overload is not None else ""
    name = dispatcher.py_func.__qualname__

    def readable(text: str) -> str:
        return text.replace(symbol, name) if symbol else text

    return {
        "agrees": bool(agrees(outcome)),
        "runs": [readable(r) for r in texts.get("llvm-passes", "").splitlines() if r],
        "llvm_ir": readable(texts.get("llvm-opt", "")),
    }


def _read_all(fd: int, timeout: float) -> bytes | None:
    """Everything written to `fd` until its writer closes it; None on timeout."""
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _diff(before: str, after: str) -> str:
    lines = list(
        difflib.unified_diff(
            before.splitlines(), after.splitlines(), "before", "after", lineterm="", n=1
        )
    )
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"... ({len(lines) - MAX_DIFF_LINES} more lines)"]
    return "\n".join("    " + line for line in lines)
