"""A log of every compilation a process attempts, for measuring what jitcore compiles.

With `JITCORE_COMPILE_LOG=<file>` set, each specialization a dispatcher compiles (or loads from
the disk cache) appends one JSON line to the file: the function (module, qualified name, file
and line), the signature, the options' mode, and the outcome (`compiled`, or the class of the
error that rejected it, with the first line of its message). Several processes may append to
one file (pytest-xdist workers): each line is written whole with one `write` in append mode.

`jitcore compile-log <file>` summarizes a log: how many distinct functions compiled in every
signature tried, how many were rejected and why. Library kernels and prange bodies (compiled
by jitcore for itself) are not logged.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

ENV = "JITCORE_COMPILE_LOG"


def enabled() -> str | None:
    return os.environ.get(ENV) or None


def record(path: str, func: Any, signature: str, mode: str, outcome: str, message: str) -> None:
    code = getattr(func, "__code__", None)
    line = {
        "module": getattr(func, "__module__", "?"),
        "function": getattr(func, "__qualname__", repr(func)),
        "file": getattr(code, "co_filename", "?"),
        "line": getattr(code, "co_firstlineno", 0),
        "signature": signature,
        "mode": mode,
        "outcome": outcome,
        "message": message.strip().splitlines()[0][:300] if message.strip() else "",
    }
    data = (json.dumps(line) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _reason(message: str) -> str:
    """The message without its `file:line:col: ` prefix, so equal reasons count together."""
    return re.sub(r"^.*?:\d+:\d+: ", "", message)


def summarize(path: Path) -> dict[str, Any]:
    """Per function (module + qualified name): compiled in every attempt, or rejected; the
    rejections counted by error class and by message."""
    functions: dict[tuple[str, str], list[dict]] = {}
    for text in path.read_text().splitlines():
        entry = json.loads(text)
        functions.setdefault((entry["module"], entry["function"]), []).append(entry)
    compiled = [k for k, v in functions.items() if all(e["outcome"] == "compiled" for e in v)]
    rejected = {k: v for k, v in functions.items() if k not in set(compiled)}
    by_error = Counter(
        next(e["outcome"] for e in v if e["outcome"] != "compiled") for v in rejected.values()
    )
    reasons = Counter(
        _reason(next(e["message"] for e in v if e["outcome"] != "compiled"))
        for v in rejected.values()
    )
    return {
        "functions": len(functions),
        "compiled": len(compiled),
        "rejected": len(rejected),
        "by_error": dict(by_error.most_common()),
        "reasons": reasons.most_common(40),
        "rejected_functions": sorted(f"{m}.{q}" for m, q in rejected),
    }
