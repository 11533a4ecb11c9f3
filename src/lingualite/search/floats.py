"""The float vectors of a search index on disk: one ``.npy`` (float32, ``(rows, dimension)``) read through a
memory map, so exact rescoring of quantized candidates reads a few rows from disk instead of holding every
vector in RAM.

Rows are only ever appended (row ``i`` is FAISS id ``i``; a deleted document's row stays until the index is
rebuilt). The number of *committed* rows lives in SQLite: an append writes the rows after them (over any rows
a crashed writer left), fsyncs, then rewrites the header's shape in place. numpy pads ``.npy`` headers so the
row count can grow without changing the header's length (``GROWTH_AXIS_MAX_DIGITS``); that is checked.
Readers map exactly the committed rows, so a crash between the append and the SQLite commit is harmless.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np

from lingualite.core.errors import LinguaLiteError

__all__ = ["FLOATS_NAME", "FloatFile"]

FLOATS_NAME = "vectors.npy"


def _header(rows: int, dimension: int) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buf, {"descr": "<f4", "fortran_order": False, "shape": (rows, dimension)}
    )
    return buf.getvalue()


class FloatFile:
    """Append-only float32 rows in ``path`` (a valid ``.npy`` whenever no write is under way)."""

    def __init__(self, path: Path, dimension: int) -> None:
        self.path = Path(path)
        self.dimension = dimension
        self.offset = len(_header(0, dimension))

    @classmethod
    def create(cls, path: Path, dimension: int) -> FloatFile:
        path = Path(path)
        with open(path, "wb") as fh:
            fh.write(_header(0, dimension))
        return cls(path, dimension)

    def check(self, rows: int) -> None:
        """Fail unless the file holds at least ``rows`` rows of this dimension (the committed count)."""
        if not self.path.is_file():
            raise LinguaLiteError(f"{self.path}: missing; the index is incomplete (build it again)")
        with open(self.path, "rb") as fh:
            if np.lib.format.read_magic(fh) != (1, 0):
                raise LinguaLiteError(f"{self.path}: not a .npy file this index wrote (build it again)")
            shape, _, dtype = np.lib.format.read_array_header_1_0(fh)
        have = (self.path.stat().st_size - self.offset) // (4 * self.dimension)
        if dtype != np.float32 or len(shape) != 2 or shape[1] != self.dimension or have < rows:
            raise LinguaLiteError(
                f"{self.path}: holds {have:,} vectors of shape {shape}; the index expects {rows:,} x "
                f"{self.dimension} float32 (a damaged index: build it again)"
            )

    def append(self, start_row: int, vectors: np.ndarray) -> int:
        """Write ``vectors`` as rows ``start_row...`` (dropping anything after them), durably; returns the new
        row count."""
        vectors = np.ascontiguousarray(vectors, dtype="<f4")
        rows = start_row + len(vectors)
        header = _header(rows, self.dimension)
        if len(header) != self.offset:  # pragma: no cover - numpy pads the header for growth
            raise LinguaLiteError(f"{self.path}: the .npy header would change length; rebuild the index")
        with open(self.path, "r+b") as fh:
            fh.seek(self.offset + start_row * 4 * self.dimension)
            fh.write(vectors.tobytes())
            fh.truncate()
            fh.flush()
            os.fsync(fh.fileno())
            fh.seek(0)
            fh.write(header)
            fh.flush()
            os.fsync(fh.fileno())
        return rows

    def view(self, rows: int) -> np.ndarray:
        """The first ``rows`` rows, memory-mapped read-only (an empty array for 0 rows)."""
        if rows == 0:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.memmap(self.path, dtype="<f4", mode="r", offset=self.offset, shape=(rows, self.dimension))

    def size_bytes(self) -> int:
        return self.path.stat().st_size if self.path.is_file() else 0
