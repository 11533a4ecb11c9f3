"""Multilingual sentence vectors from monolingual documents only (paper 001, Wang et al.).

Stage 1, sentence-context classification; stage 2, iterative cross-lingual coherence regression on
pseudo-parallel pairs mined with CSLS. Run it with ``lingualite train --config monolingual``.
"""
