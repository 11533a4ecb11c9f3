"""Mining pseudo-parallel sentence pairs from unaligned text (CSLS over sampled blocks, paper 001)."""

from lingualite.mining.pseudo_pairs import MinedPairs, mine_block, mine_pseudo_pairs, mining_precision

__all__ = ["MinedPairs", "mine_block", "mine_pseudo_pairs", "mining_precision"]
