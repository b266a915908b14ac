"""`python -m jitcheck fuzz`: the command line of a fuzzing campaign.

    python -m jitcheck fuzz --minutes 10 [--seed 3] [--out reports/fuzz]

prints one line of counts per minute, each finding shrunk (with the regression test written
for it), and at the end the rejection rate with the top reasons; exits 1 when there was a
finding, 0 otherwise. `campaign.json` in the output directory keeps every number.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

DEFAULT_OUT = os.path.join("reports", "fuzz")
TOP_REASONS = 8


def add_parser(commands: Any) -> None:
    """Add the `fuzz` subcommand to `python -m jitcheck`'s subparsers."""
    fuzz = commands.add_parser("fuzz", help="compile random programs and compare them with Python")
    budget = fuzz.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=float, default=1.0, help="how long (default 1)")
    budget.add_argument("--seconds", type=float, help="how long, in seconds")
    fuzz.add_argument("--seed", type=int, default=0, help="seed of the first batch (default 0)")
    fuzz.add_argument(
        "--out", default=DEFAULT_OUT, help="where regression tests go (default %(default)s)"
    )
    fuzz.add_argument("--max-programs", type=int, help="stop after this many programs")
    fuzz.add_argument(
        "--preload",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE in the compiling process first (e.g. to plant a compiler bug)",
    )


def run(args: argparse.Namespace) -> int:
    from jitcheck.fuzz.campaign import Campaign, Options

    seconds = args.seconds if args.seconds is not None else args.minutes * 60.0
    options = Options(
        seconds=seconds,
        seed=args.seed,
        out=args.out,
        max_programs=args.max_programs,
        preload=args.preload,
    )
    stats = Campaign(options, log=lambda line: print(line, flush=True)).run()
    print(summary(stats, args.out))
    return 1 if stats.findings else 0


def summary(stats: Any, out: str) -> str:
    """The closing lines: counts, rejection rate and reasons, findings."""
    lines = [
        f"{stats.programs} programs in {stats.seconds:g} s: {stats.compiled} compiled and "
        f"compared ({stats.examples} inputs agreed, {stats.out_of_domain} out of the compiled "
        f"domain), {stats.rejected} rejected ({stats.rejection_rate:.1%}), "
        f"{stats.findings} findings",
    ]
    if stats.reasons:
        lines.append("top rejection reasons:")
        for reason, n in stats.reasons.most_common(TOP_REASONS):
            lines.append(f"  {n:6d}  {reason}")
    if stats.signatures:
        lines.append("findings:")
        for signature, n in stats.signatures.most_common():
            lines.append(f"  {n:6d}  {signature}")
    for w in stats.written:
        lines.append(f"regression test: {w.path}")
    lines.append(f"counts: {os.path.join(out, 'campaign.json')}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jitcheck.fuzz.cli")
    add_parser(parser.add_subparsers(dest="command", required=True))
    return run(parser.parse_args(["fuzz", *(sys.argv[1:] if argv is None else argv)]))


if __name__ == "__main__":
    raise SystemExit(main())
