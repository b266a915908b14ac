"""Tiered compilation: quick code for a first call on small arguments, final code once it pays.

Most of a first call's compile time is LLVM's (65-75%), and most of that is O3's loop work:
vectorizing, unrolling, unswitching. A first call on small arguments (a test, an interactive
try, the first step of a simulation) runs for microseconds and waits for all of it. So such a
call gets *first-tier* code: the same LLVM module put through a few cheap passes
(`llvm_opt.FIRST_TIER_PASSES`: no loop passes, no vectorizers) and code-generated at O1, which
compiles in 60-75% of the time and computes exactly the same results (jitcore's IR fixes every
value; LLVM's passes change only speed, and fast-math functions, whose results may depend on
how LLVM reassociates, are never tiered).

The specialization then counts its calls and the time they take. Once they have run as long as
compiling them took, or `MAX_FIRST_TIER_CALLS` times (a ski-rental rule: waiting longer could
cost more than the final compile), a background thread optimizes the kept module at the final
level and links it; the dispatcher then calls the final code, natively. Until then a
first-tier specialization is called through the Python-level dispatch, which times it.

What gets the final tier at once (`eligible`, `wants_first_tier`):
* arguments of `SMALL_ARGUMENTS` elements or more, integers counted by their magnitude: the
  call itself will be long;
* `opt` other than 3, `fastmath`, `parallel`, `cache=True` (the disk cache keeps final code
  only), `tiered=False` or `JITCORE_TIERED=0`;
* explicit compiles (`f.compile(sig)`, `signatures=`), `jitcore.run`'s loop, and everything
  `inspect` shows; a later call of a first-tier function with large arguments finishes it
  first, in the calling thread.
Final-tier code never calls first-tier code: a final compile first finishes the first-tier
callees it links against, and finishing compiles every first-tier function a specialization
calls with it, into one library (`session.finish_first_tier`).

The background compile shares LLVM with the foreground: llvmlite serializes its calls, so the
two interleave call by call (a foreground LLVM call may wait for one background call, ~50 ms
at most for the bundled kernels) while jitcore's Python stages run beside it.

This module owns the policy, the call counting and the background thread; the compile
session does the compiling and linking (the thread only runs the jobs it is given).
"""

from __future__ import annotations

import atexit
import collections
import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from jitcore.options import JitOptions
    from jitcore.pipeline import Overload

FINAL_OPT = 3  # the level tiering applies to (functions asking for another level get it)
# Arguments with this many elements or more (arrays, lists, strings counted by their length)
# get the final tier at once.
SMALL_ARGUMENTS = 1 << 16
# A first-tier specialization is recompiled after this many calls even if they were short.
MAX_FIRST_TIER_CALLS = 1000


def eligible(options: JitOptions) -> bool:
    """Whether a function compiled with `options` may get first-tier code."""
    return (
        options.tiered
        and options.opt == FINAL_OPT
        and not options.fastmath
        and not options.parallel
        and not options.cache
        and options.prange_body is None
        and options.llvm_bisect_limit is None
    )


def wants_first_tier(options: JitOptions, args: tuple) -> bool:
    """Whether a first call with `args` should get first-tier code: tiering applies, and the
    arguments are small enough that the call will not run long."""
    if not eligible(options):
        return False
    return sum(map(_elements, args)) < SMALL_ARGUMENTS


_LOOK_INTO = 16  # containers up to this length are counted by their items


def _elements(value: object) -> int:
    """How much work an argument may stand for: an array's size, a small container's items'
    (a tuple of arrays), a larger container's length, an integer's magnitude (`sieve(n)`,
    `simulate(steps)`: an integer argument is often a count), 1 for anything else. The common
    types are told by their exact type first: first-tier calls ask this of every argument."""
    kind = type(value)
    if kind is float or kind is bool:
        return 1
    if kind is int:
        return min(abs(value), SMALL_ARGUMENTS)  # type: ignore[arg-type]
    if kind is np.ndarray:
        return int(value.size)  # type: ignore[attr-defined]
    if isinstance(value, np.ndarray):
        return int(value.size)
    if isinstance(value, (list, tuple)) and len(value) <= _LOOK_INTO:  # (a, b): arrays inside
        return max(1, sum(map(_elements, value)))
    if isinstance(value, dict) and len(value) <= _LOOK_INTO:
        return max(1, sum(map(_elements, value.values())))
    if isinstance(value, (list, tuple, dict, set, str, bytes)):
        return max(1, len(value))
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return min(abs(int(value)), SMALL_ARGUMENTS)
    return 1


