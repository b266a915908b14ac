"""NumPy versions of the loop kernels, with the same signatures as the kernels they mirror.

They serve twice: `test_reference.py` checks each kernel's Python version against them, and the
benchmarks time them as the "NumPy" implementation, the speed a NumPy user has without a JIT.
Array-expression kernels (`gelu`, `fused`, `logreg_step`) are NumPy code already and have no
entry here. These functions are deliberately not jitted: jitcheck must not collect them.
"""

from __future__ import annotations

import numpy as np

from benchmarks.kernels import SOFTENING


def count_thresh(a: np.ndarray, thresh: float) -> int:
    return int(np.count_nonzero(a > thresh))


def sum_loop(a: np.ndarray) -> float:
    return float(np.sum(a))


def dot_loop(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b))


def prefix_sum(a: np.ndarray) -> np.ndarray:
    return np.cumsum(a)


def gelu_loop(x: np.ndarray, out: np.ndarray) -> None:
    out[:] = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))


def mandelbrot(out: np.ndarray, x0: float, x1: float, y0: float, y1: float, max_iter: int) -> None:
    """Iterate every point at once, masking the escaped ones; the same arithmetic in the same
    order as `mandel_point`, so the escape times are identical, not just close."""
    height, width = out.shape
    cr = (x0 + (x1 - x0) * np.arange(width) / width)[np.newaxis, :]
    ci = (y0 + (y1 - y0) * np.arange(height) / height)[:, np.newaxis]
    zr = np.zeros(out.shape)
    zi = np.zeros(out.shape)
    out[:] = max_iter
    running = np.ones(out.shape, dtype=np.bool_)
    with np.errstate(over="ignore", invalid="ignore"):  # escaped points may overflow: unused
        for i in range(max_iter):
            zr2 = zr * zr
            zi2 = zi * zi
            escaped = running & (zr2 + zi2 > 4.0)
            out[escaped] = i
            running &= ~escaped
            zi = 2.0 * zr * zi + ci
            zr = zr2 - zi2 + cr


def nbody_step(pos: np.ndarray, vel: np.ndarray, mass: np.ndarray, dt: float) -> None:
    delta = pos[np.newaxis, :, :] - pos[:, np.newaxis, :]  # delta[i, j] = pos[j] - pos[i]
    r2 = np.einsum("ijk,ijk->ij", delta, delta) + SOFTENING
    scale = mass[np.newaxis, :] / (r2 * np.sqrt(r2))
    vel += dt * np.einsum("ijk,ij->ik", delta, scale)
    pos += dt * vel


def pairwise_distances(X: np.ndarray) -> np.ndarray:
    delta = X[:, np.newaxis, :] - X[np.newaxis, :, :]
    return np.sqrt(np.einsum("ijk,ijk->ij", delta, delta))


def matmul(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    return A @ B


def sieve(n: int) -> int:
    if n < 2:
        return 0
    is_prime = np.ones(n + 1, dtype=np.bool_)
    is_prime[:2] = False
    for i in range(2, int(n**0.5) + 1):
        if is_prime[i]:
            is_prime[i * i :: i] = False
    return int(np.count_nonzero(is_prime))


def leibniz_pi(n_terms: int) -> float:
    k = np.arange(n_terms)
    return float(4.0 * np.sum(np.where(k % 2 == 0, 1.0, -1.0) / (2 * k + 1)))
