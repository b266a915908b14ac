"""jitcheck's modules import alone and without cycles.

A cycle hides in plain sight until someone imports the modules in a new order (a lazy import in
a hook, a child process that starts from `jitcheck.isolate`): then a half-initialized module
raises ImportError. The graph is read from the source (module-level imports, not those under
`if TYPE_CHECKING:` nor the deliberate lazy imports inside functions), so a cycle fails here
whichever module happens to be imported first.
"""

from __future__ import annotations

import ast

import pytest

from tests.import_graph import ROOT, find_cycle, import_alone

PACKAGE = "jitcheck"
MODULES = sorted(
    PACKAGE if p.name == "__init__.py" else f"{PACKAGE}.{p.stem}"
    for p in (ROOT / PACKAGE).glob("*.py")
)


def module_imports(tree: ast.Module, package: str = PACKAGE) -> set[str]:
    """The modules of `package` that a module imports when it is executed: statements at
    module level, including inside `try` and `if` blocks, except `if TYPE_CHECKING:`."""
    found: set[str] = set()
    for node in _module_level(tree.body):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if _inside(a.name, package))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if not _inside(node.module, package):
                continue
            found.add(node.module)
            # `from jitcheck import report` imports the submodule `jitcheck.report`
            found.update(
                f"{node.module}.{a.name}"
                for a in node.names
                if f"{node.module}.{a.name}" in MODULES
            )
    return found


def _module_level(body: list[ast.stmt]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.If):
            if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                out += _module_level(node.body)
            out += _module_level(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                out += _module_level(block)
            for handler in node.handlers:
                out += _module_level(handler.body)
        elif isinstance(node, ast.With):
            out += _module_level(node.body)
        else:
            out.append(node)
    return out


def _inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def import_graph() -> dict[str, set[str]]:
    graph = {}
    for name in MODULES:
        path = ROOT / (
            f"{PACKAGE}/__init__.py" if name == PACKAGE else name.replace(".", "/") + ".py"
        )
        graph[name] = module_imports(ast.parse(path.read_text(encoding="utf-8"))) - {name}
    return graph


def test_no_import_cycle_in_jitcheck() -> None:
    graph = import_graph()
    assert "jitcheck.report" in graph and "jitcheck.html" in graph
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_the_report_model_imports_none_of_its_views() -> None:
    views = {"jitcheck.html", "jitcheck.markdown", "jitcheck.finish", "jitcheck.summary"}
    assert not import_graph()["jitcheck.report"] & views


def test_the_cycle_finder_finds_a_cycle() -> None:
    # the check above must be able to fail: the old report <-> html pair is a cycle
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "from jitcheck.report import STAGES\n"
        "from jitcheck import compare\n"
        "if TYPE_CHECKING:\n    from jitcheck.html import render_html\n"
        "def later():\n    from jitcheck.finish import finish_session\n"
    )
    assert module_imports(tree) == {"jitcheck.report", "jitcheck", "jitcheck.compare"}


@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_alone(module: str) -> None:
    code, stderr = import_alone(module)
    assert code == 0, stderr
