"""Stage `typeinfer`: untyped `ir.Function` + argument types -> typed `ir.Function`.

In:  SSA IR from `ssa` and the specialization's argument types.
Out: the same function where every value has a type: a forward data-flow fixpoint gives each
     instruction the type its `jitcore.lib` rule computes from its operands, and each phi the
     promotion of its incoming types. Then explicit `cast` instructions are inserted wherever
     types meet (operands of a rule, phi inputs, returned values), every operation records its
     implementation in `impl`, and operations known at compile time become constants. Array
     indices are normalized by an explicit `checkindex` before each array `getitem`/`setitem`.
Holds afterwards: every instruction has a type and (except phis, casts, tuples) an `impl`;
     operand types equal what the implementation expects; `return_type` is set.
An inconsistent use is a `TypingError` pointing at the source line.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn, cast

import numpy as np

from jitcore import frozenwrites
from jitcore.errors import JitError, TypingError, UnsupportedError
from jitcore.ir import containers as cmarkers
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.coerce import const_type, convert_const, join_optional, unify, weak_join
from jitcore.ir.markers import MISSING, range_bounds, range_count, range_item
from jitcore.lib import (
    arrays,
    catalog,  # noqa: F401 - importing it registers every operation
    containers,
    lists,
    operators,
    optional,
)
from jitcore.lib.registry import (
    Operand,
    Resolved,
    call_kernel,
    implicit_dispatcher,
    is_library_kernel,
    lookup_function,
    lookup_method,
    name_operation,
)
from jitcore.listinfer import ListInference, check_lists_typed, origin
from jitcore.liveblocks import Liveness, prune
from jitcore.starcall import is_spread, resolve_spread_call

# Resolves a call of another jitted function: (dispatcher, positional, keyword) -> Resolved.
CalleeResolver = Callable[[object, list[Operand], dict[str, Operand]], Resolved]


@dataclass(frozen=True, slots=True)
class BoundMethod(T.Type):
    """`x.name` before it is called: the receiver's type and the method name."""

    recv: T.Type
    method: str

    @property
    def name(self) -> str:
        return f"method({self.recv.name}.{self.method})"


@dataclass
class TypeResult:
    fn: ir.Function
    complete: bool  # False if a recursive call's return type was still unknown


