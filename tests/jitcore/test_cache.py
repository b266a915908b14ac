"""The disk cache: hits across processes, invalidation, parallel writers, damage, permissions,
and the `jitcore cache` command. Every scenario runs real child processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from jitcore import cache, cli

KERNELS = """
import numpy as np
from jitcore import jit
from helpers import scale

OFFSET = 1.5

@jit(cache=True)
def kernel(a, n):
    s = 0.0
    for i in range(n):
        s += scale(a[i % a.shape[0]]) + OFFSET
    return s + np.sum(a)

def unrelated():
    return 1
"""
HELPERS = """
from jitcore import jit

@jit(cache=True)
def scale(x):
    return x * 2.0
"""
CHILD = """
import json, warnings
import numpy as np
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import kernels
    result = kernels.kernel(np.arange(4.0), 10)
stats = kernels.kernel.stats()
print(json.dumps({"result": result, "hit": stats.cache_hit, "stages": list(stats.stages),
                  "warnings": [str(w.message) for w in caught]}))
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "kernels.py").write_text(KERNELS)
    (tmp_path / "src" / "helpers.py").write_text(HELPERS)
    return tmp_path


def run_child(project: Path, cache_dir: Path | None = None, code: str = CHILD) -> dict:
    """Run `code` in a fresh process on the project's source and cache; its last line, JSON."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(project / "src"), env.get("PYTHONPATH")])
    )
    env["JITCORE_CACHE_DIR"] = str(cache_dir or project / "cache")
    env.pop("JITCORE_DEBUG", None)
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        cwd=project,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def expected(scale: float, offset: float) -> float:
    a = [0.0, 1.0, 2.0, 3.0]
    return sum(scale * a[i % 4] + offset for i in range(10)) + sum(a)


def entries_for(cache_dir: Path, name: str) -> list[Path]:
    return [p for p, h in cache.entries(cache_dir) if h and h["qualname"] == name]


def test_second_process_loads_from_the_cache(project: Path) -> None:
    first = run_child(project)
    second = run_child(project)
    assert not first["hit"] and second["hit"]
    assert first["result"] == second["result"] == expected(scale=2.0, offset=1.5)
    assert second["stages"] == ["parse", "cache-load"]
    assert second["warnings"] == []


def test_editing_the_source_recompiles(project: Path) -> None:
    run_child(project)
    path = project / "src" / "kernels.py"
    path.write_text(path.read_text().replace("+ OFFSET", "- OFFSET"))
    again = run_child(project)
    assert not again["hit"] and again["result"] == expected(scale=2.0, offset=-1.5)


def test_changing_a_global_constant_recompiles(project: Path) -> None:
    run_child(project)
    path = project / "src" / "kernels.py"
    path.write_text(path.read_text().replace("OFFSET = 1.5", "OFFSET = 2.5"))
    assert not run_child(project)["hit"]


def test_changing_a_jitted_callee_in_another_module_recompiles(project: Path) -> None:
    run_child(project)
    path = project / "src" / "helpers.py"
    path.write_text(path.read_text().replace("x * 2.0", "x * 3.0"))
    again = run_child(project)
    assert not again["hit"] and again["result"] == expected(scale=3.0, offset=1.5)


def test_an_unrelated_edit_keeps_the_entry(project: Path) -> None:
    run_child(project)
    path = project / "src" / "kernels.py"
    path.write_text(path.read_text().replace("return 1", "return 2") + "\n# a comment\n")
    assert run_child(project)["hit"]


def test_eight_processes_share_an_empty_cache(project: Path) -> None:
    cache_dir = project / "shared-cache"
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: run_child(project, cache_dir), range(8)))
    assert len({r["result"] for r in results}) == 1
    assert sum(not r["hit"] for r in results) >= 1
    assert len(entries_for(cache_dir, "kernel")) == 1
    assert not list(cache_dir.glob("*/.tmp-*"))
    assert run_child(project, cache_dir)["hit"]


@pytest.mark.parametrize(
    "damage", ["truncate-header", "truncate-object", "garbage", "flip-byte", "empty"]
)
def test_damaged_entries_warn_and_recompile(project: Path, damage: str) -> None:
    reference = run_child(project)
    (entry,) = entries_for(project / "cache", "kernel")
    data = entry.read_bytes()
    damaged = {
        "truncate-header": data[:20],
        "truncate-object": data[:-100],
        "garbage": os.urandom(len(data)),
        "flip-byte": data[:-1] + bytes([data[-1] ^ 0xFF]),
        "empty": b"",
    }[damage]
    entry.write_bytes(damaged)
    again = run_child(project)
    assert not again["hit"] and again["result"] == reference["result"]
    assert any("damaged entry" in w for w in again["warnings"])
    assert run_child(project)["hit"]  # the entry was rewritten


def test_unwritable_cache_directory_warns_once_and_runs_uncached(project: Path) -> None:
    blocker = project / "not-a-directory"
    blocker.write_text("a file where the cache directory should be")
    result = run_child(project, blocker / "cache")
    assert not result["hit"] and result["result"] > 0
    assert sum("compiling without the cache" in w for w in result["warnings"]) == 1


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to chown")
def test_entries_of_another_user_are_never_loaded(project: Path) -> None:
    run_child(project)
    (entry,) = entries_for(project / "cache", "kernel")
    os.chown(entry, 65534, 65534)
    again = run_child(project)
    assert not again["hit"]
    assert any("belongs to another user" in w for w in again["warnings"])


def test_cache_directory_is_private(project: Path) -> None:
    run_child(project)
    assert (project / "cache").stat().st_mode & 0o777 == 0o700


def test_cached_code_gives_the_same_results_as_a_fresh_compile(project: Path) -> None:
    fresh = run_child(project, project / "c1")
    cached = run_child(project, project / "c1")
    other = run_child(project, project / "c2")
    assert cached["hit"] and fresh["result"] == cached["result"] == other["result"]


def test_cli_list_info_clear(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_child(project)
    directory = str(project / "cache")
    assert cli.main(["cache", "list", "--json", "--dir", directory]) == 0
    rows = json.loads(capsys.readouterr().out)
    names = {r["function"] for r in rows}
    assert {"kernels.kernel", "helpers.scale"} <= names
    assert all(r["size"] > 0 and r["age_seconds"] >= 0 for r in rows)
    assert cli.main(["cache", "info", "--json", "--dir", directory]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["entries"] == len(rows) and info["total_bytes"] > 0
    assert cli.main(["cache", "list", "--dir", directory]) == 0
    assert "kernels.kernel" in capsys.readouterr().out
    assert cli.main(["cache", "clear", "--older-than", "1", "--json", "--dir", directory]) == 0
    assert json.loads(capsys.readouterr().out)["removed"] == 0
    assert cli.main(["cache", "clear", "--json", "--dir", directory]) == 0
    assert json.loads(capsys.readouterr().out)["removed"] == len(rows)
    assert not list(cache.entries(project / "cache"))


PASSING = """
import math
from jitcore import jit
from helpers import scale

