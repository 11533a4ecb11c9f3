"""The Python API of ``lingualite encode``: vectors of texts in memory (:func:`encode`) or of a text file into a
``.npy`` (:func:`encode_file`), truncated (``dimensions``) and quantized (``precision``) by the same rules as
the command (:mod:`lingualite.matryoshka`, :mod:`lingualite.runtime.precision`)::

    from lingualite import Calibration, encode, encode_file, load_vectors

    docs = encode_file("runs/distill", "docs.txt", "docs.npy", normalize=True, dimensions=64, precision="int8")
    queries = encode("runs/distill", ["imprimer une page"], normalize=True, dimensions=64, precision="int8",
                     calibration="docs.calibration.json")  # the documents' ranges
    stored, calibration = load_vectors("docs.npy")
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.matryoshka import check_dimensions, truncate
from lingualite.normalization import NORMALIZE
from lingualite.runtime.encode_file import EncodedFile, dense_vectors
from lingualite.runtime.encode_file import encode_file as _encode_file
from lingualite.runtime.precision import Calibration, quantize
from lingualite.runtime.vector_output import OutputFormat

__all__ = ["encode", "encode_file"]

logger = logging.getLogger(__name__)

CalibrationLike = Calibration | str | Path | None


def _calibration(calibration: CalibrationLike) -> Calibration | None:
    if calibration is None or isinstance(calibration, Calibration):
        return calibration
    return Calibration.load(calibration)


def _check_arguments(**given: Any) -> None:
    """The keyword arguments of :func:`encode` / :func:`encode_file`, checked before any work."""
    from lingualite.errors import check_argument

    kinds = {
        "normalize": (bool, None, False),
        "dimensions": (int, 1, True),
        "precision": (str, None, False),
        "batch_size": (int, 1, True),
        "threads": (int, 1, True),
        "workers": (int, 1, False),
        "progress": (bool, None, False),
    }
    for name, value in given.items():
        kind, minimum, none = kinds[name]
        check_argument(value, name, kind, minimum, none)


def _texts(texts: Sequence[str]) -> list[str]:
    """``texts`` as a list, each a non-blank string (:func:`lingualite.data.lines.check_not_blank`); one
    string, bytes, a dict or a set is a :class:`TypeError` (:func:`lingualite.text_sanitation.not_a_list`)."""
    from lingualite.data.lines import check_not_blank
    from lingualite.text_sanitation import check_texts, not_a_list

    error = not_a_list(texts)
    if error is not None:
        raise error
    texts = list(texts)
    check_texts(texts)
    check_not_blank(texts, None)
    return texts


def _encoder(model: Any, threads: int | None, batch_size: int | None) -> Any:
    """A loaded encoder as given, or the one a spec names."""
    if not isinstance(model, str | Path):
        return model
    from lingualite.encoders.loading import load_encoder

    encoder = load_encoder(model, threads=threads)
    if batch_size is not None and hasattr(encoder, "batch_size"):
        encoder.batch_size = batch_size
    return encoder


def encode(
    model: Any,
    texts: Sequence[str],
    *,
    normalize: bool = NORMALIZE,
    dimensions: int | None = None,
    precision: str = "float32",
    calibration: CalibrationLike = None,
    batch_size: int | None = None,
    threads: int | None = None,
) -> np.ndarray:
    """Vectors of ``texts``: the first ``dimensions`` components (renormalised when ``normalize``), then at
    ``precision`` (float32, int8, uint8, binary, ubinary; sentence-transformers' ``quantize_embeddings``).

    :param model: a model spec (folder, ``onnx:FOLDER``, baseline name...) or an encoder already loaded.
    :param calibration: int8/uint8 ranges: a :class:`~lingualite.runtime.precision.Calibration` or a
        calibration file (``OUTPUT.calibration.json`` of an encode); None: from these vectors
        (``quantize_embeddings``' default). Queries should use their documents' ranges.
    :raises LinguaLiteError: ``dimensions`` above the model's; ranges of other vectors. A size the model was
        not trained for is logged as a warning.
    """
    _check_arguments(
        normalize=normalize,
        dimensions=dimensions,
        precision=precision,
        batch_size=batch_size,
        threads=threads,
    )
    fmt = OutputFormat(dimensions, precision, _calibration(calibration), model)
    fmt.check()
    texts = _texts(texts)
    encoder = _encoder(model, threads, batch_size)
    vectors = dense_vectors(encoder, texts, len(texts))
    warning = check_dimensions(model, dimensions, int(vectors.shape[1]))
    if warning:
        logger.warning(warning)
    vectors = truncate(vectors, dimensions, normalize)
    ranges = None
    if fmt.calibration is not None:
        fmt.calibration.check_matches(int(vectors.shape[1]), normalize, "calibration")
        ranges = fmt.calibration.ranges
    return quantize(vectors, precision, ranges)


def encode_file(
    model: str | Path,
    input: str | Path,
    output: str | Path,
    *,
    normalize: bool = NORMALIZE,
    dimensions: int | None = None,
    precision: str = "float32",
    calibration: CalibrationLike = None,
    batch_size: int | None = None,
    threads: int | None = None,
    workers: int = 1,
    progress: bool = True,
) -> EncodedFile:
    """``lingualite encode``: one vector per line of ``input`` into ``output`` (``.npy``, written atomically,
    streamed in bounded memory), truncated and quantized as :func:`encode` does; a quantized output gets
    ``OUTPUT.calibration.json`` beside it (the result's ``calibration``). int8/uint8 without ``calibration``
    take exact ranges of all the vectors written (see :mod:`lingualite.runtime.vector_output`).

    :param workers: processes, each with its own copy of the model (one thread each).
    """
    from lingualite.io_utils import check_not_input
    from lingualite.runtime.precision import calibration_path

    _check_arguments(
        normalize=normalize,
        dimensions=dimensions,
        precision=precision,
        batch_size=batch_size,
        threads=threads,
        workers=workers,
        progress=progress,
    )
    fmt = OutputFormat(dimensions, precision, _calibration(calibration), str(model))
    fmt.check()
    if precision != "float32":
        check_not_input(calibration_path(output), [input])
    if workers > 1:
        from lingualite.runtime.parallel_encode import encode_file_parallel

        result = encode_file_parallel(
            str(model), input, output, workers, normalize, batch_size, progress, fmt=fmt
        )
    else:
        encoder = _encoder(model, threads, batch_size)
        result = _encode_file(encoder, input, output, normalize, progress, fmt=fmt)
        report = getattr(encoder, "unknown_report", None)
        if result.unknown is None and callable(report):
            result.unknown = report(result.sample)
    if fmt.warning:
        logger.warning(fmt.warning)
    result.warning, result.calibration = fmt.warning, fmt.written
    return result
