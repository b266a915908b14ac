"""Strings beyond comparison: indexing and slicing, iteration, methods, `str()` of numbers and
formatting (filled in by the functions that follow; each rule's docstring names the Python
operation and what differs)."""

from __future__ import annotations
