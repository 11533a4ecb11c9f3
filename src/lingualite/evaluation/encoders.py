"""Anything that turns sentences into vectors: lingualite/sentence-transformers folders and baselines.

Every encoder follows :class:`Encoder`. The packaged baselines (``minilm``, ``use-m``, ``e5-small``) live in
:mod:`lingualite.evaluation.baselines`; :func:`load_encoder` resolves their names, ``tfidf``, or a
sentence-transformers folder.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from scipy import sparse

__all__ = [
    "Encoder",
    "SentenceTransformerEncoder",
    "TfidfEncoder",
    "available_cpus",
    "load_encoder",
]


def available_cpus() -> int:
    """CPU cores this process may run on (its affinity mask), not the machine's core count."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


@runtime_checkable
class Encoder(Protocol):
    """``encode(texts) -> (N, dimension)`` float32 array (or scipy sparse matrix for lexical baselines).

    Required: ``name`` (short label used in reports, e.g. ``minilm``), ``dimension`` (length of a vector;
    for TF-IDF the vocabulary size once fitted, 0 before) and ``encode``.

    Optional members, used when present (check with ``getattr``):

    - ``fit(texts)``: encoders that must be fitted before encoding (TF-IDF); see
      :func:`lingualite.evaluation.base.fit_encoder`.
    - ``encode_queries(texts)``: how to encode *queries* of an asymmetric retrieval task when the model
      encodes them differently from documents (e5: ``query:`` prefix; ``encode`` is the ``passage:`` side).
      IR tasks call it for queries and ``encode`` for documents; encoders without it use ``encode`` for both.
    - ``num_parameters() -> int | None`` and ``size_on_disk_bytes() -> int | None``: for efficiency reports.
    """

    name: str

    @property
    def dimension(self) -> int: ...

    def encode(self, texts: list[str]) -> np.ndarray | sparse.csr_matrix: ...


# Files of a model folder that loading does not need: documentation and training artefacts.
_NOT_MODEL_FILES = {
    "README.md",
    "lingualite_checksums.json",
    "metrics.jsonl",
    "results.json",
    "results.md",
    "training_config.yaml",
    "data_config.json",
    "train_script.py",
    ".gitattributes",
}


def model_folder_bytes(path: str | Path) -> int:
    """Bytes of the files sentence-transformers loads from ``path``.

    The folders named in ``modules.json`` are summed non-recursively (so ``checkpoints/`` and a spare
    ``tokenizer/`` folder of a lingualite run are not counted), documentation/training files are left out,
    and ``pytorch_model.bin`` is left out when ``model.safetensors`` (which is what gets loaded) is there.
    """
    path = Path(path)
    modules = json.loads((path / "modules.json").read_text())
    folders = {path / m.get("path", "") for m in modules} | {path}
    total = 0
    for folder in folders:
        if not folder.is_dir():  # modules without files (e.g. Normalize) name a folder that does not exist
            continue
        names = {f.name for f in folder.iterdir() if f.is_file()}
        for name in names:
            if name in _NOT_MODEL_FILES or name.startswith("."):
                continue
            if name == "pytorch_model.bin" and "model.safetensors" in names:
                continue
            total += (folder / name).stat().st_size
    return total


class SentenceTransformerEncoder:
    """Any sentence-transformers folder, lingualite's own models included.

    :param threads: torch intra-op threads (``torch.set_num_threads``, process-wide); default: all cores
        available to the process.
    :param name: label for reports; default: the folder's name.
    """

    def __init__(
        self,
        path: str | Path,
        batch_size: int = 128,
        threads: int | None = None,
        name: str | None = None,
    ) -> None:
        import torch

        from lingualite.models.loading import load_sentence_transformer

        path = Path(path)
        self.threads = threads or available_cpus()
        if torch.get_num_threads() != self.threads:
            torch.set_num_threads(self.threads)
        self.model = load_sentence_transformer(path)  # checked: one-line errors, safetensors only
        self.path = path
        self.name = name or path.resolve().name
        self.batch_size = batch_size
        self.last_unknown = (0.0, 0)  # see unknown_report()

    @property
    def dimension(self) -> int:
        # sentence-transformers >= 6 renamed the method (the old name warns); 3.x-5.x only have the old one
        get = (
            getattr(self.model, "get_embedding_dimension", None)
            or self.model.get_sentence_embedding_dimension
        )
        return int(get())

    def encode(self, texts: list[str]) -> np.ndarray:
        if len(texts) == 0:  # sentence-transformers returns shape (0,) here
            return np.zeros((0, self.dimension), dtype=np.float32)
        try:
            vectors = self.model.encode(
                texts, batch_size=self.batch_size, convert_to_numpy=True, show_progress_bar=False
            )
        except (ValueError, AttributeError, KeyError, IndexError, TypeError, RuntimeError) as exc:
            # A folder that loads but cannot encode has damaged module settings (e.g. sentence_bert_config)
            from lingualite.models.loading import ModelFolderError

            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise ModelFolderError(self.path, f"loads but cannot encode ({first})") from exc
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(texts) or not np.isfinite(vectors).all():
            from lingualite.models.loading import ModelFolderError

            raise ModelFolderError(self.path, f"gives vectors of shape {vectors.shape} or non-finite values")
        return vectors

    def unknown_report(self, texts: list[str]) -> tuple[float, int]:
        """(share of tokens unknown to the vocabulary, sentences made only of unknown tokens) for ``texts``."""
        from lingualite.models.loading import unknown_token_share

        self.last_unknown = unknown_token_share(getattr(self.model, "tokenizer", None), texts)
        return self.last_unknown

    def num_parameters(self) -> int:
        """All parameters of the loaded modules (embeddings included)."""
        return int(sum(p.numel() for p in self.model.parameters()))

    def size_on_disk_bytes(self) -> int:
        """See :func:`model_folder_bytes`."""
        return model_folder_bytes(self.path)