class _Inference:
    def __init__(
        self,
        fn: ir.Function,
        arg_types: tuple[T.Type, ...],
        resolve_callee: CalleeResolver,
        self_return: T.Type | None,
    ) -> None:
        self.fn = fn
        self.resolve_callee = resolve_callee
        self.self_return = self_return
        if len(arg_types) != len(fn.args):
            raise TypingError(f"{fn.name} takes {len(fn.args)} arguments, got {len(arg_types)}")
        for arg, t in zip(fn.args, arg_types):
            arg.type = t
        # Which values are Python numbers rather than NumPy scalars (their `Origin`): NumPy 2
        # treats Python numbers as "weak" (they adopt the other operand's dtype), and they
        # follow Python's rules (`x / 0.0` raises). Python int/float/complex/bool arguments are
        # taken to be Python numbers (README, differences); an instruction's origin follows
        # its operands' (`_origin_of`) and is recomputed with its type until the fixpoint.
        self.origin: dict[ir.Value, Origin] = {a: _arg_origin(a.type) for a in fn.args}
        # The types empty `{}` / `set()` instructions take from what is later stored into
        # them (`Resolved.refines`); `refining` is set when one changed in this round.
        self.refined: dict[ir.Instr, T.Type] = {}
        self.refining = False
        self.defer_none = False  # see `run`
        self.lists = ListInference()  # the item types of `[]` and other list literals
        # The blocks typed in the latest sweep: a branch whose condition typing decides
        # (`if a.ndim == 1:`) leaves the other way untyped (`liveblocks`).
        self.liveness = Liveness(fn.blocks[0])
        self.block = fn.blocks[0]  # the block being typed (its phis' incoming edges)

    # --- operands -------------------------------------------------------------------------

    @staticmethod
    def type_of(v: ir.Value) -> T.Type | None:
        if isinstance(v, ir.Const):
            if v.type is None:
                v.type = T.BOTTOM if v.value is MISSING else const_type(v.value)
            return v.type
        return v.type

    def operand(self, v: ir.Value) -> Operand:
        t = self.type_of(v)
        assert t is not None
        if isinstance(t, T.Opaque):  # a compile-time object is its own constant, phi or not
            return Operand(t, t.obj)
        if isinstance(t, T.Optional):  # used as its value: `rewrite` inserts the check
            return Operand(t.inner, weak=self.is_weak(v))
        if isinstance(v, ir.Const) and not isinstance(t, T.Array):  # frozen arrays are data
            return Operand(t, v.value, self.is_weak(v))
        return Operand(t, weak=self.is_weak(v))

    # --- the fixpoint ---------------------------------------------------------------------

    def run(self) -> bool:
        """Iterate to a fixpoint; return True if no value is left at bottom."""
        order = self.fn.reverse_postorder()
        # First without deciding that a variable is None while a path to it is still untyped
        # (`best = None` before a loop that assigns it: it becomes optional, and its uses must
        # not be typed as uses of None meanwhile), then deciding.
        for deferring in (True, False):
            self.defer_none = deferring
            self._settle(order)
        return all(
            instr.type is not None and not isinstance(instr.type, T.Bottom)
            for block in order
            if self.liveness.is_live(block)
            for instr in block.instrs
        )

    def _settle(self, order: list[ir.Block]) -> None:
        changed = True
        rounds = 0
        while changed:
            rounds += 1
            if rounds > 100:
                raise TypingError(
                    "type inference did not settle",
                    loc=self.fn.loc,
                    hint="give loop variables one type before the loop",
                )
            changed = False
            self.liveness = Liveness(order[0])
            for block in order:
                self.block = block
                if not self.liveness.is_live(block):
                    self.liveness.leave(block)
                    continue
                for instr in block.instrs:
                    before = self.origin.get(instr)
                    new = self.lists.observe(instr, self.infer(instr), self.operand)
                    if new is not None and new != instr.type:
                        instr.type = new
                        changed = True
                    # a value that stops being a Python number changes the rules its users
                    # follow (`/` by zero raises or not) even where no type changes
                    changed = changed or self.origin.get(instr) != before
                self.liveness.leave(block)
            changed = changed or self.refining
            self.refining = False
            changed = self.lists.take_changed() or changed

    def infer(self, instr: ir.Instr) -> T.Type | None:
        if isinstance(instr, ir.Phi):
            return self._infer_phi(instr)
        if isinstance(instr, ir.Cast | ir.ExcPending | ir.CaughtExc | ir.ExcMatch):
            return instr.type  # typed when built (casts; `try`'s instructions, ssa_try)
        operands = instr.operands()
        try:
            types = [self.type_of(v) for v in operands]
        except JitError as err:  # a constant no compiled type holds (a float16 global array)
            raise err.located(instr.loc) from err.__cause__
        if any(t is None for t in types):
            return None
        if any(isinstance(t, T.Bottom) for t in types):
            return T.BOTTOM
        operand = self.operand_as_is if _keeps_optional(instr) else self.operand
        try:
            resolved = name_operation(instr, self.resolve(instr, operand), operand)
        except JitError as err:  # a rule's error belongs at the instruction that used it
            raise err.located(instr.loc) from err.__cause__
        if resolved is not None and resolved.refines is not None:
            self._refine(_container_operand(instr), resolved.refines)
        if resolved is not None and instr in self.refined:
            resolved = containers.retyped(resolved, self.refined[instr])
        instr.impl = resolved
        self.origin[instr] = self._origin_of(instr, operands, resolved)
        return resolved.ret if resolved is not None else None

    def _infer_phi(self, phi: ir.Phi) -> T.Type | None:
        """Strong inputs decide; Python literals (weak, as NumPy 2 treats Python scalars) adopt
        their type: `s = 0.0; s += x32` keeps `s` float32, as NumPy computes it."""
        strong: T.Type | None = None
        weak: list[tuple[ir.Value, T.Type]] = []
        origin: Origin | None = None
        if self.defer_none and self._only_none_so_far(phi):
            return None
        for v in self._live_incoming(phi):
            t = self.type_of(v)
            if t is None or isinstance(t, T.Bottom):
                continue
            # a Python number only if it is one on every path (per item, for tuples); None
            # (which makes the value optional) does not count
            here = self.origin_of(v)
            if not isinstance(t, T.NoneType):
                origin = here if origin is None else _meet(origin, here)
            if self.is_weak(v):
                weak.append((v, t))
                continue
            if strong is None:
                strong = t
            elif strong != t:
                joined = join_optional(strong, t)
                if joined is None:
                    self._phi_conflict(phi, v, strong, t)
                strong = joined
        if strong is None:
            result: T.Type | None = None
            for v, t in weak:
                result = (
                    t
                    if result is None
                    else (join_optional(result, t) or self._phi_conflict(phi, v, result, t))
                )
            self.origin[phi] = True if origin is None else origin
            return result
        self.origin[phi] = False if origin is None else origin
        for v, t in weak:
            if isinstance(strong, T.Scalar) and isinstance(t, T.Scalar):
                strong = (
                    weak_join(strong, t) if not strong.is_bool else cast(T.Type, unify(strong, t))
                )
            elif isinstance(strong, T.Optional) and _optional_scalar(strong) and is_scalar(t):
                strong = T.Optional(_weak_join_scalar(strong.inner, cast(T.Scalar, t)))
            else:
                joined = join_optional(strong, t)
                if joined is None:
                    self._phi_conflict(phi, v, strong, t)
                strong = joined
        return strong

    def _live_incoming(self, phi: ir.Phi) -> list[ir.Value]:
        """The values `phi` (in the block being typed) can receive: not along dead edges."""
        return [
            v
            for pred, v in phi.incoming.items()
            if not self.liveness.edge_is_dead(pred, self.block)
        ]

    def _only_none_so_far(self, phi: ir.Phi) -> bool:
        """Some input is still untyped and every typed one is None."""
        types = [self.type_of(v) for v in self._live_incoming(phi)]
        typed = [t for t in types if t is not None and not isinstance(t, T.Bottom)]
        return len(typed) < len(types) and all(isinstance(t, T.NoneType) for t in typed)

    def _refine(self, v: ir.Value, t: T.Type) -> None:
        """Give the empty containers `v` may come from the item types a store calls for."""
        seen: set[int] = set()
        stack = [v]
        while stack:
            value = stack.pop()
            if id(value) in seen:
                continue
            seen.add(id(value))
            if isinstance(value, ir.Phi):
                stack.extend(value.incoming.values())
            elif isinstance(value, ir.Cast):
                stack.append(value.value)
            elif isinstance(value, ir.Call) and containers.is_unrefined(
                self.refined.get(value, value.type)
            ):
                old = self.refined.get(value)
                new = t if old is None else containers.join_refinement(old, t)
                if new != old:
                    self.refined[value] = new
                    self.refining = True

    def _origin_of(
        self, instr: ir.Instr, operands: tuple[ir.Value, ...], resolved: Resolved | None
    ) -> Origin:
        """Whether `instr`'s result is a Python number (see `Origin`), as Python would make it:
        an operator between Python numbers gives one, a `math` function, `int()`, `float()`,
        `len` and shapes always do, a jitted callee as its own return says; anything that
        touches a NumPy scalar, array or NumPy function gives a NumPy scalar."""
        if resolved is None:
            return False
        if resolved.const is not MISSING:
            return _const_origin(resolved.const)
        if resolved.origin is not None:
            return cast(Origin, resolved.origin)
        on_lists = origin(instr, resolved)
        if on_lists is not None:
            return cast(Origin, on_lists)
        if not isinstance(resolved.ret, T.Scalar | T.Tuple | T.Optional):
            return False
        if isinstance(instr, ir.Compare) and instr.op in ("is", "isnot", "in", "notin"):
            return True  # Python's `is`, `in` and `not` always give a Python bool
        if _keeps_optional(instr):
            return True  # `x == None` of an optional: a Python bool too
        if isinstance(instr, ir.UnaryOp) and instr.op == "not":
            return True
        if isinstance(instr, ir.MakeTuple):
            return tuple(self.origin_of(v) for v in instr.items)
        if isinstance(instr, ir.BinOp) and isinstance(resolved.ret, T.Tuple):
            # `t + u` of tuples: each item keeps its own
            return _item_origins(self.origin_of(instr.lhs), self.type_of(instr.lhs)) + (
                _item_origins(self.origin_of(instr.rhs), self.type_of(instr.rhs))
            )
        if isinstance(instr, ir.BinOp | ir.UnaryOp | ir.Compare):
            return all(self.is_weak(v) for v in operands)
        if isinstance(instr, ir.GetItem):
            obj_type = self.type_of(instr.obj)
            if not isinstance(obj_type, T.Tuple):
                return False  # an array's element is a NumPy scalar
            whole = _item_origins(self.origin_of(instr.obj), obj_type)
            index = self._index(instr.obj, instr.index).const  # `t[1:]`: a constant slice
            if isinstance(index, int) and -len(whole) <= index < len(whole):
                return whole[index]
            if isinstance(index, slice):
                return whole[index]
            return _python_numbers(whole, obj_type)  # a variable index: items of one type
        if isinstance(instr, ir.GetAttr):
            if instr.attr in _PYTHON_INT_ATTRS:
                return True
            return instr.attr in ("real", "imag") and self.is_weak(instr.obj)
        if isinstance(instr, ir.Call):
            if is_spread(instr):  # `*t` in a call: the tuple's own
                return self.origin_of(instr.args[0])
            if _iterates_tuple(instr):  # `for c in COEFFS`: the items are the tuple's own
                return self.origin_of(instr.args[0])
            if resolved.python_result is not None:  # a jitted callee's own return
                # it was typed with its number parameters as Python numbers: exact when the
                # caller passes Python numbers there (arrays and other values do not matter)
                weak_args = all(
                    self.is_weak(v) or not _number_like(self.type_of(v))
                    for v in (*instr.args, *instr.kwargs.values())
                )
                exact = weak_args or resolved.python_result_exact
                return cast(Origin, resolved.python_result) if exact else False
            func_type = self.type_of(instr.func)
            func = func_type.obj if isinstance(func_type, T.Opaque) else None
            if func in _ALWAYS_PYTHON_NUMBER or getattr(func, "__module__", None) in (
                "math",
                "cmath",
            ):
                return True
            if func in _PYTHON_NUMBER_FUNCS:
                return all(self.is_weak(v) for v in (*instr.args, *instr.kwargs.values()))
        return False

    def origin_of(self, v: ir.Value) -> Origin:
        if isinstance(v, ir.Const):
            return v.weak or _const_origin(v.value)
        return self.origin.get(v, False)

    def is_weak(self, v: ir.Value) -> bool:
        """True if `v` is a Python number (or a tuple whose numbers are): NumPy 2's weak
        scalar. The strings, arrays and None a tuple holds do not count."""
        return _python_numbers(self.origin_of(v), self.type_of(v))

    def _phi_conflict(self, phi: ir.Phi, value: ir.Value, a: T.Type, b: T.Type) -> NoReturn:
        """Report at the definition that brought the second type, which is what to change."""
        var = phi.name.split(".")[0]
        instrs = [v for v in phi.incoming.values() if isinstance(v, ir.Instr)]
        loc = value.loc if isinstance(value, ir.Instr) else (instrs[0].loc if instrs else phi.loc)
        if var.startswith("$"):  # the join of a conditional or and/or expression
            raise TypingError(
                f"this expression is {a} on one branch and {b} on the other",
                loc=loc,
                hint="make both branches of the expression the same type",
            )
        raise TypingError(
            f"`{var}` is {a} on one path and {b} on another",
            loc=loc,
            hint=f"give `{var}` one type on every path",
        )

    def resolve(
        self, instr: ir.Instr, operand: Callable[[ir.Value], Operand] | None = None
    ) -> Resolved | None:
        op = operand or self.operand
        match instr:
            case ir.BinOp(op=name, lhs=lhs, rhs=rhs):
                if operators.is_in_place(name) and isinstance(self.type_of(lhs), T.Array):
                    frozenwrites.refuse(lhs, op, instr.loc)  # `TABLE += 1` writes into it
                return operators.resolve_binop(name, op(lhs), op(rhs), instr.loc)
            case ir.UnaryOp(op=name, operand=x):
                return operators.resolve_unary(name, op(x), instr.loc)
            case ir.Compare(op=name, lhs=lhs, rhs=rhs):
                return operators.resolve_compare(name, op(lhs), op(rhs), instr.loc)
            case ir.MakeTuple(items=items):
                return Resolved(
                    tuple(None for _ in items),
                    T.Tuple(tuple(cast(T.Type, self.type_of(i)) for i in items)),
                )
            case ir.GetItem(obj=obj, index=index):
                return operators.resolve_getitem(op(obj), self._index(obj, index), instr.loc)
            case ir.SetItem(obj=obj, index=index, value=value):
                if isinstance(self.type_of(obj), T.Array):
                    frozenwrites.refuse(obj, op, instr.loc)
                return operators.resolve_setitem(op(obj), op(index), op(value), instr.loc)
            case ir.GetAttr(obj=obj, attr=attr):
                recv = op(obj)
                if lookup_method(recv.type, attr) is not None:
                    return Resolved((None,), BoundMethod(recv.type, attr))
                return operators.resolve_getattr(recv, attr, instr.loc)
            case ir.Call():
                return self.resolve_call(instr, op)
        raise UnsupportedError(f"cannot type `{instr.opcode}` instructions", loc=instr.loc)

    def _outermost_unsupported(self, call: ir.Call, obj: object) -> tuple[ir.Call, object]:
        """The call to blame for an unsupported call: the call itself, or the call its result
        is passed to when that one is unsupported too (`map(g, range(n))` is typed from the
        inside out, and `range` alone is unsupported only as a value)."""
        while True:
            outer = next(
                (
                    user
                    for _, user in self.fn.instructions()
                    if isinstance(user, ir.Call) and call in user.args
                ),
                None,
            )
            if outer is None or not isinstance(outer.func, ir.Const):
                return call, obj
            func = outer.func.value
            if (
                lookup_function(func) is not None
                or _is_dispatcher(func)
                or is_library_kernel(func)
                or implicit_dispatcher(func) is not None
            ):
                return call, obj
            call, obj = outer, func

    def _index(self, obj: ir.Value, index: ir.Value) -> Operand:
        """An index operand; `t[1:]` of a tuple with a slice of constants is a constant slice
        (the tuple's items are picked at compile time)."""
        if (
            isinstance(self.type_of(obj), T.Tuple)
            and isinstance(index, ir.Call)
            and isinstance(index.func, ir.Const)
            and index.func.value is slice
            and all(isinstance(a, ir.Const) for a in index.args)
        ):
            parts = [cast(ir.Const, a).value for a in index.args]
            if all(p is None or type(p) is int for p in parts):
                return Operand(cast(T.Type, self.type_of(index)), slice(*parts))
        return self.operand(index)

    def resolve_call(
        self, call: ir.Call, operand: Callable[[ir.Value], Operand] | None = None
    ) -> Resolved:
        if any(is_spread(a) for a in call.args):  # f(*t): the tuple's items (starcall)
            return resolve_spread_call(self, call)
        func_type = self.type_of(call.func)
        op = operand or self.operand
        args = [op(a) for a in call.args]
        kwargs = {k: op(v) for k, v in call.kwargs.items()}
        if isinstance(func_type, BoundMethod):
            rule = lookup_method(func_type.recv, func_type.method)
            assert rule is not None
            receiver = call.func.obj  # type: ignore[attr-defined]
            if frozenwrites.writes_receiver(func_type.method, func_type.recv):
                frozenwrites.refuse(receiver, self.operand, call.loc)
            recv = self.operand(receiver)
            resolved = rule([recv, *args], kwargs)
            if resolved is None:
                raise TypingError(
                    f"cannot call .{func_type.method}() of {func_type.recv} with "
                    f"({', '.join(str(a.type) for a in args)})",
                    loc=call.loc,
                )
            return resolved
        if not isinstance(func_type, T.Opaque):
            raise TypingError(
                f"a value of type {func_type} is not callable",
                loc=call.loc,
                hint="call a @jit function, a builtin, or a math/numpy function",
            )
        obj = func_type.obj
        for v in frozenwrites.written_arguments(obj, call):
            if isinstance(self.type_of(v), T.Array):
                frozenwrites.refuse(v, self.operand, call.loc)
        if lists.unsettled(*[a.type for a in (*args, *kwargs.values())]) and (
            _is_dispatcher(obj) or is_library_kernel(obj) or implicit_dispatcher(obj)
        ):
            return lists.PENDING  # an empty `[]` filled later in this function: typed then
        if _is_dispatcher(obj):
            args, kwargs = self._as_is(call)  # a jitted callee takes optionals as they are
            try:
                return self.resolve_callee(obj, args, kwargs)
            except JitError as err:
                err.located(call.loc)
                raise
        if is_library_kernel(obj) and not kwargs:
            return call_kernel(obj, [a.type for a in args])  # type: ignore[arg-type]
        rule = lookup_function(obj)
        implicit = implicit_dispatcher(obj) if rule is None else None
        if implicit is not None:  # a plain function of the user's: compiled too
            args, kwargs = self._as_is(call)
            try:
                return self.resolve_callee(implicit, args, kwargs)
            except JitError as err:
                err.located(call.loc)
                raise
        if rule is None:
            call, obj = self._outermost_unsupported(call, obj)  # `map(f, range(n))`: map
            name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", repr(obj))
            module = getattr(obj, "__module__", None)
            full = f"{module}.{name}" if module and module != "builtins" else name
            hint = (
                "it is marked jitcore.python_only; remove the mark to compile it"
                if getattr(obj, "__jitcore_implicit__", True) is False
                else "decorate it with @jit"
                if callable(obj) and hasattr(obj, "__code__")
                else "see the README's supported subset"
            )
            raise UnsupportedError(f"calls to `{full}` are not supported", loc=call.loc, hint=hint)
        try:
            resolved = rule(args, kwargs)
        except JitError as err:
            err.located(call.loc)
            raise
        if resolved is None:
            name = getattr(obj, "__name__", repr(obj))
            sig = ", ".join(
                [str(a.type) for a in args] + [f"{k}={v.type}" for k, v in kwargs.items()]
            )
            raise TypingError(
                f"no implementation of `{name}` for ({sig})",
                loc=call.loc,
                hint="check the argument types; see the README's supported subset",
            )
        return resolved

    # --- rewriting: casts, constants, return type -----------------------------------------

    def rewrite(self) -> None:
        fn = self.fn
        for block in fn.blocks:
            new_instrs: list[ir.Instr] = []
            for instr in block.instrs:
                if isinstance(instr, ir.Phi):
                    new_instrs.append(instr)
                    continue
                resolved: Resolved | None = instr.impl  # type: ignore[assignment]
                if isinstance(instr.type, BoundMethod):
                    continue  # folded into the call below
                if isinstance(instr, ir.Call) and isinstance(
                    self.type_of(instr.func), BoundMethod
                ):
                    instr.args = [instr.func.obj, *instr.args]  # type: ignore[attr-defined]
                    instr.func = ir.Const(None, type=T.NONE)
                self._unwrap_optionals(instr, new_instrs)
                if resolved is not None and resolved.const is not MISSING:
                    fn.replace_all_uses(instr, ir.Const(resolved.const, type=instr.type))
                    continue
                if resolved is not None:
                    self._cast_operands(instr, resolved, new_instrs)
                new_instrs.append(instr)
            block.instrs = new_instrs
        self._cast_phi_inputs()
        self._type_returns()

    def operand_as_is(self, v: ir.Value) -> Operand:
        """An operand, an optional one kept optional (`operand` gives its value's type)."""
        t = self.type_of(v)
        return Operand(t) if isinstance(t, T.Optional) else self.operand(v)

    def _as_is(self, call: ir.Call) -> tuple[list[Operand], dict[str, Operand]]:
        """The operands of a call of a jitted function, optionals kept optional."""
        as_is = self.operand_as_is
        return [as_is(a) for a in call.args], {k: as_is(v) for k, v in call.kwargs.items()}

    def _unwrap_optionals(self, instr: ir.Instr, out: list[ir.Instr]) -> None:
        """Each optional operand of an instruction that uses it as its value goes through a
        cast to the inner type: the check that it is not None (`lib.optional`)."""
        if isinstance(instr, ir.MakeTuple) or _keeps_optional(instr):
            return
        if isinstance(instr, ir.Call) and instr.impl is not None and instr.impl.callee:  # type: ignore[attr-defined]
            return  # a jitted callee takes them as they are
        for v in dict.fromkeys(instr.operands()):
            t = self.type_of(v)
            if isinstance(t, T.Optional):
                unwrapped = ir.Cast(v, name=self.fn.fresh_name("t"), type=t.inner, loc=instr.loc)
                out.append(unwrapped)
                instr.replace_operand(v, unwrapped)

    def _cast_operands(self, instr: ir.Instr, resolved: Resolved, out: list[ir.Instr]) -> None:
        if isinstance(instr, ir.Call):
            for i, target in enumerate(resolved.args):
                if i < len(instr.args) and target is not None:
                    instr.args[i] = self._convert(instr.args[i], target, instr, out)
            for k, target in resolved.kwargs.items():
                if k in instr.kwargs and target is not None:
                    instr.kwargs[k] = self._convert(instr.kwargs[k], target, instr, out)
            return
        fields = {
            ir.BinOp: ("lhs", "rhs"),
            ir.Compare: ("lhs", "rhs"),
            ir.UnaryOp: ("operand",),
            ir.GetItem: ("obj", "index"),
            ir.SetItem: ("obj", "index", "value"),
            ir.GetAttr: ("obj",),
        }.get(type(instr), ())
        for name, target in zip(fields, resolved.args):
            if target is not None:
                setattr(instr, name, self._convert(getattr(instr, name), target, instr, out))

    def _convert(self, v: ir.Value, to: T.Type, at: ir.Instr, out: list[ir.Instr]) -> ir.Value:
        t = self.type_of(v)
        if t == to:
            return v
        if (
            isinstance(v, ir.Const)
            and isinstance(to, T.Scalar)
            and isinstance(v.value, int | float | complex | bool)
        ):
            return ir.Const(convert_const(v.value, to), type=to)
        if isinstance(to, T.Tuple) and isinstance(t, T.Tuple) and isinstance(v, ir.Const):
            return ir.Const(
                tuple(
                    convert_const(x, s)
                    for x, s in zip(v.value, to.items)  # type: ignore[call-overload]
                ),
                type=to,
            )
        cast = ir.Cast(v, name=self.fn.fresh_name("t"), type=to, loc=at.loc)
        out.append(cast)
        return cast

    def _cast_phi_inputs(self) -> None:
        for block in self.fn.blocks:
            for phi in block.phis():
                for pred, v in list(phi.incoming.items()):
                    if isinstance(v, ir.Const) and v.value is MISSING:
                        phi.incoming[pred] = ir.Const(MISSING, type=phi.type)
                        continue
                    if self.type_of(v) != phi.type:
                        tail: list[ir.Instr] = []
                        phi.incoming[pred] = self._convert(v, phi.type, phi, tail)  # type: ignore[arg-type]
                        pred.instrs.extend(tail)

    def _type_returns(self) -> None:
        returns = [b for b in self.fn.blocks if isinstance(b.terminator, ir.Return)]
        result: T.Type | None = self.self_return if self.self_return is not None else None
        for block in returns:
            term = block.terminator
            assert isinstance(term, ir.Return)
            try:
                t = self.type_of(term.value)
            except JitError as err:  # a constant no compiled type holds (`return 2**64 - 1`)
                raise err.located(term.loc) from err.__cause__
            if t is None or isinstance(t, T.Bottom):
                continue
            if _holds_opaque(t):  # a module global array, a function: compile-time only
                raise UnsupportedError(
                    f"{self.fn.name} returns {t}, a compile-time object",
                    loc=block.terminator.loc,  # type: ignore[union-attr]
                    hint="return numbers, arrays made or passed in, or tuples of them",
                )
            if result is None:
                result = t
            else:
                _check_return_kinds(self.fn.name, result, t, block.terminator.loc)  # type: ignore[union-attr]
                joined = join_optional(result, t)
                if joined is None:
                    raise TypingError(
                        f"{self.fn.name} returns {result} on one path and {t} on another",
                        loc=block.terminator.loc,  # type: ignore[union-attr]
                        hint="return values of one type from every return statement",
                    )
                result = joined
        if result is None:
            result = T.NONE if not returns else T.BOTTOM
        self.fn.return_type = result
        origins = [
            self.origin_of(b.terminator.value)  # type: ignore[union-attr]
            for b in returns
            if not isinstance(self.type_of(b.terminator.value), T.NoneType)  # type: ignore[union-attr]
        ]
        self.fn.python_result = (
            True if not origins else functools.reduce(_meet, origins[1:], origins[0])
        )
        for block in returns:
            term = block.terminator
            assert isinstance(term, ir.Return)
            tail: list[ir.Instr] = []
            if not isinstance(result, T.Bottom):
                term.value = self._convert(
                    term.value,
                    result,
                    block.instrs[-1] if block.instrs else ir.Instr(loc=term.loc),
                    tail,
                )
            block.instrs.extend(tail)


