"""The JSON report on disk: written as the schema describes, read back as a baseline.

A baseline is simply an earlier JSON report, so reading one checks that it is a jitcheck
report of the schema version this jitcheck writes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jitcheck.report import SCHEMA_ID, SCHEMA_VERSION


def write_json(report: dict[str, Any], path: str | Path) -> None:
    write_text(path, json.dumps(report, indent=2, sort_keys=False, allow_nan=False) + "\n")


def write_text(path: str | Path, text: str) -> None:
    """Write a report file (any format), creating its directory."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


def load_report(path: str | Path) -> dict[str, Any]:
    """Read a JSON report; ValueError if it is not one (or has another schema version)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("schema") != SCHEMA_ID:
        raise ValueError(f"{path} is not a jitcheck report")
    if data.get("schema_version") != SCHEMA_VERSION:
        raise ValueError(
            f"{path} has schema version {data.get('schema_version')}, "
            f"this jitcheck reads version {SCHEMA_VERSION}"
        )
    return data
