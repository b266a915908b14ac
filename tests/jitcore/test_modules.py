"""jitcore.Module, Variable and jitcore.run (issue 16): state in place, constants keyed by value,
sub-modules, the granularities and their fallbacks, monitors, memory, errors, pickling."""

from __future__ import annotations

import io
import pickle
import warnings

import numpy as np
import pytest

import jitcore
from jitcore import JitFallbackWarning, Module, UnsupportedError, Variable, jit, prange, runtime
from jitcore.lib.variables import DTYPE_MESSAGE, SHAPE_MESSAGE
from jitcore.runner import Runner


class Leaky(Module):
    """A leaky integrator population: Variables v (array), t (scalar), spike (bool)."""

    def __init__(self, n: int = 4, dt: float = 0.5) -> None:
        self.v = Variable(np.zeros(n))
        self.t = Variable(0.0)
        self.spike = Variable(np.zeros(n, dtype=np.bool_))
        self.steps = Variable(0)
        self.dt, self.tau, self.th = dt, 4.0, 1.0

    @jit(mode="compiled")
    def update(self, I):  # noqa: ANN001, ANN201, E741
        self.v += self.dt / self.tau * (I - self.v)
        self.spike.value = self.v > self.th
        self.v[:] = np.where(self.spike, 0.0, self.v)
        self.t += self.dt
        self.steps += 1
        return self.t


class Net(Module):
    """Two populations; the second is driven by the first's spikes."""

    def __init__(self) -> None:
        self.a = Leaky(3)
        self.b = Leaky(3, dt=0.25)
        self.gain = 5.0

    @jit(mode="compiled")
    def update(self, I):  # noqa: ANN001, ANN201, E741
        self.a.update(I)
        self.b.update(self.gain * self.a.spike + self.a.v)


def test_variables_are_updated_in_place_and_visible_from_python() -> None:
    m = Leaky()
    v, t = m.v.value, m.t.value
    assert m.update(np.full(4, 2.0)) == 0.5
    assert m.v.value is v and m.t.value is t  # the same arrays, written by native code
    np.testing.assert_array_equal(v, np.full(4, 0.25))
    assert float(m.t) == 0.5 and int(m.steps) == 1
    assert m.update.generated().dispatcher.signatures  # it really ran compiled


def test_a_changed_constant_recompiles() -> None:
    m = Leaky(dt=0.5)
    m.update(np.full(4, 2.0))
    m.dt = 1.0  # with the old value t would be 1.0 and v 0.25 + 0.125 * 1.75
    m.update(np.full(4, 2.0))
    assert float(m.t) == 1.5
    np.testing.assert_allclose(m.v.value, 0.25 + 0.25 * 1.75)
    keys = {g.key for g in jitcore.methods._SHARED[(Leaky.update.py_func, Leaky.update.options)]}
    assert len(keys) >= 2


def test_a_replaced_variable_recompiles_for_its_new_type() -> None:
    m = Leaky()
    m.update(np.ones(4))
    m.v = Variable(np.zeros(6, dtype=np.float32))  # another shape and dtype
    m.spike = Variable(np.zeros(6, dtype=np.bool_))
    m.update(np.full(6, 2.0, dtype=np.float32))
    assert m.v.dtype == np.float32
    np.testing.assert_allclose(m.v.value, np.full(6, 0.25))


def test_a_scalar_variable_that_becomes_an_array_recompiles() -> None:
    class Counter(Module):
        def __init__(self) -> None:
            self.c = Variable(0.0)

        @jit(mode="compiled")
        def bump(self):  # noqa: ANN202
            self.c += 1.0
            return self.c * 2.0

    m = Counter()
    assert m.bump() == 2.0
    m.c = Variable(np.zeros(2))
    np.testing.assert_array_equal(m.bump(), [2.0, 2.0])


def test_sub_modules_compile_with_their_own_constants() -> None:
    net, ref = Net(), Net()
    I = np.array([3.0, 0.5, 8.0])
    for _ in range(5):
        net.update(I)
        Net.update.py_func(ref, I)  # the original method: runs as Python with Variables
    for a, b in zip(net.variables().values(), ref.variables().values()):
        np.testing.assert_allclose(a.value, b.value)
    assert float(net.b.t) == 5 * 0.25 and float(net.a.t) == 5 * 0.5
    assert sorted(net.variables()) == sorted(
        f"{p}.{v}" for p in "ab" for v in ("v", "t", "spike", "steps")
    )


