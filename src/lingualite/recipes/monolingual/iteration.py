"""One coherence-regression iteration's data (paper 001, Sec. 3.2): mine pseudo-parallel pairs with the current
encoder, build regression batches from them, keep them on disk for an exact resume.

Mined pairs index sentences of a :class:`TokenizedCorpus`; :func:`corpus_fingerprint` ties a saved file to
the corpus it indexes, so a resume over other data is refused instead of silently pairing other sentences.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from lingualite.config.monolingual import MonolingualConfig
from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import atomic_path
from lingualite.losses.sentence_alignment import SentenceAlignmentLoss
from lingualite.mining.pseudo_pairs import MinedPairs
from lingualite.models.context_encoder import ContextEncoder
from lingualite.models.dual_encoder import EncoderOutput
from lingualite.recipes.monolingual.contexts import ContextExamples, TokenizedCorpus, pad_batch
from lingualite.recipes.monolingual.mining_step import LexicalIndex, mine_iteration
from lingualite.recipes.monolingual.stage_evaluator import StageEvaluator
from lingualite.recipes.monolingual.truth import TranslationTruth

logger = logging.getLogger(__name__)


@dataclass
class IterationData:
    """What one iteration trains on: the mined pairs, and the encoded pool (sentence indices and their unit
    vectors) that random replacements come from."""

    mined: MinedPairs
    pool_indices: np.ndarray
    pool_vectors: np.ndarray

    def summary(
        self,
        corpus: TokenizedCorpus,
        truth: TranslationTruth | None = None,
        previous: dict[str, int] | None = None,
    ) -> dict[str, Any]:
        return mined_summary(self.mined, corpus, truth, previous)


def load_or_mine(
    cfg: MonolingualConfig,
    model: ContextEncoder,
    corpus: TokenizedCorpus,
    evaluator: StageEvaluator,
    stage_index: int,
    path: Path,
    fingerprint: str,
    lexical: LexicalIndex | None = None,
    previous: dict[str, int] | None = None,
) -> IterationData:
    """The iteration's data from ``path`` (a resume), or mined now and saved there before training starts
    (``lexical``: the run's lexical views, shared by its iterations; ``previous``: the last iteration's kept
    pairs per language pair, for ``mining.kept_growth``)."""
    if path.exists():
        return IterationData(*load_mined(path, fingerprint))
    mined, pool_indices, pool_vectors = mine_iteration(
        cfg, model, corpus, evaluator, stage_index, lexical, previous
    )
    if len(mined) == 0:
        raise LinguaLiteError(
            f"{path.stem}: mining found no pairs; raise mining.sample_size or the corpus size"
        )
    if cfg.mining.method == "blocks" and len(mined) < cfg.mining.target_pairs:
        logger.warning(
            "%s: mining stopped at %d of %d pairs after %d rounds (the pools hold too few new pairs)",
            path.stem,
            len(mined),
            cfg.mining.target_pairs,
            mined.rounds,
        )
    save_mined(path, mined, pool_indices, pool_vectors, fingerprint)
    return IterationData(mined, pool_indices, pool_vectors)


def regression_examples(
    data: IterationData,
    batch_size: int,
    mined_share: float,
    rng: np.random.Generator,
    random_score: str = "cosine",
) -> ContextExamples:
    """One batch of coherence-regression examples (paper 001, Sec. 3.2): ``middle`` replaces ``center`` and the
    target is cos(Enc(middle), Enc(center)) from the mining step. A share ``mined_share`` are mined partners
    (either direction of a pair); the rest, half each, are the center itself (score 1) and a random encoded
    sentence of any language (its cosine)."""
    mined, pool_indices, pool_vectors = data.mined, data.pool_indices, data.pool_vectors
    n_mined = max(1, round(batch_size * mined_share)) if len(mined) else 0
    n_self = (batch_size - n_mined) // 2
    n_random = batch_size - n_mined - n_self
    rows = rng.integers(0, len(mined), size=n_mined) if n_mined else np.zeros(0, np.int64)
    flip = rng.random(n_mined) < 0.5
    center = np.where(flip, mined.b[rows], mined.a[rows])
    middle = np.where(flip, mined.a[rows], mined.b[rows])
    target = mined.cosine[rows].astype(np.float32)
    self_pos = rng.integers(0, len(pool_indices), size=n_self)
    rand_c = rng.integers(0, len(pool_indices), size=n_random)
    rand_m = rng.integers(0, len(pool_indices), size=n_random)
    rand_score = np.sum(pool_vectors[rand_c] * pool_vectors[rand_m], axis=1)
    if random_score == "zero":
        rand_score = np.where(rand_c == rand_m, 1.0, 0.0)
    return ContextExamples(
        np.concatenate([center, pool_indices[self_pos], pool_indices[rand_c]]),
        np.concatenate([middle, pool_indices[self_pos], pool_indices[rand_m]]),
        np.concatenate([target, np.ones(n_self, np.float32), rand_score.astype(np.float32)]),
    )


def corpus_fingerprint(data: TokenizedCorpus) -> str:
    """What mined pairs' sentence indices refer to: the languages and every sentence, in order."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update("\0".join(data.languages).encode())
    for text in data.texts:
        digest.update(text.encode("utf-8") + b"\0")
    return digest.hexdigest()


