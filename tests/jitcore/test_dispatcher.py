"""The dispatcher: specialization per signature, modes, fallback, inspect and stats."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcheck.compare import assert_equivalent
from jitcore import ExecutionMode, TypingError, UnsupportedError, jit
from jitcore.argtypes import parse_signature
from jitcore.errors import JitFallbackWarning
from jitcore.ir import types as T
from jitcore.pipeline import STAGES
from tests.jitcore.support import compiled


def add(a, b):  # noqa: ANN001, ANN201
    return a + b


def untypeable(n):  # noqa: ANN001, ANN201
    if n > 0:
        r = n
    else:
        r = (n, n)
    return r


def untypeable_expression(n):  # noqa: ANN001, ANN201
    return n if n > 0 else (n, n)


def test_conditional_expression_type_conflict_says_so() -> None:
    with pytest.raises(TypingError, match="one branch and tuple"):
        jit(untypeable_expression, mode="compiled")(1)


def test_one_specialization_per_signature_and_no_recompilation() -> None:
    f = jit(add)
    assert f(1, 2) == 3
    assert f(1.5, 2) == 3.5
    assert f(np.float32(1.5), np.float32(2)) == np.float32(3.5)
    assert set(f.signatures) == {(T.I64, T.I64), (T.F64, T.I64), (T.F32, T.F32)}
    records = {sig: f.overloads[sig].record for sig in f.signatures}
    for _ in range(3):
        f(5, 6)
        f(0.5, 1)
    assert {sig: f.overloads[sig].record for sig in f.signatures} == records


def test_explicit_signatures_compile_eagerly() -> None:
    f = jit(add, signatures=["i64, i64", (float, float)])
    assert f.signatures == [(T.I64, T.I64), (T.F64, T.F64)]


def test_compile_accepts_text_types_and_python_types() -> None:
    assert parse_signature("f64, tuple(i64, bool)") == (T.F64, T.Tuple((T.I64, T.BOOL)))
    assert parse_signature((int, np.float32)) == (T.I64, T.F32)


def test_python_mode_runs_the_original() -> None:
    f = jit(add, mode=ExecutionMode.PYTHON)
    assert f(1, 2) == 3 and f.signatures == []


def test_compiled_mode_raises_compile_errors() -> None:
    with pytest.raises(TypingError):
        jit(untypeable, mode="compiled")(3)


def test_auto_mode_falls_back_and_warns_once_with_the_reason() -> None:
    f = jit(untypeable)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert f(3) == 3
        assert f(-2) == (-2, -2)
        assert f(4) == 4
    fallbacks = [w for w in caught if issubclass(w.category, JitFallbackWarning)]
    assert len(fallbacks) == 1
    assert "`r` is i64 on one path and tuple(i64, i64) on another" in str(fallbacks[0].message)


def test_auto_mode_falls_back_for_unsupported_argument_types() -> None:
    f = jit(add)
    with pytest.warns(JitFallbackWarning, match="argument `a` is a list of mixed types"):
        assert f([1, 2.5], [2]) == [1, 2.5, 2]


def test_disable_jit_environment_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCORE_DISABLE_JIT", "1")
    f = jit(add, mode="compiled")
    assert f(1, 2) == 3 and f.signatures == []


def test_run_with_an_explicit_mode() -> None:
    f = jit(add)
    assert f.run(2, 3, mode="python") == 5 and f.signatures == []
    assert f.run(2, 3, mode=ExecutionMode.COMPILED) == 5


def test_stats_cover_every_stage_and_pass() -> None:
    f = jit(add)
    f(1, 2)
    stats = f.stats()
    assert list(stats.stages) == list(STAGES)
    assert all(seconds >= 0 for seconds in stats.stages.values())
    assert stats.stages["llvm-opt"] > 0 and stats.stages["machine-code"] > 0
    assert {"constfold", "dce", "cse"} <= set(stats.passes)
    assert stats.total == pytest.approx(sum(stats.stages.values()))
    assert stats.cache_hit is False
    assert stats.as_dict()["signature"] == "i64, i64"


@pytest.mark.parametrize(
    "stage, needle",
    [
        ("parse", "return a + b"),
        ("ssa", "t1 = add a b\n"),
        ("typeinfer", "t1 = add a b : i64"),
        ("optimize", "func add(a: i64, b: i64) -> i64"),
        ("optimize:dce", "add a b"),
        ("lower", "add a b : i64"),
        ("codegen", "define ptr @"),
        ("llvm-opt", "add i64"),
        ("machine-code", "ret"),
    ],
)
def test_inspect_every_stage(stage: str, needle: str) -> None:
    f = jit(add)
    f(1, 2)
    assert needle in f.inspect(stage)


def test_inspect_unknown_stage() -> None:
    f = jit(add)
    f(1, 2)
    with pytest.raises(ValueError, match="unknown stage"):
        f.inspect("nonsense")


def test_inspect_before_any_call_needs_a_signature() -> None:
    f = jit(add)
    with pytest.raises(ValueError, match="not been compiled"):
        f.inspect("ssa")
    assert "fadd" in f.inspect("llvm-opt", signature="f64, f64")


def test_with_options_is_a_separate_dispatcher() -> None:
    f = jit(add)
    g = f.with_options(opt=0, fastmath=True)
    assert g.options.label == "O0+fastmath" and f.options.label == "O3"
    assert g(1.0, 2.0) == 3.0 and f.signatures == []


def test_clear_forgets_specializations() -> None:
    f = jit(add)
    f(1, 2)
    f.clear()
    assert f.signatures == []
    assert f(1, 2) == 3


def test_keyword_and_default_arguments_from_python() -> None:
    def scaled(x, factor=2.0):  # noqa: ANN001, ANN202
        return x * factor

    f = jit(scaled, mode="compiled")
    assert f(3.0) == 6.0 and f(3.0, factor=3.0) == 9.0 and f(x=1.0) == 2.0
    with pytest.raises(TypeError):
        f(1.0, 2.0, 3.0)


def test_read_only_arrays_run_as_python_and_get_numpy_errors() -> None:
    def set_first(a):  # noqa: ANN001, ANN202
        a[0] = 5.0
        return a[0]

    f = jit(set_first)
    assert f(np.arange(3.0)) == 5.0
    frozen = np.arange(3.0)
    frozen.flags.writeable = False
    with pytest.warns(JitFallbackWarning, match="read-only"), pytest.raises(ValueError):
        f(frozen)
    with pytest.raises(ValueError, match="read-only"):
        f(np.frombuffer(b"\0" * 24))  # read-only memory: never written by compiled code
    with pytest.raises(TypeError, match="read-only"):
        jit(set_first, mode="compiled")(frozen)


def test_with_options_applies_to_jitted_callees_too() -> None:
    from tests.jitcore.e2e import calls_helpers as h

    slow = h.fib.with_options(opt=0, mode="compiled")
    assert slow(12) == 144
    assert h.fib.with_options(opt=0, mode="compiled") is slow  # one variant per options
    assert "ncall" in slow.inspect("lower")
    assert slow.overloads[slow.signatures[0]].symbol in slow.inspect("codegen")  # calls itself
    assert "define" in slow.inspect("llvm-opt")


def test_python_mode_runs_callees_as_python_too() -> None:
    from jitcore.dispatcher import python_mode
    from tests.jitcore.e2e import calls_helpers as h

    fresh = h.scale.with_options(opt=1)  # a variant no other test has compiled
    caller = jit(lambda_free_caller, mode="compiled")
    caller.py_func.__globals__["_SCALE_UNDER_TEST"] = fresh
    with python_mode():
        assert caller(2.0) == lambda_free_caller(2.0)
    assert caller.signatures == [] and fresh.signatures == []
    assert caller(2.0) == lambda_free_caller(2.0)
    assert caller.signatures and fresh.signatures


def lambda_free_caller(x):  # noqa: ANN001, ANN201
    return _SCALE_UNDER_TEST(x, 3) + 1  # noqa: F821 - set by the test


# --- issue #12: keyword-only parameters, and specializations called directly ----------------


def keyword_only(x, *, k=1):  # noqa: ANN001, ANN201
    return x + k


def mixed_parameters(a, b=2.0, *, c, d=4):  # noqa: ANN001, ANN201
    return a * b + c - d


def calls_with_keywords(x):  # noqa: ANN001, ANN201
    return mixed_parameters(x, c=1.0) + keyword_only(x, k=5) + keyword_only(x)


@pytest.mark.parametrize("opt", [0, 3])
@given(
    x=st.floats(-1e6, 1e6) | st.integers(-(2**40), 2**40),
    k=st.floats(-1e6, 1e6) | st.integers(-(2**40), 2**40),
)
def test_keyword_only_parameters_bind_as_in_python(opt: int, x: float, k: float) -> None:
    f = compiled(keyword_only, opt=opt)
    for call in (lambda g: g(x, k=k), lambda g: g(x), lambda g: g(x=x, k=k)):
        assert_equivalent(call(f), call(keyword_only))
    assert f.signatures  # it ran compiled (mode="compiled" raises rather than falls back)


@pytest.mark.parametrize("opt", [0, 3])
def test_keyword_only_parameters_in_compiled_calls(opt: int) -> None:
    global mixed_parameters, keyword_only
    plain = (mixed_parameters, keyword_only)
    try:
        mixed_parameters = jit(mode="compiled", opt=opt)(plain[0])
        keyword_only = jit(mode="compiled", opt=opt)(plain[1])
        caller = jit(mode="compiled", opt=opt)(calls_with_keywords)
        assert_equivalent(caller(2.5), 2.5 * 2.0 + 1.0 - 4 + 7.5 + 3.5)
        assert mixed_parameters(1, 3, c=2, d=1) == 4
        with pytest.raises(TypeError, match="'c'"):
            mixed_parameters(1.0)
    finally:
        mixed_parameters, keyword_only = plain


def test_a_specialization_called_directly_checks_its_arguments() -> None:
    f = jit(mode="compiled")(add)
    assert f(1.0, 2) == 3.0
    (overload,) = f.overloads.values()
    assert overload(1.5, 2) == 3.5
    for bad, message in [
        ((), "takes 2 arguments"),
        ((1.0,), "takes 2 arguments"),
        ((1.0, 2.0), "argument #1 is f64"),
        ((object(), 2), "unsupported type object"),
        ((np.zeros(2), 2), "argument #0 is array"),
    ]:
        with pytest.raises(TypeError, match=message):
            overload(*bad)


def rank_first(a, method=b"average"):  # noqa: ANN001, ANN201
    return a[0]


def ranked(a, method="average"):  # noqa: ANN001, ANN201
    return a[0] if method == "average" else a[1]


def calls_ranked(a):  # noqa: ANN001, ANN201
    return jranked(a), jranked(a, "max")


jranked = jit(mode="compiled")(ranked)


def calls_rank_first(a):  # noqa: ANN001, ANN201
    return jrank_first(a)


jrank_first = jit(mode="compiled")(rank_first)


def test_a_callee_default_compiled_code_cannot_pass_is_an_unsupported_error() -> None:
    f = jit(mode="compiled")(calls_rank_first)
    with pytest.raises(UnsupportedError, match="default `method=b'average'`") as caught:
        f(np.ones(3))
    message = str(caught.value)
    assert "test_dispatcher.py" in message and "^" in message and "hint:" in message


def test_a_callee_string_default_is_passed_as_a_string() -> None:
    assert jit(mode="compiled")(calls_ranked)(np.arange(3.0)) == (0.0, 1.0)


def mul(a, b):  # noqa: ANN001, ANN201
    return a * b


def test_dispatchers_share_one_trampoline_and_keep_their_own_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A trampoline without tuple cases is compiled once per number of parameters; each
    dispatcher links it against its own type table, so the two below never mix up."""
    from jitcore import machine_code

    jit(add, mode="compiled")(1, 2)  # the two-parameter trampoline exists now
    built = []
    real = machine_code.dispatcher_object
    monkeypatch.setattr(machine_code, "dispatcher_object", lambda m: built.append(m) or real(m))
    f, g = jit(add, mode="compiled"), jit(mul, mode="compiled")
    for x, y in [(3, 4), (2.5, 4.0), (np.arange(3.0), 2.0), (True, 3)]:
        assert_equivalent(f(x, y), add(x, y))
        assert_equivalent(g(x, y), mul(x, y))
    assert_equivalent(f((1, 2), (3,)), (1, 2, 3))  # tuples: a trampoline with checks of its own
    assert len(f.signatures) == 5 and len(g.signatures) == 4
    assert len(built) == 1  # only the trampoline with a tuple case was compiled


def test_a_trampoline_comes_from_the_disk_cache_in_a_new_process(tmp_path) -> None:  # noqa: ANN001
    """With a cache directory, a second process links the trampoline's cached machine code."""
    from tests.jitcore.support import run_twice_on_one_cache

    module = "from jitcore import jit\n\n\n@jit(cache=True)\ndef inc(x):\n    return x + 1\n"
    child = (
        "import json, jitcore.machine_code as mc\n"
        "built = []\n"
        "real = mc.dispatcher_object\n"
        "mc.dispatcher_object = lambda m: built.append(1) or real(m)\n"
        "import kernels\n"
        "print(json.dumps({'result': kernels.inc(41), 'built': len(built)}))\n"
    )
    first, second = run_twice_on_one_cache(tmp_path, module, child, timeout=120)
    assert first == {"result": 42, "built": 1}
    assert second == {"result": 42, "built": 0}
