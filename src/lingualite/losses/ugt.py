"""Unified generative task, UGT = SMLM + XTR (paper 000, Eq. 4): the objective of the paper's model."""

from __future__ import annotations

import torch
from torch import nn

from lingualite.losses._targets import require_log_probs, sparse_kl
from lingualite.models.batch import PairBatch
from lingualite.models.dual_encoder import EncoderOutput


class UGTLoss(nn.Module):
    """Eq. 4: at the masked position of S_l, KL(q || p) with q = 1/2 on the masked word w_t plus 1/2 spread over
    the tokens of the translation S_l' (Eq. 3 halved). Every sentence has one masked word, so every row gets
    this target; summed over both sides, averaged over pairs. Labels of repeated tokens are added, not
    overwritten (the authors' public code overwrites them).

    Requirements: batches with ``masking="single"`` and bags.
    Relations: :class:`SMLMLoss` (q = one-hot) and :class:`XTRLoss` (q = bag only) are its two halves.
    """

    masking = "single"
    pooled_sites = False
    bag = "unique"

    def forward(self, output: EncoderOutput, batch: PairBatch) -> torch.Tensor:
        log_probs = require_log_probs(output.site_log_probs, "UGTLoss")
        rows = batch.site_rows  # one site per row, site index == row index
        sites = torch.cat([rows, batch.bag_rows])
        tokens = torch.cat([batch.site_labels, batch.bag_tokens])
        weights = torch.cat([batch.bag_weights.new_full(rows.shape, 0.5), 0.5 * batch.bag_weights])
        return sparse_kl(log_probs, sites, tokens, weights).sum() / batch.num_pairs
