"""Output safety shared by every command: atomic files and folders, run locks, leftover cleanup, checksums.

The rule (docs/guarantees.md): a command replaces only what it owns. A file output never replaces a
directory and never one of the command's inputs; a folder output is staged *beside* its target (same file
system, so the final step is a rename) and swapped in, so a reader sees the old complete folder or the new
complete folder; a crash leaves a staging entry with our prefix and the pid that wrote it, which the next
start removes once that pid is gone.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import fcntl
import hashlib
import json
import os
import re
import shutil
import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from lingualite.core.errors import LinguaLiteError

__all__ = [
    "atomic_dir",
    "atomic_file",
    "atomic_path",
    "check_not_input",
    "clean_leftovers",
    "is_staging_name",
    "exchange_paths",
    "file_sha256",
    "fsync_dir",
    "fsync_tree",
    "rename_new",
    "run_lock",
    "write_json",
    "write_text",
]

# Staging names: ".<target name>.<kind>-<pid>-<random>" (kind: tmp for files, staging for folders, old for a
# folder swapped out); the pid says whether the writer may still be alive.
_LEFTOVER = re.compile(r"^\..+\.(?:tmp|staging|old)-(\d+)-[0-9a-f]{8}$")
# Names left by versions before this rule (tempfile.mkdtemp beside the target, the old export staging).
_LEGACY_LEFTOVER = re.compile(r"^(?:\.step-\d+\.[A-Za-z0-9_]{8}|\.\.export\.[A-Za-z0-9_]{8}|\.export)$")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _stage_name(path: Path, kind: str) -> Path:
    return path.with_name(f".{path.name}.{kind}-{os.getpid()}-{uuid.uuid4().hex[:8]}")


def fsync_dir(path: Path) -> None:
    """Make a rename inside folder ``path`` durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_tree(path: Path) -> None:
    """Flush every file under ``path`` (and the folders) to disk, so a rename after it is crash-safe.

    Files get the mode of a normally created file (``0666 & ~umask``): safetensors writes 0600, which left
    ``model.safetensors`` unreadable to a container or another user of a shared folder."""
    mode = 0o666 & ~_umask()
    for item in [*sorted(path.rglob("*")), path]:
        if item.is_symlink():
            continue
        if item.is_file():
            os.chmod(item, mode)
        fd = os.open(item, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_not_input(output: str | Path, inputs: Iterable[str | Path]) -> None:
    """Refuse an output that is one of the command's inputs (a run would overwrite what it reads)."""
    output = Path(output)
    for item in inputs:
        item = Path(item)
        if _same_file(output, item) or output.resolve() == item.resolve():
            raise LinguaLiteError(
                f"{output}: the output is also an input ({item}); choose another output path"
            )


@contextlib.contextmanager
def atomic_file(path: str | Path, inputs: Iterable[str | Path] = ()) -> Iterator[Path]:
    """Yield a temporary file path beside ``path``; on success it is flushed and renamed onto ``path``.

    Refuses (before anything is written) a ``path`` that is an existing directory or one of ``inputs``. The
    file gets the permissions of a normally created file (``0666 & ~umask``), not a temp file's 0600.
    """
    path = Path(path)
    if path.is_dir():
        raise LinguaLiteError(
            f"{path}: is a directory; lingualite writes a file here and never replaces a directory "
            "(choose a file name, e.g. inside that folder)"
        )
    check_not_input(path, inputs)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _stage_name(path, "tmp")
    try:
        yield tmp
        if tmp.exists():
            os.chmod(tmp, 0o666 & ~_umask())
            fd = os.open(tmp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        os.replace(tmp, path)
    finally:
        if tmp.is_dir() and not tmp.is_symlink():
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()


_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _renameat2() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6", use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):  # pragma: no cover - not glibc >= 2.28
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


_RENAMEAT2 = _renameat2()


def _rename2(a: Path, b: Path, flag: int) -> bool | None:
    """``renameat2(a, b, flag)``: True done, False refused because ``b`` exists (RENAME_NOREPLACE), None
    where the system cannot."""
    if _RENAMEAT2 is None:  # pragma: no cover
        return None
    rc = _RENAMEAT2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), flag)
    if rc == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):  # pragma: no cover - file system without it
        return None
    if err == errno.EEXIST and flag == _RENAME_NOREPLACE:
        return False
    raise OSError(err, os.strerror(err), str(b))


def exchange_paths(a: Path, b: Path) -> bool:
    """Swap two existing paths in one atomic step (Linux ``renameat2(RENAME_EXCHANGE)``).

    Returns False where the system cannot (then the caller falls back to two renames)."""
    return bool(_rename2(a, b, _RENAME_EXCHANGE))


def rename_new(a: Path, b: Path) -> bool:
    """Rename ``a`` to ``b`` only if nothing is at ``b`` (``RENAME_NOREPLACE``, one atomic step); returns
    False when something is there (an empty folder included, which a plain rename would replace)."""
    done = _rename2(a, b, _RENAME_NOREPLACE)
    if done is not None:
        return done
    if b.exists() or b.is_symlink():  # pragma: no cover - without renameat2: a narrow race remains
        return False
    os.rename(a, b)  # pragma: no cover
    return True  # pragma: no cover


