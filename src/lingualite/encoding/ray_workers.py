"""``lingualite encode --engine ray``: the same vectors on Ray Data, on this machine or on a Ray cluster.

The driver reads the input (a text file, or Parquet with a text column) in chunks and puts each chunk into
Ray's object store as an Arrow table ``(line, text)``; ``Dataset.map_batches`` runs :class:`EmbedBatch`, a
callable class, on an actor pool of ``workers`` actors (one model per actor, loaded once by its spec string,
one thread each). Outputs:

- a Parquet folder (``Dataset.write_parquet``, written by the workers, staged beside the target and renamed
  when complete): columns ``line`` (int64, the input line or row number from 0) and ``embedding``
  (``fixed_size_list<float32>[d]``); files and rows in any order, ``line`` says where a row belongs;
- a ``.npy`` (``OUTPUT.npy``): the driver collects the rows in order (``preserve_order``) and writes them with
  the plain encode's writer; for inputs whose vectors fit through one machine's disk;
- ``.npy`` shards (:func:`encode_shards_ray`, for the bitext-mining pipeline).

Why the driver reads text instead of ``ray.data.read_text``: ``read_text`` reads each file whole in one task,
splits lines with ``str.splitlines`` (which also breaks at U+2028, U+0085, form feeds...), keeps a BOM and has
no line numbers, so its rows would not be the plain encode's rows. The driver reads with
:func:`lingualite.data.lines.iter_line_chunks` (the same lines and the same file:line errors) and only the
object refs stay in its memory. Ray starts in local mode (``ray.init(num_cpus=workers + 1)``) unless
``RAY_ADDRESS`` names a cluster (``ray start --head``), which it then joins; Ray is the optional extra
``pip install -e ".[distributed]"``. A local Ray ends with the command, ``kill -9`` included
(:func:`lingualite.encoding.lifeline.start_reaper`); a cluster's processes are not ours and are left alone.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.data.lines import BLANK, check_not_blank, iter_line_chunks
from lingualite.encoding.to_file import (
    CHUNK,
    EncodedFile,
    OutputFormat,
    dense_vectors,
    l2_normalize,
    write_npy,
)
from lingualite.encoding.workers import (
    Blocks,
    Pieces,
    check_not_fitted,
    in_order,
    load_worker_encoder,
    numbered,
    plan_shards,
    write_shards,
)
from lingualite.text.sanitation import text_problem

__all__ = ["EmbedBatch", "encode_ray", "encode_shards_ray", "init_ray", "read_pieces", "require_ray"]

OBJECT_STORE_BYTES = 512 * 2**20  # local mode: text chunks and vector blocks; Ray spills to disk beyond it
PARQUET_ROWS_PER_FILE = 100_000  # rows gathered per Parquet file (Ray writes one file per block otherwise)
INSTALL_HINT = 'pip install -e ".[distributed]" (or pip install "ray[data]")'


def require_ray() -> Any:
    """The ``ray`` module, or a one-line error saying how to install it."""
    try:
        import ray
        import ray.data  # noqa: F401 - the Data library is the part we use
    except ImportError:
        raise LinguaLiteError(f"--engine ray needs Ray, an optional extra: {INSTALL_HINT}") from None
    return ray


def ray_data() -> Any:
    """The ``ray.data`` module (:func:`require_ray` first)."""
    return require_ray().data


def init_ray(workers: int | None = None) -> tuple[Any, int]:
    """Start Ray in local mode (``workers + 1`` CPUs: the actors and Ray Data's own tasks; default workers:
    one per core), join the cluster that ``RAY_ADDRESS`` names, or keep the Ray this process already started.
    Returns the ``ray`` module and the number of actors to run (default: the cluster's CPUs less one)."""
    ray = require_ray()
    if not ray.is_initialized():
        _start(ray, workers or os.cpu_count() or 1)
    if workers is None:
        workers = max(1, int(ray.cluster_resources().get("CPU", 2)) - 1)
    return ray, workers


def _start(ray: Any, workers: int) -> None:
    if os.environ.get("RAY_ADDRESS"):
        ray.init(ignore_reinit_error=True, log_to_driver=False, logging_level="WARNING")  # reads RAY_ADDRESS
    else:  # a Ray of our own, which must not outlive us, even after kill -9
        from lingualite.encoding.lifeline import start_reaper

        start_reaper()
        ray.init(
            num_cpus=workers + 1,
            include_dashboard=False,
            object_store_memory=OBJECT_STORE_BYTES,
            ignore_reinit_error=True,
            log_to_driver=False,
            logging_level="WARNING",
        )


def _is_parquet(path: Path) -> bool:
    return path.suffix == ".parquet" or (path.is_dir() and any(path.glob("*.parquet")))


def read_pieces(input: Path, text_column: str = "text", chunk: int = CHUNK) -> Pieces:
    """``(first line, texts)`` chunks of a text file (checked as the plain encode reads it) or of Parquet
    (one file, or a folder of ``*.parquet`` in name order; the ``text_column`` column, no nulls)."""
    input = Path(input)
    if not input.exists():
        raise LinguaLiteError(f"{input}: does not exist")
    if not _is_parquet(input):
        for first, texts in numbered(iter_line_chunks(input, chunk)):
            check_not_blank(texts, input, first + 1)
            yield first, texts
        return
    import pyarrow.parquet as pq

    first = 0
    for path in sorted(input.glob("*.parquet")) if input.is_dir() else [input]:
        try:
            reader = pq.ParquetFile(path)
        except Exception as exc:  # pyarrow's ArrowInvalid and friends: not a Parquet file
            raise LinguaLiteError(f"{path}: not a readable Parquet file ({exc})") from None
        if text_column not in reader.schema_arrow.names:
            raise LinguaLiteError(
                f"{path}: no column {text_column!r} (columns: {', '.join(reader.schema_arrow.names)}); "
                "name the text column with --text-column"
            )
        in_file = 0
        for batch in reader.iter_batches(batch_size=chunk, columns=[text_column]):
            texts = batch.column(0).to_pylist()
            if None in texts:
                row = in_file + texts.index(None)
                raise LinguaLiteError(f"{path}: row {row} (from 0) of column {text_column!r} is null")
            if not all(isinstance(t, str) for t in texts):
                raise LinguaLiteError(f"{path}: column {text_column!r} is not text")
            for i, text in enumerate(texts):  # Arrow text is UTF-8 already; a NUL is what can still be there
                if (problem := text_problem(text)) is not None:
                    raise LinguaLiteError(f"{path}: row {in_file + i} (from 0): {problem.reason}")
                if not text.strip():
                    raise LinguaLiteError(
                        f"{path}: row {in_file + i} (from 0) of column {text_column!r}: {BLANK}"
                    )
            yield first, texts
            first, in_file = first + len(texts), in_file + len(texts)


class EmbedBatch:
    """The ``map_batches`` callable class: one model per actor, loaded once; ``(line, text)`` Arrow batches
    to ``(line, embedding)``, the embedding a ``fixed_size_list<float32>[d]``."""

    def __init__(self, spec: str, batch_size: int | None, normalize: bool, drop_marked: bool = False) -> None:
        self.encoder = load_worker_encoder(spec, batch_size)
        self.normalize = normalize
        self.drop_marked = drop_marked  # a Parquet folder: no row for a text with no known token

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        from lingualite.encoders.known_tokens import marked

        texts = batch.column("text").to_pylist()
        vectors = dense_vectors(self.encoder, texts, len(texts))
        lines = batch.column("line")
        if self.drop_marked and (rows := marked(vectors)).size:  # the driver refuses or counts the lines
            keep = np.ones(len(texts), bool)
            keep[rows] = False
            vectors, lines = vectors[keep], lines.filter(pa.array(keep))
        if self.normalize:
            l2_normalize(vectors)
        values = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1))
        embedding = pa.FixedSizeListArray.from_arrays(values, int(vectors.shape[1]))
        return pa.table({"line": lines, "embedding": embedding})


