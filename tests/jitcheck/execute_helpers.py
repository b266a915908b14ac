"""A jitted callee that test_execute's caller reaches as a module attribute."""

from jitcore import jit


@jit(mode="compiled")
def square(x: int) -> int:
    return x * x
