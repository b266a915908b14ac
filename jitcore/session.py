"""Compile sessions: one compilation, from the first signature asked for to linked native code.

A call that needs a new specialization opens a `CompileSession`; compiling a jitted callee
while its caller is being typed joins the same session. The session owns everything one
compilation needs and nothing outlives it:

* `assumed`: the specializations being typed right now, with the return type assumed for
  each. A recursive call is typed with its assumption; a call whose return type is not known
  yet (a recursive cycle still looking for its base case) is typed as bottom, and the
  caller's `typeinfer` result says it is incomplete, so the caller is typed again with the
  return type its base cases gave. No exception is used as control flow.
* `group`: the specializations compiled for this request, linked together at the end (a
  mutually recursive group needs each other's symbols), or all discarded if it fails.
* `cache_keys`: the disk-cache keys of the specializations to store once they are linked.

Sessions are serialized by one process-wide re-entrant lock: two threads making the first
call of a function at once compile it once, and the second finds the finished specialization
when it gets the lock. (Compilation mostly runs Python code under the GIL, so a finer lock
would buy little and invite lock-order deadlocks between callers and callees.)

The symbol table is the process's record of what is linked: each kernel symbol belongs to
one dispatcher and signature, which the cache needs to describe callees and the inliner to
find a callee's IR.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from jitcore import cached, machine_code, pipeline, tiering
from jitcore.errors import JitError, TypingError
from jitcore.ir import types as T
from jitcore.pipeline import Overload

if TYPE_CHECKING:
    from jitcore.dispatcher import Dispatcher

Signature = tuple[T.Type, ...]

COMPILE_LOCK = threading.RLock()
tiering.hold_across_fork(COMPILE_LOCK)  # its background compiles link under it
_local = threading.local()


@dataclass
class CompileSession:
    """The state of one compilation (see the module docstring)."""

    assumed: dict[tuple[int, Signature], T.Type | None] = field(default_factory=dict)
    group: list[tuple[Dispatcher, Overload]] = field(default_factory=list)
    cache_keys: dict[tuple[int, Signature], str] = field(default_factory=dict)
    depth: int = 0  # nesting of specializations being compiled (1 = the one asked for)
    caching: int = 0  # > 0 while compiling for a cached function: its callees use the cache
    first_tier: bool = False  # quick code for what this session compiles (`jitcore.tiering`)


@contextlib.contextmanager
def open_session(first_tier: bool = False) -> Iterator[CompileSession]:
    """The calling thread's session: a new one under the compile lock (compiling first-tier
    code if `first_tier`), or the one it is already running (a callee compiled while its
    caller is typed)."""
    with COMPILE_LOCK:
        current: CompileSession | None = getattr(_local, "session", None)
        if current is not None:
            yield current
            return
        session = CompileSession(first_tier=first_tier)
        _local.session = session
        try:
            yield session
        finally:
            _local.session = None


def current_session() -> CompileSession | None:
    return getattr(_local, "session", None)


class SymbolTable:
    """Kernel symbols of this process: unique names, and who owns each linked one."""

    def __init__(self) -> None:
        self._names: dict[str, int] = {}  # symbol -> serial of the dispatcher that named it
        # symbol -> its dispatcher (weakly: a dropped dispatcher's code is unloaded) and signature
        self._owners: dict[str, tuple[weakref.ref[Dispatcher], Signature]] = {}

    def name_for(self, dispatcher: Dispatcher, sig: Signature) -> str:
        """A symbol for `dispatcher`'s specialization `sig`: stable across processes (the cache
        stores it), never shared by two dispatchers and never linked twice (after clear())."""
        func = dispatcher.py_func
        params = ", ".join(map(str, sig))
        text = f"{func.__module__}.{func.__qualname__}({params}){dispatcher.options}"
        for name, value in sorted(dispatcher.frozen_functions.items()):
            # variants passed different functions are different code: different names, the
            # same in every process (a cached caller names its variant callee by symbol)
            text += f" {name}={getattr(value, '__module__', '')}.{_qualname(value)}"
        digest = hashlib.sha1(text.encode()).hexdigest()[:12]
        base = re.sub(
            r"[^A-Za-z0-9_.]", "_", f"jit.{func.__module__}.{func.__qualname__}.{digest}"
        )
        name, n = base, 1
        while self._names.setdefault(
            name, dispatcher.serial
        ) != dispatcher.serial or machine_code.is_linked(name):
            n += 1
            name = f"{base}.{n}"
        return name

    def owner(self, symbol: str) -> tuple[Dispatcher, Signature] | None:
        """Who compiled `symbol`, for `sig`; None if unknown or no longer alive."""
        found = self._owners.get(symbol)
        if found is None:
            return None
        dispatcher = found[0]()
        return None if dispatcher is None else (dispatcher, found[1])

    def set_owner(self, symbol: str, dispatcher: Dispatcher, sig: Signature) -> None:
        self._owners[symbol] = (weakref.ref(dispatcher, self._forget(symbol)), sig)

    def _forget(self, symbol: str) -> Callable[[object], None]:
        """The callback that drops `symbol`'s entry when its dispatcher is collected."""
        owners = self._owners

        def forget(_ref: object) -> None:
            found = owners.get(symbol)
            if found is not None and found[0] is _ref:
                del owners[symbol]

        return forget