def _dataset(ray: Any, pieces: Pieces) -> tuple[Any, int]:
    """A Dataset of the pieces (one Arrow block each, in the object store) and its row count."""
    import pyarrow as pa

    refs, total = [], 0
    for first, texts in pieces:
        lines = pa.array(np.arange(first, first + len(texts), dtype=np.int64))
        refs.append(ray.put(pa.table({"line": lines, "text": pa.array(texts, pa.string())})))
        total += len(texts)
    return (ray.data.from_arrow_refs(refs) if refs else None), total


def _embedded(
    ds: Any, spec: str, workers: int, normalize: bool, batch_size: int | None, chunk: int, drop: bool = False
) -> Any:
    """``map_batches`` on an actor pool: no more actors than blocks (a small input is one block)."""
    workers = max(1, min(workers, ds.num_blocks()))
    return ds.map_batches(
        EmbedBatch,
        fn_constructor_args=(spec, batch_size, normalize, drop),
        batch_size=chunk,
        batch_format="pyarrow",
        compute=ray_data().ActorPoolStrategy(size=workers),  # the actor pool: `concurrency` in newer Ray
        num_cpus=1,
    )


def _blocks(ds: Any) -> Blocks:
    """``(first line, vectors)`` of the Dataset's output batches, in order (``preserve_order`` is set)."""
    for batch in ds.iter_batches(batch_format="pyarrow", batch_size=None):
        if batch.num_rows == 0:
            continue
        embedding = batch.column("embedding").combine_chunks()
        vectors = embedding.flatten().to_numpy().reshape(batch.num_rows, embedding.type.list_size)
        lines = batch.column("line").to_numpy()
        if not (np.diff(lines) == 1).all():  # a bug: rows out of order within a batch
            raise RuntimeError(f"rows out of order after line {lines[0]}")
        yield int(lines[0]), np.array(vectors, dtype=np.float32)


