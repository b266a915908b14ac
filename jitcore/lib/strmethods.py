"""Strings beyond comparison: indexing and slicing, iteration, methods, `str()` of numbers and
formatting (each rule's docstring names the Python operation and what differs).

Two kinds of implementation:

* natively (`codegen.strops`, `ncall "jitcore.strop:<op>"`): `s[i]`, `s[a:b:c]`, `for c in s`
  (an index loop over the list of its characters, made in one pass by `containers`'
  `iterate`), `s * n`, `ord`, `chr`, `str(n)` of an int or bool, plain `{}` fields of strings
  and ints, the searches (`find`, `count`, `startswith`...) with one string argument, and the
  case and class methods of ASCII strings (`upper`, `isalpha`, `strip()`...: a non-ASCII
  string goes to Python, which has Unicode's tables). An ASCII string is indexed in O(1); any
  other is walked from its start to the index;
* by CPython itself (`codegen.pystrcall`, `ncall "jitcore.pystr:<callable>;..."`): the
  methods, `str()`/`repr()`/`format()` of other values, f-strings (`f"x={x:.3f}"` is
  `"x={:.3f}".format(x)`, which `ssa` writes), `int(s)` and `float(s)`. The call takes the
  GIL, boxes the operands as results are boxed, and unboxes Python's answer: it is Python's
  for every Unicode string (case mapping, `isalpha`, whitespace), at the cost of a round
  trip through Python objects per call (about a microsecond). Operations on constants fold
  while compiling.

Layer: above `containers` (the string type and its runtime helpers), `arrays` (slices) and
`lists` (`split` gives a list); `operators` and `builtins` dispatch string operands here.
"""

from __future__ import annotations

import builtins
import re
import string
from collections.abc import Callable
from typing import cast

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder
from jitcore.ir.markers import MISSING
from jitcore.lib.arrays import resolve_slice
from jitcore.lib.containers import helper, runtime_len
from jitcore.lib.layout import index_int
from jitcore.lib.lists import PENDING, unsettled
from jitcore.lib.registry import (
    Operand,
    Resolved,
    constant,
    register_function,
    register_method,
)

STROP = "jitcore.strop:"  # codegen.strops.PREFIX
PYSTR = "jitcore.pystr:"  # codegen.pystrcall.PREFIX
STR_LIST = T.List(T.STR)


def _i64(value: int) -> ir.Const:
    return ir.Const(value, type=T.I64)


def _is_int(t: T.Type) -> bool:
    return isinstance(t, T.Scalar) and t.kind in "iub"


def _strop(b: LowBuilder, op: str, args: list[ir.Value], ret: T.Type) -> ir.Value:
    return b.native_call(STROP + op, args, ret)


# --- calling CPython --------------------------------------------------------------------------


def _boxable(t: T.Type) -> bool:
    """Values the bridge can hand to Python (as a result of the type is boxed)."""
    if isinstance(t, T.Tuple):
        return all(_boxable(i) for i in t.items)
    if isinstance(t, T.List):
        return _boxable(t.item)
    return isinstance(t, T.Scalar | T.Str | T.NoneType | T.Array)


def _python_callable(path: str) -> Callable[..., object]:
    obj: object = builtins
    for part in path.split("."):
        obj = getattr(obj, part)
    return cast(Callable[..., object], obj)


_WIDE = re.compile(r"[0-9]{5,}")  # a number in a constant template: a width or precision


def _folded(path: str, args: list[Operand], ret: T.Type) -> object:
    """Python's result for constant operands, or MISSING (not all constant, or it raises:
    then the call raises when it runs, as Python would)."""
    plain = (str, int, float, bool, type(None))
    if not all(a.is_const and isinstance(a.const, plain) for a in args):
        return MISSING
    if any(isinstance(a.const, int) and abs(a.const) > 4096 for a in args):
        return MISSING  # `"x".center(10**9)`: not a constant to build while compiling
    if any(isinstance(a.const, str) and _WIDE.search(a.const) for a in args):
        return MISSING  # nor `"{:>30000000}".format(1)` (a width in a template)
    if not (isinstance(ret, T.Str) or ret in (T.I64, T.F64, T.BOOL)):
        return MISSING
    try:
        value = _python_callable(path)(*[a.const for a in args])
    except Exception:  # noqa: BLE001  # raised at run time instead
        return MISSING
    if ret == T.I64 and not (isinstance(value, int) and -(2**63) <= value < 2**63):
        return MISSING
    return value


