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
import dis
import errno
import functools
import hashlib
import json
import marshal
import os
import re
import stat
import sys
import sysconfig
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

MAGIC = b"JITCORE-CACHE 2\n"
SUFFIX = ".jitcore"
FORMAT_VERSION = 2
TMP_PREFIX = ".tmp-"
STALE_TMP_SECONDS = 600  # a writer that has not renamed its file by then was killed


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


def warn_once(directory: Path, message: str) -> None:
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
        warn_once(directory, f"cannot create {directory} ({exc.strerror})")
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        warn_once(directory, f"{directory} belongs to another user")
        return False
    if info.st_mode & 0o022:
        warn_once(directory, f"{directory} is writable by other users")
        return False
    if not os.access(directory, os.W_OK | os.X_OK):
        warn_once(directory, f"{directory} is not writable")
        return False
    return True


# --- keys ---------------------------------------------------------------------------------


@functools.cache
def environment_fingerprint() -> str:
    """What every key shares: jitcore's own code, LLVM/Python/NumPy versions, the host CPU."""
    digest = hashlib.sha256()
    package = os.path.dirname(os.path.abspath(__file__))
    for name in _source_files(package):
        digest.update(name.encode())
        with open(os.path.join(package, name), "rb") as source:
            digest.update(source.read())
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


def _source_files(package: str) -> list[str]:
    """jitcore's `.py` files, as sorted relative POSIX paths. `os.walk` rather than
    `Path.rglob`: every warm-cache process reads them all (~140), which this halves."""
    names = []
    for root, dirs, files in os.walk(package):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        prefix = os.path.relpath(root, package).replace(os.sep, "/")
        names += [f if prefix == "." else f"{prefix}/{f}" for f in files if f.endswith(".py")]
    return sorted(names)


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
    fields = (
        "opt",
        "boundscheck",
        "wraparound",
        "fastmath",
        "disable_passes",
        "nogil",
        "parallel",
        "prange_body",
        "llvm_bisect_limit",
    )
    return ";".join(
        f"{f}={sorted(v) if isinstance(v := getattr(options, f), frozenset) else v}"
        for f in fields
    )


def source_key(dispatcher: object, _visiting: frozenset[int] = frozenset()) -> str:
    """A hash of the function's code and of every value it reads, however it reaches it: a
    global or closure variable, an attribute chain through modules and classes (`cfg.SCALE`,
    `K.X`, `helpers.g`), a global array (by content), and for jitted callees their own source
    keys, recursively (a cycle contributes its name only). Whatever changes what the compiled
    code does changes the key."""
    func = dispatcher.py_func  # type: ignore[attr-defined]
    visiting = _visiting | {id(dispatcher)}
    key = _code_key(func, visiting)
    frozen = getattr(dispatcher, "_frozen", None)  # functions passed as arguments
    if frozen:
        parts = [f"{n}={_value_key(v, visiting)}" for n, v in sorted(frozen.items())]
        key = hashlib.sha256((key + ";" + ";".join(parts)).encode()).hexdigest()
    return key


def _code_key(func: types.FunctionType, visiting: frozenset[int]) -> str:
    """`source_key` of a Python function (jitted, or a plain one it calls or is given)."""
    digest = hashlib.sha256()
    digest.update(f"{func.__module__}.{func.__qualname__}".encode())
    # The code object stands for the source: any edit that changes behaviour changes it (and
    # marshalling it is far cheaper than reading the source back).
    digest.update(marshal.dumps(func.__code__))
    for chain, value in sorted(_read_values(func).items()):
        digest.update(".".join(chain).encode())
        digest.update(b"=")
        digest.update(_value_key(value, visiting).encode())
        digest.update(b"\0")
    if func.__defaults__:
        digest.update(_value_key(func.__defaults__, visiting).encode())
    if func.__kwdefaults__:
        digest.update(_value_key(tuple(sorted(func.__kwdefaults__.items())), visiting).encode())
    return digest.hexdigest()


_MISSING = object()
_LOADS = {"LOAD_GLOBAL", "LOAD_DEREF", "LOAD_NAME", "LOAD_CLASSDEREF"}
_ATTRIBUTES = {"LOAD_ATTR", "LOAD_METHOD"}


def _read_values(func: types.FunctionType) -> dict[tuple[str, ...], object]:
    """Every name chain the code reads (`("cfg", "SCALE")`, `("np", "sum")`, `("x",)`) with
    the value at each prefix of it, so that both `cfg` and `cfg.SCALE` are in the key."""
    roots: dict[str, object] = {}
    if func.__closure__:
        for name, cell in zip(func.__code__.co_freevars, func.__closure__):
            with contextlib.suppress(ValueError):
                roots[name] = cell.cell_contents
    out: dict[tuple[str, ...], object] = {}
    for chain in _name_chains(func.__code__):
        value = roots.get(chain[0], func.__globals__.get(chain[0], _MISSING))
        if value is _MISSING:
            continue
        out[chain[:1]] = value
        for depth, attr in enumerate(chain[1:], start=2):
            # compiled code reads attributes of modules, classes and other objects (`cfg.scale`
            # of a global instance) as constants: all are in the key
            try:
                value = getattr(value, attr, _MISSING)
            except Exception:  # noqa: BLE001 - a property that raises: not a constant
                break
            if value is _MISSING:
                break
            out[chain[:depth]] = value
    return out


