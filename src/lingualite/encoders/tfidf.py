"""The lexical baseline: character n-gram TF-IDF (scikit-learn), fitted on the texts it encodes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from lingualite.text.sanitation import check_texts

if TYPE_CHECKING:
    from scipy import sparse
    from sklearn.feature_extraction.text import TfidfVectorizer

__all__ = ["TfidfEncoder"]


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

    def _new_vectorizer(self) -> TfidfVectorizer:
        from sklearn.feature_extraction.text import TfidfVectorizer

        return TfidfVectorizer(analyzer="char_wb", ngram_range=self.ngram_range, sublinear_tf=True)

    def fit(self, texts: list[str]) -> TfidfEncoder:
        check_texts(texts)
        self._vectorizer = self._new_vectorizer().fit(texts)
        return self

    def fit_encode(self, texts: list[str]) -> sparse.csr_matrix:
        """:meth:`fit` then :meth:`encode` of the same texts in one pass over them (the same rows)."""
        check_texts(texts)
        self._vectorizer = self._new_vectorizer()
        return self._vectorizer.fit_transform(texts)

    def encode(self, texts: list[str]) -> sparse.csr_matrix:
        check_texts(texts)
        if self._vectorizer is None:
            raise RuntimeError("TfidfEncoder.fit must be called before encode")
        return self._vectorizer.transform(texts)

    def no_known_token(self, texts: list[str]) -> np.ndarray:
        """Per text: True when none of its n-grams is in the fitted vocabulary, the word-boundary spaces that
        ``char_wb`` adds to every word aside (:mod:`lingualite.encoders.known_tokens`)."""
        rows = self.encode(texts).tocsc()
        vocabulary = self._vectorizer.vocabulary_  # type: ignore[union-attr]
        blank = [i for gram, i in vocabulary.items() if not gram.strip()]
        if blank:
            keep = np.ones(rows.shape[1], dtype=bool)
            keep[blank] = False
            rows = rows[:, keep]
        return np.diff(rows.tocsr().indptr) == 0

    def num_parameters(self) -> int | None:
        """The learned IDF weights (one per vocabulary entry) once fitted; None before."""
        return None if self._vectorizer is None else len(self._vectorizer.idf_)

    def size_on_disk_bytes(self) -> None:
        """Nothing is stored: the vectorizer is fitted on the evaluation texts themselves."""
        return None
