"""The listing of supported operations has one order, whichever rule module a process imports
first (the README's tables are compared with it)."""

from __future__ import annotations

import subprocess
import sys

from jitcore.lib import catalog


def test_the_listing_does_not_depend_on_import_order() -> None:
    script = (
        "import jitcore.lib.lapack, jitcore.lib.matmul, jitcore.lib.nprandom\n"
        "from jitcore.lib import catalog\n"
        "print(catalog.markdown(), end='')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert out == catalog.markdown()
