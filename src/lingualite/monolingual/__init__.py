"""Multilingual sentence vectors from monolingual documents only (paper 001, Wang et al.).

Stage 1, sentence-context classification; stage 2, iterative cross-lingual coherence regression on
pseudo-parallel pairs mined with CSLS. Run it with ``lingualite train --config monolingual``.
"""

from lingualite.monolingual.config import MonolingualConfig, load_monolingual_config
from lingualite.monolingual.documents import MonolingualCorpus, build_monolingual_corpus, language_of_document
from lingualite.monolingual.train import MonolingualResult, train_monolingual

__all__ = [
    "MonolingualConfig",
    "MonolingualCorpus",
    "MonolingualResult",
    "build_monolingual_corpus",
    "language_of_document",
    "load_monolingual_config",
    "train_monolingual",
]
