"""Stage `ssa`: `ParsedFunction` -> untyped `ir.Function` in SSA form with phi nodes.

In:  the AST and environment from `parse`.
Out: a control-flow graph of basic blocks. Local variables become SSA values (phis are built on
     the fly, Braun et al., "Simple and Efficient Construction of SSA Form", CC 2013); free
     names become `Const`s of their compile-time values; `for` over `range` becomes an index
     loop; `for` over a tuple is unrolled; `and`/`or`, chained comparisons, `break`,
     `continue`, loop `else`, `assert` and early `return` become explicit control flow.
Holds afterwards: no instruction has a type; every block ends in a terminator; no trivial phi
     (one whose incoming values are all the same) remains; unreachable blocks are removed.
"""

from __future__ import annotations

import ast
import copy
import operator
from dataclasses import dataclass
from typing import cast

import numpy as np

from jitcore.errors import SourceLoc, UnsupportedError
from jitcore.ir import containers as cmarkers
from jitcore.ir import nodes as ir
from jitcore.ir.listmarkers import list_literal
from jitcore.ir.markers import (
    MISSING,
    check_bound,
    check_unpack,
    flat_get,
    flat_set,
    formatted_exception,
    ndindex_count,
    ndindex_item,
    range_bounds,
    range_count,
    range_item,
    range_more,
)
from jitcore.parallel.api import prange
from jitcore.parse import ParsedFunction
from jitcore.ssa_format import formatted_message
from jitcore.ssa_inline import as_value, assign_lambda, define, return_from_inlined
from jitcore.ssa_inline import call as inline_call
from jitcore.ssa_iteration import LoopTargets, for_loop, range_membership, reduction
from jitcore.ssa_try import (
    UNBOUND,
    TryState,
    build_try,
    protect,
    raise_caught,
    raise_unbound,
    run_finals,
    unbind_left_handlers,
)
from jitcore.starcall import spread

BINOPS = {
    ast.Add: "add",
    ast.Sub: "sub",
    ast.Mult: "mul",
    ast.Div: "div",
    ast.FloorDiv: "floordiv",
    ast.Mod: "mod",
    ast.Pow: "pow",
    ast.LShift: "shl",
    ast.RShift: "shr",
    ast.BitOr: "or",
    ast.BitXor: "xor",
    ast.BitAnd: "and",
    ast.MatMult: "matmul",
}
UNARYOPS = {ast.USub: "neg", ast.UAdd: "pos", ast.Not: "not", ast.Invert: "invert"}
CMPOPS = {
    ast.Eq: "eq",
    ast.NotEq: "ne",
    ast.Lt: "lt",
    ast.LtE: "le",
    ast.Gt: "gt",
    ast.GtE: "ge",
    ast.Is: "is",
    ast.IsNot: "isnot",
    ast.In: "in",
    ast.NotIn: "notin",
}

# Marks a variable read on a path where Python would raise UnboundLocalError (also a name
# `except ... as e` bound, once its handler ended).
UNDEFINED = UNBOUND

_UNSUPPORTED_STMT_HINTS = {
    ast.With: "move the `with` block outside the jitted function",
    ast.Import: "import at module level; jitcore resolves module globals at compile time",
    ast.ImportFrom: "import at module level; jitcore resolves module globals at compile time",
    ast.Global: "pass the value as an argument and return the new value",
    ast.Nonlocal: "pass the value as an argument and return the new value",
    ast.Delete: "let the variable go out of scope instead (`del d[key]` works on dicts)",
    ast.ClassDef: "define the class at module level",
    ast.AsyncFunctionDef: "jitcore compiles plain synchronous functions",
    ast.AsyncFor: "jitcore compiles plain synchronous functions",
    ast.AsyncWith: "jitcore compiles plain synchronous functions",
    ast.Match: "write the cases as if/elif/else",
}
_UNSUPPORTED_EXPR_HINTS = {
    ast.GeneratorExp: "use one directly inside sum(), any(), all(), min() or max(), or a loop",
    ast.Yield: "jitcore compiles functions, not generators",
    ast.YieldFrom: "jitcore compiles functions, not generators",
    ast.Await: "jitcore compiles plain synchronous functions",
    ast.Starred: "pass the arguments explicitly",
}
# What the user calls each expression (errors never show AST class names).
_EXPR_NAMES = {
    ast.Lambda: "lambda expressions",
    ast.ListComp: "list comprehensions",
    ast.SetComp: "set comprehensions",
    ast.DictComp: "dict comprehensions",
    ast.GeneratorExp: "generator expressions",
    ast.List: "list displays",
    ast.Dict: "dict displays",
    ast.Set: "set displays",
    ast.JoinedStr: "f-strings",
    ast.Yield: "`yield` expressions",
    ast.YieldFrom: "`yield from` expressions",
    ast.Await: "`await` expressions",
    ast.Starred: "starred expressions",
    ast.FormattedValue: "f-string fields",
}

# `for` over these is a counted loop (a prange loop reaching ssa runs serially: the function
# is not parallel, or the loop is nested in a parallel one)
_RANGES = (range, prange)


@dataclass
class _Loop:
    continue_to: ir.Block
    break_to: ir.Block


