"""The package's import structure: every module imports alone, and no two modules import each
other, directly or through others (deliberately lazy imports inside functions included)."""

from __future__ import annotations

import ast
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.import_graph import find_cycle, import_alone
from tests.jitcore.support import run_twice_on_one_cache

PACKAGE = Path(__file__).resolve().parents[2] / "jitcore"


def _module_names() -> dict[str, Path]:
    names = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


MODULES = _module_names()


def _owner(name: str) -> str | None:
    """The jitcore module that `name` (a module or a name inside one) belongs to."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imported_modules(module: str, path: Path) -> set[str]:
    """jitcore modules `module` imports anywhere, except under `if TYPE_CHECKING:`."""
    found: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and ast.unparse(child.test) == "TYPE_CHECKING":
                continue
            if isinstance(child, ast.Import):
                found.update(filter(None, (_owner(a.name) for a in child.names)))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*anchor, *([child.module] if child.module else [])])
                for alias in child.names:
                    owner = _owner(f"{base}.{alias.name}") or _owner(base)
                    if owner:
                        found.add(owner)
            visit(child)

    visit(ast.parse(path.read_text()))
    found.discard(module)
    return found


def import_graph() -> dict[str, set[str]]:
    return {m: _imported_modules(m, p) for m, p in MODULES.items()}


def test_no_import_cycle_in_jitcore() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle(monkeypatch: pytest.MonkeyPatch) -> None:
    real = _imported_modules

    def with_back_edge(module: str, path: Path) -> set[str]:
        extra = {"jitcore.dispatcher"} if module == "jitcore.ir.types" else set()
        return real(module, path) | extra

    monkeypatch.setattr(sys.modules[__name__], "_imported_modules", with_back_edge)
    cycle = find_cycle(import_graph())
    assert cycle is not None and {"jitcore.ir.types", "jitcore.dispatcher"} <= set(cycle)


def test_every_module_imports_alone_in_a_fresh_process() -> None:
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda m: (m, *import_alone(m)), sorted(MODULES)))
    failures = [f"{m}:\n{err}" for m, code, err in results if code != 0]
    assert not failures, "\n\n".join(failures)


# What only compiling needs: a process whose jitted functions all come from the disk cache
# must not import it (the startup benchmark's warm row; README, "Performance").
COMPILER = (
    "jitcore.parse",
    "jitcore.ssa",
    "jitcore.typeinfer",
    "jitcore.optimize",
    "jitcore.lower",
    "jitcore.codegen",
    "jitcore.ir.nodes",
    "jitcore.ir.printer",
    "jitcore.methods",
)
# ... and what `import jitcore` alone must not import either: the cache, the linker, llvmlite.
LINKER = ("jitcore.session", "jitcore.cache", "jitcore.machine_code", "jitcore.pipeline")

WARM_MODULE = """
import numpy as np
from jitcore import jit


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
def count(n, step=3):
    s = 0
    for i in range(n):
        if i % step == 0:
            s += i
    return s
"""

WARM_CHILD = """
import json, sys
import jitcore
after_import = sorted(sys.modules)
import numpy as np
import kernels
result = kernels.total(np.linspace(0.0, 1.0, 50)) + kernels.count(100)
after_call = sorted(sys.modules)
hits = [f.stats().cache_hit for f in (kernels.total, kernels.count)]
print(json.dumps({"import": after_import, "call": after_call, "result": result, "hits": hits}))
"""


def _loaded(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return [m for m in modules if m in names or m.startswith(tuple(n + "." for n in names))]


def test_a_warm_cache_call_does_not_import_the_compiler(tmp_path: Path) -> None:
    first, second = run_twice_on_one_cache(tmp_path, WARM_MODULE, WARM_CHILD, timeout=300)
    assert first["hits"] == [False, False] and second["hits"] == [True, True]
    assert second["result"] == first["result"]
    assert _loaded(first["call"], COMPILER)  # the check can see the compiler when it is there
    assert not _loaded(second["import"], (*COMPILER, *LINKER, "llvmlite"))
    assert not _loaded(second["call"], COMPILER)
