"""The table of supported operations: each entry keeps its typing rule and its emitter together.

A rule looks at its operands' types (and compile-time values, for arguments such as `ndigits`
or a dtype) and returns a `Resolved`: the types the operands are converted to, the result type,
and the emitter that `lower` calls to expand the operation into low IR. A rule returns None when
it does not apply; it raises `TypingError` when it applies but the operands are wrong.

Every `Resolved` a registered rule returns carries its name (`math.sin`, `np.add`, `array.sum`;
operators `binop.add`, `cmp.lt`, `getitem`, ...) and the operands its rule was given, so IR text
prints which implementation was chosen and `resolve_named` finds it again from that text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from jitcore.errors import UNKNOWN_LOC, SourceLoc
from jitcore.ir import types as T
from jitcore.ir.markers import MISSING
from jitcore.ir.names import object_name

if TYPE_CHECKING:  # the IR classes load with the compiler: the dispatcher imports this module
    from jitcore.ir import nodes as ir  # to answer "is this a function value?" on every call
    from jitcore.ir.builder import LowBuilder


@dataclass(frozen=True, slots=True)
class Operand:
    """What typing knows of one operand: its type, its value if constant, and literal-ness."""

    type: T.Type
    const: object = MISSING
    weak: bool = False

    @property
    def is_const(self) -> bool:
        return self.const is not MISSING


Lowerer = Callable[["LowBuilder", "list[ir.Value]", "dict[str, ir.Value]"], "ir.Value"]


@dataclass(slots=True)
class Resolved:
    """A typed implementation of one operation.

    `args` are the types the positional operands are cast to (None keeps the operand as is);
    `kwargs` the same for keyword operands; `const` (when set) is the compile-time result and
    replaces the instruction.
    """

    args: tuple[T.Type | None, ...]
    ret: T.Type
    lower: Lowerer | None = None
    kwargs: dict[str, T.Type | None] = field(default_factory=dict)
    const: object = MISSING
    # For elementwise array operations: how to compute one element (`ufuncs.Recipe`), which is
    # what the fusion pass composes.
    elementwise: object = None
    # For calls of jitted functions: (dispatcher, signature), which the inliner looks at.
    callee: object = None
    # For calls of jitted functions: whether the call's positional operands are the callee's
    # parameters, one for one and in order (no `*args` to pack, no default or keyword to add,
    # no function argument fixed at compile time): only then can the inliner and the IR
    # interpreter hand them to the callee's IR as they are.
    callee_by_position: bool = False
    # For calls of jitted functions: which parts of the callee's result are Python numbers
    # rather than NumPy scalars (`typeinfer.Origin`); None for other operations, whose
    # result's origin typeinfer derives from the operation and its operands.
    python_result: object = None
    # Whether `python_result` holds whatever the arguments are (a prange loop's body: its
    # results are the loop's reductions, whose Python-ness its own code decides).
    python_result_exact: bool = False
    # True if the emitter may raise although the operation usually cannot (`k & np.int32(3)`
    # checks that the Python int `k` fits int32): dead-code elimination must keep it.
    may_raise: bool = False
    # For operations on an empty `{}` / `set()` whose item types are still unknown: the
    # container type the stored items call for (`typeinfer` gives it to the instruction that
    # made the container, `lib.containers`).
    refines: T.Type | None = None
    # Whether the result is a Python number (see `typeinfer.Origin`) whatever the operands:
    # items read out of a dict or set (None: derived from the operation and its operands).
    origin: object = None
    # Which implementation this is and the operands its rule was given (set by the registry):
    # the IR printer shows both and `resolve_named` re-resolves from them. A fused elementwise
    # loop is named by its outer operation, with the inner operation's Resolved as an operand.
    name: str = ""
    operands: tuple[tuple[Operand | Resolved, ...], tuple[tuple[str, Operand], ...]] = ((), ())


Rule = Callable[[list[Operand], dict[str, Operand]], Resolved | None]
# An operator's rule: (key such as "add" or an attribute name, operands, location).
OperatorRule = Callable[[str, list[Operand], SourceLoc], Resolved | None]

_FUNCTIONS: dict[int, tuple[object, Rule]] = {}
_METHODS: dict[tuple[type, str], Rule] = {}
_NAMED: dict[str, tuple[object, Rule]] = {}
_OPERATORS: dict[str, OperatorRule] = {}


def register_function(
    *objs: object, params: str = "", notes: str = "", listed_as: str | None = None
) -> Callable[[Rule], Rule]:
    """Register `rule` as the implementation of calls to each Python callable in `objs`.

    `params` (the argument kinds accepted, see `parse_params`) and `notes` (deviations from
    Python or NumPy) describe the operation in `jitcore.supported()`; `listed_as` overrides the
    name it is listed by (`np.abs` rather than the ufunc's own name `absolute`)."""

    def wrap(rule: Rule) -> Rule:
        for obj in objs:
            _list_function(obj, rule, params, notes, listed_as)
            name = object_name(obj) or f"<{type(obj).__name__} at {id(obj):#x}>"
            named = _named(name, rule)
            _FUNCTIONS[id(obj)] = (obj, named)
            _add_name(name, obj, named)
        return rule

    return wrap


def register_method(
    type_class: type, *names: str, params: str = "", notes: str = ""
) -> Callable[[Rule], Rule]:
    """Register `rule` for `x.name(...)` where `x`'s IR type is an instance of `type_class`.
    The receiver is passed as the first operand; `params` describes the others (listed as
    `ndarray.name(...)` by `jitcore.supported()`)."""

    def wrap(rule: Rule) -> Rule:
        for name in names:
            describe(
                f"{_RECEIVERS.get(type_class, type_class.__name__)}.{name}",
                "method",
                params,
                notes,
                module=rule.__module__,
            )
            full = f"{type_class.__name__.lower()}.{name}"
            named = _named(full, rule)
            _METHODS[(type_class, name)] = named
            _add_name(full, type_class, named)
        return rule

    return wrap


def register_operator(kind: str, rule: OperatorRule) -> None:
    """Register the rule of an operator instruction (`binop`, `cmp`, `getitem`, ...), so that
    `resolve_named` finds `binop.add` and the like again."""
    _OPERATORS[kind] = rule


def operator_name(instr: ir.Instr) -> str | None:
    """The name of an operator instruction's implementation: `opcode.key` (`binop.add`,
    `getattr.shape`) or the opcode alone (`getitem`)."""
    from jitcore.ir import nodes as ir

    if isinstance(instr, ir.BinOp | ir.UnaryOp | ir.Compare):
        return f"{instr.opcode}.{instr.op}"
    if isinstance(instr, ir.GetAttr):
        return f"getattr.{instr.attr}"
    if isinstance(instr, ir.GetItem | ir.SetItem):
        return instr.opcode
    return None


def name_operation(
    instr: ir.Instr, resolved: Resolved | None, operand: Callable[[ir.Value], Operand]
) -> Resolved | None:
    """Name the implementation `typeinfer` found for an operator or a jitted callee (those are
    not looked up by name): `operand` gives what typing knew of each operand."""
    from jitcore.ir import nodes as ir

    if resolved is None or resolved.name or resolved.lower is None:
        return resolved
    if isinstance(instr, ir.Call):
        func = instr.func
        name = object_name(func.value) if isinstance(func, ir.Const) else None
        if name is None:
            return resolved
        kwargs = {k: operand(v) for k, v in instr.kwargs.items()}
        return with_name(resolved, name, [operand(a) for a in instr.args], kwargs)
    name = operator_name(instr)
    if name is None:
        return resolved
    return with_name(resolved, name, [operand(v) for v in instr.operands()])


def with_name(
    resolved: Resolved,
    name: str,
    args: Sequence[Operand | Resolved],
    kwargs: Mapping[str, Operand] | None = None,
) -> Resolved:
    """A copy of `resolved` that records its name and the operands it was resolved for (a copy,
    since a rule may hand out one Resolved for many calls)."""
    return dataclasses.replace(
        resolved, name=name, operands=(tuple(args), tuple((kwargs or {}).items()))
    )


def resolve_named(
    name: str,
    args: list[Operand],
    kwargs: dict[str, Operand],
    loc: SourceLoc = UNKNOWN_LOC,
) -> Resolved | None:
    """Resolve the implementation called `name` for these operands again (the IR parser reads
    implementations this way). Raises KeyError for a name nothing registered."""
    entry = _NAMED.get(name)
    if entry is not None:
        return entry[1](list(args), dict(kwargs))
    kind, _, key = name.partition(".")
    rule = _OPERATORS.get(kind)
    if rule is None:
        raise KeyError(name)
    resolved = rule(key, list(args), loc)
    return None if resolved is None else with_name(resolved, name, args, kwargs)


def _named(name: str, rule: Rule) -> Rule:
    def named(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        given, given_kw = tuple(args), dict(kwargs)
        resolved = rule(args, kwargs)
        return None if resolved is None else with_name(resolved, name, given, given_kw)

    named.__wrapped__ = rule  # type: ignore[attr-defined]
    return named


def _add_name(name: str, obj: object, rule: Rule) -> None:
    previous = _NAMED.get(name)
    if previous is not None and previous[0] is not obj:
        raise ValueError(f"two implementations are both named {name!r}")
    _NAMED[name] = (obj, rule)


def lookup_function(obj: object) -> Rule | None:
    entry = _FUNCTIONS.get(id(obj))
    return entry[1] if entry is not None and entry[0] is obj else None


def lookup_method(recv: T.Type, name: str) -> Rule | None:
    for cls in type(recv).__mro__:
        rule = _METHODS.get((cls, name))
        if rule is not None:
            return rule
    return None


def method_names(type_class: type) -> list[str]:
    """The names of the methods registered for receivers of `type_class`, sorted."""
    return sorted(name for cls, name in _METHODS if cls is type_class)


def has_method(recv: T.Type, name: str) -> bool:
    return lookup_method(recv, name) is not None


def constant(value: object, type_: T.Type) -> Resolved:
    """A result known at compile time."""
    return Resolved((), type_, None, const=value)


# --- library kernels -----------------------------------------------------------------------
# Some operations are implemented by kernels written in Python (`npkernels`) and compiled by
# jitcore itself. `lib` must not import the dispatcher (which imports the stages that import
# `lib`), so the kernels are plain functions here and the dispatcher installs the resolver
# that compiles them as jitted callees (dependency inversion instead of an import cycle).

KernelDispatcher = Callable[[Callable[..., object]], Any]
_kernel_dispatcher: list[KernelDispatcher] = []


def library_kernel(func: Callable[..., object]) -> Callable[..., object]:
    """Mark `func` as a library kernel: compiled in COMPILED mode without bounds checks (its
    loop bounds come from the shapes its caller prepared)."""
    func.__jitcore_library_kernel__ = True  # type: ignore[attr-defined]
    return func


def nonnegative_kernel(func: Callable[..., object]) -> Callable[..., object]:
    """A library kernel whose array indices are never negative (loop counters from 0 or from
    a non-negative bound, positions kept inside the rows it was given): compiled without
    bounds checks and without wrapping negative indices (`wraparound=False`, the
    `nowraparound` pass), as Numba's and C's kernels index. Only for kernels read line by line
    for it: a negative index in one reads or writes outside the array."""
    func.__jitcore_nonnegative_kernel__ = True  # type: ignore[attr-defined]
    return library_kernel(func)


def has_nonnegative_indices(obj: object) -> bool:
    return getattr(obj, "__jitcore_nonnegative_kernel__", False) is True


def parallel_library_kernel(func: Callable[..., object]) -> Callable[..., object]:
    """A library kernel compiled with `parallel=True`: its prange loops run on threads."""
    func.__jitcore_parallel_kernel__ = True  # type: ignore[attr-defined]
    return library_kernel(func)


def is_parallel_library_kernel(obj: object) -> bool:
    return getattr(obj, "__jitcore_parallel_kernel__", False) is True


def is_library_kernel(obj: object) -> bool:
    return getattr(obj, "__jitcore_library_kernel__", False) is True


def set_kernel_dispatcher(make: KernelDispatcher) -> None:
    """Installed by the dispatcher module: the jitted function that compiles a kernel."""
    _kernel_dispatcher[:] = [make]


_implicit_dispatcher: list[KernelDispatcher] = []


def set_implicit_dispatcher(make: KernelDispatcher) -> None:
    """Installed by the dispatcher module: the jitted function compiling a plain Python
    function that compiled code calls (`jitcore.implicit`)."""
    _implicit_dispatcher[:] = [make]


def implicit_dispatcher(func: object) -> Any:
    """The dispatcher compiling the plain function `func` implicitly, or None if `func` is not
    one to compile (`jitcore.implicit.compiles_implicitly`)."""
    from jitcore.implicit import compiles_implicitly

    if not _implicit_dispatcher or not compiles_implicitly(func):
        return None
    return _implicit_dispatcher[0](func)  # type: ignore[arg-type]


def kernel_dispatcher(kernel: Callable[..., object]) -> Any:
    """The dispatcher compiling library kernel `kernel` (one per kernel and process)."""
    assert _kernel_dispatcher, "jitcore.dispatcher installs the library-kernel dispatcher"
    return _kernel_dispatcher[0](kernel)


def call_kernel(kernel: Callable[..., object], arg_types: list[T.Type]) -> Resolved:
    """Type a call of a library kernel (compiling it for these types). An argument of an
    `Opaque` type (a function passed as `key=`) is its constant: the kernel is specialized for
    that function, as a jitted callee is for a function argument."""
    operands = [Operand(t, t.obj) if isinstance(t, T.Opaque) else Operand(t) for t in arg_types]
    return kernel_dispatcher(kernel)._as_callee(operands, {})  # type: ignore[no-any-return]


# --- the listing of supported operations -------------------------------------------------------
# What `jitcore.supported()` returns and the README's tables and the generic differential test
# (tests/jitcore/test_supported.py) are generated from. Registering a rule lists it; operators
# and attributes, which have no registered rule per spelling, are listed with `describe`.

Kind = Literal["function", "method", "operator", "attribute"]

# The argument kinds a listing may name. The differential test draws inputs for the first group.
ARG_KINDS: dict[str, str] = {
    "bool": "`True` or `False`",
    "int": "an integer (Python `int`, NumPy integer)",
    "float": "a float (Python `float`, NumPy float)",
    "real": "an int, float or bool",
    "complex": "a complex number",
    "number": "any number: int, float, complex or bool",
    "array": "a NumPy array of bools, ints or floats (of complex numbers too where the "
    "same argument takes `complex` or `number`)",
    "intarray": "a NumPy array of bools or ints",
    "shape": "an int or a tuple of ints",
    "dtype": "a NumPy dtype or scalar type, constant",
    "axis": "a constant int",
    "order": "the constant `'C'` or `'F'`",
    "tuple": "a tuple",
    "list": "a typed list (items of one type)",
    "const": "a compile-time constant",
    "str": "a string",
    "dict": "a typed dict (keys of one type, values of one type)",
    "set": "a typed set",
    "None": "`None`",
}


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a listed operation: its name and the kinds of argument it takes."""

    name: str
    kinds: tuple[str, ...]
    optional: bool = False
    keyword: bool = False  # keyword-only
    variadic: bool = False  # `*name`: any number of further arguments

    def __str__(self) -> str:
        star = "*" if self.variadic else ""
        mark = "?" if self.optional else ""
        return f"{star}{self.name}{mark}: {' | '.join(self.kinds)}"


@dataclass(frozen=True, slots=True)
class Entry:
    """One supported operation, as the user writes it.

    `name` is `math.sin`, `np.sum`, `abs`, `ndarray.sum`, `+` or `ndarray.shape`; `forms` are
    the accepted parameter lists (most operations have one); `module` is the `jitcore.lib`
    module that implements it; `obj` the Python callable (functions only).
    """

    name: str
    kind: Kind
    forms: tuple[tuple[Param, ...], ...]
    notes: str = ""
    module: str = ""
    obj: object = None

    @property
    def signature(self) -> str:
        """`math.log(x: real, base?: real)`; forms separated by ` or `."""
        if self.kind == "attribute":
            return self.name
        if self.kind == "operator":
            return " or ".join(
                " ".join(p.name if i else self.name + " " + p.name for i, p in enumerate(form))
                if len(form) == 1
                else f" {self.name} ".join(p.name for p in form)
                for form in self.forms
            )
        return " or ".join(f"{self.name}({_form_text(form)})" for form in self.forms or ((),))


_ENTRIES: dict[str, Entry] = {}
_RECEIVERS: dict[type, str] = {
    T.Array: "ndarray",
    T.List: "list",
    T.Dict: "dict",
    T.Set: "set",
    T.Str: "str",
}
# Modules whose functions are listed under a prefix (the spelling the README uses).
_LISTED_MODULES = {"builtins": "", "math": "math.", "cmath": "cmath.", "numpy": "np."}


def parse_params(text: str) -> tuple[tuple[Param, ...], ...]:
    """`"x: real, base?: real"` -> one form; forms are separated by `;`. A `?` after the name
    makes a parameter optional, `*name` takes any number of arguments, and parameters after a
    bare `*` are keyword-only. Kinds (joined by `|`) must be keys of `ARG_KINDS`."""
    forms: list[tuple[Param, ...]] = []
    for form_text in text.split(";"):
        params: list[Param] = []
        keyword = False
        for part in (p.strip() for p in form_text.split(",")):
            if not part:
                continue
            if part == "*":
                keyword = True
                continue
            head, sep, kinds_text = part.partition(":")
            if not sep:
                raise ValueError(f"parameter {part!r} needs `name: kind`")
            kinds = tuple(k.strip() for k in kinds_text.split("|"))
            unknown = [k for k in kinds if k not in ARG_KINDS]
            if unknown:
                raise ValueError(f"unknown argument kinds {unknown} in {text!r}")
            head = head.strip()
            variadic = head.startswith("*")
            optional = head.endswith("?")
            params.append(Param(head.strip("*?"), kinds, optional, keyword, variadic))
        forms.append(tuple(params))
    return tuple(forms)


def describe(
    name: str,
    kind: Kind,
    params: str,
    notes: str = "",
    *,
    module: str = "",
    obj: object = None,
) -> None:
    """List an operation in `jitcore.supported()` (registration does this for rules)."""
    _ENTRIES[name] = Entry(name, kind, parse_params(params), notes, module, obj)


def entries() -> list[Entry]:
    """Every listed operation, in the order the modules registered them."""
    return list(_ENTRIES.values())


def _list_function(obj: object, rule: Rule, params: str, notes: str, name: str | None) -> None:
    if getattr(obj, "__jitcore_builtin__", None) is not None:
        return  # the ssa markers are not user-visible
    if name is None:
        prefix = _LISTED_MODULES.get(getattr(obj, "__module__", None) or "")
        if prefix is None:
            return
        name = prefix + getattr(obj, "__name__", "")
    describe(name, "function", params, notes, module=rule.__module__, obj=obj)


def _form_text(form: tuple[Param, ...]) -> str:
    parts: list[str] = []
    keyword = False
    for p in form:
        if p.keyword and not keyword:
            parts.append("*")
            keyword = True
        parts.append(str(p))
    return ", ".join(parts)