class _Builder:
    """Walks the AST once, emitting IR and building SSA as it goes."""

    def __init__(self, parsed: ParsedFunction) -> None:
        self.parsed = parsed
        self.fn = ir.Function(parsed.qualname, [], loc=parsed.loc(parsed.tree))
        self.defs: dict[str, dict[ir.Block, ir.Value]] = {}
        self.preds: dict[ir.Block, list[ir.Block]] = {}
        self.sealed: set[ir.Block] = set()
        self.incomplete: dict[ir.Block, dict[str, ir.Phi]] = {}
        self.loops: list[_Loop | LoopTargets] = []
        self.block: ir.Block = self._new_block("entry")
        self.assigned_names = _assigned_names(parsed.tree)
        self.locals = self.assigned_names | set(parsed.arg_names)
        # The names `except E as e` binds: variables only `raise e` may read (ssa_try).
        self.handler_names = {
            node.name
            for node in ast.walk(parsed.tree)
            if isinstance(node, ast.ExceptHandler) and node.name is not None
        }
        self.undefined_reads: dict[str, ast.AST] = {}
        # Reads of a local that no instruction uses (`y = x`): where each happened (block, the
        # instruction it follows), so a read of a possibly unassigned `x` still raises.
        self.copies: list[tuple[ir.Block, ir.Instr | None, ir.Value, SourceLoc]] = []
        self._uniq = 0
        self.arg_types: dict[str, object] = {}  # per parameter, when known (build_ssa)
        self.tries = TryState()  # the `try` statements around the current one (ssa_try)
        # Nested functions and lambdas by name, the ones being inlined, and where their
        # `return`s go (ssa_inline).
        self.nested: dict[str, ast.FunctionDef | ast.Lambda] = {}
        # each nested function's default values, evaluated where it is defined (hidden vars)
        self.nested_defaults: dict[str, dict[str, str]] = {}
        self.inlining: list[str] = []
        self.frames: list = []  # type: ignore[type-arg]

    def hidden_var(self, kind: str) -> str:
        """A variable name no Python code can spell, for loop counters and joins."""
        self._uniq += 1
        return f"${kind}{self._uniq}"

    # --- blocks and SSA variables ---------------------------------------------------------

    def _new_block(self, base: str) -> ir.Block:
        block = self.fn.new_block(base)
        if base == "entry":
            block.label = "entry"
        self.preds[block] = []
        return block

    def _terminate(self, term: ir.Terminator) -> None:
        """End the current block; code after a jump or return goes to an unreachable block."""
        self.block.terminator = term
        for succ in term.successors():
            self.preds[succ].append(self.block)
        dead = self._new_block("dead")
        self.seal(dead)
        self.block = dead

    def _jump(self, target: ir.Block, loc: SourceLoc) -> None:
        self._terminate(ir.Jump(target, loc=loc))

    def _start(self, block: ir.Block) -> None:
        """Continue emission in `block` (the previous block must already be terminated)."""
        self.block = block
        protect(self)  # inside a `try` body, a new protected part (ssa_try)

    def seal(self, block: ir.Block) -> None:
        for var, phi in self.incomplete.pop(block, {}).items():
            self._add_phi_operands(var, phi)
        self.sealed.add(block)

    def write(self, var: str, value: ir.Value, block: ir.Block | None = None) -> None:
        self.defs.setdefault(var, {})[block or self.block] = value

    def read(self, var: str, block: ir.Block | None = None) -> ir.Value:
        block = block or self.block
        found = self.defs.get(var, {}).get(block)
        if found is not None:
            return found
        if block not in self.sealed:
            phi = self._new_phi(var, block)
            self.incomplete.setdefault(block, {})[var] = phi
            value: ir.Value = phi
        elif len(self.preds[block]) == 1:
            value = self.read(var, self.preds[block][0])
        elif not self.preds[block]:
            value = UNDEFINED
        else:
            phi = self._new_phi(var, block)
            self.write(var, phi, block)
            value = self._add_phi_operands(var, phi)
        self.write(var, value, block)
        return value

    def _new_phi(self, var: str, block: ir.Block) -> ir.Phi:
        phi = ir.Phi({}, name=self.fn.fresh_name(var), loc=self.fn.loc)
        block.instrs.insert(0, phi)
        return phi

    def _add_phi_operands(self, var: str, phi: ir.Phi) -> ir.Value:
        block = next(b for b in self.fn.blocks if phi in b.instrs)
        for pred in self.preds[block]:
            phi.incoming[pred] = self.read(var, pred)
        return phi

    # --- emission helpers -----------------------------------------------------------------

    def emit(self, instr: ir.Instr, node: ast.AST, base: str = "t") -> ir.Instr:
        instr.name = self.fn.fresh_name(base)
        instr.loc = self.parsed.loc(node)
        self.block.instrs.append(instr)
        return instr

    def unsupported(self, node: ast.AST, what: str, hint: str) -> UnsupportedError:
        return UnsupportedError(what, loc=self.parsed.loc(node), hint=hint)

    # --- statements -----------------------------------------------------------------------

    def build(self) -> ir.Function:
        tree = self.parsed.tree
        self.seal(self.block)
        for i, name in enumerate(self.parsed.arg_names):
            arg = ir.Arg(name, i)
            self.fn.args.append(arg)
            self.write(name, arg)
        self.body(tree.body)
        self._terminate(ir.Return(ir.Const(None), loc=self.parsed.loc(tree)))
        for block in list(self.fn.blocks):
            if block not in self.sealed:
                self.seal(block)
        self.fn.remove_unreachable_blocks()
        replaced = _remove_trivial_phis(self.fn)
        raise_unbound(self.fn, self.tries)
        self._check_defined()
        _guard_maybe_undefined(self.fn, self._live_copies(replaced))
        return self.fn

    def _live_copies(
        self, replaced: dict[ir.Value, ir.Value]
    ) -> list[tuple[ir.Block, ir.Instr | None, ir.Value, SourceLoc]]:
        """The recorded copies in reachable blocks, each naming the value that replaced a
        trivial phi it read."""
        out = []
        reachable = set(self.fn.blocks)
        for block, anchor, value, loc in self.copies:
            while value in replaced:
                value = replaced[value]
            if block in reachable:
                out.append((block, anchor, value, loc))
        return out

    def _check_defined(self) -> None:
        """A local read on a path where it was never assigned is an error (in reachable code)."""
        users: list[ir.Instr | ir.Terminator] = [i for _, i in self.fn.instructions()]
        users += [b.terminator for b in self.fn.blocks if b.terminator is not None]
        for instr in users:
            if not isinstance(instr, ir.Phi) and any(v is UNDEFINED for v in instr.operands()):
                name = next(iter(self.undefined_reads), "a variable")
                node = self.undefined_reads.get(name)
                raise UnsupportedError(
                    f"local variable `{name}` is read before it is assigned",
                    loc=self.parsed.loc(node) if node is not None else instr.loc,
                    hint="assign it on every path before this line",
                )

    def body(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            self.stmt(stmt)

    def stmt(self, node: ast.stmt) -> None:
        method = getattr(self, f"stmt_{type(node).__name__}", None)
        if method is None:
            hint = _UNSUPPORTED_STMT_HINTS.get(type(node), "rewrite it with supported syntax")
            kind = type(node).__name__.lower()
            raise self.unsupported(node, f"`{kind}` statements are not supported", hint)
        if self.tries.active:
            protect(self)  # each statement of a `try` body is a protected part (ssa_try)
        method(node)

    def stmt_Pass(self, node: ast.Pass) -> None:
        pass

    def stmt_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant):  # a docstring or a bare literal
            return
        self.expr(node.value)

    def stmt_Assign(self, node: ast.Assign) -> None:
        if assign_lambda(self, node):  # g = lambda ...: bound at compile time (ssa_inline)
            return
        value = self.expr(node.value)
        if isinstance(node.value, ast.Name) and isinstance(value, ir.Phi):
            instrs = self.block.instrs
            anchor = next((i for i in reversed(instrs) if not isinstance(i, ir.Phi)), None)
            self.copies.append((self.block, anchor, value, self.parsed.loc(node.value)))
        for target in node.targets:
            self.assign(target, value, node)

    def stmt_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.assign(node.target, self.expr(node.value), node)

    def stmt_AugAssign(self, node: ast.AugAssign) -> None:
        op = "i" + BINOPS[type(node.op)]
        target = node.target
        if isinstance(target, ast.Name):
            current = self.name(target)
            rhs = self.expr(node.value)
            self.write(target.id, self.emit(ir.BinOp(op, current, rhs), node, target.id))
        elif isinstance(target, ast.Subscript):
            obj = self.expr(target.value)
            index = self.index(target.slice)
            flat = _flat_of(target.value)
            if flat is not None:  # a.flat[i] += x
                obj, index = self.expr(flat), self.index(target.slice)
                current = self.emit(ir.Call(ir.Const(flat_get), [obj, index]), target)
                new = self.emit(ir.BinOp(op, current, self.expr(node.value)), node)
                self.emit(ir.Call(ir.Const(flat_set), [obj, index, new]), node)
                return
            current = self.emit(ir.GetItem(obj, index), target)
            new = self.emit(ir.BinOp(op, current, self.expr(node.value)), node)
            self.emit(ir.SetItem(obj, index, new), node)
        else:
            raise self.unsupported(
                node,
                "augmented assignment to this target is not supported",
                "assign to a local variable or an array element",
            )

    def assign(self, target: ast.expr, value: ir.Value, node: ast.AST) -> None:
        if isinstance(target, ast.Name):
            if target.id in self.nested:  # bound to a nested function at compile time
                raise self.unsupported(
                    target,
                    f"`{target.id}` names a nested function and is assigned a value here: "
                    "which one a later use means would depend on the path taken",
                    "give the value a name of its own",
                )
            if (
                isinstance(value, ir.Instr)
                and value.name.startswith("t")
                and value.name[1:].isdigit()
            ):
                value.name = self.fn.fresh_name(target.id)
            self.write(target.id, value)
        elif isinstance(target, ast.Tuple | ast.List):
            if any(isinstance(e, ast.Starred) for e in target.elts):
                raise self.unsupported(
                    target, "starred assignment is not supported", "unpack every element by name"
                )
            self.emit(ir.Call(ir.Const(check_unpack), [value, ir.Const(len(target.elts))]), target)
            for i, elt in enumerate(target.elts):
                item = self.emit(ir.GetItem(value, ir.Const(i)), elt)
                self.assign(elt, item, node)
        elif isinstance(target, ast.Subscript) and _flat_of(target.value) is not None:
            flat = self.expr(cast(ast.expr, _flat_of(target.value)))
            self.emit(ir.Call(ir.Const(flat_set), [flat, self.index(target.slice), value]), target)
        elif isinstance(target, ast.Subscript):
            self.emit(ir.SetItem(self.expr(target.value), self.index(target.slice), value), target)
        else:
            raise self.unsupported(
                target,
                "assignment to this target is not supported",
                "assign to a local variable, a tuple of them or an array element",
            )

    def stmt_Return(self, node: ast.Return) -> None:
        value = self.expr(node.value) if node.value is not None else ir.Const(None)
        run_finals(self, leaving_loop=False)
        if return_from_inlined(self, value, node):  # inside an inlined nested function
            return
        self._terminate(ir.Return(value, loc=self.parsed.loc(node)))

    def stmt_If(self, node: ast.If) -> None:
        then_b, else_b, join = (
            self._new_block("then"),
            self._new_block("else"),
            self._new_block("endif"),
        )
        self.condition(node.test, then_b, else_b)
        for block, stmts in ((then_b, node.body), (else_b, node.orelse)):
            self.seal(block)
            self._start(block)
            self.body(stmts)
            self._jump(join, self.parsed.loc(node))
        self.seal(join)
        self._start(join)

    def stmt_While(self, node: ast.While) -> None:
        header, body = self._new_block("while"), self._new_block("body")
        orelse, exit_b = self._new_block("whileelse"), self._new_block("endwhile")
        loc = self.parsed.loc(node)
        self._jump(header, loc)
        self._start(header)
        self.condition(node.test, body, orelse)
        self.seal(body)
        self._start(body)
        self.loops.append(_Loop(header, exit_b))
        self.body(node.body)
        self.loops.pop()
        self._jump(header, loc)
        self.seal(header)
        self.seal(orelse)
        self._start(orelse)
        self.body(node.orelse)
        self._jump(exit_b, loc)
        self.seal(exit_b)
        self._start(exit_b)

    def stmt_Break(self, node: ast.Break) -> None:
        run_finals(self, leaving_loop=True)
        unbind_left_handlers(self)
        self._jump(self.loops[-1].break_to, self.parsed.loc(node))

    def stmt_Continue(self, node: ast.Continue) -> None:
        run_finals(self, leaving_loop=True)
        unbind_left_handlers(self)
        self._jump(self.loops[-1].continue_to, self.parsed.loc(node))

    def stmt_For(self, node: ast.For) -> None:
        if for_loop(self, node):  # enumerate, zip, reversed, literals (ssa_iteration)
            return
        it = node.iter
        if (
            isinstance(it, ast.Call)
            and isinstance(it.func, ast.Name | ast.Attribute)
            and any(self._global(it.func) is r for r in _RANGES)
        ):
            self._for_range(node, it)
            return
        if isinstance(it, ast.Call) and self._global(it.func) is np.ndindex:
            self._for_ndindex(node, it)
            return
        iterable = self.expr(it)
        self._for_sequence(node, iterable)

    def _global(self, node: ast.expr) -> object:
        """The module-level object a name or dotted name refers to (`np.ndindex`), else
        MISSING (locals, and anything else, are values only typing knows)."""
        if isinstance(node, ast.Name) and node.id not in self.locals:
            return self.parsed.env.lookup(node.id)
        if isinstance(node, ast.Attribute):
            owner = self._global(node.value)
            if _is_namespace(owner):
                return getattr(owner, node.attr, MISSING)
        return MISSING

    def _for_ndindex(self, node: ast.For, call: ast.Call) -> None:
        """`for idx in np.ndindex(shape)`: a counted loop whose item is the index tuple."""
        if call.keywords:
            raise self.unsupported(call, "np.ndindex takes no keywords", "np.ndindex(shape)")
        args = [self.expr(a) for a in call.args]
        shape = args[0] if len(args) == 1 else self.emit(ir.MakeTuple(args), call)
        count = self.emit(ir.Call(ir.Const(ndindex_count), [shape]), call)
        self._counted_loop(
            node,
            ir.Const(0, weak=True),
            ir.Const(1, weak=True),
            test=lambda i: self.emit(ir.Compare("lt", i, count), node.iter),
            item=lambda i: self.emit(ir.Call(ir.Const(ndindex_item), [shape, i]), node.iter),
        )

    def _for_range(self, node: ast.For, call: ast.Call) -> None:
        if call.keywords or not 1 <= len(call.args) <= 3:
            raise self.unsupported(
                call,
                "range() takes 1 to 3 positional arguments",
                "write range(stop), range(start, stop) or range(start, stop, step)",
            )
        args = [self.expr(a) for a in call.args]
        start, stop, step = (
            (ir.Const(0, weak=True), args[0], ir.Const(1, weak=True))
            if len(args) == 1
            else (args[0], args[1], ir.Const(1, weak=True))
            if len(args) == 2
            else tuple(args)
        )
        # range(...) is evaluated once; `range_bounds` raises ValueError for a zero step and
        # converts the bounds to one integer type.
        bounds = self.emit(ir.Call(ir.Const(range_bounds), [start, stop, step]), call)
        start = self.emit(ir.GetItem(bounds, ir.Const(0)), call)
        stop = self.emit(ir.GetItem(bounds, ir.Const(1)), call)
        step_value = step
        step = self.emit(ir.GetItem(bounds, ir.Const(2)), call)
        if isinstance(step_value, ir.Const) and step_value.value in (1, -1):
            # i +- 1 cannot wrap while i is still before `stop`: count i itself.
            self._counted_loop(
                node,
                start,
                step,
                test=lambda i: self.emit(
                    ir.Call(ir.Const(range_more), [i, stop, step]), node.iter
                ),
                item=lambda i: i,
            )
            return
        # Any other step: count the items once, as CPython's range does, and compute each
        # from its position (i + step could wrap past stop; LLVM also gets a trip count).
        count = self.emit(ir.Call(ir.Const(range_count), [start, stop, step]), node.iter)
        self._counted_loop(
            node,
            ir.Const(0, weak=True),
            ir.Const(1, weak=True),
            test=lambda k: self.emit(ir.Compare("lt", k, count), node.iter),
            item=lambda k: self.emit(ir.Call(ir.Const(range_item), [start, k, step]), node.iter),
        )

    def _for_sequence(self, node: ast.For, iterable: ir.Value) -> None:
        """`for x in seq`: an index loop over `len(seq)`. For a tuple, indexing with the loop
        counter converts the items to one type (typeinfer), which is how Python numbers mix.
        The length is read in the loop's header, as Python's iterator does: a list appended to
        in the loop is walked to its new end (`licm` hoists the length of anything else)."""
        iterable = self.emit(ir.Call(ir.Const(cmarkers.iterate), [iterable]), node.iter)
        self._counted_loop(
            node,
            ir.Const(0, weak=True),
            ir.Const(1, weak=True),
            test=lambda i: self.emit(
                ir.Compare("lt", i, self.emit(ir.Call(ir.Const(len), [iterable]), node.iter)),
                node.iter,
            ),
            item=lambda i: self.emit(ir.GetItem(iterable, i), node.iter),
        )

    def _counted_loop(self, node: ast.For, start: ir.Value, step: ir.Value, test, item) -> None:  # noqa: ANN001
        """The shape every `for` takes: a hidden counter from `start`, a header that tests it,
        a body that binds `item(counter)` to the target, a latch that adds `step`, and the
        loop's `else` when the test fails (not after `break`)."""
        loc = self.parsed.loc(node)
        counter = self.hidden_var("range")
        self.write(counter, start)
        header, body = self._new_block("for"), self._new_block("forbody")
        latch = self._new_block("forlatch")
        orelse, exit_b = self._new_block("forelse"), self._new_block("endfor")
        self._jump(header, loc)
        self._start(header)
        self._terminate(ir.Branch(test(self.read(counter)), body, orelse, loc=loc))
        self.seal(body)
        self._start(body)
        self.assign(node.target, item(self.read(counter)), node)
        self.loops.append(_Loop(latch, exit_b))
        self.body(node.body)
        self.loops.pop()
        self._jump(latch, loc)
        self.seal(latch)
        self._start(latch)
        nxt = self.emit(ir.BinOp("add", self.read(counter), step), node.iter, "next")
        self.write(counter, nxt)
        self._jump(header, loc)
        self.seal(header)
        self.seal(orelse)
        self._start(orelse)
        self.body(node.orelse)
        self._jump(exit_b, loc)
        self.seal(exit_b)
        self._start(exit_b)

    def stmt_FunctionDef(self, node: ast.FunctionDef) -> None:
        define(self, node.name, node)  # inlined where it is called (ssa_inline)

    def stmt_Try(self, node: ast.Try) -> None:
        build_try(self, node)  # ssa_try

    def stmt_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            if not isinstance(target, ast.Subscript):
                raise self.unsupported(
                    target,
                    "`del` of a variable is not supported",
                    "let the variable go out of scope instead (`del d[key]` works on dicts)",
                )
            obj, key = self.expr(target.value), self.index(target.slice)
            self.emit(ir.Call(ir.Const(cmarkers.delitem), [obj, key]), target)

    def stmt_Raise(self, node: ast.Raise) -> None:
        if raise_caught(self, node):  # bare `raise` / `raise e` in an except block (ssa_try)
            return
        exc, message = self._exception(node.exc, node)
        self._raise(exc, message, node)

    def _raise(self, exc: type, message: str | ast.expr, node: ast.AST) -> None:
        """Raise `exc(message)`: a constant message, or one formatted from values when it is
        raised (`ssa_format`)."""
        loc = self.parsed.loc(node)
        if isinstance(message, str):
            self._terminate(ir.Raise(exc, message, loc=loc))
            return
        template, style, parts = formatted_message(self, message)
        values = [self.expr(p) for p in parts]
        consts = [ir.Const(exc), ir.Const(template), ir.Const(style)]
        desc = self.emit(ir.Call(ir.Const(formatted_exception), [*consts, *values]), message)
        self._terminate(ir.RaiseValue(desc, loc=loc))

    def _exception(self, exc_node: ast.expr | None, node: ast.AST) -> tuple[type, str | ast.expr]:
        hint = 'raise a built-in exception with a constant message: raise ValueError("...")'
        if exc_node is None:
            raise self.unsupported(node, "a bare `raise` is not supported", hint)
        call_args: list[ast.expr] = []
        target = exc_node
        if isinstance(exc_node, ast.Call):
            target, call_args = exc_node.func, exc_node.args
            if exc_node.keywords:
                raise self.unsupported(
                    exc_node, "exception keyword arguments are not supported", hint
                )
        exc = self._static_value(target)
        if not (isinstance(exc, type) and issubclass(exc, BaseException)):
            raise self.unsupported(target, "only exception classes can be raised", hint)
        if not call_args:
            return exc, ""
        if (
            len(call_args) == 1
            and isinstance(call_args[0], ast.Constant)
            and isinstance(call_args[0].value, str)
        ):
            return exc, call_args[0].value
        if len(call_args) == 1:
            return exc, call_args[0]  # formatted when raised
        raise self.unsupported(
            call_args[1], "an exception takes one message here", 'raise ValueError(f"... {x}")'
        )

    def stmt_Assert(self, node: ast.Assert) -> None:
        ok, fail = self._new_block("assertok"), self._new_block("assertfail")
        self.condition(node.test, ok, fail)
        self.seal(fail)
        self._start(fail)
        message: str | ast.expr = ""
        if node.msg is not None:
            is_text = isinstance(node.msg, ast.Constant) and isinstance(node.msg.value, str)
            message = str(cast(ast.Constant, node.msg).value) if is_text else node.msg
        self._raise(AssertionError, message, node)
        self.seal(ok)
        self._start(ok)

    # --- conditions (branching on truth, with short circuits) ----------------------------

    def condition(self, node: ast.expr, if_true: ir.Block, if_false: ir.Block) -> None:
        """Branch to `if_true` or `if_false` on the truth of `node`, short-circuiting."""
        loc = self.parsed.loc(node)
        value: ast.expr | ir.Value
        if isinstance(node, ast.BoolOp):
            for value in node.values[:-1]:
                nxt = self._new_block("cond")
                if isinstance(node.op, ast.And):
                    self.condition(value, nxt, if_false)
                else:
                    self.condition(value, if_true, nxt)
                self.seal(nxt)
                self._start(nxt)
            self.condition(node.values[-1], if_true, if_false)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self.condition(node.operand, if_false, if_true)
        elif isinstance(node, ast.Compare) and len(node.ops) > 1:
            lhs = self.expr(node.left)
            for op, right in zip(node.ops[:-1], node.comparators[:-1]):
                rhs = self.expr(right)
                nxt = self._new_block("cond")
                test = self.emit(ir.Compare(CMPOPS[type(op)], lhs, rhs), node)
                self._terminate(ir.Branch(test, nxt, if_false, loc=loc))
                self.seal(nxt)
                self._start(nxt)
                lhs = rhs
            rhs = self.expr(node.comparators[-1])
            test = self.emit(ir.Compare(CMPOPS[type(node.ops[-1])], lhs, rhs), node)
            self._terminate(ir.Branch(test, if_true, if_false, loc=loc))
        else:
            value = self.truth(self.expr(node), node)
            self._terminate(ir.Branch(value, if_true, if_false, loc=loc))

    def truth(self, value: ir.Value, node: ast.AST) -> ir.Value:
        if isinstance(value, ir.Compare):
            return value
        return self.emit(ir.UnaryOp("truth", value), node)

    # --- expressions ----------------------------------------------------------------------

    def expr(self, node: ast.expr) -> ir.Value:
        method = getattr(self, f"expr_{type(node).__name__}", None)
        if method is None:
            hint = _UNSUPPORTED_EXPR_HINTS.get(type(node), "rewrite it with supported syntax")
            what = _EXPR_NAMES.get(type(node), f"{type(node).__name__} expressions")
            raise self.unsupported(node, f"{what} are not supported", hint)
        return method(node)

    def expr_Lambda(self, node: ast.Lambda) -> ir.Value:
        return as_value(self, node, "<lambda>", node)  # a lambda as a value (ssa_inline)

    def expr_Constant(self, node: ast.Constant) -> ir.Value:
        value = node.value
        if value is Ellipsis or isinstance(value, bytes):
            raise self.unsupported(
                node,
                f"the constant {value!r} is not supported",
                "use numbers, booleans, None or an exception message",
            )
        weak = isinstance(value, int | float | complex) and not isinstance(value, bool)
        return ir.Const(value, weak=weak)

    def expr_JoinedStr(self, node: ast.JoinedStr) -> ir.Value:
        """`f"n={n:>4}"` is `"n={:>4}".format(n)` (`lib.strmethods`): the same text."""
        template, _, parts = formatted_message(self, node)
        if not parts:
            return ir.Const(template.replace("{{", "{").replace("}}", "}"))
        method = self.emit(ir.GetAttr(ir.Const(template), "format"), node)
        return self.emit(ir.Call(method, [self.expr(p) for p in parts]), node)

    def expr_Name(self, node: ast.Name) -> ir.Value:
        return self.name(node)

    def name(self, node: ast.Name) -> ir.Value:
        if node.id in self.nested:  # used as a value: a function of its own (ssa_inline)
            return as_value(self, self.nested[node.id], node.id, node)
        value: object
        if node.id in self.locals:
            value = self.read(node.id)
            if value is UNDEFINED:
                self.undefined_reads.setdefault(node.id, node)
            return value
        if node.id in self.handler_names:
            raise self.unsupported(
                node,
                f"the exception `{node.id}` bound by `except ... as {node.id}` can only be "
                "re-raised",
                f"`raise {node.id}` or a bare `raise`; str({node.id}) and {node.id}.args are not "
                "supported",
            )
        value = self.parsed.env.lookup(node.id)
        if value is MISSING:
            raise self.unsupported(
                node,
                f"name `{node.id}` is not defined",
                "define it at module level before the first call",
            )
        return ir.Const(value)

    def _static_value(self, node: ast.expr) -> object:
        """The compile-time value of a global name or attribute chain, else MISSING."""
        if isinstance(node, ast.Name) and node.id not in self.locals:
            return self.parsed.env.lookup(node.id)
        if isinstance(node, ast.Attribute):
            base = self._static_value(node.value)
            if base is not MISSING and _is_namespace(base):
                return getattr(base, node.attr, MISSING)
        return MISSING

    def expr_Attribute(self, node: ast.Attribute) -> ir.Value:
        static = self._static_value(node)
        if static is not MISSING:
            return ir.Const(static)
        base_static = self._static_value(node.value)
        if base_static is not MISSING and _is_namespace(base_static):
            raise self.unsupported(
                node,
                f"`{getattr(base_static, '__name__', base_static)}` has no attribute "
                f"`{node.attr}`",
                "check the spelling",
            )
        return self.emit(ir.GetAttr(self.expr(node.value), node.attr), node)

    def expr_BinOp(self, node: ast.BinOp) -> ir.Value:
        lhs, rhs = self.expr(node.left), self.expr(node.right)
        folded = _fold_constants(type(node.op), lhs, rhs)
        if folded is not None:
            return folded
        return self.emit(ir.BinOp(BINOPS[type(node.op)], lhs, rhs), node)

    def expr_UnaryOp(self, node: ast.UnaryOp) -> ir.Value:
        operand = self.expr(node.operand)
        if (
            isinstance(node.op, ast.USub)
            and isinstance(operand, ir.Const)
            and isinstance(operand.value, int | float | complex)
            and not isinstance(operand.value, bool)
        ):
            return ir.Const(-operand.value, weak=operand.weak)
        return self.emit(ir.UnaryOp(UNARYOPS[type(node.op)], operand), node)

    def expr_Compare(self, node: ast.Compare) -> ir.Value:
        membership = range_membership(self, node)
        if membership is not None:
            return membership
        if len(node.ops) == 1:
            return self.emit(
                ir.Compare(
                    CMPOPS[type(node.ops[0])], self.expr(node.left), self.expr(node.comparators[0])
                ),
                node,
            )
        return self._branchy_bool(node)

    def _branchy_bool(self, node: ast.expr) -> ir.Value:
        """A boolean computed by branches (chained comparison): True/False joined by a phi."""
        t, f, join = self._new_block("true"), self._new_block("false"), self._new_block("join")
        self.condition(node, t, f)
        var = self.hidden_var("bool")
        loc = self.parsed.loc(node)
        for block, value in ((t, True), (f, False)):
            self.seal(block)
            self._start(block)
            self.write(var, ir.Const(value))
            self._jump(join, loc)
        self.seal(join)
        self._start(join)
        return self.read(var)

    def expr_BoolOp(self, node: ast.BoolOp) -> ir.Value:
        """`a and b` is `a` if `a` is falsy else `b` (and `or` the reverse), lazily."""
        var = self.hidden_var("boolop")
        join = self._new_block("join")
        loc = self.parsed.loc(node)
        for value_node in node.values[:-1]:
            value = self.expr(value_node)
            self.write(var, value)
            nxt = self._new_block("rhs")
            test = self.truth(value, value_node)
            if isinstance(node.op, ast.And):
                self._terminate(ir.Branch(test, nxt, join, loc=loc))
            else:
                self._terminate(ir.Branch(test, join, nxt, loc=loc))
            self.seal(nxt)
            self._start(nxt)
        self.write(var, self.expr(node.values[-1]))
        self._jump(join, loc)
        self.seal(join)
        self._start(join)
        return self.read(var)

    def expr_IfExp(self, node: ast.IfExp) -> ir.Value:
        t, f, join = (
            self._new_block("ifexp"),
            self._new_block("ifexpelse"),
            self._new_block("join"),
        )
        self.condition(node.test, t, f)
        var = self.hidden_var("ifexp")
        loc = self.parsed.loc(node)
        for block, value_node in ((t, node.body), (f, node.orelse)):
            self.seal(block)
            self._start(block)
            self.write(var, self.expr(value_node))
            self._jump(join, loc)
        self.seal(join)
        self._start(join)
        return self.read(var)

    def expr_NamedExpr(self, node: ast.NamedExpr) -> ir.Value:
        value = self.expr(node.value)
        self.write(node.target.id, value)
        return value

    def expr_Tuple(self, node: ast.Tuple) -> ir.Value:
        items = [self.expr(e) for e in node.elts]
        if all(isinstance(i, ir.Const) and not _is_object_const(i) for i in items):
            return ir.Const(tuple(cast(ir.Const, i).value for i in items))
        return self.emit(ir.MakeTuple(items), node)

    def expr_List(self, node: ast.List) -> ir.Value:
        """`[a, b]`: a typed list (`jitcore.lib.lists`)."""
        if any(isinstance(e, ast.Starred) for e in node.elts):
            raise self.unsupported(
                node, "`*items` in list displays is not supported", "append the items in a loop"
            )
        items = [self.expr(e) for e in node.elts]
        return self.emit(ir.Call(ir.Const(list_literal), items), node, "list")

    def expr_ListComp(self, node: ast.ListComp) -> ir.Value:
        """`[elt for x in xs if c ...]`: an empty list and nested loops that append to it. The
        comprehension's own variables are renamed, so they do not leak (Python 3 scoping)."""
        var = self.hidden_var("listcomp")
        self.locals.add(var)
        self.write(var, self.emit(ir.Call(ir.Const(list_literal), []), node, "list"))
        body, names = _comprehension_loops(node, var)
        self.locals.update(names)
        self.stmt(body)
        return self.read(var)

    def _list_of_range(self, node: ast.Call) -> ir.Value | None:
        """`list(range(...))` as the comprehension `[i for i in range(...)]`."""
        if not (
            isinstance(node.func, ast.Name)
            and node.func.id not in self.locals
            and self.parsed.env.lookup(node.func.id) is list
            and len(node.args) == 1
            and not node.keywords
        ):
            return None
        arg = node.args[0]
        if not (
            isinstance(arg, ast.Call)
            and isinstance(arg.func, ast.Name)
            and arg.func.id not in self.locals
            and self.parsed.env.lookup(arg.func.id) is range
        ):
            return None
        target = ast.Name(id="$i", ctx=ast.Store())
        comp = ast.ListComp(
            elt=ast.Name(id="$i", ctx=ast.Load()),
            generators=[ast.comprehension(target=target, iter=arg, ifs=[], is_async=0)],
        )
        return self.expr_ListComp(ast.copy_location(comp, node))

    def expr_Subscript(self, node: ast.Subscript) -> ir.Value:
        flat = _flat_of(node.value)
        if flat is not None:  # a.flat[i]
            args = [self.expr(flat), self.index(node.slice)]
            return self.emit(ir.Call(ir.Const(flat_get), args), node)
        return self.emit(ir.GetItem(self.expr(node.value), self.index(node.slice)), node)

    def index(self, node: ast.expr) -> ir.Value:
        if isinstance(node, ast.Slice):
            parts = [
                self.expr(p) if p is not None else ir.Const(None)
                for p in (node.lower, node.upper, node.step)
            ]
            return self.emit(ir.Call(ir.Const(slice), parts), node)
        if isinstance(node, ast.Tuple):
            items = [self.index(e) for e in node.elts]
            if all(isinstance(i, ir.Const) for i in items):
                return ir.Const(tuple(cast(ir.Const, i).value for i in items))
            return self.emit(ir.MakeTuple(items), node)
        if isinstance(node, ast.Constant) and node.value is Ellipsis:
            return ir.Const(Ellipsis)  # `a[..., 0]`: only as an index
        return self.expr(node)

    def expr_Dict(self, node: ast.Dict) -> ir.Value:
        if not node.keys:
            return self.emit(ir.Call(ir.Const(dict), []), node)
        args: list[ir.Value] = []
        for key, value in zip(node.keys, node.values):
            if key is None:
                raise self.unsupported(
                    value, "`**` in dict literals is not supported", "store the items in a loop"
                )
            args += [self.expr(key), self.expr(value)]
        return self.emit(ir.Call(ir.Const(cmarkers.dict_literal), args), node)

    def expr_Set(self, node: ast.Set) -> ir.Value:
        for elt in node.elts:
            if isinstance(elt, ast.Starred):
                raise self.unsupported(
                    elt, "`*` in set literals is not supported", "add the items in a loop"
                )
        items = [self.expr(e) for e in node.elts]
        return self.emit(ir.Call(ir.Const(cmarkers.set_literal), items), node)

    def expr_DictComp(self, node: ast.DictComp) -> ir.Value:
        return self._comprehension(node, dict)

    def expr_SetComp(self, node: ast.SetComp) -> ir.Value:
        return self._comprehension(node, set)

    def _comprehension(self, node: ast.DictComp | ast.SetComp, kind: type) -> ir.Value:
        """`{k: v for x in xs if c}` as the loop Python runs: a new container, then `for`
        statements (one per `for` clause, `if` clauses inside) storing each item. The loop
        variables get hidden names, so they do not leak into the function (Python 3 scoping)."""
        var = self.hidden_var("comp")
        self.locals.add(var)
        self.write(var, self.emit(ir.Call(ir.Const(kind), []), node))
        renames: dict[str, str] = {}
        for gen in node.generators:
            if gen.is_async:
                raise self.unsupported(gen, "async comprehensions are not supported", "use a loop")
            for target in ast.walk(gen.target):
                if isinstance(target, ast.Name):
                    renames[target.id] = f"{var}.{target.id}"
        self.locals.update(renames.values())
        rename = _Renamer(renames)
        container = ast.Name(id=var, ctx=ast.Load())
        inner: ast.stmt
        if isinstance(node, ast.DictComp):
            key, value = rename.apply(node.key), rename.apply(node.value)
            store = ast.Subscript(value=container, slice=key, ctx=ast.Store())
            inner = ast.Assign(targets=[store], value=value)
        else:
            add = ast.Attribute(value=container, attr="add", ctx=ast.Load())
            inner = ast.Expr(ast.Call(func=add, args=[rename.apply(node.elt)], keywords=[]))
        for i, gen in reversed(list(enumerate(node.generators))):
            for cond in reversed(gen.ifs):
                inner = ast.If(test=rename.apply(cond), body=[inner], orelse=[])
            iterable = gen.iter if i == 0 else rename.apply(gen.iter)
            target = rename.apply(gen.target)
            inner = ast.For(target=target, iter=iterable, body=[inner], orelse=[])
        ast.copy_location(inner, node)
        ast.fix_missing_locations(inner)
        self.stmt(inner)
        return self.read(var)

    def expr_Slice(self, node: ast.Slice) -> ir.Value:
        return self.index(node)

    def _fold_integer_type(self, func: ir.Value, node: ast.Call) -> ir.Const | None:
        """`np.uint64(9223372036854775808)` of an int literal or global beyond int64 that the
        type holds: the NumPy scalar itself, so that such an int (which no Python int in
        compiled code can be) still makes a uint64 constant. Other conversions stay calls."""
        if not (
            isinstance(func, ir.Const)
            and isinstance(func.value, type)
            and issubclass(func.value, np.integer)
            and len(node.args) == 1
            and not node.keywords
        ):
            return None
        arg = node.args[0]
        negate = isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.USub)
        operand = arg.operand if isinstance(arg, ast.UnaryOp) and negate else arg
        value = operand.value if isinstance(operand, ast.Constant) else self._static_value(operand)
        if type(value) is not int:
            return None
        value = -value if negate else value
        info = np.iinfo(func.value)
        if -(2**63) <= value < 2**63 or not info.min <= value <= info.max:
            return None  # an int64 is typed as one, and converted as any value is
        return ir.Const(func.value(value))

    def expr_Call(self, node: ast.Call) -> ir.Value:
        reduced = reduction(self, node)  # sum/any/all/min/max of an iterable (ssa_iteration)
        if reduced is not None:
            return reduced
        inlined = inline_call(self, node)  # a nested function or lambda (ssa_inline)
        if inlined is not None:
            return inlined
        for kw in node.keywords:
            if kw.arg is None:
                raise self.unsupported(
                    kw.value,
                    "`**kwargs` in calls is not supported",
                    "pass the keyword arguments explicitly",
                )
        listed = self._list_of_range(node)
        if listed is not None:
            return listed
        func = self.expr(node.func)
        converted = self._fold_integer_type(func, node)
        if converted is not None:
            return converted
        args = [
            self.emit(ir.Call(ir.Const(spread), [self.expr(a.value)]), a)  # f(*t): starcall
            if isinstance(a, ast.Starred)
            else self.expr(a)
            for a in node.args
        ]
        kwargs = {kw.arg: self.expr(kw.value) for kw in node.keywords if kw.arg}
        return self.emit(ir.Call(func, args, kwargs), node)