_KIND_NAMES = {"b": "a bool", "i": "an int", "u": "an int", "f": "a float", "c": "a complex"}


def _keeps_optional(instr: ir.Instr) -> bool:
    """Whether an instruction takes its optional operands as they are (`x is None`, `if x:`,
    `not x`: `lib.optional`) rather than their values."""
    if isinstance(instr, ir.Compare) and instr.op in ("is", "isnot"):
        return any(isinstance(_Inference.type_of(v), T.Optional) for v in (instr.lhs, instr.rhs))
    if isinstance(instr, ir.Compare) and instr.op in ("eq", "ne"):
        lhs, rhs = _Inference.type_of(instr.lhs), _Inference.type_of(instr.rhs)
        return lhs is not None and rhs is not None and optional.against_none(lhs, rhs)
    if isinstance(instr, ir.UnaryOp) and instr.op in ("truth", "not"):
        return isinstance(_Inference.type_of(instr.operand), T.Optional)
    if isinstance(instr, ir.Call) and isinstance(instr.func, ir.Const):
        return instr.func.value in (isinstance, print)  # None is a value of theirs
    return False


def _inner(t: T.Type) -> T.Type:
    return t.inner if isinstance(t, T.Optional) else t


def is_scalar(t: T.Type | None) -> bool:
    return isinstance(t, T.Scalar)