def _swap_in(staging: Path, path: Path, may_replace: Callable[[Path], None] | None) -> None:
    """Put the complete ``staging`` folder at ``path``. Nothing there: one NOREPLACE rename, so a folder
    created at ``path`` meanwhile is never replaced unchecked. Something there: ``may_replace`` checks it
    (raises to refuse), the two are exchanged under the folder's write lock (when it has one) and what was
    swapped out is checked again, exchanged back if it no longer passes (a folder changed between the check
    and the exchange). Afterwards ``staging`` holds the old folder (the caller removes it)."""
    if rename_new(staging, path):
        fsync_dir(path.parent)
        return
    if path.is_symlink() or not path.is_dir():
        raise LinguaLiteError(
            f"{path}: is a file or a symbolic link; lingualite writes a folder here and never replaces either"
        )
    check = may_replace or (lambda _folder: None)
    check(path)
    with run_lock(path, "writer", create=False):
        if exchange_paths(staging, path):
            try:
                check(staging)
            except BaseException:
                exchange_paths(staging, path)
                raise
        else:  # pragma: no cover - two renames; a crash between them leaves the old folder at .old-
            old = _stage_name(path, "old")
            os.replace(path, old)
            os.replace(staging, path)
            os.replace(old, staging)
    fsync_dir(path.parent)


@contextlib.contextmanager
def atomic_dir(path: str | Path, may_replace: Callable[[Path], None] | None = None) -> Iterator[Path]:
    """Yield an empty staging folder beside ``path``; on success it replaces ``path`` in one step.

    An existing folder at ``path`` is swapped out atomically (``RENAME_EXCHANGE``) and then removed, so a
    reader sees the old complete folder or the new one. ``may_replace(folder)`` decides whether an existing
    folder may be replaced (it raises to refuse); it is asked when the staging is swapped in, and again about
    what was swapped out (see :func:`_swap_in`). Without it the caller owns whatever is at ``path`` (a
    checkpoint, a cache inside a run folder): any folder is replaced; an existing *file* never is.
    """
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise LinguaLiteError(f"{path}: is a file; lingualite writes a folder here and never replaces a file")
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = _stage_name(path, "staging")
    staging.mkdir()
    try:
        yield staging
        fsync_tree(staging)
        _swap_in(staging, path, may_replace)
    finally:
        if staging.is_dir() and not staging.is_symlink():
            shutil.rmtree(staging, ignore_errors=True)  # after a swap it holds the old folder


def atomic_path(
    path: str | Path, inputs: Iterable[str | Path] = ()
) -> contextlib.AbstractContextManager[Path]:
    """A file output (see :func:`atomic_file`); folder outputs use :func:`atomic_dir`."""
    return atomic_file(path, inputs)


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def is_staging_name(name: str) -> bool:
    """A name this module gives files and folders while it writes them (``.x.tmp-PID-HEX`` and the like)."""
    return _LEFTOVER.match(name) is not None


def clean_leftovers(
    folder: str | Path, recursive_into: Iterable[str] = (), target: str | None = None, walk: bool = False
) -> list[Path]:
    """Remove staging entries of writers that are gone from ``folder`` (and its sub-folders named in
    ``recursive_into``, e.g. ``checkpoints``, or all of them with ``walk``, for a folder the caller owns);
    returns what was removed. Entries of live pids are kept. ``target``: only the leftovers of that one
    entry of ``folder`` (``.NAME.staging-...``; a writer of ``parent/NAME`` tidies its own, not its
    neighbours')."""
    folder = Path(folder)
    removed: list[Path] = []
    places = [folder, *(folder / name for name in recursive_into)]
    while places:
        place = places.pop()
        if not place.is_dir() or place.is_symlink():
            continue
        for item in place.iterdir():
            if target is not None and not item.name.startswith(f".{target}."):
                continue
            m = _LEFTOVER.match(item.name)
            dead = (m is not None and not _pid_alive(int(m.group(1)))) or _LEGACY_LEFTOVER.match(item.name)
            if not dead:
                if walk and m is None and item.is_dir() and not item.is_symlink():
                    places.append(item)
                continue
            if item.is_dir() and not item.is_symlink():
                shutil.rmtree(item, ignore_errors=True)
            else:
                with contextlib.suppress(FileNotFoundError):
                    item.unlink()
            removed.append(item)
    return removed


LOCK_NAME = ".lingualite.lock"


@contextlib.contextmanager
def run_lock(folder: str | Path, what: str = "run", create: bool = True) -> Iterator[Path | None]:
    """Hold an exclusive ``flock`` on ``folder/.lingualite.lock`` for the duration of a run.

    A second run into the same folder fails at once with an error naming the holder's pid. The lock is the
    kernel's, so it is released when the process dies (``kill -9`` included): no stale lock to remove.
    ``create=False``: only a folder that already has a lock file is locked (yields None otherwise).
    """
    folder = Path(folder)
    lock_path = folder / LOCK_NAME
    if not create and not lock_path.is_file():
        yield None
        return
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o666 & ~_umask())
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "unknown"
            raise LinguaLiteError(
                f"{folder}: another lingualite {what} (pid {holder}) is writing this folder; "
                "wait for it to finish or choose another output"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield lock_path
    finally:
        os.close(fd)  # closing releases the flock


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) atomically."""
    with atomic_file(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_figure(path: str | Path, fig: Any) -> Path:
    """Save a matplotlib figure as PNG (110 dpi) atomically and close it; returns ``path``."""
    with atomic_file(path) as tmp:
        fig.savefig(tmp, format="png", dpi=110)
    import matplotlib.pyplot as plt  # only reached by callers that drew with it

    plt.close(fig)
    return Path(path)


def file_sha256(path: Path) -> str:
    """The sha256 of a file's bytes, read in 1 MiB blocks (exported weights record theirs)."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_json(path: str | Path, obj: Any) -> None:
    """Write ``obj`` as indented JSON, atomically."""
    with atomic_file(path) as tmp:
        tmp.write_text(json.dumps(obj, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