class _Renamer(ast.NodeTransformer):
    """Copies an expression with some names replaced (a comprehension's loop variables)."""

    def __init__(self, renames: dict[str, str]) -> None:
        self.renames = renames

    def apply(self, node: ast.expr) -> ast.expr:
        return self.visit(copy.deepcopy(node))  # type: ignore[no-any-return]

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id in self.renames:
            return ast.copy_location(ast.Name(id=self.renames[node.id], ctx=node.ctx), node)
        return node


def _comprehension_loops(node: ast.ListComp, var: str) -> tuple[ast.stmt, set[str]]:
    """The statements a list comprehension means: `for` per generator, `if` per condition, and
    `var.append(elt)` innermost; the targets get hidden names (`$c1.x`)."""
    renames: dict[str, str] = {}
    loops: list[tuple[ast.comprehension, ast.expr]] = []
    for k, gen in enumerate(node.generators):
        if gen.is_async:
            raise UnsupportedError(
                "async comprehensions are not supported", hint="use a plain `for`"
            )
        iterable = _Renamer(renames).apply(gen.iter) if k else gen.iter  # the first: outer scope
        for target in ast.walk(gen.target):
            if isinstance(target, ast.Name):
                renames[target.id] = f"{var}.{target.id}"
        loops.append((gen, iterable))
    append = ast.Expr(
        ast.Call(
            func=ast.Attribute(ast.Name(id=var, ctx=ast.Load()), "append", ast.Load()),
            args=[_Renamer(renames).apply(node.elt)],
            keywords=[],
        )
    )
    inner: ast.stmt = append
    for gen, iterable in reversed(loops):
        for cond in reversed(gen.ifs):
            inner = ast.If(test=_Renamer(renames).apply(cond), body=[inner], orelse=[])
        inner = ast.For(
            target=_Renamer(renames).apply(gen.target), iter=iterable, body=[inner], orelse=[]
        )
    for n in ast.walk(inner):
        if not hasattr(n, "lineno") and isinstance(n, ast.expr | ast.stmt):
            ast.copy_location(n, node)
    return inner, set(renames.values())


