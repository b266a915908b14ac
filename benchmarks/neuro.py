"""Models for `jitcore.Module` and `jitcore.run` (issue 16), each with a Numba twin.

* `HH`: a population of Hodgkin-Huxley neurons integrated by exponential Euler (the gating
  variables and the membrane potential are each linear in themselves over one step), with
  spike detection; BrainPy's classic HH example.
* `LIFNet`: leaky integrate-and-fire neurons with sparse random connectivity held as arrays
  (CSR: `indptr`, `indices`), spikes delivered by explicit loops over the synapses.
* `LogReg`: BrainPy's logistic-regression example (`w` a Variable, one gradient step a call).

The Numba versions (`hh_numba`, `lif_numba`, `logreg_numba`) are `@njit` loops written the same
way as the models' methods (array expressions where the model has them), since Numba has no
object mode for such classes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jitcore import Module, Variable

# --- Hodgkin-Huxley -------------------------------------------------------------------------


class HH(Module):
    """`n` Hodgkin-Huxley neurons; `update(I)` advances one step of `dt` ms with current I."""

    def __init__(self, n: int, dt: float = 0.01) -> None:
        self.ENa, self.EK, self.EL = 50.0, -77.0, -54.387
        self.gNa, self.gK, self.gL = 120.0, 36.0, 0.03
        self.C, self.V_th, self.dt = 1.0, 20.0, dt
        self.V = Variable(np.full(n, -65.0))
        self.m = Variable(np.full(n, 0.053))
        self.h = Variable(np.full(n, 0.596))
        self.n = Variable(np.full(n, 0.318))
        self.spike = Variable(np.zeros(n, dtype=np.bool_))
        self.t = Variable(0.0)

    def update(self, I):  # noqa: ANN001, ANN201, E741
        V = self.V.value
        dt = self.dt
        am = 0.1 * (V + 40.0) / (1.0 - np.exp(-(V + 40.0) / 10.0))
        bm = 4.0 * np.exp(-(V + 65.0) / 18.0)
        ah = 0.07 * np.exp(-(V + 65.0) / 20.0)
        bh = 1.0 / (1.0 + np.exp(-(V + 35.0) / 10.0))
        an = 0.01 * (V + 55.0) / (1.0 - np.exp(-(V + 55.0) / 10.0))
        bn = 0.125 * np.exp(-(V + 65.0) / 80.0)
        self.m.value = am / (am + bm) + (self.m - am / (am + bm)) * np.exp(-dt * (am + bm))
        self.h.value = ah / (ah + bh) + (self.h - ah / (ah + bh)) * np.exp(-dt * (ah + bh))
        self.n.value = an / (an + bn) + (self.n - an / (an + bn)) * np.exp(-dt * (an + bn))
        gna = self.gNa * self.m**3 * self.h
        gk = self.gK * self.n**4
        g = (gna + gk + self.gL) / self.C
        v_inf = (gna * self.ENa + gk * self.EK + self.gL * self.EL + I) / self.C / g
        V_new = v_inf + (V - v_inf) * np.exp(-dt * g)
        self.spike.value = (V_new >= self.V_th) & (V < self.V_th)
        self.V.value = V_new
        self.t += dt


def hh_numba_factory() -> Any:
    """The HH loop under Numba's `njit` (imported lazily: Numba is an optional extra)."""
    import numba

    @numba.njit(cache=False)
    def hh_numba(V, m, h, n, I, n_steps, dt, spikes):  # noqa: ANN001, ANN202, E741
        ENa, EK, EL = 50.0, -77.0, -54.387
        gNa, gK, gL, C, V_th = 120.0, 36.0, 0.03, 1.0, 20.0
        for step in range(n_steps):
            am = 0.1 * (V + 40.0) / (1.0 - np.exp(-(V + 40.0) / 10.0))
            bm = 4.0 * np.exp(-(V + 65.0) / 18.0)
            ah = 0.07 * np.exp(-(V + 65.0) / 20.0)
            bh = 1.0 / (1.0 + np.exp(-(V + 35.0) / 10.0))
            an = 0.01 * (V + 55.0) / (1.0 - np.exp(-(V + 55.0) / 10.0))
            bn = 0.125 * np.exp(-(V + 65.0) / 80.0)
            m[:] = am / (am + bm) + (m - am / (am + bm)) * np.exp(-dt * (am + bm))
            h[:] = ah / (ah + bh) + (h - ah / (ah + bh)) * np.exp(-dt * (ah + bh))
            n[:] = an / (an + bn) + (n - an / (an + bn)) * np.exp(-dt * (an + bn))
            gna = gNa * m**3 * h
            gk = gK * n**4
            g = (gna + gk + gL) / C
            v_inf = (gna * ENa + gk * EK + gL * EL + I) / C / g
            V_new = v_inf + (V - v_inf) * np.exp(-dt * g)
            spikes[step] = (V_new >= V_th) & (V < V_th)
            V[:] = V_new

    return hh_numba


