"""IR nodes: plain dataclasses with identity semantics, one object per SSA definition.

A `Function` owns `Block`s; a block owns its instructions (phis first) and ends in exactly one
terminator (`Jump`, `Branch`, `Return`, `Raise`). Every instruction is an SSA value with a name,
a type slot (None before `typeinfer`), its operands and a source location. Passes reach operands
through `operands()` / `replace_operand()` so they need not know every node kind.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from operator import attrgetter
from typing import Any

from jitcore.errors import UNKNOWN_LOC, SourceLoc
from jitcore.ir.types import Type


class Value:
    """Anything an instruction can use: a constant, an argument or an instruction's result."""

    __slots__ = ()
    type: Type | None


@dataclass(eq=False, slots=True)
class Const(Value):
    """A compile-time value: a number, None, or a Python object (module, function, class, str).

    `weak` marks a literal written in the source: like a NumPy 2 Python scalar it adopts the
    type of the other operand (`x * 2` stays f32 when `x` is f32).
    """

    value: object
    type: Type | None = None
    weak: bool = False


@dataclass(eq=False, slots=True)
class Arg(Value):
    """A function parameter."""

    name: str
    index: int
    type: Type | None = None


@dataclass(eq=False, slots=True)
class Instr(Value):
    """Base of instructions. `name` is the SSA name; `type` is None until `typeinfer`."""

    name: str = field(default="", kw_only=True)
    type: Type | None = field(default=None, kw_only=True)
    loc: SourceLoc = field(default=UNKNOWN_LOC, kw_only=True)
    # The implementation `typeinfer` chose (a `jitcore.lib` rule); `lower` expands it.
    impl: object = field(default=None, kw_only=True, repr=False)

    opcode = "instr"
    has_side_effects = False

    def operands(self) -> tuple[Value, ...]:
        return ()

    def replace_operand(self, old: Value, new: Value) -> None:
        """Replace every use of `old` among this instruction's operands by `new`."""
        for f in self._operand_fields():
            current = getattr(self, f)
            if isinstance(current, list):
                setattr(self, f, [new if v is old else v for v in current])
            elif isinstance(current, dict):
                setattr(self, f, {k: (new if v is old else v) for k, v in current.items()})
            elif current is old:
                setattr(self, f, new)

    def _operand_fields(self) -> tuple[str, ...]:
        return ()


def _operands_reader(cls: type, fields: tuple[str, ...]) -> Callable[[Instr], tuple]:
    """`operands()` for a class whose operands are `fields`: every pass asks for them, many
    times per instruction, so a class of single-value fields (most) gets a reader without the
    per-field type tests that a list or dict field needs."""
    annotations = {f.name: str(f.type) for f in dataclass_fields(cls) if f.name in fields}
    if not any(a.startswith(("list", "dict")) for a in annotations.values()):
        get = attrgetter(*fields)
        if len(fields) == 1:
            return lambda self: () if (v := get(self)) is None else (v,)

        def values(self: Instr) -> tuple[Value, ...]:
            found = get(self)
            return found if None not in found else tuple([v for v in found if v is not None])

        return values

    def operands(self: Instr) -> tuple[Value, ...]:
        out: list[Value] = []
        for f in fields:
            v = getattr(self, f)
            if isinstance(v, list):
                out.extend(v)
            elif isinstance(v, dict):
                out.extend(v.values())
            elif v is not None:
                out.append(v)
        return tuple(out)

    return operands


def _ops(*fields: str):  # noqa: ANN202 - tiny class decorator
    """Declare which dataclass fields hold operands (a Value, a list or a dict of Values)."""

    def wrap(cls):  # noqa: ANN001, ANN202
        cls.operands = _operands_reader(cls, fields)
        cls._operand_fields = lambda self: fields
        return cls

    return wrap


@_ops("lhs", "rhs")
@dataclass(eq=False, slots=True)
class BinOp(Instr):
    """`name = op lhs rhs`. Before `lower`, Python semantics (`floordiv` floors, `mod` takes
    the divisor's sign, `div` is true division); after, machine semantics (`tdiv`, `trem`)."""

    op: str
    lhs: Value
    rhs: Value
    opcode = "binop"


@_ops("operand")
@dataclass(eq=False, slots=True)
class UnaryOp(Instr):
    """`neg`, `pos`, `not` (Python truth), `invert` (`~`)."""

    op: str
    operand: Value
    opcode = "unary"


