"""The index folder as readers see it: its identity (a replaced folder is noticed), opening its SQLite store
consistently with that identity, and the errors of a folder that is gone or holds nothing."""

from __future__ import annotations

import os
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.search.store import DB_NAME, DocumentStore

__all__ = ["NO_IDENTITY", "EmptyIndexError", "IndexGoneError", "identity", "open_store"]


class IndexGoneError(LinguaLiteError):
    """The index folder was removed (or is in the middle of being replaced) while it was open."""


class EmptyIndexError(LinguaLiteError):
    """The index holds no documents (built from an empty list, or every document deleted)."""


def identity(path: Path) -> tuple[int, int]:
    """(device, inode) of the index's SQLite file: changes when the folder is replaced."""
    try:
        st = os.stat(path / DB_NAME)
    except OSError as exc:
        raise IndexGoneError(
            f"{path}: the index is gone ({exc.strerror or exc}); it was removed or is being replaced"
        ) from None
    return st.st_dev, st.st_ino


NO_IDENTITY = (-1, -1)


def open_store(path: Path) -> tuple[DocumentStore, tuple[int, int]]:
    """A connection to ``path``'s SQLite file and that file's identity, stat'ed before and after opening so
    that the identity is the one of the file held open (the folder may be replaced meanwhile)."""
    while True:
        if not (path / DB_NAME).is_file():
            DocumentStore(path / DB_NAME).close()  # raises its one-line "not a lingualite search index"
        before = identity(path)
        store = DocumentStore(path / DB_NAME)
        if identity(path) == before:
            return store, before
        store.close()
