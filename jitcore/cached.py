"""Specializations from and to the disk cache: the glue between a compile session and
`jitcore.cache` (which knows files, keys and checksums, and nothing of dispatchers).

An entry stores a specialization's object code, return type and symbol, and the callees it
links against by module, qualified name and signature. Loading an entry first makes sure
every callee is present (loaded or compiled, through the session), then runs the pipeline's
`cache-load` stage. Anything that does not fit (a callee that cannot be found or compiled, a
symbol already linked in this process) is a miss: the caller compiles afresh.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jitcore import cache, machine_code, pipeline
from jitcore.argtypes import parse_signature
from jitcore.errors import JitError
from jitcore.ir import types as T
from jitcore.lib import registry

if TYPE_CHECKING:
    from jitcore.dispatcher import Dispatcher

Signature = tuple[T.Type, ...]
OwnerLookup = Callable[[str], "tuple[Dispatcher, Signature] | None"]
CalleeCompiler = Callable[["Dispatcher", Signature], str]

locked = cache.locked
Unusable = cache.Unusable


def warn_unusable(directory: Path, exc: Exception) -> None:
    """One warning per directory; the compilation goes on without the cache."""
    cache.warn_once(directory, str(exc))


def directory() -> Path | None:
    """The cache directory, if it can be used (else caching is off for this compile)."""
    path = cache.default_directory()
    return path if cache.usable_directory(path) else None


def key_of(dispatcher: Dispatcher, sig: Signature) -> str:
    return cache.function_key(dispatcher, ", ".join(map(str, sig)))


def load(
    directory: Path,
    key: str,
    dispatcher: Dispatcher,
    sig: Signature,
    key_seconds: float,
    compile_callee: CalleeCompiler,
) -> pipeline.Overload | None:
    """The cached specialization under `key`, linked and ready; None on a miss."""
    entry = cache.load(directory, key)
    if entry is None:
        return None
    header = entry.header
    symbol = header["symbol"]
    if machine_code.is_linked(symbol):
        return None  # this process already has that name: compile a fresh copy instead
    for callee in header["callees"]:
        if callee["symbol"] == symbol or machine_code.is_loaded(callee["symbol"]):
            continue
        target = find_dispatcher(callee["module"], callee["qualname"])
        if target is not None and "frozen" in callee:
            target = _variant(target, callee["frozen"])
        if target is None:
            return None
        try:
            loaded = compile_callee(target, parse_signature(callee["signature"]))
        except JitError:
            return None
        if loaded != callee["symbol"] or not machine_code.is_loaded(loaded):
            # compiled afresh (into this session's group, or anew after its code was
            # unloaded, under another name): compile the caller too
            return None
    return pipeline.load_cached(
        entry.object_code,
        sig,
        T.parse_type(header["return_type"]),
        symbol,
        [c["symbol"] for c in header["callees"]],
        dispatcher.py_func.__name__,
        key_seconds,
        _python_result(header.get("python_result", True)),
        bool(header.get("static_data", True)),
    )


def _python_result(stored: object) -> object:
    """`python_result` as written to JSON (tuples became lists) back to bools and tuples."""
    if isinstance(stored, list):
        return tuple(_python_result(x) for x in stored)
    return stored is True


# Modules of jitcore's own whose jitted functions an entry may name before anything imported
# them (a warm cache must not need the compiler): the only modules ever imported for an entry.
_OWN_MODULES = {"jitcore.lib.npkernels", "jitcore.lib.matmul", "jitcore.lib.lapack"}
# ... and every other library-kernel module of `jitcore.lib` (npsortk, nprandomk, ...): a cached
# caller of `np.sort` or `np.random.randint` names them, and they import only the registry.
_OWN_PACKAGE = "jitcore.lib."


def find_dispatcher(module: str, qualname: str) -> Dispatcher | None:
    """The jitted function `module.qualname`, if its module is already imported (names read
    from an entry are never imported, except jitcore's own library kernels)."""
    obj: Any = sys.modules.get(module)
    if obj is None and (module in _OWN_MODULES or module.startswith(_OWN_PACKAGE)):
        obj = importlib.import_module(module)
    if obj is None:
        return None
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    if registry.is_library_kernel(obj):
        return registry.kernel_dispatcher(obj)  # type: ignore[no-any-return]
    return obj if getattr(obj, "__jitcore_dispatcher__", False) else None


def function_by_name(module: str, qualname: str) -> object | None:
    """`module.qualname` if its module is imported (never importing one)."""
    obj: Any = sys.modules.get(module)
    for part in qualname.split("."):
        if obj is None:
            return None
        obj = getattr(obj, part, None)
    return obj


def describe_function(value: object) -> dict[str, str] | None:
    """A function passed as an argument, by the name that finds it again (`math.sin`, a
    module-level jitted function); None for one no name finds (a lambda, a local function)."""
    module = getattr(value, "__module__", None)
    qualname = getattr(value, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str):
        return None
    if function_by_name(module, qualname) is not value:
        return None
    return {"module": module, "qualname": qualname}


def _variant(base: Dispatcher, described: dict[str, dict[str, str]]) -> Dispatcher | None:
    """`base` with the functions an entry describes fixed: the callee variant it names."""
    frozen = {}
    for name, where in described.items():
        value = function_by_name(where["module"], where["qualname"])
        if value is None:
            return None
        frozen[name] = value
    return base.frozen_variant(frozen)


def _describe_callee(
    dispatcher: Dispatcher, symbol: str, callee: Dispatcher, callee_sig: Signature
) -> dict[str, Any] | None:
    """How an entry names a callee so that a later process finds (or makes) it again; None
    when nothing could (a local function, a variant passed a lambda)."""
    described: dict[str, Any] = {
        "symbol": symbol,
        "module": callee.py_func.__module__,
        "qualname": callee.py_func.__qualname__,
        "signature": ", ".join(map(str, callee_sig)),
    }
    if callee is dispatcher:
        return described
    found = find_dispatcher(described["module"], described["qualname"])
    frozen = callee.frozen_functions
    if frozen and found is not None:  # a variant: its base by name, its functions by name
        names = {n: describe_function(v) for n, v in frozen.items()}
        if any(where is None for where in names.values()):
            return None
        described["frozen"] = names
        found = _variant(found, names)  # type: ignore[arg-type]
    return described if found is callee else None


def store(dispatcher: Dispatcher, overload: pipeline.Overload, owner_of: OwnerLookup) -> None:
    """Write a freshly compiled specialization to the cache, if its callees can be found again."""
    callees = []
    for symbol in overload.record.callees:
        owner = owner_of(symbol)
        if owner is None:
            return
        described = _describe_callee(dispatcher, symbol, *owner)
        if described is None:
            return  # not reachable by name: cannot be found from the cache
        callees.append(described)
    header = {
        "module": dispatcher.py_func.__module__,
        "qualname": dispatcher.py_func.__qualname__,
        "signature": ", ".join(map(str, overload.signature)),
        "return_type": str(overload.return_type),
        "python_result": overload.record.python_result,
        "symbol": overload.symbol,
        "callees": callees,
        "static_data": overload.record.static_data,
        "compile_seconds": {k: round(v, 6) for k, v in overload.record.stages.items()},
    }
    assert overload.cache_key is not None
    cache.store(cache.default_directory(), overload.cache_key, header, overload.record.object_code)
