"""``lingualite encode --workers N``: every core of one machine, without Ray.

N worker processes (multiprocessing, *spawn*: no forked torch or tokenizer threads) each load the model
once, by its spec string, with one thread; the main process streams the input in chunks
(:func:`lingualite.data.lines.iter_line_chunks`, the same checks as the plain encode), keeps at most two
chunks per worker in flight, and writes the vectors back in input order through the plain encode's writer
(:func:`lingualite.encoding.to_file.write_npy`: header, rows, atomic rename, progress with ETA). The chunks
are the plain encode's chunks, so each encoder call sees the same sentences and the output is the same.

:func:`encode_shards` writes the same vectors as fixed-size ``.npy`` shards (the bitext-mining pipeline),
resumable: shards already on disk are checked and skipped.

Built on :class:`concurrent.futures.ProcessPoolExecutor`; the ordered window is written here because
``Executor.map`` submits the whole input at once (unbounded memory on a large file). The workers die with the
main process, ``kill -9`` included (:func:`lingualite.encoding.lifeline.die_with_parent`).
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.data.lines import iter_line_chunks
from lingualite.encoding.lifeline import die_with_parent
from lingualite.encoding.to_file import (
    CHUNK,
    EncodedFile,
    OutputFormat,
    count_lines,
    dense_vectors,
    l2_normalize,
    write_npy,
)

__all__ = [
    "EncoderPool",
    "check_not_fitted",
    "encode_file_parallel",
    "encode_shards",
    "load_worker_encoder",
    "numbered",
    "plan_shards",
    "shard_path",
    "write_shards",
]

IN_FLIGHT_PER_WORKER = 2  # chunks queued per worker: one encoding, one waiting (no idle gap between chunks)
Pieces = Iterable[tuple[int, list[str]]]  # (number of the first line, counted from 0; the lines)
Blocks = Iterator[tuple[int, np.ndarray]]  # (number of the first line; its vectors), in line order


def check_not_fitted(spec: str, use: str | None = None) -> None:
    """Refuse encoders fitted on their input (TF-IDF): split across processes or shards, each part would be
    fitted on different lines and the vectors would not be comparable. Checked without loading a model."""
    import typing

    from lingualite.encoders.baselines import BASELINES

    make = BASELINES.get(str(spec))
    if make is None:  # folders (torch, onnx, static) are never fitted
        return
    try:
        made = make if isinstance(make, type) else typing.get_type_hints(make).get("return")
    except NameError:  # an annotation only a type checker resolves: not a fitted encoder's constructor
        return
    if callable(getattr(made, "fit", None)):
        raise _fitted_error(spec, use)


def _fitted_error(spec: str, use: str | None = None) -> LinguaLiteError:
    """``use``: what needs the split (``mine encodes each side in shards``), with the advice for it; None:
    encode's advice (one worker, the local engine)."""
    if use is not None:
        return LinguaLiteError(
            f"{spec}: is fitted on its input (it needs every line before the first vector), and {use}; use a "
            "model that encodes each text on its own (a model folder, lingualite-small, use-m, minilm, "
            "e5-small, or onnx:/static:/bf16:FOLDER)"
        )
    return LinguaLiteError(
        f"{spec}: is fitted on its input (it needs every line before the first vector), so it cannot be "
        "split across workers, actors or shards; encode with --workers 1 --engine local"
    )


def load_worker_encoder(
    spec: str, batch_size: int | None = None, threads: int | None = 1, device: str = "auto"
) -> Any:
    """The encoder of ``spec`` for one worker process or Ray actor (``threads=1``: the workers are the
    parallelism, the Rust tokenizer included), refused if it must be fitted on its input."""
    from lingualite.encoders.resolve import load_encoder

    if threads == 1:
        os.environ["TOKENIZERS_PARALLELISM"] = "false"  # a worker's own environment
    encoder = load_encoder(spec, threads=threads, device=device)
    if callable(getattr(encoder, "fit", None)):
        raise _fitted_error(spec)
    if batch_size and hasattr(encoder, "batch_size"):
        encoder.batch_size = batch_size
    return encoder


_WORKER_ENCODER: Any = None  # the model of this worker process, loaded by its first chunk


def _encode_in_worker(
    spec: str,
    batch_size: int | None,
    texts: list[str],
    report: bool,
    device: str = "auto",
    marks: bool = True,
) -> tuple[np.ndarray, tuple[float, int] | None]:
    global _WORKER_ENCODER
    try:
        if _WORKER_ENCODER is None:
            _WORKER_ENCODER = load_worker_encoder(spec, batch_size, device=device)
        vectors = dense_vectors(_WORKER_ENCODER, texts, len(texts), marks)
    except LinguaLiteError as exc:  # subclasses take other arguments and would not unpickle in the parent
        raise LinguaLiteError(str(exc)) from None
    unknown = getattr(_WORKER_ENCODER, "unknown_report", None)
    return vectors, (unknown(texts) if report and callable(unknown) else None)


