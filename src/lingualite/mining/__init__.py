"""Mining parallel sentences: bitext mining between two corpora by ratio margin (``lingualite mine``) and
pseudo-parallel pairs from unaligned text by CSLS over sampled blocks (paper 001)."""

from lingualite.mining.margin import MODES, MinedBitext, Neighbours, margin, mine_embeddings, select_pairs
from lingualite.mining.pseudo_pairs import MinedPairs, mine_block, mine_pseudo_pairs, mining_precision

__all__ = [
    "MODES",
    "MinedBitext",
    "MinedPairs",
    "Neighbours",
    "margin",
    "mine_block",
    "mine_embeddings",
    "mine_pseudo_pairs",
    "mining_precision",
    "select_pairs",
]
