"""The Python API of ``lingualite encode``: vectors of texts in memory (:func:`encode`) or of a text file into a
``.npy`` (:func:`encode_file`), truncated (``dimensions``) and quantized (``precision``) by the same rules as
the command (:mod:`lingualite.vectors.truncation`, :mod:`lingualite.vectors.precision`)::

    from lingualite import Calibration, encode, encode_file, load_vectors

    docs = encode_file("runs/distill", "docs.txt", "docs.npy", normalize=True, dimensions=64, precision="int8")
    queries = encode("runs/distill", ["imprimer une page"], normalize=True, dimensions=64, precision="int8",
                     calibration="docs.calibration.json")  # the documents' ranges
    stored, calibration = load_vectors("docs.npy")
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.matryoshka_dims import check_dimensions
from lingualite.encoding.output import OutputFormat
from lingualite.encoding.to_file import EncodedFile, dense_vectors
from lingualite.encoding.to_file import encode_file as _encode_file
from lingualite.vectors.normalization import NORMALIZE
from lingualite.vectors.precision import Calibration, quantize
from lingualite.vectors.truncation import truncate

__all__ = ["encode", "encode_file"]

logger = logging.getLogger(__name__)

CalibrationLike = Calibration | str | Path | None
ENGINES = ("local", "ray")


def _calibration(calibration: CalibrationLike) -> Calibration | None:
    if calibration is None or isinstance(calibration, Calibration):
        return calibration
    return Calibration.load(calibration)


def _st_names(
    dimensions: int | None, truncate_dim: int | None, normalize: bool, normalize_embeddings: bool | None
) -> tuple[int | None, bool]:
    """``dimensions`` or sentence-transformers' ``truncate_dim`` (both at once must agree); ``normalize``, or
    ``normalize_embeddings`` when that is given."""
    if dimensions is not None and truncate_dim is not None and dimensions != truncate_dim:
        raise ValueError(f"dimensions={dimensions} and truncate_dim={truncate_dim}: give one")
    chosen = normalize if normalize_embeddings is None else normalize_embeddings
    return (dimensions if dimensions is not None else truncate_dim), chosen


def _check_arguments(**given: Any) -> None:
    """The keyword arguments of :func:`encode` / :func:`encode_file`, checked before any work: a wrong type is
    a :class:`TypeError` (``normalize="no"``, ``dimensions=1.5``), a wrong value a ``LinguaLiteError``."""
    from lingualite.core.errors import check_argument

    kinds = {
        "normalize": (bool, None, False),
        "dimensions": (int, 1, True),
        "precision": (str, None, False),
        "batch_size": (int, 1, True),
        "threads": (int, 1, True),
        "workers": (int, 1, True),
        "progress": (bool, None, False),
        "skip_bad": (bool, None, False),
    }
    for name, value in given.items():
        kind, minimum, none = kinds[name]
        check_argument(value, name, kind, minimum, none)


def _texts(texts: Sequence[str]) -> list[str]:
    """``texts`` as a list, each a non-blank string (:func:`lingualite.data.lines.check_not_blank`); one
    string, bytes, a dict or a set is a :class:`TypeError` (:func:`lingualite.text.sanitation.not_a_list`)."""
    from lingualite.data.lines import check_not_blank
    from lingualite.text.sanitation import check_texts, not_a_list

    error = not_a_list(texts)
    if error is not None:
        raise error
    texts = list(texts)
    check_texts(texts)
    check_not_blank(texts, None)
    return texts


def _encoder(model: Any, threads: int | None, batch_size: int | None, device: str = "auto") -> Any:
    """A loaded encoder as given, or the one a spec names; ``batch_size``, when given, set on either."""
    if isinstance(model, str | Path):
        from lingualite.encoders.resolve import load_encoder

        encoder = load_encoder(model, threads=threads, device=device)
    else:
        encoder = model
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
    device: str = "auto",
    truncate_dim: int | None = None,
    normalize_embeddings: bool | None = None,
) -> np.ndarray:
    """Vectors of ``texts``: the first ``dimensions`` components (renormalised when ``normalize``), then at
    ``precision`` (float32, int8, uint8, binary, ubinary; sentence-transformers' ``quantize_embeddings``).

    :param model: a model spec (folder, ``onnx:FOLDER``, baseline name...) or an encoder already loaded
        (:func:`lingualite.load_encoder`).
    :param calibration: int8/uint8 ranges: a :class:`~lingualite.vectors.precision.Calibration` or a
        calibration file (``OUTPUT.calibration.json`` of an encode); None: from these vectors
        (``quantize_embeddings``' default). Queries should use their documents' ranges.
    :param truncate_dim: sentence-transformers' name of ``dimensions``; ``normalize_embeddings``: of
        ``normalize``.
    :raises LinguaLiteError: ``dimensions`` above the model's; ranges of other vectors. A size the model was
        not trained for is logged as a warning.
    """
    model = getattr(model, "backend", model)  # an Encoder of lingualite.encoding.model: the backend it holds
    dimensions, normalize = _st_names(dimensions, truncate_dim, normalize, normalize_embeddings)
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
    encoder = _encoder(model, threads, batch_size, device)
    vectors = dense_vectors(encoder, texts, len(texts))
    _refuse_unknown(vectors, texts)
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
    workers: int | None = None,
    engine: str = "local",
    text_column: str = "text",
    overwrite: bool = False,
    device: str = "auto",
    progress: bool = True,
    report: Callable[[str], None] | None = None,
    truncate_dim: int | None = None,
    normalize_embeddings: bool | None = None,
    skip_bad: bool = False,
) -> EncodedFile:
    """``lingualite encode``: one vector per line of ``input`` into ``output`` (``.npy``, written atomically,
    streamed in bounded memory), truncated and quantized as :func:`encode` does; a quantized output gets
    ``OUTPUT.calibration.json`` beside it (the result's ``calibration``). int8/uint8 without ``calibration``
    take exact ranges of all the vectors written (see :mod:`lingualite.encoding.output`). ``output`` may not
    be ``input``, lie in the model folder or be a directory; the temporary file of a killed earlier run is
    removed first.

    :param workers: ``engine="local"``: processes, each with its own copy of the model (one thread each;
        default 1: this process, ``threads`` threads); ``engine="ray"``: Ray actors (default: one per CPU).
    :param engine: ``local`` (this machine) or ``ray`` (Ray Data; ``output`` may also be a Parquet folder
        and ``input`` Parquet, read from ``text_column``; ``overwrite`` replaces an earlier such folder).
    :param device: ``auto``, ``cpu``, ``cuda`` or ``cuda:N``; the batch size defaults to the device's.
    :param report: where the warnings go (a size the model was not trained for, text unknown to its
        vocabulary); default: the ``lingualite.encoding.api`` logger.
    :param truncate_dim: sentence-transformers' name of ``dimensions``; ``normalize_embeddings``: of
        ``normalize``.
    :param skip_bad: a line with no token the model knows (:mod:`lingualite.encoders.known_tokens`) gets no
        row, instead of stopping the run: the result's ``skipped`` lists such lines (1-based), and so does
        ``OUTPUT.skipped.txt`` beside the output (one number a line; written whenever ``skip_bad`` is on).
    :raises BadInputError: without ``skip_bad``, the first such line (``FILE:LINE``); with it, every line.
    """
    from lingualite.core.device import encode_batch_size, resolve_device

    dimensions, normalize = _st_names(dimensions, truncate_dim, normalize, normalize_embeddings)
    _check_arguments(
        normalize=normalize,
        dimensions=dimensions,
        precision=precision,
        batch_size=batch_size,
        threads=threads,
        workers=workers,
        progress=progress,
        skip_bad=skip_bad,
    )
    input, output = Path(input), Path(output)
    report = report or logger.warning
    batch_size = encode_batch_size(resolve_device(device), batch_size)
    fmt = _checked_output(model, input, output, engine, dimensions, precision, calibration)
    fmt.skip_bad = skip_bad
    if engine == "ray":
        from lingualite.encoding.ray_workers import encode_ray

        result = encode_ray(
            str(model), input, output, workers, normalize, batch_size, text_column, progress, fmt=fmt,
            overwrite=overwrite,
        )  # fmt: skip
    elif (workers or 1) > 1:
        from lingualite.encoding.workers import encode_file_parallel

        result = encode_file_parallel(
            str(model), input, output, workers or 1, normalize, batch_size, progress, fmt=fmt, device=device
        )
    else:
        encoder = _encoder(model, threads, batch_size, device)
        result = _encode_file(encoder, input, output, normalize, progress, fmt=fmt)
        unknown_report = getattr(encoder, "unknown_report", None)
        if result.unknown is None and callable(unknown_report):
            result.unknown = unknown_report(result.sample)
    result.warning, result.calibration, result.skipped = fmt.warning, fmt.written, list(fmt.skipped)
    _skipped_file(output, input, skip_bad, result.skipped)
    for warning in filter(None, [fmt.warning, _unknown_warning(result), _skipped_warning(result, output)]):
        report(warning)
    return result


def _refuse_unknown(vectors: np.ndarray, texts: list[str]) -> None:
    """The first text with no token the model knows (its row marked by ``dense_vectors``): ``texts[i]``."""
    from lingualite.encoders.known_tokens import marked, refusal

    rows = marked(vectors)
    if rows.size:
        raise refusal(None, int(rows[0]), texts[int(rows[0])])


def skipped_path(output: str | Path) -> Path:
    """``OUTPUT.skipped.txt``: the input lines that ``--skip-bad`` gave no row, one number a line."""
    output = Path(output)
    return output.with_name(output.name + ".skipped.txt")


def _skipped_file(output: Path, input: Path, skip_bad: bool, skipped: list[int]) -> None:
    """Write :func:`skipped_path` under ``skip_bad`` (empty when nothing was skipped); otherwise remove one
    that an earlier run left, which would describe another output."""
    from lingualite.core.io_utils import atomic_file

    path = skipped_path(output)
    if not skip_bad or output.is_dir():  # a Parquet folder keeps each row's line number itself
        if not output.is_dir():
            path.unlink(missing_ok=True)
        return
    with atomic_file(path, inputs=[input]) as tmp:
        Path(tmp).write_text("".join(f"{line}\n" for line in skipped), encoding="utf-8")


def _skipped_warning(result: EncodedFile, output: Path) -> str | None:
    if not result.skipped:
        return None
    shown = ", ".join(map(str, result.skipped[:5])) + (", ..." if len(result.skipped) > 5 else "")
    listed = "each row keeps its line" if output.is_dir() else f"all in {skipped_path(output)}"
    return (
        f"skipped {len(result.skipped):,} lines with no token the model knows (lines {shown}; {listed}): "
        f"{output} has {result.sentences - len(result.skipped):,} rows"
    )


def _checked_output(
    model: str | Path,
    input: Path,
    output: Path,
    engine: str,
    dimensions: int | None,
    precision: str,
    calibration: CalibrationLike,
) -> OutputFormat:
    """Every check of ``encode_file`` that comes before any work; the output format."""
    from lingualite.core.io_utils import check_not_input, clean_leftovers
    from lingualite.core.ownership import check_output_suffix, check_separate
    from lingualite.encoders.spec import spec_folder
    from lingualite.vectors.precision import calibration_path

    if engine not in ENGINES:
        raise LinguaLiteError(f"--engine: {engine!r} is not one of {', '.join(ENGINES)}")
    check_separate(output, [input, *filter(None, [spec_folder(str(model))])])  # never in the model folder
    if engine == "local" and output.parent.is_dir():
        clean_leftovers(output.parent, target=output.name)  # the temp file of a killed earlier run
    check_not_input(output, [input, *([Path(calibration)] if isinstance(calibration, str | Path) else [])])
    fmt = OutputFormat(dimensions, precision, _calibration(calibration), str(model))
    fmt.check()
    if precision != "float32":
        check_not_input(calibration_path(output), [input])
    if output.is_dir() and (engine == "local" or output.suffix == ".npy"):
        raise LinguaLiteError(f"{output}: is a directory; --output names the .npy file to write")
    if engine == "ray":  # a .npy file, or a Parquet folder
        check_output_suffix(output, (".npy", ".parquet", ""), "encode --engine ray", strict=True)
    else:
        check_output_suffix(output, (".npy",), "encode", strict=True)
    if not input.exists():
        raise LinguaLiteError(f"{input}: does not exist")
    if engine == "local" and input.suffix == ".parquet":
        raise LinguaLiteError(f"{input}: Parquet input is read by --engine ray (see --text-column)")
    return fmt


def _unknown_warning(result: EncodedFile) -> str | None:
    """Say when much of the input is unknown to the model's vocabulary (such text gets [UNK] vectors)."""
    if result.unknown is None or not (result.unknown[0] >= 0.05 or result.unknown[1]):
        return None
    share, whole = result.unknown
    return (
        f"{share:.0%} of the tokens ({whole:,} sentences entirely, in the first {len(result.sample):,} lines) "
        "are unknown to this model's vocabulary; such text gets near-identical vectors"
    )