@_ops("lhs", "rhs")
@dataclass(eq=False, slots=True)
class Compare(Instr):
    """`eq ne lt le gt ge` with Python semantics (NaN compares false except `ne`), plus
    `is` / `isnot`."""

    op: str
    lhs: Value
    rhs: Value
    opcode = "cmp"


# What each ordering `Compare.op` computes on Python values: for the passes and analyses that
# evaluate a comparison of known values (constant folding, branch pruning, the interpreter).
COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
}


@_ops("value")
@dataclass(eq=False, slots=True)
class Cast(Instr):
    """Convert `value` to this instruction's type (numeric conversion, C rules)."""

    value: Value
    opcode = "cast"


@_ops("func", "args", "kwargs")
@dataclass(eq=False, slots=True)
class Call(Instr):
    """A call. `typeinfer` resolves `func` and records the implementation in `impl`."""

    func: Value
    args: list[Value]
    kwargs: dict[str, Value] = field(default_factory=dict)
    opcode = "call"
    has_side_effects = True


@_ops("obj")
@dataclass(eq=False, slots=True)
class GetAttr(Instr):
    obj: Value
    attr: str
    opcode = "getattr"


@_ops("obj", "index")
@dataclass(eq=False, slots=True)
class GetItem(Instr):
    """`obj[index]`. On an array (after `typeinfer`), the integer items of `index` are already
    normalized: they come from an `IndexCheck` or `WrapIndex`, or were proven in range."""

    obj: Value
    index: Value
    opcode = "getitem"


@_ops("obj", "index", "value")
@dataclass(eq=False, slots=True)
class SetItem(Instr):
    """`obj[index] = value`; an array's index is normalized as `GetItem`'s."""

    obj: Value
    index: Value
    value: Value
    opcode = "setitem"
    has_side_effects = True


@_ops("array", "index")
@dataclass(eq=False, slots=True)
class IndexCheck(Instr):
    """`index` (an integer, a slice or a tuple of them) normalized for indexing `array` as
    Python does: on each axis k in `axes`, the integer index i (item k of a tuple) becomes
    `i + n` when negative, n being the length of axis k, and `IndexError("index out of bounds
    for axis k")` is raised unless then `0 <= i < n`. The result is the index with those items
    normalized (as i64); other items are unchanged. `typeinfer` puts one before each array
    `getitem`/`setitem` with integer items; `bce` drops the axes it proves in range, and the
    `noboundscheck` pass turns the check into a `WrapIndex`."""

    array: Value
    index: Value
    axes: frozenset[int]
    opcode = "checkindex"
    has_side_effects = True  # it may raise


@_ops("array", "index")
@dataclass(eq=False, slots=True)
class WrapIndex(Instr):
    """`IndexCheck` without the check (`boundscheck=False`): negative indices still count from
    the end, an index out of range is not detected."""

    array: Value
    index: Value
    axes: frozenset[int]
    opcode = "wrapindex"


@_ops("items")
@dataclass(eq=False, slots=True)
class MakeTuple(Instr):
    items: list[Value]
    opcode = "tuple"


@_ops("incoming")
@dataclass(eq=False, slots=True)
class Phi(Instr):
    """Takes `incoming[pred]`, where `pred` is the block control just came from."""

    incoming: dict[Block, Value]
    opcode = "phi"


@_ops("cond", "if_true", "if_false")
@dataclass(eq=False, slots=True)
class Select(Instr):
    """Low IR: `cond ? if_true : if_false` without branching."""

    cond: Value
    if_true: Value
    if_false: Value
    opcode = "select"


@_ops("args")
@dataclass(eq=False, slots=True)
class NativeCall(Instr):
    """Low IR: a direct call of another compiled kernel; its exception propagates."""

    symbol: str
    args: list[Value]
    opcode = "ncall"
    has_side_effects = True


# --- low IR ------------------------------------------------------------------------------
#
# `lower` expands typed operations into the classes below (with `BinOp`, `Compare`, `Cast`,
# `UnaryOp`, `Select`, `MakeTuple`, `Phi` and `NativeCall`, which mean the machine operation
# there), and `codegen` maps each class to LLVM one to one. Every field of a low-IR node is an
# operand (declared with `_ops`) or a plain value (str, int, bool, tuple, frozenset, a type);
# none holds a callable. The rule for `Intrinsic`: it names a pure function of scalars (LLVM
# names its maths intrinsics the same way); anything that reads or writes memory, talks to the
# runtime, or takes values apart or builds them has a class of its own.


