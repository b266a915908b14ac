"""Copying a loop inside its function, and the SSA repair that copying needs (for
`jitcore.loopversion` and `jitcore.loopsplit`, on low IR).

`LoopCopy` copies a loop's blocks and instructions (fresh names, `<label>.<suffix>` blocks),
entered nowhere yet; edges leaving the loop leave the copy too. Once the caller has wired the
copies in, `repair_uses_after` gives code after the loop the value of whichever copy ran,
with phis where their paths meet (`Reaching`: Braun et al.'s on-demand SSA construction,
"Simple and Efficient Construction of Static Single Assignment Form", for one value whose
definitions are given).
"""

from __future__ import annotations

import re

from jitcore.ir import nodes as ir
from jitcore.ir.clone import copy_blocks


class LoopCopy:
    """A copy of a loop's blocks in the same function, entered nowhere yet. Edges leaving the
    loop leave the copy too: phis of the blocks they reach get an input from the copy."""

    def __init__(
        self, fn: ir.Function, header: ir.Block, body: set[ir.Block], suffix: str = "checked"
    ) -> None:
        self.fn = fn
        ordered = [b for b in fn.blocks if b in body]
        self.blocks: dict[ir.Block, ir.Block] = {
            b: fn.new_block(f"{_base(b.label)}.{suffix}") for b in ordered
        }
        self.values: dict[ir.Value, ir.Value] = {}
        copy_blocks(ordered, self.blocks, self.values, lambda i: fn.fresh_name(_base(i.name)))
        for block in ordered:
            for succ in block.successors():
                if succ not in body:  # an exit: its phis hear from the copy as well
                    for phi in succ.phis():
                        if block in phi.incoming:
                            v = phi.incoming[block]
                            phi.incoming[self.blocks[block]] = self.values.get(v, v)
        self.body = body


def _base(name: str) -> str:
    """The stem of an SSA name or label, for a fresh one (`t12` -> `t`, `x.3` -> `x`)."""
    if re.fullmatch(r"t\d+", name):
        return "t"
    return name.split(".")[0] or "t"


def repair_uses_after(fn: ir.Function, copy: LoopCopy, *more: LoopCopy) -> None:
    """Uses after the loop of a value it defines take the value of whichever copy ran: a
    phi where the copies' paths meet."""
    copies = (copy, *more)
    inside = set(copy.body).union(*(set(c.blocks.values()) for c in copies))
    uses: dict[ir.Value, list[tuple[ir.Block, ir.Instr | ir.Terminator]]] = {}
    for block in fn.blocks:
        if block in inside:
            continue
        for instr in block.instrs:
            if isinstance(instr, ir.Phi):
                continue  # below: a phi uses a value at the end of the block it comes from
            for op in instr.operands():
                if op in copy.values:
                    uses.setdefault(op, []).append((block, instr))
        term = block.terminator
        if term is not None:
            for op in term.operands():
                if op in copy.values:
                    uses.setdefault(op, []).append((block, term))
    for block in fn.blocks:  # phi inputs arriving from outside the loop
        for phi in block.phis():
            for pred, v in phi.incoming.items():
                if v in copy.values and pred not in inside:
                    uses.setdefault(v, []).append((block, phi))
    if not uses:
        return
    preds = fn.predecessors()
    defined_in: dict[ir.Value, ir.Block] = {
        instr: block for block in fn.blocks for instr in block.instrs
    }
    for value, sites in uses.items():
        # a definition may have become unreachable (a check the fast loop skips)
        versions = [value, *(c.values[value] for c in copies)]
        defs = {defined_in[v]: v for v in versions if v in defined_in}
        if not defs:
            continue  # then so did its uses
        reaching = Reaching(fn, preds, defs)
        for block, user in sites:
            if isinstance(user, ir.Phi):
                user.incoming = {
                    p: (reaching.at_end(p) if v is value and p not in inside else v)
                    for p, v in user.incoming.items()
                }
            else:
                user.replace_operand(value, reaching.at_start(block))
        reaching.finish()


class Reaching:
    """Which definition of one value reaches each block, making phis where several do (the
    on-demand construction of Braun et al., "Simple and Efficient Construction of Static
    Single Assignment Form", for one variable whose definitions are given)."""

    def __init__(
        self,
        fn: ir.Function,
        preds: dict[ir.Block, list[ir.Block]],
        available: dict[ir.Block, ir.Value],
    ) -> None:
        self.fn = fn
        self.preds = preds
        self.available = dict(available)  # block -> the value at its end
        self.at_entry: dict[ir.Block, ir.Value] = {}
        self.pending: list[tuple[ir.Block, ir.Phi]] = []
        self.value_type = next(iter(available.values())).type

    def at_end(self, block: ir.Block) -> ir.Value:
        found = self.available.get(block)
        return found if found is not None else self.at_start(block)

    def at_start(self, block: ir.Block) -> ir.Value:
        chain = []
        while block not in self.at_entry:
            ps = self.preds[block]
            if len(ps) == 1 and ps[0] not in self.available:
                chain.append(block)
                block = ps[0]
                continue
            if len(ps) == 1:
                self.at_entry[block] = self.available[ps[0]]
                break
            phi = ir.Phi({}, name=self.fn.fresh_name("versions"), type=self.value_type)
            block.instrs.insert(0, phi)
            self.at_entry[block] = phi
            self.pending.append((block, phi))
            break
        value = self.at_entry[block]
        for b in chain:
            self.at_entry[b] = value
        return value

    def finish(self) -> None:
        """Fill in the inputs of the phis made (which may make more), then drop the trivial
        ones: a phi whose inputs are one value (or itself) is that value. Walking back from a
        use after two loops in a row makes one in the second loop's header, and its value is
        the second loop's invariant: a pass reading it (`loopsplit`) must see the value."""
        made = []
        while self.pending:
            block, phi = self.pending.pop()
            phi.incoming = {p: self.at_end(p) for p in self.preds[block]}
            made.append((block, phi))
        removed = True
        while removed:
            removed = False
            for block, phi in made:
                others = {id(v): v for v in phi.incoming.values() if v is not phi}
                if len(others) != 1 or phi not in block.instrs:
                    continue
                (value,) = others.values()
                block.instrs.remove(phi)
                self.fn.replace_all_uses(phi, value)
                removed = True
