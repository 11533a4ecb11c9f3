"""Run XSR for an encoder on a ``src<TAB>tgt`` file (sides de-duplicated, optional seeded subsample)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy import sparse

from lingualite.data.readers import read_tsv
from lingualite.evaluation.encoders import Encoder, TfidfEncoder
from lingualite.evaluation.retrieval import Method, normalize_rows, xsr_from_similarity


def load_xsr_pairs(
    path: str | Path, max_pairs: int | None = None, seed: int = 0
) -> tuple[list[str], list[str]]:
    """Pairs with unique sources and unique targets (a retrieval query needs one right answer)."""
    seen_src: set[str] = set()
    seen_tgt: set[str] = set()
    src: list[str] = []
    tgt: list[str] = []
    for pair in read_tsv(path):
        if pair.src in seen_src or pair.tgt in seen_tgt:
            continue
        seen_src.add(pair.src)
        seen_tgt.add(pair.tgt)
        src.append(pair.src)
        tgt.append(pair.tgt)
    if max_pairs is not None and len(src) > max_pairs:
        keep = np.sort(np.random.default_rng(seed).choice(len(src), max_pairs, replace=False))
        src, tgt = [src[i] for i in keep], [tgt[i] for i in keep]
    return src, tgt


def _similarity(a: np.ndarray | sparse.spmatrix, b: np.ndarray | sparse.spmatrix) -> np.ndarray:
    if sparse.issparse(a):
        return np.asarray((a @ b.T).todense(), dtype=np.float32)  # TF-IDF rows are already L2-normalised
    return normalize_rows(a) @ normalize_rows(b).T


def evaluate_xsr(
    encoder: Encoder,
    src: list[str],
    tgt: list[str],
    method: Method = "nn",
) -> dict[str, float]:
    """P@1/5/10 in both directions (and their means) of ``encoder`` on aligned ``src``/``tgt``."""
    if len(src) != len(tgt) or not src:
        raise ValueError("XSR needs the same, non-zero number of sources and targets")
    if isinstance(encoder, TfidfEncoder):
        encoder.fit(src + tgt)
    scores = xsr_from_similarity(_similarity(encoder.encode(src), encoder.encode(tgt)), method)
    return {**scores, "num_pairs": len(src)}