def _optional_scalar(t: T.Type | None) -> bool:
    return isinstance(t, T.Optional) and isinstance(t.inner, T.Scalar)


def _weak_join_scalar(strong: T.Type, weak: T.Scalar) -> T.Type:
    assert isinstance(strong, T.Scalar)
    return weak_join(strong, weak) if not strong.is_bool else cast(T.Type, unify(strong, weak))


def _check_return_kinds(name: str, a: T.Type, b: T.Type, loc: object) -> None:
    """Python keeps each return's own type: an int on one path and a float on another cannot
    become one compiled type without changing what Python returns."""
    a, b = _inner(a), _inner(b)
    if isinstance(a, T.Tuple) and isinstance(b, T.Tuple) and len(a.items) == len(b.items):
        for x, y in zip(a.items, b.items):
            _check_return_kinds(name, x, y, loc)
        return
    if not (isinstance(a, T.Scalar) and isinstance(b, T.Scalar)):
        return
    ka, kb = ("b" if a.is_bool else a.kind), ("b" if b.is_bool else b.kind)
    kinds = {ka, kb}
    # bool joined with int stays a join for now (tests/jitcore/e2e/test_memory_safety.py
    # builds tuple casts with it); an int or bool meeting a float or complex is an error
    if kinds <= {"b", "i", "u"} or kinds <= {"f", "c"}:
        return
    first, second = _KIND_NAMES[ka], _KIND_NAMES[kb]
    raise TypingError(
        f"{name} returns {first} ({a}) on one path and {second} ({b}) on another; Python "
        "would return each as it is, so one compiled type would change the result",
        loc=loc,  # type: ignore[arg-type]
        hint="return the same kind of number on every path: write 0.0 instead of 0, or "
        "convert with float(...) / int(...) / bool(...)",
    )


