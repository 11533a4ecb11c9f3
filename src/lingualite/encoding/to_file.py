"""``lingualite encode``: a text file to a ``.npy`` of vectors, streamed, in bounded memory.

The input is read in chunks (:func:`lingualite.data.lines.iter_line_chunks`: the same checks as reading it
whole) and each chunk's vectors are appended to the output ``.npy`` (plain writes, not a memory map, whose
dirty pages would count as the process's memory) in a temporary file beside OUTPUT, renamed when complete. A
first pass counts (and checks) the lines, because a ``.npy`` header holds the shape. Memory is one chunk of
text and its vectors, whatever the file's size. Encoders fitted on their input (TF-IDF) read it whole: they
need every line before the first vector.

Vectors are written by :func:`lingualite.encoding.output.write_npy` (re-exported here), which also
truncates (``--dimensions``) and quantizes (``--precision``). The writing half (:func:`count_lines`,
:func:`write_npy`, :func:`dense_vectors`, :func:`l2_normalize`) is shared with the multi-process and Ray engines (:mod:`lingualite.encoding.workers`,
:mod:`lingualite.encoding.ray_workers`), which produce the same blocks of rows in other processes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.core.progress import print_progress
from lingualite.data.lines import check_not_blank, iter_line_chunks, read_lines
from lingualite.encoding.output import OutputFormat, l2_normalize, write_npy
from lingualite.vectors.precision import Calibration

__all__ = [
    "CHUNK",
    "EncodedFile",
    "OutputFormat",
    "count_lines",
    "dense_vectors",
    "encode_file",
    "l2_normalize",
    "print_progress",
    "write_npy",
]

CHUNK = 8192  # sentences per encoder call (and per progress line)
MAX_DENSE_FROM_SPARSE = 500_000_000  # floats: a sparse encoder's output made dense for the .npy


@dataclass
class EncodedFile:
    sentences: int
    dimension: int
    sample: list[str]  # the first chunk, for the unknown-token report
    unknown: tuple[float, int] | None = None  # that report, when another process computed it
    warning: str | None = None  # --dimensions the model was not trained for
    calibration: Calibration | None = None  # what a quantized output's calibration file holds
    skipped: list[int] = field(default_factory=list)  # input lines given no row (skip_bad), 1-based


def encode_file(
    encoder: Any,
    input: str | Path,
    output: str | Path,
    normalize: bool = False,
    progress: bool = True,
    chunk: int = CHUNK,
    fmt: OutputFormat | None = None,
) -> EncodedFile:
    """Write ``encoder``'s vectors of every line of ``input`` to ``output`` (``.npy``), atomically: float32,
    or as ``fmt`` says (truncated, quantized; a quantized output gets its calibration file beside it)."""
    from lingualite.encoders.base import fit_encoder

    input, output = Path(input), Path(output)
    lines: list[str] | None = None
    if callable(getattr(encoder, "fit", None)):
        lines = read_lines(input)
        check_not_blank(lines, input)
        fit_encoder(encoder, lines)
        total = len(lines)
        if total == 0:
            raise LinguaLiteError(f"{input}: is empty; nothing to encode")
    else:
        total = count_lines(input, chunk)
    chunks: Iterable[list[str]] = (
        (lines[i : i + chunk] for i in range(0, total, chunk))
        if lines is not None
        else iter_line_chunks(input, chunk)
    )
    sample: list[str] = []

    def blocks() -> Iterator[np.ndarray]:
        for part in chunks:
            if not sample:
                sample.extend(part)
            yield dense_vectors(encoder, part, total)

    dimension = write_npy(output, [input], total, blocks(), normalize, progress and total > chunk, fmt=fmt)
    return EncodedFile(total, dimension, sample)


def count_lines(input: Path, chunk: int = CHUNK) -> int:
    """The number of lines of ``input`` (checked as :func:`read_lines` does); an empty file, or a blank line
    (:func:`~lingualite.data.lines.check_not_blank`), is an error."""
    total = 0
    for part in iter_line_chunks(input, chunk):
        check_not_blank(part, input, total + 1)
        total += len(part)
    if total == 0:
        raise LinguaLiteError(f"{input}: is empty; nothing to encode")
    return total


def dense_vectors(encoder: Any, texts: list[str], total: int, marks: bool = True) -> np.ndarray:
    """``encoder.encode(texts)`` as a float32 array (a sparse encoder's output made dense, if it fits), the
    rows of texts with no token the model knows set to zero: the mark the writers refuse or skip
    (:mod:`lingualite.encoders.known_tokens`); ``marks`` False: as the model gives them (a distillation
    teacher's targets)."""
    from scipy import sparse

    from lingualite.encoders.known_tokens import mark

    vectors = encoder.encode(texts)
    if sparse.issparse(vectors):
        if vectors.shape[1] * total > MAX_DENSE_FROM_SPARSE:
            raise LinguaLiteError(
                f"{encoder.name}: {total:,} x {vectors.shape[1]:,} dense floats are too many for a .npy; "
                "encode fewer lines or use a dense model"
            )
        vectors = vectors.toarray()
    vectors = np.array(vectors, dtype=np.float32)
    return mark(encoder, texts, vectors) if marks else vectors
