"""Validation of the parallel recipe: the training objective on fixed held-out batches, and XSR P@1 per
language pair (:class:`lingualite.training.retrieval_validation.RetrievalValidation`)."""

from __future__ import annotations

import numpy as np
import torch
from transformers import PreTrainedTokenizerFast

from lingualite.config.parallel import ParallelConfig
from lingualite.data.pairs import expand_files
from lingualite.data.tokenized import TokenizedPairs
from lingualite.losses.combined import CombinedLoss
from lingualite.models.dual_encoder import DualEncoder
from lingualite.training.collator import PairCollator
from lingualite.training.retrieval_validation import RetrievalValidation

LOSS_BATCHES = 20


class ParallelValidator:
    """``validator(model) -> {"valid_loss", "valid_xsr_p_at_1", "valid_xsr_p_at_1/<pair>", ...}``.

    The loss is averaged over up to 20 fixed batches of the validation pairs with fixed masking, so its
    changes are the model's, not the sample's."""

    def __init__(
        self,
        cfg: ParallelConfig,
        tokenizer: PreTrainedTokenizerFast,
        collator: PairCollator,
        loss_fn: CombinedLoss,
        device: torch.device,
    ) -> None:
        self.loss_fn, self.device = loss_fn, device
        files = expand_files(cfg.data.valid_files, "validation")
        self.retrieval = RetrievalValidation.from_files(
            files,
            cfg.data.valid_pairs,
            cfg.seed,
            lambda model, texts: model.encode_texts(tokenizer, texts),
            cfg.matryoshka_dims,
        )
        pairs = [pair for _, src, tgt in self.retrieval.sets for pair in zip(src, tgt, strict=True)]
        tokenized = TokenizedPairs.build(pairs, tokenizer, cfg.model.max_seq_length)
        size = cfg.optim.batch_size
        starts = range(0, len(tokenized) - size + 1, size)[:LOSS_BATCHES]
        self.batches = [
            collator(tokenized.select(range(s, s + size)), torch.Generator().manual_seed(12345 + s))
            for s in starts
        ]

    def __call__(self, model: DualEncoder) -> dict[str, float]:
        metrics: dict[str, float] = {}
        if self.batches:
            losses = []
            for batch in self.batches:
                b = batch.to(self.device)
                out = model(b.input_ids, b.attention_mask, b.site_rows, b.site_cols)
                losses.append(float(self.loss_fn(out, b)[0]))
            metrics["valid_loss"] = float(np.mean(losses))
        metrics.update(self.retrieval(model))
        return metrics