@_ops("args")
@dataclass(eq=False, slots=True)
class Intrinsic(Instr):
    """Low IR: pure scalar maths by name: an LLVM intrinsic (`sqrt`, `fma`, `floor`...), a C
    library function (`atan2`, `erf`...), `frem`, or a helper codegen writes (`exp`/`tanh` of
    f64, `ipow`, `gcd`, `powmod`); `jitcore.codegen.mathfns.MATH_FUNCTIONS` lists the names.
    No memory, no runtime, no error: it may be moved or dropped like an addition."""

    fn: str
    args: list[Value]
    opcode = "intrinsic"


@_ops("ptr")
@dataclass(eq=False, slots=True)
class Load(Instr):
    """Low IR: read one element of this instruction's scalar type at `ptr` (a bool is a byte,
    as in NumPy), with the element's natural alignment."""

    ptr: Value
    opcode = "load"


@_ops("ptr", "value")
@dataclass(eq=False, slots=True)
class Store(Instr):
    """Low IR: write the scalar `value` at `ptr`, in the layout `load` reads."""

    ptr: Value
    value: Value
    opcode = "store"
    has_side_effects = True


@_ops("ptr", "offset")
@dataclass(eq=False, slots=True)
class PtrAdd(Instr):
    """Low IR: `ptr` plus `offset` bytes (an i64), inside the memory `ptr` points into."""

    ptr: Value
    offset: Value
    opcode = "ptradd"


@_ops("ptr")
@dataclass(eq=False, slots=True)
class PtrToInt(Instr):
    """Low IR: the address `ptr` as an i64 (to compare where two arrays' memory lies)."""

    ptr: Value
    opcode = "ptrtoint"


@_ops("dest", "byte", "nbytes")
@dataclass(eq=False, slots=True)
class MemSet(Instr):
    """Low IR: set `nbytes` bytes at `dest` to `byte` (an i8)."""

    dest: Value
    byte: Value
    nbytes: Value
    opcode = "memset"
    has_side_effects = True


@dataclass(eq=False, slots=True)
class ColdLoop(Instr):
    """Low IR: the loop whose header holds this is the checked copy `loopversion` made of a
    loop; codegen asks LLVM not to vectorize or unroll it (it runs only when a check may fire).
    Computes nothing; it stays (has_side_effects) so that no pass drops the mark."""

    opcode = "coldloop"
    has_side_effects = True


ARRAY_PARTS = ("block", "data", "shape", "stride")


@_ops("array")
@dataclass(eq=False, slots=True)
class ArrayField(Instr):
    """Low IR: one part of an array value (`ARRAY_PARTS`): its runtime memory `block` (null for
    an array borrowed from Python), its `data` pointer, or the `shape` or byte `stride` of
    `axis`."""

    array: Value
    part: str
    axis: int = 0
    opcode = "arrayfield"


@_ops("block", "data", "shape", "strides")
@dataclass(eq=False, slots=True)
class MakeArray(Instr):
    """Low IR: the array value `{block, data, shape, strides}` of this instruction's type.

    `fresh`: `block` comes straight from `alloc` and the array takes over its one reference.
    Otherwise the array is a view into memory another array owns, and `refcount` gives it a
    reference of its own to `block`."""

    block: Value
    data: Value
    shape: list[Value]
    strides: list[Value]
    fresh: bool = False
    opcode = "makearray"


@_ops("nbytes")
@dataclass(eq=False, slots=True)
class Alloc(Instr):
    """Low IR: a new runtime memory block with room for `nbytes` (reference count 1), or null
    when there is no memory."""

    nbytes: Value
    opcode = "alloc"
    has_side_effects = True


@_ops("block")
@dataclass(eq=False, slots=True)
class BlockData(Instr):
    """Low IR: the data pointer of the runtime memory block `block`."""

    block: Value
    opcode = "blockdata"


@_ops("value")
@dataclass(eq=False, slots=True)
class Incref(Instr):
    """Low IR: one more reference to the block of every array in `value` (an array, or a tuple
    holding arrays). Only `refcount` makes these."""

    value: Value
    opcode = "incref"
    has_side_effects = True


