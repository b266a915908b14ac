"""The compile pipeline: the stage order, written once, and the driver that runs and times it.

Stage names are stable strings used by `stats`, `inspect`, caching, reports and pass bisection.
"""

from __future__ import annotations

import ast
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from jitcore import machine_code
from jitcore.argtypes import typeof
from jitcore.errors import InternalCompilerError, JitError, TypingError
from jitcore.ir import types as T
from jitcore.llvm_opt import FIRST_TIER_CODEGEN

if TYPE_CHECKING:
    from jitcore import typeinfer
    from jitcore.ir import nodes as ir
    from jitcore.options import JitOptions
    from jitcore.parse import ParsedFunction

# The stage modules, the IR classes and the printer are imported when something is compiled:
# a process that only loads cached code (the `cache-load` stage) never imports the compiler
# (tests/jitcore/test_imports.py checks it).

STAGES: tuple[str, ...] = (
    "parse",
    "ssa",
    "typeinfer",
    "optimize",
    "lower",
    "codegen",
    "llvm-opt",
    "machine-code",
)
CACHE_STAGE = "cache-load"
# The final tier of a first-tier specialization, compiled later (`jitcore.tiering`): listed in
# its stages, never counted in what its first call waited for.
TIER_UP_STAGE = "tier-up"


@dataclass
class CompileRecord:
    """What one compilation produced and how long each stage took."""

    signature: tuple[T.Type, ...]
    return_type: T.Type | None = None
    symbol: str = ""
    # Which parts of the result are Python numbers (`ir.Function.python_result`), for typing
    # calls from other compiled code.
    python_result: object = True
    stages: dict[str, float] = field(default_factory=dict)
    passes: dict[str, float] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    # With `keep_text`: copies of the typed IR after `typeinfer` and after each pass
    # (`optimize:<pass>`), which `jitcore.interpret` runs.
    snapshots: dict[str, ir.Function] = field(default_factory=dict)
    cache_hit: bool = False
    llvm_module: object = None  # the optimized ModuleRef, until it becomes object code
    object_code: bytes = b""
    inline_ir: ir.Function | None = None
    callees: list[str] = field(default_factory=list)
    static_data: bool = True  # `codegen.GeneratedModule.static_data` (True when unknown)
    # A first-tier specialization's unoptimized LLVM module, until it is compiled again at the
    # final tier (`jitcore.tiering`); None for final-tier code.
    final_tier_ir: str | None = None

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        except JitError:
            raise
        except Exception as exc:
            raise InternalCompilerError(
                f"stage `{name}` failed: {type(exc).__name__}: {exc} (this is a jitcore bug)"
            ) from exc
        finally:
            self.stages[name] = self.stages.get(name, 0.0) + time.perf_counter() - start


@dataclass
class Overload:
    """One compiled specialization: its record, and its entry point once linked."""

    signature: tuple[T.Type, ...]
    return_type: T.Type
    symbol: str
    record: CompileRecord
    native: Callable[..., Any] | None = None
    keep_alive: machine_code.NativeFunction | None = None
    cache_key: str | None = None
    first_tier: bool = False  # quick code, to be replaced by the final tier (`tiering`)

    def __call__(self, *args: Any) -> Any:
        """Call this specialization directly. The entry point trusts its arguments (the
        dispatcher checked them), so they are checked here: their number and types must be
        this signature's, else TypeError naming the argument."""
        if self.native is None:
            raise RuntimeError(f"{self.symbol} is not linked yet")
        if len(args) != len(self.signature):
            raise TypeError(
                f"this specialization takes {len(self.signature)} arguments "
                f"({', '.join(map(str, self.signature))}), {len(args)} given"
            )
        for i, (value, expected) in enumerate(zip(args, self.signature)):
            actual = typeof(value, f"#{i}")
            if actual != expected:
                raise TypeError(f"argument #{i} is {actual}, this specialization takes {expected}")
        return self.native(*args)


