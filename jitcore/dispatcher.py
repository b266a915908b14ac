"""The dispatcher: argument types -> compiled specialization -> native entry point.

A call computes a cheap type key from the arguments (the Python type; item types for tuples;
dtype, ndim and layout for arrays), looks up the specialization compiled for it, and calls its
native entry point, a built-in function whose C code unboxes the arguments itself. A new key
compiles a new specialization; a known key never recompiles.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import itertools
import time
import warnings
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from jitcore import compilelog, typetable
from jitcore.argtypes import parse_signature, type_key, typeof
from jitcore.errors import JitError, JitFallbackWarning, TypingError, UnsupportedError
from jitcore.ir import types as T
from jitcore.lib import registry
from jitcore.lib.registry import Operand, Resolved
from jitcore.options import ExecutionMode, JitOptions

if TYPE_CHECKING:
    from jitcore.ir import nodes as ir
    from jitcore.parse import ParsedFunction
    from jitcore.pipeline import Overload

# The compiler (session, pipeline, parse, the IR, codegen, llvmlite) is imported at the first
# call that needs it, not here: `@jit` at import time only records the function, and a call
# whose code comes from the disk cache imports the cache and the linker, never the stages.


@dataclass
class CompileStats:
    """Seconds spent in each pipeline stage for one signature, and in each optimization pass."""

    signature: str
    stages: dict[str, float]
    passes: dict[str, float]
    cache_hit: bool
    total: float = field(init=False)

    def __post_init__(self) -> None:
        # what the first call waited for: not the final tier compiled later in the background
        from jitcore.pipeline import TIER_UP_STAGE

        self.total = sum(v for k, v in self.stages.items() if k != TIER_UP_STAGE)

    def as_dict(self) -> dict[str, Any]:
        return {
            "signature": self.signature,
            "stages": dict(self.stages),
            "passes": dict(self.passes),
            "cache_hit": self.cache_hit,
            "total": self.total,
        }


_SERIALS = itertools.count()
DISPATCH_SYMBOL = "jitcore.dispatch"  # every trampoline's name, each in a library of its own
NATIVE_CASES = 16  # signatures with tuples checked by generated code; the rest by a dict


class Dispatcher:
    """A jitted function. Call it like the original; inspect and time its compilation."""

    __jitcore_dispatcher__ = True

    def __init__(self, py_func: Callable[..., Any], options: JitOptions) -> None:
        self.py_func = py_func
        self.options = options
        self._overloads: dict[tuple[T.Type, ...], Overload] = {}
        self.serial = next(_SERIALS)  # symbols must never be reused, unlike id()
        self._by_key: dict[object, Callable[..., Any]] = {}
        self._fallback_reason: str | None = None
        self._warned = False
        self._parsed: ParsedFunction | None = None
        self._prange_bodies: dict[str, Dispatcher] = {}
        self._signature: inspect.Signature | None = None
        self.parse_seconds = 0.0
        functools.update_wrapper(self, py_func)  # type: ignore[arg-type]
        # A class of its own, so that its `__call__` can become native code for this function.
        self.__class__ = type(type(self).__name__, (type(self),), {"__module__": __name__})
        self._dispatch_generations: list[object] = []
        self._tuple_cases: list[tuple[list[Any], int]] = []  # checked by generated code
        self._origin: Dispatcher | None = None  # the dispatcher this is a `with_options` of
        self._variants: dict[JitOptions, Dispatcher] = {}
        # Functions passed as arguments: the parameters fixed in this variant, and the variants
        # made of this dispatcher, by (parameter, id of the function) (`_frozen_variant`).
        self._frozen: dict[str, object] = {}
        self._frozen_variants: dict[tuple, Dispatcher] = {}
        code = py_func.__code__
        # compiled code takes every parameter positionally: positional ones, then keyword-only
        self._npositional = code.co_argcount
        # `*args` is one more parameter, a tuple, after the keyword-only ones (co_varnames
        # order); such calls are always bound here, never by the native dispatcher
        self._varargs = bool(code.co_flags & inspect.CO_VARARGS)
        self._nparams = code.co_argcount + code.co_kwonlyargcount + self._varargs
        self._table = typetable.TypeTable(self._nparams)
        self._param_names = list(code.co_varnames[: self._nparams])
        for sig in options.signatures:
            if options.mode is not ExecutionMode.PYTHON:
                self.compile(sig)

    def __repr__(self) -> str:
        return f"<jitcore.Dispatcher {self.py_func.__qualname__} {self.options.label}>"

    def __getattr__(self, name: str) -> Any:
        """The functions this one's prange loops were outlined into, by name (the disk cache
        finds callees by module and qualified name: `f.__jitcore_prange_0__`)."""
        if name.startswith("__jitcore_prange_") and self.__dict__.get("options") is not None:
            if self.options.parallel:
                self.parsed()
                bodies = self.__dict__.get("_prange_bodies", {})
                if name in bodies:
                    return bodies[name]
        raise AttributeError(name)

    def __reduce__(self) -> tuple:
        """Pickle by reference when importable, else by value (`jitcore.pickling`)."""
        from jitcore import pickling

        return pickling.reduce_dispatcher(self, Dispatcher)

    def __setstate__(self, state: dict[str, Any]) -> None:
        from jitcore import pickling

        pickling.restore_dispatcher_state(self, state)

    def __get__(self, obj: object, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        bind = getattr(type(obj), "__jitcore_bind__", None)  # a jitcore.Module's method
        if bind is not None:
            return bind(obj, self)
        return functools.partial(self, obj)

    # --- calling --------------------------------------------------------------------------

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """The Python-level dispatch. Once something is compiled, the dispatcher's own class
        gets a native `__call__` that recognizes the compiled signatures by itself and comes
        back here only for anything else (new types, keywords, defaults, Python fallbacks)."""
        if _PYTHON_MODE[0]:
            return self.py_func(*args, **kwargs)
        if kwargs or len(args) != self._nparams or self._varargs:
            args = self._bind(args, kwargs)
        if any(map(_is_function_value, args)):  # functions passed: a specialization each
            return self._call_with_functions(args)
        key = tuple(map(type_key, args))
        target = self._by_key.get(key)
        if target is None:
            from jitcore import session

            with session.COMPILE_LOCK:  # one compile per signature, whatever the threads
                target = self._by_key.get(key)
                if target is None:
                    target = self._target_for(args, key)
                    self._install_native_dispatch(key, target)
        if self._varargs and target is self.py_func:  # Python takes `*args` spread out
            return self._call_python(args)
        return target(*args)

    def _call_python(self, bound: tuple) -> Any:
        """Call the Python function with bound arguments (positional..., keyword-only...,
        the `*args` tuple)."""
        npos = self._npositional
        keywords = dict(zip(self._param_names[npos:-1], bound[npos:-1]))
        return self.py_func(*bound[:npos], *bound[-1], **keywords)

    def _install_native_dispatch(self, key: tuple, target: Callable[..., Any]) -> None:
        """Let the dispatcher's native `__call__` recognize the new signature `key`
        (DESIGN.md section 5).

        A signature without tuples goes into the type table (`jitcore.typetable`), which the
        native trampoline probes: adding one writes memory and generates no code, and a call
        costs the same for every signature. A signature with tuple arguments is checked by
        generated code, item by item, for the first `NATIVE_CASES` of them (later ones come
        back to the Python-level lookup); only then is the trampoline generated again."""
        from jitcore import machine_code, runtime
        from jitcore.pipeline import Overload

        if not isinstance(target, Overload) or target.native is None or self._varargs:
            return  # a Python fallback, or `*args` to bind: the Python-level lookup serves it
        address = cast(machine_code.NativeFunction, target.keep_alive).address
        words = typetable.key_words(key)
        has_trampoline = type(self).__call__ is not Dispatcher.__call__
        if words is not None:
            self._table.add(words, address)
            if has_trampoline:
                return
        elif len(self._tuple_cases) < NATIVE_CASES:
            self._tuple_cases.append(([_arg_check(k) for k in key], address))
        else:
            return
        native = machine_code.link_dispatcher(
            self._trampoline_object(),
            DISPATCH_SYMBOL,
            Dispatcher.__call__.__get__(self),
            {
                typetable.TABLE_SYMBOL: self._table.header_address,
                typetable.PYTHON_MODE_SYMBOL: runtime.python_mode_flag_address(),
                typetable.NDARRAY_SYMBOL: id(np.ndarray),
            },
        )
        # Keep every generation alive: the previous one may be on the C stack right now (it
        # called back into Python, which is compiling the new signature).
        self._dispatch_generations.append(native)
        type(self).__call__ = native.callable  # type: ignore[method-assign]

    def _trampoline_object(self) -> bytes:
        """The machine code of this dispatcher's trampoline. Without tuple cases it depends
        only on the number of parameters: shared by all dispatchers (and processes, through
        the disk cache), so a new function costs a link, not a compilation (10 ms before), and
        a process whose kernels all come from the disk cache never imports `codegen`."""
        from jitcore import machine_code

        def build() -> bytes:
            from jitcore import codegen

            module = codegen.generate_dispatcher(DISPATCH_SYMBOL, self._nparams, self._tuple_cases)
            return machine_code.dispatcher_object(module)

        if self._tuple_cases:
            return build()
        return machine_code.shared_object(f"dispatch{self._nparams}", DISPATCH_SYMBOL, build)

    def run(self, *args: Any, mode: ExecutionMode | str | None = None, **kwargs: Any) -> Any:
        """Call once in the given mode (default: the dispatcher's own)."""
        mode = ExecutionMode(mode) if isinstance(mode, str) else (mode or self.options.mode)
        if mode is ExecutionMode.PYTHON:
            with python_mode():
                return self.py_func(*args, **kwargs)
        if mode is self.options.mode:
            return self(*args, **kwargs)
        return self.with_options(mode=mode)(*args, **kwargs)

    def _bind(self, args: tuple, kwargs: dict[str, Any]) -> tuple:
        """Positional, keyword, keyword-only arguments and defaults, in parameter order (the
        order compiled code takes them in), with Python's errors for a call that does not fit."""
        if self._signature is None:
            self._signature = inspect.signature(self.py_func)
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return tuple(bound.arguments[name] for name in self._param_names)

    def _python_target(self) -> Callable[..., Any]:
        """What runs the Python function for this dispatcher's arguments: the function itself,
        or, for a variant with functions fixed (`_frozen_variant`), a call that passes them
        back in by name (its callers give only the other arguments)."""
        if not self._frozen:
            return self.py_func
        names, frozen, func = list(self._param_names), dict(self._frozen), self.py_func
        return lambda *args: func(**dict(zip(names, args)), **frozen)

    def _target_for(self, args: tuple, key: tuple) -> Callable[..., Any]:
        mode = self.options.mode
        if mode is ExecutionMode.PYTHON:
            return self._python_target()
        try:
            sig = tuple(typeof(a, name) for a, name in zip(args, self._param_names))
        except TypeError as exc:
            if mode is ExecutionMode.COMPILED:
                raise
            return self._fall_back(key, str(exc))
        from jitcore import session, tiering

        try:
            overload = self._compile(sig, tiering.wants_first_tier(self.options, args))
        except JitError as exc:
            if mode is ExecutionMode.COMPILED:
                # user errors hide jitcore's frames; an internal error keeps its cause
                raise exc.with_traceback(None) from exc.__cause__
            return self._fall_back(key, str(exc))
        target: Callable[..., Any] = overload
        if overload.first_tier:  # timed until it runs at the final tier (`jitcore.tiering`)
            target = tiering.FirstTierCalls(
                overload,
                functools.partial(self._request, overload),
                functools.partial(session.finish_first_tier, self, overload),
            )
        self._by_key[key] = target
        return target

    def _request(self, overload: Overload) -> None:
        """Have the background thread compile `overload` at its final tier."""
        from jitcore import session, tiering

        ref = weakref.ref(self)  # a queued compile keeps no dropped function alive

        def job() -> None:
            dispatcher = ref()
            if dispatcher is not None:
                session.finish_first_tier(dispatcher, overload)

        tiering.WORKER.submit(job)

    def use_final_tier(self, overload: Overload, first: object) -> None:
        """`overload` was compiled again at its final tier (by `session.finish_first_tier`,
        under the compile lock): call it natively from now on. The first tier's code stays
        loaded while the dispatcher lives: a call may be running it."""
        from jitcore import tiering

        self._dispatch_generations.append(first)
        for key, target in list(self._by_key.items()):
            if isinstance(target, tiering.FirstTierCalls) and target.overload is overload:
                assert isinstance(key, tuple)
                self._by_key[key] = overload
                self._install_native_dispatch(key, overload)

    def finish_tiers(self) -> None:
        """Compile every first-tier specialization at its final tier now, in this thread, and
        use it (`jitcore.tiering`): to time the final code after a first call on small data."""
        from jitcore import session

        for overload in list(self._overloads.values()):
            session.finish_first_tier(self, overload)
        for variant in list(self._frozen_variants.values()):  # functions passed as arguments
            variant.finish_tiers()

    def _fall_back(self, key: tuple, reason: str) -> Callable[..., Any]:
        self._fallback_reason = reason
        if not self._warned:
            self._warned = True
            warnings.warn(
                f"jitcore: running {self.py_func.__qualname__} as Python: {reason}",
                JitFallbackWarning,
                stacklevel=4,
            )
        target = self._python_target()
        self._by_key[key] = target
        return target

    # --- compiling ------------------------------------------------------------------------

    def compile(self, signature: Any) -> Overload:
        """Compile for an explicit signature: a tuple of IR types, Python/NumPy types, or
        text such as `"f64, i64"`. The result is final-tier code (`jitcore.tiering`)."""
        from jitcore import session

        overload = self._compile(parse_signature(signature))
        session.finish_first_tier(self, overload)
        return overload

    @property
    def signatures(self) -> list[tuple[T.Type, ...]]:
        return list(self._overloads)

    @property
    def overloads(self) -> dict[tuple[T.Type, ...], Overload]:
        return dict(self._overloads)

    def overload(self, signature: tuple[T.Type, ...]) -> Overload | None:
        """The specialization compiled for `signature`, if there is one."""
        return self._overloads.get(signature)

    def add_overload(self, overload: Overload) -> None:
        """Record a specialization (called by the compile session, under its lock)."""
        self._overloads[overload.signature] = overload

    def remove_overload(self, signature: tuple[T.Type, ...]) -> None:
        self._overloads.pop(signature, None)

    def parsed(self) -> ParsedFunction:
        """The `parse` stage's product, made once per dispatcher."""
        if self._parsed is None:
            from jitcore.parse import parse_function

            start = time.perf_counter()
            parsed = parse_function(self.py_func)  # type: ignore[arg-type]
            if self._frozen:  # functions passed as arguments are compile-time constants
                parsed.arg_names = [n for n in parsed.arg_names if n not in self._frozen]
                parsed.env.closure.update(self._frozen)
            if self.options.parallel:
                from jitcore.parallel.outline import outline_prange_loops

                parsed, self._prange_bodies = outline_prange_loops(parsed, self, Dispatcher)
            self.parse_seconds = time.perf_counter() - start
            self._parsed = parsed
        return self._parsed

    def _compile(self, sig: tuple[T.Type, ...], first_tier: bool = False) -> Overload:
        from jitcore import session

        log = compilelog.enabled()
        if log is None or registry.is_library_kernel(self.py_func) or self.options.prange_body:
            return session.compile_signature(self, sig, first_tier)
        signature = ", ".join(str(t) for t in sig)
        mode = self.options.mode.value
        try:
            overload = session.compile_signature(self, sig, first_tier)
        except JitError as exc:
            compilelog.record(log, self.py_func, signature, mode, type(exc).__name__, str(exc))
            raise
        compilelog.record(log, self.py_func, signature, mode, "compiled", "")
        return overload

    def resolve_callee(
        self, callee: object, args: list[Operand], kwargs: dict[str, Operand]
    ) -> Resolved:
        """Type a call from compiled code to another jitted function (or to itself)."""
        assert isinstance(callee, Dispatcher)
        return callee._for_caller(self)._as_callee(args, kwargs)

    def _call_with_functions(self, args: tuple) -> Any:
        names = self._param_names
        frozen = {n: a for n, a in zip(names, args) if _is_function_value(a)}
        rest = [a for n, a in zip(names, args) if n not in frozen]
        return self._frozen_variant(frozen)(*rest)

    @property
    def frozen_functions(self) -> dict[str, object]:
        """The functions fixed in this variant, by parameter name (empty for a dispatcher
        that is no variant): what the disk cache describes to make the variant again."""
        return dict(self._frozen)

    def frozen_variant(self, frozen: dict[str, object]) -> Dispatcher:
        """The variant of this function with `frozen` fixed (made if it is new)."""
        return self._frozen_variant(frozen)

    def _frozen_variant(self, frozen: dict[str, object]) -> Dispatcher:
        """This function with the parameters in `frozen` (functions passed as arguments) fixed
        at compile time: compiled once per combination of functions passed, and called with
        the other arguments."""
        key = tuple(sorted((n, id(v)) for n, v in frozen.items()))
        found = self._frozen_variants.get(key)
        if found is None:
            options = dataclasses.replace(self.options, signatures=())
            found = Dispatcher(self.py_func, options)
            found._frozen = dict(frozen)  # keeps the functions alive as long as the variant
            found._param_names = [n for n in self._param_names if n not in frozen]
            found._npositional = sum(
                n not in frozen for n in self._param_names[: self._npositional]
            )
            found._nparams = len(found._param_names)
            found._varargs = False  # the variant's caller has bound `*args` already
            found._table = typetable.TypeTable(found._nparams)
            self._frozen_variants[key] = found
        return found

    def _frozen_callee(
        self, frozen: dict[str, object], args: list[Operand], kwargs: dict[str, Operand]
    ) -> Resolved:
        """A call passing functions: the call of their variant, which takes the others."""
        names = self._param_names
        keep = [i for i, n in enumerate(names[: len(args)]) if n not in frozen]
        resolved = self._frozen_variant(frozen)._as_callee(
            [args[i] for i in keep], {k: v for k, v in kwargs.items() if k not in frozen}
        )
        inner = resolved.lower
        assert inner is not None
        arg_types: list[T.Type | None] = [None] * len(args)
        for j, i in enumerate(keep):
            arg_types[i] = resolved.args[j]

        def lower(b, vals: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:  # noqa: ANN001
            rest_kw = {k: v for k, v in kw.items() if k not in frozen}
            return inner(b, [vals[i] for i in keep], rest_kw)

        kw_types = {k: resolved.kwargs.get(k) for k in kwargs}
        return dataclasses.replace(
            resolved, args=tuple(arg_types), lower=lower, kwargs=kw_types, callee_by_position=False
        )

    def _as_callee(self, args: list[Operand], kwargs: dict[str, Operand]) -> Resolved:
        from jitcore import session  # a callee is typed while its caller compiles
        from jitcore.ir import nodes as ir

        names = self._param_names
        name = self.py_func.__name__
        frozen = {
            n: op.const
            for n, op in [*zip(names, args), *kwargs.items()]
            if op.is_const and _is_function_value(op.const)
        }
        if frozen:  # a function passed from compiled code: that function's specialization
            return self._frozen_callee(frozen, args, kwargs)
        if len(args) > self._npositional and not self._varargs:
            raise TypingError(
                f"{name}() takes {self._npositional} positional arguments, {len(args)} given"
            )
        defaults = dict(
            zip(
                names[self._npositional - len(self.py_func.__defaults__ or ()) :],
                self.py_func.__defaults__ or (),
            )
        )
        defaults.update(self.py_func.__kwdefaults__ or {})
        order: list[tuple[str, object]] = []  # ("arg", i) | ("kw", name) | ("default", value)
        sig: list[T.Type] = []
        extra = args[self._npositional :]  # what `*args` takes
        for i, param in enumerate(names):
            if self._varargs and i == len(names) - 1:
                order.append(("star", len(extra)))
                sig.append(T.Tuple(tuple(a.type for a in extra)))
            elif i < len(args) and i < self._npositional:
                if param in kwargs:
                    raise TypingError(f"{name}() got multiple values for argument '{param}'")
                order.append(("arg", i))
                sig.append(args[i].type)
            elif param in kwargs:
                order.append(("kw", param))
                sig.append(kwargs[param].type)
            elif param in defaults:
                order.append(("default", defaults[param]))
                sig.append(self._default_type(param, defaults[param]))
            else:
                raise TypingError(f"{name}() missing required argument: '{param}'")
        for k in kwargs:
            if k not in names:
                raise TypingError(f"{name}() got an unexpected keyword argument '{k}'")
        signature = tuple(sig)
        ret, symbol = session.callee_return(self, signature)
        known = self.overload(signature)
        # whether the callee returns Python numbers (unknown while a recursive cycle is typed)
        python_result = known.record.python_result if known is not None else True

        def lower(b, vals: list[ir.Value], kw: dict[str, ir.Value]) -> ir.Value:  # noqa: ANN001
            call_args: list[ir.Value] = []
            for (kind, what), t in zip(order, signature):
                if kind == "arg":
                    v = vals[cast(int, what)]
                elif kind == "star":
                    first = self._npositional
                    v = b.make_tuple(vals[first : first + cast(int, what)])
                elif kind == "kw":
                    v = kw[cast(str, what)]
                else:
                    v = ir.Const(what, type=t)
                call_args.append(b.cast(v, t))
            return b.native_call(symbol, call_args, ret)

        return Resolved(
            tuple(signature[: min(len(args), self._npositional)]) + (None,) * len(extra),
            ret,
            lower,
            callee=(self, signature),
            callee_by_position=order == [("arg", i) for i in range(len(signature))],
            kwargs={k: signature[names.index(k)] for k in kwargs},
            python_result=python_result,
            python_result_exact=self.options.prange_body is not None,
        )

    def _default_type(self, param: str, value: object) -> T.Type:
        """The type a default value is passed with, or UnsupportedError for a default that
        compiled code cannot take (a string, a list...)."""
        try:
            return typeof(value, param)
        except TypeError:
            raise UnsupportedError(
                f"{self.py_func.__name__}() has a default `{param}={value!r}` of type "
                f"{type(value).__name__}, which compiled callers cannot pass yet",
                hint=f"pass `{param}` explicitly, or give it a numeric default",
            ) from None

    # --- introspection --------------------------------------------------------------------

    def _pick(self, signature: Any) -> tuple[T.Type, ...]:
        if signature is not None:
            sig = parse_signature(signature)
            if sig not in self._overloads:
                self._compile(sig)
            return sig
        if not self._overloads:
            raise ValueError(
                f"{self.py_func.__qualname__} has not been compiled yet; "
                "call it or pass signature="
            )
        return next(reversed(self._overloads))

    def inspect(self, stage: str = "typeinfer", signature: Any = None) -> str:
        """The text of a stage's output: `parse` (source as parsed), `ssa`, `typeinfer`,
        `optimize` (and `optimize:<pass>`), `lower`, `codegen` (LLVM IR), `llvm-opt`
        (optimized LLVM IR), `machine-code` (assembly)."""
        from jitcore import pipeline, session

        sig = self._pick(signature)
        valid = (*pipeline.STAGES, "asm", "llvm")
        if stage not in valid and not stage.startswith("optimize:"):
            raise ValueError(f"unknown stage {stage!r}; stages are {', '.join(valid)}")
        record = session.compile_for_inspection(self, sig)
        if stage in {"machine-code", "asm"}:
            from jitcore.llvm_opt import assembly

            return assembly(record.texts["llvm-opt"], self.options.opt)
        if stage == "llvm":
            stage = "llvm-opt"
        if stage not in record.texts:
            raise ValueError(f"stage {stage!r} produced no text for {self.py_func.__qualname__}")
        return record.texts[stage]

    def stats(self, signature: Any = None) -> CompileStats:
        """Seconds per stage (and per optimization pass) of one compiled signature."""
        from jitcore import pipeline

        sig = self._pick(signature)
        record = self._overloads[sig].record
        stages = {name: record.stages.get(name, 0.0) for name in pipeline.STAGES}
        if pipeline.TIER_UP_STAGE in record.stages:
            stages[pipeline.TIER_UP_STAGE] = record.stages[pipeline.TIER_UP_STAGE]
        if record.cache_hit:
            stages = {
                "parse": record.stages.get("parse", 0.0),
                pipeline.CACHE_STAGE: record.stages.get(pipeline.CACHE_STAGE, 0.0),
            }
        return CompileStats(
            ", ".join(map(str, sig)), stages, dict(record.passes), record.cache_hit
        )

    def with_options(self, **changes: Any) -> Dispatcher:
        """The same function with some options changed (`opt=0`, ...). Jitted functions it
        calls are compiled with the same code-generation options (`opt`, `fastmath`,
        `boundscheck`, `disable_passes`), so a mode applies all the way down."""
        if "mode" in changes and isinstance(changes["mode"], str):
            changes["mode"] = ExecutionMode(changes["mode"])
        origin = self._origin or self
        options = self.options.replace(**changes)
        variant = origin._variants.get(options)
        if variant is None:
            variant = origin if options == origin.options else Dispatcher(self.py_func, options)
            variant._origin = origin
            origin._variants[options] = variant
        return variant

    def _for_caller(self, caller: Dispatcher) -> Dispatcher:
        """The variant of this function a caller compiled with other options should call."""
        fields = ("opt", "fastmath", "boundscheck", "disable_passes")
        if all(getattr(self.options, f) == getattr(caller.options, f) for f in fields):
            return self
        return self.with_options(**{f: getattr(caller.options, f) for f in fields})

    def clear(self) -> None:
        """Forget every compiled specialization (the next call compiles again). Their machine
        code stays loaded while the dispatcher lives: it may be running (a call that came back
        into Python, which cleared the dispatcher)."""
        self._dispatch_generations.extend(o.keep_alive for o in self._overloads.values())
        self._overloads.clear()
        self._by_key.clear()
        self._tuple_cases = []
        self._table = typetable.TypeTable(self._nparams)
        type(self).__call__ = Dispatcher.__call__  # type: ignore[method-assign]
        self._fallback_reason = None
        self._warned = False


_PYTHON_MODE = [0]


@contextlib.contextmanager
def python_mode() -> Iterator[None]:
    """Within the block, every jitted function runs as plain Python, callees included: the
    reference behaviour jitcheck compares compiled code with."""
    from jitcore import runtime

    _PYTHON_MODE[0] += 1
    runtime.set_python_mode(True)
    try:
        yield
    finally:
        _PYTHON_MODE[0] -= 1
        runtime.set_python_mode(False)


def _arg_check(key: object):  # noqa: ANN202
    from jitcore.codegen import ArgCheck

    if isinstance(key, tuple) and key[0] is tuple:
        return ArgCheck("tuple", id(tuple), items=tuple(_arg_check(k) for k in key[1:]))
    if isinstance(key, tuple) and key[0] is list:
        return ArgCheck("type", 0)  # never matches: lists come back to the Python-level lookup
    if isinstance(key, tuple) and key[0] is np.ndarray:
        return ArgCheck("array", id(np.ndarray), type_num=key[1].num, ndim=key[2], layout=key[3])
    return ArgCheck("type", id(key))


# Argument types that are never functions: answered without the registry (780 ns an argument
# of every Python-level call before).
_DATA_TYPES = frozenset({int, float, bool, complex, str, bytes, type(None), np.ndarray})


def _is_function_value(value: object) -> bool:
    """A function passed as an argument: a jitted one, a plain one compiled implicitly, or a
    builtin/NumPy function jitcore implements (`math.cos`, `np.sin`)."""
    if type(value) in _DATA_TYPES:
        return False
    if getattr(value, "__jitcore_dispatcher__", False) is True:
        return True
    if registry.implicit_dispatcher(value) is not None:
        return True
    if not callable(value) or isinstance(value, type):
        return False
    return registry.lookup_function(value) is not None


_LIBRARY_KERNELS: dict[Callable[..., Any], Dispatcher] = {}


def _library_kernel_dispatcher(func: Callable[..., Any]) -> Dispatcher:
    """The dispatcher of a `jitcore.lib` kernel: compiled mode, no bounds checks (see
    `registry.library_kernel`), no wrapping of negative indices for those that declare them
    non-negative (`registry.nonnegative_kernel`)."""
    kernel = _LIBRARY_KERNELS.get(func)
    if kernel is None:
        parallel = registry.is_parallel_library_kernel(func)
        options = JitOptions(
            mode=ExecutionMode.COMPILED,
            boundscheck=False,
            wraparound=not registry.has_nonnegative_indices(func),
            parallel=parallel,
        )
        kernel = _LIBRARY_KERNELS.setdefault(func, Dispatcher(func, options))
    return kernel


registry.set_kernel_dispatcher(_library_kernel_dispatcher)


_IMPLICIT: dict[Callable[..., Any], Dispatcher] = {}


def _implicit_dispatcher(func: Callable[..., Any]) -> Dispatcher:
    """The dispatcher of a plain function that compiled code calls (`jitcore.implicit`):
    compiled mode (its caller is being compiled), default options."""
    found = _IMPLICIT.get(func)
    if found is None:
        options = JitOptions(mode=ExecutionMode.COMPILED)
        found = _IMPLICIT.setdefault(func, Dispatcher(func, options))
    return found


registry.set_implicit_dispatcher(_implicit_dispatcher)
