"""Stage `codegen`: low IR -> an `llvmlite.ir.Module`.

In:  a lowered `ir.Function` (only `ir.LOW_IR` instructions, reference counts inserted) and the
     function's `JitOptions` (codegen reads `fastmath`).
Out: a `GeneratedModule`: an LLVM module holding
     * the kernel `ptr @<symbol>(ptr %ret, <args>)` (`kernel`): it writes its result through
       `%ret` and returns null, or returns a pointer to a constant exception descriptor
       `{ptr exception-class slot, ptr message}` that callers propagate unchanged;
     * the Python entry point `ptr @<symbol>.py(ptr self, ptr args, i64 nargs)` (`boxing`, the
       METH_FASTCALL convention): it unboxes the Python arguments itself, calls the kernel and
       boxes the result, so a call from Python never goes through ctypes.

The package, by seam: `types` (LLVM types of IR types), `kernel` (one emitter per low-IR
class), `mathfns` (maths intrinsics, libm, hand-written exp/tanh and integer helpers), `boxing`
(Python objects in and out, the entry point), `dispatch` (the native dispatcher trampoline the
`Dispatcher` installs). Only this package, `llvm_opt` and `machine_code` touch llvmlite.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType

from llvmlite import ir as ll

from jitcore.codegen import extcalls, npdistcalls, pyprint, pystrcall, rtdicts, strops
from jitcore.codegen.boxing import emit_python_entry
from jitcore.codegen.dispatch import (
    NDARRAY_SYMBOL,
    PYTHON_MODE_SYMBOL,
    TABLE_SYMBOL,
    ArgCheck,
    generate_dispatcher,
)
from jitcore.codegen.kernel import KernelGen
from jitcore.codegen.launcher import emit_launcher
from jitcore.errors import UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.options import JitOptions
from jitcore.runtime import nrt

__all__ = [
    "NDARRAY_SYMBOL",
    "PYTHON_MODE_SYMBOL",
    "TABLE_SYMBOL",
    "ArgCheck",
    "GeneratedModule",
    "generate_dispatcher",
    "generate_module",
]


# The families of runtime helpers emitted into the modules that call them, each a module with
# its symbols' `PREFIX` and `define_helper(module, call)`: dicts, sets and strings (rtdicts),
# SciPy's BLAS and LAPACK (extcalls), NumPy's distributions (npdistcalls), print(...) and str
# methods under the GIL (pyprint, pystrcall), string indexing, slicing, chr, ... (strops).
_HELPER_FAMILIES = (rtdicts, extcalls, npdistcalls, pyprint, strops, pystrcall)


def helper_family(symbol: str) -> ModuleType | None:
    """The helper family module defining `symbol`, or None for a kernel's (or the runtime's)
    own symbol."""
    for family in _HELPER_FAMILIES:
        if symbol.startswith(family.PREFIX):
            return family
    return None


@dataclass
class GeneratedModule:
    module: ll.Module
    kernel: str  # symbol of the kernel
    entry: str  # symbol of the Python entry point
    callees: list[str] = field(default_factory=list)
    # Whether the module holds frozen arrays (`codegen.frozen`: immortal blocks in its data),
    # which arrays returned to Python may view: its machine code must then never be unloaded
    # (`machine_code.link`). String constants are immortal blocks too, but no string leaves a
    # call uncopied (boxing decodes a new Python str), so they pin nothing.
    static_data: bool = False


# The names of the globals holding frozen arrays (`frozen.frozen_array_constant`).
STATIC_DATA_PREFIXES = ("jitcore.frozen.",)


def generate_module(fn: ir.Function, symbol: str, options: JitOptions) -> GeneratedModule:
    """Emit the kernel and its Python entry point for a lowered function (the `codegen` stage)."""
    module = ll.Module(name=symbol)
    body_ops = options.prange_body
    gen = KernelGen(
        module, fn, symbol if body_ops is None else f"{symbol}.chunk", fastmath=options.fastmath
    )
    for _, instr in fn.instructions():  # runtime helpers live inside the module
        if isinstance(instr, ir.NativeCall):
            family = helper_family(instr.symbol)
            if family is not None:
                family.define_helper(module, instr)
    outlined = emit_outlined_loops(module, fn, options)
    kernel = gen.emit()
    if options.nogil:
        check_no_python(kernel, fn)
    if body_ops is not None:  # a prange loop's body: the kernel runs one chunk of it
        kernel.linkage = "internal"
        kernel = emit_launcher(module, kernel, symbol, fn.return_type, body_ops)  # type: ignore[arg-type]
    emit_python_entry(module, fn, kernel, f"{symbol}.py", nogil=options.nogil)
    # runtime helpers (dicts, BLAS/LAPACK calls), the runtime's own exports and the outlined
    # loops are not jitted
    # callees (nor cache keys)
    callees = sorted(
        c
        for c in gen.callees
        if helper_family(c) is None and c not in nrt.EXPORTS and c not in outlined
    )
    static_data = any(name.startswith(STATIC_DATA_PREFIXES) for name in module.globals)
    return GeneratedModule(module, symbol, f"{symbol}.py", callees, static_data)


def emit_outlined_loops(module: ll.Module, fn: ir.Function, options: JitOptions) -> set[str]:
    """Emit each loop `lower` outlined for the thread pool (`jitcore.lib.outlining`): its
    chunk function and the launcher the function calls it through, under the chunk's name,
    defined before the function's kernel calls them. Returns their names."""
    names = set()
    for chunk_fn in fn.outlined:
        chunk = KernelGen(module, chunk_fn, f"{chunk_fn.name}.chunk", fastmath=options.fastmath)
        kernel = chunk.emit()
        kernel.linkage = "internal"
        emit_launcher(module, kernel, chunk_fn.name, T.NONE, ())
        names.add(chunk_fn.name)
    return names


def check_no_python(kernel: ll.Function, fn: ir.Function) -> None:
    """`nogil=True` needs a kernel that never calls the Python C API: it runs without the
    GIL. (Today's kernels never do: boxing happens in the entry point, under the GIL, and the
    runtime takes the GIL itself to drop a Python object. This guards future kernels.)"""
    for block in kernel.blocks:
        for instr in block.instructions:
            callee = getattr(instr, "callee", None)
            name = getattr(callee, "name", "")
            if isinstance(instr, ll.CallInstr) and name.startswith(("Py", "_Py")):
                raise UnsupportedError(
                    f"{fn.name} cannot run without the GIL: its compiled code calls {name}",
                    hint="drop nogil=True for this function",
                )
