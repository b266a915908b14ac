"""Tiered compilation (`jitcore.tiering`): first-tier code for first calls on small arguments,
the same results as Python and as the final tier, and the switch to the final tier.

The project's conftest sets JITCORE_TIERED=0 (tests check final code); every test here turns
it off again before making its functions (`jit` reads the variable when it decorates).
"""

from __future__ import annotations

import math
import multiprocessing
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore import jit, machine_code, session, tiering
from jitcore.dispatcher import Dispatcher
from jitcore.ir import types as T
from tests.import_graph import ROOT


@pytest.fixture(autouse=True)
def _tiering_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JITCORE_TIERED", raising=False)


def _only(f: Any) -> Any:
    """The one specialization `f` has."""
    (overload,) = f.overloads.values()
    return overload


def _wait_final(overload: Any, seconds: float = 60.0) -> None:
    """Wait for the background thread to finish `overload` (a liveness bound, not a timing)."""
    deadline = time.monotonic() + seconds
    while overload.first_tier and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not overload.first_tier, tiering.WORKER.errors


def weighted(a: np.ndarray, w: float) -> float:
    s = 0.0
    for i in range(a.shape[0]):
        s += math.sqrt(abs(a[i])) * w + a[i] * a[i]
    return s


def norms(m: np.ndarray) -> np.ndarray:
    out = np.empty(m.shape[0])
    for i in range(m.shape[0]):
        acc = 0.0
        for j in range(m.shape[1]):
            acc += m[i, j] * m[i, j]
        out[i] = np.sqrt(acc)
    return out


def scaled(a: np.ndarray) -> np.ndarray:
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i] * 2.5 + 1.0
    return out


def total_scaled(a: np.ndarray, w: float) -> float:
    return a.sum() * w


def collatz_steps(n: int) -> int:
    steps = 0
    while n != 1 and steps < 10_000:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def test_a_first_call_on_small_arguments_gets_first_tier_code() -> None:
    f = jit(mode="compiled")(weighted)
    a = np.linspace(-3.0, 3.0, 50)
    assert f(a, 0.5) == weighted(a, 0.5)
    overload = _only(f)
    assert overload.first_tier
    assert overload.record.final_tier_ir is not None
    assert type(f).__call__ is Dispatcher.__call__  # called through the timed Python path


def test_first_tier_code_is_the_final_code_with_fewer_llvm_passes() -> None:
    """The first tier's LLVM input is the final tier's: only LLVM's work differs."""
    f = jit(mode="compiled")(scaled)
    f(np.arange(12.0))
    overload = _only(f)
    assert overload.record.final_tier_ir is not None
    assert "define" in overload.record.final_tier_ir
    assert "vector.body" not in overload.record.final_tier_ir  # unoptimized: not vectorized yet
    assert "vector.body" in f.inspect("llvm-opt")  # inspect shows the final tier


@pytest.mark.parametrize(
    ("args", "expect_first"),
    [
        ((np.ones(10), 1.0), True),
        ((np.ones(tiering.SMALL_ARGUMENTS), 1.0), False),  # large arrays: final at once
        ((np.ones((300, 300)), 1.0), False),
    ],
)
def test_large_arguments_get_the_final_tier_at_once(args: tuple, expect_first: bool) -> None:
    f = jit(mode="compiled")(total_scaled)
    f(*args)
    assert _only(f).first_tier is expect_first


def test_an_integer_argument_counts_by_its_magnitude() -> None:
    small, large = jit(mode="compiled")(collatz_steps), jit(mode="compiled")(collatz_steps)
    assert small(27) == collatz_steps(27)
    assert large(10**6 + 1) == collatz_steps(10**6 + 1)
    assert _only(small).first_tier
    assert not _only(large).first_tier
    assert tiering.wants_first_tier(small.options, (True,))  # a bool is not a count


@pytest.mark.parametrize(
    "options",
    [
        {"tiered": False},
        {"opt": 2},
        {"fastmath": True},  # results may depend on how LLVM reassociates: one tier only
        {"parallel": True},
    ],
)
def test_options_that_mean_one_tier(options: dict[str, Any]) -> None:
    f = jit(mode="compiled", **options)(weighted)
    f(np.ones(4), 2.0)
    assert not _only(f).first_tier


def test_the_environment_variable_turns_tiering_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCORE_TIERED", "0")
    f = jit(weighted)
    assert f.options.tiered is False
    monkeypatch.setenv("JITCORE_TIERED", "1")
    assert jit(weighted).options.tiered is True


