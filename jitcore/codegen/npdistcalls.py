"""Calls of NumPy's C distribution functions: small internal helpers emitted into the module.

Low IR calls `ncall "jitcore.npd.<function>"(generator, params...)` (`random_normal`...) with
the kernel calling convention, `ptr (ptr ret, ptr bitgen, params...)` returning null; the
helper calls NumPy's C function with the C convention (doubles, floats, int64s, the result
returned) under the name `jitcore.numpy.<function>`, which the linker resolves in each process
(`runtime.npdists`): no address is part of the machine code, so cached code stays valid.
"""

from __future__ import annotations

from llvmlite import ir as ll

from jitcore.codegen.types import F32, F64, I64, NULL, PTR, declare_function
from jitcore.runtime import npdists

PREFIX = "jitcore.npd."
_KINDS = {"d": F64, "f": F32, "q": I64}


def is_helper(name: str) -> bool:
    return name.startswith(PREFIX)


def define_helper(module: ll.Module, name: str) -> None:
    """Give the module the body of helper `name` (`jitcore.npd.<function>`), once."""
    existing = module.globals.get(name)
    if existing is not None and not existing.is_declaration:
        return
    function = name[len(PREFIX) :]
    params, result = npdists.FUNCTIONS[function]
    param_types = [_KINDS[k] for k in params]
    fn = existing or ll.Function(module, ll.FunctionType(PTR, [PTR, PTR, *param_types]), name=name)
    fn.linkage = "internal"
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    target = declare_function(
        module, npdists.symbol(function), _KINDS[result], [PTR, *param_types]
    )
    b.store(b.call(target, list(fn.args[1:])), fn.args[0])
    b.ret(NULL)
