"""The static tier: a token-embedding table and a mean, in numpy, with Rust tokenization.

Static models (model2vec, sentence-transformers' ``StaticEmbedding``) have no transformer: a sentence vector is
the mean of its tokens' rows. sentence-transformers runs them through torch's ``EmbeddingBag``; for the speed
tier the whole work is tokenizing (through a per-word cache where the tokenizer allows it:
:mod:`lingualite.encoders.word_cache`) and one sparse (sentences x vocabulary) product with the table, which gives
the same vectors (to float rounding) with no torch in the process.

A folder qualifies when it has ``tokenizer.json`` and ``model.safetensors`` holding one 2-D table
(``embeddings``: model2vec; ``embedding.weight``: sentence-transformers' ``StaticEmbedding``), and is used as
``static:FOLDER`` wherever lingualite takes a model.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
from scipy import sparse

from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.word_cache import word_cache_for
from lingualite.text.sanitation import check_texts

__all__ = ["StaticEncoder"]

TABLE_KEYS = ("embeddings", "embedding.weight")
CHUNK = 2048  # sentences per tokenizer call: bounded memory for the gathered rows


class StaticEncoder:
    """Mean of token rows (+ L2 normalisation when the folder has a ``Normalize`` module or says so)."""

    def __init__(self, folder: str | Path, threads: int | None = None, name: str | None = None) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.folder = Path(folder)
        weights, tokenizer_file = self.folder / "model.safetensors", self.folder / "tokenizer.json"
        if not weights.is_file() or not tokenizer_file.is_file():
            raise LinguaLiteError(f"{self.folder}: a static model needs model.safetensors and tokenizer.json")
        from lingualite.models.checksums import verify_checksums

        verify_checksums(self.folder, ["model.safetensors", "tokenizer.json", "config.json", "modules.json"])
        try:
            tensors = load_file(str(weights))
        except Exception as exc:  # safetensors' own error type for a truncated or damaged file
            raise LinguaLiteError(f"{weights}: not a readable safetensors file ({exc})") from exc
        key = next((k for k in TABLE_KEYS if k in tensors), None)
        if key is None or tensors[key].ndim != 2:
            raise LinguaLiteError(
                f"{weights}: no embedding table ({' or '.join(TABLE_KEYS)}); not a static model"
            )
        self.table = np.ascontiguousarray(tensors[key], dtype=np.float32)
        self.tokenizer = Tokenizer.from_file(str(tokenizer_file))
        self.tokenizer.no_padding()
        max_length = _max_length(self.folder)
        self.tokenizer.enable_truncation(max_length)
        self.word_cache = word_cache_for(self.tokenizer, max_length)
        self._boundary_ids: set[int] | None = None
        self.normalize = _normalizes(self.folder)
        from lingualite.encoders.known_tokens import tokenizer_unknown_id

        self.unknown_id = tokenizer_unknown_id(self.tokenizer)
        self.threads = 1  # numpy gather and sum: one core does it; the tokenizer batches in Rust
        self.name = name or f"{self.folder.resolve().name}-static"

    @property
    def dimension(self) -> int:
        return int(self.table.shape[1])

    def encode(self, texts: list[str]) -> np.ndarray:
        check_texts(texts)
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        for start in range(0, len(texts), CHUNK):
            out[start : start + CHUNK] = self._mean_rows(texts[start : start + CHUNK])
        if self.normalize:
            out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out

    def _mean_rows(self, texts: list[str]) -> np.ndarray:
        ids, lengths = self._ids(texts)
        # the sums as a sparse (sentences x vocabulary) product: ~2.5x faster here than gathering the rows and
        # np.add.reduceat, as it never materialises the gathered rows
        indptr = np.concatenate(([0], np.cumsum(lengths)))
        counts = sparse.csr_matrix(
            (np.ones(len(ids), dtype=np.float32), ids, indptr), shape=(len(texts), self.table.shape[0])
        )
        rows = np.asarray(counts @ self.table) / np.maximum(lengths, 1)[:, None].astype(np.float32)
        rows[self._unknown(ids, lengths)] = 0.0  # the mark of a text with no known token (see below)
        return rows

    # encode gives a text with no known token a zero row (from the ids it has anyway), so the check of
    # lingualite.encoders.known_tokens needs no second tokenization of what was encoded
    zeroes_unknown_rows = True

    def _unknown(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        from lingualite.encoders.known_tokens import boundary_ids, unknown_flat

        if self._boundary_ids is None:
            self._boundary_ids = boundary_ids(self.tokenizer)
        return unknown_flat(ids, lengths, self.unknown_id, self._boundary_ids)

    def _ids(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        if self.word_cache is not None:
            return self.word_cache.flat_ids(texts)
        ids_lists = [e.ids for e in self.tokenizer.encode_batch(list(texts), add_special_tokens=False)]
        lengths = np.fromiter(map(len, ids_lists), np.int64, len(ids_lists))
        return np.fromiter(itertools.chain.from_iterable(ids_lists), np.int64, int(lengths.sum())), lengths

    def no_known_token(self, texts: list[str]) -> np.ndarray:
        """Per text: True when every token is the unknown one, or there is none (its vector would be the
        ``[UNK]`` row, or zeros): :mod:`lingualite.encoders.known_tokens`."""
        return self._unknown(*self._ids(texts))

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Tokens averaged per text (no special tokens, truncated as :meth:`encode` does)."""
        return [len(e.ids) for e in self.tokenizer.encode_batch(list(texts), add_special_tokens=False)]

    def num_parameters(self) -> int:
        return int(self.table.size)

    def size_on_disk_bytes(self) -> int:
        return (self.folder / "model.safetensors").stat().st_size + (
            self.folder / "tokenizer.json"
        ).stat().st_size


def _max_length(folder: Path) -> int:
    config = folder / "config.json"
    if config.is_file():
        value = json.loads(config.read_text(encoding="utf-8")).get("max_length")
        if isinstance(value, int) and value > 0:
            return value
    return 512


def _normalizes(folder: Path) -> bool:
    modules = folder / "modules.json"
    if modules.is_file():
        return any("Normalize" in m.get("type", "") for m in json.loads(modules.read_text(encoding="utf-8")))
    config = folder / "config.json"
    return bool(config.is_file() and json.loads(config.read_text(encoding="utf-8")).get("normalize"))
