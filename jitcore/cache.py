"""The on-disk compile cache: safe for parallel workers, private, and never stale.

An entry is one file, `<dir>/<key[:2]>/<key>.jitcore`: a magic line, a JSON header (what was
compiled, the symbols it defines and calls, a SHA-256 of the object code) and the object code.

* The key (`function_key`) covers everything the machine code depends on: the function's source,
  the values of the globals and closure variables it reads, the keys of the jitted functions it
  calls, the signature, the options, jitcore's own source, the LLVM, Python and NumPy versions,
  and the host CPU's name and features. Nothing comes from file timestamps.
* Writes go to a temporary file in the same directory and are renamed into place, under a lock
  file per key, so eight processes compiling one function leave one valid entry (and all but one
  load it instead of compiling).
* A truncated or corrupt entry fails its checksum: a warning, a recompile, and the entry is
  rewritten. The directory is created private (0700); entries owned by another user are never
  loaded: object code is executable code. An unusable directory gives one warning and the
  function runs uncached.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import marshal
import os
import sys
import tempfile
import time
import types
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import llvmlite
import llvmlite.binding as llvm
import numpy as np

from jitcore.llvm_opt import host_cpu
from jitcore.options import cache_directory_from_env

MAGIC = b"JITCORE-CACHE 1\n"
SUFFIX = ".jitcore"
FORMAT_VERSION = 1


class CacheWarning(UserWarning):
    """The compile cache could not be used for an entry or at all; compilation goes on."""


def default_directory() -> Path:
    """`$JITCORE_CACHE_DIR`, else `$XDG_CACHE_HOME/jitcore`, else `~/.cache/jitcore`."""
    configured = cache_directory_from_env()
    if configured:
        return Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "jitcore"


_warned_directories: set[str] = set()


def _warn_once(directory: Path, message: str) -> None:
    if str(directory) not in _warned_directories:
        _warned_directories.add(str(directory))
        warnings.warn(
            f"jitcore cache: {message}; compiling without the cache", CacheWarning, stacklevel=4
        )


def is_private_directory(directory: Path) -> bool:
    """The directory exists, belongs to this user, only this user can write it, and it is
    writable: the same conditions as `usable_directory`, checked without creating or warning."""
    try:
        info = directory.stat()
    except OSError:
        return False
    owner_ok = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return owner_ok and not info.st_mode & 0o022 and os.access(directory, os.W_OK | os.X_OK)


def usable_directory(directory: Path) -> bool:
    """Create the directory privately if needed; refuse one that others can write or own."""
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = directory.stat()
    except OSError as exc:
        _warn_once(directory, f"cannot create {directory} ({exc.strerror})")
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        _warn_once(directory, f"{directory} belongs to another user")
        return False
    if info.st_mode & 0o022:
        _warn_once(directory, f"{directory} is writable by other users")
        return False
    if not os.access(directory, os.W_OK | os.X_OK):
        _warn_once(directory, f"{directory} is not writable")
        return False
    return True


# --- keys ---------------------------------------------------------------------------------


@functools.cache
def environment_fingerprint() -> str:
    """What every key shares: jitcore's own code, LLVM/Python/NumPy versions, the host CPU."""
    digest = hashlib.sha256()
    package = Path(__file__).parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    cpu, features = host_cpu()
    for part in (
        llvmlite.__version__,
        str(llvm.llvm_version_info),
        sys.version,
        np.__version__,
        cpu,
        features,
        str(FORMAT_VERSION),
    ):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def function_key(dispatcher: object, signature: str) -> str:
    """The cache key of one specialization."""
    digest = hashlib.sha256()
    for part in (
        environment_fingerprint(),
        source_key(dispatcher),
        signature,
        _options_text(dispatcher.options),  # type: ignore[attr-defined]
    ):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _options_text(options: object) -> str:
    fields = ("opt", "boundscheck", "fastmath", "disable_passes")
    return ";".join(
        f"{f}={sorted(v) if isinstance(v := getattr(options, f), frozenset) else v}"
        for f in fields
    )


def source_key(dispatcher: object, _visiting: frozenset[int] = frozenset()) -> str:
    """A hash of the function's source and of every value its free names refer to (for jitted
    callees, their own source keys, recursively; a cycle contributes its name only)."""
    func = dispatcher.py_func  # type: ignore[attr-defined]
    digest = hashlib.sha256()
    digest.update(f"{func.__module__}.{func.__qualname__}".encode())
    # The code object stands for the source: any edit that changes behaviour changes it (and
    # marshalling it is far cheaper than reading the source back).
    digest.update(marshal.dumps(func.__code__))
    visiting = _visiting | {id(dispatcher)}
    for name, value in sorted(_free_values(func).items()):
        digest.update(name.encode())
        digest.update(_value_key(value, visiting).encode())
    if func.__defaults__:
        digest.update(repr(func.__defaults__).encode())
    return digest.hexdigest()


