"""Names of the Python objects the IR refers to, so IR text can name them and be read back.

A `Const` may hold a Python object (a function, a module, a class, a jitted function) and an
implementation in the registry is known by the object it implements. Both print by one name:

- builtins by their bare name (`len`, `slice`, `ValueError`);
- NumPy as `np.` plus the path below `numpy` (`np.sin`, `np.linalg.norm`, `np.float32`);
- jitcore's markers (`jitcore.ir.markers`) by their `__jitcore_builtin__` name (`range_bounds`);
- anything else, a jitted function included, as `module.qualname` (`math.sin`,
  `jitcore.lib.loops.fused_elementwise`, `tests.helpers.scale`).

`find_object` inverts `object_name` by import. An object defined inside a function
(`f.<locals>.g`) cannot be imported; the caller passes such names in an environment.

Layer: depends on `ir.markers` and `ir.containers` only.
"""

from __future__ import annotations

import builtins
import importlib
import sys
import types
from collections.abc import Mapping

from jitcore.ir import listmarkers
from jitcore.ir.containers import MARKERS as CONTAINER_MARKERS
from jitcore.ir.markers import MARKERS

_NUMPY_ALIAS = "np"


class UnknownObject(LookupError):
    """A name in IR text that names no importable or known object."""


def object_name(obj: object) -> str | None:
    """The name `obj` prints by, or None if it has none that `find_object` could read back."""
    builtin = getattr(obj, "__jitcore_builtin__", None)
    if isinstance(builtin, str):
        return builtin
    if getattr(obj, "__jitcore_dispatcher__", False) is True:
        obj = getattr(obj, "py_func", obj)
    if isinstance(obj, types.ModuleType):
        return _alias(obj.__name__)
    qualname = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    module = getattr(obj, "__module__", None)
    if not isinstance(qualname, str):
        return None
    random_name = _numpy_random_function(obj, module, qualname)
    if random_name is not None:
        return random_name
    if module in (None, "builtins"):
        return qualname if getattr(builtins, qualname, None) is obj else None
    return f"{_alias(module)}.{qualname}"


def _numpy_random_function(obj: object, module: object, qualname: str) -> str | None:
    """`np.random.random` and friends are methods bound to NumPy's global `RandomState`:
    named by the module attribute that holds them, which `find_object` reads back."""
    if module != "numpy.random" or not qualname.startswith("RandomState."):
        return None
    name = qualname.removeprefix("RandomState.")
    random = sys.modules.get("numpy.random")
    return f"{_NUMPY_ALIAS}.random.{name}" if getattr(random, name, None) is obj else None


def find_object(name: str, env: Mapping[str, object] | None = None) -> object:
    """The object `name` names (the inverse of `object_name`); raises UnknownObject."""
    if env is not None and name in env:
        return env[name]
    if "." not in name and hasattr(builtins, name):
        return getattr(builtins, name)
    if name in _MARKERS:
        return _MARKERS[name]
    parts = name.split(".")
    if parts[0] == _NUMPY_ALIAS:
        parts[0] = "numpy"
    for split in range(len(parts), 0, -1):
        module_name = ".".join(parts[:split])
        try:
            obj: object = importlib.import_module(module_name)
        except ImportError:
            continue
        try:
            for attr in parts[split:]:
                obj = getattr(obj, attr)
        except AttributeError:
            break
        return obj
    raise UnknownObject(f"no object named `{name}`")


def _alias(module: str) -> str:
    if module == "numpy" or module.startswith("numpy."):
        return _NUMPY_ALIAS + module[len("numpy") :]
    return module


_MARKERS: dict[str, object] = {
    getattr(m, "__jitcore_builtin__"): m  # noqa: B009
    for m in (*MARKERS, *CONTAINER_MARKERS, *listmarkers.MARKERS)
}
