"""Single-word masked language model in the dual encoder (paper 000, Eq. 1; Sabet et al. 2019)."""

from __future__ import annotations

import torch
from torch import nn

from lingualite.losses._targets import require_log_probs
from lingualite.models.batch import PairBatch
from lingualite.models.dual_encoder import EncoderOutput


class SMLMLoss(nn.Module):
    """Eq. 1: for a pair (S_l, S_l') with w_t masked in S_l,  -log P(w_t | S_l without w_t) - log P(w_t | S_l').

    Both sides of every pair have exactly one masked token, so the sum over (l, l') in Eq. 1 has both
    orderings: four terms per pair, summed, then averaged over pairs. The cross-lingual term reads the
    prediction of the translation at ITS masked position (the translation's only prediction state), i.e. it
    predicts the other side's masked word, not the [MASK] symbol (the authors' public code differs here).

    Requirements: batches built with ``masking="single"``.
    Relations: :class:`UGTLoss` replaces the cross-lingual term by the translation's bag of words.
    """

    masking = "single"
    pooled_sites = False
    bag = None

    def forward(self, output: EncoderOutput, batch: PairBatch) -> torch.Tensor:
        log_probs = require_log_probs(output.site_log_probs, "SMLMLoss")
        rows = batch.site_rows  # one site per row, in row order
        n = rows.shape[0]
        partner = (rows + n // 2) % n
        labels = batch.site_labels
        mono = -log_probs[rows, labels]
        cross = -log_probs[partner, labels]
        return (mono + cross).sum() / batch.num_pairs
