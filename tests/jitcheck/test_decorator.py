"""`@jitcheck`: usable bare or with settings, above or below `@jit`; settings merge."""

from __future__ import annotations

from hypothesis import strategies as st

from jitcheck import jitcheck
from jitcheck.decorator import CheckConfig, config_from_kwargs, config_of
from jitcore import jit


def test_bare_and_with_settings_above_and_below_jit() -> None:
    @jitcheck
    @jit
    def above(x: float) -> float:
        return x

    @jit
    @jitcheck(x=st.floats(0, 1), modes="O0, fastmath", ulps=8, xfail=True)
    def below(x: float) -> float:
        return x

    assert config_of(above) == CheckConfig()
    config = config_of(below)
    assert config is not None and getattr(below, "__jitcore_dispatcher__", False)
    assert set(config.strategies) == {"x"} and config.modes == ("O0", "fastmath")
    assert config.ulps == 8 and config.xfail == "marked xfail by @jitcheck"
    assert config_of(below.with_options(opt=0)) == config  # new dispatchers keep it


def test_settings_named_like_parameters_go_through_strategies() -> None:
    config = config_from_kwargs({"strategies": {"modes": st.just(1)}, "atol": 1e-9})
    assert set(config.strategies) == {"modes"} and config.atol == 1e-9 and config.modes == ()


def test_the_closer_config_wins_and_collections_merge() -> None:
    module = CheckConfig(modes=("O0",), max_examples=5, ulps=2, ndim={"a": 2})
    function = CheckConfig(modes=("fastmath", "O0"), ulps=16, ndim={"b": 3})
    merged = function.merged_over(module)
    assert merged.modes == ("O0", "fastmath") and merged.ulps == 16
    assert merged.max_examples == 5 and merged.ndim == {"a": 2, "b": 3}


def test_stacking_jitcheck_twice_merges() -> None:
    @jitcheck(max_examples=3)
    @jitcheck(ulps=7)
    @jit
    def f(x: float) -> float:
        return x

    config = config_of(f)
    assert config is not None and config.max_examples == 3 and config.ulps == 7
