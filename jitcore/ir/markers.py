"""Values that several stages agree on, kept below all of them so none imports another for them.

`MISSING` means "no compile-time value": an unbound free name (`parse`), a variable read before
assignment (`ssa`), an operand whose value is not known (`typeinfer`, `lib`, `optimize`).

The marker functions are what `ssa` emits as calls for the implicit steps of Python's loops and
assignments; `jitcore.lib.builtins` registers their typing rules and emitters, and `bce` reads
them to prove indices in range. They are plain Python, so an IR interpreter (or the Python
mode) could run them, and they never reach the user. They print as `@range_bounds` etc.
"""

from __future__ import annotations

MISSING: object = object()


def range_bounds(start: int, stop: int, step: int) -> tuple[int, int, int]:
    """range(start, stop, step) evaluated once: ValueError on a zero step, as Python does."""
    if step == 0:
        raise ValueError("range() arg 3 must not be zero")
    return start, stop, step


def range_more(i: int, stop: int, step: int) -> bool:
    """True while the range loop has another element."""
    return i < stop if step > 0 else i > stop


def reduction_identity(seed: object, value: int) -> object:
    """`value` (0 or 1) as a number of `seed`'s type: the start of each chunk of a `prange`
    reduction (`parallel.outline`). A bool accumulator starts from False (or True for `*`),
    which keeps `hit += a[i] > t` a NumPy bool as the serial loop does; an int literal there
    made it int64."""
    if isinstance(seed, bool):
        return bool(value)
    return type(seed)(value)  # type: ignore[call-arg]


def reduction_seed(seed: object) -> object:
    """The value a `prange` reduction such as `m = min(m, x)` starts each chunk from: the
    value before the loop (typing refuses an array there, as `reduction_identity` does)."""
    return seed


def range_count(start: int, stop: int, step: int) -> int:
    """How many items range(start, stop, step) has (CPython's range length, computed in
    unsigned arithmetic so no step overflows). A loop counts its items from 0 to this when the
    step is not +-1: adding a large step to the last item could wrap past `stop`. Saturates at
    2**63 - 1, a count no loop finishes."""
    if step > 0:
        n = (stop - start - 1) // step + 1 if start < stop else 0
    else:
        n = (start - stop - 1) // -step + 1 if start > stop else 0
    return min(n, 2**63 - 1)


def range_item(start: int, k: int, step: int) -> int:
    """The k-th item of range(start, stop, step), for 0 <= k < range_count(...)."""
    return start + k * step


def check_bound(defined: bool, name: str) -> None:
    """Reading a local variable on a path where it was never assigned."""
    if not defined:
        raise UnboundLocalError(f"cannot access local variable {name!r}")


def check_unpack(value: object, n: int) -> None:
    """Tuple unpacking: the lengths must match (checked at compile time for tuples)."""
    if len(value) != n:  # type: ignore[arg-type]
        raise ValueError(f"expected {n} values to unpack")


def flat_get(a, i):  # noqa: ANN001, ANN201
    """`a.flat[i]`: `ssa` indexes `.flat` through these (it is no value of its own)."""
    return a.flat[i]


def flat_set(a, i, value) -> None:  # noqa: ANN001
    """`a.flat[i] = value`."""
    a.flat[i] = value


def ndindex_count(shape) -> int:  # noqa: ANN001
    """How many index tuples `for idx in np.ndindex(shape)` visits."""
    count = 1
    for n in shape if isinstance(shape, tuple) else (shape,):
        if n < 0:
            raise ValueError("negative dimensions are not allowed")
        count *= n
    return count


def ndindex_item(shape, k: int) -> tuple[int, ...]:  # noqa: ANN001
    """The k-th index tuple of `np.ndindex(shape)` (C order)."""
    import numpy as np  # noqa: PLC0415

    return tuple(int(x) for x in np.unravel_index(k, shape))


def formatted_exception(exc: type, template: str, style: int, *values: object) -> object:
    """`raise exc(<formatted message>)`: the exception descriptor compiled code raises
    (`jitcore.runtime.excring`); style 1 is `template.format(*values)`, 2 `template % values`."""
    raise AssertionError("formatted exceptions exist only in compiled code")


MARKERS = (
    formatted_exception,
    range_bounds,
    range_more,
    range_count,
    range_item,
    check_bound,
    check_unpack,
    flat_get,
    flat_set,
    ndindex_count,
    ndindex_item,
)
for _marker in MARKERS:
    _marker.__jitcore_builtin__ = _marker.__name__  # type: ignore[union-attr]
