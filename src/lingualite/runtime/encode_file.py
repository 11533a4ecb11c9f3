"""``lingualite encode``: a text file to a ``.npy`` of vectors, streamed, in bounded memory.

The input is read in chunks (:func:`lingualite.data.lines.iter_line_chunks`: the same checks as reading it
whole) and each chunk's vectors are appended to the output ``.npy`` (plain writes, not a memory map, whose
dirty pages would count as the process's memory) in a temporary file beside OUTPUT, renamed when complete. A first pass counts (and checks) the lines, because a
``.npy`` header holds the shape. Memory is one chunk of text and its vectors, whatever the file's size.
Encoders fitted on their input (TF-IDF) read it whole: they need every line before the first vector.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.data.lines import iter_line_chunks, read_lines
from lingualite.errors import LinguaLiteError
from lingualite.io_utils import atomic_file

CHUNK = 8192  # sentences per encoder call (and per progress line)
MAX_DENSE_FROM_SPARSE = 500_000_000  # floats: a sparse encoder's output made dense for the .npy


@dataclass
class EncodedFile:
    sentences: int
    dimension: int
    sample: list[str]  # the first chunk, for the unknown-token report


def encode_file(
    encoder: Any,
    input: str | Path,
    output: str | Path,
    normalize: bool = False,
    progress: bool = True,
    chunk: int = CHUNK,
) -> EncodedFile:
    """Write ``encoder``'s float32 vectors of every line of ``input`` to ``output`` (``.npy``), atomically."""
    from lingualite.encoders.base import fit_encoder

    input, output = Path(input), Path(output)
    lines: list[str] | None = None
    if callable(getattr(encoder, "fit", None)):
        lines = read_lines(input)
        fit_encoder(encoder, lines)
        total = len(lines)
    else:
        total = sum(len(part) for part in iter_line_chunks(input, chunk))
    if total == 0:
        raise LinguaLiteError(f"{input}: is empty; nothing to encode")
    chunks: Iterable[list[str]] = (
        (lines[i : i + chunk] for i in range(0, total, chunk))
        if lines is not None
        else iter_line_chunks(input, chunk)
    )
    done, sample, dimension, t0 = 0, [], 0, time.perf_counter()
    with atomic_file(output, inputs=[input]) as tmp, open(tmp, "wb") as fh:
        for part in chunks:
            vectors = _dense(encoder, part, total)
            if normalize:
                vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
            if not dimension:  # the .npy header, once the dimension is known
                sample, dimension = part, int(vectors.shape[1])
                header = {"descr": "<f4", "fortran_order": False, "shape": (total, dimension)}
                np.lib.format.write_array_header_1_0(fh, header)
            fh.write(np.ascontiguousarray(vectors, dtype="<f4").tobytes())
            done += len(part)
            if progress and total > chunk:
                elapsed = time.perf_counter() - t0
                eta = elapsed / done * (total - done)
                print(
                    f"encode: {done:,}/{total:,} sentences ({elapsed:.0f} s, ETA {eta:.0f} s)",
                    file=sys.stderr,
                )
    return EncodedFile(done, dimension, sample)


def _dense(encoder: Any, texts: list[str], total: int) -> np.ndarray:
    from scipy import sparse

    vectors = encoder.encode(texts)
    if sparse.issparse(vectors):
        if vectors.shape[1] * total > MAX_DENSE_FROM_SPARSE:
            raise LinguaLiteError(
                f"{encoder.name}: {total:,} x {vectors.shape[1]:,} dense floats are too many for a .npy; "
                "encode fewer lines or use a dense model"
            )
        vectors = vectors.toarray()
    return np.array(vectors, dtype=np.float32)
