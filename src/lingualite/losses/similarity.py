"""In-batch sentence similarity loss (paper 000, Eq. 6)."""

from __future__ import annotations

import math
from typing import Literal

import torch
from torch import nn

from lingualite.losses.sentence_alignment import pair_scores
from lingualite.models.batch import PairBatch
from lingualite.models.dual_encoder import EncoderOutput


class SentenceSimilarityLoss(nn.Module):
    """Eq. 6: -sum_{j1, j2} log cos(pi/2 (softmax_k(u_j1 . u_k)[j2] - softmax_k(v_j1 . v_k)[j2])).

    The within-language similarity distributions of the two sides must agree: the row-softmaxed matrices
    U U^T and V V^T are pushed together by a log-cos regression (footnote 5). Summed over j2, averaged over
    j1 (the paper sums over both). cos is clamped at 1e-12 so a saturated difference of +-1 stays finite.
    """

    def __init__(self, similarity: Literal["dot", "cosine"] = "dot", scale: float = 20.0) -> None:
        super().__init__()
        self.similarity, self.scale = similarity, scale

    def forward(self, output: EncoderOutput, batch: PairBatch) -> torch.Tensor:
        u, v = output.u.float(), output.v.float()
        p_u = torch.softmax(pair_scores(u, u, self.similarity, self.scale), dim=1)
        p_v = torch.softmax(pair_scores(v, v, self.similarity, self.scale), dim=1)
        cos = torch.cos(0.5 * math.pi * (p_u - p_v)).clamp(min=1e-12)
        return -cos.log().sum(dim=1).mean()
