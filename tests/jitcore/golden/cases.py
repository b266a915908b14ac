"""Small functions whose stage output is kept as golden listings (one thing each)."""


def add(a, b):  # noqa: ANN001, ANN201
    return a + b


def branch(x):  # noqa: ANN001, ANN201
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y


def loop(n):  # noqa: ANN001, ANN201
    s = 0
    for i in range(n):
        s += i
    return s


def short_circuit(a, b):  # noqa: ANN001, ANN201
    return a > 0 and b > 0


def promote(n, x):  # noqa: ANN001, ANN201
    y = n
    if x > 1.0:
        y = x
    return y


def min_floordiv(a, b):  # noqa: ANN001, ANN201
    return min(a // b, 10)


def scale(a):  # noqa: ANN001, ANN201
    return a * 2.0


def total(a):  # noqa: ANN001, ANN201
    return a.sum()


def middle(a):  # noqa: ANN001, ANN201
    return a[1:-1]


def fused(a, b):  # noqa: ANN001, ANN201
    return 0.5 * a + b * b


def checked_index(a, i):  # noqa: ANN001, ANN201
    return a[i]


def stencil(a, b, out):  # noqa: ANN001, ANN201
    for i in range(1, a.shape[0] - 1):
        out[i] = a[i - 1] * b[i + 1]
    return out