def _is_namespace(obj: object) -> bool:
    """Objects whose attributes are resolved at compile time: modules and classes."""
    import types

    return isinstance(obj, types.ModuleType | type)


def _flat_of(node: ast.expr) -> ast.expr | None:
    """`a` of `a.flat`: indexing `a.flat` calls the `flat_get`/`flat_set` markers."""
    if isinstance(node, ast.Attribute) and node.attr == "flat":
        return node.value
    return None


def _is_object_const(c: ir.Const) -> bool:
    return not isinstance(c.value, int | float | complex | bool | type(None) | tuple)


_FOLDABLE = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}


def _fold_constants(op: type, lhs: ir.Value, rhs: ir.Value) -> ir.Const | None:
    """Fold `2 * 3` written in the source (only exact, always-defined operations)."""
    if not (isinstance(lhs, ir.Const) and isinstance(rhs, ir.Const) and op in _FOLDABLE):
        return None
    a, b = lhs.value, rhs.value
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (a, b)):
        return None
    result = _FOLDABLE[op](a, b)
    if isinstance(result, int) and not -(2**63) <= result < 2**63:
        return None
    return ir.Const(result, weak=lhs.weak and rhs.weak)


def _assigned_names(tree: ast.FunctionDef) -> set[str]:
    """Python's rule: a name assigned anywhere in the function is local everywhere in it."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def _remove_trivial_phis(fn: ir.Function) -> dict[ir.Value, ir.Value]:
    """Replace phis whose incoming values are all one value (or the phi itself). A phi with an
    UNDEFINED input is not trivial: on that path Python raises UnboundLocalError. Returns what
    replaced each removed phi."""
    replaced: dict[ir.Value, ir.Value] = {}
    changed = True
    while changed:
        changed = False
        for block in fn.blocks:
            for phi in list(block.phis()):
                values = {id(v): v for v in phi.incoming.values() if v is not phi}
                if len(values) != 1:
                    continue
                (same,) = values.values()
                block.instrs.remove(phi)
                fn.replace_all_uses(phi, same)
                replaced[phi] = same
                changed = True
    return replaced


def _guard_maybe_undefined(
    fn: ir.Function, copies: list[tuple[ir.Block, ir.Instr | None, ir.Value, SourceLoc]]
) -> None:
    """Give each phi that may carry an undefined variable a companion boolean phi, and check it
    before every use: reading the variable on such a path raises UnboundLocalError, as in
    Python."""
    maybe: dict[ir.Phi, ir.Phi] = {}
    changed = True
    while changed:
        changed = False
        for block in fn.blocks:
            for phi in block.phis():
                if phi in maybe:
                    continue
                if any(v is UNDEFINED or v in maybe for v in phi.incoming.values()):
                    flag = ir.Phi({}, name=fn.fresh_name("$bound"), loc=phi.loc)
                    maybe[phi] = flag
                    changed = True
    if not maybe:
        return
    for phi, flag in maybe.items():
        for pred, v in phi.incoming.items():
            flag.incoming[pred] = ir.Const(v is not UNDEFINED) if v not in maybe else maybe[v]  # type: ignore[index]
        block = next(b for b in fn.blocks if phi in b.instrs)
        block.instrs.insert(0, flag)
    after: dict[tuple[ir.Block, ir.Instr | None], list[ir.Instr]] = {}
    for block, anchor, value, loc in copies:
        if value in maybe:
            check = _bound_check(fn, value, maybe[value], loc)  # type: ignore[index]
            after.setdefault((block, anchor), []).append(check)
    for block in fn.blocks:
        new_instrs: list[ir.Instr] = []
        pending = after.get((block, None), [])  # copies read before any instruction
        for instr in block.instrs:
            if not isinstance(instr, ir.Phi):
                new_instrs.extend(pending)
                pending = []
                for op in instr.operands():
                    if op in maybe:
                        new_instrs.append(_bound_check(fn, op, maybe[op], instr.loc))  # type: ignore[index]
            new_instrs.append(instr)
            if not isinstance(instr, ir.Phi):
                new_instrs.extend(after.get((block, instr), []))
        new_instrs.extend(pending)
        if block.terminator is not None:
            for op in block.terminator.operands():
                if op in maybe:
                    new_instrs.append(_bound_check(fn, op, maybe[op], block.terminator.loc))  # type: ignore[index]
        block.instrs = new_instrs


def _bound_check(fn: ir.Function, phi: ir.Value, flag: ir.Phi, loc: SourceLoc) -> ir.Instr:
    var = phi.name.split(".")[0]  # type: ignore[attr-defined]
    return ir.Call(ir.Const(check_bound), [flag, ir.Const(var)], name=fn.fresh_name("t"), loc=loc)


def build_ssa(parsed: ParsedFunction, arg_types: tuple | None = None) -> ir.Function:
    """Build the untyped SSA IR of a parsed function (the `ssa` stage). `arg_types`, when
    given, lets a loop over a tuple argument (`*args`) be unrolled (ssa_iteration)."""
    builder = _Builder(parsed)
    builder.arg_types = dict(zip(parsed.arg_names, arg_types or ()))
    return builder.build()
