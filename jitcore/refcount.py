"""Reference counting of arrays in low IR: the last step of `lower`, and the only place that
decides where references are taken and released (`codegen` emits the `incref`/`decref`
instructions it finds here, nothing more).

Every SSA value that holds arrays (an array, or a tuple holding arrays) owns one reference to
each array's runtime block. A value that comes from a fresh allocation (`makearray` with
`fresh`) or from a kernel call owns the reference it was made with; a value that shares another
value's arrays (a view `makearray`, `extract`, `extractdyn`, `select`, `tuple`, `cast`) gets an
`incref` right after its definition. Then this pass releases each reference exactly once on
every path:

* after the value's last use in a block where it is not live afterwards;
* on a control-flow edge where it is live before but not after (a loop exit, a `raise`);
* a phi input moves its reference into the phi (an extra incref when the value stays live), and
  `return` moves the reference to the caller.

Array arguments are borrowed: the caller (a kernel, or the Python entry point) holds its
reference until the call returns, so an argument owns none. It is never released; where it is
moved (a phi input, `return`), it is increfed first. That is one atomic increment at entry and a
decrement (with its release path) on every exit saved per array argument: less to run per call,
and less IR for LLVM to optimize.

Liveness is the usual backward data flow, with a phi's input used at the end of its predecessor.
Critical edges that need code are split.
"""

from __future__ import annotations

from jitcore.errors import SourceLoc
from jitcore.ir import nodes as ir
from jitcore.ir import types as T

Managed = ir.Value


def insert_refcounts(fn: ir.Function) -> None:
    """Insert the `incref`/`decref` instructions that balance every array reference in `fn`."""
    managed = _managed_values(fn)
    if not managed:
        return
    roots = _pointer_roots(fn, managed)
    borrowed: set[ir.Value] = {a for a in fn.args if a in managed}
    if managed <= borrowed:
        # only borrowed arguments, which are never released: liveness decides nothing (each
        # phi input and `return` of one gets its incref whatever is live)
        nothing: dict[ir.Block, set[ir.Value]] = {b: set() for b in fn.blocks}
        live_in, live_out = nothing, nothing
    else:
        live_in, live_out = _liveness(fn, managed, roots)
    for block in list(fn.blocks):
        _release_in_block(fn, block, managed, live_out[block], roots, borrowed)
    for pred in list(fn.blocks):
        for succ in list(pred.successors()):
            _fix_edge(fn, pred, succ, managed, live_in, live_out, borrowed)


def _managed_values(fn: ir.Function) -> set[ir.Value]:
    out: set[ir.Value] = {a for a in fn.args if T.contains_array(a.type)}
    for _, instr in fn.instructions():
        if T.contains_array(instr.type):
            out.add(instr)
    return out


def _pointer_roots(
    fn: ir.Function, managed: set[ir.Value]
) -> dict[ir.Value, tuple[ir.Value, ...]]:
    """Raw pointers into an array's memory (its data pointer, addresses computed from it) keep
    the array alive: a use of the pointer counts as a use of the array. So does a borrowed
    `generator` (the `bitgen_t` inside an owned Generator's block) keep its Generator."""
    roots: dict[ir.Value, tuple[ir.Value, ...]] = {}
    for block in fn.reverse_postorder():
        for instr in block.instrs:
            # the exception a failed kernel call returned is no pointer into its result (which
            # does not exist): rooting it there kept the result "live" in the `try` handler
            # a borrowed `generator` cast from an owned one points into its block as well
            # nor is a formatted exception one into the strings it was formatted with (their
            # text is copied into the runtime's ring when it is made): rooting it there kept a
            # string "live" on paths where it was never defined (a `raise` in a `try`)
            pointer = isinstance(instr.type, T.Pointer) or instr.type == T.GENERATOR
            if not pointer or isinstance(instr, ir.CallStatus | ir.ExcFormatted):
                continue
            found: list[ir.Value] = []
            for op in instr.operands():
                if op in managed:
                    found.append(op)
                found.extend(roots.get(op, ()))
            if found:
                roots[instr] = tuple(dict.fromkeys(found))
    return roots


def _effective_operands(instr: ir.Instr | ir.Terminator, roots: dict) -> list[ir.Value]:
    out: list[ir.Value] = []
    for op in instr.operands():
        out.append(op)
        out.extend(roots.get(op, ()))
    return out


def _liveness(fn: ir.Function, managed: set[ir.Value], roots: dict) -> tuple[dict, dict]:
    upward: dict[ir.Block, set[ir.Value]] = {}
    defs: dict[ir.Block, set[ir.Value]] = {}
    for block in fn.blocks:
        defined: set[ir.Value] = set()
        exposed: set[ir.Value] = set()
        for instr in block.instrs:
            if not isinstance(instr, ir.Phi):
                exposed.update(
                    v
                    for v in _effective_operands(instr, roots)
                    if v in managed and v not in defined
                )
            defined.add(instr)
        if block.terminator is not None:
            exposed.update(
                v
                for v in _effective_operands(block.terminator, roots)
                if v in managed and v not in defined
            )
        upward[block], defs[block] = exposed, defined
    live_in: dict[ir.Block, set[ir.Value]] = {b: set() for b in fn.blocks}
    live_out: dict[ir.Block, set[ir.Value]] = {b: set() for b in fn.blocks}
    changed = True
    order = fn.reverse_postorder()[::-1]
    while changed:
        changed = False
        for block in order:
            out: set[ir.Value] = set()
            for succ in block.successors():
                out |= live_in[succ]
                for phi in succ.phis():
                    v = phi.incoming.get(block)
                    if v in managed:
                        out.add(v)
            new_in = upward[block] | (out - defs[block])
            if out != live_out[block] or new_in != live_in[block]:
                live_out[block], live_in[block] = out, new_in
                changed = True
    return live_in, live_out


