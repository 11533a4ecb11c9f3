"""Validation of the monolingual recipe after every stage: XSR P@1 (the shared
:class:`lingualite.training.retrieval_validation.RetrievalValidation`) and the mining rule's precision on gold pairs.

Also the anisotropy of the validation vectors (:func:`anisotropy`: collapse shows as random pairs' cosine
tending to 1). The gold pairs are held-out parallel pairs (never trained on). Mining precision samples m of each side
independently, as mining samples two monolingual corpora, and keeps the top min(m * m, per_round) CSLS pairs
(:func:`lingualite.mining.pseudo_pairs.mining_precision`); XSR is nearest-neighbour P@1 over all pairs of a file.
"""

from __future__ import annotations

import numpy as np
from transformers import PreTrainedTokenizerFast

from lingualite.config.monolingual import MonolingualConfig
from lingualite.data.pairs import expand_files
from lingualite.mining.pseudo_pairs import mining_precision
from lingualite.models.context_encoder import ContextEncoder
from lingualite.training.retrieval_validation import RetrievalValidation
from lingualite.vectors.retrieval import centred_unit, normalize_rows


class StageEvaluator:
    """``evaluator(model) -> {"valid_xsr_p_at_1", "mined_precision", ... per language pair}``; also the
    encoder the mining uses (:meth:`encode`: single sentences at the model's sentence length)."""

    def __init__(self, cfg: MonolingualConfig, tokenizer: PreTrainedTokenizerFast) -> None:
        self.cfg, self.tokenizer = cfg, tokenizer
        files = expand_files(cfg.data.valid_files, "validation") if cfg.data.valid_files else []
        self.retrieval = RetrievalValidation.from_files(files, cfg.data.valid_pairs, cfg.seed, self.encode)

    def encode(self, model: ContextEncoder, texts: list[str]) -> np.ndarray:
        return model.encode_texts(self.tokenizer, texts)

    def __call__(self, model: ContextEncoder, sample_size: int | None = None) -> dict[str, float]:
        vectors = self.retrieval.vectors(model)
        metrics = self.retrieval.scores(vectors)
        if not vectors:
            return metrics
        m = self.cfg.mining
        m_used = sample_size or m.sample_size
        precisions = []
        for name, a, b in vectors:
            rng = np.random.default_rng(self.cfg.seed)
            precision = mining_precision(a, b, m_used, m.csls_k, m.pairs_per_round, rng)
            metrics[f"mined_precision/{name}"] = precision
            precisions.append(precision)
        metrics["mined_precision"] = float(np.mean(precisions))
        metrics.update(anisotropy(vectors))
        # the m the gold precision really used: at most the number of gold pairs per file
        metrics["mined_precision_m"] = min(m_used, min(len(a) for _, a, _ in vectors))
        return metrics

    def texts(self) -> set[str]:
        return self.retrieval.texts()


def anisotropy(vectors: list[tuple[str, np.ndarray, np.ndarray]]) -> dict[str, float]:
    """Mean cosine of random cross-language pairs (each source row with the next row's target: never its gold
    partner), uncentred (``random_cosine``: near 1 when all vectors collapse onto one direction) and after
    removing each side's mean (``random_centred_cosine``, the scale the centred regression targets use)."""
    raw, centred = [], []
    for _, a, b in vectors:
        shifted = np.roll(np.arange(len(b)), -1)
        raw.append(float(np.mean(np.sum(normalize_rows(a) * normalize_rows(b)[shifted], axis=1))))
        centred.append(float(np.mean(np.sum(centred_unit(a) * centred_unit(b)[shifted], axis=1))))
    return {
        "random_cosine": round(float(np.mean(raw)), 4),
        "random_centred_cosine": round(float(np.mean(centred)), 4),
    }