class TfidfEncoder:
    """TF-IDF over character n-grams (1-4, within word boundaries), L2-normalised: the lexical baseline.

    It is fitted on the texts it is asked to encode together (both sides of the evaluation file), which is
    how a user would apply it; it needs no training data and shares n-grams across related languages.
    """

    name = "tfidf"

    def __init__(self, ngram_range: tuple[int, int] = (1, 4)) -> None:
        self.ngram_range = ngram_range
        self._vectorizer = None

    @property
    def dimension(self) -> int:
        """Vocabulary size once fitted, 0 before."""
        return 0 if self._vectorizer is None else len(self._vectorizer.vocabulary_)

    def fit(self, texts: list[str]) -> TfidfEncoder:
        from sklearn.feature_extraction.text import TfidfVectorizer

        self._vectorizer = TfidfVectorizer(
            analyzer="char_wb", ngram_range=self.ngram_range, sublinear_tf=True
        )
        self._vectorizer.fit(texts)
        return self

    def encode(self, texts: list[str]) -> sparse.csr_matrix:
        if self._vectorizer is None:
            raise RuntimeError("TfidfEncoder.fit must be called before encode")
        return self._vectorizer.transform(texts)

    def num_parameters(self) -> int | None:
        """The learned IDF weights (one per vocabulary entry) once fitted; None before."""
        return None if self._vectorizer is None else len(self._vectorizer.idf_)

    def size_on_disk_bytes(self) -> None:
        """Nothing is stored: the vectorizer is fitted on the evaluation texts themselves."""
        return None


RUNTIMES = ("onnx", "onnx-int8", "static")


def split_runtime(spec: str) -> tuple[str | None, str]:
    """``"onnx-int8:runs/x"`` -> ``("onnx-int8", "runs/x")``; anything else -> ``(None, spec)``."""
    runtime, _, rest = spec.partition(":")
    return (runtime, rest) if runtime in RUNTIMES and rest else (None, spec)


def load_encoder(name_or_path: str | Path, threads: int | None = None) -> Encoder:
    """A baseline by name (``tfidf``, ``minilm``, ``use-m``, ``e5-small``), a sentence-transformers folder, or
    ``onnx:FOLDER`` / ``onnx-int8:FOLDER`` (the ONNX graphs that ``lingualite export`` wrote into FOLDER, run
    by onnxruntime: :class:`lingualite.runtime.onnx_encoder.OnnxEncoder`), or ``static:FOLDER`` (a model2vec /
    ``StaticEmbedding`` folder in numpy: :class:`lingualite.runtime.static_encoder.StaticEncoder`).

    :param threads: CPU threads for the encoder; default: all cores available to the process.
    :raises lingualite.models.loading.ModelFolderError: neither a baseline name nor an existing folder (the
        message lists the names), or a folder that cannot be loaded (the message says why).
    :raises lingualite.evaluation.baselines.MissingBaselineError: the baseline's package is not installed.
    """
    from lingualite.evaluation.baselines import BASELINES

    key = str(name_or_path)
    if key in BASELINES:
        return BASELINES[key](threads=threads)
    runtime, rest = split_runtime(key)
    if runtime is not None:  # onnx:FOLDER / onnx-int8:FOLDER (`lingualite export`), static:FOLDER
        if not Path(rest).exists():
            from lingualite.models.loading import ModelFolderError

            raise ModelFolderError(Path(rest), "does not exist")
        if runtime == "static":
            from lingualite.runtime.static_encoder import StaticEncoder

            return StaticEncoder(rest)
        from lingualite.runtime.onnx_encoder import OnnxEncoder, onnx_graph_of

        return OnnxEncoder(rest, graph=onnx_graph_of(rest, int8=runtime == "onnx-int8"), threads=threads)
    path = Path(name_or_path)
    if not path.exists():
        from lingualite.models.loading import ModelFolderError

        raise ModelFolderError(path, f"does not exist (and is not a baseline name: {', '.join(BASELINES)})")
    return SentenceTransformerEncoder(path, threads=threads)
