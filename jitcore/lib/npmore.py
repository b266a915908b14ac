"""More NumPy creation, splitting, statistics and small products, and array/number methods
(filled in by the functions that follow; each rule's docstring names the NumPy function and
what differs)."""

from __future__ import annotations