def test_jit_of_a_module_compiles_call() -> None:
    class Acc(Module):
        def __init__(self) -> None:
            self.total = Variable(np.zeros(2))
            self.k = 3

        def __call__(self, x):  # noqa: ANN001, ANN204
            self.total.value = self.total + self.k * x

    m = Acc()
    f = jit(m, mode="compiled")
    f(np.array([1.0, 2.0]))
    f(np.array([1.0, 2.0]))
    np.testing.assert_array_equal(m.total.value, [6.0, 12.0])


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        (np.zeros(3), ValueError, SHAPE_MESSAGE),
        (1.0, ValueError, SHAPE_MESSAGE),
        (np.zeros(4, dtype=np.complex128), TypeError, DTYPE_MESSAGE),
    ],
)
def test_whole_value_assignment_keeps_shape_and_dtype(
    value: object, error: type[Exception], message: str
) -> None:
    class Holder(Module):
        def __init__(self) -> None:
            self.w = Variable(np.zeros(4))

        @jit(mode="compiled")
        def set(self, x):  # noqa: ANN001, ANN202
            self.w.value = x

    m = Holder()
    with pytest.raises(error) as compiled:
        m.set(value)
    with pytest.raises(error) as python:
        m.w.value = value
    assert str(compiled.value) == str(python.value) == message
    m.set(np.arange(4))  # ints cast to the float Variable (same kind)
    np.testing.assert_array_equal(m.w.value, np.arange(4.0))


def test_assigning_a_constant_attribute_is_an_error_at_the_line() -> None:
    class Bad(Module):
        def __init__(self) -> None:
            self.dt = 0.1

        @jit(mode="compiled")
        def step(self):  # noqa: ANN202
            self.dt = 0.2

    with pytest.raises(UnsupportedError) as info:
        Bad().step()
    text = str(info.value)
    assert "test_modules.py" in text and "self.dt" in text and "Variable" in text


def _inputs(n_steps: int, n: int = 4) -> np.ndarray:
    return np.linspace(0.0, 3.0, n_steps * n).reshape(n_steps, n)


@pytest.mark.parametrize("mode", ["python", "step", "run", "auto"])
def test_monitors_record_every_step(mode: str) -> None:
    m = Leaky()
    I = _inputs(20)
    result = jitcore.run(m, 20, inputs={"I": I}, monitors=["v", "t", "spike"], mode=mode)
    assert result.mode == ("run" if mode == "auto" else mode)
    ref = Leaky()
    for i in range(20):
        Leaky.update.py_func(ref, I[i])
        np.testing.assert_allclose(result["v"][i], ref.v.value)
        assert result["t"][i] == float(ref.t)
        np.testing.assert_array_equal(result["spike"][i], ref.spike.value)
    assert result["spike"].any()  # the check is not vacuous
    np.testing.assert_allclose(m.v.value, ref.v.value)


def test_inputs_into_variables_and_constants() -> None:
    class Driven(Module):
        def __init__(self) -> None:
            self.x = Variable(np.zeros(2))
            self.drive = Variable(np.zeros(2))
            self.bias = Variable(0.0)

        def update(self, k):  # noqa: ANN001, ANN201
            self.x += self.drive * k + self.bias

    for mode in ("python", "step", "run"):
        m = Driven()
        drive = np.arange(10.0).reshape(5, 2)
        r = jitcore.run(
            m, 5, inputs={"drive": drive, "k": 2.0, "bias": 1.0}, monitors=["x"], mode=mode
        )
        np.testing.assert_allclose(r["x"][-1], 2.0 * drive.sum(axis=0) + 5.0, err_msg=mode)


def test_run_continues_from_the_current_state() -> None:
    m, ref = Leaky(), Leaky()
    I = _inputs(10)
    jitcore.run(m, 4, inputs={"I": I[:4]}, mode="run")
    jitcore.run(m, 6, inputs={"I": I[4:]}, mode="run")
    jitcore.run(ref, 10, inputs={"I": I}, mode="python")
    np.testing.assert_allclose(m.v.value, ref.v.value)
    assert float(m.t) == float(ref.t) == 5.0


class Unsupported(Module):
    def __init__(self) -> None:
        self.v = Variable(np.zeros(2))

    def update(self):  # noqa: ANN201
        with open("x"):  # noqa: PTH123 - not compilable
            pass


def test_auto_falls_back_to_python_with_warnings_that_say_why() -> None:
    m = Leaky()

    class Half(Leaky):
        def update(self, I):  # noqa: ANN001, ANN201, E741
            self.v += I
            with warnings.catch_warnings():  # not compilable
                pass

    m = Half()
    with pytest.warns(JitFallbackWarning) as caught:
        result = jitcore.run(m, 3, inputs={"I": np.ones((3, 4))}, mode="auto")
    assert result.mode == "python"
    texts = [str(w.message) for w in caught]
    assert any("the whole run could not be compiled" in t and "'step'" in t for t in texts)
    assert any("the step could not be compiled" in t and "'python'" in t for t in texts)
    assert all("with" in t for t in result.fallbacks)
    np.testing.assert_array_equal(m.v.value, np.full(4, 3.0))


