"""An interpreter for typed IR: run a function's IR after `typeinfer` or after any optimization
pass directly in Python, with the typed semantics, as a reference that does not go through
lowering, code generation or LLVM (Parakeet's `find_broken_transform`, PyTensor's
`BadOptimization`).

    value = interpret(dispatcher, args, stage="optimize:licm")

Semantics are the compiled code's, value by value:

- A scalar is held as a NumPy scalar of its IR type (`i64` -> `np.int64`, `f32` ->
  `np.float32`, ...). An operation sees its operands as its implementation saw them when it
  was typed: a Python number (`weak` in `[impl=...]`) as a Python `int`/`float`, anything else
  as the NumPy scalar, so Python's rules (ZeroDivisionError, OverflowError of `math.exp`) and
  NumPy's (NEP 50 promotion, inf on division) apply exactly where they apply to the source.
  The result is converted to the instruction's type: ints wrap to 64 bits (compiled integer
  arithmetic wraps), floats round to float32 where the type says so.
- Arrays are NumPy arrays; indexing makes views, so aliasing is real. An index that a bounds
  check would have caught but nothing checked (a pass dropped the check) raises
  `UndefinedBehaviour`: the compiled code would read or write out of bounds.
- Calls of jitted functions (library kernels included) run the callee's own IR at the same
  stage; other calls (`math.exp`, `np.zeros`, the loop markers of `jitcore.ir.markers`) call
  the Python object itself; a fused elementwise loop evaluates its operation tree with NumPy,
  rounding each inner result to its dtype as the fused loop does.

An instruction outside this set raises `CannotInterpret` ("cannot interpret <instruction>"),
so a caller (jitcheck's pass bisection) falls back to compiling.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from jitcore.ir import markers
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.printer import print_ir
from jitcore.lib.registry import Operand, Resolved

# Calls deeper than this are reported as RecursionError, as Python would.
MAX_DEPTH = 200
INT_BITS = 64


class CannotInterpret(Exception):
    """The IR holds something the interpreter does not run: use the compiled code instead."""


class UndefinedBehaviour(Exception):
    """The IR did something with no defined result (an unchecked index out of bounds)."""


BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "div": operator.truediv,
    "floordiv": operator.floordiv,
    "mod": operator.mod,
    "pow": operator.pow,
    "and": operator.and_,
    "or": operator.or_,
    "xor": operator.xor,
    "shl": operator.lshift,
    "shr": operator.rshift,
    "matmul": operator.matmul,
    "iadd": operator.iadd,
    "isub": operator.isub,
    "imul": operator.imul,
    "idiv": operator.itruediv,
    "ifloordiv": operator.ifloordiv,
    "imod": operator.imod,
    "ipow": operator.ipow,
    "iand": operator.iand,
    "ior": operator.ior,
    "ixor": operator.ixor,
    "ishl": operator.ilshift,
    "ishr": operator.irshift,
    "imatmul": operator.imatmul,
}
COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    **ir.COMPARISONS,
    "is": operator.is_,
    "isnot": operator.is_not,
}
UNARY: dict[str, Callable[[Any], Any]] = {
    "neg": operator.neg,
    "pos": operator.pos,
    "not": operator.not_,
    "invert": operator.invert,
    "truth": operator.truth,
}

# Finds the typed IR of a jitted function at a stage: (dispatcher, signature, stage).
IRSource = Callable[[Any, tuple[T.Type, ...], str], ir.Function]


def interpret(
    dispatcher: Any, args: tuple[Any, ...], stage: str = "optimize", source: StageIR | None = None
) -> Any:
    """Run `dispatcher`'s typed IR of `stage` (`typeinfer`, `optimize:<pass>` or `optimize`,
    the last pass's output) on `args` (arrays are modified in place, as compiled code would).
    `source` keeps the compiled stages between calls (one is made when not given)."""
    from jitcore.argtypes import typeof

    signature = tuple(typeof(a) for a in args)
    source = source or StageIR()
    fn = source(dispatcher, signature, stage)
    return box(Interpreter(source, stage).call(fn, args), fn.python_result)


def box(value: Any, python: object) -> Any:
    """The result as the compiled entry point returns it: the parts that are Python numbers
    (`ir.Function.python_result`, a bool or one per tuple item) as Python numbers."""
    if isinstance(value, tuple):
        flags = python if isinstance(python, tuple) else (python,) * len(value)
        return tuple(box(v, f) for v, f in zip(value, flags))
    if python is True and isinstance(value, np.generic):
        return value.item()
    return value


class StageIR:
    """The typed IR of jitted functions at each stage (`compile_for_inspection` keeps copies),
    compiled once per function and signature."""

    def __init__(self) -> None:
        self._records: dict[tuple[int, tuple[T.Type, ...]], dict[str, ir.Function]] = {}

    def stages(self, dispatcher: Any, signature: tuple[T.Type, ...]) -> dict[str, ir.Function]:
        """Every stage's IR of `dispatcher` for `signature`, in pipeline order."""
        from jitcore import session

        key = (id(dispatcher), signature)
        if key not in self._records:
            record = session.compile_for_inspection(dispatcher, signature)
            self._records[key] = dict(record.snapshots)
        return self._records[key]

    def __call__(self, dispatcher: Any, signature: tuple[T.Type, ...], stage: str) -> ir.Function:
        snapshots = self.stages(dispatcher, signature)
        if stage in snapshots:
            return snapshots[stage]
        if stage == "optimize" or stage.startswith("optimize:"):
            # the last pass's output (a pass that did not run for this function: the same)
            return list(snapshots.values())[-1]
        raise ValueError(f"no typed IR for stage {stage!r}; stages are {', '.join(snapshots)}")


