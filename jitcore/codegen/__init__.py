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

from llvmlite import ir as ll

from jitcore.codegen import rtdicts
from jitcore.codegen.boxing import emit_python_entry
from jitcore.codegen.dispatch import ArgCheck, generate_dispatcher
from jitcore.codegen.kernel import KernelGen
from jitcore.codegen.typeprobe import TableRef
from jitcore.ir import nodes as ir
from jitcore.options import JitOptions

__all__ = ["ArgCheck", "GeneratedModule", "TableRef", "generate_dispatcher", "generate_module"]


@dataclass
class GeneratedModule:
    module: ll.Module
    kernel: str  # symbol of the kernel
    entry: str  # symbol of the Python entry point
    callees: list[str] = field(default_factory=list)


def generate_module(fn: ir.Function, symbol: str, options: JitOptions) -> GeneratedModule:
    """Emit the kernel and its Python entry point for a lowered function (the `codegen` stage)."""
    module = ll.Module(name=symbol)
    gen = KernelGen(module, fn, symbol, fastmath=options.fastmath)
    for _, instr in fn.instructions():  # runtime helpers (dicts, sets, strings) live inside
        if isinstance(instr, ir.NativeCall) and rtdicts.is_helper(instr.symbol):
            rtdicts.define_helper(module, instr.symbol)
    kernel = gen.emit()
    emit_python_entry(module, fn, kernel, f"{symbol}.py")
    callees = sorted(c for c in gen.callees if not rtdicts.is_helper(c))
    return GeneratedModule(module, symbol, f"{symbol}.py", callees)
