"""Every supported operation: importing this module registers them all, `supported()` lists them.

`typeinfer` imports this module, so every rule is registered before the first function is
typed. The README's tables of supported operations are generated from the listing:

    python -m jitcore.lib.catalog --markdown     # the text between the README's markers
    python -m jitcore.lib.catalog --update-readme README.md

and tests/jitcore/test_supported.py fails when the README's region differs from it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from jitcore.lib import (
    arrays,
    builtins,
    containers,
    creation,
    excformat,
    joining,
    lapack,
    lists,
    mathlib,
    matmul,
    npextra,
    nplinalg,
    npmore,
    nprandom,
    nprandomgd,
    nprandomgen,
    nprandomrng,
    npselect,
    npsort,
    npstats,
    npufuncs,
    operators,
    pyextras,
    reductions,
    shapes,
    strmethods,
    ufuncs,
)
from jitcore.lib.registry import ARG_KINDS, Entry, entries

# The modules that register operations, imported for that effect (and named here so that the
# import is not mistaken for an unused one).
RULE_MODULES = (
    arrays,
    builtins,
    containers,
    lists,
    mathlib,
    operators,
    pyextras,
    reductions,
    matmul,
    ufuncs,
    npsort,
    npstats,
    npufuncs,
    nplinalg,
    lapack,
    nprandom,
    nprandomgen,
    nprandomgd,
    nprandomrng,
    shapes,
    joining,
    creation,
    excformat,
    npselect,
    npmore,
    npextra,
    strmethods,
)

BEGIN = "<!-- supported:begin -->"
END = "<!-- supported:end -->"
REGENERATE = "python -m jitcore.lib.catalog --update-readme README.md"


def supported() -> list[Entry]:
    """Every supported operation as the user writes it (`math.sin`, `np.sum`, `abs`,
    `ndarray.sum`, `+`, `ndarray.shape`), with its kind, the argument kinds it accepts and
    notes on where it deviates from Python or NumPy.

    In a fixed order, whatever imported which rule module first: by `RULE_MODULES`, then by
    module name for the modules those import, each module's entries in its own order."""
    rank = {m.__name__: k for k, m in enumerate(RULE_MODULES)}
    listed = entries()
    order = {id(e): k for k, e in enumerate(listed)}
    return sorted(
        listed,
        key=lambda e: (rank.get(e.module, len(rank)), e.module, order[id(e)]),
    )


# --- the README's tables -------------------------------------------------------------------

