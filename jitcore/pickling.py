"""Pickling jitted functions, so that multiprocessing, joblib, Dask and Ray can ship them.

A `Dispatcher` pickles the way Numba's do:

* **by reference** when the receiving process can import it: `module.qualname` names this very
  dispatcher (a module-level `@jit` function). Only the two names travel; the receiver imports
  the module and gets its own dispatcher, which compiles there or loads from the disk cache.
* **by value** otherwise (a function defined inside another, in `__main__`, or a variant made
  by `with_options` of one): its code object, its source lines (so the receiver can parse it
  even where the file does not exist), the globals it reads, its closure values, defaults and
  options. Modules it reads travel by name; plain Python helpers it reads travel by value too.
  The receiver rebuilds an equivalent function and a new dispatcher around it; its cache key
  (code, values read, options) is the sender's, so workers sharing `JITCORE_CACHE_DIR` load
  what one of them compiled.

Code objects travel as `marshal` bytes, so by value needs the same Python minor version on
both sides (the receiver says so plainly otherwise), as every pickle of code does.

Compiled machine code never travels: it depends on the receiving CPU, and the disk cache
already shares it between processes of one machine.
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import linecache
import marshal
import sys
import types
from typing import TYPE_CHECKING, Any, cast

from jitcore.options import JitOptions

if TYPE_CHECKING:
    from jitcore.dispatcher import Dispatcher

_PYTHON = f"{sys.implementation.cache_tag}"


class ModuleRef:
    """A module read by a pickled function, sent by name and imported on arrival."""

    def __init__(self, name: str) -> None:
        self.name = name

    def resolve(self) -> types.ModuleType:
        return importlib.import_module(self.name)


class _Self:
    """Stands for the function itself among the globals it reads (recursion)."""


SELF = _Self()


def _lookup(module: str, qualname: str) -> object:
    obj: Any = sys.modules.get(module)
    for part in qualname.split("."):
        if obj is None:
            return None
        obj = getattr(obj, part, None)
    return obj


def importable(obj: object, module: str, qualname: str) -> bool:
    """`module.qualname` names `obj` in a module another process can import (not `__main__`,
    whose functions exist only in the script that defined them)."""
    if module in {"__main__", "__mp_main__"} or "<locals>" in qualname or "<" in module:
        return False
    return _lookup(module, qualname) is obj


# --- reducing -----------------------------------------------------------------------------


def reduce_dispatcher(dispatcher: Dispatcher, cls: type[Dispatcher]) -> tuple:
    """`Dispatcher.__reduce__`: by reference when importable, else by value (`cls`, the
    Dispatcher class, travels by reference: this module does not import `dispatcher`)."""
    origin = dispatcher._origin
    if origin is not None and origin is not dispatcher:
        return (rebuild_variant, (origin, dispatcher.options))
    func = cast(types.FunctionType, dispatcher.py_func)
    if importable(dispatcher, func.__module__, func.__qualname__):
        return (rebuild_by_reference, (func.__module__, func.__qualname__))
    payload = function_payload(func)
    payload["options"] = dispatcher.options
    return (rebuild_by_value, (cls, payload), function_state(func))


def function_payload(func: types.FunctionType) -> dict[str, Any]:
    """What rebuilds the function object itself: code, names, source lines."""
    code = func.__code__
    try:
        lines, first = inspect.getsourcelines(func)
    except (OSError, TypeError):
        lines, first = [], code.co_firstlineno
    return {
        "python": _PYTHON,
        "code": marshal.dumps(code),
        "name": func.__name__,
        "qualname": func.__qualname__,
        "module": func.__module__,
        "source": (code.co_filename, first, lines),
    }


def function_state(func: types.FunctionType) -> dict[str, Any]:
    """What the function reads: globals (by name, only those its code names), closure values,
    defaults. Filled in after the function object exists, so recursion pickles."""
    own_globals = func.__globals__
    read = {}
    for name in sorted(_global_names(func.__code__)):
        if name in own_globals:
            value = own_globals[name]
            read[name] = SELF if _is_self(value, func) else portable(value)
    closure: list[tuple[str, object]] = []
    for cell in func.__closure__ or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell: assigned after the function was made
            closure.append(("empty", None))
            continue
        closure.append(("value", SELF if _is_self(value, func) else portable(value)))
    return {
        "globals": read,
        "closure": closure,
        "defaults": func.__defaults__,
        "kwdefaults": func.__kwdefaults__,
    }


def _is_self(value: object, func: types.FunctionType) -> bool:
    return value is func or getattr(value, "py_func", None) is func


def _global_names(code: types.CodeType) -> set[str]:
    """Every name the code (and code nested in it: comprehensions, inner functions) may read
    as a global."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names


