"""The cache is never stale: after an edit to anything a compiled function reads, however it
reaches it, a fresh process misses and returns Python's value. Every scenario runs real child
processes: the first fills the cache, then a file is edited, then a second process runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CHILD = """
import json, sys
import numpy as np
from jitcore.dispatcher import python_mode
import main
args = eval(sys.argv[1])
compiled = main.f(*args)
with python_mode():
    python = main.f(*args)
def plain(v):
    return v.tolist() if isinstance(v, np.ndarray) else v
print(json.dumps({"compiled": plain(compiled), "python": plain(python),
                  "compiled_type": type(compiled).__name__, "python_type": type(python).__name__,
                  "hit": main.f.stats().cache_hit}))
"""


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).write_text(text)


def _run(root: Path, args: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))
    env["JITCORE_CACHE_DIR"] = str(root / "cache")
    env.pop("JITCORE_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, args],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _edit_then_rerun(
    root: Path, files: dict[str, str], edits: dict[str, tuple[str, str]], args: str = "(2.0,)"
) -> tuple[dict, dict]:
    _write(root, files)
    first = _run(root, args)
    assert not first["hit"] and first["compiled"] == first["python"]
    assert _run(root, args)["hit"], "the unedited project must hit the cache"
    for name, (old, new) in edits.items():
        path = root / name
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new))
    return first, _run(root, args)


MAIN_READS_CFG = """
import cfg
from jitcore import jit

@jit(cache=True, mode="compiled")
def f(x):
    return x * cfg.SCALE
"""

MAIN_READS_CLASS = """
from jitcore import jit

class K:
    X = 3.0

@jit(cache=True, mode="compiled")
def f(x):
    return x + K.X
"""

MAIN_READS_ARRAY = """
import numpy as np
from jitcore import jit

TABLE = np.arange(4.0)

@jit(cache=True, mode="compiled")
def f(x):
    return x + TABLE.shape[0]
"""

MAIN_CALLS_HELPERS = """
import helpers
from jitcore import jit

@jit(cache=True, mode="compiled")
def f(x):
    return helpers.g(x) + 1.0
"""

HELPERS = """
import deep
from jitcore import jit

@jit(cache=True, mode="compiled")
def g(x):
    return x * 2.0 + deep.h(x)
"""

DEEP = """
from jitcore import jit

@jit(cache=True, mode="compiled")
def h(x):
    return x - 2.0
"""


MAIN_CALLS_PLAIN = """
from jitcore import jit

def helper(x):
    return x * 2.0

@jit(cache=True, mode="compiled")
def f(x):
    return helper(x) + 1.0
"""

MAIN_READS_INSTANCE = """
from jitcore import jit

class Config:
    pass

cfg = Config()
cfg.scale = 3.0

@jit(cache=True, mode="compiled")
def f(x):
    return x * cfg.scale
"""

MAIN_PASSES_PLAIN = """
from jitcore import jit

def helper(x):
    return x * 2.0

@jit(cache=True, mode="compiled")
def apply(fn, x):
    return fn(x)
"""

PASSES_CHILD = """
import json
import main
print(json.dumps({"compiled": main.apply(main.helper, 2.0), "python": main.helper(2.0)}))
"""


def test_an_edit_of_a_function_passed_from_python_is_a_miss(tmp_path: Path) -> None:
    """A function passed as an argument is a compile-time constant of its specialization:
    its body is in that specialization's key (an edit once loaded the old code)."""
    _write(tmp_path, {"main.py": MAIN_PASSES_PLAIN})
    env = dict(os.environ, JITCORE_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(tmp_path))
    run = [sys.executable, "-c", PASSES_CHILD]
    outcomes = []
    for text in (MAIN_PASSES_PLAIN, MAIN_PASSES_PLAIN.replace("x * 2.0", "x * 7.0")):
        (tmp_path / "main.py").write_text(text)
        done = subprocess.run(run, env=env, cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        outcomes.append(json.loads(done.stdout.strip().splitlines()[-1]))
    assert outcomes == [{"compiled": 4.0, "python": 4.0}, {"compiled": 14.0, "python": 14.0}]


@pytest.mark.parametrize(
    ("files", "edits"),
    [
        pytest.param(
            {"main.py": MAIN_CALLS_PLAIN},
            {"main.py": ("x * 2.0", "x * 7.0")},
            id="plain-helper-body",
        ),
        pytest.param(
            {"main.py": MAIN_READS_INSTANCE},
            {"main.py": ("cfg.scale = 3.0", "cfg.scale = 4.5")},
            id="instance-attribute",
        ),
        pytest.param(
            {"main.py": MAIN_READS_CFG, "cfg.py": "SCALE = 3.0\n"},
            {"cfg.py": ("3.0", "4.5")},
            id="module-attribute",
        ),
        pytest.param(
            {"main.py": MAIN_READS_CLASS},
            {"main.py": ("X = 3.0", "X = 4.5")},
            id="class-attribute",
        ),
        pytest.param(
            {"main.py": MAIN_READS_ARRAY},
            {"main.py": ("np.arange(4.0)", "np.arange(11.0) * 3")},
            id="global-array",
        ),
        pytest.param(
            {"main.py": MAIN_CALLS_HELPERS, "helpers.py": HELPERS, "deep.py": DEEP},
            {"helpers.py": ("x * 2.0", "x * 2.5")},
            id="callee-through-module",
        ),
        pytest.param(
            {"main.py": MAIN_CALLS_HELPERS, "helpers.py": HELPERS, "deep.py": DEEP},
            {"deep.py": ("x - 2.0", "x - 3.5")},
            id="callee-through-third-module",
        ),
    ],
)
def test_an_edit_is_a_miss_with_pythons_value(
    tmp_path: Path, files: dict[str, str], edits: dict[str, tuple[str, str]]
) -> None:
    first, again = _edit_then_rerun(tmp_path, files, edits)
    assert not again["hit"]
    assert again["compiled"] == again["python"] != first["python"]


MAIN_INT_CALLEE = """
import helpers
from jitcore import jit

@jit(cache=True, mode="compiled")
def f(n):
    return helpers.g(n) + 1
"""

HELPER_RETURNS_INT = """
from jitcore import jit

@jit(cache=True, mode="compiled")
def g(n):
    return n * 2
"""


def test_a_callee_whose_return_type_changes_is_a_miss(tmp_path: Path) -> None:
    files = {"main.py": MAIN_INT_CALLEE, "helpers.py": HELPER_RETURNS_INT}
    _, again = _edit_then_rerun(tmp_path, files, {"helpers.py": ("n * 2", "n * 2.5")}, "(3,)")
    assert not again["hit"]
    assert again["compiled"] == again["python"] == 8.5
    assert again["compiled_type"] == "float"


def test_a_callee_that_now_returns_an_array_is_a_miss(tmp_path: Path) -> None:
    files = {
        "main.py": MAIN_INT_CALLEE.replace("helpers.g(n) + 1", "helpers.g(n) * 1"),
        "helpers.py": HELPER_RETURNS_INT.replace(
            "from jitcore", "import numpy as np\nfrom jitcore"
        ),
    }
    edits = {"helpers.py": ("return n * 2", "return np.full(2, n * 2.0)")}
    _, again = _edit_then_rerun(tmp_path, files, edits, "(3,)")
    assert not again["hit"]
    assert again["compiled"] == again["python"] == [6.0, 6.0]
