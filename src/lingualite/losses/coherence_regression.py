"""Cross-lingual coherence regression loss (paper 001, Sec. 3.2, L_cl)."""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F


class CoherenceRegressionLoss(nn.Module):
    """L_cl = sum_i (score(c_i) - R(Enc(c_i)))^2: c_i puts a replacement t into the context of s_i, and
    score(c_i) = dist(Enc(t), Enc(s_i)), computed with the encoder of the mining step (a fixed target).
    Averaged over the batch (sentence-transformers' MSELoss reduction).

    The targets come in (:mod:`lingualite.recipes.monolingual.mining_step`): the paper's uncentred cosine, or
    (``regression.target: centred``, issue #16) the cosine after removing each language's mean vector,
    clipped at 0. Deviation, and why: uncentred cosines of a small encoder are ~0.9 for ANY pair, so the
    paper's targets are nearly constant and the regression is met by making all vectors alike (collapse)."""

    def forward(self, predicted: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
        return F.mse_loss(predicted.float(), scores.float())
