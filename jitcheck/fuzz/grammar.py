"""Random programs: a typed generator of valid, terminating, well-typed numerical Python.

`programs()` is a Hypothesis strategy for a `Program` (the source of a module of functions,
the entry point's name and parameter types) and `cases()` one for a program with inputs.
Everything is drawn through Hypothesis, so a failing program shrinks like any example.

Every generated program is valid for Python *and* inside jitcore's documented semantics
(README, "Semantics, and the deliberate differences from Python"), so a difference between
compiled code and Python is a finding, never a documented deviation:

* terminates: `for` loops run over `range` of at most `MAX_TRIPS` items or over an array, a
  `while` loop counts a fresh counter up to a literal bound (incremented first, so `continue`
  is safe), recursion takes a depth argument clamped to `MAX_DEPTH` at every outside call;
* well-typed: every variable has one type and is only read where it is assigned on every
  path (a name is fresh per function, and names made in a block are forgotten after it);
  every function returns one type; int and float meet only where Python's result type is
  what jitcore gives (`int op float` is a float), never in one variable;
* ints never leave int64, where compiled code wraps and Python does not: every int
  expression carries a bound on its magnitude, and an operation whose bound would pass
  `WRAP_LIMIT` reduces its operands or result with `% K` first; `int(x)` of a float clamps
  `x` to +-1e15 first (NaN stays NaN), so the documented OverflowError of a float beyond
  int64 never happens;
* Python numbers and NumPy scalars stay apart in variables: a value read from an array is a
  NumPy scalar inside an expression, and is converted (`float(...)`, `int(...)`) when stored in
  a variable, returned or passed, so no variable is a Python number on one path and a NumPy
  scalar on another (a documented difference);
* no `int ** negative variable`, no negative float base to a fractional power, no float
  stored into an int array (the documented deviations).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from hypothesis import strategies as st

# Scalar types are "int", "float" and "bool"; arrays "f1", "i1", "f2", "i2" (dtype letter and
# ndim: float64 or int64); a tuple type is a tuple of scalar type names.
Ty = Any
SCALARS = ("int", "float", "bool")
ARRAYS = ("f1", "i1", "f2", "i2")
MAX_TRIPS = 8  # iterations of one generated loop
MAX_DEPTH = 6  # recursion depth of a generated recursive function
MAX_LEN = 6  # items of a generated 1-D array argument (2-D: MAX_LEN // 2 per axis)
INT_ARG_BOUND = 2**20  # magnitude of int arguments
ARRAY_INT_BOUND = 1000  # magnitude of int array elements (arguments and stores)
WRAP_LIMIT = 2**40  # an int expression beyond this bound is reduced with `% K`
SAFE = 2**62  # no operation may produce a bound above this (int64 holds it)
RETURN_BOUND = 2**20  # bound of what a generated int function returns
MODULI = (7, 97, 1000, 65536, 2**31 - 1)

_FLOAT_LITERALS = (
    "0.0", "-0.0", "1.0", "-1.0", "0.5", "2.5", "-3.75", "0.1", "1e-300", "5e-324",
    "1e300", "1.7976931348623157e308", "math.pi", "math.e", "math.inf", "-math.inf",
    "math.nan", "1e16", "9007199254740993.0",
)  # fmt: skip
_UNARY_MATH = (
    "sin", "cos", "tan", "exp", "log", "sqrt", "tanh", "atan", "fabs", "log1p", "expm1",
    "asin", "acos", "sinh", "cosh", "log10", "log2", "cbrt", "erf", "atanh", "asinh",
)  # fmt: skip
_BINARY_MATH = ("atan2", "hypot", "copysign", "fmod", "pow")
_UNARY_NP = ("np.sqrt", "np.exp", "np.sin", "np.cos", "np.abs", "np.tanh", "np.log1p",
             "np.negative", "np.floor", "np.square")  # fmt: skip


@dataclass(frozen=True)
class Expr:
    """Source text of an expression with its type; `bound` bounds |value| of an int
    expression (None: a float or bool); `np` marks a NumPy scalar; `shape` an array's
    shape (a tuple of size tags: arrays combine elementwise only with equal tags)."""

    text: str
    ty: Ty
    bound: int | None = None
    np: bool = False
    shape: tuple[str, ...] = ()


@dataclass
class Var:
    name: str
    ty: Ty
    bound: int | None = None  # ints: every value ever stored is within it; int arrays: items
    np: bool = False  # a loop variable over an array: a NumPy scalar
    shape: tuple[str, ...] = ()
    writable: bool = True  # loop variables and parameters of helpers are not reassigned


@dataclass(frozen=True)
class Signature:
    name: str
    params: tuple[Ty, ...]
    ret: Ty
    shapes: tuple[tuple[str, ...], ...] = ()  # arrays' shapes, per parameter
    recursive: bool = False


@dataclass(frozen=True)
class Program:
    """A module of generated functions; `entry` takes parameters of types `params`, whose
    arrays have the shapes `shapes` (size tags, drawn once per input)."""

    source: str
    entry: str
    params: tuple[Ty, ...]
    shapes: tuple[tuple[str, ...], ...]
    param_names: tuple[str, ...]

    def function_source(self) -> str:
        """The functions without the module header (what a regression test pastes)."""
        return self.source.split(HEADER, 1)[-1].strip() + "\n"


HEADER = "import math\n\nimport numpy as np\n\n"


@dataclass
class _Fn:
    """The function being generated: its scopes, statements and names."""

    draw: Callable[[st.SearchStrategy[Any]], Any]
    callees: list[Signature]
    ret: Ty
    scopes: list[dict[str, Var]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    counter: int = 0
    budget: int = 12  # statements still to generate
    loops: int = 0  # loop nesting
    in_try: bool = False
    self_sig: Signature | None = None
    self_calls: int = 0  # calls of itself generated (at most one besides the final return)

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def visible(self) -> list[Var]:
        seen: dict[str, Var] = {}
        for scope in self.scopes:
            seen.update(scope)
        return list(seen.values())

    def declare(self, var: Var) -> None:
        self.scopes[-1][var.name] = var

    def emit(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def flag(self, p: float = 0.5) -> bool:
        return bool(self.draw(st.integers(0, 999)) < p * 1000)

    def choose(self, items: Any) -> Any:
        return self.draw(st.sampled_from(list(items)))


# --- int bounds -----------------------------------------------------------------------------


def _reduce(e: Expr, fn: _Fn) -> Expr:
    """`e % K`: a non-negative int below K (ZeroDivisionError never: K > 0)."""
    k = fn.choose(MODULI)
    return Expr(f"(({e.text}) % {k})", e.ty, k - 1, e.np)


def _fit(e: Expr, fn: _Fn, limit: int = WRAP_LIMIT) -> Expr:
    """`e`, reduced if its bound passes `limit`."""
    if e.ty == "int" and (e.bound is None or e.bound > limit):
        k = fn.choose([m for m in MODULI if m <= limit + 1] or [7])
        return Expr(f"(({e.text}) % {k})", e.ty, k - 1, e.np)
    return e


def _int_bound(op: str, a: int, b: int, exponent: int = 1) -> int:
    if op in ("+", "-"):
        return a + b
    if op == "*":
        return a * b
    if op == "//":
        return a + 1
    if op == "%":
        return b
    if op == "**":
        return max(a, 1) ** exponent
    return max(a, b)


# --- expressions ----------------------------------------------------------------------------


def expr(fn: _Fn, ty: Ty, depth: int = 2) -> Expr:
    """An expression of type `ty` (a scalar or tuple type, or an array type)."""
    if isinstance(ty, tuple):
        items = [_plain(expr(fn, t, depth - 1), fn) for t in ty]
        return Expr("(" + ", ".join(i.text for i in items) + ")", ty)
    if ty in ARRAYS:
        return array_expr(fn, ty, depth)
    makers = {"int": _int_expr, "float": _float_expr, "bool": _bool_expr}
    return makers[ty](fn, depth)


def _leaf(fn: _Fn, ty: str) -> Expr:
    """A variable of type `ty` or a literal."""
    vars_ = [v for v in fn.visible() if v.ty == ty]
    if vars_ and fn.flag(0.7):
        v = fn.choose(vars_)
        return Expr(v.name, ty, v.bound, v.np)
    if ty == "int":
        value = fn.draw(st.one_of(st.integers(-20, 20), st.sampled_from([2**31, -(2**40), 3])))
        return Expr(str(value) if value >= 0 else f"({value})", "int", abs(value))
    if ty == "float":
        text = fn.choose(_FLOAT_LITERALS)
        return Expr(f"({text})" if text.startswith("-") else text, "float")
    return Expr(fn.choose(["True", "False"]), "bool")


def _array_vars(fn: _Fn, kinds: tuple[str, ...]) -> list[Var]:
    return [v for v in fn.visible() if v.ty in kinds]


def _index(fn: _Fn, size: str, length_text: str) -> str:
    """An index expression for an axis: a literal (maybe out of range), or an int wrapped
    into range by `% len` (ZeroDivisionError on an empty axis, as Python)."""
    if fn.flag(0.4):
        return str(fn.draw(st.integers(-3, 3)))
    i = _fit(_int_expr(fn, 0), fn)
    return f"(({i.text}) % {length_text})"


def _element(fn: _Fn, dtype: str) -> Expr | None:
    """`a[i]` / `m[i, j]` of an array of `dtype` ("f" or "i"): a NumPy scalar."""
    arrays = _array_vars(fn, (f"{dtype}1", f"{dtype}2"))
    if not arrays:
        return None
    a = fn.choose(arrays)
    bound = a.bound if dtype == "i" else None
    ty = "int" if dtype == "i" else "float"
    if a.ty.endswith("1"):
        return Expr(f"{a.name}[{_index(fn, a.shape[0], f'len({a.name})')}]", ty, bound, True)
    i = _index(fn, a.shape[0], f"{a.name}.shape[0]")
    j = _index(fn, a.shape[1], f"{a.name}.shape[1]")
    return Expr(f"{a.name}[{i}, {j}]", ty, bound, True)


def _reduction(fn: _Fn, dtype: str) -> Expr | None:
    arrays = _array_vars(fn, (f"{dtype}1", f"{dtype}2"))
    if not arrays:
        return None
    a = fn.choose(arrays)
    ops = ["np.sum", "np.min", "np.max", ".sum", ".max", ".min"]
    if dtype == "f":
        ops += ["np.mean", ".mean"]
    op = fn.choose(ops)
    whole = _sliced(fn, a)
    text = f"{whole}{op}()" if op.startswith(".") else f"{op}({whole})"
    ty = "float" if dtype == "f" or "mean" in op else "int"
    bound = None
    if ty == "int":
        assert a.bound is not None
        bound = a.bound * (MAX_LEN * MAX_LEN if "sum" in op else 1)
    return Expr(text, ty, bound, True)


_STATISTICS = (
    "np.median({a})", "np.std({a})", "np.var({a})", "np.linalg.norm({a})", "{a}.std()",
    "np.percentile({a}, {q})", "np.average({a})", "np.ptp({a})", "np.nansum({a})",
    "np.nanmax({a})", "math.fsum({a})", "sum(x * 0.5 for x in {a})", "np.trapezoid({a})",
    "{a}.var()", "np.quantile({a}, 0.{q})", "np.cumsum({a})[-1]", "np.sort({a})[0]",
)  # fmt: skip


def _statistic(fn: _Fn) -> Expr:
    """`float(...)` of a statistic of an array: more of NumPy (some of which jitcore may not
    compile: each rejection is counted by its reason, which measures breadth)."""
    arrays = _array_vars(fn, ("f1", "i1") if fn.flag(0.7) else ARRAYS)
    if not arrays:
        return _leaf(fn, "float")
    a = fn.choose(arrays)
    form = fn.choose(_STATISTICS)
    one_d_only = ("sum(", "fsum", "[", "trapezoid")  # of a 2-D array: not one number
    if a.ty.endswith("2") and any(part in form for part in one_d_only):
        form = "np.median({a})"
    whole = _sliced(fn, a) if "[" not in form else a.name
    return Expr(f"float({form.format(a=whole, q=fn.choose([0, 25, 50]))})", "float")


def _sliced(fn: _Fn, a: Var) -> str:
    """`a`, or a basic slice of it (a view: maybe empty, maybe strided, maybe reversed)."""
    if fn.flag(0.6):
        return a.name
    lo, hi = fn.draw(st.integers(-3, 3)), fn.draw(st.integers(-3, 6))
    step = fn.choose(["", ":2", ":-1", ":3"])
    part = fn.choose([f"{lo}:{hi}{step}", f"{lo}:", f":{hi}", f"::{fn.choose([2, -1, -2])}"])
    return f"{a.name}[{part}]" if a.ty.endswith("1") else f"{a.name}[{part}, {part}]"


def _call(fn: _Fn, ret: Ty, depth: int) -> Expr | None:
    """A call of an earlier generated function (or of this one, one level shallower)."""
    options = [s for s in fn.callees if s.ret == ret]
    if fn.self_sig is not None and fn.self_sig.ret == ret and fn.loops == 0 and not fn.in_try:
        if fn.self_calls < 1:
            options.append(fn.self_sig)
    if not options:
        return None
    sig = fn.choose(options)
    args = []
    for k, p in enumerate(sig.params):
        if sig.recursive and k == 0:
            if sig is fn.self_sig:
                fn.self_calls += 1
                args.append("n - 1")  # the depth argument
            else:
                n = _fit(_int_expr(fn, 0), fn)
                args.append(f"min(abs({n.text}), {MAX_DEPTH})")
            continue
        if p in ARRAYS:
            same = [v for v in _array_vars(fn, (p,)) if v.shape == sig.shapes[k]]
            if not same:
                return None
            args.append(fn.choose(same).name)
            continue
        a = _plain(_fit(expr(fn, p, depth - 1), fn, 2**20) if p == "int" else expr(fn, p, 0), fn)
        args.append(a.text)
    bound = RETURN_BOUND if ret == "int" else None
    return Expr(f"{sig.name}({', '.join(args)})", ret, bound)


def _same_kind(a: Expr, b: Expr, fn: _Fn) -> tuple[Expr, Expr]:
    """Two operands of `x if c else y`, `min`, `and`/`or` (whose value is one of them): both
    Python numbers unless both are NumPy scalars. A value that is a NumPy scalar on one path
    and a Python number on another follows NumPy's rules on both in compiled code (a
    documented difference: `s / 0.0` is inf where Python raises)."""
    if a.np == b.np:
        return a, b
    return _plain(a, fn), _plain(b, fn)


def _plain(e: Expr, fn: _Fn) -> Expr:
    """A Python number: a NumPy scalar converted by `int`/`float`/`bool`."""
    if not e.np:
        return e
    return Expr(f"{e.ty}({e.text})", e.ty, e.bound)


def _int_expr(fn: _Fn, depth: int) -> Expr:
    if depth <= 0 or fn.flag(0.25):
        return _leaf(fn, "int")
    kind = fn.choose(
        ["binop", "binop", "binop", "unary", "minmax", "pow", "len", "fromfloat", "ternary",
         "element", "reduce", "call", "bool", "divmod", "gcd", "argmax"]
    )  # fmt: skip
    if kind == "argmax":
        arrays = _array_vars(fn, ARRAYS)
        if not arrays:
            return _leaf(fn, "int")
        a = fn.choose(arrays)
        f = fn.choose(["np.argmax", "np.argmin", "np.count_nonzero"])
        return Expr(f"int({f}({a.name}))", "int", MAX_LEN * MAX_LEN)
    if kind in ("divmod", "gcd"):
        a, b = _int_expr(fn, depth - 1), _int_expr(fn, depth - 1)
        a, b = _plain(a, fn), _plain(b, fn)
        if kind == "gcd":
            return Expr(f"math.gcd({a.text}, {b.text})", "int", max(_b(a), _b(b)))
        k = fn.draw(st.integers(0, 1))
        return Expr(f"divmod({a.text}, {b.text})[{k}]", "int", max(_b(a) + 1, _b(b)))
    if kind == "element":
        e = _element(fn, "i")
        return e if e is not None else _leaf(fn, "int")
    if kind == "reduce":
        e = _reduction(fn, "i")
        return _fit(e, fn) if e is not None and e.ty == "int" else _leaf(fn, "int")
    if kind == "call":
        e = _call(fn, "int", depth)
        return e if e is not None else _leaf(fn, "int")
    if kind == "len":
        arrays = _array_vars(fn, ARRAYS)
        if not arrays:
            return _leaf(fn, "int")
        a = fn.choose(arrays)
        text = fn.choose([f"len({a.name})", f"{a.name}.shape[0]", f"{a.name}.size"])
        return Expr(text, "int", MAX_LEN * MAX_LEN)
    if kind == "fromfloat":
        f = _float_expr(fn, depth - 1)
        conv = fn.choose(["int", "math.floor", "math.ceil", "round", "math.trunc"])
        # clamped first: beyond int64 compiled code raises the documented OverflowError, and
        # if Python then raised another error the two would differ by that deviation
        clamped = f"min(max({f.text}, -1e15), 1e15)"
        return _reduce(Expr(f"{conv}({clamped})", "int", None), fn)
    if kind == "bool":
        b = _bool_expr(fn, depth - 1)
        return Expr(f"int({b.text})", "int", 1)
    if kind == "ternary":
        c = _bool_expr(fn, depth - 1)
        a, b = _same_kind(_int_expr(fn, depth - 1), _int_expr(fn, depth - 1), fn)
        return Expr(f"({a.text} if {c.text} else {b.text})", "int", max(_b(a), _b(b)), a.np)
    a = _int_expr(fn, depth - 1)
    if kind == "unary":
        op = fn.choose(["-", "abs", "+"])
        text = f"abs({a.text})" if op == "abs" else f"({op}{a.text})"
        return Expr(text, "int", _b(a), a.np)
    if kind == "pow":
        k = fn.draw(st.integers(0, 3))
        # reduced below 1000 where needed (a `% K` with K up to 2**31 - 1 cubed would not fit)
        a = a if _int_bound("**", _b(a), 0, k) <= SAFE else _fit(a, fn, ARRAY_INT_BOUND)
        return _fit(Expr(f"({a.text}) ** {k}", "int", _int_bound("**", _b(a), 0, k), a.np), fn)
    b = _int_expr(fn, depth - 1)
    if kind == "minmax":
        a, b = _same_kind(a, b, fn)
        f = fn.choose(["min", "max"])
        return Expr(f"{f}({a.text}, {b.text})", "int", max(_b(a), _b(b)), a.np)
    op = fn.choose(["+", "-", "*", "//", "%"])
    if _int_bound(op, _b(a), _b(b)) > SAFE:
        a, b = _reduce(a, fn), _reduce(b, fn)
    e = Expr(f"({a.text} {op} {b.text})", "int", _int_bound(op, _b(a), _b(b)), a.np or b.np)
    return _fit(e, fn)


def _b(e: Expr) -> int:
    assert e.bound is not None, e
    return e.bound


def _float_expr(fn: _Fn, depth: int) -> Expr:
    if depth <= 0 or fn.flag(0.2):
        return _leaf(fn, "float")
    kind = fn.choose(
        ["binop", "binop", "binop", "mixed", "math1", "math1", "math2", "pow", "fromint",
         "ternary", "element", "reduce", "call", "unary", "minmax", "dot", "stats", "round"]
    )  # fmt: skip
    if kind == "element":
        e = _element(fn, "f")
        return e if e is not None else _leaf(fn, "float")
    if kind == "stats":
        return _statistic(fn)
    if kind == "round":
        a = _float_expr(fn, depth - 1)
        return Expr(f"round({a.text}, {fn.draw(st.integers(0, 3))})", "float", np=a.np)
    if kind == "reduce":
        e = _reduction(fn, fn.choose("fi"))
        if e is None:
            return _leaf(fn, "float")
        return e if e.ty == "float" else Expr(f"float({e.text})", "float")
    if kind == "dot":
        vecs = _array_vars(fn, ("f1",))
        if not vecs:
            return _leaf(fn, "float")
        a = fn.choose(vecs)
        b = fn.choose([v for v in vecs if v.shape == a.shape])
        return Expr(f"np.dot({a.name}, {b.name})", "float", np=True)
    if kind == "call":
        e = _call(fn, "float", depth)
        return e if e is not None else _leaf(fn, "float")
    if kind == "fromint":
        i = _int_expr(fn, depth - 1)
        return Expr(f"float({i.text})", "float")
    if kind == "ternary":
        c = _bool_expr(fn, depth - 1)
        a, b = _same_kind(_float_expr(fn, depth - 1), _float_expr(fn, depth - 1), fn)
        return Expr(f"({a.text} if {c.text} else {b.text})", "float", np=a.np)
    a = _float_expr(fn, depth - 1)
    if kind == "unary":
        op = fn.choose(["-", "abs"])
        return Expr(f"abs({a.text})" if op == "abs" else f"(-{a.text})", "float", np=a.np)
    if kind == "math1":
        name = fn.choose(_UNARY_MATH)
        return Expr(f"math.{name}({a.text})", "float")
    if kind == "pow":
        if fn.flag(0.5):
            k = fn.draw(st.integers(-2, 3))
            return Expr(f"({a.text}) ** {k}" if k >= 0 else f"({a.text}) ** ({k})", "float",
                        np=a.np)  # fmt: skip
        b = _float_expr(fn, depth - 1)
        return Expr(f"abs({a.text}) ** {b.text}", "float", np=a.np or b.np)
    if kind == "mixed":
        i = _int_expr(fn, depth - 1)
        op = fn.choose(["+", "-", "*", "/", "//", "%"])
        pair = (a.text, i.text) if fn.flag() else (i.text, a.text)
        return Expr(f"({pair[0]} {op} {pair[1]})", "float", np=a.np or i.np)
    b = _float_expr(fn, depth - 1)
    if kind == "math2":
        name = fn.choose(_BINARY_MATH)
        if name == "pow":
            return Expr(f"math.pow(abs({a.text}), {b.text})", "float")
        return Expr(f"math.{name}({a.text}, {b.text})", "float")
    if kind == "minmax":
        a, b = _same_kind(a, b, fn)
        f = fn.choose(["min", "max"])
        return Expr(f"{f}({a.text}, {b.text})", "float", np=a.np)
    op = fn.choose(["+", "-", "*", "/", "//", "%"])
    return Expr(f"({a.text} {op} {b.text})", "float", np=a.np or b.np)


def _bool_expr(fn: _Fn, depth: int) -> Expr:
    if depth <= 0 or fn.flag(0.2):
        return _leaf(fn, "bool")
    kind = fn.choose(["cmp", "cmp", "cmp", "logic", "not", "isnan", "chain", "any"])
    if kind == "cmp" or kind == "chain":
        ty = fn.choose(["int", "float", "mixed"])
        a = expr(fn, "int" if ty == "int" else "float", depth - 1)
        b = expr(fn, "float" if ty == "float" else "int", depth - 1)
        op = fn.choose(["<", "<=", "==", "!=", ">", ">="])
        text = f"{a.text} {op} {b.text}"
        if kind == "chain":
            c = expr(fn, "int", depth - 1)
            text += f" {fn.choose(['<', '<=', '!='])} {c.text}"
        return Expr(f"({text})", "bool", np=a.np or b.np)
    if kind == "logic":
        a, b = _same_kind(_bool_expr(fn, depth - 1), _bool_expr(fn, depth - 1), fn)
        op = fn.choose(["and", "or"])
        return Expr(f"({a.text} {op} {b.text})", "bool", np=a.np)
    if kind == "not":
        a = _bool_expr(fn, depth - 1)
        return Expr(f"(not {a.text})", "bool")
    if kind == "any":
        arrays = _array_vars(fn, ARRAYS)
        if not arrays:
            return _leaf(fn, "bool")
        a = fn.choose(arrays)
        s = _float_expr(fn, 0)
        f = fn.choose(["np.any", "np.all"])
        return Expr(f"bool({f}({a.name} > {s.text}))", "bool")
    f = _float_expr(fn, depth - 1)
    name = fn.choose(["isnan", "isinf", "isfinite"])
    return Expr(f"math.{name}({f.text})", "bool")


# --- arrays ---------------------------------------------------------------------------------


def array_expr(fn: _Fn, ty: str, depth: int, shape: tuple[str, ...] | None = None) -> Expr:
    """An array expression of type `ty`; of shape `shape` when given (else any)."""
    dtype, ndim = ty[0], int(ty[1])
    candidates = [v for v in _array_vars(fn, (ty,)) if shape is None or v.shape == shape]
    if not candidates:
        # an int array becomes a float one by arithmetic; otherwise make one
        others = [v for v in _array_vars(fn, (f"i{ndim}",)) if shape is None or v.shape == shape]
        if dtype == "f" and others:
            a = fn.choose(others)
            return Expr(f"({a.name} * 0.5)", ty, shape=a.shape)
        return _new_array(fn, ty, shape)
    a = fn.choose(candidates)
    base = Expr(a.name, ty, a.bound, shape=a.shape)
    if depth <= 0 or fn.flag(0.3):
        return base
    if ty == "f1" and fn.flag(0.15):
        e = _from_matrix(fn, shape)
        if e is not None:
            return e
    kind = fn.choose(
        ["scalar", "elementwise", "unary", "where", "minmax", "view", "cumsum", "sort", "clip"]
    )
    return _array_op(fn, kind, base, depth)


def _from_matrix(fn: _Fn, shape: tuple[str, ...] | None) -> Expr | None:
    """A float vector made from a 2-D array: a sum along an axis, or a matrix-vector product."""
    options = []
    for m in _array_vars(fn, ("f2", "i2")):
        for axis, tag in ((0, m.shape[1]), (1, m.shape[0])):
            if shape is None or shape == (tag,):
                f = fn.choose(["np.sum", "np.mean", "np.max"] if m.ty == "f2" else ["np.mean"])
                options.append(Expr(f"{f}({m.name}, axis={axis})", "f1", shape=(tag,)))
        for v in _array_vars(fn, ("f1",)):
            if v.shape == (m.shape[1],) and (shape is None or shape == (m.shape[0],)):
                options.append(Expr(f"np.dot({m.name}, {v.name})", "f1", shape=(m.shape[0],)))
    return fn.choose(options) if options else None


def _array_op(fn: _Fn, kind: str, a: Expr, depth: int) -> Expr:
    ty = a.ty
    if kind == "scalar":
        s = expr(fn, "float" if ty[0] == "f" else "int", 0)
        if ty[0] == "i":
            s = _fit(s, fn, ARRAY_INT_BOUND)
        op = fn.choose(["+", "-", "*"])
        pair = (a.text, s.text) if fn.flag() else (s.text, a.text)
        return _fit_array(Expr(f"({pair[0]} {op} {pair[1]})", ty,
                               _int_op_bound(op, a, s), shape=a.shape), fn)  # fmt: skip
    if kind == "elementwise":
        b = array_expr(fn, ty, depth - 1, a.shape)
        op = fn.choose(["+", "-", "*"])
        return _fit_array(
            Expr(f"({a.text} {op} {b.text})", ty, _int_op_bound(op, a, b), shape=a.shape), fn
        )
    if kind == "unary" and ty[0] == "f":
        f = fn.choose(_UNARY_NP)
        return Expr(f"{f}({a.text})", ty, shape=a.shape)
    if kind == "where":
        b = array_expr(fn, ty, depth - 1, a.shape)
        s = _float_expr(fn, 0)
        return Expr(
            f"np.where({a.text} > {s.text}, {a.text}, {b.text})", ty,
            None if ty[0] == "f" else max(_b(a), _b(b)), shape=a.shape,
        )  # fmt: skip
    if kind == "minmax":
        b = array_expr(fn, ty, depth - 1, a.shape)
        f = fn.choose(["np.maximum", "np.minimum"])
        bound = None if ty[0] == "f" else max(_b(a), _b(b))
        return Expr(f"{f}({a.text}, {b.text})", ty, bound, shape=a.shape)
    if kind == "view":
        return Expr(f"{a.text}[::-1]", ty, a.bound, shape=a.shape)
    if kind == "cumsum" and ty == "f1":
        return Expr(f"np.cumsum({a.text})", ty, shape=a.shape)
    if kind == "sort" and ty[1] == "1":
        return Expr(f"np.sort({a.text})", ty, a.bound, shape=a.shape)
    if kind == "clip" and ty[0] == "f":
        lo = fn.draw(st.integers(-5, 0))
        return Expr(f"np.clip({a.text}, {lo}.0, {lo + fn.draw(st.integers(0, 9))}.5)", ty,
                    shape=a.shape)  # fmt: skip
    return Expr(f"(-{a.text})", ty, a.bound, shape=a.shape)


def _int_op_bound(op: str, a: Expr, b: Expr) -> int | None:
    if a.ty[0] != "i":
        return None
    return _int_bound(op, _b(a), _b(b))


def _fit_array(e: Expr, fn: _Fn) -> Expr:
    """An int array expression whose items may pass the array bound: reduced by `% K`."""
    if e.ty[0] == "i" and (e.bound is None or e.bound > ARRAY_INT_BOUND):
        k = fn.choose([7, 97, 1000])
        return Expr(f"(({e.text}) % {k})", e.ty, k - 1, shape=e.shape)
    return e


def _new_array(fn: _Fn, ty: str, shape: tuple[str, ...] | None) -> Expr:
    """A new array: of a literal size, or shaped like an existing array."""
    dtype = "np.float64" if ty[0] == "f" else "np.int64"
    ndim = int(ty[1])
    like = [v for v in _array_vars(fn, ARRAYS) if len(v.shape) == ndim]
    if shape is not None:
        like = [v for v in like if v.shape == shape]
    bound = 1 if ty[0] == "i" else None
    if like:
        a = fn.choose(like)
        f = fn.choose(["np.zeros", "np.ones"])
        return Expr(f"{f}({a.name}.shape, dtype={dtype})", ty, bound, shape=a.shape)
    if shape is not None:
        raise _NoArray
    n = fn.draw(st.integers(0, 4))
    size = str(n) if ndim == 1 else f"({n}, 2)"
    tag = (f"lit{fn.fresh('s')}",) if ndim == 1 else (f"lit{fn.fresh('s')}", "two")
    if ty[0] == "f" and ndim == 1 and fn.flag(0.5):
        return Expr(f"np.linspace(0.0, 1.0, {n})", ty, shape=tag)
    if ty[0] == "i" and ndim == 1 and fn.flag(0.5):
        return Expr(f"np.arange({n})", ty, max(n, 1), shape=tag)
    return Expr(f"np.ones({size}, dtype={dtype})", ty, bound, shape=tag)


class _NoArray(Exception):
    """No array of the asked shape can be made here."""


# --- statements -----------------------------------------------------------------------------


def block(fn: _Fn, indent: int, size: int) -> None:
    """`size` statements at `indent`, in a new scope (names made here are forgotten after)."""
    fn.scopes.append({})
    start = len(fn.lines)
    for _ in range(size):
        if fn.budget <= 0:
            break
        fn.budget -= 1
        statement(fn, indent)
    if len(fn.lines) == start:
        fn.emit(indent, "pass")
    fn.scopes.pop()


def statement(fn: _Fn, indent: int) -> None:
    kinds = ["assign", "assign", "assign", "update", "update", "if", "for", "store"]
    kinds += ["while", "try", "raise", "tuple", "return", "forarray"]
    if fn.loops:
        kinds += ["break"]
    kind = fn.choose(kinds)
    try:
        _STATEMENTS[kind](fn, indent)
    except _NoArray:
        fn.emit(indent, "pass")


def _assign(fn: _Fn, indent: int) -> None:
    ty = fn.choose(["int", "int", "float", "float", "float", "bool", "f1", "i1", "f2"])
    e = expr(fn, ty, 2)
    name = fn.fresh()
    if ty in ARRAYS:
        fn.emit(indent, f"{name} = {e.text}")
        bound = max(_b(e), ARRAY_INT_BOUND) if ty[0] == "i" else None
        fn.declare(Var(name, ty, bound, shape=e.shape))
        return
    e = _plain(_fit(e, fn) if ty == "int" else e, fn)
    bound = max(e.bound, 2**20) if ty == "int" and e.bound is not None else None
    fn.emit(indent, f"{name} = {e.text}")
    fn.declare(Var(name, ty, bound))


def _update(fn: _Fn, indent: int) -> None:
    """Reassign a variable, within its bound (`v = v + e`, `v += e`, `v = e`)."""
    targets = [v for v in fn.visible() if v.writable and v.ty in SCALARS]
    if not targets:
        return _assign(fn, indent)
    v = fn.choose(targets)
    if v.ty == "bool":
        e = _plain(_bool_expr(fn, 2), fn)
        fn.emit(indent, f"{v.name} = {e.text}")
        return None
    op = fn.choose(["+", "-", "*", "="] + (["/"] if v.ty == "float" else []))
    e = expr(fn, v.ty, 2)
    if v.ty == "int":
        assert v.bound is not None
        whole = e if op == "=" else Expr(
            f"{v.name} {op} {e.text}", "int",
            _int_bound(op, v.bound, _b(e)) if _int_bound(op, v.bound, _b(e)) <= SAFE else None,
            e.np,
        )  # fmt: skip
        if whole.bound is None:
            e = _reduce(e, fn)
            whole = Expr(f"{v.name} {op} {e.text}", "int", _int_bound(op, v.bound, _b(e)), e.np)
        if _b(whole) > v.bound:
            k = max(m for m in MODULI if m <= v.bound + 1)
            whole = Expr(f"(({whole.text}) % {k})", "int", k - 1, whole.np)
        fn.emit(indent, f"{v.name} = {_plain(whole, fn).text}")
        return None
    if op == "=":
        fn.emit(indent, f"{v.name} = {_plain(e, fn).text}")
    elif e.np:
        fn.emit(indent, f"{v.name} = float({v.name} {op} {e.text})")
    else:
        fn.emit(indent, f"{v.name} {op}= {e.text}")
    return None


def _if(fn: _Fn, indent: int) -> None:
    fn.emit(indent, f"if {_bool_expr(fn, 2).text}:")
    block(fn, indent + 1, fn.draw(st.integers(1, 3)))
    for _ in range(fn.draw(st.integers(0, 2))):
        fn.emit(indent, f"elif {_bool_expr(fn, 2).text}:")
        block(fn, indent + 1, fn.draw(st.integers(1, 2)))
    if fn.flag(0.5):
        fn.emit(indent, "else:")
        block(fn, indent + 1, fn.draw(st.integers(1, 2)))


def _range_args(fn: _Fn) -> tuple[str, int]:
    """Arguments of a `range` with at most MAX_TRIPS items, and a bound of its items."""
    form = fn.choose(["literal", "clamped", "len", "step"])
    if form == "literal":
        n = fn.draw(st.integers(0, MAX_TRIPS))
        return str(n), n
    if form == "len":
        arrays = _array_vars(fn, ("f1", "i1"))
        if arrays:
            return f"len({fn.choose(arrays).name})", MAX_LEN
    if form == "step":
        lo = fn.draw(st.integers(-4, 4))
        step = fn.choose([-3, -2, -1, 1, 2, 3])
        return f"{lo}, {lo + step * MAX_TRIPS // 2}, {step}", abs(lo) + MAX_TRIPS * 2
    n = _fit(_int_expr(fn, 1), fn)
    return f"min(abs({_plain(n, fn).text}), {MAX_TRIPS})", MAX_TRIPS


def _loop_body(fn: _Fn, indent: int, loop_var: Var | None) -> None:
    fn.scopes.append({} if loop_var is None else {loop_var.name: loop_var})
    fn.loops += 1
    block(fn, indent, fn.draw(st.integers(1, 3)))
    fn.loops -= 1
    fn.scopes.pop()


def _for(fn: _Fn, indent: int) -> None:
    if fn.loops >= 2:
        return _update(fn, indent)
    args, bound = _range_args(fn)
    i = fn.fresh("i")
    fn.emit(indent, f"for {i} in range({args}):")
    _loop_body(fn, indent + 1, Var(i, "int", bound, writable=False))
    return None


def _for_array(fn: _Fn, indent: int) -> None:
    arrays = _array_vars(fn, ("f1", "i1"))
    if fn.loops >= 2 or not arrays:
        return _for(fn, indent)
    a = fn.choose(arrays)
    x = fn.fresh("x")
    fn.emit(indent, f"for {x} in {_sliced(fn, a)}:")
    ty = "float" if a.ty == "f1" else "int"
    _loop_body(fn, indent + 1, Var(x, ty, a.bound, np=True, writable=False))
    return None


def _while(fn: _Fn, indent: int) -> None:
    if fn.loops >= 2:
        return _update(fn, indent)
    c = fn.fresh("c")
    fn.emit(indent, f"{c} = 0")
    cond = f"{c} < {fn.draw(st.integers(0, MAX_TRIPS))}"
    if fn.flag(0.5):
        cond += f" and {_plain(_bool_expr(fn, 1), fn).text}"
    fn.emit(indent, f"while {cond}:")
    fn.emit(indent + 1, f"{c} += 1")
    _loop_body(fn, indent + 1, None)
    return None


def _store(fn: _Fn, indent: int) -> None:
    """`a[i] = e`, `m[i, j] = e`, `a[lo:hi] = e` into an array variable (arguments too)."""
    arrays = [v for v in _array_vars(fn, ARRAYS) if v.writable]
    if not arrays:
        return _assign(fn, indent)
    a = fn.choose(arrays)
    sources = [
        b for b in _array_vars(fn, (a.ty,))
        if b.shape == a.shape and (a.ty[0] == "f" or _b_var(b) <= _b_var(a))
    ]  # fmt: skip
    if a.ty.endswith("1") and sources and fn.flag(0.25):
        b, k = fn.choose(sources), fn.draw(st.integers(1, 3))
        # equal lengths for every n (also overlapping, when b is a: copied as NumPy does)
        target, source = fn.choose([(f"{k}:", f":{-k}"), (f":{k}", f"{-k}:"), (":", "::-1")])
        fn.emit(indent, f"{a.name}[{target}] = {b.name}[{source}]")
        return None
    e = expr(fn, "float" if a.ty[0] == "f" else "int", 1)
    if a.ty[0] == "i":
        assert a.bound is not None
        e = _fit(e, fn, a.bound)
        if _b(e) > a.bound:
            e = Expr(f"(({e.text}) % 7)", "int", 6, e.np)
    if a.ty.endswith("1"):
        if fn.flag(0.3):
            lo, hi = fn.draw(st.integers(-3, 3)), fn.draw(st.integers(-3, 4))
            fn.emit(indent, f"{a.name}[{lo}:{hi}] = {e.text}")
        else:
            fn.emit(indent, f"{a.name}[{_index(fn, a.shape[0], f'len({a.name})')}] = {e.text}")
        return None
    i = _index(fn, a.shape[0], f"{a.name}.shape[0]")
    j = _index(fn, a.shape[1], f"{a.name}.shape[1]")
    fn.emit(indent, f"{a.name}[{i}, {j}] = {e.text}")
    return None


def _b_var(v: Var) -> int:
    assert v.bound is not None
    return v.bound


def _try(fn: _Fn, indent: int) -> None:
    fn.emit(indent, "try:")
    was, fn.in_try = fn.in_try, True
    block(fn, indent + 1, fn.draw(st.integers(1, 3)))
    fn.in_try = was
    caught = fn.choose(
        ["ZeroDivisionError", "IndexError", "(ZeroDivisionError, IndexError)",
         "ArithmeticError", "ValueError", "Exception"]
    )  # fmt: skip
    fn.emit(indent, f"except {caught}:")
    block(fn, indent + 1, fn.draw(st.integers(1, 2)))


def _raise(fn: _Fn, indent: int) -> None:
    error = fn.choose(["ValueError", "ZeroDivisionError", "IndexError", "RuntimeError"])
    fn.emit(indent, f"if {_bool_expr(fn, 1).text}:")
    fn.emit(indent + 1, f'raise {error}("fuzz")')


def _tuple(fn: _Fn, indent: int) -> None:
    tys = tuple(fn.choose(SCALARS) for _ in range(fn.draw(st.integers(2, 3))))
    t = expr(fn, tys, 1)
    name = fn.fresh("t")
    fn.emit(indent, f"{name} = {t.text}")
    names = [fn.fresh() for _ in tys]
    if fn.flag(0.5):
        fn.emit(indent, f"{', '.join(names)} = {name}")
    else:
        for k, n in enumerate(names):
            fn.emit(indent, f"{n} = {name}[{k}]")
    for n, ty in zip(names, tys):
        fn.declare(Var(n, ty, WRAP_LIMIT if ty == "int" else None))


def _return(fn: _Fn, indent: int) -> None:
    fn.emit(indent, f"if {_bool_expr(fn, 1).text}:")
    fn.emit(indent + 1, f"return {return_expr(fn).text}")


def _break(fn: _Fn, indent: int) -> None:
    fn.emit(indent, f"if {_bool_expr(fn, 1).text}:")
    fn.emit(indent + 1, fn.choose(["break", "continue"]))


_STATEMENTS: dict[str, Callable[[_Fn, int], None]] = {
    "assign": _assign,
    "update": _update,
    "if": _if,
    "for": _for,
    "forarray": _for_array,
    "while": _while,
    "store": _store,
    "try": _try,
    "raise": _raise,
    "tuple": _tuple,
    "return": _return,
    "break": _break,
}


def return_expr(fn: _Fn) -> Expr:
    """What the function returns: its return type, ints within RETURN_BOUND."""
    if fn.ret in ARRAYS:
        return array_expr(fn, fn.ret, 2)
    if isinstance(fn.ret, tuple):
        return expr(fn, fn.ret, 2)
    e = _plain(expr(fn, fn.ret, 2), fn)
    return _fit(e, fn, RETURN_BOUND) if fn.ret == "int" else e


def _recursive_return(fn: _Fn, sig: Signature) -> Expr:
    """The last return of a recursive function: its own result one level down, combined."""
    arg = _plain(_fit(expr(fn, sig.params[1], 1), fn, INT_ARG_BOUND), fn)
    call = f"{sig.name}(n - 1, {arg.text})"
    e = return_expr(fn)
    if sig.ret == "int":
        return _fit(Expr(f"({call} + {e.text})", "int", RETURN_BOUND + _b(e)), fn, RETURN_BOUND)
    if sig.ret == "float":
        return Expr(f"({call} * 0.5 + {e.text})", "float")
    return Expr(f"(not {call} or {e.text})", "bool")


# --- functions and programs -----------------------------------------------------------------


def _param_types(draw: Any, count: int) -> tuple[Ty, ...]:
    return tuple(
        draw(st.sampled_from(["int", "float", "float", "bool", "f1", "f1", "i1", "f2", "i2"]))
        for _ in range(count)
    )


def _shapes(params: tuple[Ty, ...]) -> tuple[tuple[str, ...], ...]:
    """Every 1-D argument has length `n`, every 2-D one shape (`r`, `c`)."""
    return tuple(
        ("n",) if p in ("f1", "i1") else ("r", "c") if p in ARRAYS else () for p in params
    )


def _param_vars(names: tuple[str, ...], params: tuple[Ty, ...], writable: bool) -> dict[str, Var]:
    out = {}
    for name, p, shape in zip(names, params, _shapes(params)):
        bound = ARRAY_INT_BOUND if p in ("i1", "i2") else INT_ARG_BOUND if p == "int" else None
        out[name] = Var(name, p, bound, shape=shape, writable=writable or p in ARRAYS)
    return out


@st.composite
def _function(
    draw: Any, name: str, callees: list[Signature], entry: bool, recursive: bool = False
) -> tuple[str, Signature]:
    """The source of one function and its signature."""
    params = _param_types(draw, draw(st.integers(1, 4)))
    if recursive:
        params = ("int", draw(st.sampled_from(["int", "float"])))
    ret = draw(
        st.sampled_from(
            ["float", "float", "int", "bool", "f1", ("float", "int"), ("int", "bool", "float")]
            if entry
            else ["float", "int", "bool"]
        )
    )
    if ret == "f1" and "f1" not in params:
        ret = "float"
    names = tuple(("n" if recursive and k == 0 else f"p{k}") for k in range(len(params)))
    sig = Signature(name, params, ret, _shapes(params), recursive)
    fn = _Fn(draw, callees, ret, budget=draw(st.integers(1, 14 if entry else 6)))
    fn.scopes.append(_param_vars(names, params, writable=entry))
    if recursive:
        fn.scopes[0]["n"].bound = MAX_DEPTH
        fn.emit(1, "if n <= 0:")
        fn.emit(2, f"return {return_expr(fn).text}")
        fn.self_sig = sig
    block(fn, 1, fn.budget)
    fn.emit(1, f"return {(_recursive_return(fn, sig) if recursive else return_expr(fn)).text}")
    head = f"def {name}({', '.join(names)}):"
    return "\n".join([head, *fn.lines]) + "\n", sig


@st.composite
def programs(draw: Any) -> Program:
    """A module: up to two helper functions (one maybe recursive) and an entry `f`."""
    sources: list[str] = []
    callees: list[Signature] = []
    for k in range(draw(st.integers(0, 2))):
        recursive = draw(st.booleans()) and draw(st.booleans())
        source, sig = draw(_function(f"g{k}", list(callees), False, recursive))
        sources.append(source)
        callees.append(sig)
    source, sig = draw(_function("f", callees, True))
    sources.append(source)
    names = tuple(f"p{k}" for k in range(len(sig.params)))
    return Program(HEADER + "\n\n".join(sources), "f", sig.params, sig.shapes, names)


# --- inputs ---------------------------------------------------------------------------------

_SPECIAL_FLOATS = (0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 5e-324, 1e308, 2.0**53)


def _floats() -> st.SearchStrategy[float]:
    return st.one_of(
        st.floats(-100, 100),
        st.sampled_from(_SPECIAL_FLOATS),
        st.floats(allow_nan=True, allow_infinity=True),
    )


def _ints() -> st.SearchStrategy[int]:
    return st.one_of(st.integers(-10, 10), st.integers(-INT_ARG_BOUND, INT_ARG_BOUND))


@st.composite
def _array(draw: Any, ty: str, shape: tuple[int, ...]) -> np.ndarray:
    dtype = np.float64 if ty[0] == "f" else np.int64
    elements = _floats() if ty[0] == "f" else st.integers(-ARRAY_INT_BOUND, ARRAY_INT_BOUND)
    layout = draw(st.sampled_from(["C", "C", "F", "strided"]))
    if layout == "strided":
        wide = (*shape[:-1], shape[-1] * 2)
        items = draw(st.lists(elements, min_size=math.prod(wide), max_size=math.prod(wide)))
        base = np.array(items, dtype=dtype).reshape(wide)
        return base[..., ::2]
    items = draw(st.lists(elements, min_size=math.prod(shape), max_size=math.prod(shape)))
    a = np.array(items, dtype=dtype).reshape(shape)
    return np.asfortranarray(a) if layout == "F" else a


@st.composite
def inputs(draw: Any, program: Program) -> tuple[Any, ...]:
    """Arguments for `program.entry`: sizes drawn once, so arrays of one shape tag agree."""
    n = draw(st.integers(0, MAX_LEN))
    r, c = draw(st.integers(0, MAX_LEN // 2)), draw(st.integers(0, MAX_LEN // 2))
    sizes = {"n": n, "r": r, "c": c}
    args: list[Any] = []
    for p, shape in zip(program.params, program.shapes):
        if p == "int":
            args.append(draw(_ints()))
        elif p == "float":
            args.append(draw(_floats()))
        elif p == "bool":
            args.append(draw(st.booleans()))
        else:
            args.append(draw(_array(p, tuple(sizes[s] for s in shape))))
    return tuple(args)


@dataclass(frozen=True)
class Case:
    program: Program
    inputs: tuple[tuple[Any, ...], ...]


@st.composite
def cases(draw: Any, examples: int = 3) -> Case:
    """A program and `examples` argument tuples for it."""
    program = draw(programs())
    return Case(program, tuple(draw(inputs(program)) for _ in range(examples)))
