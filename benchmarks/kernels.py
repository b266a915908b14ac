"""The bundled kernels: plain Python and NumPy as a user writes them, each under `@jit`.

Parameters are annotated (`float`, `int`, `Array[dtype, ndim]`) so that jitcheck can derive
inputs for a differential test. Each kernel has an input builder `<kernel>_inputs(n)` that
returns the argument tuple for a problem of size `n` (what `n` means is in its docstring);
builders use a fixed seed, so every implementation of a kernel sees the same data.

Where an int parameter sets the amount of work or memory (`fib(n)`, `sieve(n)`, iteration
counts), `@jitcheck` bounds it: an arbitrary int64 would never finish. Where arrays are used
together, `@jitcheck(shapes=...)` couples their shapes: independently drawn shapes make the
Python reference raise on most examples, and comparing two identical errors proves little.

Kernels that write into an argument (`gelu_loop`, `mandelbrot`, `nbody_step`, `logreg_step`)
do so on purpose: writing into a caller's array is how NumPy users avoid allocation.
"""

from __future__ import annotations

import math
from math import pi, sqrt

import numpy as np
from hypothesis import strategies as st

from jitcheck.decorator import jitcheck
from jitcore import Array, jit

Vector = Array[np.float64, 1]
Matrix = Array[np.float64, 2]

# Gravitational softening of `nbody_step`: keeps close encounters (and i == j) finite.
SOFTENING = 1e-3


# Bounds for the differential tester: small enough to run fast, negative to reach error paths.
SMALL = st.integers(-3, 22)
MEDIUM = st.integers(-3, 10_000)


def _rng(n: int) -> np.random.Generator:
    """The same data for the same size, whichever implementation asks."""
    return np.random.default_rng(12345 + n)


# --- scalar kernels: compile today --------------------------------------------------------


@jit
def add(a: float, b: float) -> float:
    """Almost no work: timing it measures the cost of one call through the dispatcher."""
    return a + b


def add_inputs(n: int) -> tuple[float, float]:
    """Two floats; `n` is ignored (the work does not scale)."""
    return (1.5, float(n))


@jitcheck(n=SMALL)
@jit
def fib(n: int) -> int:
    """The n-th Fibonacci number by naive recursion: call overhead in compiled code."""
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def fib_inputs(n: int) -> tuple[int]:
    """`fib(n)`."""
    return (n,)


@jitcheck(n_terms=MEDIUM)
@jit
def leibniz_pi(n_terms: int) -> float:
    """pi from the first `n_terms` terms of the Leibniz series: a scalar loop with a sign flip."""
    total = 0.0
    sign = 1.0
    for k in range(n_terms):
        total += sign / (2 * k + 1)
        sign = -sign
    return 4.0 * total


def leibniz_pi_inputs(n: int) -> tuple[int]:
    """`n` terms of the series."""
    return (n,)


@jitcheck(max_iter=st.integers(-3, 300))
@jit
def mandel_point(cr: float, ci: float, max_iter: int) -> int:
    """Escape time of c = cr + i*ci: the iteration at which |z| > 2, else `max_iter`."""
    zr = 0.0
    zi = 0.0
    for i in range(max_iter):
        zr2 = zr * zr
        zi2 = zi * zi
        if zr2 + zi2 > 4.0:
            return i
        zi = 2.0 * zr * zi + ci
        zr = zr2 - zi2 + cr
    return max_iter


def mandel_point_inputs(n: int) -> tuple[float, float, int]:
    """A point inside the set, so all `n` iterations run."""
    return (-0.5, 0.25, n)


# --- array kernels: loops ------------------------------------------------------------------


@jit
def count_thresh(a: Vector, thresh: float) -> int:
    """How many elements of `a` exceed `thresh`: a branch per element, no arithmetic."""
    count = 0
    for x in a:
        if x > thresh:
            count += 1
    return count


def count_thresh_inputs(n: int) -> tuple[np.ndarray, float]:
    """`n` standard normal samples and a threshold that about 30% of them exceed."""
    return (_rng(n).standard_normal(n), 0.5)


@jit
def sum_loop(a: Vector) -> float:
    """The sum of `a`, left to right: a loop-carried dependency on one accumulator."""
    total = 0.0
    for x in a:
        total += x
    return total