def _free_values(func: types.FunctionType) -> dict[str, object]:
    """The globals, builtins and closure variables the function's code can read."""
    names = set(_code_names(func.__code__))
    out: dict[str, object] = {}
    if func.__closure__:
        for name, cell in zip(func.__code__.co_freevars, func.__closure__):
            with contextlib.suppress(ValueError):
                out[name] = cell.cell_contents
    for name in names:
        if name in func.__globals__:
            out[name] = func.__globals__[name]
    return out


def _code_names(code: types.CodeType) -> Iterator[str]:
    yield from code.co_names
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_names(const)


def _value_key(value: object, visiting: frozenset[int]) -> str:
    if getattr(value, "__jitcore_dispatcher__", False) is True:
        if id(value) in visiting:
            return f"recursive:{value.py_func.__qualname__}"  # type: ignore[attr-defined]
        return "jit:" + source_key(value, visiting)
    if isinstance(value, types.ModuleType):
        return f"module:{value.__name__}"
    if isinstance(value, int | float | complex | bool | str | bytes | type(None)):
        return f"{type(value).__name__}:{value!r}"
    if isinstance(value, tuple):
        return "(" + ",".join(_value_key(v, visiting) for v in value) + ")"
    if isinstance(value, types.FunctionType | types.BuiltinFunctionType | type):
        module, name = getattr(value, "__module__", ""), getattr(value, "__qualname__", "")
        return f"{type(value).__name__}:{module}.{name}"
    if isinstance(value, np.generic | np.dtype):
        return f"numpy:{value!r}"
    return f"object:{type(value).__qualname__}"


# --- entries ------------------------------------------------------------------------------


@dataclass
class Entry:
    header: dict
    object_code: bytes
    path: Path


def entry_path(directory: Path, key: str) -> Path:
    return directory / key[:2] / f"{key}{SUFFIX}"


@contextlib.contextmanager
def locked(directory: Path, key: str) -> Iterator[None]:
    """An exclusive lock for one key across processes (a no-op where fcntl is missing)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    path = directory / key[:2] / f"{key}.lock"
    path.parent.mkdir(mode=0o700, exist_ok=True)
    with open(path, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def load(directory: Path, key: str) -> Entry | None:
    """The entry for `key`, or None if absent. A damaged or foreign entry warns and is None."""
    path = entry_path(directory, key)
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        warnings.warn(
            f"jitcore cache: ignoring {path}: it belongs to another user",
            CacheWarning,
            stacklevel=3,
        )
        return None
    try:
        data = path.read_bytes()
        return _decode(data, path, key)
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
        warnings.warn(
            f"jitcore cache: ignoring damaged entry {path} ({exc}); recompiling",
            CacheWarning,
            stacklevel=3,
        )
        return None


def _decode(data: bytes, path: Path, key: str) -> Entry:
    if not data.startswith(MAGIC):
        raise ValueError("not a jitcore cache entry")
    rest = data[len(MAGIC) :]
    newline = rest.index(b"\n")
    header = json.loads(rest[:newline])
    object_code = rest[newline + 1 :]
    if header.get("format") != FORMAT_VERSION or header.get("key") != key:
        raise ValueError("entry of another format or key")
    if len(object_code) != header["object_size"]:
        raise ValueError("truncated object code")
    if hashlib.sha256(object_code).hexdigest() != header["object_sha256"]:
        raise ValueError("checksum mismatch")
    return Entry(header, object_code, path)


def store(directory: Path, key: str, header: dict, object_code: bytes) -> Path | None:
    """Write an entry atomically (temporary file, then rename); None if the directory refused."""
    header = {
        **header,
        "format": FORMAT_VERSION,
        "key": key,
        "object_size": len(object_code),
        "object_sha256": hashlib.sha256(object_code).hexdigest(),
        "created": time.time(),
    }
    path = entry_path(directory, key)
    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=SUFFIX)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(
                    MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + object_code
                )
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:
        _warn_once(directory, f"cannot write to {directory} ({exc.strerror})")
        return None
    return path


# --- management (the `jitcore cache` command) ---------------------------------------------


def entries(directory: Path) -> Iterator[tuple[Path, dict | None]]:
    """Every entry file with its header (None when unreadable)."""
    if not directory.is_dir():
        return
    for path in sorted(directory.glob(f"*/*{SUFFIX}")):
        if path.name.startswith(".tmp-"):
            continue
        try:
            with open(path, "rb") as handle:
                head = handle.read(len(MAGIC))
                header = json.loads(handle.readline()) if head == MAGIC else None
        except (OSError, ValueError):
            header = None
        yield path, header


def clear(directory: Path, older_than_days: float | None = None) -> int:
    """Delete entries (those older than the given age only); return how many."""
    removed = 0
    cutoff = time.time() - older_than_days * 86400 if older_than_days is not None else None
    for path, _header in list(entries(directory)):
        if cutoff is not None and path.stat().st_mtime >= cutoff:
            continue
        with contextlib.suppress(OSError):
            path.unlink()
            removed += 1
    for lock in directory.glob("*/*.lock") if directory.is_dir() else ():
        if cutoff is None:
            with contextlib.suppress(OSError):
                lock.unlink()
    return removed
