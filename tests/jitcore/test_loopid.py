"""Loop metadata (`jitcore.codegen.loopid`): jitcore's outermost loops are not runtime-unrolled,
loops inside them are left to LLVM, and nothing else about LLVM's loop optimizations changes."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from jitcore import jit
from tests.jitcore.support import ci_examples


@jit(mode="compiled")
def dot(a, b):
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i] * b[i]
    return total


@jit(mode="compiled")
def grid_sum(m):
    total = 0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            total += m[i, j]
    return total


@jit(mode="compiled")
def norm3(v):
    total = 0.0
    for k in range(3):
        total += v[k] * v[k]
    return total


def _loop_nodes(text: str) -> set[str]:
    """The `!llvm.loop` nodes the branches of `text` carry."""
    return set(re.findall(r"!llvm\.loop (![0-9]+)", text))


def test_an_outermost_loop_gets_a_node_without_runtime_unrolling() -> None:
    m = np.arange(6).reshape(2, 3)
    assert grid_sum(m) == grid_sum.py_func(m)
    text = grid_sum.inspect("codegen")
    nodes = _loop_nodes(text)
    assert len(nodes) == 1  # the outer loop; the inner one is LLVM's to unroll
    assert len(re.findall(r"!llvm\.loop ", text)) == 1
    for node in nodes:
        (definition,) = re.findall(rf"^{node} = distinct !{{ {node}, (.*) }}$", text, re.M)
        props = [re.search(rf"^{p} = (.*)$", text, re.M) for p in definition.split(", ")]
        assert any(p and "llvm.loop.unroll.runtime.disable" in p.group(1) for p in props)


def test_a_loop_of_unknown_trip_count_has_no_unrolled_remainder() -> None:
    a = np.arange(10.0)
    assert dot(a, a) == dot.py_func(a, a)
    optimized = dot.inspect("llvm-opt")
    assert _loop_nodes(optimized)
    assert ".epil" not in optimized and "unr-lcssa" not in optimized


def test_a_loop_of_known_trip_count_is_still_unrolled_whole() -> None:
    v = np.array([1.0, 2.0, 3.0])
    assert norm3(v) == norm3.py_func(v)
    kernel = norm3.inspect("llvm-opt").split("define ")[1]
    assert "!llvm.loop" not in kernel.split('.py"')[0]  # no loop left in the kernel


@ci_examples(40)
@given(
    a=arrays(np.float64, st.integers(0, 40), elements=st.floats(-1e6, 1e6)),
    data=st.data(),
)
def test_results_are_unchanged(a: np.ndarray, data: st.DataObject) -> None:
    b = data.draw(arrays(np.float64, a.shape, elements=st.floats(-1e6, 1e6)))
    assert dot(a, b) == dot.py_func(a, b)


@jit(mode="compiled")
def window_sums(a, m):
    out = np.empty(a.shape[0] - m + 1)
    for i in range(out.shape[0]):
        s = 0.0
        for k in range(m):
            s += a[i + k]
        out[i] = s
    return out


def test_an_inner_loop_is_left_to_llvm_which_unrolls_it() -> None:
    a = np.arange(12.0)
    np.testing.assert_array_equal(window_sums(a, 4), window_sums.py_func(a, 4))
    assert ".epil" in window_sums.inspect("llvm-opt")  # the remainder of a runtime unroll
