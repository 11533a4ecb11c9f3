"""Exponentially smoothed language sampling (XLM; Conneau & Lample 2019; paper 002 uses alpha = 0.7).

p_l = n_l^alpha / sum_k n_k^alpha. With alpha < 1 small languages get more than their raw share, so a shared
vocabulary does not become an English vocabulary with a few French pieces.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence


def smoothed_language_shares(counts: Mapping[str, int], alpha: float) -> dict[str, float]:
    """Return p_l proportional to n_l ** alpha for every language with n_l > 0."""
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    weights = {lang: float(n) ** alpha for lang, n in counts.items() if n > 0}
    if not weights:
        raise ValueError("no language has any sentence to sample from")
    total = sum(weights.values())
    return {lang: w / total for lang, w in weights.items()}


def sample_sentences(
    texts: Mapping[str, Sequence[str]], alpha: float, total: int, seed: int = 0
) -> Iterator[str]:
    """Yield ``total`` sentences, ``round(total * p_l)`` from language l (with replacement when it is short)."""
    rng = random.Random(seed)
    shares = smoothed_language_shares({lang: len(t) for lang, t in texts.items()}, alpha)
    for lang, share in shares.items():
        pool = texts[lang]
        want = round(total * share)
        if want <= len(pool):
            picks = rng.sample(range(len(pool)), want)
        else:
            picks = [rng.randrange(len(pool)) for _ in range(want)]
        for i in picks:
            yield pool[i]
