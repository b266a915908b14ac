"""Discovery: which functions become `<module>::<function>::jit-diff` items, and the items.

Each checked function is a small collector (`JitDiffFunction`, named like the function) with
one item, `jit-diff`. The node id `kernels.py::f::jit-diff` is plain pytest structure: pytest
never mistakes it for a parametrization (`f[jit-diff]` would be, and `--lf` then matched
nothing), and `pytest kernels.py::f` selects the function's check.

A module contributes the functions *defined* in it (`obj.__module__` is the module), so a
kernel imported into many test modules is collected once, in its own module. With
`--jit-diff` every jitcore dispatcher qualifies; without it only those with `@jitcheck`. A
session-wide set of (source file, name) keeps a function named by `--jit-diff-module` and
also found in a collected test module from running twice.

This module is imported while collecting, so it imports nothing heavy; the check itself
(`jitcheck.check`) is imported when an item runs.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from jitcheck.decorator import CheckConfig, config_from_kwargs, config_of
from jitcheck.results import FunctionResult
from jitcheck.settings import JIT_DIFF_KEY, SessionState

ITEM_NAME = "jit-diff"  # the item under each function's collector


def is_dispatcher(obj: object) -> bool:
    """A jitcore dispatcher, recognised without importing jitcore."""
    return getattr(obj, "__jitcore_dispatcher__", False) is True


def _wanted(obj: object, module_name: str, enabled: bool) -> bool:
    """Defined in this module, and a dispatcher under --jit-diff, or marked @jitcheck."""
    if not callable(obj) or getattr(obj, "__module__", None) != module_name:
        return False
    return config_of(obj) is not None or (enabled and is_dispatcher(obj))


def _identities(module: ModuleType, name: str, obj: object) -> set[Any]:
    """What makes two finds the same function: the same binding in the same source file
    (one module imported twice, as a test file and by --jit-diff-module), or the same object
    (an alias in one module)."""
    path = getattr(module, "__file__", None)
    where = os.path.realpath(path) if path else module.__name__
    return {(where, name), id(obj)}


def make_item(parent: pytest.Collector, name: str, obj: object) -> JitDiffFunction | None:
    """The collector of `obj`'s check, bound to `name` in `parent`'s module, if it should
    have one."""
    state = parent.config.stash[JIT_DIFF_KEY]
    module = parent.obj  # type: ignore[attr-defined]
    if not _wanted(obj, module.__name__, state.run.enabled):
        return None
    identities = _identities(module, name, obj)
    if identities & state.seen:
        return None
    state.seen.update(identities)
    if isinstance(obj, type) and any(c.__module__ == "jitcore.state" for c in obj.__mro__):
        from jitcheck.modules import ModuleCheck  # a jitcore.Module class

        return ModuleCheck.from_parent(parent, name=name, target=obj, binding=name)
    return JitDiffFunction.from_parent(parent, name=name, target=obj, binding=name)


class JitDiffModule(pytest.File):
    """A module named by `--jit-diff-module` or `jit_diff_modules`, collected for its
    functions only (it need not be a test file)."""

    def __init__(self, *, module: ModuleType, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.obj = module

    def collect(self) -> Iterator[JitDiffFunction]:
        for name, obj in list(vars(self.obj).items()):
            collector = make_item(self, name, obj)
            if collector is not None:
                yield collector


def explicit_module_items(session: pytest.Session, state: SessionState) -> list[pytest.Item]:
    """Items of the modules named on the command line or in the ini file."""
    items: list[pytest.Item] = []
    for name in state.run.modules:
        module = _import_module(session, name)
        path = getattr(module, "__file__", None)
        if path is None:
            raise pytest.UsageError(f"--jit-diff-module {name}: the module has no source file")
        collector = JitDiffModule.from_parent(
            session, path=Path(path), module=module, nodeid=_module_nodeid(session, Path(path))
        )
        functions = list(collector.collect())
        found = [item for fn in functions for item in fn.collect()]
        # as pytest reports what it collects, so `--collect-only` and the "collected N items"
        # line count these too
        session.ihook.pytest_collectreport(
            report=pytest.CollectReport(collector.nodeid, "passed", None, list[Any](found))
        )
        items.extend(found)
    return items


def _import_module(session: pytest.Session, name: str) -> ModuleType:
    """Import a module named by --jit-diff-module, as `python -m pytest` would find it: the
    rootdir and the invocation directory are tried too (the `pytest` script does not put the
    current directory on sys.path, so `kernels.py` beside you would not import)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name.split(".")[0]:
            raise pytest.UsageError(f"--jit-diff-module {name}: cannot import it: {exc}") from exc
    config = session.config
    roots = [str(p) for p in (config.rootpath, config.invocation_params.dir)]
    added = [root for root in dict.fromkeys(roots) if root not in sys.path]
    sys.path[:0] = added
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        for root in added:
            sys.path.remove(root)
        raise pytest.UsageError(
            f"--jit-diff-module {name}: cannot import it: {exc}\n"
            f"  looked on sys.path and in {', '.join(dict.fromkeys(roots))}; give the module's "
            "dotted name from a directory on sys.path (e.g. PYTHONPATH=src pytest ...), or "
            "run `python -m pytest`, which puts the current directory first"
        ) from exc