def _holds_opaque(t: T.Type) -> bool:
    if isinstance(t, T.Tuple):
        return any(_holds_opaque(item) for item in t.items)
    return isinstance(t, T.Opaque)


# Which parts of a value are Python numbers (True) rather than NumPy scalars or arrays
# (False): a bool for a scalar, one entry per item for a tuple (`(x, a[0])` is `(True, False)`).
Origin = bool | tuple["Origin", ...]

_PYTHON_INT_ATTRS = {"shape", "size", "ndim", "itemsize", "nbytes", "strides"}
# Calls whose result is a Python number whatever their arguments (`int(a32[0])` is an int).
# A range's items are Python ints whatever its bounds were (`range_item` computes those of a
# step other than +-1: `for i in range(0, 9, 3): x // i` raises ZeroDivisionError at i = 0).
_ALWAYS_PYTHON_NUMBER = frozenset(
    {len, int, float, complex, bool, range_bounds, range_count, range_item}
    | {np.allclose, np.array_equal}  # NumPy returns `bool(...)` of its reduction
)
# Calls whose result is a Python number when all their arguments are (`abs(a32[0])` is not).
_PYTHON_NUMBER_FUNCS = frozenset({abs, round, min, max, divmod, pow})


def _arg_origin(t: T.Type | None) -> Origin:
    if isinstance(t, T.Optional):  # None or a Python number: a Python number when not None
        return _arg_origin(t.inner)
    if isinstance(t, T.List):  # a list of Python numbers holds Python numbers
        return cast(Origin, lists.item_origin(t.item))
    if isinstance(t, T.Tuple):
        return tuple(_arg_origin(i) for i in t.items)
    return t in lists.PYTHON_ITEMS  # the types Python numbers have as arguments


