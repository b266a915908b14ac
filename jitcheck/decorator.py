"""`@jitcheck`: opt a jitted function into `pytest --jit-diff` and tune how it is checked.

This module imports nothing heavy (no NumPy, Hypothesis or jitcore), because the pytest plugin
imports it while collecting every test module of every run.

The decorator only records a `CheckConfig` on the function; the plugin reads it. It works above
or below `@jit`: below, `jit` copies the function's `__dict__` (and so the config) onto the
dispatcher; above, it sets the config on the dispatcher itself.
"""

from __future__ import annotations

import math
import re
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
    "shapes",
    "min_returned",
    "max_rejected",
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
    shapes: ShapeSpec | None = None
    min_returned: float | None = None  # share of examples Python must return normally on
    max_rejected: float | None = None  # share of examples allowed out of the compiled domain

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
    if settings.get("shapes") is not None:
        settings["shapes"] = ShapeSpec.parse(settings["shapes"])
    for name in ("min_returned", "max_rejected"):
        if settings.get(name) is not None:
            settings[name] = check_share(name, settings[name])
    for flag in ("skip", "xfail"):
        value = settings.get(flag)
        if value is True:
            settings[flag] = f"marked {flag} by @jitcheck"
        elif value is False:
            settings[flag] = None
    return CheckConfig(strategies=strategies, modes=tuple(modes), **settings)


_SHAPE_ITEM = re.compile(r"\s*([A-Za-z_]\w*)\s*:\s*\(([^()]*)\)\s*")


@dataclass(frozen=True)
class ShapeSpec:
    """`@jitcheck(shapes="X:(n,d) w:(d,) Y:(n,)")`: each array parameter's shape as named
    dimensions (shared by name) and literal sizes. Each example draws every named dimension
    once, so parameters used together get compatible shapes."""

    dims: Mapping[str, tuple[str | int, ...]]  # parameter -> its dimensions

    @classmethod
    def parse(cls, spec: str | Mapping[str, Any]) -> ShapeSpec:
        """From `"X:(n,d) w:(d,)"` or `{"X": ("n", "d"), "w": ("d",)}`; ValueError if malformed."""
        if not isinstance(spec, str):
            return cls({name: tuple(_dim(d) for d in dims) for name, dims in spec.items()})
        dims: dict[str, tuple[str | int, ...]] = {}
        position = 0
        for match in _SHAPE_ITEM.finditer(spec):
            if match.start() != position:
                break
            name, inner = match.groups()
            items = [d.strip() for d in inner.split(",")]
            if items and items[-1] == "":
                items.pop()  # "(d,)": the tuple's trailing comma
            dims[name] = tuple(_dim(d) for d in items)
            position = match.end()
        if position != len(spec) or not dims:
            raise ValueError(
                f'shapes={spec!r} is not a list of `name:(dim, ...)`, e.g. "X:(n,d) w:(d,)"'
            )
        return cls(dims)

    def bounds(self, budget: int) -> dict[str, int]:
        """The largest size of each named dimension that keeps every array within `budget`
        elements when all its dimensions are at their largest."""
        bounds: dict[str, int] = {}
        for dims in self.dims.values():
            fixed = math.prod(d for d in dims if isinstance(d, int))
            named = [d for d in dims if isinstance(d, str)]
            if not named:
                continue
            side = max(1, math.floor((budget / max(fixed, 1)) ** (1 / len(named)) + 1e-9))
            for d in named:
                bounds[d] = min(bounds.get(d, side), side)
        return bounds

    def __str__(self) -> str:
        return " ".join(
            f"{name}:({','.join(map(str, dims))}{',' * (len(dims) == 1)})"
            for name, dims in self.dims.items()
        )


def _dim(text: Any) -> str | int:
    if isinstance(text, int) and not isinstance(text, bool) and text >= 0:
        return text
    if isinstance(text, str) and text.strip().isdigit():
        return int(text)
    if isinstance(text, str) and text.strip().isidentifier():
        return text.strip()
    raise ValueError(f"a dimension is a name or a size >= 0, not {text!r}")


def check_share(name: str, value: Any) -> float:
    """A share of examples, 0 to 1 (`0.8`) or a percentage string (`"80%"`)."""
    text = str(value).strip()
    share = float(text.removesuffix("%")) / 100 if text.endswith("%") else float(text)
    if not 0.0 <= share <= 1.0 or math.isnan(share):
        raise ValueError(f"{name} is a share of examples, 0 to 1 or 0% to 100%, not {value!r}")
    return share


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
    `skip`/`xfail` (a reason string), `ndim` (`{name: ndim}` for `NDArray[...]` annotations),
    `shapes` (coupled array shapes, `"X:(n,d) w:(d,) Y:(n,)"`: named dimensions are drawn once
    per example), `min_returned` (the share of examples on which Python must return normally,
    0 to 1; default `--jit-diff-min-returned`), `max_rejected` (the share of examples that
    may fall outside the compiled domain; default `--jit-diff-max-rejected`).
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
