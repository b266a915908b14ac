"""Random programs (tests/jitcore/programs.py) compiled and run as Python: same values, same
exceptions, same array contents after the call, at opt=0 and opt=3.

The `ci` profile runs a few dozen programs; `make thorough` runs thousands."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from tests.jitcore.programs import load, programs
from tests.jitcore.support import assert_same_arrays

ints = st.integers(-1000, 1000)
floats = st.floats(-1e3, 1e3, allow_nan=False) | st.sampled_from([0.0, -0.0, 1e300, np.nan])
arrays = hnp.arrays(np.float64, st.integers(1, 6), elements=st.floats(-100, 100))


@pytest.mark.parametrize("opt", [0, 3])
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(source=programs(), n=ints, k=ints, x=floats, y=floats, b=st.booleans(), a=arrays)
def test_random_programs_match_python(
    opt: int, source: str, n: int, k: int, x: float, y: float, b: bool, a: np.ndarray
) -> None:
    note(source)
    assert_same_arrays(load(source), n, k, x, y, b, a, opt=opt)