def portable(value: object) -> object:
    """A value as it travels: modules by name, plain functions that cannot be imported by
    value, everything else as itself (pickle's own rules, dispatchers by `reduce_dispatcher`)."""
    if isinstance(value, types.ModuleType):
        return ModuleRef(value.__name__)
    if isinstance(value, types.FunctionType) and not importable(
        value, value.__module__, value.__qualname__
    ):
        return PlainFunction(value)
    return value


class PlainFunction:
    """A plain Python function that travels by value (a helper a jitted function calls)."""

    def __init__(self, func: types.FunctionType) -> None:
        self.func = func

    def __reduce__(self) -> tuple:
        return (rebuild_plain_function, (function_payload(self.func), function_state(self.func)))


# --- rebuilding ---------------------------------------------------------------------------


def rebuild_by_reference(module: str, qualname: str) -> object:
    """The receiver's own `module.qualname` (imported if needed)."""
    importlib.import_module(module)
    obj = _lookup(module, qualname)
    if obj is None:
        raise ImportError(f"jitcore: cannot find the jitted function {module}.{qualname}")
    return obj


def rebuild_variant(origin: Dispatcher, options: JitOptions) -> Dispatcher:
    """A `with_options` variant: its origin, with the same options."""
    changes = {f: getattr(options, f) for f in options.__dataclass_fields__}
    changes.pop("signatures", None)
    return origin.with_options(**changes)


def rebuild_by_value(cls: type[Dispatcher], payload: dict[str, Any]) -> Dispatcher:
    """A new dispatcher around a rebuilt function; `Dispatcher.__setstate__` fills in what the
    function reads (`restore_state`) and compiles the options' eager signatures."""
    func = new_function(payload)
    options: JitOptions = payload["options"]
    dispatcher = cls(func, options.replace(signatures=()))
    dispatcher.__dict__["_pickled_options"] = options
    return dispatcher


def rebuild_plain_function(payload: dict[str, Any], state: dict[str, Any]) -> types.FunctionType:
    func = new_function(payload)
    restore_state(func, state)
    return func


def new_function(payload: dict[str, Any]) -> types.FunctionType:
    """The function object, with empty globals and closure cells (filled by `restore_state`)."""
    if payload["python"] != _PYTHON:
        raise RuntimeError(
            f"jitcore: this function was pickled by value under {payload['python']}; "
            f"code objects cannot be loaded under {_PYTHON} (use the same Python version)"
        )
    code: types.CodeType = marshal.loads(payload["code"])
    code = _with_source(code, *payload["source"])
    namespace: dict[str, Any] = {"__builtins__": builtins, "__name__": payload["module"]}
    cells = tuple(types.CellType() for _ in code.co_freevars)
    func = types.FunctionType(code, namespace, payload["name"], None, cells or None)
    func.__qualname__ = payload["qualname"]
    func.__module__ = payload["module"]
    return func


def restore_state(func: types.FunctionType, state: dict[str, Any]) -> None:
    """Fill in the globals the function reads, its closure cells and defaults."""
    target = func
    for name, value in state["globals"].items():
        func.__globals__[name] = _arrived(value, target)
    for cell, (kind, value) in zip(func.__closure__ or (), state["closure"]):
        if kind == "value":
            cell.cell_contents = _arrived(value, target)
    func.__defaults__ = state["defaults"]
    func.__kwdefaults__ = state["kwdefaults"]


def _arrived(value: object, func: types.FunctionType) -> object:
    if isinstance(value, ModuleRef):
        return value.resolve()
    if isinstance(value, _Self):
        return _SELF_VALUES.get(id(func), func)
    return value


# The dispatcher that stands for a rebuilt function where it reads itself (set while its
# state is restored).
_SELF_VALUES: dict[int, object] = {}


def restore_dispatcher_state(dispatcher: Dispatcher, state: dict[str, Any]) -> None:
    """`Dispatcher.__setstate__`: fill in the function's state; compile eager signatures."""
    func = dispatcher.py_func
    _SELF_VALUES[id(func)] = dispatcher
    try:
        restore_state(func, state)  # type: ignore[arg-type]
    finally:
        _SELF_VALUES.pop(id(func), None)
    options = dispatcher.__dict__.pop("_pickled_options", None)
    if options is not None:
        dispatcher.options = options
        for sig in options.signatures:
            dispatcher.compile(sig)


def _with_source(
    code: types.CodeType, filename: str, first: int, lines: list[str]
) -> types.CodeType:
    """Make the function's source findable where it arrives: the file itself when it is there
    with the same lines, else the lines sent along, under the same file name when no such file
    exists (so the cache key, which covers the code object, is the sender's) or a name of its
    own when a different file has that name."""
    if not lines:
        return code
    present = linecache.getlines(filename)
    if present[first - 1 : first - 1 + len(lines)] == lines:
        return code
    if present:
        filename = f"<jitcore pickled {filename}:{code.co_qualname}>"
        code = code.replace(co_filename=filename)
    padded = ["\n"] * (first - 1) + list(lines)
    linecache.cache[filename] = (sum(map(len, padded)), None, padded, filename)
    return code
