"""Calls of NumPy's C distribution functions: small internal helpers emitted into the module.

Low IR calls `ncall "jitcore.npd.<function>"(generator, params...)` (`random_normal`...) with
the kernel calling convention, `ptr (ptr ret, ptr bitgen, params...)` returning null; the
helper calls NumPy's C function with the C convention (doubles, floats, int64s, the result
returned) under the name `jitcore.numpy.<function>`, which the linker resolves in each process
(`runtime.npdists`): no address is part of the machine code, so cached code stays valid.
"""

from __future__ import annotations

from llvmlite import ir as ll

from jitcore.codegen.types import F32, F64, I64, NULL, PTR, declare_function, helper_body
from jitcore.ir import nodes as ir
from jitcore.runtime import npdists

PREFIX = "jitcore.npd."
_KINDS = {"d": F64, "f": F32, "q": I64}


def define_helper(module: ll.Module, call: ir.NativeCall) -> None:
    """Give the module the body of `call`'s helper (`jitcore.npd.<function>`), once."""
    name = call.symbol
    function = name[len(PREFIX) :]
    params, result = npdists.FUNCTIONS[function]
    param_types = [_KINDS[k] for k in params]
    fn = helper_body(module, name, [PTR, *param_types])
    if fn is None:
        return
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    target = declare_function(
        module, npdists.symbol(function), _KINDS[result], [PTR, *param_types]
    )
    b.store(b.call(target, list(fn.args[1:])), fn.args[0])
    b.ret(NULL)
