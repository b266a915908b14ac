"""Project-wide pytest configuration: Hypothesis profiles and the IR verifier.

Profiles (choose with `--hypothesis-profile NAME`):

* `dev` (default): quick, for the edit-test loop.
* `ci`: derandomized so a CI run is reproducible; selected automatically when `CI=true`.
* `thorough`: many examples, for long campaigns (`make thorough`).

Every profile disables the deadline: the first call of a jitted function compiles it.
"""

import os

from hypothesis import HealthCheck, settings

# jitcheck's own tests run child pytest sessions through the `pytester` fixture.
pytest_plugins = ["pytester"]

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=40, **_COMMON)
settings.register_profile("ci", max_examples=60, derandomize=True, print_blob=True, **_COMMON)
settings.register_profile("thorough", max_examples=2000, **_COMMON)
settings.load_profile("ci" if os.environ.get("CI", "").lower() == "true" else "dev")

# Tests run with the IR verifier on between stages and passes (DESIGN.md section 2).
os.environ.setdefault("JITCORE_DEBUG", "1")


def pytest_addoption(parser):  # type: ignore[no-untyped-def]
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite the golden IR listings under tests/jitcore/golden/ from the current output",
    )
