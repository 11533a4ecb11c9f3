"""The full objective of paper 000 (Eq. 7): generative + 2 x alignment + 2 x similarity."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

from lingualite.config.parallel import GENERATIVE_OBJECTIVES, ObjectiveConfig
from lingualite.losses.matryoshka import MatryoshkaLoss
from lingualite.losses.mlm import MLMLoss
from lingualite.losses.mlm_xtr import MLMXTRLoss
from lingualite.losses.sentence_level import SentenceLosses
from lingualite.losses.smlm import SMLMLoss
from lingualite.losses.ugt import UGTLoss
from lingualite.losses.xtr import XTRLoss
from lingualite.models.batch import PairBatch
from lingualite.models.dual_encoder import EncoderOutput

GENERATIVE_LOSSES: dict[str, type[nn.Module]] = {
    "mlm": MLMLoss,
    "smlm": SMLMLoss,
    "xtr": XTRLoss,
    "ugt": UGTLoss,
    "mlm_xtr": MLMXTRLoss,
}
assert set(GENERATIVE_LOSSES) == set(GENERATIVE_OBJECTIVES)  # the config names exactly these


class CombinedLoss(nn.Module):
    """Weighted sum of the configured generative loss and the two sentence-level contrastive losses.

    With ``matryoshka_dims`` the sentence-level losses are also applied to the renormalised prefixes of the
    sentence vectors (:class:`~lingualite.losses.matryoshka.MatryoshkaLoss`); the generative loss, which
    does not read the sentence vectors' components, is unchanged.
    """

    def __init__(
        self,
        cfg: ObjectiveConfig,
        matryoshka_dims: Sequence[int] | None = None,
        matryoshka_weights: Sequence[float] | None = None,
    ) -> None:
        super().__init__()
        cfg.validate()
        self.cfg = cfg
        self.generative = GENERATIVE_LOSSES[cfg.generative]() if cfg.generative != "none" else None
        self.sentence = SentenceLosses(cfg.similarity, cfg.scale, cfg.alignment_weight, cfg.similarity_weight)
        self.matryoshka = None
        if matryoshka_dims:
            self.matryoshka = MatryoshkaLoss(self.sentence, cfg.scale, matryoshka_dims, matryoshka_weights)

    def collator_settings(self) -> dict[str, object]:
        """The masking/sites/bag settings that batches for this objective must be built with."""
        if self.generative is None:
            return {"masking": "none", "pooled_sites": False, "bag": None}
        bag = self.cfg.bag if self.generative.bag is not None else None
        return {"masking": self.generative.masking, "pooled_sites": self.generative.pooled_sites, "bag": bag}

    def forward(
        self, output: EncoderOutput, batch: PairBatch
    ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        """The weighted total and each part, detached (0-d tensors: reading them is the caller's choice, so a
        GPU step needs no host sync)."""
        parts: dict[str, torch.Tensor] = {}
        if self.generative is not None and self.cfg.generative_weight > 0:
            parts["generative"] = self.generative(output, batch)
        if self.matryoshka is not None:  # every term already times its own weight w_d
            parts.update(self.matryoshka(output, batch))
        else:
            parts.update(self.sentence(output, batch))
        weights = {
            "generative": self.cfg.generative_weight,
            "alignment": self.cfg.alignment_weight,
            "similarity": self.cfg.similarity_weight,
        }
        # "alignment@64" (a Matryoshka prefix's term) is weighted as "alignment"
        total = sum(weights[name.split("@")[0]] * value for name, value in parts.items())
        return total, {name: value.detach() for name, value in parts.items()}
