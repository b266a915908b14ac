"""`@jitcheck`: opt a jitted function into `pytest --jit-diff` and tune how it is checked.

This module imports nothing heavy (no NumPy, Hypothesis or jitcore), because the pytest plugin
imports it while collecting every test module of every run.

The decorator only records a `CheckConfig` on the function; the plugin reads it. It works above
or below `@jit`: below, `jit` copies the function's `__dict__` (and so the config) onto the
dispatcher; above, it sets the config on the dispatcher itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

CONFIG_ATTR = "__jitcheck__"

# Keywords of `@jitcheck` that are settings, not per-argument strategies. A kernel whose
# parameter has one of these names gives its strategy through `strategies={...}` instead.
SETTINGS = (
    "modes",
    "ulps",
    "rtol",
    "atol",
    "max_examples",
    "bench_args",
    "skip",
    "xfail",
    "ndim",
    "strategies",
)


@dataclass(frozen=True)
class CheckConfig:
    """How one function is checked. `None` means "not set here": a default applies."""

    strategies: Mapping[str, Any] = field(default_factory=dict)
    modes: tuple[str, ...] = ()
    ulps: float | None = None
    rtol: float | None = None
    atol: float | None = None
    max_examples: int | None = None
    bench_args: Callable[[], Any] | None = None
    skip: str | None = None
    xfail: str | None = None
    ndim: Mapping[str, int] = field(default_factory=dict)

    def merged_over(self, base: CheckConfig) -> CheckConfig:
        """This config, with every unset field taken from `base` (strategies and ndim merge)."""
        changes: dict[str, Any] = {}
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(base, f.name)
            if f.name in ("strategies", "ndim"):
                changes[f.name] = {**theirs, **mine}
            elif f.name == "modes":
                changes[f.name] = tuple(dict.fromkeys((*theirs, *mine)))
            elif mine is None:
                changes[f.name] = theirs
        return replace(self, **changes)


def config_from_kwargs(kwargs: Mapping[str, Any]) -> CheckConfig:
    """Split `@jitcheck(...)` or `pytest.mark.jitcheck(...)` keywords into settings and
    per-parameter strategies."""
    settings = {k: v for k, v in kwargs.items() if k in SETTINGS}
    strategies = {k: v for k, v in kwargs.items() if k not in SETTINGS}
    strategies.update(settings.pop("strategies", None) or {})
    modes = settings.pop("modes", ())
    if isinstance(modes, str):
        modes = tuple(m.strip() for m in modes.split(",") if m.strip())
    for flag in ("skip", "xfail"):
        value = settings.get(flag)
        if value is True:
            settings[flag] = f"marked {flag} by @jitcheck"
        elif value is False:
            settings[flag] = None
    return CheckConfig(strategies=strategies, modes=tuple(modes), **settings)


def jitcheck(func: Any = None, /, **kwargs: Any) -> Any:
    """Opt a jitted function into differential testing, bare or with settings.

        @jitcheck                                    # check with derived inputs
        @jit
        def f(x: float) -> float: ...

        @jitcheck(x=st.floats(0, 1), modes=["O0"], ulps=8, max_examples=50,
                  bench_args=lambda: (np.ones(10_000),), xfail="jitcore#12")

    Keywords: a Hypothesis strategy per parameter name (or `strategies={name: strategy}`),
    `modes` (compiled modes besides the function's own: "O0".."O3", "fastmath",
    "noboundscheck", or combinations such as "O0+fastmath"), `ulps`/`rtol`/`atol` (float
    tolerance), `max_examples`, `bench_args` (a callable returning the argument tuple to time),
    `skip`/`xfail` (a reason string), `ndim` (`{name: ndim}` for `NDArray[...]` annotations).
    """
    config = config_from_kwargs(kwargs)

    def attach(target: Any) -> Any:
        if not callable(target):
            raise TypeError(f"@jitcheck decorates a function, not {target!r}")
        previous = getattr(target, CONFIG_ATTR, None)
        setattr(target, CONFIG_ATTR, config.merged_over(previous) if previous else config)
        return target

    return attach(func) if func is not None else attach


def config_of(obj: object) -> CheckConfig | None:
    """The `@jitcheck` config of a function or dispatcher, or None if it has none."""
    config = getattr(obj, CONFIG_ATTR, None)
    return config if isinstance(config, CheckConfig) else None
