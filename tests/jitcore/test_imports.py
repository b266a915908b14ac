"""The package's import structure: every module imports alone, and no two modules import each
other, directly or through others (deliberately lazy imports inside functions included)."""

from __future__ import annotations

import ast
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.import_graph import find_cycle, import_alone

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