def test_explicit_compiles_are_final() -> None:
    f = jit(mode="compiled")(weighted)
    f(np.ones(3), 1.0)
    overload = _only(f)
    assert overload.first_tier
    assert f.compile(overload.signature) is overload
    assert not overload.first_tier
    g = jit(mode="compiled", signatures=[overload.signature])(weighted)
    assert not _only(g).first_tier


def test_calls_that_run_long_enough_switch_to_native_final_code() -> None:
    f = jit(mode="compiled")(weighted)
    a = np.linspace(0.0, 1.0, 64)
    expected = weighted(a, 3.0)
    f(a, 3.0)
    overload = _only(f)
    first_entry = overload.native
    for _ in range(tiering.MAX_FIRST_TIER_CALLS):
        assert f(a, 3.0) == expected
    _wait_final(overload)
    assert overload.native is not first_entry
    assert overload.record.final_tier_ir is None
    assert "tier-up" in f.stats().stages
    assert f(a, 3.0) == expected
    assert type(f).__call__ is not Dispatcher.__call__  # the native dispatcher now
    assert not tiering.WORKER.errors


def test_the_time_budget_requests_the_final_tier() -> None:
    """A call that runs as long as the compile took asks for the final tier at once."""
    f = jit(mode="compiled")(collatz_steps)
    f(7)
    target = next(iter(f._by_key.values()))
    assert isinstance(target, tiering.FirstTierCalls)
    target.seconds = target.budget  # as if the calls had run that long
    f(7)
    assert target.requested
    _wait_final(_only(f))


def test_exceptions_in_first_tier_code_are_raised_and_counted() -> None:
    def pick(a: np.ndarray, i: int) -> float:
        return a[i]

    f = jit(mode="compiled")(pick)
    a = np.arange(3.0)
    assert f(a, 1) == 1.0
    with pytest.raises(IndexError):
        f(a, 7)
    target = next(iter(f._by_key.values()))
    assert target.calls == 2


def test_final_code_never_calls_first_tier_code() -> None:
    """A callee compiled at the first tier is finished before a final caller links to it."""

    def scale(x: float) -> float:
        s = 0.0
        for k in range(4):  # a loop: not small enough to be inlined into callers
            s += x * (k + 1) + math.sin(x + k)
        return s

    jscale = jit(mode="compiled")(scale)

    def total(a: np.ndarray) -> float:
        s = 0.0
        for i in range(a.shape[0]):
            s += jscale(a[i])
        return s

    jtotal = jit(mode="compiled")(total)
    assert jscale(0.5) == scale(0.5)
    callee = _only(jscale)
    assert callee.first_tier
    a = np.linspace(0.0, 1.0, tiering.SMALL_ARGUMENTS)
    assert jtotal(a) == pytest.approx(sum(scale(x) for x in a.tolist()), rel=1e-12)
    assert not _only(jtotal).first_tier
    if callee.symbol in _only(jtotal).record.callees:  # called, not inlined
        assert not callee.first_tier


def test_a_first_tier_caller_finishes_its_callees_first() -> None:
    def inner(x: float) -> float:
        s = 0.0
        for k in range(3):
            s += math.cos(x * k)
        return s

    jinner = jit(mode="compiled")(inner)

    def outer(a: np.ndarray) -> float:
        return jinner(a[0]) + jinner(a[-1])

    jouter = jit(mode="compiled")(outer)
    a = np.array([0.25, 0.5, 0.75])
    assert jouter(a) == outer(a)
    caller = _only(jouter)
    callees = [o for o in jinner.overloads.values() if o.symbol in caller.record.callees]
    assert caller.first_tier
    jouter.finish_tiers()
    assert not caller.first_tier
    assert all(not o.first_tier for o in callees)
    assert jouter(a) == outer(a)


def test_recursive_functions_tier_up() -> None:
    @jit(mode="compiled")
    def fib(n: int) -> int:
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    assert fib(15) == 610
    overload = _only(fib)
    assert overload.first_tier
    fib.finish_tiers()
    assert not overload.first_tier
    assert fib(20) == 6765