def _name_chains(code: types.CodeType) -> Iterator[tuple[str, ...]]:
    """Names loaded by `code` (and its nested code) with the attribute loads that follow."""
    instructions = list(dis.get_instructions(code))
    for i, instruction in enumerate(instructions):
        if instruction.opname not in _LOADS or not isinstance(instruction.argval, str):
            continue
        chain = [instruction.argval]
        for following in instructions[i + 1 :]:
            if following.opname not in _ATTRIBUTES:
                break
            chain.append(following.argval)
        yield tuple(chain)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _name_chains(const)


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
    if isinstance(value, np.ndarray):
        return _array_key(value)
    if isinstance(value, types.FunctionType) and not _installed(value):
        # a plain function compiled code calls (or is given): its code and what it reads
        # too, or an edit of its body would load the old compiled code
        if id(value) in visiting:
            return f"recursive:{value.__qualname__}"
        return "function:" + _code_key(value, visiting | {id(value)})
    if isinstance(value, types.FunctionType | types.BuiltinFunctionType | type):
        module, name = getattr(value, "__module__", ""), getattr(value, "__qualname__", "")
        return f"{type(value).__name__}:{module}.{name}"
    if isinstance(value, np.generic | np.dtype):
        return f"numpy:{value!r}"
    return f"object:{type(value).__qualname__}"


@functools.cache
def _library_roots() -> tuple[str, ...]:
    """Where installed packages and the standard library live (their versions are in the
    environment fingerprint, or they do not change under a user's edits)."""
    paths = sysconfig.get_paths()
    roots = {os.path.realpath(paths[k]) for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    return tuple(sorted(roots))


def _installed(func: types.FunctionType) -> bool:
    """Whether `func` comes from an installed package or the standard library (NumPy's Python
    functions), which a key need not walk into."""
    filename = func.__code__.co_filename
    if not os.path.isabs(filename):
        return False
    real = os.path.realpath(filename)
    return any(real.startswith(root + os.sep) for root in _library_roots())


def _array_key(a: np.ndarray) -> str:
    """A global array is frozen into the compiled code, so its contents are part of the key."""
    contents = hashlib.sha256(a.tobytes()).hexdigest()
    return f"array:{a.dtype.str}:{a.shape}:{a.strides}:{contents}"


# --- entries ------------------------------------------------------------------------------


@dataclass
class Entry:
    header: dict
    object_code: bytes
    path: Path


class Unusable(OSError):
    """A part of the cache directory is not what jitcore made (a file where a directory should
    be, another user's directory, a special file): this compilation goes without the cache."""


MAX_ENTRY_BYTES = 256 * 1024 * 1024
_SYMBOL = re.compile(r"[A-Za-z0-9_.]{1,400}")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.<>]{0,400}")


def entry_path(directory: Path, key: str) -> Path:
    return directory / key[:2] / f"{key}{SUFFIX}"


def _subdirectory(directory: Path, key: str, create: bool) -> Path:
    """The key's subdirectory, checked: a real directory of this user's (Unusable if not)."""
    sub = directory / key[:2]
    if create:
        try:
            sub.mkdir(mode=0o700)
        except FileExistsError:
            pass
        except OSError as exc:
            raise Unusable(f"cannot create {sub} ({exc.strerror})") from None
    try:
        info = sub.lstat()
    except FileNotFoundError:
        if create:
            raise Unusable(f"cannot create {sub}") from None
        return sub
    if not stat.S_ISDIR(info.st_mode):
        raise Unusable(f"{sub} is not a directory")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise Unusable(f"{sub} belongs to another user")
    return sub


