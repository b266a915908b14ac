"""Jitted functions at module level, called from other jitted functions in the tests."""

from jitcore import jit

SCALE = 3
OFFSET = 0.5


@jit
def scale(x: float, factor: int = SCALE) -> float:
    return x * factor + OFFSET


@jit
def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@jit
def is_even(n: int) -> bool:
    if n == 0:
        return True
    return is_odd(n - 1)


@jit
def is_odd(n: int) -> bool:
    if n == 0:
        return False
    return is_even(n - 1)


@jit
def fact(n: int) -> float:
    if n <= 1:
        return 1.0
    return n * fact(n - 1)


@jit
def uses_keywords(x: float) -> float:
    return scale(factor=2, x=x) + scale(x)


@jit
def divides(a: int, b: int) -> int:
    return a // b


@jit
def propagates(a: int, b: int) -> int:
    return divides(a, b) + 1


@jit
def before(x: float, y: float) -> bool:
    return x < y or (y != y and x == x)


@jit
def total_to(n: int) -> int:
    s = 0
    for i in range(n):
        s += i
    return s


@jit
def guarded_div(a: int, b: int) -> int:
    try:
        return a // b
    except ZeroDivisionError:
        return 0


@jit
def checked_div(a: int, b: int) -> int:
    if b == 0:
        raise ZeroDivisionError("b is zero")
    return a // b
