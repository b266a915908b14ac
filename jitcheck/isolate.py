"""`--jit-diff-isolate`: compiled calls run in a child process, so a crash or a hang in
compiled code fails one item with what was running, and the session goes on.

The parent (`IsolatedExecutor`) starts `python -m jitcheck.isolate READ_FD WRITE_FD`, which
imports the function's module, builds a `LocalExecutor` and serves requests; messages are
length-prefixed pickles on two private pipes (the child's stdout and stderr stay the test's).
Arguments cross as `jitcheck.values.pack` output, so non-contiguous views keep their strides.
A child that dies is reported with its signal; one that does not answer within the timeout
is killed. Python's reference calls stay in the parent: only compiled code is isolated.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from jitcheck.bench import BenchOptions
from jitcheck.compare import Outcome
from jitcheck.execute import CompileFailure, LocalExecutor, invoke, python_reference
from jitcheck.modes import Mode
from jitcheck.values import pack, unpack

_HEADER = struct.Struct("!Q")
BENCH_TIMEOUT_FACTOR = 20  # timing runs many calls: it gets this many call timeouts
STARTUP_TIMEOUT = 120.0  # seconds for a child to import NumPy, llvmlite, jitcore and the module


class ChildDied(Exception):
    """The child process died (a crash in compiled code) or stopped answering (a hang)."""


class IsolatedExecutor:
    """Python in this process; the compiled modes in a child process (restarted if it dies)."""

    def __init__(self, dispatcher: Any, binding: str, modes: Sequence[Mode], timeout: float):
        self.reference = python_reference(dispatcher)
        module = sys.modules[dispatcher.__module__]
        self._target = (module.__name__, getattr(module, "__file__", None), binding)
        self._modes = [(m.label, dict(m.changes)) for m in modes]
        self._timeout = timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self._to_child = self._from_child = -1

    def call_python(self, args: tuple[Any, ...]) -> Outcome:
        return invoke(self.reference, args)

    def call(self, label: str, args: tuple[Any, ...]) -> Outcome:
        reply = self._request(("call", label, pack(args)), self._timeout)
        if reply[0] == "compile_failure":
            raise CompileFailure(label, *reply[1:])
        outcome: Outcome = reply[1]
        outcome.args_after = unpack(outcome.args_after)
        return outcome

    def compile_stats(self) -> dict[str, dict[str, Any]]:
        """The child's compile statistics; none if it is not running (it died)."""
        if self._proc is None:
            return {}
        return self._request(("compile_stats",), self._timeout)[1]

    def bench(
        self, args: tuple[Any, ...], options: BenchOptions, name: str, sink: Any = None
    ) -> dict[str, Any]:
        """Time in the child; `sink` is ignored (pytest-benchmark's records stay there)."""
        request = ("bench", pack(args), options, name)
        return self._request(request, self._timeout * BENCH_TIMEOUT_FACTOR)[1]

    def close(self) -> None:
        """Stop the child, politely: closing its input ends its loop."""
        self._stop(kill=False)

    def _stop(self, kill: bool) -> int | None:
        """Close the pipes and reap the child (killing it first if asked); its exit status."""
        if self._proc is None:
            return None
        for fd in (self._to_child, self._from_child):
            with contextlib.suppress(OSError):
                os.close(fd)
        if kill:
            self._proc.kill()
        try:
            code = self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            code = self._proc.wait()
        self._proc = None
        return code

    # --- the pipe ---------------------------------------------------------------------------

    def _start(self) -> None:
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "jitcheck.isolate", str(to_child_r), str(from_child_w)],
            pass_fds=(to_child_r, from_child_w),
            env=env,
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._exchange(("init", *self._target, self._modes), max(self._timeout, STARTUP_TIMEOUT))

    def _request(self, message: tuple[Any, ...], timeout: float) -> tuple[Any, ...]:
        if self._proc is None:
            self._start()
        return self._exchange(message, timeout)

    def _exchange(self, message: tuple[Any, ...], timeout: float) -> tuple[Any, ...]:
        try:
            _write(self._to_child, message)
            reply = _read(self._from_child, deadline=time.monotonic() + timeout)
        except (EOFError, BrokenPipeError):
            raise ChildDied(self._death()) from None
        except TimeoutError:
            self._stop(kill=True)
            raise ChildDied(f"compiled code did not return within {timeout:g} s") from None
        if reply[0] == "error":
            raise RuntimeError(f"jitcheck isolation child failed:\n{reply[1]}")
        return reply

    def _death(self) -> str:
        code = self._stop(kill=False)
        if code is not None and code < 0:
            return f"compiled code crashed the process ({signal.Signals(-code).name})"
        return f"the process running compiled code exited with status {code}"


def _write(fd: int, message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def _read(fd: int, deadline: float | None = None) -> Any:
    size = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline))[0]
    return pickle.loads(_read_exact(fd, size, deadline))


def _read_exact(fd: int, size: int, deadline: float | None) -> bytes:
    chunks, remaining = [], size
    while remaining:
        if deadline is not None:
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([fd], [], [], wait)[0]:
                raise TimeoutError
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


# --- the child -----------------------------------------------------------------------------


def _load(module_name: str, module_file: str | None, binding: str) -> Any:
    """The dispatcher, from the module as the parent imported it (by name, else by file)."""
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        if module_file is None:
            raise
        spec = importlib.util.spec_from_file_location(module_name, module_file)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return getattr(module, binding)


def _serve(executor: LocalExecutor, request: tuple[Any, ...]) -> tuple[Any, ...]:
    kind = request[0]
    if kind == "call":
        try:
            outcome = executor.call(request[1], unpack(request[2]))
        except CompileFailure as exc:
            return ("compile_failure", exc.error, exc.text, exc.internal)
        outcome.args_after = pack(outcome.args_after)
        return ("ok", _portable(outcome))
    if kind == "compile_stats":
        return ("ok", executor.compile_stats())
    if kind == "bench":
        timed = executor.bench(unpack(request[1]), request[2], request[3])
        for outcome in timed.get("outcomes", {}).values():
            _portable(outcome)
        return ("ok", timed)
    raise ValueError(f"unknown request {kind!r}")


def _portable(outcome: Outcome) -> Outcome:
    """`outcome`, with an exception type that cannot be pickled replaced by a RuntimeError
    that names it (a local exception class cannot cross)."""
    try:
        pickle.dumps(outcome.error_type)
    except Exception:  # noqa: BLE001 - any failure to pickle means it cannot cross
        name = outcome.error_type.__name__ if outcome.error_type else "?"
        outcome.error_type, outcome.error_text = RuntimeError, f"{name}: {outcome.error_text}"
    return outcome


def main(argv: list[str]) -> int:
    """Serve requests until the parent closes the pipe."""
    read_fd, write_fd = int(argv[0]), int(argv[1])
    executor: LocalExecutor | None = None
    while True:
        try:
            request = _read(read_fd)
        except EOFError:
            return 0
        try:
            if request[0] == "init":
                _, module_name, module_file, binding, modes = request
                dispatcher = _load(module_name, module_file, binding)
                executor = LocalExecutor(dispatcher, [Mode(lb, ch) for lb, ch in modes])
                reply: tuple[Any, ...] = ("ok",)
            else:
                assert executor is not None, "init must come first"
                reply = _serve(executor, request)
        except Exception:  # noqa: BLE001 - report any failure of the child to the parent
            import traceback

            reply = ("error", traceback.format_exc())
        _write(write_fd, reply)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
