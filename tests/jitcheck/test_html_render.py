"""The HTML report as a browser shows it: headless Chromium renders it, runs its script, and
takes a screenshot (skipped where Chromium is not installed)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.jitcheck.support import FAST_TIMING, run, write_module

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)  # fmt: skip

KERNELS = "\n".join(
    f"@jit\ndef kernel_{i}(x: float, n: int) -> float:\n"
    f"    total = x\n    for i in range(n):\n        total = total * 0.5 + {i}\n    return total\n"
    for i in range(3)
)


def _chromium(page: Path, profile: Path, *args: str) -> str:
    done = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()],  # type: ignore[list-item]
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return done.stdout


@pytest.mark.slow  # child processes: a few seconds
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
def test_chromium_renders_the_report_and_runs_its_script(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    write_module(pytester, "test_render", KERNELS)
    run(
        pytester, "--jit-diff", "--jit-diff-bench", "--jit-diff-modes=O0,fastmath",
        "--jit-diff-max-examples=5", "--jit-diff-report-html=report.html", *FAST_TIMING,
    )  # fmt: skip
    page = pytester.path / "report.html"
    dom = _chromium(page, tmp_path / "profile", "--dump-dom")
    results_columns = 7 + 3  # function ... python, note; a speedup per mode
    compile_columns = 2 + 8 + 2  # function, mode; a stage each; total, cache
    # the script ran: it made every header sortable
    assert dom.count('title="click to sort"') == results_columns + compile_columns
    assert dom.count("<rect") >= 3 * 3 + 3 * 8  # a bar per function and mode, per stage
    shot = tmp_path / "report.png"
    _chromium(page, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1200,900")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
