"""Training objectives of paper 000, one per module (Eq. 1-7)."""

from lingualite.losses.alignment import SentenceAlignmentLoss
from lingualite.losses.combined import GENERATIVE_LOSSES, CombinedLoss, ObjectiveConfig
from lingualite.losses.mlm import MLMLoss
from lingualite.losses.mlm_xtr import MLMXTRLoss
from lingualite.losses.similarity import SentenceSimilarityLoss
from lingualite.losses.smlm import SMLMLoss
from lingualite.losses.ugt import UGTLoss
from lingualite.losses.xtr import XTRLoss

__all__ = [
    "GENERATIVE_LOSSES",
    "CombinedLoss",
    "MLMLoss",
    "MLMXTRLoss",
    "ObjectiveConfig",
    "SMLMLoss",
    "SentenceAlignmentLoss",
    "SentenceSimilarityLoss",
    "UGTLoss",
    "XTRLoss",
]
