"""The public entry point `jit`.

Options and the JITCORE_* environment variables live in `jitcore.options`; this module builds a
`Dispatcher` from them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, overload

from jitcore.dispatcher import Dispatcher
from jitcore.options import ExecutionMode, JitOptions, options_from_env
from jitcore.state import Module, set_binder

__all__ = ["ExecutionMode", "JitOptions", "jit", "options_from_env"]


@overload
def jit(func: Callable[..., Any]) -> Any: ...
@overload
def jit(
    func: None = None,
    *,
    mode: ExecutionMode | str = ...,
    opt: int = ...,
    boundscheck: bool = ...,
    fastmath: bool = ...,
    cache: bool = ...,
    signatures: Iterable[Any] | None = ...,
    disable_passes: Iterable[str] = ...,
    nogil: bool = ...,
    parallel: bool = ...,
    tiered: bool = ...,
) -> Callable[[Callable[..., Any]], Any]: ...


def jit(
    func: Callable[..., Any] | None = None,
    *,
    mode: ExecutionMode | str = ExecutionMode.AUTO,
    opt: int = 3,
    boundscheck: bool = True,
    fastmath: bool = False,
    cache: bool = False,
    signatures: Iterable[Any] | None = None,
    disable_passes: Iterable[str] = (),
    nogil: bool = False,
    parallel: bool = False,
    tiered: bool = True,
) -> Any:
    """Compile `func` to native code, one specialization per argument-type signature.

    Usable bare (`@jit`) or with options (`@jit(fastmath=True)`). `signatures` lists
    signatures to compile eagerly, e.g. `["f64, f64", (int, float)]`. `jit(model)` of a
    `jitcore.Module` instance compiles its `__call__` (see `jitcore.methods`). `nogil=True`
    releases the GIL while the compiled code runs, so Python threads calling it run at once;
    `parallel=True` runs `jitcore.prange` loops on native threads (README, "Scale out").
    `tiered=False` compiles the final (O3) code at the first call even for small arguments,
    instead of quick first-tier code replaced in the background (`jitcore.tiering`).
    """
    options = JitOptions(
        mode=ExecutionMode(mode) if isinstance(mode, str) else mode,
        opt=opt,
        boundscheck=boundscheck,
        fastmath=fastmath,
        cache=cache,
        signatures=tuple(signatures or ()),
        disable_passes=frozenset(disable_passes),
        nogil=nogil,
        parallel=parallel,
        tiered=tiered,
    )
    options = options_from_env(options)

    def wrap(f: Callable[..., Any]) -> Any:
        if isinstance(f, Module):  # jit(model): the Module's __call__, with its Variables
            from jitcore.methods import jit_module  # the Module front end: only when used

            return jit_module(f, options)
        if getattr(f, "__jitcore_dispatcher__", False):
            f = f.py_func  # type: ignore[attr-defined]
        return Dispatcher(f, options)

    return wrap(func) if func is not None else wrap


def _bind_first_method(module: Module, method: Dispatcher) -> Any:
    """How a jitted method binds to a `Module` until `jitcore.methods` (the Module front end,
    not imported with jitcore) is loaded: load it, and it installs its binder for good."""
    from jitcore.methods import bound_method

    set_binder(bound_method)
    return bound_method(module, method)


set_binder(_bind_first_method)