# (title, introduction, which entries) in the order the README shows them.
_SECTIONS: tuple[tuple[str, str], ...] = (
    ("Builtins", ""),
    (
        "math",
        "With CPython's exceptions: `ValueError: math domain error`, `OverflowError: math range "
        "error`. The constants `math.pi e tau inf nan` are compile-time constants.",
    ),
    (
        "cmath",
        "The trigonometric and hyperbolic functions follow CPython's `cmathmodule.c`: its "
        "formulas, its special values for infinite and NaN parts (those of the running "
        "Python, whose tables changed between versions) and its exceptions (`ValueError: "
        "math domain error` for `atanh(1)`, `OverflowError: math range error` where `cosh` "
        "overflows); `tan` and `tanh` use compiled code's own real `tanh` (within 2 ULPs of "
        "the C library's), so they can differ from CPython's by an ULP.",
    ),
    (
        "NumPy: array creation",
        "`shape` is an int or a tuple of ints; `dtype=` a constant NumPy dtype or type.",
    ),
    (
        "NumPy: elementwise functions",
        "On arrays and scalars alike, with NumPy broadcasting and NumPy's result dtypes (taken "
        "from NumPy itself); a Python number is weak, as in NumPy 2. On complex numbers, "
        "`sqrt`, `exp`, `log` and the trigonometric and hyperbolic functions call the C "
        "library's complex functions as NumPy does (its results and special values to the bit, "
        "on x86-64 Linux and macOS); `sign` is z/|z|; `isnan`/`isinf`/`isfinite` test both "
        "parts; `maximum`, `minimum` and `< <= > >=` order complex numbers lexicographically, "
        "as NumPy.",
    ),
    (
        "NumPy: reductions and products",
        "Whole array, or `axis=` (an int or a tuple) on any ndim, with `keepdims=`. The "
        "kernels are written in Python (`jitcore/lib/npkernels.py`) and compiled by jitcore "
        "itself. Sums, means, `var` and `std` add in NumPy's order and give its results bit "
        "for bit on C-ordered arrays, complex ones included (a complex `var` is real, the mean "
        "of the squared magnitudes of the deviations), for the whole array, the trailing axes, "
        "or axes that keep the last one. NumPy's order follows the strides: along an axis of a "
        "Fortran-ordered array, over the last axis with a non-adjacent one (`axis=(0, 2)`), or "
        "where a kept axis has length 1, the two agree to rounding. Complex `min`, `max`, "
        "`argmin` and `argmax` order lexicographically, as NumPy (a NaN in either part wins).",
    ),
    (
        "NumPy: sorting and searching",
        "Along one axis (`axis=-1` by default, `None` flattens) of any ndim; NaN sorts last, as "
        "in NumPy. Kernels in `jitcore/lib/npsortk.py`.",
    ),
    (
        "NumPy: statistics and array algorithms",
        "`axis=` takes an int or a tuple on any ndim, `keepdims=` as NumPy. Kernels in "
        "`jitcore/lib/npstatsk.py`.",
    ),
    (
        "NumPy: selecting, indices and sets",
        "Results, dtypes and exception types are NumPy's; `mode=`, `out=` and `order='F'` are "
        "refused. Kernels in `jitcore/lib/npselectk.py`.",
    ),
    (
        "NumPy: more creation, statistics and products",
        "Kernels in `jitcore/lib/npmorek.py`.",
    ),
    (
        "NumPy: linear algebra",
        "Products go through SciPy's BLAS and the decompositions through its LAPACK (the "
        "optional extra `pip install jitcore[linalg]`); `@` is `np.matmul` (see Operators).",
    ),
    (
        "NumPy: random numbers",
        "NumPy's legacy functions, drawing from compiled code's own generator (one MT19937 "
        "state per thread; seed it with `np.random.seed(s)` in compiled code or "
        "`jitcore.random.seed(s)`): after the same seed, exactly NumPy's numbers. `size` is "
        "None (a scalar), an int or a tuple of ints. Kernels in `jitcore/lib/nprandomk.py`. "
        "The `Generator.*` methods are those of a `np.random.Generator` passed in as an "
        "argument, which they draw from in place (`jitcore/lib/nprandomgk.py`), or made in "
        "compiled code by `np.random.default_rng(seed)` (`jitcore/lib/nprandomrng.py`); its "
        "distributions (`normal`, `gamma`, ...) call NumPy's own C functions "
        "(`jitcore/lib/nprandomgd.py`), so they are NumPy's numbers bit for bit.",
    ),
    (
        "NumPy: shapes and views",
        "Views share the array's memory, as in NumPy; axes are compile-time constants.",
    ),
    (
        "NumPy: joining and repeating",
        "Arrays to join are given as a tuple; the result dtype is NumPy's `result_type`.",
    ),
    (
        "NumPy: splitting, NaN statistics and more",
        "Kernels in `jitcore/lib/npextrak.py`. The splits return a typed list of views (the "
        "split points: any int, a tuple or list of ints, or a 1-D integer array; NumPy's "
        "errors when the call runs). `nanmedian`/`nanquantile`/`nanpercentile` follow "
        "NumPy's algorithms and dtypes (a Python-number q is weak, an array or NumPy-number q "
        "takes part in the result dtype; with a float32 q NumPy finds the interpolation "
        "point in float32, compiled code in float64: about 1e-8 apart); a lane of NaNs only "
        "gives NaN without NumPy's warning. Views NumPy marks read-only "
        "(`broadcast_arrays`, `diagonal`) are writable here. `matrix_power` returns a new "
        "array where NumPy returns `a` itself for n=1; an integer matrix to a negative power "
        "needs a constant n (its result is float64).",
    ),
    ("Strings", ""),
    ("Array methods", ""),
    ("Array and number attributes", ""),
    (
        "Operators",
        "Between Python numbers they follow Python; with a NumPy scalar or an array operand "
        "they follow NumPy (elementwise, broadcasting). Augmented assignments (`a += b`) "
        "update arrays in place (same-kind casting, as NumPy) and rebind everything else.",
    ),
)


# Rule modules listed in a section of their own.
_MODULE_SECTIONS = {
    "npselect": "NumPy: selecting, indices and sets",
    "npmore": "NumPy: more creation, statistics and products",
    "npextra": "NumPy: splitting, NaN statistics and more",
    "npsort": "NumPy: sorting and searching",
    "npstats": "NumPy: statistics and array algorithms",
    "nplinalg": "NumPy: linear algebra",
    "matmul": "NumPy: linear algebra",
    "lapack": "NumPy: linear algebra",
    "nprandom": "NumPy: random numbers",
    "nprandomrng": "NumPy: random numbers",
}