def test_clear_while_a_final_compile_is_queued() -> None:
    f = jit(mode="compiled")(weighted)
    a = np.ones(8)
    f(a, 1.0)
    overload = _only(f)
    hold = threading.Event()
    tiering.WORKER.submit(hold.wait)  # keep the worker busy until the dispatcher is cleared
    f._request(overload)
    f.clear()
    hold.set()
    tiering.WORKER.submit(lambda: None)
    deadline = time.monotonic() + 30
    while tiering.WORKER.jobs and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.05)
    assert overload.first_tier  # dropped: left alone
    assert f(a, 1.0) == weighted(a, 1.0)
    assert not tiering.WORKER.errors


def test_threads_calling_through_the_switch_agree() -> None:
    f = jit(mode="compiled")(norms)
    m = np.arange(20.0).reshape(4, 5)
    expected = norms(m)
    f(m)
    errors: list[BaseException] = []

    def hammer() -> None:
        try:
            for _ in range(1500):
                np.testing.assert_array_equal(f(m), expected)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=hammer) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    _wait_final(_only(f))
    np.testing.assert_array_equal(f(m), expected)


def _child_compiles(queue: Any) -> None:
    g = jit(mode="compiled")(collatz_steps)
    g(27)
    g.finish_tiers()
    queue.put((g(27), _only(g).first_tier))


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
def test_fork_while_a_final_compile_may_run() -> None:
    f = jit(mode="compiled")(norms)
    m = np.ones((3, 3))
    f(m)
    f._request(_only(f))  # the worker may be inside LLVM when the fork comes
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_child_compiles, args=(queue,))
    child.start()
    result = queue.get(timeout=120)
    child.join(timeout=120)
    assert child.exitcode == 0
    assert result == (collatz_steps(27), False)
    _wait_final(_only(f))


def test_stats_and_signatures_of_a_first_tier_function() -> None:
    f = jit(mode="compiled")(weighted)
    f(np.ones(2), 1.0)
    stats = f.stats()
    assert stats.total > 0 and "tier-up" not in stats.stages
    assert f.signatures == [(T.Array(T.F64, 1, "C"), T.F64)]