class Interpreter:
    """Runs functions of one stage; calls of jitted functions run their IR of the same stage."""

    def __init__(self, source: IRSource, stage: str, budget: int | None = None) -> None:
        self.source = source
        self.stage = stage
        self.depth = 0
        # At most this many instructions (None: no limit); beyond, CannotInterpret.
        self.budget = budget
        # The library operations run as their Python originals (`np.sort`, `math.exp`): their
        # compiled code (an emitter, or a library kernel of its own) is not interpreted.
        self.python_operations: set[str] = set()

    def call(self, fn: ir.Function, args: tuple[Any, ...]) -> Any:
        if len(args) != len(fn.args):
            raise TypeError(f"{fn.name} takes {len(fn.args)} arguments, {len(args)} given")
        if self.depth >= MAX_DEPTH:
            raise RecursionError("maximum recursion depth exceeded (IR interpreter)")
        self.depth += 1
        try:
            with _quiet():
                frame = Frame(self, fn)
                for arg, value in zip(fn.args, args):
                    frame.values[arg] = coerce(value, arg.type)
                return frame.run()
        finally:
            self.depth -= 1


@contextmanager
def _quiet() -> Iterator[None]:
    """NumPy scalar overflow and invalid-value warnings are results (compiled code cannot
    warn); they are not errors, even under `-W error`."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


class Frame:
    """One activation of one function: the value of each SSA name computed so far."""

    def __init__(self, interp: Interpreter, fn: ir.Function) -> None:
        self.interp = interp
        self.fn = fn
        self.values: dict[ir.Value, Any] = {}

    def run(self) -> Any:
        block, previous = self.fn.entry, None
        while True:
            phis = list(block.phis())
            if phis:  # all phis of a block read the incoming values at once
                incoming = [self.get(phi.incoming[previous]) for phi in phis]  # type: ignore[index]
                for phi, value in zip(phis, incoming):
                    self.values[phi] = coerce(value, phi.type)
            body = block.instrs[len(phis) :]
            self._spend(len(body) + len(phis) + 1)
            for instr in body:
                self.values[instr] = self.execute(instr)
            term = block.terminator
            previous = block
            if isinstance(term, ir.Jump):
                block = term.target
            elif isinstance(term, ir.Branch):
                block = term.if_true if bool(self.get(term.cond)) else term.if_false
            elif isinstance(term, ir.Return):
                return coerce(self.get(term.value), self.fn.return_type)
            elif isinstance(term, ir.Raise):
                raise term.exc(term.message) if term.message else term.exc()
            else:
                raise CannotInterpret(f"cannot interpret {type(term).__name__} in {self.fn.name}")

    def _spend(self, steps: int) -> None:
        budget = self.interp.budget
        if budget is not None:
            self.interp.budget = budget - steps
            if budget - steps < 0:
                raise CannotInterpret("cannot interpret this example: it runs too long")

    def get(self, value: ir.Value) -> Any:
        if isinstance(value, ir.Const):
            return _constant(value)
        try:
            return self.values[value]
        except KeyError:
            raise CannotInterpret(
                f"cannot interpret a use of {value!r} before it is defined"
            ) from None

    def execute(self, instr: ir.Instr) -> Any:
        handler = _HANDLERS.get(type(instr))
        if handler is None:
            raise CannotInterpret(f"cannot interpret {_show(self.fn, instr)}")
        return coerce(handler(self, instr), instr.type)

    def operands(self, instr: ir.Instr, values: list[ir.Value]) -> list[Any]:
        """`values` as `instr`'s implementation sees them: Python numbers where it was typed
        with a Python number (weak), NumPy scalars or arrays otherwise."""
        weak = _weak_flags(instr.impl, len(values))
        return [as_operand(self.get(v), v.type, w) for v, w in zip(values, weak)]


# --- values ----------------------------------------------------------------------------------


def _constant(const: ir.Const) -> Any:
    if const.type is None or not isinstance(const.type, T.Scalar):
        return const.value
    return coerce(const.value, const.type)


def coerce(value: Any, t: T.Type | None) -> Any:
    """`value` as a value of IR type `t`: a NumPy scalar of its dtype (ints wrap), an array of
    its dtype (the same array when it has it), a tuple item by item."""
    if isinstance(t, T.Scalar):
        return _scalar(value, t)
    if isinstance(t, T.Array) and isinstance(value, np.ndarray):
        return value
    if isinstance(t, T.Tuple) and isinstance(value, tuple):
        return tuple(coerce(v, it) for v, it in zip(value, t.items))
    if isinstance(t, T.NoneType):
        return None
    return value


def _scalar(value: Any, t: T.Scalar) -> Any:
    dtype = t.dtype
    if t.is_bool:
        return np.bool_(bool(value))
    if t.is_int:
        if isinstance(value, float | np.floating):  # C rules: truncate (casts only)
            return np.array(value).astype(dtype)[()]
        bits = dtype.itemsize * 8
        n = int(value) & ((1 << bits) - 1)
        if t.is_signed and n >= 1 << (bits - 1):
            n -= 1 << bits
        return dtype.type(n)
    if t.is_complex:
        return dtype.type(complex(value))
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**1023:
        return dtype.type(float("inf") if value > 0 else float("-inf"))
    return dtype.type(value)


def as_operand(value: Any, t: T.Type | None, weak: bool) -> Any:
    """A Python number for a weak (Python) scalar operand, else the value as held."""
    if not weak or not isinstance(t, T.Scalar) or not isinstance(value, np.generic):
        return value
    return value.item()


def _weak_flags(impl: object, count: int) -> list[bool]:
    if isinstance(impl, Resolved) and impl.operands and len(impl.operands[0]) == count:
        return [isinstance(op, Operand) and op.weak for op in impl.operands[0]]
    return [False] * count


def _show(fn: ir.Function, instr: ir.Instr) -> str:
    """The instruction as IR text (its line of the function's listing)."""
    marker = f"{instr.name} = " if instr.name else ""
    for line in print_ir(fn).splitlines():
        if marker and line.strip().startswith(marker):
            return f"`{line.strip()}`"
    return f"`{instr.opcode}` ({type(instr).__name__})"


# --- instructions ----------------------------------------------------------------------------


def _binop(frame: Frame, instr: ir.BinOp) -> Any:
    fn = BINARY.get(instr.op)
    if fn is None:
        raise CannotInterpret(f"cannot interpret {_show(frame.fn, instr)}")
    lhs, rhs = frame.operands(instr, [instr.lhs, instr.rhs])
    if instr.op.startswith("i") and not isinstance(lhs, np.ndarray):
        fn = BINARY[instr.op[1:]]  # in place only for arrays; a scalar is rebound
    if instr.op in ("div", "idiv") and _ints(lhs, rhs):
        return _int_true_div(lhs, rhs)
    return fn(lhs, rhs)


def _ints(*values: Any) -> bool:
    return all(isinstance(v, int | np.integer) for v in values)


def _int_true_div(lhs: Any, rhs: Any) -> Any:
    if rhs == 0:
        raise ZeroDivisionError("division by zero")
    return int(lhs) / int(rhs)


def _compare(frame: Frame, instr: ir.Compare) -> Any:
    fn = COMPARE.get(instr.op)
    if fn is None:
        raise CannotInterpret(f"cannot interpret {_show(frame.fn, instr)}")
    lhs, rhs = frame.operands(instr, [instr.lhs, instr.rhs])
    return fn(lhs, rhs)


def _unary(frame: Frame, instr: ir.UnaryOp) -> Any:
    fn = UNARY.get(instr.op)
    if fn is None:
        raise CannotInterpret(f"cannot interpret {_show(frame.fn, instr)}")
    (value,) = frame.operands(instr, [instr.operand])
    return fn(value)


def _cast(frame: Frame, instr: ir.Cast) -> Any:
    value = frame.get(instr.value)
    t = instr.type
    if isinstance(t, T.Array) and isinstance(value, np.ndarray):
        return value.astype(t.dtype.dtype)  # type: ignore[attr-defined]
    if isinstance(t, T.Scalar) and isinstance(value, np.generic) and not t.is_bool:
        return np.array(value).astype(t.dtype)[()]
    return value


def _select(frame: Frame, instr: ir.Select) -> Any:
    return frame.get(instr.if_true if bool(frame.get(instr.cond)) else instr.if_false)


def _tuple(frame: Frame, instr: ir.MakeTuple) -> Any:
    return tuple(frame.get(v) for v in instr.items)


def _getattr(frame: Frame, instr: ir.GetAttr) -> Any:
    obj = frame.get(instr.obj)
    if not isinstance(obj, np.ndarray | np.generic | complex | tuple):
        raise CannotInterpret(f"cannot interpret {_show(frame.fn, instr)}")
    return getattr(obj, instr.attr)


def _index(value: Any) -> Any:
    """An index as NumPy takes it: Python ints, slices, tuples of them."""
    if isinstance(value, tuple):
        return tuple(_index(v) for v in value)
    if isinstance(value, np.integer | np.bool_):
        return int(value)
    return value


def _check_in_bounds(array: np.ndarray, index: Any) -> None:
    """An integer index outside the array (after wrapping) is undefined behaviour: the
    compiled code would read or write outside the array's memory."""
    items = index if isinstance(index, tuple) else (index,)
    for axis, item in enumerate(items):
        if isinstance(item, int) and axis < array.ndim and not 0 <= item < array.shape[axis]:
            raise UndefinedBehaviour(
                f"index {item} is out of bounds for axis {axis} with size {array.shape[axis]} "
                "and nothing checked it (the compiled code would access memory outside the "
                "array)"
            )


def _getitem(frame: Frame, instr: ir.GetItem) -> Any:
    obj = frame.get(instr.obj)
    index = _index(frame.get(instr.index))
    if isinstance(obj, np.ndarray):
        _check_in_bounds(obj, index)
        return obj[index]
    if isinstance(obj, tuple | list):
        return obj[index]
    raise CannotInterpret(f"cannot interpret {_show(frame.fn, instr)}")


def _setitem(frame: Frame, instr: ir.SetItem) -> Any:
    obj = frame.get(instr.obj)
    index = _index(frame.get(instr.index))
    value = frame.get(instr.value)
    if not isinstance(obj, np.ndarray):
        raise CannotInterpret(f"cannot interpret {_show(frame.fn, instr)}")
    _check_in_bounds(obj, index)
    obj[index] = value
    return None


def _normalize(frame: Frame, instr: ir.IndexCheck | ir.WrapIndex, check: bool) -> Any:
    array = frame.get(instr.array)
    index = frame.get(instr.index)
    items = list(index) if isinstance(index, tuple) else [index]
    for axis in sorted(instr.axes):
        i, n = int(items[axis]), array.shape[axis]
        wrapped = i + n if i < 0 else i
        if check and not 0 <= wrapped < n:
            raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
        items[axis] = np.int64(wrapped)
    return tuple(items) if isinstance(index, tuple) else items[0]


def _indexcheck(frame: Frame, instr: ir.IndexCheck) -> Any:
    return _normalize(frame, instr, check=True)


def _wrapindex(frame: Frame, instr: ir.WrapIndex) -> Any:
    return _normalize(frame, instr, check=False)


def _call(frame: Frame, instr: ir.Call) -> Any:
    func = instr.func
    if not isinstance(func, ir.Const):
        raise CannotInterpret(f"cannot interpret {_show(frame.fn, instr)} (a computed callee)")
    impl = instr.impl
    if isinstance(impl, Resolved) and impl.callee is not None:
        return _call_jitted(frame, instr, impl.callee)
    from jitcore.lib.loops import fused_elementwise

    if func.value is fused_elementwise:
        return _fused(frame, instr)
    target = func.value
    if not callable(target):
        raise CannotInterpret(f"cannot interpret {_show(frame.fn, instr)}")
    if getattr(target, "__module__", None) != markers.__name__:
        name = impl.name if isinstance(impl, Resolved) and impl.name else repr(target)
        frame.interp.python_operations.add(name)
    args = frame.operands(instr, instr.args)
    kwargs = {k: _keyword(frame, v) for k, v in instr.kwargs.items()}
    return target(*args, **kwargs)


def _keyword(frame: Frame, value: ir.Value) -> Any:
    return as_operand(frame.get(value), value.type, isinstance(value, ir.Const) and value.weak)


def _call_jitted(frame: Frame, instr: ir.Call, callee: object) -> Any:
    if instr.kwargs or not isinstance(callee, tuple) or len(callee) != 2:
        raise CannotInterpret(f"cannot interpret {_show(frame.fn, instr)} (keyword arguments)")
    impl = instr.impl
    if not (isinstance(impl, Resolved) and impl.callee_by_position):
        raise CannotInterpret(
            f"cannot interpret {_show(frame.fn, instr)} (`*args`, defaults or functions passed)"
        )
    dispatcher, signature = callee
    interp = frame.interp
    fn = interp.source(dispatcher, tuple(signature), interp.stage)
    return interp.call(fn, tuple(frame.get(v) for v in instr.args))


def _fused(frame: Frame, instr: ir.Call) -> Any:
    """A fused elementwise loop: its operation tree, each node computed with NumPy over the
    leaves (the call's operands, in order) and rounded to that node's dtype."""
    impl = instr.impl
    if not isinstance(impl, Resolved):
        raise CannotInterpret(f"cannot interpret {_show(frame.fn, instr)} (no operation tree)")
    leaves = iter(zip(instr.args, frame.operands(instr, instr.args)))
    result = _evaluate(frame, instr, impl, leaves)
    return result


def _evaluate(
    frame: Frame, instr: ir.Instr, node: Resolved, leaves: Iterator[tuple[ir.Value, Any]]
) -> Any:
    values = []
    for op in node.operands[0]:
        if isinstance(op, Resolved):
            values.append(_evaluate(frame, instr, op, leaves))
        else:
            value, held = next(leaves)
            values.append(as_operand(held, value.type, op.weak))
    fn = _operation(node.name)
    if fn is None:
        raise CannotInterpret(f"cannot interpret {_show(frame.fn, instr)} ({node.name})")
    result = fn(*values)
    return coerce(_as_dtype(result, node.ret), node.ret)


def _as_dtype(value: Any, t: T.Type) -> Any:
    if isinstance(t, T.Array) and isinstance(value, np.ndarray):
        return value.astype(t.dtype.dtype, copy=False)  # type: ignore[attr-defined]
    return value


def _operation(name: str) -> Callable[..., Any] | None:
    """The Python callable a registry implementation name stands for."""
    kind, _, op = name.partition(".")
    if kind == "binop":
        fn = BINARY.get(op)
        # inside a fused loop every node makes a new array
        return BINARY.get(op[1:], fn) if op.startswith("i") and op[1:] in BINARY else fn
    if kind == "cmp":
        return COMPARE.get(op)
    if kind == "unary":
        return UNARY.get(op)
    from jitcore.lib import registry

    entry = registry._NAMED.get(name)
    obj = entry[0] if entry else None
    return obj if callable(obj) else None


_HANDLERS: dict[type, Callable[[Frame, Any], Any]] = {
    ir.BinOp: _binop,
    ir.Compare: _compare,
    ir.UnaryOp: _unary,
    ir.Cast: _cast,
    ir.Select: _select,
    ir.MakeTuple: _tuple,
    ir.GetAttr: _getattr,
    ir.GetItem: _getitem,
    ir.SetItem: _setitem,
    ir.IndexCheck: _indexcheck,
    ir.WrapIndex: _wrapindex,
    ir.Call: _call,
}

__all__ = ["CannotInterpret", "Interpreter", "StageIR", "UndefinedBehaviour", "interpret"]
