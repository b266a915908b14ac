"""Random programs as a feature: `python -m jitcheck fuzz --minutes N`.

`grammar` draws valid, terminating, well-typed programs with Hypothesis; `runner` runs each
compiled (in a child process) and as Python and judges them by jitcheck's rules; `campaign`
searches, shrinks findings and counts; `regress` writes a shrunk finding as a pytest test
whose assertion, `assert_compiled_matches_python`, is exported here; `cli` is the command.
Loaded lazily, so the worker process and `python -m jitcheck` stay quick to start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jitcheck.fuzz.regress import assert_compiled_matches_python

__all__ = ["assert_compiled_matches_python"]


def __getattr__(name: str) -> Any:
    if name == "assert_compiled_matches_python":
        from jitcheck.fuzz.regress import assert_compiled_matches_python

        return assert_compiled_matches_python
    raise AttributeError(f"module 'jitcheck.fuzz' has no attribute {name!r}")
