"""The mutation experiment: does `pytest --jit-diff` catch realistic compiler bugs?

    python -m benchmarks.mutation [--only NAME ...] [--jobs N]

For each mutant of `benchmarks.mutants` (a registered pass or a patched emitter, never an
edit of the package), runs in a fresh process, with the default settings and the `ci`
Hypothesis profile (CI=true: derandomized), the differential check of the bundled kernels
and README examples (`jit_diff_modules`) and of every registry operation
(`--jit-diff-library`), stopping at the first failure. A mutant is *killed* when the run
fails (or when compiled code crashes it: without `--jit-diff-isolate` a crash ends pytest,
which fails CI as loudly) and *survives* when it passes. The table says which item failed
and what the guilty-pass search said about it. A control run without a mutant must pass
first. Prints the table (mutant, kind, verdict, what caught it) and the kill rate; exits 1
below 95%.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks.mutants import ENV, MUTANTS, Mutant

ROOT = Path(__file__).resolve().parents[1]
GOAL = 0.95


def run_check(mutant: str | None, workdir: Path) -> tuple[int, str, float]:
    """(exit code, the first failed item's name or the output's tail, seconds)."""
    report = workdir / f"{mutant or 'control'}.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("JITCORE_")}
    env |= {"CI": "true", "PYTHONPATH": str(ROOT)}
    env.pop(ENV, None)
    if mutant:
        env[ENV] = mutant
    command = [
        sys.executable, "-m", "pytest", "-v", "-x", "-p", "no:cacheprovider", "-p", "no:xdist",
        "-p", "benchmarks.mutants", "--jit-diff", "--jit-diff-library", "-m", "jitcheck",
        f"--jit-diff-report={report}", "benchmarks/kernels.py",
    ]  # fmt: skip
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    output = done.stdout + done.stderr
    if done.returncode < 0:  # a signal: compiled code crashed the in-process run
        return 1, _crashed(-done.returncode, output), seconds
    caught = _caught_by(report, output)
    verdict = _bisection(output)
    return done.returncode, caught + (f" [{verdict}]" if caught and verdict else ""), seconds


_GUILTY = re.compile(
    r"disagreement introduced by pass `([^`]+)` \(IR diff below; (IR interpreter|bisected)"
)


def _bisection(output: str) -> str:
    """What the guilty-pass search said about the first failure, in a few words."""
    match = _GUILTY.search(output)
    if match:
        how = "interpreter" if match.group(2) == "IR interpreter" else "compiling"
        return f"pass `{match.group(1)}` named by {how}"
    if "comes from lowering, code generation or LLVM" in output:
        return "no pass to blame: below the typed IR"
    return ""


def _crashed(signum: int, output: str) -> str:
    """What a run that a crash ended was checking: the last item `-v` announced."""
    items = re.findall(r"^(\S+::\S+)", output, re.MULTILINE)
    where = items[-1] if items else "an unknown item"
    return f"{where}: compiled code crashed the test run ({signal.Signals(signum).name})"


def _caught_by(report: Path, output: str) -> str:
    try:
        functions = json.loads(report.read_text())["functions"]
    except (OSError, ValueError, KeyError):
        return output.strip().splitlines()[-1] if output.strip() else "no output"
    failed = [f for f in functions.values() if f["outcome"] in ("failed", "error")]
    if not failed:
        return ""
    first = failed[0]
    return f"{first['name']}: {first['reason'][:90]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", help="run only these mutants")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once")
    parser.add_argument(
        "--skip-control", action="store_true", help="do not run the control (no mutant) first"
    )
    args = parser.parse_args(argv)
    by_name = {m.name: m for m in MUTANTS}
    chosen = [by_name[name] for name in args.only] if args.only else list(MUTANTS)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        if not args.skip_control:
            code, why, seconds = run_check(None, workdir)
            print(f"control (no mutant): exit {code} in {seconds:.0f} s {why}", flush=True)
            if code != 0:
                print("the control run must pass: fix that first")
                return 2

        def one(mutant: Mutant) -> tuple[Mutant, int, str, float]:
            code, why, seconds = run_check(mutant.name, workdir)
            print(f"  {mutant.name}: exit {code} in {seconds:.0f} s {why}", flush=True)
            return mutant, code, why, seconds

        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(one, chosen))
    killed = 0
    print("\n| mutant | kind | verdict | caught by |\n|---|---|---|---|")
    for mutant, code, why, seconds in results:
        verdict = {0: "survived", 1: "killed"}.get(code, f"error (exit {code})")
        killed += code == 1
        print(f"| {mutant.name} | {mutant.kind} | {verdict} ({seconds:.0f} s) | {why} |")
    rate = killed / len(results) if results else 0.0
    print(f"\nkilled {killed} of {len(results)} ({rate:.0%}; goal {GOAL:.0%})")
    return 0 if rate >= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