def section_of(entry: Entry) -> str:
    """The README section an entry is listed in."""
    if entry.kind == "operator":
        return "Operators"
    if entry.kind == "attribute":
        return "Array and number attributes"
    if entry.module.rpartition(".")[2] == "strmethods" or entry.name.startswith("str."):
        return "Strings"
    if entry.kind == "method":
        if entry.name.startswith("Generator."):  # a np.random.Generator
            return "NumPy: random numbers"
        return "Array methods"
    prefix = entry.name.partition(".")[0] if "." in entry.name else ""
    if prefix in ("math", "cmath"):
        return prefix
    if prefix == "np":
        module = entry.module.rpartition(".")[2]
        if module == "reductions":
            return "NumPy: reductions and products"
        if module in ("arrays", "creation"):
            return "NumPy: array creation"
        if module in _MODULE_SECTIONS:
            return _MODULE_SECTIONS[module]
        if module == "shapes":
            return "NumPy: shapes and views"
        if module == "joining":
            return "NumPy: joining and repeating"
        return "NumPy: elementwise functions"
    return "Builtins"


def markdown(listing: Iterable[Entry] | None = None) -> str:
    """The README's region between `BEGIN` and `END` (markers excluded): one table per section,
    rows of operations that share argument kinds and notes merged into one."""
    listing = list(supported() if listing is None else listing)
    lines = [f"<!-- generated from jitcore.supported(); regenerate with `{REGENERATE}` -->", ""]
    for title, intro in _SECTIONS:
        members = [e for e in listing if section_of(e) == title]
        if not members:
            continue
        lines += [f"#### {title}", ""]
        if intro:
            lines += [intro, ""]
        lines += ["| operation | arguments | notes |", "|---|---|---|"]
        for names, params, notes in _rows(members):
            lines.append(f"| {names} | {params} | {notes} |")
        lines.append("")
    lines += ["Argument kinds:", ""]
    lines += [f"- `{kind}`: {text}" for kind, text in ARG_KINDS.items()]
    return "\n".join(lines) + "\n"


def _rows(members: list[Entry]) -> list[tuple[str, str, str]]:
    """Merge entries with the same arguments and notes into one row, in first-seen order."""
    rows: dict[tuple[str, str], list[str]] = {}
    for e in members:
        key = (_params_cell(e), _escape(e.notes))
        rows.setdefault(key, []).append(_name_cell(e))
    return [(" ".join(names), params, notes) for (params, notes), names in rows.items()]


def _name_cell(e: Entry) -> str:
    if e.kind in ("operator", "attribute"):
        return f"`{_escape(e.name)}`"
    return f"`{e.name}`"


def _params_cell(e: Entry) -> str:
    if e.kind == "attribute":
        return _escape(" or ".join(str(p) for form in e.forms for p in form))
    forms = [", ".join(_param_text(p) for p in form) for form in e.forms] or [""]
    return " <br> ".join(f"({_escape(f)})" if e.kind != "operator" else _escape(f) for f in forms)


def _param_text(p: object) -> str:
    return str(p)


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


def replace_region(text: str, region: str) -> str:
    """`text` with the part between the markers replaced by `region`."""
    start = text.index(BEGIN) + len(BEGIN)
    end = text.index(END)
    return text[:start] + "\n" + region + text[end:]


def readme_region(text: str) -> str:
    """The part of `text` between the markers (what `markdown()` must equal)."""
    start = text.index(BEGIN) + len(BEGIN)
    return text[start : text.index(END)].removeprefix("\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jitcore.lib.catalog", description="List jitcore's supported operations."
    )
    parser.add_argument("--markdown", action="store_true", help="print the README's tables")
    parser.add_argument(
        "--update-readme", metavar="FILE", help="rewrite the region between the markers"
    )
    args = parser.parse_args(argv)
    if args.update_readme:
        path = Path(args.update_readme)
        path.write_text(replace_region(path.read_text(), markdown()))
        return 0
    if args.markdown:
        sys.stdout.write(markdown())
        return 0
    for e in supported():
        notes = f"  -- {e.notes}" if e.notes else ""
        sys.stdout.write(f"{e.kind:9} {e.signature}{notes}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
