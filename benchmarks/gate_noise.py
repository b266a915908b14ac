"""The gate's noise experiment (#19): two back-to-back timed runs of unchanged code must
report no regression, while a planted slowdown of one kernel must be reported.

    python -m benchmarks.gate_noise [--repeats 5] [--hogs 1] [--slow KERNEL:N] [--max-time S]

Each repeat times the bundled kernels and README examples twice with `pytest --jit-diff
--jit-diff-bench` (the second run gated on the first with `--jit-diff-baseline` and the
default 10% threshold). Without `--slow` the code is the same in both runs: any regression
is a false alarm. With `--slow KERNEL:N` the second run plants `benchmarks.slowdown` (a
registered pass adding redundant work to KERNEL): the gate must name it. `--hogs` busy-loop
processes run beside the whole experiment (a loaded machine). Prints each repeat's
regressions and noise level, then the tally.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.slowdown import ENV as SLOW_ENV

ROOT = Path(__file__).resolve().parents[1]


def timed_run(report: Path, baseline: Path | None, slow: str | None, max_time: float) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JITCORE_")}
    env |= {"CI": "true", "PYTHONPATH": str(ROOT)}
    env.pop(SLOW_ENV, None)
    if slow:
        env[SLOW_ENV] = slow
    command = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
        "-p", "benchmarks.slowdown", "--jit-diff", "--jit-diff-bench", "-m", "jitcheck",
        "--jit-diff-max-examples=5", f"--benchmark-max-time={max_time}",
        f"--jit-diff-report={report}", "benchmarks/kernels.py",
    ]  # fmt: skip
    if baseline is not None:
        command.append(f"--jit-diff-baseline={baseline}")
    subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    return json.loads(report.read_text())


def _hogs(count: int) -> list[subprocess.Popen[bytes]]:
    loop = "while True: pass"
    return [subprocess.Popen([sys.executable, "-c", loop]) for _ in range(count)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--hogs", type=int, default=1, help="busy-loop processes beside it")
    parser.add_argument("--slow", help="KERNEL:N: plant N redundant additions in KERNEL")
    parser.add_argument("--max-time", type=float, default=0.3, help="--benchmark-max-time")
    args = parser.parse_args(argv)
    hogs = _hogs(args.hogs)
    tally = 0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for repeat in range(1, args.repeats + 1):
                base, new = Path(tmp) / f"base{repeat}.json", Path(tmp) / f"new{repeat}.json"
                timed_run(base, None, None, args.max_time)
                report = timed_run(new, base, args.slow, args.max_time)
                tally += _show(repeat, report, args.slow)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    goal = "slowdown reported" if args.slow else "no regression"
    print(f"{goal} in {tally} of {args.repeats} repeats ({args.hogs} CPU hog(s) running)")
    return 0 if tally == args.repeats else 1


def _show(repeat: int, report: dict[str, Any], slow: str | None) -> bool:
    gate = report.get("baseline") or {}
    found = [f"{c['function']} [{c['mode']}] {c['kind']} {c['change']:+.0%}"
             for c in gate.get("regressions", [])]  # fmt: skip
    noise = gate.get("noise")
    retimed = sum(f.get("retimed", 0) for f in report["functions"].values())
    print(f"repeat {repeat}: {len(found)} regression(s), {len(gate.get('missing', []))} "
          f"missing, noise level {noise if noise is None else f'{noise:.1%}'}, "
          f"{retimed} timing(s) repeated: {'; '.join(found) or '-'}", flush=True)  # fmt: skip
    if not slow:
        return not found and not gate.get("failed")
    kernel = slow.partition(":")[0]
    return any(f.split(" ")[0].rsplit(".", 1)[-1] == kernel for f in found)


if __name__ == "__main__":
    raise SystemExit(main())
