"""Writing encoded vectors to a ``.npy``: truncation (``--dimensions``), normalisation, precision
(``--precision``), then the header and the rows as they come, into a temporary file renamed onto OUTPUT when
complete; a quantized OUTPUT also gets its calibration file (:mod:`lingualite.vectors.precision`).

Every engine (one process, ``--workers``, Ray) writes through :func:`write_npy`, block by block, so memory is
one block whatever the file's size. int8/uint8 without given ranges need every vector's min and max before
the first quantized row: the float vectors then go to an unnamed temporary file beside OUTPUT (4 x N x d
bytes on disk, freed when closed, even after a crash) while the ranges are taken, and are quantized from it
block by block in a second pass; the model encodes each line once. The result is exactly
``quantize_embeddings(all_vectors, precision)``.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import atomic_file
from lingualite.core.progress import print_progress
from lingualite.encoders.matryoshka_dims import check_dimensions
from lingualite.vectors.precision import (
    CALIBRATED,
    STORED,
    Calibration,
    calibration_path,
    check_precision,
    check_ranges,
    quantize,
    stored_width,
)
from lingualite.vectors.truncation import truncate

__all__ = ["OutputFormat", "l2_normalize", "write_npy"]

REREAD_ROWS = 8192  # rows per block of the second pass


@dataclass
class OutputFormat:
    """How vectors are written (defaults: as the encoder gives them, float32).

    :param dimensions: keep the first ``dimensions`` components (renormalised when normalising).
    :param precision: one of :data:`lingualite.vectors.precision.PRECISIONS`.
    :param calibration: int8/uint8 ranges to use (``--calibration``); None: from the vectors written.
    :param model: the model (spec or encoder): checked for ``dimensions`` at the first block, recorded.
    :param skip_bad: skip (and list in :attr:`skipped`) the rows of texts with no token the model knows,
        instead of refusing the first (:mod:`lingualite.encoders.known_tokens`).
    :attr warning: set while writing when the model was not trained for ``dimensions``.
    :attr written: the calibration of the last quantized output written.
    :attr skipped: the (1-based) input lines skipped by ``skip_bad`` in the last output written.
    """

    dimensions: int | None = None
    precision: str = "float32"
    calibration: Calibration | None = None
    model: Any = None
    warning: str | None = None
    written: Calibration | None = None
    skip_bad: bool = False
    skipped: list[int] = field(default_factory=list)

    def check(self) -> None:
        """Refuse impossible combinations before any work."""
        check_precision(self.precision)
        if self.dimensions is not None and self.dimensions < 1:
            raise LinguaLiteError(f"--dimensions {self.dimensions}: must be at least 1")
        if self.calibration is not None and self.precision not in CALIBRATED:
            raise LinguaLiteError(
                f"--calibration: only int8 and uint8 use calibration ranges (--precision {self.precision})"
            )

    @property
    def plain(self) -> bool:
        return self.dimensions is None and self.precision == "float32"

    def model_spec(self) -> str | None:
        spec = getattr(self.model, "spec", None) or getattr(self.model, "name", None) or self.model
        return None if spec is None else str(spec)


def l2_normalize(vectors: np.ndarray) -> np.ndarray:
    """Divide each row by its L2 norm, in place (a zero row stays zero); returns ``vectors``."""
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return vectors


def _known(blocks: Iterable[np.ndarray], fmt: OutputFormat, source: Path | None) -> Iterator[np.ndarray]:
    """The blocks without the rows marked as having no known token (:func:`~lingualite.encoders.known_tokens
    .mark`): the first is refused naming ``source:line``, or with ``fmt.skip_bad`` each is left out and its
    line listed in ``fmt.skipped``."""
    from lingualite.encoders.known_tokens import marked, refusal

    fmt.skipped = []
    done = 0
    for vectors in blocks:
        rows = marked(vectors)
        if rows.size and not fmt.skip_bad:
            line = done + int(rows[0]) + 1
            raise refusal(source or "input", line, _line_text(source, line))
        if rows.size:
            fmt.skipped.extend((done + rows + 1).tolist())
            vectors = np.delete(vectors, rows, axis=0)
        done += len(vectors) + len(rows)
        if len(vectors):
            yield vectors


def _line_text(source: Path | None, line: int) -> str | None:
    """The text of ``line`` (1-based) of a text file, for an error's excerpt; None when it cannot be read."""
    from lingualite.data.lines import iter_line_chunks

    if source is None or not source.is_file() or source.suffix == ".parquet":
        return None
    start = 0
    for chunk in iter_line_chunks(source):
        if line <= start + len(chunk):
            return chunk[line - start - 1]
        start += len(chunk)
    return None


def _shaped(blocks: Iterable[np.ndarray], fmt: OutputFormat, normalize: bool) -> Iterator[np.ndarray]:
    """Truncated and/or normalised float blocks; the dimension check at the first (the model's width)."""
    first = True
    for vectors in blocks:
        if first and fmt.dimensions is not None:
            fmt.warning = check_dimensions(fmt.model, fmt.dimensions, int(vectors.shape[1]))
        first = False
        if fmt.dimensions is not None:
            yield truncate(vectors, fmt.dimensions, normalize)
        else:
            yield l2_normalize(vectors) if normalize else vectors


