"""The SQLite side of a search index: documents, their metadata (JSON), and the index's settings.

Tables:

- ``info(key, value)``: one JSON value per key (model spec, dimension, quantization, FAISS kind, counts,
  format version, generation, the current FAISS file name...);
- ``documents(row_id, doc_id, text, metadata)``: ``row_id`` is the document's FAISS id and its row in the
  float vector file; ``doc_id`` is unique; metadata is strict JSON (:mod:`lingualite.core.strict_json`: never
  ``NaN``; one an older version stored is read as ``null``);
- ``tombstones(row_id)``: FAISS ids of deleted documents that the FAISS index could not remove (HNSW);
  searches exclude them.

Writes happen inside :meth:`DocumentStore.transaction` (``BEGIN IMMEDIATE`` ... ``COMMIT``): a crash or an
error rolls the documents and the settings back together. The database runs in WAL mode, so readers in other
processes (a search service) keep reading while a writer adds documents.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.core.strict_json import dumps, read_stored

__all__ = ["DB_NAME", "DocumentStore"]

DB_NAME = "index.sqlite"
_BATCH = 500  # ids per "IN (...)" query (SQLite's limit on bound variables is 999 in old builds)
_SCHEMA = """
CREATE TABLE info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE documents (
    row_id INTEGER PRIMARY KEY, doc_id TEXT NOT NULL UNIQUE, text TEXT NOT NULL, metadata TEXT NOT NULL
);
CREATE TABLE tombstones (row_id INTEGER PRIMARY KEY);
"""


def _batches(items: list[Any]) -> Iterator[list[Any]]:
    for start in range(0, len(items), _BATCH):
        yield items[start : start + _BATCH]


class DocumentStore:
    """One connection to ``folder/index.sqlite`` (usable from several threads; the caller serialises)."""

    def __init__(self, path: Path, create: bool = False) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise LinguaLiteError(f"{self.path.parent}: not a lingualite search index (no {DB_NAME})")
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            if create:
                self.db.executescript(_SCHEMA)
            self.db.execute("SELECT 1 FROM info LIMIT 1")
        except sqlite3.DatabaseError as exc:
            raise LinguaLiteError(f"{self.path}: not a lingualite search index ({exc})") from exc

    def close(self) -> None:
        self.db.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` (one writer at a time) ... ``COMMIT``; any exception rolls back."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # -- settings ------------------------------------------------------------------------------------------

    def read_info(self) -> dict[str, Any]:
        return {key: json.loads(value) for key, value in self.db.execute("SELECT key, value FROM info")}

    def write_info(self, values: dict[str, Any]) -> None:
        self.db.executemany(
            "INSERT OR REPLACE INTO info (key, value) VALUES (?, ?)",
            [(key, dumps(value)) for key, value in values.items()],
        )

    def generation(self) -> int:
        row = self.db.execute("SELECT value FROM info WHERE key = 'generation'").fetchone()
        return int(json.loads(row[0])) if row else -1

    # -- documents -----------------------------------------------------------------------------------------

    def count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM documents").fetchone()[0])

    def existing_ids(self, doc_ids: list[str]) -> set[str]:
        found: set[str] = set()
        for part in _batches(doc_ids):
            marks = ",".join("?" * len(part))
            found.update(
                r[0] for r in self.db.execute(f"SELECT doc_id FROM documents WHERE doc_id IN ({marks})", part)
            )
        return found

    def insert(self, rows: Iterable[tuple[int, str, str, dict[str, Any]]]) -> None:
        """Insert ``(row_id, doc_id, text, metadata)`` rows (ids checked unique by the caller)."""
        self.db.executemany(
            "INSERT INTO documents (row_id, doc_id, text, metadata) VALUES (?, ?, ?, ?)",
            [(r, d, t, dumps(m, ensure_ascii=False)) for r, d, t, m in rows],
        )

    def get_rows(self, row_ids: Iterable[int]) -> dict[int, tuple[str, str, dict[str, Any]]]:
        """``row_id -> (doc_id, text, metadata)`` for the rows that exist (deleted ones are left out)."""
        out: dict[int, tuple[str, str, dict[str, Any]]] = {}
        for part in _batches(sorted({int(r) for r in row_ids})):
            marks = ",".join("?" * len(part))
            query = f"SELECT row_id, doc_id, text, metadata FROM documents WHERE row_id IN ({marks})"
            for row_id, doc_id, text, meta in self.db.execute(query, part):
                out[row_id] = (doc_id, text, read_stored(meta))
        return out

    def rows_of(self, doc_ids: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for part in _batches(list(dict.fromkeys(doc_ids))):
            marks = ",".join("?" * len(part))
            query = f"SELECT doc_id, row_id FROM documents WHERE doc_id IN ({marks})"
            out.update(dict(self.db.execute(query, part)))
        return out

    def delete_rows(self, row_ids: list[int]) -> None:
        self.db.executemany("DELETE FROM documents WHERE row_id = ?", [(int(r),) for r in row_ids])

    def live_rows(self) -> np.ndarray:
        rows = self.db.execute("SELECT row_id FROM documents ORDER BY row_id").fetchall()
        return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))

    # -- tombstones (deleted from SQLite, still in an HNSW graph) ------------------------------------------

    def add_tombstones(self, row_ids: list[int]) -> None:
        self.db.executemany(
            "INSERT OR IGNORE INTO tombstones (row_id) VALUES (?)", [(int(r),) for r in row_ids]
        )

    def tombstones(self) -> np.ndarray:
        rows = self.db.execute("SELECT row_id FROM tombstones ORDER BY row_id").fetchall()
        return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))

    def clear_tombstones(self) -> None:
        self.db.execute("DELETE FROM tombstones")
