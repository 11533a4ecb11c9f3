"""The index folder as readers see it: its identity (a replaced folder is noticed), opening its SQLite store
consistently with that identity, the model it was built with, and the errors of a folder that is gone or holds
nothing."""

from __future__ import annotations

import os
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.search.store import DB_NAME, DocumentStore

__all__ = ["NO_IDENTITY", "EmptyIndexError", "IndexGoneError", "identity", "model_for", "open_store"]


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


def model_for(path: Path, model: str | None = None) -> str:
    """The model to use with the index ``path``: ``model``, or the one the index was built with when none is
    given; a ``model`` that is not the index's is refused (before any slow model load)."""
    from lingualite.search.encoder_check import normalize_spec

    store = DocumentStore(Path(path) / DB_NAME)
    try:
        built = store.read_info().get("model_spec")
    finally:
        store.close()
    if model is None:
        if built is None:
            raise LinguaLiteError(f"{path}: does not record the model it was built with; give --model")
        return str(built)
    if built is not None and built != normalize_spec(model):
        raise LinguaLiteError(
            f"{path}: was built with model {built}, not {normalize_spec(model)}; serve it with "
            f"--model {built} (or leave --model out) or build a new index"
        )
    return model