@contextlib.contextmanager
def locked(directory: Path, key: str) -> Iterator[None]:
    """An exclusive lock for one key across processes (a no-op where fcntl is missing).
    Unusable (raised before the block runs) when the lock file cannot be a lock file."""
    try:
        import fcntl  # POSIX only
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    path = _subdirectory(directory, key, create=True) / f"{key}.lock"
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o600)
    except OSError as exc:
        raise Unusable(f"cannot open the lock {path} ({exc.strerror})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Unusable(f"the lock {path} is not a regular file")
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def load(directory: Path, key: str) -> Entry | None:
    """The entry for `key`, or None if absent. A damaged, foreign or odd entry (a symlink, a
    FIFO, a device, an oversized file) warns and is None; nothing in it is trusted before its
    checksum verifies."""
    path = entry_path(directory, key)
    try:
        _subdirectory(directory, key, create=False)
        data = _read_regular_file(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        reason = str(exc) if isinstance(exc, Unusable) else exc.strerror or str(exc)
        warn_once(directory, f"cannot use {path}: {reason}")
        return None
    try:
        return _decode(data, path, key)
    except (ValueError, KeyError, TypeError) as exc:
        warnings.warn(
            f"jitcore cache: ignoring damaged entry {path} ({exc}); recompiling",
            CacheWarning,
            stacklevel=3,
        )
        return None


def _read_regular_file(path: Path) -> bytes:
    """The bytes of `path` if it is a regular file of this user's, not a symlink, of bounded
    size (opened without following links or blocking on a FIFO)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Unusable("it is a symbolic link") from None
        raise
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise Unusable("it is not a regular file")
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            raise Unusable("it belongs to another user")
        if info.st_size > MAX_ENTRY_BYTES:
            raise Unusable(f"it is larger than {MAX_ENTRY_BYTES} bytes")
        return handle.read(MAX_ENTRY_BYTES + 1)


def _decode(data: bytes, path: Path, key: str) -> Entry:
    """Checksum first (it covers header and object code), then the header's shape."""
    if not data.startswith(MAGIC):
        raise ValueError("not a jitcore cache entry")
    rest = data[len(MAGIC) :]
    digest, body = rest[:64], rest[65:]
    if rest[64:65] != b"\n" or hashlib.sha256(body).hexdigest().encode() != digest:
        raise ValueError("checksum mismatch")
    newline = body.index(b"\n")
    header = json.loads(body[:newline])
    object_code = body[newline + 1 :]
    _check_header(header, key, len(object_code))
    return Entry(header, object_code, path)


def _check_header(header: object, key: str, object_size: int) -> None:
    """Every field the loader uses has the type and form a writer gives it."""
    if not isinstance(header, dict):
        raise ValueError("header is not an object")
    if header.get("format") != FORMAT_VERSION or header.get("key") != key:
        raise ValueError("entry of another format or key")
    if header.get("object_size") != object_size:
        raise ValueError("truncated object code")
    if not _SYMBOL.fullmatch(str(header.get("symbol"))):
        raise ValueError("bad symbol")
    for field in ("module", "qualname", "signature", "return_type"):
        if not isinstance(header.get(field, ""), str):
            raise ValueError(f"bad {field}")
    callees = header.get("callees")
    if not isinstance(callees, list):
        raise ValueError("bad callee list")
    for callee in callees:
        if not isinstance(callee, dict) or not _SYMBOL.fullmatch(str(callee.get("symbol"))):
            raise ValueError("bad callee")
        if not all(_NAME.fullmatch(str(callee.get(f))) for f in ("module", "qualname")):
            raise ValueError("bad callee name")
        if not isinstance(callee.get("signature"), str):
            raise ValueError("bad callee signature")


def store(directory: Path, key: str, header: dict, object_code: bytes) -> Path | None:
    """Write an entry atomically (temporary file, then rename); None if the directory refused.
    The checksum covers the header and the object code."""
    header = {
        **header,
        "format": FORMAT_VERSION,
        "key": key,
        "object_size": len(object_code),
        "created": time.time(),
    }
    body = json.dumps(header, sort_keys=True).encode() + b"\n" + object_code
    data = MAGIC + hashlib.sha256(body).hexdigest().encode() + b"\n" + body
    path = entry_path(directory, key)
    try:
        _subdirectory(directory, key, create=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=TMP_PREFIX, suffix=SUFFIX)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:
        warn_once(directory, f"cannot write to {directory} ({exc.strerror or exc})")
        return None
    return path


def read_header(path: Path) -> dict | None:
    """An entry's header for listing, if the entry verifies (None otherwise)."""
    try:
        data = _read_regular_file(path)
        return _decode(data, path, path.name[: -len(SUFFIX)]).header
    except (OSError, ValueError, KeyError, TypeError):
        return None


# --- management (the `jitcore cache` command) ---------------------------------------------


def entries(directory: Path) -> Iterator[tuple[Path, dict | None]]:
    """Every entry file with its header (None when it does not verify)."""
    if not directory.is_dir():
        return
    for path in sorted(directory.glob(f"*/*{SUFFIX}")):
        if path.name.startswith(TMP_PREFIX):
            continue
        yield path, read_header(path)


def clear(directory: Path, older_than_days: float | None = None) -> int:
    """Delete entries (those older than the given age only); return how many. Temporary files
    of writers that were killed before renaming them (older than `STALE_TMP_SECONDS`) and, on
    a full clear, lock files go too."""
    removed = 0
    now = time.time()
    cutoff = now - older_than_days * 86400 if older_than_days is not None else None
    for path, _header in list(entries(directory)):
        with contextlib.suppress(OSError):
            if cutoff is not None and path.lstat().st_mtime >= cutoff:
                continue
            path.unlink()
            removed += 1
    if not directory.is_dir():
        return removed
    for tmp in directory.glob(f"*/{TMP_PREFIX}*"):
        with contextlib.suppress(OSError):
            if tmp.lstat().st_mtime < now - STALE_TMP_SECONDS:
                tmp.unlink()
    if cutoff is None:
        for lock in directory.glob("*/*.lock"):
            with contextlib.suppress(OSError):
                lock.unlink()
    return removed
