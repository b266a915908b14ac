"""Library kernels for `npmore` (see `npkernels`): the log and geometric spaces, `meshgrid`,
`vander`, `polyval`, `trapezoid`, `cov` and `corrcoef`. Each follows NumPy's own algorithm
where the order of floating-point operations shows in the result; the rules in `npmore` pick
NumPy's dtypes and pass arguments already converted to them.
"""

from __future__ import annotations

import numpy as np

from jitcore.lib.npkernels import pairwise_sum
from jitcore.lib.registry import library_kernel as _lib

# --- spaces -----------------------------------------------------------------------------------


@_lib
def logspace_k(start, stop, num, endpoint, base):  # noqa: ANN001, ANN201
    """NumPy's logspace: `power(base, linspace(start, stop, num))`; start and stop come in the
    dtype NumPy's linspace computes in, base in the result's dtype."""
    if endpoint:
        y = np.linspace(start, stop, num)
    else:
        y = np.linspace(start, stop, num, endpoint=False)
    return np.power(base, y)


@_lib
def geomspace_k(start, stop, num, endpoint):  # noqa: ANN001, ANN201
    """NumPy's geomspace of float64 ends: rotated to a positive start, a logspace of their
    log10s with the ends put back exactly, rotated back."""
    if start == 0 or stop == 0:
        raise ValueError("Geometric sequence cannot include zero")
    out_sign = np.sign(start)
    start = start / out_sign
    stop = stop / out_sign
    result = logspace_k(np.log10(start), np.log10(stop), num, endpoint, np.float64(10.0))
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[result.shape[0] - 1] = stop
    for i in range(result.shape[0]):
        result[i] = result[i] * out_sign
    return result


# --- meshgrid, vander ---------------------------------------------------------------------------


@_lib
def meshgrid2(x, y, xy):  # noqa: ANN001, ANN201
    """Copies of 1-D x and y broadcast against each other: shape (len(y), len(x)) for 'xy'
    indexing, (len(x), len(y)) for 'ij'."""
    nx, ny = x.shape[0], y.shape[0]
    if xy:
        gx = np.empty((ny, nx), x.dtype)
        gy = np.empty((ny, nx), y.dtype)
        for i in range(ny):
            for j in range(nx):
                gx[i, j] = x[j]
                gy[i, j] = y[i]
    else:
        gx = np.empty((nx, ny), x.dtype)
        gy = np.empty((nx, ny), y.dtype)
        for i in range(nx):
            for j in range(ny):
                gx[i, j] = x[i]
                gy[i, j] = y[j]
    return gx, gy


@_lib
def meshgrid3(x, y, z, xy):  # noqa: ANN001, ANN201
    """As `meshgrid2` for three vectors: shape (len(y), len(x), len(z)) for 'xy' indexing,
    (len(x), len(y), len(z)) for 'ij'."""
    nx, ny, nz = x.shape[0], y.shape[0], z.shape[0]
    n0, n1 = (ny, nx) if xy else (nx, ny)
    gx = np.empty((n0, n1, nz), x.dtype)
    gy = np.empty((n0, n1, nz), y.dtype)
    gz = np.empty((n0, n1, nz), z.dtype)
    for i in range(n0):
        for j in range(n1):
            for k in range(nz):
                if xy:
                    gx[i, j, k] = x[j]
                    gy[i, j, k] = y[i]
                else:
                    gx[i, j, k] = x[i]
                    gy[i, j, k] = y[j]
                gz[i, j, k] = z[k]
    return gx, gy, gz


@_lib
def vander_k(x, n, increasing, out_proto):  # noqa: ANN001, ANN201
    """NumPy's vander: columns of powers of x (in out_proto's dtype), each the previous one
    times x (multiply.accumulate), the highest power first unless increasing."""
    m = x.shape[0]
    v = np.empty((m, n), out_proto.dtype)
    for i in range(m):
        xi = out_proto.dtype.type(x[i])
        p = out_proto.dtype.type(1)
        for j in range(n):
            col = j if increasing else n - 1 - j
            if j == 1:
                p = xi
            elif j > 1:
                p = p * xi
            v[i, col] = p
    return v


# --- polynomials and integration ----------------------------------------------------------------