def _refop(kind: type[ir.Incref | ir.Decref], value: ir.Value, loc: SourceLoc) -> ir.Instr:
    return kind(value, name="", type=T.NONE, loc=loc)


def _shares_arrays(instr: ir.Instr) -> bool:
    """Whether `instr` makes a value holding arrays that other values hold too."""
    if not T.contains_array(instr.type):
        return False
    if isinstance(instr, ir.MakeArray):
        return not instr.fresh
    # A cast of arrays (a tuple's `bool` item widened to `i64`, an array's layout relaxed to
    # `A`) is the same arrays under another type: a value of its own, with its own reference.
    return isinstance(instr, ir.Extract | ir.ExtractDynamic | ir.Select | ir.MakeTuple | ir.Cast)


def _first_non_phi(block: ir.Block) -> int:
    return sum(1 for _ in block.phis())


def _release_in_block(
    fn: ir.Function,
    block: ir.Block,
    managed: set[ir.Value],
    live_out: set,
    roots: dict,
    borrowed: set[ir.Value],
) -> None:
    """Incref values that share arrays right after their definition, and decref values that
    die inside `block` after their last use (or their definition); a borrowed argument is not
    released, and is increfed when returned."""
    phi_count = _first_non_phi(block)
    last: dict[ir.Value, int] = {}
    for index, instr in enumerate(block.instrs):
        if instr in managed:
            last[instr] = max(index, phi_count - 1)  # a definition (phis: after all phis)
        if not isinstance(instr, ir.Phi):
            for v in _effective_operands(instr, roots):
                if v in managed:
                    last[v] = index
    term = block.terminator
    end_uses = [
        v for v in (_effective_operands(term, roots) if term is not None else ()) if v in managed
    ]
    returned = term.value if isinstance(term, ir.Return) else None
    inserts: dict[int, list[ir.Value]] = {}
    at_end: list[ir.Value] = []
    for v, index in last.items():
        if v in live_out or v is returned or v in borrowed:
            continue
        if v in end_uses:
            at_end.append(v)
        else:
            inserts.setdefault(index, []).append(v)
    new_instrs: list[ir.Instr] = []
    for index, instr in enumerate(block.instrs):
        new_instrs.append(instr)
        if _shares_arrays(instr):  # its own reference first: operands may die right here
            new_instrs.append(_named(fn, _refop(ir.Incref, instr, instr.loc)))
        for v in inserts.get(index, ()):
            new_instrs.append(_named(fn, _refop(ir.Decref, v, instr.loc)))
    for v in at_end:
        new_instrs.append(_named(fn, _refop(ir.Decref, v, term.loc)))  # type: ignore[union-attr]
    if returned is not None and returned in borrowed:  # the caller gets its own reference
        new_instrs.append(_named(fn, _refop(ir.Incref, returned, fn.loc)))
    block.instrs = new_instrs


def _name_of(v: ir.Value) -> str:
    return getattr(v, "name", "")


def _named(fn: ir.Function, instr: ir.Instr) -> ir.Instr:
    instr.name = fn.fresh_name("rc")
    return instr


def _fix_edge(fn, pred, succ, managed, live_in, live_out, borrowed) -> None:  # noqa: ANN001
    """Release what dies on the edge pred -> succ; balance phi moves of values still live (a
    borrowed argument has no reference to move: each phi input gets one)."""
    moved: dict[ir.Value, int] = {}
    for phi in succ.phis():
        v = phi.incoming.get(pred)
        if v in managed:
            moved[v] = moved.get(v, 0) + 1
    ops: list[ir.Instr] = []
    for v, count in moved.items():
        extra = count if v in borrowed else count - 1 + (1 if v in live_in[succ] else 0)
        ops.extend(_named(fn, _refop(ir.Incref, v, fn.loc)) for _ in range(extra))
    for v in sorted(live_out[pred], key=_name_of):  # a set: sort, so IR text is stable
        if v not in live_in[succ] and v not in moved and v not in borrowed:
            ops.append(_named(fn, _refop(ir.Decref, v, fn.loc)))
    if not ops:
        return
    preds = fn.predecessors()
    if len(preds[succ]) == 1:
        at = _first_non_phi(succ)
        succ.instrs[at:at] = ops
    elif len(pred.successors()) == 1:
        pred.instrs.extend(ops)
    else:
        _split_edge(fn, pred, succ).instrs.extend(ops)


def _split_edge(fn: ir.Function, pred: ir.Block, succ: ir.Block) -> ir.Block:
    middle = fn.new_block("edge")
    middle.terminator = ir.Jump(succ)
    pred.terminator.replace_successor(succ, middle)  # type: ignore[union-attr]
    for phi in succ.phis():
        if pred in phi.incoming:
            phi.incoming = {(middle if p is pred else p): v for p, v in phi.incoming.items()}
    return middle
