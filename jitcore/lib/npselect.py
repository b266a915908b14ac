"""Selecting and locating elements: rules for NumPy functions that pick elements by index, by
condition or by set membership (filled in by the functions that follow; each rule's docstring
names the NumPy function and what differs)."""

from __future__ import annotations
