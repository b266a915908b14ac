"""The JSON Schema of the report, and a small validator for the part of JSON Schema it uses.

jitcheck depends on nothing beyond pytest, Hypothesis, pytest-benchmark and NumPy, so rather
than `jsonschema` this module validates the keywords `report.schema.json` uses: `$ref` (local),
`type`, `enum`, `const`, `properties`, `required`, `additionalProperties`, `items`, `minimum`
and `maximum`. Any other validation keyword raises, so the schema cannot silently grow a rule
that goes unchecked.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

_ANNOTATIONS = {"$schema", "$id", "$defs", "title", "description"}
_TYPES: dict[str, Any] = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


def report_schema() -> dict[str, Any]:
    """The JSON Schema of jitcheck reports, as shipped in the package."""
    text = resources.files("jitcheck").joinpath("report.schema.json").read_text("utf-8")
    return json.loads(text)


def validate(instance: Any, schema: dict[str, Any] | None = None) -> list[str]:
    """Every way `instance` breaks `schema` (default: the report schema), as
    `$.path: problem` lines; empty if it is valid."""
    validator = _Validator(report_schema() if schema is None else schema)
    validator.check(instance, validator.root, "$")
    return validator.errors


class _Validator:
    """Walks an instance and a schema together, collecting errors (keywords apply to the
    JSON types they are about: `required` only to objects, `minimum` only to numbers)."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.errors: list[str] = []

    def check(self, value: Any, schema: dict[str, Any], path: str) -> None:
        unknown = set(schema) - _ANNOTATIONS - set(_KEYWORDS)
        if unknown:
            raise ValueError(f"{path}: the validator does not implement {sorted(unknown)}")
        for keyword in _KEYWORDS:
            if keyword in schema:
                getattr(self, _KEYWORDS[keyword])(value, schema[keyword], schema, path)

    def ref(self, value: Any, ref: str, schema: dict[str, Any], path: str) -> None:
        if not ref.startswith("#/"):
            raise ValueError(f"{path}: only local references are supported, not {ref!r}")
        target: Any = self.root
        for part in ref[2:].split("/"):
            target = target[part]
        self.check(value, target, path)

    def type(self, value: Any, expected: str | list[str], schema: dict, path: str) -> None:
        names = [expected] if isinstance(expected, str) else expected
        if not any(_is_type(value, name) for name in names):
            self.errors.append(f"{path}: {_describe(value)} is not of type {' or '.join(names)}")

    def enum(self, value: Any, options: list[Any], schema: dict, path: str) -> None:
        if value not in options:
            self.errors.append(f"{path}: {_describe(value)} is not one of {options}")

    def const(self, value: Any, expected: Any, schema: dict, path: str) -> None:
        if value != expected or type(value) is not type(expected):
            self.errors.append(f"{path}: {_describe(value)} is not {expected!r}")

    def properties(self, value: Any, props: dict[str, Any], schema: dict, path: str) -> None:
        if isinstance(value, dict):
            for name, sub in props.items():
                if name in value:
                    self.check(value[name], sub, f"{path}.{name}")

    def required(self, value: Any, names: list[str], schema: dict, path: str) -> None:
        if isinstance(value, dict):
            missing = [n for n in names if n not in value]
            self.errors.extend(f"{path}: missing required property {n!r}" for n in missing)

    def additional(self, value: Any, extra: bool | dict, schema: dict, path: str) -> None:
        if not isinstance(value, dict):
            return
        for name in sorted(set(value) - set(schema.get("properties", {}))):
            if extra is False:
                self.errors.append(f"{path}: unexpected property {name!r}")
            elif isinstance(extra, dict):
                self.check(value[name], extra, f"{path}.{name}")

    def items(self, value: Any, sub: dict[str, Any], schema: dict, path: str) -> None:
        if isinstance(value, list):
            for i, item in enumerate(value):
                self.check(item, sub, f"{path}[{i}]")

    def minimum(self, value: Any, bound: float, schema: dict, path: str) -> None:
        if _is_type(value, "number") and value < bound:
            self.errors.append(f"{path}: {value!r} is less than the minimum {bound!r}")

    def maximum(self, value: Any, bound: float, schema: dict, path: str) -> None:
        if _is_type(value, "number") and value > bound:
            self.errors.append(f"{path}: {value!r} is more than the maximum {bound!r}")


_KEYWORDS = {  # JSON Schema keyword -> _Validator method
    "$ref": "ref",
    "type": "type",
    "enum": "enum",
    "const": "const",
    "properties": "properties",
    "required": "required",
    "additionalProperties": "additional",
    "items": "items",
    "minimum": "minimum",
    "maximum": "maximum",
}


def _is_type(value: Any, name: str) -> bool:
    if name in ("integer", "number"):
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (name == "number" and isinstance(value, float))
    return isinstance(value, _TYPES[name])


def _describe(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, dict | list) else type(value).__name__
    return text if len(text) < 60 else text[:57] + "..."
