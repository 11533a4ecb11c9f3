""":class:`SearchIndex`: documents in SQLite, their vectors in FAISS, searched with any lingualite encoder.

An index is a folder:

- ``index.sqlite``: documents, metadata (JSON) and settings (:mod:`lingualite.search.store`);
- ``vectors.npy``: every document's normalised float32 vector, read through a memory map
  (:mod:`lingualite.search.floats`);
- ``faiss-<generation>.index``: the FAISS index (:mod:`lingualite.search.faiss_index`).

Crash safety. A build writes a staging folder beside the output and renames it into place (the old index, if
replaced, stays whole until then), under the ownership rule of :mod:`lingualite.core.ownership` (only an index
is replaced, only with ``overwrite``, checked again at the swap; a folder that appeared meanwhile is kept). ``add`` and ``delete`` run in one SQLite transaction under the folder's
write lock; a changed FAISS index is written to a new file (temp file, fsync, rename) *before* the commit that
names it in ``info.faiss_file``, and the old file is removed after. A crash at any point leaves SQLite naming
a complete FAISS file whose contents match it; stray files are removed by the next writer. Float rows past
the committed count are ignored (and overwritten by the next ``add``).

Readers notice a change by another process at their next call: ``add`` / ``delete`` by the generation
(``info.generation``), and a folder replaced by ``index build --overwrite`` (or removed and built again) by the
identity of its SQLite file (device and inode, one ``stat`` per call; the open connection keeps the old file's
inode from being reused). A replaced index is reopened and its model checked again; a removed one is an
:class:`IndexGoneError` until it is back.

An index with no documents can be searched from the Python API (every query gets no hits);
:meth:`SearchIndex.require_documents` is the one-line error that ``lingualite search`` and ``/search`` give.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import atomic_file, clean_leftovers, fsync_dir, run_lock
from lingualite.core.ownership import check_folder, check_separate, replacing
from lingualite.encoders.spec import spec_folder
from lingualite.search.build import FORMAT_VERSION, faiss_name, ingest, write_new_index
from lingualite.search.encoder_check import check_encoder, dense, normalize_spec, spec_of
from lingualite.search.faiss_index import VectorIndex, rebuild
from lingualite.search.floats import FLOATS_NAME, FloatFile
from lingualite.search.folder import (
    NO_IDENTITY,
    EmptyIndexError,
    IndexGoneError,
    identity,
    model_for,
    open_store,
)
from lingualite.search.readers import check_source
from lingualite.search.store import DB_NAME
from lingualite.vectors.truncation import truncate

__all__ = ["REBUILD_FRACTION", "EmptyIndexError", "Hit", "IndexGoneError", "SearchIndex"]

REBUILD_FRACTION = 0.2  # HNSW: rebuild the graph from the float vectors once tombstones pass this share


@dataclass
class Hit:
    doc_id: str
    score: float  # cosine similarity of the query and the document
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)


class SearchIndex:
    """An open index folder; use :meth:`build` or :meth:`open`. Methods are safe to call from several threads
    (they take turns); one process writes at a time (others get a one-line error naming its pid)."""

    def __init__(self, path: Path, encoder: Any = None, device: str = "auto") -> None:
        self.path = Path(path)
        self.device = device  # where the recorded model is loaded (lingualite.core.device), on first use
        self._lock = threading.RLock()
        self._store, self._identity = open_store(self.path)
        self._encoder: Any = None
        self.warnings: list[str] = []  # what a build had to say (a size the model was not trained for)
        try:
            self._load()
            if encoder is not None:
                self._set_encoder(encoder)
        except BaseException:
            self._store.close()
            raise

    # -- opening -------------------------------------------------------------------------------------------

    @classmethod
    def build(
        cls,
        model: str,
        inputs: Path | list[dict[str, Any]],
        output: Path,
        quantization: str = "none",
        kind: str = "auto",
        progress: bool = True,
        *,
        encoder: Any = None,
        rescore: int | None = None,
        skip_bad: bool = False,
        overwrite: bool = False,
        dimensions: int | None = None,
        device: str = "auto",
    ) -> SearchIndex:
        """Encode ``inputs`` (a .txt/.tsv/.jsonl file or a list of ``{"id", "text", ...}`` dicts) with
        ``model`` (or the already loaded ``encoder`` that ``model`` names) into a new index folder ``output``.

        :param quantization: ``none`` (float32), ``int8`` or ``binary`` (candidates rescored exactly).
        :param kind: ``flat`` (exact), ``hnsw``, ``ivf``, or ``auto`` (flat below 100k documents).
        :param rescore: candidates per wanted hit for quantized indexes (default 4 int8; binary max(10, 5120 / bits)).
        :param skip_bad: skip and count bad input lines instead of stopping at the first.
        :param overwrite: replace ``output`` when it is an existing index (any other folder is refused; the
            rule of :mod:`lingualite.core.ownership`, checked again when the new index is swapped in).
        :param dimensions: index the first ``dimensions`` components of every vector, renormalised (a
            Matryoshka model's trained size); recorded as ``truncate_dim``, and queries are truncated the same
            way. Above the model's dimension: an error; a size it was not trained for: a warning in the
            returned index's ``warnings`` (``lingualite index build`` prints it).
        :param device: where ``model`` runs when it is loaded here (:mod:`lingualite.core.device`).
        """
        from lingualite.search.faiss_index import KINDS, QUANTIZATIONS

        if quantization not in QUANTIZATIONS:
            raise LinguaLiteError(
                f"unknown quantization {quantization!r}; choose from {', '.join(QUANTIZATIONS)}"
            )
        if kind not in KINDS:
            raise LinguaLiteError(f"unknown index kind {kind!r}; choose from {', '.join(KINDS)}")
        output = Path(output)
        check_source(inputs)
        spec = normalize_spec(model)
        read = [p for p in ([] if isinstance(inputs, list) else [Path(inputs)]) + [spec_folder(spec)] if p]
        check_separate(output, read)  # before the model is loaded; again when the build starts and ends
        check_folder(output, "index", overwrite)
        if encoder is None:
            encoder = _load(spec, device)
        elif spec_of(encoder) not in (None, spec):
            raise LinguaLiteError(f"the encoder given is {spec_of(encoder)}, not the model named ({spec})")
        with replacing(output, "index", overwrite, read) as stage:
            info = write_new_index(
                stage, encoder, spec, inputs, quantization, kind, rescore, skip_bad, progress, dimensions
            )
        index = cls(output, encoder, device)
        index.warnings = info["warnings"]
        return index

    @classmethod
    def open(cls, path: Path, encoder: Any = None, device: str = "auto") -> SearchIndex:
        """Open the index folder ``path``. ``encoder``: an encoder object (or a model spec string) to use
        instead of loading the recorded model on first use; refused unless it is that model. ``device``:
        where the model is loaded (:mod:`lingualite.core.device`)."""
        path = Path(path)
        if not (path / DB_NAME).is_file():
            raise LinguaLiteError(f"{path}: not a lingualite search index (no {DB_NAME}); build one first")
        return cls(path, encoder, device)

    def _load(self, faiss: str = "if-changed") -> None:
        """(Re)read settings, tombstones and the float vectors; the FAISS index named in SQLite is read again
        when its name changed (``faiss="if-changed"``), always (``"reread"``) or never (``"keep"``: the one in
        memory is what was just committed)."""
        info = self._store.read_info()
        if info.get("format_version") != FORMAT_VERSION:
            raise LinguaLiteError(
                f"{self.path}: index format {info.get('format_version')}, this lingualite reads "
                f"{FORMAT_VERSION}; build it again"
            )
        changed = getattr(self, "info", {}).get("faiss_file") != info["faiss_file"]
        if faiss == "reread" or not hasattr(self, "_vindex") or (changed and faiss != "keep"):
            self._vindex = VectorIndex.read(self.path / info["faiss_file"], info)
        self.info = info
        self._tombstones = self._store.tombstones()
        self._floats = FloatFile(self.path / FLOATS_NAME, int(info["dimension"]))
        self._floats.check(int(info["vectors"]))
        self._view = self._floats.view(int(info["vectors"]))

    def _refresh(self) -> None:
        if identity(self.path) != self._identity:
            self._reopen()
        elif self._store.generation() != self.info["generation"]:
            self._load()

    def _reopen(self) -> None:
        """The folder was replaced: read the new one, and check its model again. Until the check passes the
        identity is one no file has, so a refused index is refused again at every call."""
        store, identity = open_store(self.path)
        self._store, old = store, self._store
        old.close()
        self._identity = NO_IDENTITY
        self._load("reread")
        if self._encoder is not None:
            check_encoder(self._encoder, self.info, self.path)
        self._identity = identity

    def require_documents(self) -> None:
        """:class:`EmptyIndexError` (one line saying what to do) when the index holds no documents."""
        if len(self) == 0:
            raise EmptyIndexError(
                f"{self.path}: holds no documents, so a search finds nothing; add some with "
                f"`lingualite index add --index {self.path} --input FILE`"
            )

    # -- the model -----------------------------------------------------------------------------------------

    @staticmethod
    def model_for(path: Path, model: str | None = None) -> str:
        """Which model to use with the index folder ``path``, without opening it (``model`` or the recorded one;
        another model is refused): :func:`lingualite.search.folder.model_for`."""
        return model_for(path, model)

    @property
    def model_spec(self) -> str:
        return str(self.info["model_spec"])

    @property
    def truncate_dim(self) -> int | None:
        """The size the vectors were truncated to at build (``--dimensions``), or None."""
        value = self.info.get("truncate_dim")
        return None if value is None else int(value)

    @property
    def encoder(self) -> Any:
        """The index's encoder, loaded (and checked) on first use."""
        with self._lock:
            if self._encoder is None:
                self._set_encoder(_load(self.model_spec, self.device))
            return self._encoder

    def _set_encoder(self, encoder: Any) -> None:
        if isinstance(encoder, str | Path):
            spec = normalize_spec(encoder)
            if spec != self.model_spec:
                raise LinguaLiteError(
                    f"{self.path}: was built with model {self.model_spec}, not {spec}; use that model or "
                    "build a new index"
                )
            encoder = _load(spec, self.device)
        check_encoder(encoder, self.info, self.path)
        self._encoder = encoder

    # -- reading -------------------------------------------------------------------------------------------

    def __len__(self) -> int:
        with self._lock:
            self._refresh()
            return int(self.info["documents"])

    def search(self, queries: list[str], k: int = 10) -> list[list[Hit]]:
        """The ``k`` best documents for each query (encoded with ``encode_queries`` when the model has it)."""
        if isinstance(queries, str):
            raise LinguaLiteError("queries must be a list of strings (got one string)")
        if not queries:
            return []
        vectors = dense(self.encoder, list(queries), queries=True, dimensions=self.truncate_dim)
        return self.search_vectors(vectors, k)

    def search_vectors(self, vectors: np.ndarray, k: int = 10) -> list[list[Hit]]:
        """The ``k`` best documents for each row of ``vectors`` (query vectors of the index's model: of its
        full dimension, truncated here as the documents were, or already of the index's)."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim == 1:
            vectors = vectors[None, :]
        model_dimension = int(self.info.get("model_dimension") or self.info["dimension"])
        if self.truncate_dim is not None and vectors.ndim == 2 and vectors.shape[1] == model_dimension:
            vectors = truncate(vectors, self.truncate_dim, normalize=True)
        if vectors.ndim != 2 or vectors.shape[1] != int(self.info["dimension"]):
            raise LinguaLiteError(
                f"query vectors of shape {vectors.shape}; this index holds {self.info['dimension']}-d vectors"
            )
        if k < 1:
            raise LinguaLiteError(f"k must be at least 1 (got {k})")
        vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        with self._lock:
            self._refresh()
            scores, ids = self._vindex.search(vectors, k, self._view, self._tombstones)
            docs = self._store.get_rows(ids[ids >= 0].tolist())
        return [
            [
                Hit(docs[i][0], float(score), docs[i][1], docs[i][2])
                for score, i in zip(row_s.tolist(), row_i.tolist(), strict=True)
                if i in docs  # -1 padding, or deleted by another process since the FAISS index was read
            ]
            for row_s, row_i in zip(scores, ids, strict=True)
        ]

    def describe(self) -> dict[str, Any]:
        """Settings, counts and sizes on disk (what ``lingualite index info`` prints)."""
        with self._lock:
            self._refresh()
            info = {k: v for k, v in self.info.items() if k != "probes"}
            faiss_bytes = (self.path / info["faiss_file"]).stat().st_size
            sqlite_bytes = sum(p.stat().st_size for p in self.path.glob(f"{DB_NAME}*"))
            info.update(
                path=str(self.path),
                faiss_bytes=faiss_bytes,
                vectors_bytes=self._floats.size_bytes(),
                sqlite_bytes=sqlite_bytes,
                memory_bytes_estimate=faiss_bytes,  # what a search holds in RAM (floats are memory-mapped)
            )
            return info

    # -- writing -------------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """The folder's write lock, fresh state, one SQLite transaction; on any error, state from disk."""
        with self._lock, run_lock(self.path, "index write"):
            self._refresh()
            try:
                with self._store.transaction():
                    yield
            except BaseException:
                self._load("reread")  # the FAISS index in memory may hold the rolled-back change
                raise
            self._load("keep")
            for stray in self.path.glob("faiss-*.index"):
                if stray.name != self.info["faiss_file"]:
                    stray.unlink(missing_ok=True)
            clean_leftovers(self.path)

    def _commit(self, changes: dict[str, Any], new_faiss: bool) -> None:
        """Write the FAISS index to a new file when it changed, then record ``changes`` (the caller's
        transaction commits them)."""
        generation = int(self.info["generation"]) + 1
        changes = {"generation": generation, "documents": self._store.count(), **changes}
        if new_faiss:
            name = faiss_name(generation)
            with atomic_file(self.path / name) as tmp:
                self._vindex.write(tmp)
            fsync_dir(self.path)
            changes["faiss_file"] = name
        self._store.write_info(changes)

    def add(self, docs: Path | list[dict[str, Any]], skip_bad: bool = False, progress: bool = False) -> int:
        """Encode and add ``docs`` (a file or a list of ``{"id", "text", ...}``); ids must be new. Returns
        the number added."""
        check_source(docs)
        encoder = self.encoder
        with self._writing():
            rows = int(self.info["vectors"])
            done = ingest(
                self._store, self._floats, encoder, docs, rows, skip_bad, progress, self.truncate_dim
            )
            view = self._floats.view(rows + done.added)
            self._vindex.train_if_needed(view, np.arange(rows, rows + done.added))
            for start in range(rows, rows + done.added, 65536):
                stop = min(start + 65536, rows + done.added)
                self._vindex.add(np.asarray(view[start:stop]), np.arange(start, stop, dtype=np.int64))
            self._commit({"vectors": rows + done.added}, new_faiss=done.added > 0)
        self.last_add_stats = done.stats  # read and skipped counts, for reports
        return done.added

    def delete(self, doc_ids: list[str]) -> int:
        """Delete documents by id; returns how many existed. Flat and IVF indexes remove the vectors; HNSW
        graphs cannot, so deleted ids become tombstones (excluded from searches) and the graph is rebuilt from
        the float vectors once they pass 20% of the vectors."""
        if isinstance(doc_ids, str):
            raise LinguaLiteError("doc_ids must be a list of ids (got one string)")
        with self._writing():
            found = self._store.rows_of([str(d) for d in doc_ids])
            if not found:
                return 0
            rows = np.fromiter(found.values(), dtype=np.int64, count=len(found))
            self._store.delete_rows(rows.tolist())
            rebuilt = False
            if self._vindex.removable:
                self._vindex.remove(rows)
            else:
                self._store.add_tombstones(rows.tolist())
                if len(self._store.tombstones()) > REBUILD_FRACTION * max(self._vindex.ntotal, 1):
                    self._vindex = rebuild(self._vindex, self._view, self._store.live_rows())
                    self._store.clear_tombstones()
                    rebuilt = True
            tombstones = len(self._store.tombstones())
            self._commit({"tombstones": tombstones}, new_faiss=self._vindex.removable or rebuilt)
        return len(found)

    # -- closing -------------------------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self._view = np.zeros((0, 0), np.float32)  # drop the memory map
            self._store.close()

    def __enter__(self) -> SearchIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _load(spec: str, device: str = "auto") -> Any:
    from lingualite.encoders.resolve import load_encoder

    return load_encoder(spec, device=device)
