"""Quantized vector output (``encode --precision``) and its calibration file, and reading both back.

Precisions are sentence-transformers' (``quantize_embeddings``, which does the quantizing here):

=========  ========================  ==============================================================
precision  stored (N rows)           rule
=========  ========================  ==============================================================
float32    float32 (N, d)            the vectors
int8       int8 (N, d)               per component: 256 buckets between its min and max, minus 128
uint8      uint8 (N, d)              the same buckets, 0..255
binary     int8 (N, ceil(d / 8))     sign bits (x > 0) packed with ``np.packbits``, minus 128
ubinary    uint8 (N, ceil(d / 8))    the same bits, 0..255
=========  ========================  ==============================================================

int8/uint8 need calibration ranges (per component min and max, shape (2, d)): from the vectors being
written (exactly the ranges ``quantize_embeddings`` computes from the whole matrix), or from a saved
calibration file (``--calibration``), so that queries and documents share one set of buckets.

Every quantized ``OUTPUT.npy`` gets ``OUTPUT.calibration.json`` beside it (:func:`calibration_path`): the
precision, the float dimension before packing, whether the vectors were normalised and truncated, the model,
the row count, and the ranges (int8/uint8). It is what :func:`load_vectors` and :func:`dequantize` need, and
a valid ``--calibration`` file for the next encode. The two files are written one after the other (each
atomically), so :func:`load_vectors` checks that they agree (precision, rows, width) before trusting them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.errors import LinguaLiteError

__all__ = [
    "CALIBRATED",
    "PRECISIONS",
    "Calibration",
    "calibration_path",
    "dequantize",
    "load_vectors",
    "quantize",
]

PRECISIONS = ("float32", "int8", "uint8", "binary", "ubinary")
CALIBRATED = ("int8", "uint8")  # need ranges
PACKED = ("binary", "ubinary")  # one bit per component
STORED = {"float32": np.float32, "int8": np.int8, "uint8": np.uint8, "binary": np.int8, "ubinary": np.uint8}
SUFFIX = ".calibration.json"
FORMAT = "lingualite-vectors/1"


def check_precision(precision: str) -> None:
    if precision not in PRECISIONS:
        raise LinguaLiteError(f"--precision {precision!r}: choose one of {', '.join(PRECISIONS)}")


def calibration_path(output: str | Path) -> Path:
    """``v.npy`` -> ``v.calibration.json`` (beside it)."""
    output = Path(output)
    stem = output.name[: -len(".npy")] if output.name.endswith(".npy") else output.name
    return output.with_name(stem + SUFFIX)


def stored_width(precision: str, dimension: int) -> int:
    """Columns of the stored array: ``d``, or ``ceil(d / 8)`` bytes of packed bits."""
    return (dimension + 7) // 8 if precision in PACKED else dimension


@dataclass(frozen=True)
class Calibration:
    """What quantized vectors need to be read back or matched by other vectors.

    :param precision: one of :data:`PRECISIONS` (not float32).
    :param dimension: float components per vector before quantizing (after any truncation).
    :param normalized: whether the vectors were L2-normalised before quantizing.
    :param ranges: (2, dimension) per component min and max (int8/uint8), else None.
    :param rows: rows of the ``.npy`` this file describes (None: ranges on their own).
    :param dimensions: the truncation asked for (``--dimensions``), None when none.
    :param model: the model spec, for people reading the file.
    """

    precision: str
    dimension: int
    normalized: bool
    ranges: np.ndarray | None = field(default=None, compare=False)
    rows: int | None = None
    dimensions: int | None = None
    model: str | None = None

    @classmethod
    def fit(
        cls, vectors: np.ndarray, precision: str = "int8", normalized: bool = False, **info: Any
    ) -> Calibration:
        """Ranges of ``vectors`` (per component min and max, as ``quantize_embeddings`` computes them)."""
        check_precision(precision)
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or len(vectors) < 2:
            raise LinguaLiteError("calibration needs at least 2 float vectors (rows of a 2-d array)")
        ranges = np.vstack([vectors.min(axis=0), vectors.max(axis=0)]) if precision in CALIBRATED else None
        return cls(precision, int(vectors.shape[1]), normalized, ranges, **info)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "precision": self.precision,
            "dimension": self.dimension,
            "normalized": self.normalized,
            "dimensions": self.dimensions,
            "rows": self.rows,
            "stored": {"dtype": np.dtype(STORED[self.precision]).name, "width": self.width},
            "model": self.model,
            "ranges": None if self.ranges is None else np.asarray(self.ranges, dtype=float).tolist(),
        }

    @property
    def width(self) -> int:
        return stored_width(self.precision, self.dimension)

    def save(self, path: str | Path) -> Path:
        from lingualite.core.io_utils import write_json

        write_json(path, self.to_json())
        return Path(path)

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Read a calibration file; a bad one is a one-line error naming it."""
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise LinguaLiteError(f"{path}: does not exist (a calibration file is OUTPUT{SUFFIX})") from None
        except (OSError, ValueError) as exc:
            raise LinguaLiteError(f"{path}: not a calibration file ({exc})") from exc
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise LinguaLiteError(f"{path}: not a lingualite calibration file (format {FORMAT} expected)")
        try:
            cal = cls(
                str(data["precision"]),
                int(data["dimension"]),
                bool(data["normalized"]),
                None if data.get("ranges") is None else np.asarray(data["ranges"], dtype=np.float32),
                None if data.get("rows") is None else int(data["rows"]),
                None if data.get("dimensions") is None else int(data["dimensions"]),
                data.get("model"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise LinguaLiteError(f"{path}: damaged calibration file ({type(exc).__name__}: {exc})") from exc
        check_precision(cal.precision)
        if cal.precision in CALIBRATED and (cal.ranges is None or cal.ranges.shape != (2, cal.dimension)):
            raise LinguaLiteError(f"{path}: {cal.precision} needs ranges of shape (2, {cal.dimension})")
        return cal

    def check_matches(self, dimension: int, normalized: bool, where: str) -> None:
        """Refuse ranges of other vectors: another dimension, or normalised vs not."""
        if self.ranges is None:
            raise LinguaLiteError(
                f"{where}: has no ranges ({self.precision}); int8/uint8 calibration needs them"
            )
        if self.dimension != dimension or self.normalized != normalized:
            raise LinguaLiteError(
                f"{where}: ranges of {self.dimension}-d {_norm(self.normalized)} vectors; these are "
                f"{dimension}-d {_norm(normalized)} (use the same --dimensions and --normalize)"
            )


def _norm(normalized: bool) -> str:
    return "normalised" if normalized else "unnormalised"


def quantize(vectors: np.ndarray, precision: str, ranges: np.ndarray | None = None) -> np.ndarray:
    """``vectors`` (float, (N, d)) at ``precision`` by sentence-transformers' ``quantize_embeddings``;
    int8/uint8 without ``ranges`` take them from ``vectors`` (its default; needs 2 rows or more)."""
    check_precision(precision)
    vectors = np.asarray(vectors, dtype=np.float32)
    if precision == "float32":
        return vectors
    if precision in CALIBRATED and ranges is None and len(vectors) < 2:
        raise LinguaLiteError(f"{precision} of a single vector needs calibration ranges (--calibration)")
    from sentence_transformers.util.quantization import quantize_embeddings

    return np.asarray(quantize_embeddings(vectors, precision=precision, ranges=ranges))  # type: ignore[arg-type]


def dequantize(stored: np.ndarray, calibration: Calibration) -> np.ndarray:
    """Float32 (N, d) approximations of quantized rows: int8/uint8 -> the centre of each bucket (a component
    whose range is one value gets that value); binary/ubinary -> the signs, +1 / -1 (cosine of two such rows
    is ``1 - 2 hamming / d``)."""
    stored = np.asarray(stored)
    precision, d = calibration.precision, calibration.dimension
    if precision == "float32":
        return stored.astype(np.float32)
    if precision in PACKED:
        raw = stored.view(np.uint8) ^ 0x80 if precision == "binary" else stored.astype(np.uint8)
        bits = np.unpackbits(raw, axis=-1)[..., :d]
        return bits.astype(np.float32) * 2 - 1
    if calibration.ranges is None:
        raise LinguaLiteError(f"{precision} rows need calibration ranges to be dequantized")
    start, stop = calibration.ranges.astype(np.float64)
    step = (stop - start) / 255
    buckets = stored.astype(np.float64) + (128 if precision == "int8" else 0)
    values = np.where(step > 0, start + (buckets + 0.5) * step, start)
    return values.astype(np.float32)


def load_vectors(path: str | Path, dequantized: bool = False) -> tuple[np.ndarray, Calibration | None]:
    """The array of a ``.npy`` that ``encode`` wrote and, for a quantized one, its calibration (checked to
    describe this file). ``dequantized``: float32 rows (:func:`dequantize`) instead of the stored ones."""
    path = Path(path)
    try:
        stored = np.load(path, allow_pickle=False, mmap_mode="r")
    except (OSError, ValueError) as exc:
        raise LinguaLiteError(f"{path}: not a readable .npy ({exc})") from exc
    if stored.dtype == np.float32:
        return (np.asarray(stored), None)
    side = calibration_path(path)
    cal = Calibration.load(side)
    if (
        stored.ndim != 2
        or stored.dtype != STORED[cal.precision]
        or stored.shape[1] != cal.width
        or (cal.rows is not None and stored.shape[0] != cal.rows)
    ):
        raise LinguaLiteError(
            f"{side}: describes {cal.rows} x {cal.width} {cal.precision} vectors, but {path} holds "
            f"{stored.shape} {stored.dtype} (written by different runs; encode again)"
        )
    return (dequantize(stored, cal) if dequantized else np.asarray(stored)), cal
