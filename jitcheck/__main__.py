"""Command line: compare two reports, or validate one against the schema.

    python -m jitcheck compare OLD.json NEW.json [--max-regression 10%]
    python -m jitcheck validate REPORT.json
    python -m jitcheck fuzz --minutes N [--seed S] [--out DIR]

`compare` prints what `--jit-diff-baseline` prints and exits 1 when a speedup fell by more
than the threshold (2 when a file is not a readable report); `validate` exits 1 if the report
does not match `jitcheck/report.schema.json`; `fuzz` compiles random programs and compares
them with Python (`jitcheck.fuzz.cli`), exiting 1 when it found a disagreement.
"""

from __future__ import annotations

import argparse
import json
import sys

from jitcheck.baseline import compare_reports, comparison_lines
from jitcheck.fuzz import cli as fuzz_cli
from jitcheck.report_json import load_report
from jitcheck.schema import validate
from jitcheck.settings import DEFAULT_MAX_REGRESSION, parse_threshold


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jitcheck", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    compare = commands.add_parser("compare", help="compare speedups of NEW with those of OLD")
    compare.add_argument("old", metavar="OLD.json")
    compare.add_argument("new", metavar="NEW.json")
    compare.add_argument(
        "--max-regression",
        default=f"{DEFAULT_MAX_REGRESSION:.0%}",
        metavar="[STAT:]PCT",
        help="largest allowed worsening, e.g. 10%% (minimums) or median:10%% "
        "(default %(default)s)",
    )
    compare.add_argument(
        "--allow-missing",
        action="store_true",
        help="pass even when a timing of OLD is missing from NEW",
    )
    check = commands.add_parser("validate", help="check a report against the JSON schema")
    check.add_argument("report", metavar="REPORT.json")
    fuzz_cli.add_parser(commands)
    args = parser.parse_args(argv)
    if args.command == "fuzz":
        return fuzz_cli.run(args)
    if args.command == "compare":
        return _compare(args.old, args.new, args.max_regression, args.allow_missing)
    return _validate(args.report)


def _compare(old_path: str, new_path: str, threshold: str, allow_missing: bool) -> int:
    try:
        old, new = load_report(old_path), load_report(new_path)
        stat, max_regression = parse_threshold(threshold)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    comparison = compare_reports(old, new, max_regression, allow_missing, stat)
    print("\n".join(comparison_lines(comparison, old_path)))
    return 1 if comparison.failed else 0


def _validate(path: str) -> int:
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    errors = validate(report)
    for error in errors:
        print(error)
    print(f"{path}: {'invalid' if errors else 'valid'} jitcheck report")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
