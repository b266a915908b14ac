"""The fuzzer's child process: compiles and runs generated programs, one request at a time.

`python -m jitcheck.fuzz.worker READ_FD WRITE_FD [MODULE ...]` imports each MODULE first (a
test plants a miscompiling pass this way), then serves requests over the pipes in
`jitcheck.isolate`'s format (length-prefixed pickles). A request names a generated module's
file and its entry function, with packed argument tuples; the reply is what compiling did
(`rejected` with the error's class and message, `internal` for an InternalCompilerError or
any other exception while compiling) or, when it compiled, one `Outcome` per argument tuple.
A crash kills only this process: the parent (`jitcheck.fuzz.runner`) reports it and starts a
new one.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import traceback
from typing import Any

from jitcheck.execute import invoke
from jitcheck.isolate import _portable, _read, _write
from jitcheck.values import pack, unpack
from jitcore import ExecutionMode, jit
from jitcore.argtypes import typeof
from jitcore.errors import InternalCompilerError, JitError


def _load(path: str, module_name: str) -> Any:
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def compile_and_run(func: Any, inputs: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """Compile `func` for each input's signature, then run it on the input.

    Returns ("rejected", error class, message), ("internal", error class, text), or
    ("ran", [Outcome, ...]).
    """
    dispatcher = jit(mode=ExecutionMode.COMPILED)(func)
    outcomes = []
    for args in inputs:
        try:
            signature = tuple(typeof(a) for a in args)
            if signature not in dispatcher.signatures:
                dispatcher.compile(signature)
        except InternalCompilerError as exc:
            return ("internal", type(exc).__name__, str(exc))
        except JitError as exc:
            return ("rejected", type(exc).__name__, exc.message)
        except Exception as exc:  # noqa: BLE001 - an escaped exception is a compiler bug
            return ("internal", type(exc).__name__, traceback.format_exc())
        outcome = invoke(dispatcher, args)
        outcome.args_after = pack(outcome.args_after)
        outcomes.append(_portable(outcome))
    return ("ran", outcomes)


def _serve(request: tuple[Any, ...]) -> tuple[Any, ...]:
    _, path, module_name, entry, packed = request
    module = _load(path, module_name)
    try:
        return compile_and_run(getattr(module, entry), [unpack(a) for a in packed])
    finally:
        sys.modules.pop(module_name, None)


def main(argv: list[str]) -> int:
    """Serve requests until the parent closes the pipe."""
    read_fd, write_fd = int(argv[0]), int(argv[1])
    for name in argv[2:]:
        importlib.import_module(name)
    while True:
        try:
            request = _read(read_fd)
        except EOFError:
            return 0
        try:
            reply = _serve(request)
        except Exception:  # noqa: BLE001 - report any failure of the child to the parent
            reply = ("error", traceback.format_exc())
        _write(write_fd, reply)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