def run_pipeline(
    parsed: ParsedFunction,
    signature: tuple[T.Type, ...],
    options: JitOptions,
    symbol: str,
    resolve_callee: typeinfer.CalleeResolver,
    assumed_return: Callable[[], T.Type | None],
    assume_return: Callable[[T.Type], None],
    keep_text: bool = False,
    parse_seconds: float = 0.0,
    first_tier: bool = False,
) -> CompileRecord | None:
    """Run the stages from `ssa` to `llvm-opt` for one signature. None when the return type
    depends on a recursive call whose own type is not known yet (the compile session types
    the caller again once its base cases give one). `machine-code` follows once the group of
    functions compiled together is complete (`emit_machine_code`, then `link`). With
    `first_tier`, LLVM runs only `llvm_opt.FIRST_TIER_PASSES` and the record keeps the module's
    text for the final tier."""
    from jitcore import codegen, llvm_opt, lower, optimize
    from jitcore.ir.clone import clone_function
    from jitcore.ir.printer import print_ir
    from jitcore.ir.verify import verify
    from jitcore.optimize import inline

    record = CompileRecord(signature, symbol=symbol)
    record.stages["parse"] = parse_seconds
    if keep_text:
        record.texts["parse"] = ast.unparse(parsed.tree)
    debug = options.debug
    fn = _typed(
        parsed, signature, record, resolve_callee, assumed_return, assume_return, keep_text, debug
    )
    if fn is None:
        return None
    record.return_type = fn.return_type
    record.python_result = fn.python_result
    if keep_text:
        record.snapshots["typeinfer"] = clone_function(fn)
    with record.stage("optimize"):
        passes = optimize.run_passes(
            fn,
            disabled=options.disable_passes,
            enabled=_optional_passes(options),
            debug=debug,
            keep_text=keep_text,
            keep_ir=keep_text,
        )
        for p in passes:
            record.passes[p.name] = p.seconds
            if keep_text and p.ir_text is not None:
                record.texts[f"optimize:{p.name}"] = p.ir_text
            if p.ir_copy is not None:
                record.snapshots[f"optimize:{p.name}"] = p.ir_copy
    if keep_text:
        record.texts["optimize"] = print_ir(fn)
    if inline.inlinable_ir(fn) and options.prange_body is None:  # a prange body: its launcher
        record.inline_ir = clone_function(fn)  # for callers to inline (before it is lowered)
    if options.parallel and options.prange_body is None:
        fn.parallel_symbol = symbol  # its array expressions may run on threads
    with record.stage("lower"):
        lower.lower_function(fn, fastmath=options.fastmath)
        if debug:
            verify(fn, typed=True, stage="lower")
    if keep_text:
        record.texts["lower"] = "\n".join(print_ir(f) for f in [fn, *fn.outlined])
    with record.stage("codegen"):
        generated = codegen.generate_module(fn, symbol, options)
    if keep_text:
        record.texts["codegen"] = str(generated.module)
    with record.stage("llvm-opt"):
        if first_tier:
            record.final_tier_ir = str(generated.module)
            ref = llvm_opt.optimize_first_tier(record.final_tier_ir)
        elif options.llvm_bisect_limit is None:
            ref = llvm_opt.optimize_module(generated.module, options.opt)
        else:
            ref, ran = llvm_opt.optimize_module_bisected(
                generated.module, options.opt, options.llvm_bisect_limit
            )
            record.texts["llvm-passes"] = "\n".join(ran)  # for jitcheck's bisection
            record.texts["llvm-opt"] = str(ref)
    if keep_text:
        record.texts["llvm-opt"] = str(ref)
    record.llvm_module = ref
    record.callees = generated.callees
    record.static_data = generated.static_data
    return record


def _optional_passes(options: JitOptions) -> tuple[str, ...]:
    """The optional passes these options ask for (`optimize.Pass.optional`)."""
    if options.boundscheck:
        return ()
    return ("noboundscheck",) if options.wraparound else ("nowraparound", "noboundscheck")