# Where each value a bridged call passes comes from: a positional operand (its index), a
# keyword operand (its name) or a constant (a default the keyword skipped over).
Source = int | str | ir.Const


def python_call(
    path: str,
    args: list[Operand],
    ret: T.Type,
    sources: list[Source] | None = None,
) -> Resolved:
    """`builtins.<path>(*args)` done by Python under the GIL (folded for constants). `args`
    are the values passed, in order; `sources` says where each comes from (by default, the
    positional operands in order)."""
    folded = _folded(path, args, ret)
    if folded is not MISSING:
        return constant(folded, ret)
    plan: list[Source] = sources if sources is not None else list(range(len(args)))
    types = [a.type for a in args]
    for t in types:
        if not _boxable(t):
            raise TypingError(
                f"a value of type {t} cannot be passed to {path}() in compiled code",
                hint="pass numbers, strings, tuples or lists of them",
            )
    # a NumPy scalar (not a Python number) is handed to Python as one: `f"{a[0]!r}"`
    numpy = "".join(
        "n" if isinstance(t, T.Scalar) and not a.weak and not a.is_const else "p"
        for t, a in zip(types, args)
    )
    symbol = f"{PYSTR}{path};{numpy};{','.join(t.name for t in types)}->{ret.name}"

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        values = [v[x] if isinstance(x, int) else kw[x] if isinstance(x, str) else x for x in plan]
        return b.native_call(symbol, values, ret)

    npos = sum(1 for x in plan if isinstance(x, int))
    keywords: dict[str, T.Type | None] = {x: None for x in plan if isinstance(x, str)}
    return Resolved((None,) * npos, ret, lower, keywords, may_raise=True, origin=True)


# --- indexing, slicing, iteration, repetition ---------------------------------------------


