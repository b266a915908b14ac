"""Running one generated program: Python here, compiled in a child process, judged alike.

Python runs in this process on a fresh copy of each input (the reference). The compiled side
runs in a long-lived child (`jitcheck.fuzz.worker`), so a segfault or a hang in compiled code
ends only the child: it is reported as a finding and the next program gets a new child. The
two outcomes are judged by jitcheck's own rules (`jitcheck.judge`: the same tolerance, the
same exception equivalence, the same out-of-compiled-domain rejections as `--jit-diff`).

What a program can come to (`Result.status`):

* `compiled`: every input agreed (or was out of the compiled domain, counted);
* `rejected`: jitcore refused it with an UnsupportedError or TypingError (not a failure: the
  rejection rate measures jitcore's breadth, and the reasons are counted);
* `finding`: a wrong result, a different exception, an InternalCompilerError (or any other
  exception escaping the compiler), a crash or a hang of compiled code;
* `skipped`: the Python reference itself ran too long (a generator bug, never a finding).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import Any

from jitcheck.compare import Outcome, Tolerance
from jitcheck.execute import invoke
from jitcheck.fuzz.grammar import Program
from jitcheck.isolate import ChildDied, _read, _write
from jitcheck.judge import judge
from jitcheck.modes import Mode
from jitcheck.values import fresh_copy, pack, unpack

COMPILED = Mode("compiled", {}, own=True)
CALL_TIMEOUT = 60.0  # seconds for the child to compile and run one program on all inputs
PYTHON_TIMEOUT = 10.0  # seconds for the Python reference of one program
STARTUP_TIMEOUT = 120.0
RESTART_EVERY = 250  # programs per child: compiled modules accumulate in LLVM
PRELOAD_ENV = "JITCHECK_FUZZ_PRELOAD"  # comma-separated modules the child imports first


@dataclass(frozen=True)
class Finding:
    """What went wrong, on which input (None when the program never ran)."""

    kind: str  # "wrong result", "different exception", "internal error", "crash", "hang"
    detail: str
    args: tuple[Any, ...] | None = None
    python: str = ""
    compiled: str = ""

    @property
    def signature(self) -> str:
        """A short key that tells findings apart (for counting and deduplication)."""
        return f"{self.kind}: {normalize(self.detail)}"


@dataclass
class Result:
    status: str  # "compiled", "rejected", "finding", "skipped"
    reason: str = ""  # a rejection's normalized reason
    finding: Finding | None = None
    examples: int = 0  # inputs compared
    out_of_domain: int = 0  # inputs whose Python result is outside the compiled domain
    seconds: float = 0.0


def normalize(message: str) -> str:
    """A message with generated names (`v12`, `p0`) and numbers blanked, its first line only:
    reasons that differ only in a variable's name count as one; a function's name stays."""
    first = message.strip().splitlines()[0] if message.strip() else ""
    first = re.sub(r"\S+\.py:\d+:\d+: ", "", first)  # file:line:col of a generated module
    first = re.sub(r"`[vpixtcgs]\d+`", "`_`", first)  # generated names; others stay
    first = re.sub(r"(?<![\w.])-?\d+(\.\d+)?(e[+-]?\d+)?", "N", first)
    return first[:120]


class Runner:
    """Runs programs; owns the child process and the directory of generated modules.

    The child imports the modules of `preload` and of `$JITCHECK_FUZZ_PRELOAD` first (a
    test plants a compiler bug so), and runs with jitcore's IR verifier on (`verify`), so a
    pass that breaks an IR invariant is an InternalCompilerError, a finding, even where the
    result happens to come out right.
    """

    def __init__(
        self,
        preload: Sequence[str] = (),
        timeout: float = CALL_TIMEOUT,
        restart_every: int = RESTART_EVERY,
        tolerance: Tolerance | None = None,
        verify: bool = True,
    ) -> None:
        from_env = [m for m in os.environ.get(PRELOAD_ENV, "").split(",") if m]
        self.preload = (*from_env, *preload)
        self.verify = verify
        self.timeout = timeout
        self.restart_every = restart_every
        self.tolerance = tolerance or Tolerance()
        self._dir = tempfile.TemporaryDirectory(prefix="jitcheck-fuzz-")
        self._serial = 0
        self._served = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._to_child = self._from_child = -1

    # --- one program ----------------------------------------------------------------------

    def run(self, program: Program, inputs: Sequence[tuple[Any, ...]]) -> Result:
        start = time.perf_counter()
        result = self._run(program, inputs)
        result.seconds = time.perf_counter() - start
        return result

    def _run(self, program: Program, inputs: Sequence[tuple[Any, ...]]) -> Result:
        namespace: dict[str, Any] = {"__name__": "jitcheck_fuzz_reference"}
        exec(compile(program.source, "<fuzz program>", "exec"), namespace)  # noqa: S102
        try:
            python = [self._python(namespace[program.entry], args) for args in inputs]
        except _PythonTimeout:
            return Result("skipped", reason="the Python reference ran too long")
        reply = self._compiled(program, inputs)
        if reply[0] == "rejected":
            return Result("rejected", reason=f"{reply[1]}: {normalize(reply[2])}")
        if reply[0] in ("internal", "crash", "hang"):
            kind = {"internal": "internal error"}.get(reply[0], reply[0])
            detail = f"{reply[1]}: {reply[2]}" if reply[0] == "internal" else reply[1]
            args = inputs[0] if inputs else None
            return Result("finding", finding=Finding(kind, detail, args))
        return self._judged(inputs, python, reply[1])

    def _judged(
        self, inputs: Sequence[tuple[Any, ...]], python: list[Outcome], compiled: list[Outcome]
    ) -> Result:
        result = Result("compiled")
        for args, p, c in zip(inputs, python, compiled):
            c.args_after = unpack(c.args_after)
            verdict = judge(COMPILED, args, p, c, self.tolerance)
            if verdict.rejected is not None:
                result.out_of_domain += 1
                continue
            result.examples += 1
            diff = verdict.difference
            if diff is not None:
                kind = "different exception" if p.raised or c.raised else "wrong result"
                finding = Finding(kind, str(diff), args, p.describe(), c.describe())
                return Result("finding", finding=finding, examples=result.examples)
        return result

    def _python(self, func: Any, args: tuple[Any, ...]) -> Outcome:
        with _deadline(PYTHON_TIMEOUT):
            return invoke(func, fresh_copy(args))

    def _compiled(self, program: Program, inputs: Sequence[tuple[Any, ...]]) -> tuple[Any, ...]:
        self._serial += 1
        name = f"jitcheck_fuzz_{os.getpid()}_{self._serial}"
        path = os.path.join(self._dir.name, f"{name}.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(program.source)
        request = ("run", path, name, program.entry, [pack(a) for a in inputs])
        try:
            return self._request(request)
        except ChildDied as exc:
            kind = "hang" if "did not return" in str(exc) else "crash"
            return (kind, str(exc))
        finally:
            os.unlink(path)

    # --- the child ------------------------------------------------------------------------

    def _request(self, request: tuple[Any, ...]) -> tuple[Any, ...]:
        if self._proc is not None and self._served >= self.restart_every:
            self._stop(kill=False)
        if self._proc is None:
            self._start()
        self._served += 1
        reply = self._exchange(request, self.timeout)
        if reply[0] == "error":
            raise RuntimeError(f"the fuzz worker failed:\n{reply[1]}")
        return reply

    def _start(self) -> None:
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        if self.verify:
            env["JITCORE_DEBUG"] = "1"  # the IR verifier between passes: a broken invariant
        argv = [sys.executable, "-m", "jitcheck.fuzz.worker", str(to_child_r), str(from_child_w)]
        self._proc = subprocess.Popen(
            [*argv, *self.preload],
            pass_fds=(to_child_r, from_child_w),
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._served = 0

    def _exchange(self, message: tuple[Any, ...], timeout: float) -> tuple[Any, ...]:
        deadline = time.monotonic() + timeout + (STARTUP_TIMEOUT if self._served == 1 else 0)
        try:
            _write(self._to_child, message)
            reply: tuple[Any, ...] = _read(self._from_child, deadline=deadline)
        except (EOFError, BrokenPipeError):
            raise ChildDied(self._death()) from None
        except TimeoutError:
            self._stop(kill=True)
            raise ChildDied(f"compiled code did not return within {timeout:g} s") from None
        return reply

    def _death(self) -> str:
        code = self._stop(kill=False)
        if code is not None and code < 0:
            return f"compiled code crashed the process ({signal.Signals(-code).name})"
        return f"the process running compiled code exited with status {code}"

    def _stop(self, kill: bool) -> int | None:
        if self._proc is None:
            return None
        for fd in (self._to_child, self._from_child):
            with contextlib.suppress(OSError):
                os.close(fd)
        if kill:
            self._proc.kill()
        try:
            code = self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            code = self._proc.wait()
        self._proc = None
        return code

    def close(self) -> None:
        self._stop(kill=False)
        self._dir.cleanup()

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _PythonTimeout(BaseException):  # noqa: N818 - a control-flow signal
    """The Python reference of a program ran longer than PYTHON_TIMEOUT."""


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise _PythonTimeout in the block after `seconds` (main thread only; else no limit)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise _PythonTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