SYMBOLS = SymbolTable()


def _qualname(value: object) -> str:
    return str(getattr(value, "__qualname__", None) or type(value).__qualname__)


def compile_signature(
    dispatcher: Dispatcher, sig: Signature, first_tier: bool = False
) -> Overload:
    """The specialization of `dispatcher` for `sig`: already compiled, loaded from the disk
    cache, or compiled now (first-tier code if `first_tier` and `tiering` allows it).
    Thread-safe: exactly one compile per signature."""
    existing = dispatcher.overload(sig)
    if existing is not None:
        return existing
    with open_session(first_tier) as session:
        existing = dispatcher.overload(sig)  # another thread may have finished it meanwhile
        if existing is not None:
            return existing
        overload = _compile(session, dispatcher, sig)
        if overload is None:
            raise _no_base_case(dispatcher)
        return overload


def compile_for_inspection(dispatcher: Dispatcher, sig: Signature) -> pipeline.CompileRecord:
    """Run the pipeline once more for `sig`, keeping every stage's text (nothing is linked)."""
    with open_session() as session:
        record = _run_pipeline(session, dispatcher, sig, keep_text=True)
        if record is None:
            raise _no_base_case(dispatcher)
        return record


def _no_base_case(dispatcher: Dispatcher) -> TypingError:
    parsed = dispatcher.parsed()
    return TypingError(
        f"cannot infer the return type of {dispatcher.py_func.__qualname__}: it depends on a "
        "recursive call with no base case",
        loc=parsed.loc(parsed.tree),
        hint="add a non-recursive return path",
    )


def callee_return(dispatcher: Dispatcher, sig: Signature) -> tuple[T.Type, str]:
    """Return type and symbol of a jitted callee, for typing a call from compiled code. The
    type is bottom while it is not known yet (a recursive cycle being typed)."""
    session = current_session()
    assert session is not None, "callees are typed inside a compile session"
    token = (id(dispatcher), sig)
    if token in session.assumed:
        return session.assumed[token] or T.BOTTOM, SYMBOLS.name_for(dispatcher, sig)
    overload = dispatcher.overload(sig) or _compile(session, dispatcher, sig)
    if overload is None:
        return T.BOTTOM, SYMBOLS.name_for(dispatcher, sig)
    return overload.return_type, overload.symbol


def _compile(session: CompileSession, dispatcher: Dispatcher, sig: Signature) -> Overload | None:
    """Compile within `session`; None when the return type is not known yet."""
    caching = dispatcher.options.cache or session.caching > 0
    if caching and (id(dispatcher), sig) not in session.assumed:
        session.caching += 1
        try:
            return _load_or_compile(session, dispatcher, sig)
        finally:
            session.caching -= 1
    return compile_fresh(session, dispatcher, sig)