@jit(cache=True)
def japply(f, x):
    return f(x) + 1.0

@jit(cache=True)
def use_sin(x):
    return japply(math.sin, x)

@jit(cache=True)
def use_cos(x):
    return japply(math.cos, x)

@jit(cache=True)
def use_scale(x):
    return japply(scale, x)

@jit(cache=True)
def use_lambda(x):
    return japply(lambda y: y * 3.0, x)
"""
PASSING_CHILD = """
import json, sys
import passing
out = {}
for name in sys.argv[1:]:
    f = getattr(passing, name)
    out[name] = [f(0.5), f.stats().cache_hit]
print(json.dumps(out))
"""


def _run_passing(project: Path, *names: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(project / "src"), env.get("PYTHONPATH")])
    )
    env["JITCORE_CACHE_DIR"] = str(project / "cache")
    out = subprocess.run(
        [sys.executable, "-c", PASSING_CHILD, *names],
        env=env,
        capture_output=True,
        text=True,
        cwd=project,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_callers_passing_named_functions_load_from_the_cache(project: Path) -> None:
    """A caller passing `math.sin` calls a variant of `japply`; its entry names the variant
    (base and fixed functions by name), so the next process loads it, whichever variant it
    makes first. A caller passing a lambda is compiled afresh each time."""
    import math

    (project / "src" / "passing.py").write_text(PASSING)
    want = {
        "use_sin": math.sin(0.5) + 1.0,
        "use_cos": math.cos(0.5) + 1.0,
        "use_scale": 2.0,
        "use_lambda": 2.5,
    }
    first = _run_passing(project, "use_sin", "use_scale", "use_lambda")
    assert not any(hit for _, hit in first.values())
    second = _run_passing(project, "use_cos", "use_sin", "use_scale", "use_lambda")
    assert {n: r for n, (r, _) in second.items()} == {n: want[n] for n in second}
    assert {n: hit for n, (_, hit) in second.items()} == {
        "use_cos": False,
        "use_sin": True,
        "use_scale": True,
        "use_lambda": False,
    }
    third = _run_passing(project, "use_cos", "use_sin")
    assert third == {"use_cos": [want["use_cos"], True], "use_sin": [want["use_sin"], True]}


CHAIN = """
from jitcore import jit


@jit(cache=True)
def c(x):
    if x < 2:
        return x
    return c(x - 1) + c(x - 2)  # recursive: never inlined into its callers


@jit(cache=True)
def b(x):
    if x < 0:
        return b(x + 1)  # recursive too: a calls b, and only b calls c
    return c(x) + 2


@jit(cache=True)
def a(x):
    return b(x) * 10
"""

# Loads a -> b -> c from the cache, then reloads the module (the notebook pattern): the old
# b and c dispatchers are collected, their code must stay loaded while the old a can call it;
# then the new module's b, whose callee c was unloaded under its cached name, must compile.
CHAIN_CHILD = """
import gc, importlib, json
import chain
from jitcore import machine_code
old_a = chain.a
first = old_a(10), chain.c.stats().cache_hit
importlib.reload(chain)
gc.collect()
junk = [bytearray(1 << 16) for _ in range(500)]  # reuse freed memory
print(json.dumps({"first": first, "old_a": old_a(12), "new_b": chain.b(5)}))
"""


def test_cached_callers_keep_their_callees_code_through_a_reload(project: Path) -> None:
    # a caller loaded from the cache holds no callee dispatcher: only its libraries keep the
    # callees' code, transitively (c was unloaded under the old a: a segfault); and a callee
    # whose code was unloaded is compiled again, not linked by its stale name (link error)
    (project / "src" / "chain.py").write_text(CHAIN)
    assert run_child(project, code="import chain; print(chain.a(10))") == 570
    got = run_child(project, code=CHAIN_CHILD)
    assert got == {"first": [570, True], "old_a": (144 + 2) * 10, "new_b": 7}
