"""The `jitcore` command: manage the compile cache, summarize a compile log.

jitcore cache list  [--json]                    function, signature, size, age of each entry
jitcore cache info  [--json]                    directory, number of entries, total size
jitcore cache clear [--older-than DAYS] [--json]
jitcore compile-log FILE [--json]               what a JITCORE_COMPILE_LOG run compiled
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from jitcore import cache, compilelog


def _human_size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"


def _human_age(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f}{unit}"
    return f"{seconds:.0f}s"


def _rows(directory: Path) -> list[dict]:
    now = time.time()
    rows = []
    for path, header in cache.entries(directory):
        info = path.stat()
        header = header or {}
        rows.append(
            {
                "function": f"{header.get('module', '?')}.{header.get('qualname', '?')}",
                "signature": header.get("signature", "?"),
                "size": info.st_size,
                "age_seconds": round(now - info.st_mtime, 1),
                "path": str(path),
                "valid_header": bool(header),
            }
        )
    return rows


def cmd_list(directory: Path, as_json: bool) -> int:
    rows = _rows(directory)
    if as_json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:
        print(f"no entries in {directory}")
        return 0
    width = max(len(r["function"]) for r in rows)
    sig_width = max(len(r["signature"]) for r in rows)
    print(f"{'function':<{width}}  {'signature':<{sig_width}}  {'size':>9}  {'age':>6}")
    for r in rows:
        print(
            f"{r['function']:<{width}}  {r['signature']:<{sig_width}}  "
            f"{_human_size(r['size']):>9}  {_human_age(r['age_seconds']):>6}"
        )
    return 0


def cmd_info(directory: Path, as_json: bool) -> int:
    rows = _rows(directory)
    info = {
        "directory": str(directory),
        "entries": len(rows),
        "total_bytes": sum(r["size"] for r in rows),
    }
    if as_json:
        print(json.dumps(info, indent=2))
    else:
        print(f"directory: {info['directory']}")
        print(f"entries:   {info['entries']}")
        print(f"size:      {_human_size(info['total_bytes'])}")
    return 0


def cmd_clear(directory: Path, older_than: float | None, as_json: bool) -> int:
    removed = cache.clear(directory, older_than)
    if as_json:
        print(json.dumps({"directory": str(directory), "removed": removed}))
    else:
        print(f"removed {removed} entr{'y' if removed == 1 else 'ies'} from {directory}")
    return 0


def cmd_compile_log(path: Path, as_json: bool) -> int:
    summary = compilelog.summarize(path)
    if as_json:
        print(json.dumps(summary, indent=2))
        return 0
    share = summary["compiled"] / max(1, summary["functions"])
    print(
        f"{summary['functions']} functions: {summary['compiled']} compiled ({share:.0%}), "
        f"{summary['rejected']} rejected"
    )
    for error, count in summary["by_error"].items():
        print(f"  {error}: {count}")
    print("most frequent reasons:")
    for reason, count in summary["reasons"]:
        print(f"  {count:4d}  {reason}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="jitcore", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    cache_parser = sub.add_parser("cache", help="manage the compile cache")
    actions = cache_parser.add_subparsers(dest="action", required=True)
    for name, text in (
        ("list", "list entries"),
        ("info", "summarize the cache"),
        ("clear", "delete entries"),
    ):
        p = actions.add_parser(name, help=text)
        p.add_argument("--json", action="store_true", help="machine-readable output")
        p.add_argument(
            "--dir", type=Path, default=None, help="cache directory (default: as jit uses)"
        )
        if name == "clear":
            p.add_argument(
                "--older-than",
                type=float,
                default=None,
                metavar="DAYS",
                help="only entries older than DAYS days",
            )
    log_parser = sub.add_parser("compile-log", help="summarize a JITCORE_COMPILE_LOG file")
    log_parser.add_argument("file", type=Path)
    log_parser.add_argument("--json", action="store_true", help="machine-readable output")
    args = parser.parse_args(argv)
    if args.command == "compile-log":
        return cmd_compile_log(args.file, args.json)
    directory = args.dir or cache.default_directory()
    if args.action == "list":
        return cmd_list(directory, args.json)
    if args.action == "info":
        return cmd_info(directory, args.json)
    return cmd_clear(directory, args.older_than, args.json)


if __name__ == "__main__":
    sys.exit(main())