def _typed(
    parsed, signature, record, resolve_callee, assumed_return, assume_return, keep_text, debug
) -> ir.Function | None:  # noqa: ANN001
    """`ssa` + `typeinfer`, repeated when recursion needs a return type from the base cases;
    None when the return type is not known yet (it depends on a caller being typed)."""
    from jitcore import ssa, typeinfer
    from jitcore.ir.printer import print_ir
    from jitcore.ir.verify import verify

    for _attempt in range(4):
        with record.stage("ssa"):
            fn = ssa.build_ssa(parsed, signature)
            if debug:
                verify(fn, typed=False, stage="ssa")
        if keep_text:
            record.texts["ssa"] = print_ir(fn)
        with record.stage("typeinfer"):
            assumed = assumed_return()
            result = typeinfer.infer_types(fn, signature, resolve_callee, assumed)
            final = fn.return_type
            settled = result.complete and (assumed is None or final == assumed)
            if debug and settled:  # an attempt still waiting for a return type has bottoms
                verify(fn, typed=True, stage="typeinfer")
        if keep_text:
            record.texts["typeinfer"] = print_ir(fn)
        if settled:
            return fn
        if final is None or isinstance(final, T.Bottom):
            return None
        if assumed is not None and final == assumed:
            return None
        assume_return(final)
    raise TypingError(
        f"cannot infer the return type of the recursive function {parsed.qualname}",
        loc=parsed.loc(parsed.tree),
        hint="make every return statement return the same type, with a non-recursive base case",
    )


def emit_machine_code(record: CompileRecord, opt: int) -> None:
    """Turn the optimized module into object code (the first half of `machine-code`), at
    `opt` or, for a first-tier record, at the first tier's level."""
    if record.final_tier_ir is not None:
        opt = FIRST_TIER_CODEGEN
    with record.stage("machine-code"):
        record.object_code = machine_code.emit_object(record.llvm_module, opt)  # type: ignore[arg-type]
        record.llvm_module = None


def final_tier_object(record: CompileRecord, opt: int) -> bytes:
    """The object code of a first-tier record's module optimized at `opt` (thread-safe: it
    touches nothing but LLVM and the text)."""
    from jitcore import llvm_opt

    assert record.final_tier_ir is not None
    return machine_code.emit_object(llvm_opt.optimize_text(record.final_tier_ir, opt), opt)


def load_cached(
    object_code: bytes,
    signature: tuple[T.Type, ...],
    return_type: T.Type,
    symbol: str,
    callees: list[str],
    name: str,
    key_seconds: float,
    python_result: object = True,
    static_data: bool = True,
) -> Overload:
    """The `cache-load` stage: link object code read from the disk cache; it replaces every
    stage after `parse` (whose time is the cache key's here)."""
    start = time.perf_counter()
    record = CompileRecord(signature, return_type, symbol, cache_hit=True)
    record.python_result = python_result
    record.object_code = object_code
    record.callees = list(callees)
    record.static_data = static_data
    (native,) = link([record], [name])
    record.stages = {"parse": key_seconds, CACHE_STAGE: time.perf_counter() - start}
    return Overload(signature, return_type, symbol, record, native.callable, native)


def link(
    records: list[CompileRecord], names: list[str], library: str | None = None
) -> list[machine_code.NativeFunction]:
    """Link a group of specializations (mutually recursive ones together) into the JIT, in a
    library named after the first symbol unless `library` names it (a final tier replacing a
    first one: library names are never reused)."""
    start = time.perf_counter()
    units = [
        machine_code.Unit(
            r.symbol, f"{r.symbol}.py", r.object_code, tuple(r.callees), r.static_data
        )
        for r in records
    ]
    natives = machine_code.link(units, names, library)
    share = (time.perf_counter() - start) / max(1, len(records))
    for r in records:
        r.stages["machine-code"] = r.stages.get("machine-code", 0.0) + share
    return natives
