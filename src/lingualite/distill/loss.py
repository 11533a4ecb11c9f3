"""Multilingual knowledge distillation loss (Reimers & Gurevych 2020; paper 002, Eq. 2)."""

from __future__ import annotations

import torch
from torch import nn


class MultilingualMSELoss(nn.Module):
    """MSE between the student's vectors of BOTH sides of a parallel pair and the teacher's vector of the source.

    For a batch of pairs (x_i, t_i) with teacher vectors s_i = T(x_i) (already PCA-reduced), it computes
    ``( mse(S(x), s) + mse(S(t), s) ) / 2`` where ``mse`` averages over the batch AND the dimensions: exactly
    sentence-transformers' ``losses.MSELoss`` with the two text columns and 2-D labels broadcast to both
    columns, whose reduction this module calls. Paper 002's Eq. 2 sums over the dimensions and adds the two
    terms, i.e. it is ``2 d`` times this value: the same minimiser, and Adam is insensitive to the scale.

    References:
        - Reimers & Gurevych, Making Monolingual Sentence Embeddings Multilingual using Knowledge
          Distillation, EMNLP 2020.
        - Chaulwar et al., Extreme compression of sentence-transformer ranker models (paper 002), Eq. 2.

    Requirements:
        Parallel pairs (source in the teacher's language, translation), and teacher vectors of the sources
        with the dimension of the student's output.

    Relations:
        Same objective as ``sentence_transformers.losses.MSELoss``, which it delegates to; lingualite's
        student is a plain ``nn.Module`` (exported to sentence-transformers afterwards), so this module
        takes the student's vectors instead of calling a ``SentenceTransformer`` itself.

    Inputs:
        +------------------------------+------------------------------+--------------------------+
        | source vectors S(x): (B, d)  | target vectors S(t): (B, d)  | teacher T(x): (B, d)     |
        +------------------------------+------------------------------+--------------------------+

    Example::

        loss_fn = MultilingualMSELoss()
        loss, parts = loss_fn(student(x_ids, x_mask), student(t_ids, t_mask), teacher_vectors)
        loss.backward()
    """

    def __init__(self) -> None:
        super().__init__()
        from sentence_transformers.sentence_transformer.losses import MSELoss

        # MSELoss only needs a model for its optional projection; its distance reduction is what we reuse.
        self.mse = MSELoss(model=nn.Identity())

    def forward(
        self, source: torch.Tensor, target: torch.Tensor, teacher: torch.Tensor
    ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        """The loss and both sides' MSE as detached 0-d tensors (read them with ``float``)."""
        teacher = teacher.detach()
        loss = self.mse.compute_loss_from_embeddings([source, target], [teacher, teacher])
        with torch.no_grad():
            parts = {
                "mse_source": nn.functional.mse_loss(source.float(), teacher.float()),
                "mse_target": nn.functional.mse_loss(target.float(), teacher.float()),
            }
        return loss, parts
