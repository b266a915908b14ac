"""A frozen array constant in LLVM (`jitcore.ir.frozen`): its bytes in a private global of the
module, an immortal runtime block owning them (compiled code counts references to it like any
array's, nothing frees it: the same scheme as string constants, `rtstrings`), and the array
value `{block, data, shape, strides}` pointing at them. One global per module and contents.

The data global is writable memory (a stray write through a view cannot fault) but compiled
code never writes it: typing rejects stores into it, and a returned view of it is read-only
(`boxing` clears NumPy's WRITEABLE flag for immortal blocks).
"""

from __future__ import annotations

import hashlib

import numpy as np
from llvmlite import ir as ll

from jitcore.codegen.rtstrings import IMMORTAL
from jitcore.codegen.types import I8, I64, NULL, llvm_type
from jitcore.ir import types as T
from jitcore.ir.frozen import frozen_contents
from jitcore.runtime import nrt


def frozen_array_constant(module: ll.Module, value: np.ndarray, t: T.Array) -> ll.Constant:
    data = frozen_contents(value)
    raw = data.tobytes()
    digest = hashlib.sha256(raw + data.dtype.str.encode() + repr(data.shape).encode())
    name = f"jitcore.frozen.{digest.hexdigest()[:24]}"
    block = module.globals.get(name)
    body = module.globals.get(name + ".data")
    if block is None or body is None:
        body = ll.GlobalVariable(module, ll.ArrayType(I8, max(1, len(raw))), name=name + ".data")
        body.linkage = "private"
        body.align = 64
        body.initializer = ll.Constant(body.value_type, bytearray(raw or b"\0"))
        block = ll.GlobalVariable(module, nrt.BLOCK, name=name)
        block.linkage = "private"
        block.initializer = ll.Constant(nrt.BLOCK, [I64(IMMORTAL), I64(len(raw)), body, NULL])
    dims = ll.ArrayType(I64, t.ndim)
    shape = ll.Constant(dims, [I64(n) for n in data.shape])
    strides = ll.Constant(dims, [I64(s) for s in data.strides])
    return ll.Constant(llvm_type(t), [block, body, shape, strides])