def _load_or_compile(
    session: CompileSession, dispatcher: Dispatcher, sig: Signature
) -> Overload | None:
    """Load the specialization from the disk cache, or compile it and have it stored there."""
    start = time.perf_counter()
    directory = cached.directory()
    if directory is None:
        return compile_fresh(session, dispatcher, sig)
    key = cached.key_of(dispatcher, sig)
    key_seconds = time.perf_counter() - start
    # The outermost compilation takes the key's lock, so parallel workers compile once.
    with contextlib.ExitStack() as stack:
        if session.depth == 0:
            try:
                stack.enter_context(cached.locked(directory, key))
            except cached.Unusable as exc:
                cached.warn_unusable(directory, exc)
                return compile_fresh(session, dispatcher, sig)
        overload = cached.load(directory, key, dispatcher, sig, key_seconds, _compile_callee)
        if overload is not None:
            SYMBOLS.set_owner(overload.symbol, dispatcher, sig)
            dispatcher.add_overload(overload)
            return overload
        session.cache_keys[(id(dispatcher), sig)] = key
        overload = compile_fresh(session, dispatcher, sig)
        if overload is not None and overload.native is not None and overload.cache_key is None:
            overload.cache_key = key
            cached.store(dispatcher, overload, SYMBOLS.owner)
    return overload


def _compile_callee(dispatcher: Dispatcher, sig: Signature) -> str:
    """Load or compile a callee a cached entry links against (at its final tier: cached code
    is final code); its symbol."""
    overload = compile_signature(dispatcher, sig)
    finish_first_tier(dispatcher, overload)
    return overload.symbol


def compile_fresh(
    session: CompileSession, dispatcher: Dispatcher, sig: Signature
) -> Overload | None:
    """Run the pipeline for `sig` and add the result to the session's group; the outermost
    compilation links the group (and stores it in the cache) when it is complete."""
    session.depth += 1
    failed = True
    first_tier = (
        session.first_tier and session.caching == 0 and tiering.eligible(dispatcher.options)
    )
    try:
        record = _run_pipeline(session, dispatcher, sig, keep_text=False, first_tier=first_tier)
        failed = False
    finally:
        session.depth -= 1
        if failed and session.depth == 0:
            _discard_group(session)
    if record is None:
        return None
    overload = Overload(sig, record.return_type, record.symbol, record)  # type: ignore[arg-type]
    overload.first_tier = record.final_tier_ir is not None
    SYMBOLS.set_owner(record.symbol, dispatcher, sig)
    overload.cache_key = session.cache_keys.pop((id(dispatcher), sig), None)
    pipeline.emit_machine_code(record, dispatcher.options.opt)
    dispatcher.add_overload(overload)
    session.group.append((dispatcher, overload))
    if session.depth == 0:
        _link_group(session)
    return overload


def _run_pipeline(
    session: CompileSession,
    dispatcher: Dispatcher,
    sig: Signature,
    keep_text: bool,
    first_tier: bool = False,
) -> pipeline.CompileRecord | None:
    parsed = dispatcher.parsed()
    token = (id(dispatcher), sig)
    nested = token in session.assumed
    session.assumed.setdefault(token, None)
    try:
        return pipeline.run_pipeline(
            parsed,
            sig,
            dispatcher.options,
            SYMBOLS.name_for(dispatcher, sig),
            resolve_callee=dispatcher.resolve_callee,
            assumed_return=lambda: session.assumed.get(token),
            assume_return=lambda t: session.assumed.__setitem__(token, t),
            keep_text=keep_text,
            parse_seconds=dispatcher.parse_seconds,
            first_tier=first_tier,
        )
    except JitError as err:
        err.with_note(
            f"while compiling {dispatcher.py_func.__qualname__}({', '.join(map(str, sig))})"
        )
        raise
    finally:
        if not nested:
            session.assumed.pop(token, None)


def _discard_group(session: CompileSession) -> None:
    """The outer compilation failed: callees compiled for it may refer to its missing symbol."""
    for dispatcher, overload in session.group:
        dispatcher.remove_overload(overload.signature)
    session.group.clear()


