"""Guards for the whole suite.

An `InternalCompilerError` is a jitcore bug whenever it happens, even inside a test that
catches every exception (a Hypothesis property comparing outcomes, an AUTO-mode fallback), so
any test during which one is raised fails. Tests that provoke one on purpose (the verifier's
own tests) say so with `@pytest.mark.internal_error_expected`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from jitcore.errors import InternalCompilerError


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "internal_error_expected: the test raises InternalCompilerError on purpose",
    )


@pytest.fixture(autouse=True)
def _no_internal_compiler_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    raised: list[InternalCompilerError] = []
    original = InternalCompilerError.__init__

    def recording(self: InternalCompilerError, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        raised.append(self)

    InternalCompilerError.__init__ = recording  # type: ignore[method-assign]
    try:
        yield
    finally:
        InternalCompilerError.__init__ = original  # type: ignore[method-assign]
    if raised and request.node.get_closest_marker("internal_error_expected") is None:
        pytest.fail(
            f"{len(raised)} InternalCompilerError(s) raised during this test (a jitcore bug "
            f"even if the test caught it); the first:\n{raised[0]}",
            pytrace=False,
        )
