"""The suite-wide guards of tests/conftest.py fail what they should."""

from __future__ import annotations

from pathlib import Path

import pytest

GUARDED = """
import pytest
from jitcore.errors import InternalCompilerError

def test_swallows_an_internal_error():
    try:
        raise InternalCompilerError("stage `lower` failed")
    except InternalCompilerError:
        pass

@pytest.mark.internal_error_expected
def test_expects_one():
    with pytest.raises(InternalCompilerError):
        raise InternalCompilerError("on purpose")
"""


def test_a_swallowed_internal_compiler_error_fails_the_test(pytester: pytest.Pytester) -> None:
    pytester.makeconftest((Path(__file__).parent / "conftest.py").read_text())
    pytester.makepyfile(test_guarded=GUARDED)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, errors=1)  # the guard fails the first at teardown
    result.stdout.fnmatch_lines(["*InternalCompilerError(s) raised during this test*"])
