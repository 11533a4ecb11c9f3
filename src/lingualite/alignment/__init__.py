"""Document alignment: pair the sentences or paragraphs of two translated documents, in order.

- :func:`align_texts` / :func:`align_vectors`: embedding similarity, Vecalign-style (Thompson & Koehn 2019);
- :func:`gale_church_align`: character lengths only (Gale & Church 1993), the baseline;
- :func:`write_tsv`: the ``src_ids<TAB>tgt_ids<TAB>score<TAB>src<TAB>tgt`` file of ``lingualite align``.
"""

from lingualite.alignment.dp import VecalignConfig, align_texts, align_vectors
from lingualite.alignment.gale_church import GaleChurchConfig, align_lengths, gale_church_align
from lingualite.alignment.result import AlignedBlock, Alignment, allowed_moves, format_tsv, write_tsv

__all__ = [
    "AlignedBlock",
    "Alignment",
    "GaleChurchConfig",
    "VecalignConfig",
    "align_lengths",
    "align_texts",
    "align_vectors",
    "allowed_moves",
    "format_tsv",
    "gale_church_align",
    "write_tsv",
]