@contextlib.contextmanager
def _ordered(ray: Any) -> Iterator[None]:
    """Ray Data keeps the blocks' order while this is open (the Datasets made inside it)."""
    options = ray.data.DataContext.get_current().execution_options
    before, options.preserve_order = options.preserve_order, True
    try:
        yield
    finally:
        options.preserve_order = before


def _progress_bars(ray: Any, show: bool) -> None:
    """Ray Data's progress bars and INFO lines when ``show``; warnings only otherwise."""
    import logging

    ray.data.DataContext.get_current().enable_progress_bars = show
    logging.getLogger("ray.data").setLevel(logging.INFO if show else logging.WARNING)


def encode_ray(
    spec: str,
    input: str | Path,
    output: str | Path,
    workers: int | None = None,
    normalize: bool = False,
    batch_size: int | None = None,
    text_column: str = "text",
    progress: bool = True,
    chunk: int = CHUNK,
    fmt: OutputFormat | None = None,
    overwrite: bool = False,
) -> EncodedFile:
    """Vectors of every line (or Parquet row) of ``input`` on Ray: ``output`` ending in ``.npy`` is one array
    in input order (in ``fmt``: truncated, quantized), anything else a new Parquet folder (``line``,
    ``embedding``: the float32 vectors; an earlier one is replaced only with ``overwrite``:
    :mod:`lingualite.core.ownership`, kind ``encode``)."""
    check_not_fitted(spec)
    input, output = Path(input), Path(output)
    _check_output(input, output, spec, overwrite)
    shaped = fmt is not None and not fmt.plain
    if shaped and output.suffix != ".npy":
        raise LinguaLiteError(
            f"{output}: --dimensions and --precision write a .npy; --engine ray's Parquet folders hold the "
            "float32 vectors (name an OUTPUT.npy)"
        )
    ray, workers = init_ray(workers)
    _progress_bars(ray, progress)
    with _ordered(ray) if output.suffix == ".npy" else contextlib.nullcontext():
        ds, total = _dataset(ray, read_pieces(input, text_column, chunk))
        if ds is None:
            raise LinguaLiteError(f"{input}: is empty; nothing to encode")
        out = _embedded(ds, spec, workers, normalize, batch_size, chunk, drop=output.suffix != ".npy")
        if output.suffix == ".npy":
            # the actors normalised the full vectors; a truncated prefix is renormalised by write_npy
            blocks = in_order(_blocks(out))
            dimension = write_npy(output, [input], total, blocks, normalize and shaped, False, fmt=fmt)
        else:
            skip_bad = fmt is not None and fmt.skip_bad
            inputs = [input, *_model_folders(spec)]
            dimension, skipped = _write_parquet(out, output, inputs, overwrite, total, skip_bad)
            if fmt is not None:
                fmt.skipped = skipped
    return EncodedFile(total, dimension, [])