class EncoderPool:
    """``workers`` spawned processes holding one model each; :meth:`encode` maps chunks to vectors in order.

    With ``workers=1`` nothing is spawned: the model is loaded here and chunks are encoded in this process.
    Use as a context manager (the processes end with it). ``marks``: zero the rows of texts with no token the
    model knows (:func:`~lingualite.encoding.to_file.dense_vectors`); False for a distillation teacher."""

    def __init__(
        self, spec: str, workers: int, batch_size: int | None = None, device: str = "auto", marks: bool = True
    ) -> None:
        if workers < 1:
            raise LinguaLiteError(f"--workers must be at least 1, not {workers}")
        self.spec, self.workers, self.batch_size, self.device = spec, workers, batch_size, device
        self.marks = marks
        self.unknown: tuple[float, int] | None = None  # the first chunk's unknown-token report
        self._executor: ProcessPoolExecutor | None = None
        self._local: Any = None

    def __enter__(self) -> EncoderPool:
        if self.workers > 1:
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(  # workers end with us, even after kill -9 (lifeline)
                self.workers, mp_context=context, initializer=die_with_parent, initargs=(os.getpid(),)
            )
        else:
            self._local = load_worker_encoder(self.spec, self.batch_size, threads=None, device=self.device)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)

    def encode(self, pieces: Pieces) -> Blocks:
        """``(first line, vectors)`` of each ``(first line, texts)`` piece, in the pieces' order."""
        if self._executor is None:
            for i, (first, texts) in enumerate(pieces):
                report = getattr(self._local, "unknown_report", None)
                if i == 0 and callable(report):
                    self.unknown = report(texts)
                yield first, dense_vectors(self._local, texts, len(texts), self.marks)
            return
        window: deque[tuple[int, Future]] = deque()
        try:
            for i, (first, texts) in enumerate(pieces):
                window.append(
                    (
                        first,
                        self._executor.submit(
                            _encode_in_worker,
                            self.spec,
                            self.batch_size,
                            texts,
                            i == 0,
                            self.device,
                            self.marks,
                        ),
                    )
                )
                if len(window) >= self.workers * IN_FLIGHT_PER_WORKER:
                    yield self._next(window)
            while window:
                yield self._next(window)
        except BrokenProcessPool as exc:
            raise LinguaLiteError(
                f"{self.spec}: a worker process died (out of memory?); try fewer --workers or a smaller "
                "--batch-size"
            ) from exc

    def _next(self, window: deque[tuple[int, Future]]) -> tuple[int, np.ndarray]:
        first, future = window.popleft()
        vectors, unknown = future.result()
        if unknown is not None:
            self.unknown = unknown
        return first, vectors


def numbered(chunks: Iterable[list[str]]) -> Iterator[tuple[int, list[str]]]:
    """``(first line, texts)`` pieces of consecutive chunks, lines counted from 0."""
    first = 0
    for texts in chunks:
        yield first, texts
        first += len(texts)


def in_order(blocks: Blocks) -> Iterator[np.ndarray]:
    """The vectors of ``blocks``, checked to follow each other from line 0 without a gap."""
    expected = 0
    for first, vectors in blocks:
        if first != expected:  # a bug (an engine that reorders), never bad input
            raise RuntimeError(f"vectors of line {first} came where line {expected} was expected")
        expected += len(vectors)
        yield vectors


def encode_file_parallel(
    spec: str,
    input: str | Path,
    output: str | Path,
    workers: int,
    normalize: bool = False,
    batch_size: int | None = None,
    progress: bool = True,
    chunk: int = CHUNK,
    fmt: OutputFormat | None = None,
    device: str = "auto",
) -> EncodedFile:
    """:func:`lingualite.encoding.to_file.encode_file` on ``workers`` processes: the same ``.npy`` (in
    ``fmt``: truncated, quantized)."""
    check_not_fitted(spec)
    input, output = Path(input), Path(output)
    total = count_lines(input, chunk)
    sample: list[str] = []

    def chunks() -> Iterator[list[str]]:
        for texts in iter_line_chunks(input, chunk):
            if not sample:
                sample.extend(texts)
            yield texts

    with EncoderPool(spec, workers, batch_size, device) as pool:
        blocks = in_order(pool.encode(numbered(chunks())))
        show = progress and total > chunk
        label = f"encode ({workers} workers)"
        dimension = write_npy(output, [input], total, blocks, normalize, show, label, fmt)
    return EncodedFile(total, dimension, sample, pool.unknown)


def shard_path(shard_dir: Path, index: int) -> Path:
    """``shard_dir/shard-00000.npy``: the vectors of lines ``[index * shard_size, (index + 1) * shard_size)``."""
    return Path(shard_dir) / f"shard-{index:05d}.npy"


@dataclass
class ShardPlan:
    """Every shard's path and row count, and the shards still to write."""

    input: Path
    shard_size: int
    paths: list[Path]
    rows: list[int]
    missing: list[int]

    def pieces(self, chunk: int = CHUNK) -> Iterator[tuple[int, list[str]]]:
        """``(first line, texts)`` pieces of at most ``chunk`` lines covering the missing shards only."""
        todo = set(self.missing)
        for i, texts in enumerate(iter_line_chunks(self.input, self.shard_size)):
            if i in todo:
                for start in range(0, len(texts), chunk):
                    yield i * self.shard_size + start, texts[start : start + chunk]


