"""``lingualite encode``: a text file to a ``.npy`` of vectors, streamed, in bounded memory.

The input is read in chunks (:func:`lingualite.data.lines.iter_line_chunks`: the same checks as reading it
whole) and each chunk's vectors are appended to the output ``.npy`` (plain writes, not a memory map, whose
dirty pages would count as the process's memory) in a temporary file beside OUTPUT, renamed when complete. A
first pass counts (and checks) the lines, because a ``.npy`` header holds the shape. Memory is one chunk of
text and its vectors, whatever the file's size. Encoders fitted on their input (TF-IDF) read it whole: they
need every line before the first vector.

The writing half (:func:`count_lines`, :func:`write_npy`, :func:`dense_vectors`, :func:`l2_normalize`) is
shared with the multi-process and Ray engines (:mod:`lingualite.runtime.parallel_encode`,
:mod:`lingualite.runtime.ray_encode`), which produce the same blocks of rows in other processes.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
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
    unknown: tuple[float, int] | None = None  # that report, when another process computed it


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

    dimension = write_npy(output, [input], total, blocks(), normalize, progress and total > chunk)
    return EncodedFile(total, dimension, sample)


def count_lines(input: Path, chunk: int = CHUNK) -> int:
    """The number of lines of ``input`` (checked as :func:`read_lines` does); an empty file is an error."""
    total = sum(len(part) for part in iter_line_chunks(input, chunk))
    if total == 0:
        raise LinguaLiteError(f"{input}: is empty; nothing to encode")
    return total


def write_npy(
    output: Path,
    inputs: list[Path],
    total: int,
    blocks: Iterable[np.ndarray],
    normalize: bool = False,
    progress: bool = True,
    label: str = "encode",
) -> int:
    """Write ``blocks`` (float32 rows, in input order, ``total`` rows in all) as one ``(total, d)`` ``.npy``:
    the header, then each block's bytes as it comes, into a temporary file renamed onto ``output`` when
    complete. Prints ``done/total (elapsed, ETA)`` on stderr after each block when ``progress``. Returns d."""
    done, dimension, t0 = 0, 0, time.perf_counter()
    with atomic_file(output, inputs=inputs) as tmp, open(tmp, "wb") as fh:
        for vectors in blocks:
            if normalize:
                l2_normalize(vectors)
            if not dimension:  # the .npy header, once the dimension is known
                dimension = int(vectors.shape[1])
                header = {"descr": "<f4", "fortran_order": False, "shape": (total, dimension)}
                np.lib.format.write_array_header_1_0(fh, header)
            fh.write(np.ascontiguousarray(vectors, dtype="<f4").tobytes())
            done += len(vectors)
            if progress:
                print_progress(label, done, total, t0)
        if done != total:  # a bug, not bad input: never leave a .npy whose header lies
            raise RuntimeError(f"{output}: {done:,} rows written for a header of {total:,}")
    return dimension


def print_progress(label: str, done: int, total: int, t0: float) -> None:
    """One ``label: done/total sentences (elapsed, ETA)`` line on stderr (``t0``: ``time.perf_counter()``)."""
    elapsed = time.perf_counter() - t0
    eta = elapsed / max(done, 1) * (total - done)
    print(f"{label}: {done:,}/{total:,} sentences ({elapsed:.0f} s, ETA {eta:.0f} s)", file=sys.stderr)


def l2_normalize(vectors: np.ndarray) -> np.ndarray:
    """Divide each row by its L2 norm, in place (a zero row stays zero); returns ``vectors``."""
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return vectors


def dense_vectors(encoder: Any, texts: list[str], total: int) -> np.ndarray:
    """``encoder.encode(texts)`` as a float32 array (a sparse encoder's output made dense, if it fits)."""
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