def _const_origin(value: object) -> Origin:
    if isinstance(value, tuple):
        return tuple(_const_origin(v) for v in value)
    return type(value) in (bool, int, float, complex)


def _number_like(t: T.Type | None) -> bool:
    """Whether a value of type `t` is a number, or holds numbers whose kind (Python or NumPy)
    can change a callee's result: scalars, tuples, optionals."""
    return isinstance(t, T.Scalar | T.Tuple | T.Optional)


def _iterates_tuple(call: ir.Call) -> bool:
    func = call.func
    return (
        isinstance(func, ir.Const)
        and func.value is cmarkers.iterate
        and isinstance(call.args[0].type, T.Tuple)
    )


def _fully(origin: Origin) -> bool:
    return all(_fully(o) for o in origin) if isinstance(origin, tuple) else origin


def _item_origins(origin: Origin, t: T.Type | None) -> tuple[Origin, ...]:
    """The origin of each item of a tuple of type `t` (one origin for the whole: each item's)."""
    assert isinstance(t, T.Tuple)
    if isinstance(origin, tuple) and len(origin) == len(t.items):
        return origin
    return (_fully(origin),) * len(t.items)


def _python_numbers(origin: Origin, t: T.Type | None) -> bool:
    """Whether every number in a value of type `t` is a Python number: the strings and None
    a tuple holds do not count (their origin is False, as for anything not a number)."""
    if not isinstance(t, T.Tuple):
        return _fully(origin)
    return all(
        isinstance(i, T.Str | T.NoneType) or _python_numbers(o, i)
        for o, i in zip(_item_origins(origin, t), t.items)
    )