def plan_shards(input: str | Path, shard_dir: str | Path, shard_size: int, chunk: int = CHUNK) -> ShardPlan:
    """Count (and check) the input's lines; a shard already on disk must hold its shard's row count."""
    input, shard_dir = Path(input), Path(shard_dir)
    if shard_size < 1:
        raise LinguaLiteError(f"shard size must be at least 1, not {shard_size}")
    if shard_dir.exists() and not shard_dir.is_dir():
        raise LinguaLiteError(f"{shard_dir}: is a file; the shards go into a folder")
    total = count_lines(input, chunk)
    count = -(-total // shard_size)
    paths = [shard_path(shard_dir, i) for i in range(count)]
    rows = [min(shard_size, total - i * shard_size) for i in range(count)]
    missing = []
    for i, path in enumerate(paths):
        if not path.exists():
            missing.append(i)
            continue
        try:
            shape = np.load(path, mmap_mode="r", allow_pickle=False).shape
        except (ValueError, OSError) as exc:
            raise LinguaLiteError(
                f"{path}: not a readable .npy shard ({exc}); remove it to encode it again"
            ) from exc
        if len(shape) != 2 or shape[0] != rows[i]:
            raise LinguaLiteError(
                f"{path}: holds {shape[0] if shape else 0:,} rows where shard {i} of {input} (shard size "
                f"{shard_size:,}) has {rows[i]:,}: another input or shard size? Remove {shard_dir} or choose "
                "another folder"
            )
    return ShardPlan(input, shard_size, paths, rows, missing)


def write_shards(
    blocks: Blocks, plan: ShardPlan, normalize: bool, progress: bool = True, label: str = "encode shards"
) -> None:
    """Cut ``blocks`` (in line order, possibly straddling shards) at shard boundaries and write each missing
    shard when complete (float32 ``.npy``, L2-normalised if asked; temp file + rename). ``progress``: a bar
    on a terminal, plain ``label: done/total sentences (elapsed, ETA)`` lines otherwise, per encoded block
    (not only per shard: one shard can take minutes)."""
    from lingualite.core.io_utils import atomic_file
    from lingualite.core.progress import progress_bar

    pending: dict[int, list[np.ndarray]] = {}
    total = sum(plan.rows[i] for i in plan.missing)
    done = 0
    with progress_bar(label, progress, "sentences") as bar:
        task = bar.add_task(label, total=total, info="")
        for first, vectors in blocks:
            bar.advance(task, len(vectors))
            done += _cut(first, vectors, pending, plan, normalize, atomic_file)
    if pending or done != total:  # a bug: an engine that lost lines
        raise RuntimeError(f"{plan.input}: {done:,} of {total:,} shard rows written")


def _cut(
    first: int,
    vectors: np.ndarray,
    pending: dict[int, list[np.ndarray]],
    plan: ShardPlan,
    normalize: bool,
    atomic_file: Any,
) -> int:
    """File one block's rows under their shards; write the shards it completes; returns their rows."""
    done = 0
    pos = 0
    while pos < len(vectors):
        line = first + pos
        index = line // plan.shard_size
        take = min(len(vectors) - pos, (index + 1) * plan.shard_size - line)
        pending.setdefault(index, []).append(vectors[pos : pos + take])
        pos += take
        if sum(len(part) for part in pending[index]) < plan.rows[index]:
            continue
        shard = np.concatenate(pending.pop(index)).astype(np.float32, copy=False)
        if normalize:
            l2_normalize(shard)
        with atomic_file(plan.paths[index]) as tmp, open(tmp, "wb") as fh:
            np.save(fh, shard, allow_pickle=False)
        done += len(shard)
    return done


def encode_shards(
    model: str,
    input: Path,
    shard_dir: Path,
    shard_size: int,
    normalize: bool = True,
    workers: int | None = 1,
    batch_size: int | None = None,
    progress: bool = False,
    chunk: int = CHUNK,
    device: str = "auto",
    label: str = "encode shards",
) -> list[Path]:
    """Write the float32 vectors of ``input``'s lines ``[i * shard_size, (i + 1) * shard_size)`` to
    ``shard_dir/shard-{i:05d}.npy`` (each atomically), skipping shards already there (resume); returns every
    shard's path, in order. ``workers=1`` (or None) encodes in this process with all its threads; more spawn
    an :class:`EncoderPool` of one-thread processes."""
    check_not_fitted(model)
    plan = plan_shards(input, shard_dir, shard_size, chunk)
    if plan.missing:
        Path(shard_dir).mkdir(parents=True, exist_ok=True)
        with EncoderPool(model, workers or 1, batch_size, device) as pool:
            write_shards(pool.encode(plan.pieces(chunk)), plan, normalize, progress, label)
    return plan.paths