def _link_group(session: CompileSession) -> None:
    group = list(session.group)
    session.group.clear()
    if not all(overload.first_tier for _, overload in group):
        # final code never calls first-tier code: a group with final members (a callee that
        # is not tiered, in a first-tier session) is final throughout, its members linked
        # together, and the first-tier functions it calls from outside are finished first
        for dispatcher, overload in group:
            if overload.first_tier:
                record = overload.record
                record.object_code = pipeline.final_tier_object(record, dispatcher.options.opt)
                record.final_tier_ir, overload.first_tier = None, False
        own = {overload.symbol for _, overload in group}
        for _, overload in group:
            _finish_callees(overload.record.callees, own)
    natives = pipeline.link([o.record for _, o in group], [d.py_func.__name__ for d, _ in group])
    for (_, overload), native in zip(group, natives):
        overload.native = native.callable
        overload.keep_alive = native
    # a mutually recursive group (one library for several functions) is not cached
    if len({id(d) for d, _ in group}) == len(group) or len(group) == 1:
        for dispatcher, overload in group:
            if overload.cache_key is not None:
                cached.store(dispatcher, overload, SYMBOLS.owner)


def finish_first_tier(dispatcher: Dispatcher, overload: Overload) -> None:
    """Compile a first-tier specialization again at its final level and switch to it: later
    callers link against the final code, and the dispatcher calls it natively. The first-tier
    specializations it calls, directly or not, are compiled with it and linked into the same
    library (final code never calls first-tier code; a mutually recursive group must be final
    together). Any thread: LLVM runs outside the compile lock (llvmlite serializes its calls
    itself); linking and switching run under it. Nothing to do for final code; a
    specialization finished by another thread meanwhile, or dropped (`clear()`), is left out."""
    if not overload.first_tier:
        return
    start = time.perf_counter()
    compiled = []
    for owner, member in _first_tier_closure(dispatcher, overload):
        with tiering.in_llvm():
            if member.first_tier and member.record.final_tier_ir is not None:
                code = pipeline.final_tier_object(member.record, owner.options.opt)
                compiled.append((owner, member, code))
    with COMPILE_LOCK, tiering.in_llvm():
        todo = [
            (owner, member, code)
            for owner, member, code in compiled
            if member.first_tier and owner.overload(member.signature) is member
        ]
        if not todo:
            return
        finals = [
            pipeline.CompileRecord(
                m.record.signature,
                m.record.return_type,
                m.symbol,
                object_code=code,
                callees=list(m.record.callees),
                static_data=m.record.static_data,
            )
            for _, m, code in todo
        ]
        names = [owner.py_func.__name__ for owner, _, _ in todo]
        natives = pipeline.link(finals, names, f"{todo[0][1].symbol}.final")
        seconds = time.perf_counter() - start
        for (owner, member, code), native in zip(todo, natives):
            first = member.keep_alive
            member.native, member.keep_alive = native.callable, native
            member.record.object_code, member.record.final_tier_ir = code, None
            member.record.stages[pipeline.TIER_UP_STAGE] = seconds
            owner.use_final_tier(member, first)
            member.first_tier = False  # last: a thread seeing it sees the rest done


def _first_tier_closure(
    dispatcher: Dispatcher, overload: Overload
) -> list[tuple[Dispatcher, Overload]]:
    """`overload` and every first-tier specialization it calls, directly or not."""
    found = {overload.symbol: (dispatcher, overload)}
    pending = [overload]
    while pending:
        for symbol in pending.pop().record.callees:
            callee = _first_tier_callee(symbol) if symbol not in found else None
            if callee is not None:
                found[symbol] = callee
                pending.append(callee[1])
    return list(found.values())


def _finish_callees(callees: list[str], skip: set[str]) -> None:
    """Finish the first-tier specializations among `callees` (symbols) not in `skip`."""
    for symbol in callees:
        callee = _first_tier_callee(symbol) if symbol not in skip else None
        if callee is not None:
            finish_first_tier(*callee)


def _first_tier_callee(symbol: str) -> tuple[Dispatcher, Overload] | None:
    """The live first-tier specialization `symbol` names, with its dispatcher, if it is one."""
    owner = SYMBOLS.owner(symbol)
    callee = owner[0].overload(owner[1]) if owner is not None else None
    if owner is None or callee is None or not callee.first_tier:
        return None
    return owner[0], callee