def test_both_tiers_compute_what_python_computes() -> None:
    first, final = jit(mode="compiled")(weighted), jit(mode="compiled", tiered=False)(weighted)
    first_norms = jit(mode="compiled")(norms)
    final_norms = jit(mode="compiled", tiered=False)(norms)

    @given(
        a=hnp.arrays(np.float64, st.integers(0, 40), elements=st.floats(-1e6, 1e6)),
        w=st.floats(-10, 10),
    )
    def check(a: np.ndarray, w: float) -> None:
        expected = weighted(a, w)
        got_first, got_final = first(a, w), final(a, w)
        assert got_first == expected
        assert got_final == got_first
        m = a[: (a.shape[0] // 4) * 4].reshape(-1, 4)
        np.testing.assert_array_equal(first_norms(m), norms(m))
        np.testing.assert_array_equal(final_norms(m), first_norms(m))

    check()
    assert not _only(final).first_tier
    assert not _only(final_norms).first_tier


def test_the_session_keeps_the_first_tier_flag_to_its_own_compile() -> None:
    assert session.current_session() is None
    f = jit(mode="compiled")(weighted)
    f(np.ones(2), 1.0)
    assert session.current_session() is None


def test_the_readme_example_runs_as_written(tmp_path: Path) -> None:
    """README, "Tiered compilation": its example prints what its comments say."""
    text = (ROOT / "README.md").read_text()
    start = text.index("**Tiered compilation.**")
    block = text[text.index("```python\n", start) + len("```python\n") :]
    block = block[: block.index("```")]
    script = tmp_path / "example.py"
    script.write_text(block)
    env = {k: v for k, v in os.environ.items() if k != "JITCORE_TIERED"}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    expected = [
        line.split("#")[1].split(":")[0].strip() for line in block.splitlines() if "print(" in line
    ]
    assert out.stdout.split("\n")[:3] == expected


def is_even(n: int) -> bool:
    if n == 0:
        return True
    s = 0
    for k in range(3):  # a loop: not inlined
        s += k
    return is_odd(n - 1) if s == 3 else False


def is_odd(n: int) -> bool:
    if n == 0:
        return False
    s = 0
    for k in range(3):
        s += k
    return is_even(n - 1) if s == 3 else True


def test_a_mutually_recursive_group_is_final_together() -> None:
    """Finishing one of two mutually recursive functions links both into one final library:
    neither final function may call the other's first tier."""
    global is_even, is_odd
    plain_even, plain_odd = is_even, is_odd
    try:
        is_even, is_odd = jit(mode="compiled")(plain_even), jit(mode="compiled")(plain_odd)
        assert is_even(10) is True and is_odd(7) is True
        group = [o for f in (is_even, is_odd) for o in f.overloads.values()]
        assert group and all(o.first_tier for o in group)
        first_libraries = {id(o.keep_alive.library) for o in group}
        is_odd.finish_tiers()  # is_odd calls is_even (which may have inlined is_odd)
        assert all(not o.first_tier for o in group)
        for o in group:
            depends = machine_code.depends_of(o.keep_alive.library)
            assert not {id(lib) for lib in depends} & first_libraries
        assert is_even(11) is False and is_odd(9) is True
    finally:
        is_even, is_odd = plain_even, plain_odd


def test_a_large_call_of_a_first_tier_function_runs_final_code() -> None:
    f = jit(mode="compiled")(weighted)
    f(np.ones(4), 1.0)
    overload = _only(f)
    assert overload.first_tier
    big = np.ones(tiering.SMALL_ARGUMENTS)
    assert f(big, 2.0) == weighted(big, 2.0)
    assert not overload.first_tier


def test_arrays_inside_small_containers_count() -> None:
    options = jit(weighted).options
    big = np.ones(tiering.SMALL_ARGUMENTS // 2)
    assert not tiering.wants_first_tier(options, ((big, big), 20))
    assert not tiering.wants_first_tier(options, ({"a": big, "b": big},))
    assert tiering.wants_first_tier(options, ((np.ones(3), np.ones(3)), 20))
    assert tiering.wants_first_tier(options, (list(range(100)),))


def apply_twice(g: Any, a: np.ndarray) -> np.ndarray:
    return g(g(a))


def test_finish_tiers_includes_the_variants_for_functions_passed() -> None:
    @jit(mode="compiled")
    def square(x: np.ndarray) -> np.ndarray:
        return x * x

    f = jit(mode="compiled")(apply_twice)
    a = np.arange(4.0)
    np.testing.assert_array_equal(f(square, a), a**4)
    (variant,) = f._frozen_variants.values()
    overload = _only(variant)
    assert overload.first_tier
    f.finish_tiers()
    assert not overload.first_tier


def test_stats_total_is_what_the_first_call_waited_for() -> None:
    f = jit(mode="compiled")(weighted)
    f(np.ones(2), 1.0)
    before = f.stats().total
    f.finish_tiers()
    stats = f.stats()
    assert stats.stages["tier-up"] > 0
    assert stats.total == before


def _child_waits_for_the_final_tier(f: Any, queue: Any) -> None:
    overload = _only(f)
    deadline = time.monotonic() + 60
    while overload.first_tier and time.monotonic() < deadline:
        time.sleep(0.01)
    queue.put(overload.first_tier)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
def test_a_child_runs_the_final_compiles_its_parent_had_queued() -> None:
    f = jit(mode="compiled")(norms)
    f(np.ones((2, 2)))
    hold = threading.Event()
    tiering.WORKER.submit(lambda: hold.wait(timeout=2))  # busy when the fork comes
    f._request(_only(f))  # queued behind it
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_child_waits_for_the_final_tier, args=(f, queue))
    child.start()
    hold.set()
    assert queue.get(timeout=120) is False  # the child compiled it
    child.join(timeout=120)
    assert child.exitcode == 0
    _wait_final(_only(f))


def test_an_untiered_callee_makes_its_group_final() -> None:
    """A `tiered=False` callee compiled for a first-tier caller is final code, linked with the
    functions compiled with it: they are final too, or it would call first-tier code."""

    def leaf(x: float) -> float:
        s = 0.0
        for k in range(5):
            s += math.sin(x * k)
        return s

    jleaf = jit(mode="compiled")(leaf)

    def middle(x: float) -> float:
        s = 0.0
        for k in range(2):
            s += jleaf(x + k)
        return s

    jmiddle = jit(mode="compiled", tiered=False)(middle)

    def top(a: np.ndarray) -> float:
        return jmiddle(a[0]) + jleaf(a[1])

    jtop = jit(mode="compiled")(top)
    a = np.array([0.5, 0.25])
    assert jtop(a) == top(a)
    compiled = [o for f in (jtop, jmiddle, jleaf) for o in f.overloads.values()]
    assert compiled and not any(o.first_tier for o in compiled)