def save_mined(
    path: Path, mined: MinedPairs, pool_indices: np.ndarray, pool_vectors: np.ndarray, fingerprint: str
) -> None:
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        np.savez(
            fh,
            corpus=np.asarray(fingerprint),
            a=mined.a,
            b=mined.b,
            lang_a=mined.lang_a,
            lang_b=mined.lang_b,
            csls=mined.csls,
            cosine=mined.cosine,
            rounds=np.asarray(mined.rounds),
            pool_indices=pool_indices,
            pool_vectors=pool_vectors,
        )


def load_mined(path: Path, fingerprint: str) -> tuple[MinedPairs, np.ndarray, np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        if "corpus" not in data or str(data["corpus"]) != fingerprint:
            raise LinguaLiteError(
                f"{path}: mined for another corpus (data files, languages or caps changed); "
                "resume with the run's own config, or start a new --output"
            )
        mined = MinedPairs(
            data["a"],
            data["b"],
            data["lang_a"],
            data["lang_b"],
            data["csls"],
            data["cosine"],
            int(data["rounds"]),
        )
        return mined, data["pool_indices"], data["pool_vectors"]


def mined_summary(
    mined: MinedPairs,
    corpus: TokenizedCorpus,
    truth: TranslationTruth | None = None,
    previous: dict[str, int] | None = None,
) -> dict[str, Any]:
    """What was mined: pairs per language pair, their mean regression target (``mined_cosine_mean``: the
    coherence score; near 1 for every pair = collapse) and mining score, and, with ``truth`` (from the source
    files, never trained on), the share of mined pairs that are translations (``mined_true_precision``).

    With ``previous`` (the last iteration's pairs per language pair), also the true precision of this
    iteration's best pairs by mining score, as many per language pair as last time
    (``mined_true_precision_same_count``): how well the model ranks, apart from where the cut falls."""
    langs = corpus.languages
    keys = np.array([f"{langs[la]}-{langs[lb]}" for la, lb in zip(mined.lang_a, mined.lang_b, strict=True)])
    per_pair: dict[str, int] = {}
    lowest: dict[str, float] = {}
    for key, score in zip(keys.tolist(), mined.csls, strict=True):
        per_pair[key] = per_pair.get(key, 0) + 1
        lowest[key] = min(lowest.get(key, np.inf), round(float(score), 4))
    out: dict[str, Any] = {
        "mined_pairs": len(mined),
        "mining_rounds": mined.rounds,
        "mined_cosine_mean": round(float(np.mean(mined.cosine)), 4) if len(mined) else None,
        "mined_score_mean": round(float(np.mean(mined.csls)), 4) if len(mined) else None,
        "mined_per_language_pair": per_pair,
        "mined_lowest_score_per_language_pair": lowest,
    }
    if truth is not None and len(mined):
        found = truth.precision(mined.a, mined.b)
        out.update({f"mined_{key}": value for key, value in found.items()})
        if previous:
            rows = np.concatenate(
                [_best_rows(mined, keys == key)[: previous.get(key, 0)] for key in per_pair]
            )
            if len(rows):
                same = truth.precision(mined.a[rows], mined.b[rows])
                out["mined_true_precision_same_count"] = same["true_precision"]
    return out


def _best_rows(mined: MinedPairs, selected: np.ndarray) -> np.ndarray:
    """Rows of ``selected`` pairs, highest mining score first."""
    rows = np.flatnonzero(selected)
    return rows[np.argsort(-mined.csls[rows], kind="stable")]


def alignment_loss(
    model: ContextEncoder,
    loss_fn: SentenceAlignmentLoss,
    data: TokenizedCorpus,
    mined: MinedPairs,
    batch_size: int,
    rng: np.random.Generator,
    cfg: MonolingualConfig,
) -> torch.Tensor:
    """Beyond paper 001 (``regression.alignment_weight``): each of ``batch_size`` mined pairs must pick its
    partner among the batch's, both directions (paper 000, Eq. 5), on single-sentence vectors."""
    rows = rng.choice(len(mined), size=min(batch_size, len(mined)), replace=False)
    inputs = [data.sentence_input(int(i)) for i in mined.a[rows]] + [
        data.sentence_input(int(i)) for i in mined.b[rows]
    ]
    ids, mask = pad_batch(inputs, data.pad_id, cfg.context.sentence_length)
    return loss_fn(EncoderOutput(embeddings=model(ids, mask), site_log_probs=None), None)
