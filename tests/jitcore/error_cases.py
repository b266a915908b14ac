"""Functions jitcore must reject, each with a known line and column (tests check the caret)."""

import numpy as np


def uses_with(path):  # noqa: ANN001, ANN201
    with open(path) as f:  # line 7, col 4
        return f.read()


def uses_try(x):  # noqa: ANN001, ANN201
    try:  # line 12
        return 1 / x
    except np.linalg.LinAlgError:  # line 14, col 11: not a built-in exception
        return 0.0


def uses_list(n):  # noqa: ANN001, ANN201
    xs = [*(n, n + 1)]  # line 19, col 9
    return xs


def uses_comprehension(n):  # noqa: ANN001, ANN201
    return sum([*range(n)])  # line 24, col 15


def uses_string(n):  # noqa: ANN001, ANN201
    return b"%d" % n  # line 28, col 12: bytes are not supported


def conflicting_types(n):  # noqa: ANN001, ANN201
    if n > 0:
        r = n
    else:
        r = (n, -n)  # line 35
    return r


def returns_two_types(n):  # noqa: ANN001, ANN201
    if n > 0:
        return 1.5
    return (n, n)  # line 42


def calls_unsupported(x):  # noqa: ANN001, ANN201
    return np.linalg.tensorinv(x)  # line 46, col 11


def undefined_name(x):  # noqa: ANN001, ANN201
    return x + not_defined_anywhere  # noqa: F821 - line 50, col 15


def unbound_local(n):  # noqa: ANN001, ANN201
    if n > 0:
        y = 1
    return y  # noqa: F821 - line 56


class Holder:
    def method(self, x):  # noqa: ANN001, ANN201
        def nested(y):  # noqa: ANN001, ANN202
            return [*y]  # line 62, col 19

        return nested(x)


def nested_in_method():  # noqa: ANN201
    return Holder().method.__code__


def yields(n):  # noqa: ANN001, ANN201
    yield n  # line 72