def sum_loop_inputs(n: int) -> tuple[np.ndarray]:
    """`n` uniform samples in [0, 1)."""
    return (_rng(n).random(n),)


@jitcheck(shapes="a:(n,) b:(n,)")
@jit
def dot_loop(a: Vector, b: Vector) -> float:
    """The dot product of `a` and `b` by an index loop."""
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i] * b[i]
    return total


def dot_loop_inputs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Two vectors of `n` uniform samples."""
    rng = _rng(n)
    return (rng.random(n), rng.random(n))


@jit
def prefix_sum(a: Vector) -> Vector:
    """The running sums of `a` in a new array, as `np.cumsum(a)` computes them."""
    out = np.empty_like(a)
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i]
        out[i] = total
    return out


def prefix_sum_inputs(n: int) -> tuple[np.ndarray]:
    """`n` uniform samples."""
    return (_rng(n).random(n),)


@jitcheck(shapes="x:(n,) out:(n,)")
@jit
def gelu_loop(x: Vector, out: Vector) -> None:
    """GELU (tanh approximation) of each element of `x`, written into `out`."""
    for i in range(x.shape[0]):
        xi = x[i]
        out[i] = 0.5 * xi * (1.0 + math.tanh(sqrt(2 / pi) * (xi + 0.044715 * xi**3)))


def gelu_loop_inputs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """`n` standard normal samples and an output array of the same size."""
    return (_rng(n).standard_normal(n), np.zeros(n))


@jitcheck(max_iter=st.integers(-3, 50))
@jit
def mandelbrot(
    out: Array[np.int64, 2], x0: float, x1: float, y0: float, y1: float, max_iter: int
) -> None:
    """Escape times of the grid [x0, x1) x [y0, y1) sampled at `out`'s shape, into `out`."""
    height, width = out.shape
    for i in range(height):
        ci = y0 + (y1 - y0) * i / height
        for j in range(width):
            cr = x0 + (x1 - x0) * j / width
            out[i, j] = mandel_point(cr, ci, max_iter)


def mandelbrot_inputs(n: int) -> tuple[np.ndarray, float, float, float, float, int]:
    """An n x n grid over the whole set, 100 iterations."""
    return (np.zeros((n, n), dtype=np.int64), -2.0, 1.0, -1.5, 1.5, 100)


@jitcheck(shapes="pos:(n,3) vel:(n,3) mass:(n,)")
@jit
def nbody_step(pos: Matrix, vel: Matrix, mass: Vector, dt: float) -> None:
    """One step of n gravitating bodies (G = 1, softened): kick every velocity, then drift."""
    n = pos.shape[0]
    for i in range(n):
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(n):
            dx = pos[j, 0] - pos[i, 0]
            dy = pos[j, 1] - pos[i, 1]
            dz = pos[j, 2] - pos[i, 2]
            r2 = dx * dx + dy * dy + dz * dz + SOFTENING
            scale = mass[j] / (r2 * math.sqrt(r2))
            ax += dx * scale
            ay += dy * scale
            az += dz * scale
        vel[i, 0] += dt * ax
        vel[i, 1] += dt * ay
        vel[i, 2] += dt * az
    for i in range(n):
        pos[i, 0] += dt * vel[i, 0]
        pos[i, 1] += dt * vel[i, 1]
        pos[i, 2] += dt * vel[i, 2]


