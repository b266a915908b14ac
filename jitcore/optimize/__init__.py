"""Stage `optimize`: typed IR -> typed IR, through named passes run by a pass manager.

`PASSES` writes the order once. Each pass is a function `(ir.Function) -> bool` (True if it
changed something). The manager times every pass, can skip any by name (`jit(disable_passes=)`
or `JITCORE_DISABLE_PASSES`), verifies the IR after each when debugging, keeps each pass's
output text for `inspect()`, and can stop after pass N, so a wrong result bisects to one pass.
Users and tests add passes with `register_pass`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from jitcore.ir import nodes as ir
from jitcore.ir.clone import clone_function
from jitcore.ir.printer import print_ir
from jitcore.ir.verify import verify
from jitcore.optimize.bce import eliminate_bounds_checks
from jitcore.optimize.boundscheck import drop_bounds_checks
from jitcore.optimize.constfold import fold_constants
from jitcore.optimize.copyprop import propagate_copies
from jitcore.optimize.cse import eliminate_common_subexpressions
from jitcore.optimize.dce import eliminate_dead_code
from jitcore.optimize.fusion import fuse_elementwise
from jitcore.optimize.inline import inline_small_callees
from jitcore.optimize.licm import hoist_loop_invariants
from jitcore.optimize.nowrap import drop_index_wrapping
from jitcore.optimize.simplifycfg import simplify_cfg


@dataclass(frozen=True)
class Pass:
    name: str
    run: Callable[[ir.Function], bool]
    description: str = ""
    # An optional pass runs only when asked for (`run_passes(enabled=...)`), as `noboundscheck`
    # runs only for `boundscheck=False`.
    optional: bool = False


PASSES: tuple[Pass, ...] = (
    # First, so that it sees only the function's own indices, not those of inlined callees.
    Pass(
        "nowraparound",
        drop_index_wrapping,
        "wraparound=False (library kernels): indices are non-negative, unchecked",
        True,
    ),
    Pass("inline", inline_small_callees, "replace calls of small jitted functions by their body"),
    Pass("constfold", fold_constants, "fold operations on constants; branches on constants"),
    Pass("copyprop", propagate_copies, "replace copies (same-type casts, one-value phis)"),
    Pass("simplifycfg", simplify_cfg, "drop unreachable blocks, merge straight-line blocks"),
    Pass("cse", eliminate_common_subexpressions, "reuse a dominating identical computation"),
    Pass("licm", hoist_loop_invariants, "move loop-invariant computations before the loop"),
    Pass("bce", eliminate_bounds_checks, "drop bounds checks of indices proven in range"),
    Pass("noboundscheck", drop_bounds_checks, "boundscheck=False: indices wrap, unchecked", True),
    Pass("fusion", fuse_elementwise, "fuse chains of elementwise array operations"),
    Pass("dce", eliminate_dead_code, "drop unused instructions that cannot raise"),
)

_registered: list[tuple[Pass, str | None]] = []


def register_pass(p: Pass, *, after: str | None = None) -> None:
    """Add `p` to the pipeline, after the pass named `after` (default: at the end)."""
    names = [q.name for q in pass_order()]
    if p.name in names:
        raise ValueError(f"a pass named {p.name!r} is already registered")
    if after is not None and after not in names:
        raise ValueError(f"no pass named {after!r}; passes are {names}")
    _registered.append((p, after))


def unregister_pass(name: str) -> None:
    _registered[:] = [(p, a) for p, a in _registered if p.name != name]


def pass_order() -> list[Pass]:
    order = list(PASSES)
    for p, after in _registered:
        if after is None:
            order.append(p)
        else:
            index = next(i for i, q in enumerate(order) if q.name == after)
            order.insert(index + 1, p)
    return order


@dataclass
class PassRecord:
    name: str
    seconds: float
    changed: bool
    ir_text: str | None
    # A copy of the IR after the pass (`keep_ir`): what `jitcore.interpret` runs to tell
    # which pass changed a result.
    ir_copy: ir.Function | None = None


def run_passes(
    fn: ir.Function,
    *,
    disabled: Iterable[str] = (),
    enabled: Iterable[str] = (),
    debug: bool = False,
    stop_after: int | None = None,
    keep_text: bool = False,
    keep_ir: bool = False,
) -> list[PassRecord]:
    """Run the pipeline on `fn` in place (the `optimize` stage) and return what each pass did.
    Every pass runs but those `disabled`; an optional pass runs only when `enabled`."""
    skip, wanted = set(disabled), set(enabled)
    known = {p.name for p in pass_order()}
    unknown = (skip | wanted) - known
    if unknown:
        raise ValueError(f"unknown passes {sorted(unknown)}; passes are {sorted(known)}")
    records: list[PassRecord] = []
    for index, p in enumerate(pass_order()):
        if stop_after is not None and index >= stop_after:
            break
        if p.name in skip or (p.optional and p.name not in wanted):
            continue
        start = time.perf_counter()
        changed = p.run(fn)
        seconds = time.perf_counter() - start
        if debug:
            verify(fn, typed=True, stage=f"optimize:{p.name}")
        text = print_ir(fn) if keep_text else None
        copy = clone_function(fn) if keep_ir else None
        records.append(PassRecord(p.name, seconds, changed, text, copy))
    return records