# --- LIF network with sparse connectivity ----------------------------------------------------


def sparse_connections(n: int, p: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Random connections i -> j with probability `p`, as CSR arrays (indptr, indices)."""
    rng = np.random.default_rng(seed)
    counts = rng.binomial(n, p, size=n)
    indptr = np.zeros(n + 1, dtype=np.int64)
    indptr[1:] = np.cumsum(counts)
    indices = np.concatenate([rng.choice(n, size=c, replace=False) for c in counts])
    return indptr, indices.astype(np.int64)


class LIFNet(Module):
    """`n` LIF neurons, 80% excitatory; a spike of neuron i kicks the conductance of every j
    it connects to by `w_exc` (or `w_inh` for inhibitory i); conductances decay with `tau_g`."""

    def __init__(self, n: int = 4000, p: float = 0.02, dt: float = 0.1, seed: int = 0) -> None:
        self.indptr, self.indices = sparse_connections(n, p, seed)
        self.n_exc = int(0.8 * n)
        self.w_exc, self.w_inh = 0.6, -6.7
        self.tau, self.tau_g, self.dt = 20.0, 5.0, dt
        self.V_rest, self.V_reset, self.V_th = -60.0, -60.0, -50.0
        rng = np.random.default_rng(seed + 1)
        self.V = Variable(rng.uniform(-60.0, -50.0, n))
        self.g = Variable(np.zeros(n))
        self.spike = Variable(np.zeros(n, dtype=np.bool_))

    def update(self, I):  # noqa: ANN001, ANN201, E741
        n = self.V.shape[0]
        for i in range(n):
            if self.spike[i]:
                w = self.w_exc if i < self.n_exc else self.w_inh
                for k in range(self.indptr[i], self.indptr[i + 1]):
                    self.g[self.indices[k]] += w
        self.V += self.dt / self.tau * (self.V_rest - self.V + self.g + I)
        self.g *= np.exp(-self.dt / self.tau_g)
        self.spike.value = self.V >= self.V_th
        self.V.value = np.where(self.spike, self.V_reset, self.V)


def lif_numba_factory() -> Any:
    import numba

    @numba.njit(cache=False)
    def lif_numba(V, g, spike, indptr, indices, n_exc, I, n_steps, dt, counts):  # noqa: ANN001, ANN202, E741
        w_exc, w_inh, tau, tau_g = 0.6, -6.7, 20.0, 5.0
        V_rest, V_reset, V_th = -60.0, -60.0, -50.0
        n = V.shape[0]
        for step in range(n_steps):
            for i in range(n):
                if spike[i]:
                    w = w_exc if i < n_exc else w_inh
                    for k in range(indptr[i], indptr[i + 1]):
                        g[indices[k]] += w
            V += dt / tau * (V_rest - V + g + I)
            g *= np.exp(-dt / tau_g)
            spike[:] = V >= V_th
            V[:] = np.where(spike, V_reset, V)
            counts[step] = spike.sum()

    return lif_numba


# --- logistic regression (BrainPy's example) -------------------------------------------------


class LogReg(Module):
    """BrainPy's logistic regression: one call is one gradient step of the weights `w`."""

    def __init__(self, X: np.ndarray, Y: np.ndarray) -> None:
        self.X, self.Y = X, Y
        self.w = Variable(2.0 * np.ones(X.shape[1]) - 1.3)

    def __call__(self):  # noqa: ANN204
        u = np.dot(
            ((1.0 / (1.0 + np.exp(-self.Y * np.dot(self.X, self.w))) - 1.0) * self.Y), self.X
        )
        self.w.value = self.w - u


def logreg_numba_factory() -> Any:
    """Numba's `np.dot` needs SciPy's BLAS (here only the optional extra `jitcore[linalg]`),
    so the two products are written as loops (the same arithmetic, one pass over X each)."""
    import numba

    @numba.njit(cache=False)
    def logreg_numba(X, Y, w, n_iter):  # noqa: ANN001, ANN202
        n, d = X.shape
        for _ in range(n_iter):
            u = np.zeros(d)
            for i in range(n):
                z = 0.0
                for j in range(d):
                    z += X[i, j] * w[j]
                c = (1.0 / (1.0 + np.exp(-Y[i] * z)) - 1.0) * Y[i]
                for j in range(d):
                    u[j] += c * X[i, j]
            w[:] = w - u

    return logreg_numba
