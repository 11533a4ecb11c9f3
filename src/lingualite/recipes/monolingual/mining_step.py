"""The mining step of one coherence-regression iteration (paper 001, Sec. 3.2), with issue #16's options.

1. Encode a seeded sample (``mining.pool_size``) of each language with the current encoder: the *frozen
   snapshot* of this iteration (the weights before its first step), which gives every regression target.
2. Score candidates: the model's cosine (``mining.centre``: after removing each language's mean vector), or,
   for the first ``mining.lexical_iterations`` iterations with ``mining.lexical_seed``, a weighted sum of
   character n-gram TF-IDF cosine and the model's cosine (no parallel data: shared sub-words, numbers, names;
   the TF-IDF is fitted once per run on the whole corpus, :class:`LexicalIndex`);
   with ``mining.lexical_search_max_df``, candidates are found on rare n-grams only and rescored exactly
   (whole-corpus pools in minutes instead of an hour).
3. Mine: the paper's m x m CSLS blocks (``method: blocks``) or exhaustive ratio-margin mining
   (``method: exhaustive``, :func:`lingualite.mining.pseudo_pairs.mine_exhaustive`).
4. Targets: score(c_i) = dist(Enc(s_t), Enc(s_i)) (the paper's coherence score) with the snapshot, uncentred
   (``regression.target: cosine``, the paper) or centred and clipped at 0 (``centred``, issue #16).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from scipy import sparse

from lingualite.mining.pseudo_pairs import MinedPairs, Parts, mine_exhaustive, mine_pseudo_pairs
from lingualite.vectors.retrieval import _rows, centred_unit, normalize_rows

if TYPE_CHECKING:
    from lingualite.config.monolingual import MonolingualConfig
    from lingualite.models.context_encoder import ContextEncoder
    from lingualite.recipes.monolingual.contexts import TokenizedCorpus
    from lingualite.recipes.monolingual.stage_evaluator import StageEvaluator


def lexical_views(texts: dict[int, list[str]]) -> dict[int, sparse.csr_matrix]:
    """Character n-gram TF-IDF rows (unit, sparse) per language, one vectorizer fitted on all the texts
    (lingualite's lexical baseline, :class:`lingualite.encoders.tfidf.TfidfEncoder`)."""
    from lingualite.encoders.tfidf import TfidfEncoder

    rows = TfidfEncoder().fit_encode([t for lang_texts in texts.values() for t in lang_texts])
    ends = np.cumsum([len(lang_texts) for lang_texts in texts.values()])
    return {li: rows[end - len(t) : end] for (li, t), end in zip(texts.items(), ends, strict=True)}


class LexicalIndex:
    """The lexical views of a whole corpus, fitted once per run (on every sentence, all languages) on first
    use and sliced for each iteration's pools: iterations mine overlapping pools (the whole corpus by
    default), and refitting took ~30 s of each iteration on the default config."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self._rows: sparse.csr_matrix | None = None

    def views(self, indices: dict[int, np.ndarray]) -> dict[int, sparse.csr_matrix]:
        """The rows of the sentences ``indices`` (corpus positions) per language."""
        if self._rows is None:
            from lingualite.encoders.tfidf import TfidfEncoder

            self._rows = TfidfEncoder().fit_encode(self.texts)
        return {li: self._rows[idx] for li, idx in indices.items()}


def rare_ngram_views(views: dict[int, sparse.csr_matrix], max_df: float) -> dict[int, sparse.csr_matrix]:
    """The same rows keeping only the n-grams found in at most a share ``max_df`` of all the sentences,
    re-normalised: the search view of :func:`lingualite.mining.pseudo_pairs.knn_candidates`. Frequent
    n-grams ("e ", " th") make the sparse products nearly dense and carry little of the ranking."""
    sentences = sum(v.shape[0] for v in views.values())
    df = sum(np.bincount(v.indices, minlength=v.shape[1]) for v in views.values())  # one entry per row
    keep = sparse.diags((df <= max_df * sentences).astype(np.float32))
    return {li: _rows(v @ keep) for li, v in views.items()}


def growth_caps(
    languages: list[str], previous: dict[str, int] | None, growth: float | None
) -> dict[tuple[int, int], int] | None:
    """Per language pair (indices), at most ``growth`` x the pairs kept last iteration (``mining.kept_growth``);
    None without a growth factor or on the first iteration."""
    if growth is None or not previous:
        return None
    caps: dict[tuple[int, int], int] = {}
    for key, count in previous.items():
        la, lb = key.split("-")
        caps[(languages.index(la), languages.index(lb))] = max(1, int(growth * count))
    return caps


def mine_iteration(
    cfg: MonolingualConfig,
    model: ContextEncoder,
    corpus: TokenizedCorpus,
    evaluator: StageEvaluator,
    stage_index: int,
    lexical: LexicalIndex | None = None,
    previous: dict[str, int] | None = None,
) -> tuple[MinedPairs, np.ndarray, np.ndarray]:
    """Mine this iteration's pairs (see the module docstring). Returns the pairs (``cosine`` = their
    regression target), the encoded sentence indices and their target-space unit vectors (random swaps).
    ``lexical``: the run's :class:`LexicalIndex` of ``corpus`` (one is fitted for this call without it).
    ``previous``: the pairs the last iteration kept per language pair (``"en-fr"`` -> count), which
    ``mining.kept_growth`` caps this iteration's by."""
    m = cfg.mining
    rng = np.random.default_rng([cfg.seed, stage_index, 1])
    indices: dict[int, np.ndarray] = {}
    raw: dict[int, np.ndarray] = {}
    for li in range(len(corpus.languages)):
        idx = corpus.indices_of(li)
        if len(idx) > m.pool_size:
            idx = np.sort(rng.choice(idx, size=m.pool_size, replace=False))
        indices[li] = idx
        raw[li] = normalize_rows(evaluator.encode(model, [corpus.texts[i] for i in idx]))
    centred = {li: centred_unit(v) for li, v in raw.items()}
    model_view = centred if m.centre else raw
    english = (
        corpus.languages.index("en") if m.language_pairs == "english" and "en" in corpus.languages else None
    )
    if m.method == "blocks":
        pools = {li: (indices[li], model_view[li]) for li in indices}
        mined = mine_pseudo_pairs(
            pools, m.sample_size, m.csls_k, m.pairs_per_round, m.target_pairs, rng, english
        )
    else:
        views: dict[int, Parts] = {li: [(model_view[li], 1.0)] for li in indices}
        search: dict[int, Parts] | None = None
        if m.lexical_seed and stage_index <= m.lexical_iterations:
            lexical_rows = (lexical or LexicalIndex(corpus.texts)).views(indices)
            w = m.lexical_weight
            model_part = {li: [(model_view[li], 1.0 - w)] if w < 1 else [] for li in indices}
            views = {li: [(lexical_rows[li], w), *model_part[li]] for li in indices}
            if m.lexical_search_max_df is not None:
                rare = rare_ngram_views(lexical_rows, m.lexical_search_max_df)
                search = {li: [(rare[li], w), *model_part[li]] for li in indices}
        pools_ex = {li: (indices[li], views[li]) for li in indices}
        mined = mine_exhaustive(
            pools_ex, m.margin_k, m.mutual, m.threshold, m.max_pairs_per_language_pair, english,
            search, m.lexical_candidates, growth_caps(corpus.languages, previous, m.kept_growth),
        )  # fmt: skip
    target = centred if cfg.regression.target == "centred" else raw
    all_indices = np.concatenate([indices[li] for li in sorted(indices)])
    all_vectors = np.concatenate([target[li] for li in sorted(indices)])
    row_of = np.full(len(corpus), -1, np.int64)
    row_of[all_indices] = np.arange(len(all_indices))
    scores = np.sum(all_vectors[row_of[mined.a]] * all_vectors[row_of[mined.b]], axis=1)
    if cfg.regression.target == "centred":
        scores = np.clip(scores, 0.0, 1.0)
    mined.cosine = scores.astype(np.float32)
    return mined, all_indices, all_vectors
