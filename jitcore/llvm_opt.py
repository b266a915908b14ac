"""Stage `llvm-opt`: LLVM module -> optimized LLVM module.

In:  the `llvmlite.ir.Module` from `codegen`.
Out: a verified `llvmlite.binding.ModuleRef` optimized by LLVM's new pass manager at the
     requested level (O0..O3) for the host CPU's name and features, with the loop and SLP
     vectorizers on from O2; fast-math flags exist only where `codegen` put them
     (`fastmath=True`).
"""

from __future__ import annotations

import functools
import os
import re
import tempfile

import llvmlite.binding as llvm
from llvmlite import ir as ll

# Cost (in LLVM's instruction-cost units) up to which O3's loop unswitching copies a loop to
# take a loop-invariant branch out of it. jitcore's bounds-check guards (`optimize.guards`)
# rely on it: the guard is tested once and the copy without checks vectorizes. LLVM's default,
# 50, stops at small bodies: `out[i] = math.tanh(a[i])` stayed a checked scalar loop (6.2 ns an
# element, 0.74 unswitched and vectorized), `out[i] = np.exp(a[i])` likewise (4.1 -> 0.59).
UNSWITCH_THRESHOLD = 1000


@functools.cache
def initialize_llvm() -> bool:
    """Initialize LLVM's native target once per process, and the one global option jitcore
    sets (LLVM options are process-wide: Numba compiling in the same process sees it too,
    which changes how much it unswitches, never what its code computes)."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    llvm.set_option("jitcore", f"-unswitch-threshold={UNSWITCH_THRESHOLD}")
    return True


@functools.cache
def host_cpu() -> tuple[str, str]:
    """The host CPU's name and feature string, as the target machine and the cache key use."""
    initialize_llvm()
    return llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()


@functools.cache
def target_machine(opt: int) -> llvm.TargetMachine:
    initialize_llvm()
    cpu, features = host_cpu()
    target = llvm.Target.from_default_triple()
    return target.create_target_machine(
        cpu=cpu, features=features, opt=opt, reloc="pic", codemodel="jitdefault"
    )


def optimize_module(module: ll.Module, opt: int) -> llvm.ModuleRef:
    """Parse, verify and optimize `module` at level `opt` (the `llvm-opt` stage)."""
    return optimize_text(str(module), opt)


def _parsed(text: str, tm: llvm.TargetMachine) -> llvm.ModuleRef:
    """A module's text parsed and verified, for `tm`'s triple and data layout."""
    ref = llvm.parse_assembly(text)
    ref.triple = tm.triple
    ref.data_layout = str(tm.target_data)
    ref.verify()
    return ref


def optimize_text(text: str, opt: int) -> llvm.ModuleRef:
    """`optimize_module` of a module's text (a first-tier specialization keeps the text of its
    unoptimized module to be optimized again at the final tier: `jitcore.tiering`)."""
    tm = target_machine(opt)
    ref = _parsed(text, tm)
    if opt > 0:
        pto = llvm.create_pipeline_tuning_options(speed_level=opt)
        pto.loop_vectorization = opt >= 2
        pto.slp_vectorization = opt >= 2
        pto.loop_unrolling = opt >= 2
        pb = llvm.create_pass_builder(tm, pto)
        pb.getModulePassManager().run(ref, pb)
    return ref


# First-tier code (`jitcore.tiering`): inline what codegen marked `alwaysinline`, promote stack
# slots to registers, fold and simplify; no loop passes, no vectorizers. Measured on the bundled
# kernels against LLVM's O1: a third of O1's optimization time, about the same code (matmul
# 5.1 ms against 6.2, nbody 3.2 against 3.3, sieve 3.4 against 2.8), code generated at
# `FIRST_TIER_CODEGEN` (O0's instruction selection made matmul 6x slower, for 20% less time).
FIRST_TIER_PASSES = ("always_inliner", "sroa", "instruction_combine", "simplify_cfg")
FIRST_TIER_CODEGEN = 1


def optimize_first_tier(text: str) -> llvm.ModuleRef:
    """Parse, verify and quickly optimize a module's text with `FIRST_TIER_PASSES`."""
    tm = target_machine(FIRST_TIER_CODEGEN)
    ref = _parsed(text, tm)
    pb = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=1))
    passes = llvm.create_new_module_pass_manager()
    for name in FIRST_TIER_PASSES:
        getattr(passes, f"add_{name}_pass")()
    passes.run(ref, pb)
    return ref


def optimize_module_bisected(
    module: ll.Module, opt: int, limit: int
) -> tuple[llvm.ModuleRef, list[str]]:
    """`optimize_module` with only the first `limit` optional pass runs of LLVM's pipeline
    (`-opt-bisect-limit`), and the pass runs that did run, in order, as LLVM names them
    (`instcombine on f`).

    LLVM's bisection state is global to the process and one-way: once the limit is set, every
    later optimization in the process is limited and numbered on from the same counter (a
    limit cannot be unset). So this is only for a process that compiles nothing else that
    matters afterwards: jitcheck calls it in a forked child that exits after one compile.
    LLVM writes each decision to file descriptor 2, which is captured here."""
    initialize_llvm()
    llvm.set_option("jitcore", f"-opt-bisect-limit={limit}")
    with tempfile.TemporaryFile() as log:
        saved = os.dup(2)
        os.dup2(log.fileno(), 2)
        try:
            ref = optimize_module(module, opt)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        log.seek(0)
        text = log.read().decode(errors="replace")
    return ref, _BISECT_RUNNING.findall(text)


_BISECT_RUNNING = re.compile(r"^BISECT: running pass \(\d+\) (.*)$", re.MULTILINE)


def assembly(llvm_ir: str, opt: int) -> str:
    """The machine code of optimized LLVM IR as assembly text (for `inspect`)."""
    ref = llvm.parse_assembly(llvm_ir)
    return target_machine(opt).emit_assembly(ref)