@_lib
def polyval_k(p, x, out):  # noqa: ANN001, ANN201
    """Horner's rule as NumPy's polyval runs it: y = 0 in x's dtype, then y = y * x + c for
    each coefficient (the first product still in x's dtype); `out` (flat, in the result's
    dtype) receives each y."""
    zero = x.dtype.type(0)
    for i in range(x.shape[0]):
        xi = x[i]
        if p.shape[0] == 0:
            out[i] = zero
        else:
            y = out.dtype.type(zero * xi) + out.dtype.type(p[0])
            xo = out.dtype.type(xi)
            for k in range(1, p.shape[0]):
                y = y * xo + out.dtype.type(p[k])
            out[i] = y
    return out


@_lib
def trapezoid_dx(y, d, two, proto):  # noqa: ANN001, ANN201
    """NumPy's trapezoid of 1-D y with a constant spacing: sum(d * (y[1:] + y[:-1]) / 2.0),
    each step in NumPy's dtypes (d and two come in them, proto has the terms' dtype), summed
    pairwise as NumPy sums."""
    m = y.shape[0] - 1
    if m < 0:
        m = 0
    terms = np.empty(m, proto.dtype)
    for i in range(m):
        terms[i] = d * (y[i + 1] + y[i]) / two
    return np.sum(terms)


@_lib
def trapezoid_x(y, x, two, product, proto):  # noqa: ANN001, ANN201
    """NumPy's trapezoid of 1-D y over sample points x: the spacing diff(x) (of booleans: their
    inequality) broadcast against y[1:] + y[:-1] (either may be of length 1), multiplied in
    product's dtype."""
    m = y.shape[0] - 1
    if m < 0:
        m = 0
    d = np.diff(x)
    k = d.shape[0]
    if k != m and k != 1 and m != 1:
        raise ValueError("operands could not be broadcast together")
    n = m if k == 1 else k
    terms = np.empty(n, proto.dtype)
    for i in range(n):
        j = 0 if k == 1 else i
        h = 0 if m == 1 else i
        s = product.dtype.type(y[h + 1] + y[h])
        terms[i] = product.dtype.type(d[j]) * s / two
    return np.sum(terms)


# --- covariance and correlation -------------------------------------------------------------


@_lib
def cov_k(m, rowvar, ddof, pairwise):  # noqa: ANN001, ANN201
    """NumPy's cov of the 2-D m (variables in rows when rowvar) in float64: the row means
    (pairwise sums when NumPy's copy holds the observations contiguously, else summed in
    order as its strided reduction does), the centered rows' products, times 1 / (n - ddof)
    (infinity when that is not positive)."""
    if rowvar:
        nvar, n = m.shape
    else:
        n, nvar = m.shape
    x = np.empty((nvar, n), np.float64)
    for i in range(nvar):
        for k in range(n):
            if rowvar:
                x[i, k] = m[i, k]
            else:
                x[i, k] = m[k, i]
    if nvar == 0:
        return np.empty((0, 0), np.float64)
    for i in range(nvar):
        if pairwise or n == 0:
            s = pairwise_sum(x[i], 0, n)
        else:
            s = x[i, 0]
            for k in range(1, n):
                s += x[i, k]
        avg = s / n
        for k in range(n):
            x[i, k] = x[i, k] - avg
    fact = np.float64(n - ddof)
    if n - ddof <= 0:
        fact = np.float64(0.0)
    c = np.dot(x, x.T)
    scale = np.float64(1.0) / fact
    for i in range(nvar):
        for j in range(nvar):
            c[i, j] = c[i, j] * scale
    return c


@_lib
def corrcoef_k(c):  # noqa: ANN001, ANN201
    """NumPy's corrcoef from the covariance matrix c (in place): divided by the standard
    deviations of the rows, then of the columns, clipped to [-1, 1] (NaN stays)."""
    n = c.shape[0]
    stddev = np.empty(n, np.float64)
    for i in range(n):
        stddev[i] = np.sqrt(c[i, i])
    for i in range(n):
        for j in range(n):
            v = c[i, j] / stddev[i]
            v = v / stddev[j]
            if v < -1.0:
                v = np.float64(-1.0)
            elif v > 1.0:
                v = np.float64(1.0)
            c[i, j] = v
    return c
