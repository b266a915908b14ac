"""Control-flow analyses shared by the verifier and the passes: dominators and loops."""

from __future__ import annotations

from collections.abc import Sequence

from jitcore.ir import nodes as ir


def dominators(fn: ir.Function) -> dict[ir.Block, ir.Block | None]:
    """Immediate dominator of each reachable block (Cooper, Harvey & Kennedy's algorithm)."""
    order = fn.reverse_postorder()
    index = {b: i for i, b in enumerate(order)}
    preds = fn.predecessors()
    idom: dict[ir.Block, ir.Block | None] = {order[0]: order[0]}

    def intersect(a: ir.Block, b: ir.Block) -> ir.Block:
        while a is not b:
            while index[a] > index[b]:
                a = idom[a]  # type: ignore[assignment]
            while index[b] > index[a]:
                b = idom[b]  # type: ignore[assignment]
        return a

    changed = True
    while changed:
        changed = False
        for block in order[1:]:
            candidates = [p for p in preds[block] if p in idom and p in index]
            if not candidates:
                continue
            new = candidates[0]
            for p in candidates[1:]:
                new = intersect(p, new)
            if idom.get(block) is not new:
                idom[block] = new
                changed = True
    idom[order[0]] = None
    return idom


def dominator_tree(fn: ir.Function) -> dict[ir.Block, list[ir.Block]]:
    idom = dominators(fn)
    children: dict[ir.Block, list[ir.Block]] = {b: [] for b in idom}
    for block in fn.reverse_postorder():
        parent = idom.get(block)
        if parent is not None:
            children[parent].append(block)
    return children


def dominates(idom: dict[ir.Block, ir.Block | None], a: ir.Block, b: ir.Block) -> bool:
    """True if every path from the entry to `b` passes through `a`."""
    node: ir.Block | None = b
    while node is not None:
        if node is a:
            return True
        node = idom.get(node)
    return False


def natural_loops(
    fn: ir.Function, idom: dict[ir.Block, ir.Block | None] | None = None
) -> list[tuple[ir.Block, set[ir.Block]]]:
    """(header, body blocks) of each natural loop, innermost last, from back edges (`idom`:
    the function's dominators, when the caller has them already)."""
    idom = dominators(fn) if idom is None else idom
    preds = fn.predecessors()
    loops: dict[ir.Block, set[ir.Block]] = {}
    for block in fn.reverse_postorder():
        for succ in block.successors():
            if dominates(idom, succ, block):  # back edge block -> succ
                body = loops.setdefault(succ, {succ})
                stack = [block]
                while stack:
                    node = stack.pop()
                    if node not in body:
                        body.add(node)
                        stack.extend(preds[node])
    return sorted(loops.items(), key=lambda item: -len(item[1]))


def on_recurrences(fn: ir.Function, candidates: Sequence[ir.Instr]) -> set[ir.Instr]:
    """Those of `candidates` whose result flows back into their own operands (through phis):
    each iteration of their loop waits for the previous one's result, so their latency, not
    their throughput, is what the loop runs at (`x = exp(-x)`), and the loop cannot vectorize.
    Found by following operands backwards from each candidate's operands."""
    found: set[ir.Instr] = set()
    for start in candidates:
        seen: set[ir.Instr] = set()
        stack = [op for op in start.operands() if isinstance(op, ir.Instr)]
        while stack:
            node = stack.pop()
            if node is start:
                found.add(start)
                break
            if node in seen:
                continue
            seen.add(node)
            stack.extend(op for op in node.operands() if isinstance(op, ir.Instr))
    return found


CHECK_DEPTH = 4  # instructions from a result to the branch that tests it (isnan, and, ...)


def _raises(block: ir.Block) -> bool:
    """Whether `block` raises: itself, or by jumping to the release block it shares with
    other raising blocks (`raisemerge`)."""
    term = block.terminator
    if isinstance(term, ir.Jump):
        term = term.target.terminator
    return isinstance(term, ir.Raise | ir.Reraise | ir.RaiseValue)


def checked_by_raise(fn: ir.Function, candidates: Sequence[ir.Instr]) -> set[ir.Instr]:
    """Those of `candidates` whose result is tested (within `CHECK_DEPTH` instructions) by a
    branch to a block that raises (`math.exp`'s OverflowError): the loop around them has an
    exit that depends on every result, so it runs element by element."""
    users: dict[ir.Value, list[ir.Instr]] = {}
    tested: set[ir.Value] = set()
    for block in fn.blocks:
        for instr in block.instrs:
            for op in instr.operands():
                users.setdefault(op, []).append(instr)
        term = block.terminator
        if isinstance(term, ir.Branch) and any(_raises(succ) for succ in term.successors()):
            tested.add(term.cond)
    found: set[ir.Instr] = set()
    for start in candidates:
        frontier: list[ir.Value] = [start]
        for _ in range(CHECK_DEPTH + 1):
            if any(v in tested for v in frontier):
                found.add(start)
                break
            frontier = [u for v in frontier for u in users.get(v, ()) if not isinstance(u, ir.Phi)]
    return found
