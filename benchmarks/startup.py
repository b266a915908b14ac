"""Fresh-process measurements: how long a new Python process takes from importing a jitted
module to its first result, and where the import time of a package goes.

    python -m benchmarks.startup                  # the 10 slowest imports of `import jitcore`
    python -m benchmarks.startup jitcore.dispatcher numba --top 5 --runs 3

`test_startup.py` times these processes with pytest-benchmark; this module writes the module
they import, runs them, and parses `python -X importtime`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The timed program: the clock starts before the module is imported and stops at its result.
TIMED = (
    "import time; t = time.perf_counter(); import mod; r = mod.main({n}); "
    "print(time.perf_counter() - t)"
)

# The module every process imports: two jitted kernels, one calling the other over a NumPy
# array, and one integer loop; `main` is plain Python. Only the import of `jit` differs.
MODULE = '''\
"""Written by benchmarks/startup.py: a small module of jitted kernels."""

import numpy as np

{import_jit}


@jit(cache=True)
def poly(x):
    return 3.0 * x * x - 2.0 * x + 1.0


@jit(cache=True)
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += poly(a[i])
    return s


@jit(cache=True)
def count(n):
    s = 0
    for i in range(n):
        if i % 3 == 0:
            s += i
    return s


def main(n):
    a = np.linspace(0.0, 1.0, n)
    return total(a) + count(n)
'''
KERNELS = ("poly", "total", "count")
CALLED_FROM_PYTHON = ("total", "count")  # `poly` is called only by `total`
IMPORT_JIT = {
    "python": "def jit(**options):\n    return lambda fn: fn",
    "jitcore": "from jitcore import jit",
    "numba": "from numba import njit as jit",
}
# Where each compiler's disk cache goes.
CACHE_ENV = {"jitcore": "JITCORE_CACHE_DIR", "numba": "NUMBA_CACHE_DIR"}

# An untimed run that says where the time went and what the cache did: the same imports in
# the same order as the module's own, with the clock read in between.
PROBE = """\
import time
t0 = time.perf_counter()
import numpy
t1 = time.perf_counter()
{import_package}
t2 = time.perf_counter()
import mod
t3 = time.perf_counter()
r = mod.main({n})
t4 = time.perf_counter()
import json
phases = {{"import numpy": t1 - t0, "import package": t2 - t1, "import mod": t3 - t2,
          "first call": t4 - t3}}
print(json.dumps({{"result": r, "phases": phases, "kernels": {report}}}))
"""
REPORT = {
    "python": "{}",
    # A callee inlined into its caller is never compiled on its own: it has no stats.
    "jitcore": (
        f"{{k: getattr(mod, k).stats().as_dict() for k in {KERNELS!r}"
        " if getattr(mod, k).signatures}"
    ),
    "numba": (
        "{k: {'hits': sum(getattr(mod, k).stats.cache_hits.values()),"
        f" 'misses': sum(getattr(mod, k).stats.cache_misses.values())}} for k in {KERNELS!r}}}"
    ),
}


def expected_result(n: int) -> float:
    """What `main(n)` returns, computed here in plain Python."""
    namespace: dict[str, Any] = {}
    exec(MODULE.format(import_jit=IMPORT_JIT["python"]), namespace)
    return namespace["main"](n)


def write_module(directory: Path, impl: str) -> Path:
    """`directory/mod.py` for this implementation; `directory` holds nothing else importable."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "mod.py"
    path.write_text(MODULE.format(import_jit=IMPORT_JIT[impl]))
    return path


def clean_env(**extra: str) -> dict[str, str]:
    """The environment of a fresh process: no jitcore or Numba settings inherited from this
    one (the test suite turns the IR verifier on), the verifier off, the jitcore this process
    would import (a worktree on PYTHONPATH, not the editable install), then `extra`."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("JITCORE_", "NUMBA_", "PYTHON"))
    }
    env["JITCORE_DEBUG"] = "0"
    env["PYTHONPATH"] = _jitcore_root()
    env.update(extra)
    return env


def _jitcore_root() -> str:
    """The directory holding the `jitcore` package this process would import (found, not
    imported: the children time that import)."""
    spec = importlib.util.find_spec("jitcore")
    if spec is None or spec.origin is None:
        return ""
    return str(Path(spec.origin).resolve().parents[1])


def run_python(
    code: str, cwd: Path | None = None, env: dict[str, str] | None = None, *options: str
) -> subprocess.CompletedProcess[str]:
    """`python [options] -c code` in a fresh process; its output, or an error with its stderr."""
    done = subprocess.run(
        [sys.executable, *options, "-c", code],
        cwd=cwd,
        env=env if env is not None else clean_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"python -c {code!r} failed ({done.returncode}):\n{tail}")
    return done


def probe(directory: Path, impl: str, env: dict[str, str], n: int) -> dict[str, Any]:
    """One untimed run of the module: its result, the time of each phase, the cache's work."""
    package = {"python": "pass", "jitcore": "import jitcore", "numba": "import numba"}[impl]
    code = PROBE.format(import_package=package, n=n, report=REPORT[impl])
    return json.loads(run_python(code, directory, env).stdout.strip().splitlines()[-1])


