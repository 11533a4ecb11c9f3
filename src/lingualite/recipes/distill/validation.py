"""Validation during distillation: the distillation MSE on held-out pairs, and XSR P@1 per language pair.

The MSE says how closely the student reproduces the (reduced) teacher; XSR P@1 (the shared
:class:`lingualite.training.retrieval_validation.RetrievalValidation`) says whether the languages share one space,
which is what the distillation is for. Both come from one encoding of the held-out sentences.
"""

from __future__ import annotations

import numpy as np
import torch
from transformers import PreTrainedTokenizerFast

from lingualite.models.sentence_encoder import SentenceEncoder
from lingualite.recipes.distill.loss import MultilingualMSELoss
from lingualite.training.retrieval_validation import RetrievalValidation


class DistillValidator:
    """``validator(model) -> {"valid_mse", "valid_mse_source", "valid_mse_target", "valid_xsr_p_at_1", ...}``.

    :param sets: ``(name, sources, targets)`` held-out pairs per file.
    :param teacher: the teacher's (reduced) vectors of every set's sources, in order.
    :param matryoshka_dims: also XSR P@1 at these sizes (``valid_xsr_p_at_1@64``).
    """

    def __init__(
        self,
        sets: list[tuple[str, list[str], list[str]]],
        teacher: np.ndarray,
        tokenizer: PreTrainedTokenizerFast,
        matryoshka_dims: list[int] | None = None,
    ) -> None:
        self.retrieval = RetrievalValidation(
            sets, lambda model, texts: model.encode_texts(tokenizer, texts), matryoshka_dims
        )
        self.teacher = teacher
        self.loss_fn = MultilingualMSELoss()

    def __call__(self, model: SentenceEncoder) -> dict[str, float]:
        vectors = self.retrieval.vectors(model)
        if not vectors:
            return {}
        totals = {"valid_mse": 0.0, "valid_mse_source": 0.0, "valid_mse_target": 0.0}
        offset = 0
        for _, src, tgt in vectors:
            n = len(src)
            target = torch.from_numpy(self.teacher[offset : offset + n])
            loss, parts = self.loss_fn(torch.from_numpy(src), torch.from_numpy(tgt), target)
            totals["valid_mse"] += float(loss) * n
            totals["valid_mse_source"] += float(parts["mse_source"]) * n
            totals["valid_mse_target"] += float(parts["mse_target"]) * n
            offset += n
        metrics = {k: v / offset for k, v in totals.items()}
        metrics.update(self.retrieval.scores(vectors))
        return metrics