@_ops("value")
@dataclass(eq=False, slots=True)
class Decref(Instr):
    """Low IR: release one reference to the block of every array in `value`; the last one frees
    the memory (or lets go of the Python object the block keeps alive). Only `refcount` makes
    these."""

    value: Value
    opcode = "decref"
    has_side_effects = True


@_ops("aggregate")
@dataclass(eq=False, slots=True)
class Extract(Instr):
    """Low IR: item `index` of a tuple or slice value. An array item is a new value to
    `refcount`, which gives it a reference of its own."""

    aggregate: Value
    index: int
    opcode = "extract"


@_ops("aggregate", "index")
@dataclass(eq=False, slots=True)
class ExtractDynamic(Instr):
    """Low IR: item `index` (an i64 already known to be in range) of a tuple whose items all
    have this instruction's type."""

    aggregate: Value
    index: Value
    opcode = "extractdyn"


@_ops("value")
@dataclass(eq=False, slots=True)
class RealPart(Instr):
    """Low IR: the real part of a complex number."""

    value: Value
    opcode = "real"


@_ops("value")
@dataclass(eq=False, slots=True)
class ImagPart(Instr):
    """Low IR: the imaginary part of a complex number."""

    value: Value
    opcode = "imag"


@_ops("real", "imag")
@dataclass(eq=False, slots=True)
class MakeComplex(Instr):
    """Low IR: the complex number `real + imag*j` (both parts already of its part type)."""

    real: Value
    imag: Value
    opcode = "complex"


@_ops("call")
@dataclass(eq=False, slots=True)
class CallFailed(Instr):
    """Low IR: True when the kernel call `call` raised (it returned an exception descriptor);
    a `reraise` of that call then passes the exception on."""

    call: NativeCall
    opcode = "callfailed"


LIST_OPS = ("new", "len", "get", "set", "append", "reserve", "pop", "insert", "truncate")


@_ops("args")
@dataclass(eq=False, slots=True)
class ListOp(Instr):
    """Low IR: one step on a typed list's memory (`jitcore.codegen.lists`), by name:
    `new cap` (an empty list with room for `cap` items, or null without memory), `len l`,
    `get l i` (item `i`, in range, with a reference of its own), `set l i v`, `append l v`,
    `reserve l n`, `insert l i v` (each True, or False without memory), `pop l i` (removes
    item `i` and hands its reference over), `truncate l n` (drops the items from `n` on).
    Checks (indices, memory) are the branches `lower` wrote around it."""

    op: str
    args: list[Value]
    opcode = "listop"
    has_side_effects = True


# --- exceptions caught by `try` (see `jitcore.ssa_try` and `jitcore.lower_try`) ------------


@dataclass(eq=False, slots=True)
class ExcPending(Instr):
    """Typed IR: the condition of the branch that starts a protected part of a `try` body;
    its false edge goes to the `try`'s dispatch block and carries the variables' values there.
    `lower` replaces the branch by a jump and gives the dispatch block the real edges (from
    each raise inside the part) instead."""

    opcode = "excpending"
    has_side_effects = True


@dataclass(eq=False, slots=True)
class CaughtExc(Instr):
    """Typed IR: the exception a `try` dispatch block received (a descriptor pointer); `lower`
    turns it into a phi over the raises that reach the block."""

    opcode = "caughtexc"
    has_side_effects = True


@_ops("value")
@dataclass(eq=False, slots=True)
class ExcMatch(Instr):
    """True if the exception `value` is an instance of one of `classes` (built-in exception
    classes; `except (A, B)`)."""

    value: Value
    classes: tuple[type, ...] = ()
    opcode = "excmatch"


@dataclass(eq=False, slots=True)
class ExcRaised(Instr):
    """Low IR: the constant descriptor of `raise exc(message)`, when a `try` catches it."""

    exc: type = BaseException
    message: str = ""
    opcode = "excraised"


@_ops("values")
@dataclass(eq=False, slots=True)
class ExcFormatted(Instr):
    """Low IR: the descriptor of `raise exc(template.format(*values))` (`style` 1) or
    `exc(template % values)` (`style` 2), written into the runtime's ring of formatted
    exceptions (`jitcore.runtime.excring`); `codes` names each value's kind for Python, which
    formats the message when the exception reaches it."""

    exc: type = BaseException
    template: str = ""
    style: int = 1
    codes: str = ""
    values: list[Value] = field(default_factory=list)
    opcode = "excformatted"
    has_side_effects = True