def test_auto_falls_back_from_run_to_step(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise UnsupportedError("the loop cannot be compiled (planted)")

    monkeypatch.setattr(Runner, "_run_compiled", refuse)
    m = Leaky()
    with pytest.warns(JitFallbackWarning, match="planted"):
        result = jitcore.run(m, 3, inputs={"I": np.ones((3, 4))}, mode="auto")
    assert result.mode == "step" and float(m.t) == 1.5


def test_an_explicit_granularity_raises_instead_of_falling_back() -> None:
    with pytest.raises(UnsupportedError):
        jitcore.run(Unsupported(), 2, mode="run")
    with pytest.raises(UnsupportedError):
        jitcore.run(Unsupported(), 2, mode="step")


def test_memory_stays_flat_over_1e5_steps() -> None:
    m = Leaky(64)
    jitcore.run(m, 10, inputs={"I": 2.0}, mode="run")
    jitcore.run(m, 10, inputs={"I": 2.0}, mode="step")
    before = runtime.live_bytes(), runtime.live_blocks()
    jitcore.run(m, 100_000, inputs={"I": 2.0}, mode="run")
    jitcore.run(m, 10_000, inputs={"I": 2.0}, mode="step")
    assert (runtime.live_bytes(), runtime.live_blocks()) == before
    assert float(m.t) == pytest.approx(0.5 * 110_020)


def test_progress_bar_is_drawn_in_chunks() -> None:
    stream = io.StringIO()
    m = Leaky()
    result = jitcore.run(m, 500, inputs={"I": 2.0}, monitors=["t"], mode="run", progress=stream)
    text = stream.getvalue()
    assert "500/500 steps" in text and text.endswith("\n")
    np.testing.assert_allclose(result["t"], 0.5 * np.arange(1, 501))


def test_bad_arguments_of_run() -> None:
    with pytest.raises(ValueError, match="rows for 5 steps"):
        jitcore.run(Leaky(), 5, inputs={"I": np.ones((4, 4))})
    with pytest.raises(TypeError, match="not a Variable"):
        jitcore.run(Leaky(), 5, monitors=["dt"])
    with pytest.raises(ValueError, match="mode must be"):
        jitcore.run(Leaky(), 5, mode="fast")


def test_modules_pickle_with_their_variables() -> None:
    net = Net()
    net.update(np.array([3.0, 0.5, 8.0]))
    copy = pickle.loads(pickle.dumps(net))
    assert "_jitcore_methods" not in vars(copy)
    for a, b in zip(net.variables().values(), copy.variables().values()):
        np.testing.assert_array_equal(a.value, b.value)
    copy.update(np.ones(3))  # and it compiles again
    assert float(copy.a.t) == 1.0


def test_variable_behaves_like_its_array_in_python() -> None:
    v = Variable([1.0, 2.0])
    v += 1
    assert isinstance(v, Variable)
    np.testing.assert_array_equal(v * 2, [4.0, 6.0])
    np.testing.assert_array_equal(np.exp(v), np.exp([2.0, 3.0]))
    assert v.sum() == 5.0 and v.shape == (2,) and len(v) == 2
    with pytest.raises(TypeError, match="numbers"):
        Variable("text")


def test_a_constant_inside_a_plain_object_is_watched_too() -> None:
    from types import SimpleNamespace

    class Scaled(Module):
        def __init__(self) -> None:
            self.params = SimpleNamespace(gain=2.0)
            self.x = Variable(np.ones(2))

        @jit(mode="compiled")
        def step(self):  # noqa: ANN202
            self.x *= self.params.gain

    m = Scaled()
    m.step()
    m.params.gain = 3.0  # the same object holds a new value: the old code must not run
    m.step()
    np.testing.assert_array_equal(m.x.value, [6.0, 6.0])


def test_an_auto_method_that_cannot_compile_runs_as_python_with_a_warning() -> None:
    class Loose(Module):
        def __init__(self) -> None:
            self.x = Variable(np.zeros(2))

        @jit
        def step(self):  # noqa: ANN202
            self.x += 1.0
            with warnings.catch_warnings():  # not compilable
                pass

    m = Loose()
    with pytest.warns(JitFallbackWarning, match="with"):
        m.step()
    m.step()
    np.testing.assert_array_equal(m.x.value, [2.0, 2.0])


class ParallelTotal(Module):
    def __init__(self, n: int) -> None:
        self.x = Variable(np.ones(n))
        self.total = Variable(0.0)

    @jit(mode="compiled", parallel=True)
    def update(self):  # noqa: ANN201
        for i in prange(self.x.shape[0]):
            self.total += self.x[i]


class ParallelLocalTotal(ParallelTotal):
    @jit(mode="compiled", parallel=True)
    def update(self):  # noqa: ANN201
        s = 0.0
        for i in prange(self.x.shape[0]):
            s += self.x[i]
        self.total += s


def test_a_prange_reduction_into_a_scalar_variable_is_refused_with_the_way_out() -> None:
    """Each thread's updates of `self.total` were lost (0.0 for 1000.0): refused; a local
    reduction then one update works."""
    with pytest.raises(UnsupportedError, match="local variable"):
        ParallelTotal(1000).update()
    m = ParallelLocalTotal(1000)
    m.update()
    assert float(m.total.value) == 1000.0