def resolve_getitem(obj: Operand, index: Operand) -> Resolved:
    """`s[i]` (IndexError "string index out of range"), `s[a:b]`, `s[a:b:c]`."""
    it = index.type
    if isinstance(it, T.Slice):
        for part in it.items:
            if not (_is_int(part) or isinstance(part, T.NoneType)):
                raise TypingError(
                    f"slice indices must be integers or None, not {part}",
                    hint="slice a string with ints",
                )

        def lower_slice(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            start, count, step = resolve_slice(b, v[1], runtime_len(b, v[0]))
            return _strop(b, "slice", [v[0], start, count, step], T.STR)

        return Resolved((None, None), T.STR, lower_slice, may_raise=True)
    if not _is_int(it):
        raise TypingError(f"string indices must be integers, not {it}", hint="index with an int")
    if obj.is_const and index.is_const:
        text, i = cast(str, obj.const), cast(int, index.const)
        if -len(text) <= i < len(text):
            return constant(text[i], T.STR)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        n = runtime_len(b, v[0])
        i = index_int(b, v[1], IndexError)
        wrapped = b.select(b.cmp("lt", i, _i64(0)), b.binop("add", i, n), i)
        outside = b.emit(ir.Compare("ge", b.cast(wrapped, T.U64), b.cast(n, T.U64), type=T.BOOL))
        b.raise_if(outside, IndexError, "string index out of range")
        return _strop(b, "slice", [v[0], wrapped, _i64(1), _i64(1)], T.STR)

    return Resolved((None, None), T.STR, lower, may_raise=True)


def resolve_repeat(a: Operand, b: Operand) -> Resolved | None:
    """`s * n` and `n * s` (empty for n <= 0); None when neither is a string times an int."""
    if isinstance(a.type, T.Str) and _is_int(b.type):
        s, n, flipped = a, b, False
    elif isinstance(b.type, T.Str) and _is_int(a.type):
        s, n, flipped = b, a, True
    else:
        return None
    if s.is_const and n.is_const and len(cast(str, s.const)) * max(cast(int, n.const), 0) < 4096:
        return constant(cast(str, s.const) * cast(int, n.const), T.STR)

    def lower(bld: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        text, count = (v[1], v[0]) if flipped else (v[0], v[1])
        return _strop(bld, "repeat", [text, index_int(bld, count, OverflowError)], T.STR)

    return Resolved((None, None), T.STR, lower, may_raise=True)


def resolve_percent(template: Operand, values: Operand) -> Resolved:
    """`"%d of %s" % (n, s)` and `"%.3f" % x`: Python's `%` formatting, by Python."""
    return python_call("str.__mod__", [template, values], T.STR)


# --- builtins -------------------------------------------------------------------------------


@register_function(ord, params="c: str", notes="TypeError unless one character, as Python")
def _ord(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or len(args) != 1:
        return None
    c = args[0]
    if not isinstance(c.type, T.Str):
        raise TypingError(f"ord() expected string of length 1, but {c.type} found")
    if c.is_const and len(cast(str, c.const)) == 1:
        return constant(ord(cast(str, c.const)), T.I64)
    return Resolved(
        (None,), T.I64, lambda b, v, kw: _strop(b, "ord", v, T.I64), may_raise=True, origin=True
    )


@register_function(chr, params="i: int", notes="ValueError outside range(0x110000), as Python")
def _chr(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or len(args) != 1:
        return None
    n = args[0]
    if not _is_int(n.type):
        raise TypingError(f"chr() needs an integer, not {n.type}", hint="chr(int(x))")
    if n.is_const and 0 <= cast(int, n.const) < 0x110000:
        return constant(chr(cast(int, n.const)), T.STR)
    return Resolved(
        (None,),
        T.STR,
        lambda b, v, kw: _strop(b, "chr", [index_int(b, v[0], OverflowError)], T.STR),
        may_raise=True,
    )


def _text_of(path: str, args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    """`str(x)` / `repr(x)`: ints and bools natively, anything else by Python."""
    if kwargs or len(args) > 1:
        return None
    if not args:
        return constant("", T.STR)
    x = args[0]
    t = x.type
    if isinstance(t, T.Str) and path == "str":
        return Resolved((None,), T.STR, lambda b, v, kw: v[0])
    if isinstance(t, T.NoneType):
        return constant("None", T.STR)
    if path == "repr" and isinstance(t, T.Scalar) and not (x.weak or x.is_const):
        return python_call(path, [x], T.STR)  # a NumPy scalar: `np.int64(3)`
    if isinstance(t, T.Scalar) and t.is_bool:
        if x.is_const:
            return constant(str(x.const), T.STR)
        return Resolved(
            (None,),
            T.STR,
            lambda b, v, kw: b.select(
                v[0], ir.Const("True", type=T.STR), ir.Const("False", type=T.STR)
            ),
        )
    if isinstance(t, T.Scalar) and t.is_int and t.is_signed:
        if x.is_const:
            return constant(str(x.const), T.STR)
        return Resolved(
            (T.I64,), T.STR, lambda b, v, kw: _strop(b, "fromint", v, T.STR), may_raise=True
        )
    return python_call(path, [x], T.STR)


@register_function(
    str,
    params="x?: number | str | tuple | array | None",
    notes="ints and bools natively, other values by Python (floats: the shortest repr)",
)
def _str(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    return _text_of("str", args, kwargs)


@register_function(repr, params="x: number | str | tuple | array | None")
def _repr(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 1:
        return None
    return _text_of("repr", args, kwargs)


@register_function(format, params="value: number | str, spec?: str")
def _format(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs or not 1 <= len(args) <= 2:
        return None
    if len(args) == 2 and not isinstance(args[1].type, T.Str):
        raise TypingError(f"format() argument 2 must be str, not {args[1].type}")
    return python_call("format", args, T.STR)


def resolve_int_of_str(args: list[Operand]) -> Resolved:
    """`int(s)`, `int(s, base)`: Python's parsing and ValueError; OverflowError for a value
    beyond int64 (Python: a big int)."""
    if len(args) == 2 and not _is_int(args[1].type):
        raise TypingError(f"int() base must be an int, not {args[1].type}")
    return python_call("int", args, T.I64)


def resolve_float_of_str(s: Operand) -> Resolved:
    """`float(s)`: Python's parsing (`"inf"`, `" 1e3 "`, `"1_000"`) and ValueError."""
    return python_call("float", [s], T.F64)


# --- methods --------------------------------------------------------------------------------

# Parameter kinds of the methods: what each accepts and how a wrong type is named.
_KINDS: dict[str, tuple[Callable[[T.Type], bool], str]] = {
    "str": (lambda t: isinstance(t, T.Str), "str"),
    "chars": (lambda t: isinstance(t, T.Str | T.NoneType), "str or None"),
    "int": (_is_int, "int"),
    "index": (lambda t: _is_int(t) or isinstance(t, T.NoneType), "int or None"),
    "affix": (
        lambda t: (
            isinstance(t, T.Str)
            or (isinstance(t, T.Tuple) and all(isinstance(i, T.Str) for i in t.items))
        ),
        "str or a tuple of str",
    ),
    "strings": (
        lambda t: (
            isinstance(t, T.Str)
            or (isinstance(t, T.List) and isinstance(t.item, T.Str))
            or (isinstance(t, T.Tuple) and all(isinstance(i, T.Str) for i in t.items))
        ),
        "a list or tuple of str",
    ),
}

# name: (parameters as (name, kind), how many are required, result, keywords accepted)
_Spec = tuple[tuple[tuple[str, str], ...], int, T.Type, bool]
_RANGE = (("start", "index"), ("end", "index"))
_METHODS: dict[str, _Spec] = {
    "upper": ((), 0, T.STR, False),
    "lower": ((), 0, T.STR, False),
    "casefold": ((), 0, T.STR, False),
    "capitalize": ((), 0, T.STR, False),
    "title": ((), 0, T.STR, False),
    "swapcase": ((), 0, T.STR, False),
    "strip": ((("chars", "chars"),), 0, T.STR, False),
    "lstrip": ((("chars", "chars"),), 0, T.STR, False),
    "rstrip": ((("chars", "chars"),), 0, T.STR, False),
    "removeprefix": ((("prefix", "str"),), 1, T.STR, False),
    "removesuffix": ((("suffix", "str"),), 1, T.STR, False),
    "startswith": ((("prefix", "affix"), *_RANGE), 1, T.BOOL, False),
    "endswith": ((("suffix", "affix"), *_RANGE), 1, T.BOOL, False),
    "find": ((("sub", "str"), *_RANGE), 1, T.I64, False),
    "rfind": ((("sub", "str"), *_RANGE), 1, T.I64, False),
    "index": ((("sub", "str"), *_RANGE), 1, T.I64, False),
    "rindex": ((("sub", "str"), *_RANGE), 1, T.I64, False),
    "count": ((("sub", "str"), *_RANGE), 1, T.I64, False),
    "replace": ((("old", "str"), ("new", "str"), ("count", "int")), 2, T.STR, False),
    "split": ((("sep", "chars"), ("maxsplit", "int")), 0, STR_LIST, True),
    "rsplit": ((("sep", "chars"), ("maxsplit", "int")), 0, STR_LIST, True),
    "splitlines": ((("keepends", "int"),), 0, STR_LIST, True),
    "join": ((("iterable", "strings"),), 1, T.STR, False),
    "center": ((("width", "int"), ("fillchar", "str")), 1, T.STR, False),
    "ljust": ((("width", "int"), ("fillchar", "str")), 1, T.STR, False),
    "rjust": ((("width", "int"), ("fillchar", "str")), 1, T.STR, False),
    "zfill": ((("width", "int"),), 1, T.STR, False),
    "partition": ((("sep", "str"),), 1, T.Tuple((T.STR,) * 3), False),
    "rpartition": ((("sep", "str"),), 1, T.Tuple((T.STR,) * 3), False),
    **{
        name: ((), 0, T.BOOL, False)
        for name in (
            "isdigit isalpha isspace isalnum isupper islower isdecimal isnumeric istitle "
            "isidentifier isascii isprintable"
        ).split()
    },
}
_NOTES = {
    "split": "ValueError for an empty separator, as Python",
    "rsplit": "ValueError for an empty separator, as Python",
}


def _params_text(params: tuple[tuple[str, str], ...], required: int) -> str:
    listed = {
        "str": "str",
        "chars": "str | None",
        "int": "int",
        "index": "int | None",
        "affix": "str | tuple",
        "strings": "list | tuple | str",
    }
    return ", ".join(
        f"{name}{'' if i < required else '?'}: {listed[kind]}"
        for i, (name, kind) in enumerate(params)
    )


def _method_rule(
    name: str, spec: _Spec
) -> Callable[[list[Operand], dict[str, Operand]], Resolved]:
    params, required, ret, keywords = spec

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        given = list(args[1:])
        sources: list[Source] = list(range(len(args)))
        if kwargs and not keywords:
            raise TypingError(f"str.{name}() takes no keyword arguments")
        names = [p for p, _ in params]
        for key in sorted(kwargs, key=lambda k: names.index(k) if k in names else -1):
            if key not in names:
                raise TypingError(f"str.{name}() got an unexpected keyword argument {key!r}")
            at = names.index(key)
            if at < len(given):
                raise TypingError(f"str.{name}() got multiple values for argument {key!r}")
            while len(given) < at:  # the parameters before a keyword take their defaults
                default = (
                    ir.Const(None, type=T.NONE)
                    if params[len(given)][1] == "chars"
                    else ir.Const(-1, type=T.I64)
                )
                given.append(Operand(cast(T.Type, default.type), default.value))
                sources.append(default)
            given.append(kwargs[key])
            sources.append(key)
        if not required <= len(given) <= len(params):
            raise TypingError(
                f"str.{name}() takes {required} to {len(params)} arguments, got {len(given)}"
                if required != len(params)
                else f"str.{name}() takes {required} arguments, got {len(given)}"
            )
        if unsettled(*(a.type for a in given)):
            return PENDING  # `"".join([...])` of a list whose item type is not known yet
        for (pname, kind), op in zip(params, given):
            accepts, what = _KINDS[kind]
            if not accepts(op.type):
                raise TypingError(
                    f"str.{name}() argument `{pname}` must be {what}, not {op.type}",
                    hint=f"see help(str.{name})",
                )
        operands = [args[0], *given]
        if not kwargs and not all(a.is_const for a in operands):
            if name in _SEARCHES and len(given) == 1 and isinstance(given[0].type, T.Str):
                return _native_search(name, ret)
            if name in _ASCII and not given:
                return _ascii_or_python(name, operands, ret)
        return python_call(f"str.{name}", operands, ret, sources)

    return rule


# Methods done natively for every string (without `start`/`end`): byte searches, since a
# match of UTF-8 bytes is a match of code points.
_SEARCHES = ("find", "rfind", "index", "rindex", "count", "startswith", "endswith")
# Methods done natively for ASCII strings (no arguments); Python does the others.
_ASCII = "upper lower strip lstrip rstrip isdigit isalpha isalnum isspace isupper islower".split()


def _native_search(name: str, ret: T.Type) -> Resolved:
    op = {"index": "find", "rindex": "rfind"}.get(name, name)

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        found = _strop(b, op, v, ret)
        if op != name:
            b.raise_if(b.cmp("lt", found, _i64(0)), ValueError, "substring not found")
        return found

    return Resolved((None, None), ret, lower, may_raise=op != name, origin=True)


def _ascii_or_python(name: str, operands: list[Operand], ret: T.Type) -> Resolved:
    """`s.<name>()`: natively when `s` is ASCII, else by Python (Unicode's tables)."""
    python = python_call(f"str.{name}", operands, ret)
    assert python.lower is not None
    python_lower = python.lower

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        s = v[0]
        nbytes = b.emit(ir.Load(b.emit(ir.BlockData(s, type=T.PTR)), type=T.I64))
        is_ascii = b.cmp("eq", nbytes, runtime_len(b, s))
        fast, slow, done = b.new_block("ascii"), b.new_block("unicode"), b.new_block("got")
        b.branch(is_ascii, fast, slow)
        b.position(fast)
        quick = _strop(b, f"ascii.{name}", [s], ret)
        fast_end = b.block
        b.jump(done)
        b.position(slow)
        general = python_lower(b, v, kw)
        slow_end = b.block
        b.jump(done)
        b.position(done)
        return b.phi(ret, {fast_end: quick, slow_end: general})

    return Resolved((None,), ret, lower, may_raise=True, origin=True)


def _method_notes(name: str) -> str:
    parts = [_NOTES.get(name, "")]
    if name in _SEARCHES:
        parts.append("natively with one argument, by Python with start/end")
    elif name in _ASCII and "strip" in name:
        parts.append("without `chars`, natively for ASCII text; else by Python")
    elif name in _ASCII:
        parts.append("natively for ASCII text, by Python (Unicode's tables) otherwise")
    else:
        parts.append("by Python, under the GIL")
    if name in ("index", "rindex"):
        parts.insert(0, "ValueError if absent, as Python")
    return "; ".join(p for p in parts if p)


for _name, _spec in _METHODS.items():
    register_method(
        T.Str,
        _name,
        params=_params_text(_spec[0], _spec[1]),
        notes=_method_notes(_name),
    )(_method_rule(_name, _spec))


@register_method(
    T.Str,
    "format",
    params="*values: number | str | tuple | None",
    notes="f-strings are this method: `f'{x:.3f}'` is `'{:.3f}'.format(x)`",
)
def _str_format(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
    if kwargs:
        raise TypingError(
            "str.format() with keyword arguments is not supported in compiled code",
            hint="use positional fields: '{} {}'.format(a, b), or an f-string",
        )
    if unsettled(*(a.type for a in args)):
        return PENDING
    native = _native_format(args)
    return native if native is not None else python_call("str.format", args, T.STR)


def _native_format(args: list[Operand]) -> Resolved | None:
    """`"k={} n={}".format(s, n)` of strings, ints and bools with plain fields (no spec, no
    conversion but `!s`): the pieces joined natively. None for anything else."""
    template, values = args[0], args[1:]
    if not template.is_const or all(v.is_const for v in values):
        return None
    try:
        parsed = list(string.Formatter().parse(cast(str, template.const)))
    except ValueError:
        return None  # Python raises it, at run time
    fields = [p for p in parsed if p[1] is not None]
    if len(fields) != len(values) or any(
        f[1] != "" or f[2] != "" or f[3] not in (None, "s") for f in fields
    ):
        return None
    if not all(
        isinstance(v.type, T.Str)
        or (isinstance(v.type, T.Scalar) and (v.type.is_bool or v.type.kind == "i"))
        for v in values
    ):
        return None

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        pieces: list[ir.Value] = []
        values = iter(v[1:])  # one per field: a chunk of literal text only (`{{`) takes none
        for literal, field, _, _ in parsed:
            if literal:
                pieces.append(ir.Const(literal, type=T.STR))
            if field is not None:
                pieces.append(_text_piece(b, next(values)))
        if not pieces:
            return ir.Const("", type=T.STR)
        out = pieces[0]
        for piece in pieces[1:]:
            out = b.native_call(helper("strconcat"), [out, piece], T.STR)
        return out

    return Resolved((None,) * len(args), T.STR, lower, may_raise=True)


def _text_piece(b: LowBuilder, value: ir.Value) -> ir.Value:
    """`str(value)` of a string, an int or a bool, natively."""
    t = value.type
    if isinstance(t, T.Str):
        return value
    if t == T.BOOL:
        return b.select(value, ir.Const("True", type=T.STR), ir.Const("False", type=T.STR))
    return _strop(b, "fromint", [b.cast(value, T.I64)], T.STR)