@_ops("call")
@dataclass(eq=False, slots=True)
class CallStatus(Instr):
    """Low IR: the exception descriptor the kernel call `call` returned (after it failed)."""

    call: NativeCall
    opcode = "callstatus"


# The instruction classes low IR is made of: what `codegen` accepts.
LOW_IR: tuple[type[Instr], ...] = (
    BinOp,
    ColdLoop,
    UnaryOp,
    Compare,
    Cast,
    Select,
    MakeTuple,
    Phi,
    NativeCall,
    Intrinsic,
    Load,
    Store,
    PtrAdd,
    PtrToInt,
    MemSet,
    ArrayField,
    MakeArray,
    Alloc,
    BlockData,
    Incref,
    Decref,
    Extract,
    ExtractDynamic,
    RealPart,
    ImagPart,
    MakeComplex,
    CallFailed,
    ExcMatch,
    ExcRaised,
    ExcFormatted,
    CallStatus,
    ListOp,
)


# --- terminators -------------------------------------------------------------------------


@dataclass(eq=False, slots=True)
class Terminator:
    loc: SourceLoc = field(default=UNKNOWN_LOC, kw_only=True)

    def successors(self) -> tuple[Block, ...]:
        return ()

    def operands(self) -> tuple[Value, ...]:
        return ()

    def replace_operand(self, old: Value, new: Value) -> None:
        pass

    def replace_successor(self, old: Block, new: Block) -> None:
        pass


@dataclass(eq=False, slots=True)
class Jump(Terminator):
    target: Block

    def successors(self) -> tuple[Block, ...]:
        return (self.target,)

    def replace_successor(self, old: Block, new: Block) -> None:
        if self.target is old:
            self.target = new


@dataclass(eq=False, slots=True)
class Branch(Terminator):
    cond: Value
    if_true: Block
    if_false: Block

    def successors(self) -> tuple[Block, ...]:
        return (self.if_true, self.if_false)

    def operands(self) -> tuple[Value, ...]:
        return (self.cond,)

    def replace_operand(self, old: Value, new: Value) -> None:
        if self.cond is old:
            self.cond = new

    def replace_successor(self, old: Block, new: Block) -> None:
        if self.if_true is old:
            self.if_true = new
        if self.if_false is old:
            self.if_false = new


@dataclass(eq=False, slots=True)
class Return(Terminator):
    value: Value

    def operands(self) -> tuple[Value, ...]:
        return (self.value,)

    def replace_operand(self, old: Value, new: Value) -> None:
        if self.value is old:
            self.value = new


@dataclass(eq=False, slots=True)
class Raise(Terminator):
    """Raise `exc(message)` in the caller; `exc` is a built-in exception class."""

    exc: type
    message: str = ""


@dataclass(eq=False, slots=True)
class Reraise(Terminator):
    """Low IR: return the exception a callee just raised (`call` is that NativeCall)."""

    call: NativeCall


@dataclass(eq=False, slots=True)
class RaiseValue(Terminator):
    """Raise the exception `value` (a descriptor pointer a `try` caught): a bare `raise` in an
    `except` block, or an exception no handler matched."""

    value: Value
    opcode = "raisevalue"

    def operands(self) -> tuple[Value, ...]:
        return (self.value,)

    def replace_operand(self, old: Value, new: Value) -> None:
        if self.value is old:
            self.value = new


# --- containers --------------------------------------------------------------------------


@dataclass(eq=False, slots=True)
class Block:
    label: str
    instrs: list[Instr] = field(default_factory=list)
    terminator: Terminator | None = None

    def take_branch(self, value: object) -> None:
        """Replace this block's `br` by a jump to the way `value` (its condition, known) takes,
        dropping the phi inputs the other way would have received from here."""
        term = self.terminator
        assert isinstance(term, Branch)
        taken, dropped = (term.if_true, term.if_false) if value else (term.if_false, term.if_true)
        self.terminator = Jump(taken, loc=term.loc)
        if dropped is not taken:
            for phi in dropped.phis():
                phi.incoming.pop(self, None)

    def phis(self) -> Iterator[Phi]:
        for instr in self.instrs:
            if not isinstance(instr, Phi):
                break
            yield instr

    def successors(self) -> tuple[Block, ...]:
        return self.terminator.successors() if self.terminator else ()

    def __repr__(self) -> str:
        return f"<Block {self.label}>"