class FirstTierCalls:
    """What the dispatcher calls for a first-tier specialization: its entry point, timed, and
    the request for the final tier once the calls have run long enough. A call with large
    arguments (`wants_first_tier` says no) finishes the final tier first, in the calling
    thread: it would run long on first-tier code."""

    __slots__ = (
        "overload",
        "native",
        "budget",
        "seconds",
        "calls",
        "requested",
        "_request",
        "_finish",
    )

    def __init__(
        self, overload: Overload, request: Callable[[], None], finish: Callable[[], None]
    ) -> None:
        self.overload = overload
        self.native = overload.native
        self.budget = sum(overload.record.stages.values())  # what compiling it took
        self.seconds = 0.0
        self.calls = 0
        self.requested = False
        self._request = request
        self._finish = finish

    def __call__(self, *args: Any) -> Any:
        if sum(map(_elements, args)) >= SMALL_ARGUMENTS:
            self.requested = True
            try:
                self._finish()
            except Exception as exc:  # noqa: BLE001 - the first tier computes the same
                WORKER.errors.append(exc)
            return self.overload.native(*args)  # type: ignore[misc]
        start = time.perf_counter()
        try:
            return self.native(*args)  # type: ignore[misc]
        finally:
            self.seconds += time.perf_counter() - start
            self.calls += 1
            if not self.requested and (
                self.seconds >= self.budget or self.calls >= MAX_FIRST_TIER_CALLS
            ):
                self.requested = True
                self._request()


class _Worker:
    """One background thread running final-tier compiles, one at a time, in request order.

    It is a daemon (an idle worker must not keep the process alive), stopped and joined at
    exit before LLVM's own teardown; a fork waits until it is outside LLVM (the child gets a
    consistent LLVM, and starts a thread of its own when it requests a compile)."""

    def __init__(self) -> None:
        self.jobs: collections.deque[Callable[[], None]] = collections.deque()
        self.wake = threading.Condition()
        self.thread: threading.Thread | None = None
        self.current: Callable[[], None] | None = None  # the job running now
        self.stopping = False
        self.errors: list[Exception] = []  # the last few failed final-tier compiles
        # Locks the worker takes before `in_llvm`, held across a fork (`hold_across_fork`).
        self.fork_locks: list[Any] = []
        # Held while the worker is inside LLVM (compiling or linking): a fork waits for it.
        self.in_llvm = threading.Lock()

    def submit(self, job: Callable[[], None]) -> None:
        with self.wake:
            if self.stopping:
                return
            self.jobs.append(job)
            self._start()
            self.wake.notify()

    def _start(self) -> None:
        """Start the thread if it is not running (called holding `wake`)."""
        if self.thread is None or not self.thread.is_alive():
            self.thread = threading.Thread(target=self._run, name="jitcore-tier-up", daemon=True)
            self.thread.start()

    def _run(self) -> None:
        while True:
            with self.wake:
                while not self.jobs and not self.stopping:
                    self.wake.wait()
                if self.stopping:
                    return
                job = self.current = self.jobs.popleft()
            try:
                job()
            except Exception as exc:  # noqa: BLE001 - the first tier stays: it computes the same
                self.errors.append(exc)  # kept for debugging (and tests), never raised
                del self.errors[:-10]
            finally:
                self.current = None

    def drain(self) -> None:
        """Run every pending job in the calling thread (tests and `jitcore.finish_tiers`)."""
        while True:
            with self.wake:
                if not self.jobs:
                    return
                job = self.jobs.popleft()
            job()

    def stop(self) -> None:
        with self.wake:
            self.stopping = True
            self.jobs.clear()
            self.wake.notify_all()
            thread = self.thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=30)

    def before_fork(self) -> None:
        """Wait until no thread holds the fork locks (the compile lock: the worker links under
        it) and the worker is outside LLVM: a child must not inherit a lock held by a thread
        it does not have. In the order the worker takes them, so this cannot deadlock."""
        for lock in self.fork_locks:
            lock.acquire()
        self.in_llvm.acquire()

    def after_fork_in_parent(self) -> None:
        self.in_llvm.release()
        for lock in reversed(self.fork_locks):
            lock.release()

    def after_fork_in_child(self) -> None:
        """The parent's thread does not exist here: the child runs the jobs it left, the one
        it was running (waiting for the compile lock, say) first, on a thread of its own."""
        self.in_llvm = threading.Lock()
        self.wake = threading.Condition()
        self.thread = None
        if self.current is not None:
            self.jobs.appendleft(self.current)
            self.current = None
        for lock in reversed(self.fork_locks):
            lock.release()  # held by this thread, which the child has
        if self.jobs and not self.stopping:
            with self.wake:
                self._start()


WORKER = _Worker()
atexit.register(WORKER.stop)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(
        before=WORKER.before_fork,
        after_in_parent=WORKER.after_fork_in_parent,
        after_in_child=WORKER.after_fork_in_child,
    )


def hold_across_fork(lock: Any) -> None:
    """Have a fork wait for `lock`, which the worker's jobs take before `in_llvm`."""
    WORKER.fork_locks.append(lock)


def in_llvm() -> threading.Lock:
    """The lock a final-tier compile holds while inside LLVM (see `_Worker`)."""
    return WORKER.in_llvm
