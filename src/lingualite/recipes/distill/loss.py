"""Multilingual knowledge distillation loss (Reimers & Gurevych 2020; paper 002, Eq. 2), optionally over nested
prefixes of the vectors (Matryoshka Representation Learning, Kusupati et al. 2022)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import torch
from torch import nn

from lingualite.losses.matryoshka import matryoshka_terms, shrink
from lingualite.losses.sentence_alignment import pair_scores


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

    Matryoshka (``matryoshka_dims``; Kusupati et al., NeurIPS 2022, Eq. 1): the loss becomes
    ``sum_d w_d L_d``. ``L_D`` of the student's full dimension D is the MSE above, unchanged. For a shorter
    ``d``, ``L_d`` is the same MSE between the PREFIXES of both the student's and the teacher's vectors, each
    L2-renormalised: ``mse(n(S(x)[:d]), n(T(x)[:d]))`` (and the same for S(t)), which is ``2 (1 - cos_d) / d``
    per vector. Why this target:

    - the teacher's vectors are PCA outputs (:mod:`lingualite.recipes.distill.pca`), whose dimensions come in order
      of variance, so the teacher's d-prefix is its best d-dimensional linear summary (PCA to d): a natural,
      already-nested target at every size;
    - users compare truncated vectors renormalised (:func:`lingualite.vectors.truncation.truncate`), by cosine, so
      the prefix term trains exactly that direction and not the prefix's length, which truncation discards;
    - without renormalisation the prefix MSE would only be the full MSE restricted to the first d
      coordinates: a reweighting whose optimum (S = T) is the same, that teaches nothing about the prefix as
      a vector. sentence-transformers' ``MatryoshkaLoss`` around ``MSELoss`` renormalises the student's
      prefix but not the teacher's (``labels[..., :dim]``), a pair that can never match; we renormalise both.

    Distance (``optim.loss``, issue #40): ``mse`` (default) is the MSE above, paper 002's Eq. 2.
    ``cosine`` replaces it by the mean of ``1 - cos(S(x), T(x))`` (:func:`cosine_distance`), which ignores the
    vector's length: users compare the student's vectors by cosine, which discards the length, so the
    student's capacity goes to the direction only. Its scale differs from the MSE's (``1 - cos`` is in
    [0, 2] whatever the vectors' size), which changes the effective learning rate under Adam little.
    ``mse+cosine`` is their sum: the direction, with the MSE still anchoring the length. Only the full
    vector's term changes; Matryoshka prefix terms are already cosine-like (see above).

    Cross-lingual term (``optim.alignment_weight`` > 0, issue #40): ``weight *`` :class:`TeacherMaskedAlignment`
    of the two sides' vectors is added to the pair loss (part ``alignment``). The distance alone asks each
    vector to sit near its teacher's; this term asks a translation to be nearer its own source than the
    batch's other sources, which is what retrieval scores.

    With ``pca.enabled: false`` the teacher's prefix is a plain subset of its coordinates, not a summary:
    keep PCA on for Matryoshka training. Parts gain ``mse@d``.

    Example::

        loss_fn = MultilingualMSELoss()
        loss, parts = loss_fn(student(x_ids, x_mask), student(t_ids, t_mask), teacher_vectors)
        loss.backward()
    """

    def __init__(
        self,
        matryoshka_dims: Sequence[int] | None = None,
        matryoshka_weights: Sequence[float] | None = None,
        distance: Literal["mse", "cosine", "mse+cosine"] = "mse",
        alignment_weight: float = 0.0,
        alignment_scale: float = 20.0,
    ) -> None:
        super().__init__()
        if distance not in ("mse", "cosine", "mse+cosine"):
            raise ValueError(f"distance: {distance!r} is not one of ['mse', 'cosine', 'mse+cosine']")
        self.distance = distance
        self.alignment_weight = alignment_weight
        self.alignment = TeacherMaskedAlignment(alignment_scale) if alignment_weight > 0 else None
        from sentence_transformers.sentence_transformer.losses import MSELoss

        # MSELoss only needs a model for its optional projection; its distance reduction is what we reuse.
        self.mse = MSELoss(model=nn.Identity())
        self.terms = matryoshka_terms(matryoshka_dims, matryoshka_weights) if matryoshka_dims else None

    def forward(
        self, source: torch.Tensor, target: torch.Tensor, teacher: torch.Tensor
    ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        """The loss and both sides' MSE as detached 0-d tensors (read them with ``float``)."""
        teacher = teacher.detach()
        loss, parts = self.vectors_loss([source, target], teacher)
        if self.alignment is not None:
            term = self.alignment(source, target, teacher)
            loss = loss + self.alignment_weight * term
            parts["alignment"] = term.detach()
        with torch.no_grad():
            parts.update(  # detached tensors: read on log steps only, no host sync per step (GPU)
                mse_source=nn.functional.mse_loss(source.float(), teacher.float()),
                mse_target=nn.functional.mse_loss(target.float(), teacher.float()),
            )
        return loss, parts

    def vectors_loss(
        self, columns: list[torch.Tensor], teacher: torch.Tensor
    ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        """The mean over ``columns`` (student vectors) of their MSE to ``teacher``, or its Matryoshka sum;
        parts ``mse@d`` for the prefixes."""
        teacher = teacher.detach()
        if self.terms is None:
            return self.full_loss(columns, teacher), {}
        total: torch.Tensor | float = 0.0
        parts: dict[str, torch.Tensor] = {}
        for dim, weight in self.terms:
            if dim == teacher.shape[-1]:
                term = self.full_loss(columns, teacher)
            else:
                prefix = shrink(teacher, dim)
                term = self.mse.compute_loss_from_embeddings(
                    [shrink(c, dim) for c in columns], [prefix] * len(columns)
                )
                parts[f"mse@{dim}"] = term.detach()
            total = total + weight * term
        return total, parts  # type: ignore[return-value]

    @property
    def plain_mse(self) -> bool:
        """The paper's loss: the MSE of the full vectors only (no Matryoshka sizes, no cosine)."""
        return self.terms is None and self.distance == "mse"

    def full_loss(self, columns: list[torch.Tensor], teacher: torch.Tensor) -> torch.Tensor:
        """``optim.loss`` between the full vectors: the mean over ``columns`` of the MSE, ``1 - cos``, or both."""
        loss: torch.Tensor | float = 0.0
        if self.distance in ("mse", "mse+cosine"):
            loss = self.mse.compute_loss_from_embeddings(columns, [teacher] * len(columns))
        if self.distance in ("cosine", "mse+cosine"):
            loss = loss + sum(cosine_distance(c, teacher) for c in columns) / len(columns)
        return loss  # type: ignore[return-value]


def cosine_distance(student: torch.Tensor, teacher: torch.Tensor) -> torch.Tensor:
    """Mean over the batch of ``1 - cos(student_i, teacher_i)``: 0 for parallel vectors of any lengths."""
    return (1 - nn.functional.cosine_similarity(student.float(), teacher.float(), dim=-1)).mean()


class TeacherMaskedAlignment(nn.Module):
    """Paper 000's in-batch sentence alignment (Eq. 5) on a distilled student, by scaled cosine:
    ``CE(scale * cos(S(x_j), S(t_k)))_j + CE(scale * cos(S(t_j), S(x_k)))_j``, averaged over the pairs: each
    side must pick its own translation among the batch's B (the mean of the two directions).

    A batch of parallel data holds the same sentence more than once (a UI string translated into twelve
    languages, a Bible verse in each edition), and Eq. 5 would push those apart as negatives. The teacher
    knows: pairs ``j != k`` whose teacher vectors have cosine >= ``same_above`` are left out of each other's
    softmax (the idea of GISTEmbed's guided negatives, Solatorio 2024, with the distillation's own teacher
    vectors as the guide). Written here rather than with sentence-transformers' ``GISTEmbedLoss``, which
    calls a guide model on the texts; the guide's vectors are already in the batch.
    """

    def __init__(self, scale: float = 20.0, same_above: float = 0.95) -> None:
        super().__init__()
        self.scale, self.same_above = scale, same_above

    def forward(self, source: torch.Tensor, target: torch.Tensor, teacher: torch.Tensor) -> torch.Tensor:
        """The term for one batch: ``source`` and ``target`` (B, d) student vectors, ``teacher`` (B, d)."""
        scores = pair_scores(source.float(), target.float(), "cosine", self.scale)
        with torch.no_grad():
            unit = nn.functional.normalize(teacher.float(), dim=-1)
            same = unit @ unit.T >= self.same_above
            same.fill_diagonal_(False)
        scores = scores.masked_fill(same, float("-inf"))
        labels = torch.arange(scores.shape[0], device=scores.device)
        ce = nn.functional.cross_entropy
        return (ce(scores, labels) + ce(scores.T, labels)) / 2