# --- python -X importtime ---------------------------------------------------------------------

_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


@dataclass(frozen=True)
class Import:
    """One line of `-X importtime`: a module, its own time and its time with what it imported
    (microseconds), and the modules whose import imported it, outermost first."""

    module: str
    self_us: int
    cumulative_us: int
    parents: tuple[str, ...] = ()

    @property
    def owner(self) -> str:
        """The package this import is made for: the outermost package, along the chain from the
        imported statement down to this module, that differs from the statement's own package
        (`datetime` under `jitcore -> numpy` is NumPy's; `ast` under `jitcore.parse`, `ast`'s)."""
        chain = (*self.parents, self.module)
        root = chain[0].split(".")[0]
        return next((m.split(".")[0] for m in chain if m.split(".")[0] != root), root)


def parse_importtime(stderr: str) -> list[Import]:
    """The lines of `-X importtime` in the order printed: a module after what it imported."""
    lines = []
    for line in stderr.splitlines():
        m = _LINE.match(line)
        if m:
            lines.append((m[4], int(m[1]), int(m[2]), len(m[3]) // 2))
    imports: list[Import] = []
    stack: list[str] = []  # the enclosing imports, read backwards from each outermost one
    for module, own, cumulative, depth in reversed(lines):
        del stack[depth:]
        imports.append(Import(module, own, cumulative, tuple(stack)))
        stack.append(module)
    return imports[::-1]


def importtime(statement: str, env: dict[str, str] | None = None) -> list[Import]:
    """The modules `statement` imports in a fresh process, less those every process imports
    at startup (`site`, the encodings, `.pth` finders)."""
    startup = {
        i.module
        for i in parse_importtime(run_python("pass", None, env, "-X", "importtime").stderr)
    }
    found = parse_importtime(run_python(statement, None, env, "-X", "importtime").stderr)
    return [i for i in found if i.module not in startup]


def summarize_imports(runs: Sequence[Sequence[Import]], top: int = 10) -> dict[str, Any]:
    """Medians over runs (milliseconds): the total of the modules' own times, the `top`
    modules by own time (with their time including what they imported, and their owner), and
    own time summed by the package each import is made for (`Import.owner`)."""
    selfs: dict[str, list[float]] = {}
    cumulative: dict[str, list[float]] = {}
    owners: dict[str, str] = {}
    totals = []
    for run in runs:
        totals.append(sum(i.self_us for i in run) / 1e3)
        for i in run:
            selfs.setdefault(i.module, []).append(i.self_us / 1e3)
            cumulative.setdefault(i.module, []).append(i.cumulative_us / 1e3)
            owners[i.module] = i.owner
    own = {m: statistics.median(v) for m, v in selfs.items()}
    packages: dict[str, float] = {}
    for module, ms in own.items():
        packages[owners[module]] = packages.get(owners[module], 0.0) + ms
    slowest = sorted(own, key=own.__getitem__, reverse=True)[:top]
    return {
        "total_ms": statistics.median(totals) if totals else 0.0,
        "modules": len(own),
        "slowest": [[m, own[m], statistics.median(cumulative[m]), owners[m]] for m in slowest],
        "packages_ms": dict(sorted(packages.items(), key=lambda kv: -kv[1])),
    }


def import_report(statement: str, runs: int = 5, top: int = 10) -> dict[str, Any]:
    return summarize_imports([importtime(statement) for _ in range(runs)], top)


def format_import_report(title: str, report: dict[str, Any], packages: int = 6) -> list[str]:
    lines = [
        f"{title}: {report['total_ms']:.1f} ms in {report['modules']} modules "
        "(sum of own times under -X importtime, median)",
        "    by package: "
        + ", ".join(f"{p} {ms:.1f}" for p, ms in list(report["packages_ms"].items())[:packages])
        + " (own ms, by the package each import is made for)",
        "    slowest modules (own ms / with what they import ms, module [imported for]):",
    ]
    lines += [f"      {ms:6.1f} / {cum:6.1f}  {m} [{o}]" for m, ms, cum, o in report["slowest"]]
    return lines


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The slowest imports of a package.")
    parser.add_argument("modules", nargs="*", default=["jitcore"])
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per module")
    args = parser.parse_args(list(argv) if argv is not None else None)
    for module in args.modules:
        report = import_report(f"import {module}", args.runs, args.top)
        print("\n".join(format_import_report(f"import {module}", report)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
