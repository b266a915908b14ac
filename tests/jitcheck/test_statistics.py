"""`--hypothesis-show-statistics` says something for jit-diff items (events, the largest ULP
distance as a target), and compile statistics leave out a process's one-time imports."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from jitcheck.compare import max_ulps
from tests.import_graph import ROOT
from tests.jitcheck.support import write_module

KERNELS = """
import math


@jitcheck(x=st.floats(-1e6, 1e6))  # finite: math.sin(inf) raises, which would be an event
@jit
def scaled_sin(x: float) -> float:
    return math.sin(x) * 2.0


@jitcheck(x=st.integers(-5, 5), min_returned=0.1)
def inverse(x: int) -> float:
    return 1.0 / x


inverse = jit(inverse)
"""


def test_show_statistics_reports_events_and_ulp_targets(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_k", KERNELS)
    result = pytester.runpytest_inprocess(
        "--jit-diff", "--jit-diff-max-examples=40", "--hypothesis-show-statistics"
    )
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        [
            "*Hypothesis Statistics*",
            "test_k.py::inverse::jit-diff:",
            "*Events:",
            "*%, python r*",
            "*Highest target score: *(label='ULPs from Python (O3)')",
        ]
    )
    result.stdout.fnmatch_lines(["*python raised ZeroDivisionError*"])
    result.stdout.fnmatch_lines(["test_k.py::scaled_sin::jit-diff:", "*100.00%, python returned"])


def test_without_the_option_no_statistics_are_printed(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_k", KERNELS)
    result = pytester.runpytest_inprocess("--jit-diff", "--jit-diff-max-examples=5")
    assert result.ret == pytest.ExitCode.OK
    assert "Events:" not in result.stdout.str()


def test_max_ulps_measures_the_largest_distance_of_finite_floats() -> None:
    assert max_ulps(1.0, 1.0) == 0
    assert max_ulps(1.0, float(np.nextafter(1.0, 2.0))) == 1
    near = np.nextafter(np.float32(1), np.float32(2))
    assert max_ulps(np.float32(1), near) == 1  # counted in float32
    pair = (np.array([1.0, np.nan, 2.0]), 3)
    assert max_ulps(pair, (np.array([1.0, np.nan, np.nextafter(2.0, 0.0)]), 3)) == 1
    assert max_ulps(complex(1, 1), complex(1, float(np.nextafter(1.0, 0.0)))) == 1
    assert max_ulps(np.ones(2), np.ones(3)) is None
    assert max_ulps(3, 3) is None and max_ulps(float("inf"), float("inf")) is None


def test_compile_statistics_leave_out_the_first_compilations_imports(tmp_path: Path) -> None:
    """After jitcheck's executor is made, compiling a kernel imports no more jitcore
    modules: the first checked function's statistics measure its own compilation."""
    code = textwrap.dedent(
        """
        import math, sys
        import numpy as np
        from jitcheck.execute import LocalExecutor
        from jitcheck.modes import resolve_modes
        from jitcore import jit

        def kernel(a, x):
            s = 0.0
            for i in range(a.shape[0]):
                s += math.exp(a[i] * x)
            return s + np.sum(a)

        d = jit(kernel)
        executor = LocalExecutor(d, resolve_modes(d.options, []))
        before = {m for m in sys.modules if m.startswith(("jitcore", "llvmlite"))}
        outcome = executor.call(next(iter(executor.dispatchers)), (np.ones(3), 0.5))
        assert not outcome.raised, outcome.describe()
        after = {m for m in sys.modules if m.startswith(("jitcore", "llvmlite"))}
        print(sorted(after - before))
        """
    )
    script = tmp_path / "first_compile.py"  # jitcore reads a kernel's source from its file
    script.write_text(code)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JITCORE_CACHE": "0"}
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and out.stdout.strip() == "[]", out.stdout + out.stderr
