"""The cache never breaks: damaged entries, odd files where entries, locks or directories should
be, and a cache missing part of a dependency chain all end in a warning and a correct result,
never an exception, a hang, a crash or a wrong value."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from jitcore import cache, cached, cli, jit
from jitcore.argtypes import parse_signature


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    directory = tmp_path / "cache"
    monkeypatch.setenv("JITCORE_CACHE_DIR", str(directory))
    cache._warned_directories.clear()
    yield directory
    cache._warned_directories.clear()


def _kernel():  # noqa: ANN202 - a fresh dispatcher per test
    def poly(x: float) -> float:
        return x * x + 3.0

    return jit(cache=True, mode="compiled")(poly)


def _entry_path(f: object, sig: str = "f64") -> Path:
    directory = cache.default_directory()
    return cache.entry_path(directory, cached.key_of(f, parse_signature(sig)))  # type: ignore[arg-type]


def test_every_sampled_byte_flip_is_detected(cache_dir: Path) -> None:
    f = _kernel()
    assert f(2.0) == 7.0
    path = _entry_path(f)
    data = path.read_bytes()
    key = path.name[: -len(cache.SUFFIX)]
    positions = random.Random(0).sample(range(len(data)), min(500, len(data)))
    for position in [*range(min(len(data), 200)), *positions]:
        damaged = bytearray(data)
        damaged[position] ^= 1 << (position % 8)
        path.write_bytes(bytes(damaged))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert cache.load(cache_dir, key) is None, f"flip at byte {position} not detected"
        assert any("damaged entry" in str(w.message) for w in caught)
    path.write_bytes(data)
    assert cache.load(cache_dir, key) is not None


def test_a_damaged_header_field_cannot_change_the_result(cache_dir: Path) -> None:
    f = _kernel()
    f(2.0)
    path = _entry_path(f)
    data = path.read_bytes()
    path.write_bytes(data.replace(b'"return_type": "f64"', b'"return_type": "i64"'))
    g = _kernel()
    with pytest.warns(cache.CacheWarning, match="damaged entry"):
        assert g(2.0) == 7.0
    assert not g.stats().cache_hit


def _odd_entry(kind: str, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink-to-dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "directory":
        path.mkdir()


@pytest.mark.parametrize("kind", ["fifo", "symlink-to-dev-zero", "directory"])
def test_an_odd_entry_file_warns_and_compiles(cache_dir: Path, kind: str) -> None:
    f = _kernel()
    f(2.0)
    path = _entry_path(f)
    _odd_entry(kind, path)
    g = _kernel()
    with pytest.warns(cache.CacheWarning):
        assert g(2.0) == 7.0  # a FIFO would hang here if it were opened for blocking reads


def test_a_symlink_into_the_users_own_cache_is_not_followed(cache_dir: Path) -> None:
    f = _kernel()
    f(2.0)
    path = _entry_path(f)
    real = path.with_name("elsewhere" + cache.SUFFIX)
    path.rename(real)
    path.symlink_to(real)
    if os.getuid() == 0:
        os.lchown(path, 65534, 65534)  # a symlink another user planted
    g = _kernel()
    with pytest.warns(cache.CacheWarning, match="symbolic link"):
        assert g(2.0) == 7.0
    assert not g.stats().cache_hit


def test_a_lock_path_that_is_a_directory(cache_dir: Path) -> None:
    f = _kernel()
    key = cached.key_of(f, parse_signature("f64"))
    (cache_dir / key[:2] / f"{key}.lock").mkdir(parents=True)
    with pytest.warns(cache.CacheWarning, match="lock"):
        assert f(2.0) == 7.0


def test_a_key_subdirectory_replaced_by_a_file(cache_dir: Path) -> None:
    f = _kernel()
    key = cached.key_of(f, parse_signature("f64"))
    cache_dir.mkdir(mode=0o700)
    (cache_dir / key[:2]).write_text("not a directory")
    with pytest.warns(cache.CacheWarning, match="not a directory"):
        assert f(2.0) == 7.0


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to chown")
def test_a_key_subdirectory_of_another_user(cache_dir: Path) -> None:
    f = _kernel()
    key = cached.key_of(f, parse_signature("f64"))
    sub = cache_dir / key[:2]
    sub.mkdir(parents=True)
    cache_dir.chmod(0o700)
    os.chown(sub, 65534, 65534)
    with pytest.warns(cache.CacheWarning, match="another user"):
        assert f(2.0) == 7.0


def test_clear_removes_stale_temporary_files(cache_dir: Path) -> None:
    f = _kernel()
    f(2.0)
    sub = _entry_path(f).parent
    stale = sub / f"{cache.TMP_PREFIX}killed{cache.SUFFIX}"
    fresh = sub / f"{cache.TMP_PREFIX}writing{cache.SUFFIX}"
    stale.write_bytes(b"partial")
    fresh.write_bytes(b"partial")
    old = time.time() - cache.STALE_TMP_SECONDS - 60
    os.utime(stale, (old, old))
    assert cli.main(["cache", "clear", "--older-than", "7", "--dir", str(cache_dir)]) == 0
    assert not stale.exists() and fresh.exists()


CHAIN = """
import numpy as np
from jitcore import jit

@jit(cache=True, mode="compiled")
def middle(x):
    return np.sum(np.full(3, x)) * 2.0  # np.sum's kernel calls NumPy's pairwise summation

@jit(cache=True, mode="compiled")
def outer(x):
    return middle(x) - 1.0

@jit(cache=True, mode="compiled")
def other(x):
    return middle(x) + 10.0
"""


def _run_chain(root: Path, expression: str) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))
    env["JITCORE_CACHE_DIR"] = str(root / "cache")
    done = subprocess.run(
        [sys.executable, "-c", f"import chain; print({expression})"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_cached_callee_whose_own_callee_has_no_entry(tmp_path: Path) -> None:
    """The entry of `pairwise_sum` (called by `sum_flat`, called by `middle`) is gone (cleared,
    or never written): a new caller of the cached `middle` still compiles, and so does every
    later process."""
    (tmp_path / "chain.py").write_text(CHAIN)
    assert _run_chain(tmp_path, "chain.outer(1.0)") == "5.0"
    removed = [
        p for p, h in cache.entries(tmp_path / "cache") if h and h["qualname"] == "pairwise_sum"
    ]
    assert len(removed) == 1
    removed[0].unlink()
    assert _run_chain(tmp_path, "chain.other(1.0)") == "16.0"
    assert _run_chain(tmp_path, "chain.other(1.0), chain.outer(2.0)") == "16.0 11.0"
