"""The config of the parallel recipe (paper 000): the dual encoder on parallel pairs, UGT + alignment +
similarity. Shipped: ``quickstart`` (minutes on a CPU) and ``paper`` (the paper's size).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from lingualite.config.encoder import EncoderConfig
from lingualite.config.parsing import Range
from lingualite.config.sections import (
    PairDataConfig,
    PairOptimConfig,
    RecipeConfig,
    VocabularyConfig,
    check_matryoshka,
)
from lingualite.core.errors import ConfigError

GENERATIVE_OBJECTIVES = ("mlm", "smlm", "xtr", "ugt", "mlm_xtr")
"""The generative tasks of paper 000 (Table 6); :mod:`lingualite.losses` implements one per file."""


@dataclass
class ObjectiveConfig:
    """Which generative task and how the three parts are weighted (paper: UGT, weights 1:2:2).

    :param generative: ``ugt`` | ``smlm`` | ``xtr`` | ``mlm`` | ``mlm_xtr`` | ``none``.
    :param generative_weight: weight of the generative task in the sum (paper 000, Eq. 7).
    :param alignment_weight: weight of the sentence alignment loss (Eq. 5: in-batch translation ranking).
    :param similarity_weight: weight of the sentence similarity loss (Eq. 6).
    :param similarity: score of the sentence-level losses: ``dot`` (paper) or ``cosine`` (scaled by ``scale``).
    :param scale: the factor the cosine is multiplied by when ``similarity`` is ``cosine``.
    :param bag: the XTR target over the translation's tokens: ``unique`` (every distinct token the same
        weight, the paper's footnote 3) or ``frequency`` (each token by its count, Eq. 3 as written).
    """

    RANGES: ClassVar[dict[str, Range]] = {"scale": (0, None, True)}

    generative: str = "ugt"
    generative_weight: float = 1.0
    alignment_weight: float = 2.0
    similarity_weight: float = 2.0
    similarity: Literal["dot", "cosine"] = "dot"
    scale: float = 20.0
    bag: Literal["unique", "frequency"] = "unique"

    def validate(self) -> None:
        if self.generative not in (*GENERATIVE_OBJECTIVES, "none"):
            raise ConfigError(
                f"objective.generative must be one of {sorted(GENERATIVE_OBJECTIVES) + ['none']}, "
                f"got {self.generative!r}"
            )
        if self.similarity not in ("dot", "cosine"):
            raise ConfigError(f"objective.similarity must be 'dot' or 'cosine', got {self.similarity!r}")
        if self.bag not in ("unique", "frequency"):
            raise ConfigError(f"objective.bag must be 'unique' or 'frequency', got {self.bag!r}")
        if min(self.generative_weight, self.alignment_weight, self.similarity_weight) < 0:
            raise ConfigError("objective weights must be >= 0")


@dataclass
class ParallelOptimConfig(PairOptimConfig):
    """Paper 000: lr 1e-3, batch 128, dropout 0.1.

    :param batch_by_file: every batch comes from one training file (one language pair), so in-batch negatives
        share the positive's languages.
    """

    batch_by_file: bool = True


@dataclass
class ParallelConfig(RecipeConfig):
    """``mode: parallel`` (the default mode of a config without ``mode``).

    :param matryoshka_dims: also train the alignment and similarity losses on the first ``d`` components of
        the sentence vectors, renormalised, for each ``d`` listed, e.g. ``[256, 128, 64]`` (Matryoshka
        Representation Learning, Kusupati et al. 2022; :class:`lingualite.losses.matryoshka.MatryoshkaLoss`):
        strictly descending, each at most ``model.hidden_size``. The full dimension should come first: its
        term is the usual loss. The model folder and its card record the sizes. null (default): off.
    :param matryoshka_weights: one weight per ``matryoshka_dims`` entry (null: 1 each), as in
        sentence-transformers' ``MatryoshkaLoss``.
    """

    mode: Literal["parallel"] = "parallel"
    seed: int = 0
    data: PairDataConfig = field(default_factory=PairDataConfig)
    vocabulary: VocabularyConfig = field(default_factory=VocabularyConfig)
    model: EncoderConfig = field(default_factory=EncoderConfig)
    objective: ObjectiveConfig = field(default_factory=ObjectiveConfig)
    optim: ParallelOptimConfig = field(default_factory=ParallelOptimConfig)
    matryoshka_dims: list[int] | None = None
    matryoshka_weights: list[float] | None = None

    def check(self, where: str) -> None:
        dims, weights = self.matryoshka_dims, self.matryoshka_weights
        check_matryoshka(dims, weights, self.model.hidden_size, where, "model.hidden_size")