@dataclass(eq=False, slots=True)
class Function:
    """A function in SSA form. `blocks[0]` is the entry block."""

    name: str
    args: list[Arg]
    blocks: list[Block] = field(default_factory=list)
    return_type: Type | None = None
    loc: SourceLoc = UNKNOWN_LOC
    # Which parts of the result are Python numbers rather than NumPy scalars (set by
    # `typeinfer`; a bool, or one entry per tuple item): the Python entry point boxes a
    # NumPy scalar result as one (`np.float64`), and compiled callers type the call by it.
    python_result: object = True
    _names: dict[str, itertools.count] = field(default_factory=dict, repr=False)
    # For `try` (`jitcore.ssa_try`): each block built by `ssa` -> the `ExcPending` marker of
    # the protected part it belongs to (None outside every `try`). Empty without `try`.
    exc_regions: dict[Block, Instr | None] = field(default_factory=dict, repr=False)
    # Under `parallel=True` (set by the pipeline before `lower`): the symbol the function is
    # compiled under, which names the chunk functions `lower` outlines from its loops
    # (`jitcore.lib.outlining`); those, in low IR, are `outlined`. None / empty otherwise.
    parallel_symbol: str | None = field(default=None, repr=False)
    outlined: list[Function] = field(default_factory=list, repr=False)

    @property
    def entry(self) -> Block:
        return self.blocks[0]

    def fresh_name(self, base: str) -> str:
        """A new SSA name: `base.N` (N counts per base), or `tN` for temporaries."""
        counter = self._names.setdefault(base, itertools.count(1))
        n = next(counter)
        return f"t{n}" if base == "t" else f"{base}.{n}"

    def new_block(self, base: str) -> Block:
        block = Block(self.fresh_name(base))
        self.blocks.append(block)
        return block

    def instructions(self) -> Iterator[tuple[Block, Instr]]:
        for block in self.blocks:
            for instr in block.instrs:
                yield block, instr

    def predecessors(self) -> dict[Block, list[Block]]:
        preds: dict[Block, list[Block]] = {b: [] for b in self.blocks}
        for block in self.blocks:
            for succ in block.successors():
                if block not in preds[succ]:
                    preds[succ].append(block)
        return preds

    def uses(self) -> dict[Value, list[Instr | Terminator]]:
        """Map each value to the instructions and terminators that use it."""
        out: dict[Value, list[Instr | Terminator]] = {}
        for block in self.blocks:
            for instr in block.instrs:
                for op in instr.operands():
                    out.setdefault(op, []).append(instr)
            if block.terminator is not None:
                for op in block.terminator.operands():
                    out.setdefault(op, []).append(block.terminator)
        return out

    def replace_all_uses(self, old: Value, new: Value) -> None:
        for block in self.blocks:
            for instr in block.instrs:
                if old in instr.operands():
                    instr.replace_operand(old, new)
            if block.terminator is not None:
                block.terminator.replace_operand(old, new)

    def reverse_postorder(self) -> list[Block]:
        seen: set[int] = set()
        order: list[Block] = []

        def visit(block: Block) -> None:
            stack = [(block, iter(block.successors()))]
            seen.add(id(block))
            while stack:
                node, it = stack[-1]
                for succ in it:
                    if id(succ) not in seen:
                        seen.add(id(succ))
                        stack.append((succ, iter(succ.successors())))
                        break
                else:
                    stack.pop()
                    order.append(node)

        visit(self.entry)
        return order[::-1]

    def remove_unreachable_blocks(self) -> bool:
        """Drop blocks the entry cannot reach, and phi entries that came from them."""
        reachable = set(map(id, self.reverse_postorder()))
        dead = [b for b in self.blocks if id(b) not in reachable]
        if not dead:
            return False
        self.blocks = [b for b in self.blocks if id(b) in reachable]
        for block in self.blocks:
            for phi in block.phis():
                phi.incoming = {p: v for p, v in phi.incoming.items() if id(p) in reachable}
        return True
