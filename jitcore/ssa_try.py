"""Part of stage `ssa`: `try` / `except` / `else` / `finally`, bare `raise` and `raise e`.

A `try` has a dispatch block that receives every exception raised in its body: by `raise`, by a
jitted callee, or by a runtime check (`ZeroDivisionError`, `IndexError`, math domain errors).
Most of those raises only appear when `lower` expands the operations, so `ssa` cannot draw the
edges yet. Instead the body is cut into protected parts: each statement (and each block code
starts in) begins with `br excpending <part> <dispatch>`, whose false edge carries the values
the variables have when the part starts, which is what the handler sees if the part raises
(an assignment happens only after its statement's operations). `fn.exc_regions` remembers the
part of every block. `lower` (`jitcore.lower_try`) then redirects each raise of a part to the
dispatch block with the part's values, and drops the placeholder edges.

The dispatch block starts with `caughtexc` (the exception), tests the handlers in order with
`excmatch` (Python's class hierarchy: `except ArithmeticError` catches `ZeroDivisionError`), and
re-raises (`raisevalue`) when none matches. `finally` is `try: (try/except/else) finally:`: its
body is copied onto the normal exit, the exception exit (then re-raised) and every `return`,
`break` and `continue` that leaves it.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.markers import MISSING

if TYPE_CHECKING:
    from jitcore.ssa import _Builder


# What a name deleted at the end of its handler holds: `ssa.UNDEFINED` (reading it on such a
# path raises UnboundLocalError).
UNBOUND = ir.Const(MISSING)


@dataclass
class _Region:
    dispatch: ir.Block


@dataclass
class _Final:
    body: list[ast.stmt]
    loops: int  # how many loops enclosed the `try` (break/continue inside run it)
    regions: int  # how many regions enclosed the `try` (its copies raise to those)


@dataclass
class TryState:
    """The `try` statements being built around the current statement."""

    regions: list[_Region] = field(default_factory=list)
    finals: list[_Final] = field(default_factory=list)
    # The exception each enclosing `except` block handles, innermost last (bare `raise`),
    # with the name it is bound to (`except E as e`) and how many loops enclosed the handler.
    handling: list[tuple[ir.Value, str | None, int]] = field(default_factory=list)
    # Each `raise e`, with the name it reads.
    reraises: dict[ir.RaiseValue, str] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        return bool(self.regions)


def protect(b: _Builder) -> None:
    """Start a protected part here: the current block ends in `br excpending`, whose false edge
    to the dispatch block carries the variables' current values. Called at each statement and
    each block code starts in inside a `try` body; outside, records the block as unprotected."""
    state: TryState = b.tries
    if not state.active:
        if b.fn.exc_regions.get(b.block) is not None and b.block.terminator is None:
            # just after a `try` body (its `else`, or the code after it): not in its last part
            after = b._new_block("endprotect")
            b._jump(after, b.fn.loc)
            b.seal(after)
            b.block = after
        b.fn.exc_regions.setdefault(b.block, None)
        return
    loc = b.fn.loc
    marker = ir.ExcPending(name=b.fn.fresh_name("exc"), type=T.BOOL, loc=loc)
    b.block.instrs.append(marker)
    part = b._new_block("try")
    b.fn.exc_regions[part] = marker
    b._terminate(ir.Branch(marker, part, state.regions[-1].dispatch, loc=loc))
    b.seal(part)
    b.block = part


def build_try(b: _Builder, node: ast.Try) -> None:
    if node.finalbody:
        _try_finally(b, node)
    else:
        _try_except(b, node)


def _exception_classes(b: _Builder, node: ast.expr) -> tuple[type, ...]:
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    classes: list[type] = []
    for item in items:
        value: object = b._static_value(item)
        if not (isinstance(value, type) and issubclass(value, BaseException)):
            raise b.unsupported(
                item,
                "`except` takes built-in exception classes",
                "name a built-in exception class, or a tuple of them",
            )
        if getattr(builtins, value.__name__, None) is not value:
            raise b.unsupported(
                item,
                f"only built-in exceptions can be caught, not {value.__qualname__}",
                "catch a built-in exception class (ValueError, ArithmeticError, ...)",
            )
        classes.append(cast(type, value))
    return tuple(classes)


def _dispatch_start(b: _Builder, dispatch: ir.Block) -> ir.Value:
    """Begin the dispatch block: its `caughtexc` first (lower turns it into the phi of the
    raises), then, inside an enclosing `try`, a protected part of that one."""
    b.seal(dispatch)
    b.block = dispatch
    exc = ir.CaughtExc(name=b.fn.fresh_name("exc"), type=T.PTR, loc=b.fn.loc)
    dispatch.instrs.append(exc)
    protect(b)
    return exc


def _try_except(b: _Builder, node: ast.Try) -> None:
    loc = b.parsed.loc(node)
    dispatch, join = b._new_block("except"), b._new_block("endtry")
    state: TryState = b.tries
    state.regions.append(_Region(dispatch))
    protect(b)
    b.body(node.body)
    state.regions.pop()
    protect(b)  # the `else` part: outside this try's handlers
    b.body(node.orelse)
    b._jump(join, loc)
    exc = _dispatch_start(b, dispatch)
    for handler in node.handlers:
        hloc = b.parsed.loc(handler)
        body = b._new_block("handler")
        if handler.type is not None:
            classes = _exception_classes(b, handler.type)
            test = b.emit(ir.ExcMatch(exc, classes, type=T.BOOL), handler, "match")
            nxt = b._new_block("nomatch")
            b._terminate(ir.Branch(test, body, nxt, loc=hloc))
        else:
            nxt = None
            b._jump(body, hloc)
        b.seal(body)
        b._start(body)
        if handler.name is not None:
            b.handler_names.add(handler.name)  # (a renamed one, of an inlined function)
            b.write(handler.name, exc)  # `e` is the exception, a variable that only `raise` reads
        state.handling.append((exc, handler.name, len(b.loops)))
        if handler.name is not None and state.active:
            _unbinding_on_raise(b, handler.body, handler.name)
        else:
            b.body(handler.body)
        state.handling.pop()
        if handler.name is not None:
            b.write(handler.name, UNBOUND)  # Python deletes `e` when its handler ends
        b._jump(join, hloc)
        if nxt is None:
            break  # a bare `except:` catches everything (Python requires it last)
        b.seal(nxt)
        b._start(nxt)
    else:
        b._terminate(ir.RaiseValue(exc, loc=loc))
    b.seal(join)
    b._start(join)


def _unbinding_on_raise(b: _Builder, body: list[ast.stmt], name: str) -> None:
    """A handler's body inside another `try`: an exception leaving it deletes `name` before
    the enclosing handlers see it (Python's handler is `try: body finally: del name`)."""
    state: TryState = b.tries
    dispatch, after = b._new_block("unbind"), b._new_block("handled")
    state.regions.append(_Region(dispatch))
    protect(b)
    b.body(body)
    state.regions.pop()
    b._jump(after, b.fn.loc)
    b.seal(dispatch)
    b.block = dispatch
    exc = ir.CaughtExc(name=b.fn.fresh_name("exc"), type=T.PTR, loc=b.fn.loc)
    dispatch.instrs.append(exc)
    b.write(name, UNBOUND)
    protect(b)  # a part of the enclosing `try`, which sees `name` deleted
    b._terminate(ir.RaiseValue(exc, loc=b.fn.loc))
    b.seal(after)
    b._start(after)


def _try_finally(b: _Builder, node: ast.Try) -> None:
    loc = b.parsed.loc(node)
    state: TryState = b.tries
    dispatch, after = b._new_block("finally"), b._new_block("endfinally")
    state.finals.append(_Final(node.finalbody, len(b.loops), len(state.regions)))
    state.regions.append(_Region(dispatch))
    protect(b)
    if node.handlers:
        inner = ast.Try(node.body, node.handlers, node.orelse, [])
        _try_except(b, ast.copy_location(inner, node))
    else:
        b.body(node.body)
    state.regions.pop()
    state.finals.pop()
    protect(b)
    b.body(node.finalbody)  # the normal exit
    b._jump(after, loc)
    exc = _dispatch_start(b, dispatch)  # the exception exit: run it, then raise again
    b.body(node.finalbody)
    protect(b)  # the raise sees what the `finally` body assigned
    b._terminate(ir.RaiseValue(exc, loc=loc))
    b.seal(after)
    b._start(after)


def run_finals(b: _Builder, leaving_loop: bool) -> None:
    """Before `return` (or `break`/`continue`, `leaving_loop`), run the `finally` bodies it
    leaves, innermost first; each copy raises to the regions outside its `try`."""
    state: TryState = b.tries
    if not state.finals:
        return
    saved_finals, saved_regions = state.finals, state.regions
    try:
        for index in range(len(saved_finals) - 1, -1, -1):
            final = saved_finals[index]
            if leaving_loop and final.loops < len(b.loops):
                break  # this `finally` encloses the loop: break/continue stay inside it
            state.finals = saved_finals[:index]
            state.regions = saved_regions[: final.regions]
            protect(b)
            b.body(final.body)
    finally:
        state.finals, state.regions = saved_finals, saved_regions


def unbind_left_handlers(b: _Builder) -> None:
    """`break` / `continue` leave the handlers inside the innermost loop: their names are
    deleted, as at the end of the handler."""
    for _, name, loops in b.tries.handling:
        if name is not None and loops == len(b.loops):
            b.write(name, UNBOUND)


def raise_caught(b: _Builder, node: ast.Raise) -> bool:
    """`raise` (bare) inside an `except` block and `raise e` of a name some `except E as e`
    binds: raise the handled exception again (`e` is the variable: unbound, as in Python,
    after its handler ended, and then UnboundLocalError). False for any other `raise`."""
    state: TryState = b.tries
    exc_node = node.exc
    loc = b.parsed.loc(node)
    if exc_node is not None:
        if not (isinstance(exc_node, ast.Name) and exc_node.id in b.handler_names):
            return False
        term = ir.RaiseValue(b.read(exc_node.id), loc=loc)
        state.reraises[term] = exc_node.id
        b._terminate(term)
        return True
    if not state.handling:
        raise b.unsupported(
            node,
            "a bare `raise` outside an `except` block is not supported",
            'raise an exception class with a message: raise ValueError("...")',
        )
    b._terminate(ir.RaiseValue(state.handling[-1][0], loc=loc))
    return True


def raise_unbound(fn: ir.Function, state: TryState) -> None:
    """A `raise e` where `e` is unbound on every path (its handler ended: Python deleted it)
    raises UnboundLocalError (once the trivial phis are gone, so that is known); the phis of
    nothing but UNBOUND it read go."""
    dead: set[ir.Phi] = set()
    for block in fn.blocks:
        term = block.terminator
        if not (isinstance(term, ir.RaiseValue) and term in state.reraises):
            continue
        phis = _unbound_phis(term.value)
        if phis is None:
            continue
        name = state.reraises[term]
        message = f"cannot access local variable '{name}' where it is not associated with a value"
        block.terminator = ir.Raise(UnboundLocalError, message, loc=term.loc)
        dead |= phis
    used = {id(v) for _, instr in fn.instructions() if instr not in dead for v in instr.operands()}
    used |= {id(v) for b in fn.blocks if b.terminator for v in b.terminator.operands()}
    if dead and not any(id(phi) in used for phi in dead):
        for block in fn.blocks:
            block.instrs = [i for i in block.instrs if i not in dead]


def _unbound_phis(value: ir.Value) -> set[ir.Phi] | None:
    """The phis `value` is made of if it is UNBOUND on every path (itself, or phis, a loop's,
    of nothing else); None if it is not."""
    phis: set[ir.Phi] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, ir.Phi):
            if v not in phis:
                phis.add(v)
                stack.extend(v.incoming.values())
        elif v is not UNBOUND:
            return None
    return phis
