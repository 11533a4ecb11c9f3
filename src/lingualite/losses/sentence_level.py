"""The sentence-level part of paper 000's objective (Eq. 7 without the generative term): a L_align + s L_sim."""

from __future__ import annotations

from typing import Literal

import torch
from torch import nn

from lingualite.losses.sentence_alignment import SentenceAlignmentLoss
from lingualite.losses.similarity import SentenceSimilarityLoss
from lingualite.models.batch import PairBatch
from lingualite.models.dual_encoder import EncoderOutput


class SentenceLosses(nn.Module):
    """Paper 000's sentence-level losses by name (``alignment``: Eq. 5, ``similarity``: Eq. 6), those whose
    objective weight is above 0; the caller weights and sums them (Eq. 7)."""

    def __init__(
        self,
        similarity: Literal["dot", "cosine"],
        scale: float,
        alignment_weight: float,
        similarity_weight: float,
    ) -> None:
        super().__init__()
        self.alignment = SentenceAlignmentLoss(similarity, scale)
        self.similarity = SentenceSimilarityLoss(similarity, scale)
        self.weights = {"alignment": alignment_weight, "similarity": similarity_weight}

    def forward(self, output: EncoderOutput, batch: PairBatch) -> dict[str, torch.Tensor]:
        parts: dict[str, torch.Tensor] = {}
        if self.weights["alignment"] > 0:
            parts["alignment"] = self.alignment(output, batch)
        if self.weights["similarity"] > 0:
            parts["similarity"] = self.similarity(output, batch)
        return parts
