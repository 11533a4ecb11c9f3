"""Anything that turns sentences into vectors: lingualite/sentence-transformers folders and baselines."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
from scipy import sparse


@runtime_checkable
class Encoder(Protocol):
    """``encode(texts) -> (N, d)`` array (or scipy sparse matrix for lexical baselines)."""

    name: str

    def encode(self, texts: list[str]) -> np.ndarray | sparse.csr_matrix: ...


class SentenceTransformerEncoder:
    """Any sentence-transformers folder, lingualite's own models included."""

    def __init__(self, path: str | Path, batch_size: int = 128) -> None:
        from sentence_transformers import SentenceTransformer

        path = Path(path)
        if not (path / "modules.json").exists():
            raise FileNotFoundError(f"{path}: not a sentence-transformers model folder (no modules.json)")
        self.model = SentenceTransformer(str(path), device="cpu")
        self.name = path.name
        self.batch_size = batch_size

    @property
    def dimension(self) -> int:
        return int(self.model.get_sentence_embedding_dimension())

    def encode(self, texts: list[str]) -> np.ndarray:
        return self.model.encode(texts, batch_size=self.batch_size, convert_to_numpy=True).astype(np.float32)


class TfidfEncoder:
    """TF-IDF over character n-grams (1-4, within word boundaries), L2-normalised: the lexical baseline.

    It is fitted on the texts it is asked to encode together (both sides of the evaluation file), which is
    how a user would apply it; it needs no training data and shares n-grams across related languages.
    """

    name = "tfidf"

    def __init__(self, ngram_range: tuple[int, int] = (1, 4)) -> None:
        self.ngram_range = ngram_range
        self._vectorizer = None

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


def load_encoder(name_or_path: str) -> Encoder:
    """``tfidf`` or a path to a sentence-transformers folder."""
    if name_or_path == "tfidf":
        return TfidfEncoder()
    return SentenceTransformerEncoder(name_or_path)
