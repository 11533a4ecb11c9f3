"""Training objectives, one per module: paper 000 (Eq. 1-7) and paper 001 (L_ml, L_cl)."""

from lingualite.losses.coherence_regression import CoherenceRegressionLoss
from lingualite.losses.combined import GENERATIVE_LOSSES, CombinedLoss, ObjectiveConfig
from lingualite.losses.context_classification import ContextClassificationLoss
from lingualite.losses.mlm import MLMLoss
from lingualite.losses.mlm_xtr import MLMXTRLoss
from lingualite.losses.sentence_alignment import SentenceAlignmentLoss
from lingualite.losses.similarity import SentenceSimilarityLoss
from lingualite.losses.smlm import SMLMLoss
from lingualite.losses.ugt import UGTLoss
from lingualite.losses.xtr import XTRLoss

__all__ = [
    "GENERATIVE_LOSSES",
    "CoherenceRegressionLoss",
    "CombinedLoss",
    "ContextClassificationLoss",
    "MLMLoss",
    "MLMXTRLoss",
    "ObjectiveConfig",
    "SMLMLoss",
    "SentenceAlignmentLoss",
    "SentenceSimilarityLoss",
    "UGTLoss",
    "XTRLoss",
]
