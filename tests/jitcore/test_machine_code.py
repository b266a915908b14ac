"""Machine code's lifetime: a dropped dispatcher's libraries are unloaded, unless a live
caller calls into them or values that left a call may point into their static data."""

from __future__ import annotations

import gc
import weakref

import numpy as np

from jitcore import jit, machine_code

_callee: object = None  # the dispatcher `_fib` and `_twice` call, set by the test
_TABLE = np.arange(5.0)  # frozen into the code that reads it


def _scale(x):  # noqa: ANN001, ANN201
    return x * 2.0 + 1.0


def _fib(n):  # noqa: ANN001, ANN201
    if n < 2:
        return n
    return _callee(n - 1) + _callee(n - 2)  # type: ignore[operator]


def _twice(n):  # noqa: ANN001, ANN201
    return 2 * _callee(n)  # type: ignore[operator]


def _table_tail():  # noqa: ANN201
    return _TABLE[1:]


def _greeting(n):  # noqa: ANN001, ANN201
    return "hello" * n


def _symbol(dispatcher: object) -> str:
    (overload,) = dispatcher.overloads.values()  # type: ignore[attr-defined]
    return overload.symbol


def test_a_dropped_dispatcher_is_collected_and_its_code_unloaded() -> None:
    symbols, refs = [], []
    for k in range(20):
        f = jit(_scale, mode="compiled")
        assert f(float(k)) == 2.0 * k + 1.0
        symbols.append(_symbol(f))
        refs.append(weakref.ref(f))
        del f
    gc.collect()
    assert all(ref() is None for ref in refs)
    assert not any(machine_code.is_loaded(s) for s in symbols)
    assert all(machine_code.is_linked(s) for s in symbols)  # names are never reused


def test_a_live_caller_keeps_its_callee_loaded() -> None:
    global _callee
    _callee = jit(_fib, mode="compiled")
    assert _callee(10) == 55  # linked on its own, not in the caller's group
    caller = jit(_twice, mode="compiled")
    assert caller(15) == 2 * 610
    callee_symbol, caller_symbol = _symbol(_callee), _symbol(caller)
    refs = [weakref.ref(_callee), weakref.ref(caller)]
    (overload,) = caller.overloads.values()
    depends = machine_code.depends_of(overload.keep_alive.library)
    assert callee_symbol in {library.name for library in depends}
    del depends
    del overload
    _callee = None  # the caller's code calls it by address (its globals are compile-time)
    gc.collect()
    assert machine_code.is_loaded(callee_symbol)
    assert caller(16) == 2 * 987
    del caller
    gc.collect()
    assert all(ref() is None for ref in refs)
    assert not machine_code.is_loaded(caller_symbol)
    assert not machine_code.is_loaded(callee_symbol)


def test_code_with_frozen_arrays_stays_loaded() -> None:
    # the returned view points into the frozen array's copy in the library's data
    f = jit(_table_tail, mode="compiled")
    tail = f()
    assert not tail.flags.writeable
    symbol = _symbol(f)
    del f
    gc.collect()
    assert machine_code.is_loaded(symbol)
    np.testing.assert_array_equal(tail, [1.0, 2.0, 3.0, 4.0])
    g = jit(_greeting, mode="compiled")
    text = g(2)  # a new Python str: string constants pin nothing
    symbol = _symbol(g)
    del g
    gc.collect()
    assert not machine_code.is_loaded(symbol)
    assert text == "hellohello"


def test_cleared_code_stays_loaded_while_the_dispatcher_lives() -> None:
    f = jit(_scale, mode="compiled")
    assert f(1.0) == 3.0
    first = _symbol(f)
    f.clear()
    assert f(2.0) == 5.0
    gc.collect()
    assert machine_code.is_loaded(first)  # it may have been running when cleared
    del f
    gc.collect()
    assert not machine_code.is_loaded(first)