def nbody_step_inputs(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """`n` bodies in the unit cube, small random velocities and masses, dt = 1e-3."""
    rng = _rng(n)
    pos = rng.random((n, 3))
    vel = 0.01 * rng.standard_normal((n, 3))
    mass = rng.random(n) / n
    return (pos, vel, mass, 1e-3)


@jit
def pairwise_distances(X: Matrix) -> Matrix:
    """Euclidean distances between all pairs of rows of `X`."""
    n, d = X.shape
    D = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            s = 0.0
            for k in range(d):
                t = X[i, k] - X[j, k]
                s += t * t
            D[i, j] = np.sqrt(s)
    return D


def pairwise_distances_inputs(n: int) -> tuple[np.ndarray]:
    """`n` points in three dimensions."""
    return (_rng(n).random((n, 3)),)


@jitcheck(shapes="A:(n,m) B:(m,p)")
@jit
def matmul(A: Matrix, B: Matrix) -> Matrix:
    """The matrix product by the textbook i-j-k loops (no blocking, no BLAS)."""
    n, m = A.shape
    p = B.shape[1]
    C = np.zeros((n, p))
    for i in range(n):
        for j in range(p):
            s = 0.0
            for k in range(m):
                s += A[i, k] * B[k, j]
            C[i, j] = s
    return C


def matmul_inputs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Two n x n matrices."""
    rng = _rng(n)
    return (rng.random((n, n)), rng.random((n, n)))


@jitcheck(n=MEDIUM)
@jit
def sieve(n: int) -> int:
    """How many primes are <= n, by the sieve of Eratosthenes on a boolean array."""
    if n < 2:
        return 0
    is_prime = np.ones(n + 1, dtype=np.bool_)
    count = 0
    for i in range(2, n + 1):
        if is_prime[i]:
            count += 1
            for j in range(i * i, n + 1, i):
                is_prime[j] = False
    return count


def sieve_inputs(n: int) -> tuple[int]:
    """Primes up to `n`."""
    return (n,)


# --- array kernels: array expressions ------------------------------------------------------


# NumPy's tanh and a compiled one may differ by an ulp, which 1 + tanh(x) near -1 magnifies.
@jitcheck(rtol=1e-12, atol=1e-12)
@jit
def gelu(x: Vector) -> Vector:
    """GELU (tanh approximation) as one array expression: a candidate for loop fusion."""
    return 0.5 * x * (1 + np.tanh(sqrt(2 / pi) * (x + 0.044715 * x**3)))


def gelu_inputs(n: int) -> tuple[np.ndarray]:
    """`n` standard normal samples."""
    return (_rng(n).standard_normal(n),)


@jitcheck(shapes="a:(n,) b:(n,) c:(n,)")
@jit
def fused(a: Vector, b: Vector, c: Vector) -> Vector:
    """`0.5*a + 0.5*b*c`: NumPy makes three temporaries, a fused loop makes none."""
    return 0.5 * a + 0.5 * b * c


def fused_inputs(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Three vectors of `n` uniform samples."""
    rng = _rng(n)
    return (rng.random(n), rng.random(n), rng.random(n))


# np.dot sums in an order of its own (BLAS blocks and vectorizes), so near overflow one order
# reaches inf where another does not: elements stay well inside the float range. Timing takes
# the real problem's shape (many samples, 10 features), which the coupled shapes would not give.
@jitcheck(
    rtol=1e-9,
    shapes="X:(n,d) Y:(n,) w:(d,)",
    X=st.floats(-1e6, 1e6),
    Y=st.floats(-1e6, 1e6),
    w=st.floats(-1e6, 1e6),
    bench_args=lambda: logreg_step_inputs(200_000),
)
@jit
def logreg_step(X: Matrix, Y: Vector, w: Vector) -> Vector:
    """One gradient step of logistic regression, updating the weights `w` in place."""
    w -= np.dot((1 / (1 + np.exp(-Y * np.dot(X, w))) - 1) * Y, X)
    return w


def logreg_step_inputs(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`n` samples of 10 features, labels +-1, and small initial weights."""
    rng = _rng(n)
    X = rng.standard_normal((n, 10))
    Y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    w = 1e-3 * rng.standard_normal(10)
    return (X, Y, w)


# --- memory: allocation in compiled code ---------------------------------------------------


@jitcheck(n=MEDIUM)
@jit
def alloc_temporary(n: int) -> float:
    """Create an n-element array, touch both ends, and drop it before returning."""
    a = np.empty(n)
    a[0] = 1.0
    a[n - 1] = 2.0
    return a[0] + a[n - 1]


@jitcheck(n=MEDIUM)
@jit
def alloc_returned(n: int) -> Vector:
    """Create an n-element array and hand it to the caller, who owns it from then on.

    Zeroed, not `np.empty`: a result must not depend on what the memory held before."""
    a = np.zeros(n)
    a[n - 1] = 2.0
    return a


def alloc_inputs(n: int) -> tuple[int]:
    """An array of `n` float64 (`n = 131072` is 1 MiB)."""
    return (n,)
