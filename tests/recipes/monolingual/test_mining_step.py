"""The mining step's lexical views: fitted once per run on the whole corpus, sliced for each iteration's pools."""

from __future__ import annotations

import numpy as np
import pytest

from lingualite.encoders.tfidf import TfidfEncoder
from lingualite.recipes.monolingual.mining_step import LexicalIndex, lexical_views

TEXTS = [
    "Open the Writer dialog 12",
    "Close the Calc window",
    "Ouvrez la boîte Writer 12",
    "Fermez la fenêtre Calc",
    "Print the page 7",
    "Imprimez la page 7",
]


def test_the_index_slices_the_whole_corpus_fit_and_fits_once(monkeypatch: pytest.MonkeyPatch) -> None:
    fits = []
    fit_encode = TfidfEncoder.fit_encode
    monkeypatch.setattr(
        TfidfEncoder, "fit_encode", lambda self, t: fits.append(len(t)) or fit_encode(self, t)
    )
    index = LexicalIndex(TEXTS)
    pools = {0: np.array([0, 1, 4]), 1: np.array([2, 3, 5])}
    whole = lexical_views({0: [TEXTS[i] for i in pools[0]], 1: [TEXTS[i] for i in pools[1]]})
    first = index.views(pools)
    for li in pools:  # the pools cover the corpus: the same rows as fitting on the pools
        np.testing.assert_allclose(first[li].toarray(), whole[li].toarray())
    part = index.views({0: np.array([4]), 1: np.array([5, 2])})  # a later iteration's smaller pools
    np.testing.assert_allclose(part[1].toarray(), first[1][[2, 0]].toarray())
    assert fits == [6, 6]  # `lexical_views` above once, the index once for both calls


def test_lexical_views_split_one_fit_by_language() -> None:
    views = lexical_views({3: TEXTS[:2], 7: TEXTS[2:]})
    assert list(views) == [3, 7] and views[3].shape[0] == 2 and views[7].shape[0] == 4
    encoder = TfidfEncoder().fit(TEXTS)
    np.testing.assert_allclose(views[7].toarray(), encoder.encode(TEXTS[2:]).toarray())