def _model_folders(spec: str) -> list[Path]:
    from lingualite.encoders.spec import spec_folder

    folder = spec_folder(spec)
    return [] if folder is None else [folder]


def _check_output(input: Path, output: Path, spec: str, overwrite: bool) -> None:
    from lingualite.core.io_utils import check_not_input, clean_leftovers
    from lingualite.core.ownership import check_folder, check_separate

    check_not_input(output, [input])
    if output.suffix == ".npy":
        if output.is_dir():
            raise LinguaLiteError(f"{output}: is a directory; --output names the .npy file to write")
        clean_leftovers(output.parent, target=output.name)
    else:
        check_separate(output, [input, *_model_folders(spec)])
        check_folder(output, "encode", overwrite)


def _write_parquet(
    ds: Any, output: Path, inputs: list[Path], overwrite: bool, total: int, skip_bad: bool = False
) -> tuple[int, list[int]]:
    """Write the Dataset into a folder staged beside ``output``, swapped in when complete (checked again
    then: :func:`lingualite.core.ownership.replacing`); the dimension and the (1-based) lines the actors gave
    no row, having no known token: without ``skip_bad`` the first is refused before the swap."""
    import pyarrow.parquet as pq

    from lingualite.core.ownership import replacing

    with replacing(output, "encode", overwrite, inputs) as staging:
        ds.write_parquet(str(staging), min_rows_per_file=PARQUET_ROWS_PER_FILE)
        files = sorted(staging.glob("*.parquet"))
        skipped = missing_lines(files, total)
        if skipped and not skip_bad:
            from lingualite.encoders.known_tokens import refusal

            raise refusal(inputs[0], skipped[0], None)
        if len(skipped) == total:
            raise LinguaLiteError(
                f"{inputs[0]}: all {total:,} lines were skipped (--skip-bad); nothing to encode"
            )
        schema = pq.read_schema(files[0])
    return int(schema.field("embedding").type.list_size), skipped


def missing_lines(files: list[Path], total: int) -> list[int]:
    """The 1-based lines of ``0..total-1`` that no row of the Parquet ``files`` holds (column ``line``)."""
    import pyarrow.parquet as pq

    present = np.zeros(total, bool)
    for path in files:
        present[pq.read_table(path, columns=["line"]).column("line").to_numpy()] = True
    return (np.flatnonzero(~present) + 1).tolist()


def encode_shards_ray(
    model: str,
    input: Path,
    shard_dir: Path,
    shard_size: int,
    normalize: bool = True,
    workers: int | None = None,
    batch_size: int | None = None,
    progress: bool = False,
    chunk: int = CHUNK,
) -> list[Path]:
    """:func:`lingualite.encoding.workers.encode_shards` on Ray (``workers`` actors, default: one per
    CPU): the same ``shard_dir/shard-{i:05d}.npy`` files, shards already there skipped. The driver writes the
    shards, so ``shard_dir`` only needs to be on the driver's disk."""
    check_not_fitted(model)
    plan = plan_shards(input, shard_dir, shard_size, chunk)
    if not plan.missing:
        return plan.paths
    ray, workers = init_ray(workers)
    _progress_bars(ray, progress)
    Path(shard_dir).mkdir(parents=True, exist_ok=True)
    with _ordered(ray):
        ds, _ = _dataset(ray, plan.pieces(chunk))
        out = _embedded(ds, model, workers, False, batch_size, chunk)
        write_shards(_blocks(out), plan, normalize, progress)
    return plan.paths