def _counted(blocks: Iterable[np.ndarray], total: int, label: str, progress: bool) -> Iterator[np.ndarray]:
    done, t0 = 0, time.perf_counter()
    for vectors in blocks:
        yield vectors
        done += len(vectors)
        if progress:
            print_progress(label, done, total, t0, "sentences")


def _spill(blocks: Iterable[np.ndarray], scratch: IO[bytes]) -> tuple[np.ndarray, int]:
    """First pass: float rows into ``scratch``; returns the (2, d) ranges and d."""
    low = high = None
    for vectors in blocks:
        scratch.write(np.ascontiguousarray(vectors, dtype="<f4").tobytes())
        low = vectors.min(axis=0) if low is None else np.minimum(low, vectors.min(axis=0))
        high = vectors.max(axis=0) if high is None else np.maximum(high, vectors.max(axis=0))
    if low is None or high is None:
        raise LinguaLiteError("nothing to quantize")
    return np.vstack([low, high]).astype(np.float32), int(low.shape[0])


def _reread(scratch: IO[bytes], width: int) -> Iterator[np.ndarray]:
    total = scratch.tell() // (4 * width)
    scratch.seek(0)
    for start in range(0, total, REREAD_ROWS):
        rows = min(REREAD_ROWS, total - start)
        yield np.frombuffer(scratch.read(rows * width * 4), dtype="<f4").reshape(rows, width)


def write_npy(
    output: Path,
    inputs: list[Path],
    total: int,
    blocks: Iterable[np.ndarray],
    normalize: bool = False,
    progress: bool = True,
    label: str = "encode",
    fmt: OutputFormat | None = None,
) -> int:
    """Write ``blocks`` (float32 rows, in input order, ``total`` rows in all) as one ``.npy`` in ``fmt``: the
    header, then each block's bytes as it comes, into a temporary file renamed onto ``output`` when
    complete; then, for a quantized output, its calibration file. Prints ``done/total (elapsed, ETA)`` on
    stderr after each block when ``progress``. Returns the float dimension written (after truncation)."""
    fmt = fmt or OutputFormat()
    fmt.check()
    done, dimension, ranges = 0, 0, None
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(atomic_file(output, inputs=inputs))
        fh = stack.enter_context(open(tmp, "w+b"))
        known = _known(blocks, fmt, inputs[0] if inputs else None)
        rows = _counted(_shaped(known, fmt, normalize), total, label, progress)
        if fmt.calibration is not None:
            ranges = fmt.calibration.ranges
        elif fmt.precision in CALIBRATED:  # ranges of every vector first (see the module docstring)
            scratch = stack.enter_context(tempfile.TemporaryFile(dir=Path(output).parent))
            ranges, width = _spill(rows, scratch)
            check_ranges(ranges, fmt.precision, f"{inputs[0] if inputs else output} ({total:,} lines)")
            rows = _reread(scratch, width)
        for vectors in rows:
            if not dimension:  # the .npy header, once the dimension is known
                dimension = int(vectors.shape[1])
                if fmt.calibration is not None:
                    fmt.calibration.check_matches(dimension, normalize, "--calibration")
                _header(fh, fmt.precision, total, dimension)
            stored = quantize(vectors, fmt.precision, ranges) if fmt.precision != "float32" else vectors
            fh.write(np.ascontiguousarray(stored, dtype=_dtype(fmt.precision)).tobytes())
            done += len(vectors)
        kept = total - len(fmt.skipped)
        if not done and fmt.skipped:
            raise LinguaLiteError(
                f"{inputs[0] if inputs else output}: all {total:,} lines were skipped (--skip-bad); nothing to encode"
            )
        if done != kept:  # a bug, not bad input: never leave a .npy whose header lies
            raise RuntimeError(f"{output}: {done:,} rows written for a header of {kept:,}")
        if kept != total:
            _header(fh, fmt.precision, kept, dimension, rewrite=True)
    if fmt.precision != "float32":
        fmt.written = Calibration(
            fmt.precision, dimension, normalize, ranges, kept, fmt.dimensions, fmt.model_spec()
        )
        fmt.written.save(calibration_path(output))
    return dimension


def _dtype(precision: str) -> np.dtype:
    return np.dtype(STORED[precision]).newbyteorder("<")  # float32: "<f4" as before; 1-byte types: "|i1"


def _header(fh: IO[bytes], precision: str, rows: int, dimension: int, rewrite: bool = False) -> None:
    """The .npy header; ``rewrite``: over the one at the start of ``fh`` (written for more rows, so at least
    as long: the new one is padded with spaces to its length, as the format allows)."""
    import io
    import struct

    descr = np.lib.format.dtype_to_descr(_dtype(precision))
    header = {"descr": descr, "fortran_order": False, "shape": (rows, stored_width(precision, dimension))}
    if not rewrite:
        np.lib.format.write_array_header_1_0(fh, header)
        return
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, header)
    new, end = buffer.getvalue(), fh.tell()
    fh.seek(0)
    old = fh.read(10)
    length = 10 + struct.unpack("<H", old[8:10])[0]
    body = new[10:-1] + b" " * (length - len(new)) + b"\n"
    fh.seek(0)
    fh.write(new[:8] + struct.pack("<H", len(body)) + body)
    fh.seek(end)