def _meet(a: Origin, b: Origin) -> Origin:
    """Python numbers only where both are."""
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return tuple(_meet(x, y) for x, y in zip(a, b))
    return _fully(a) and _fully(b)


def _container_operand(instr: ir.Instr) -> ir.Value:
    """The dict or set an operation stores into: `d[k] = v`, `d.get(...)`, `s.add(...)`."""
    if isinstance(instr, ir.SetItem):
        return instr.obj
    assert isinstance(instr, ir.Call)
    if isinstance(instr.func, ir.GetAttr):
        return instr.func.obj
    return instr.args[0]


def _drop_plain_iterates(fn: ir.Function) -> None:
    """`for x in seq` starts with `iterate(seq)`, which only dicts, sets (their keys view) and
    strings (their characters) need; over a tuple or an array it is `seq` itself, so the loop
    reads `seq` directly."""
    for block in fn.blocks:
        kept: list[ir.Instr] = []
        for instr in block.instrs:
            if (
                isinstance(instr, ir.Call)
                and isinstance(instr.func, ir.Const)
                and instr.func.value is cmarkers.iterate
                and not isinstance(instr.type, T.View)
                and not isinstance(instr.args[0].type, T.Str)  # walks its list of characters
            ):
                fn.replace_all_uses(instr, instr.args[0])
                continue
            kept.append(instr)
        block.instrs = kept