def no_functions_hint(state: SessionState) -> str | None:
    """Why `--jit-diff` found nothing to check, and how to point it at kernels."""
    if not state.run.enabled or state.seen:
        return None
    return (
        "jitcheck: --jit-diff found no jitted function to check. It checks the functions "
        "defined in collected test modules (test_*.py) and in modules named by "
        "--jit-diff-module MODULE or the ini setting jit_diff_modules; a module of kernels "
        "that is not a test module is not collected: run "
        "`pytest --jit-diff --jit-diff-module kernels` (or add "
        '`jit_diff_modules = ["kernels"]` under [tool.pytest.ini_options])'
    )


def _module_nodeid(session: pytest.Session, path: Path) -> str:
    """The module's path relative to the rootdir, with `../` where it lies outside (pytest
    would give two `kern.py` outside the rootdir the same id)."""
    return Path(os.path.relpath(path.resolve(), session.config.rootpath.resolve())).as_posix()


class JitDiffFunction(pytest.Collector):
    """One checked function: a collector named like it, holding its `jit-diff` item."""

    def __init__(self, *, target: Any, binding: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target = target
        self.binding = binding

    def collect(self) -> list[pytest.Item]:
        return [
            JitDiffItem.from_parent(self, name=ITEM_NAME, target=self.target, binding=self.binding)
        ]

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return _location(self.target, self.path, self.binding)


class JitDiffItem(pytest.Item):
    """The differential check of one function: Python against every compiled mode."""

    def __init__(self, *, target: Any, binding: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target = target
        self.binding = binding
        self.add_marker("jitcheck")  # `-m jitcheck` selects (and `-m "not jitcheck"` drops) these
        marks = list(getattr(target, "pytestmark", []))  # @pytest.mark.* on the function
        self.own_markers.extend(marks)
        self.keywords.update({m.name: m for m in marks})
        self.check_config = self._merged_config()
        if self.check_config.skip:
            self.add_marker(pytest.mark.skip(reason=self.check_config.skip))
        if self.check_config.xfail:
            self.add_marker(pytest.mark.xfail(reason=self.check_config.xfail))
        module = getattr(target, "__module__", "")
        self.jitcheck_result = FunctionResult(
            name=f"{module}.{binding}", nodeid=self.nodeid, module=module, function=binding
        )
        self.plan: Any = None  # jitcheck.strategies.InputPlan, derived at setup

    def _merged_config(self) -> CheckConfig:
        """`@jitcheck` settings over `jitcheck` markers (e.g. a module's `pytestmark`)."""
        config = config_of(self.target) or CheckConfig()
        for mark in self.iter_markers("jitcheck"):
            config = config.merged_over(config_from_kwargs(mark.kwargs))
        return config

    def prepare(self) -> None:
        """Derive the inputs before pytest decides whether to run the item (the plugin's
        `pytest_runtest_setup` wrapper calls this), so a function whose inputs cannot be
        derived is skipped like any skip marker: at the function's own location."""
        if not is_dispatcher(self.target) or self.plan is not None:
            return
        from jitcheck.check import input_plan
        from jitcheck.strategies import Underivable

        try:
            self.plan = input_plan(self.target, self.check_config)
        except Underivable as exc:
            self.jitcheck_result.reason = str(exc)
            self.add_marker(pytest.mark.skip(reason=str(exc)))

    def runtest(self) -> None:
        if not is_dispatcher(self.target):
            raise JitcheckUsageError(
                f"@jitcheck is on `{self.binding}`, which is not jitted: put @jit above or "
                "below @jitcheck"
            )
        from jitcheck.check import check_function

        self.prepare()  # already done, unless runtest is called on its own
        assert self.plan is not None
        state = self.config.stash[JIT_DIFF_KEY]
        check_function(
            self.target,
            self.binding,
            self.plan,
            self.check_config,
            state.run,
            self.jitcheck_result,
            self.config,
        )

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        """jitcheck's own failures read as a report, not as a traceback through the plugin."""
        exc = excinfo.value
        if getattr(exc, "jitcheck_report", False):
            # Hypothesis's notes: the falsifying example, seeds; not its advice to decorate
            # "your test" with @reproduce_failure: the test function here is jitcheck's
            notes = [
                n
                for n in getattr(exc, "__notes__", [])
                if n.strip() and "@reproduce_failure" not in n
            ]
            return "\n".join([str(exc), *notes])
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return _location(self.target, self.path, f"{self.binding}::{self.name}")


def _location(target: Any, default: Any, name: str) -> tuple[Any, int | None, str]:
    """Where the user's function is (file, 0-based line) and the name the report heads with."""
    func = getattr(target, "py_func", target)
    try:
        path, line = inspect.getsourcefile(func), inspect.getsourcelines(func)[1] - 1
    except (OSError, TypeError):
        return default, None, name
    return path or default, line, name


class JitcheckUsageError(Exception):
    """`@jitcheck` is used on something it cannot check."""

    jitcheck_report = True
