"""Masked language modelling (BERT; Devlin et al. 2019): the baseline generative task of paper 000, Table 6."""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from lingualite.losses._targets import require_log_probs
from lingualite.models.batch import PairBatch
from lingualite.models.dual_encoder import EncoderOutput


class MLMLoss(nn.Module):
    """Cross-entropy of the original token at every masked position (15% of tokens, 80/10/10 corruption).

    Each side is predicted from itself only; the translation plays no part. Averaged over masked tokens.

    Requirements: batches built with ``masking="bert"``.
    Relations: :class:`MLMXTRLoss` adds the translation's bag of words to every target.
    """

    masking = "bert"
    pooled_sites = False
    bag = None

    def forward(self, output: EncoderOutput, batch: PairBatch) -> torch.Tensor:
        log_probs = require_log_probs(output.site_log_probs, "MLMLoss")
        return F.nll_loss(log_probs, batch.site_labels)