def _check_containers_typed(fn: ir.Function) -> None:
    for arg in fn.args:
        if containers.is_unrefined(arg.type):
            raise TypingError(
                f"argument `{arg.name}` is an empty dict or set whose item types are not known",
                loc=fn.loc,
                hint="store an item into it in the function that creates it, before the call",
            )
    for _, instr in fn.instructions():
        if containers.is_unrefined(instr.type):
            raise TypingError(
                "cannot tell the key and value types of this empty dict or set",
                loc=instr.loc,
                hint="store an item into it in this function, or create it with one item",
            )


def _is_dispatcher(obj: object) -> bool:
    return getattr(obj, "__jitcore_dispatcher__", False) is True


def infer_types(
    fn: ir.Function,
    arg_types: tuple[T.Type, ...],
    resolve_callee: CalleeResolver,
    self_return: T.Type | None = None,
) -> TypeResult:
    """Type `fn` for `arg_types` (the `typeinfer` stage). `resolve_callee` types calls of other
    jitted functions; `self_return` is the assumed return type of recursive calls."""
    inference = _Inference(fn, arg_types, resolve_callee, self_return)
    complete = inference.run()
    prune(fn)  # the branches typing decided, and the blocks only they reached
    _check_containers_typed(fn)
    check_lists_typed(fn)
    for _, instr in fn.instructions():
        if isinstance(instr, ir.Phi) and instr.type is None:
            var = instr.name.split(".")[0]
            raise TypingError(
                f"`{var}` has no value on any path this specialization takes (it is assigned "
                "only where a branch decided while compiling does not go): Python raises "
                "UnboundLocalError where it is read",
                loc=instr.loc,
                hint=f"give `{var}` a value before the branch",
            )
        if instr.type is None:
            raise TypingError("cannot infer the type of this expression", loc=instr.loc)
    inference.rewrite()
    _drop_plain_iterates(fn)
    arrays.insert_index_checks(fn)
    if isinstance(fn.return_type, T.Bottom):
        complete = False
    return TypeResult(fn, complete)
