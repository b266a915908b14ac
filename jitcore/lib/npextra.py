"""NumPy splitting (`split`, `array_split`, `hsplit`, `vsplit`, `dsplit`), `broadcast_arrays`,
NaN-aware order statistics, `angle` and more of `np.linalg` (filled in by the functions that
follow; each rule's docstring names the NumPy function and what differs)."""

from __future__ import annotations
