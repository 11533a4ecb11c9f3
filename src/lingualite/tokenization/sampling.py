"""Exponentially smoothed language sampling (XLM; Conneau & Lample 2019; paper 002 uses alpha = 0.7).

p_l = n_l^alpha / sum_k n_k^alpha. With alpha < 1 small languages get more than their raw share, so a shared
vocabulary does not become an English vocabulary with a few French pieces.

The sampling unit is the LANGUAGE: ``texts`` maps a language code to its sentences, and n_l counts its
distinct sentences, so English read from twelve ``en-xx`` files (the same English side each time) counts once.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class GroupShare:
    """A fixed share of the sample for a group of languages (the rest shares the remainder).

    Within each side the languages keep their alpha-smoothed proportions. A vocabulary for many languages
    gives each fewer rows; this keeps a group's rows (the 13 default languages of a 34-language student) at
    what it chooses, where alpha alone would hand them to the newcomers in proportion to their text.

    :param languages: the group.
    :param share: its share of the sample, in (0, 1] (1: the other languages get none).
    """

    languages: Collection[str]
    share: float

    def __post_init__(self) -> None:
        if not 0.0 < self.share <= 1.0:
            raise ValueError(f"a group's share must be in (0, 1], got {self.share}")


@dataclass(frozen=True)
class ShareFloor:
    """The least share of the sample each group of languages gets (a writing system: its languages together).

    A language whose script no other language writes (e.g. Hebrew, Thai, Hindi's Devanagari, Greek) gets its
    vocabulary rows from its own sentences only, while the languages of a shared script (Latin, Cyrillic) pool
    theirs; a floor per script gives the first their rows. A group under the floor is raised to it, the groups
    above give up the difference in proportion to their shares; each group's languages keep their proportions.

    :param groups: language -> its group (a language not named is a group of its own).
    :param share: each group's least share, in (0, 1); groups times share must not exceed 1.
    """

    groups: Mapping[str, str]
    share: float

    def __post_init__(self) -> None:
        if not 0.0 < self.share < 1.0:
            raise ValueError(f"a floor's share must be in (0, 1), got {self.share}")

    def apply(self, shares: Mapping[str, float]) -> dict[str, float]:
        """``shares`` (summing to 1) with every group at or above :attr:`share`; a group that had nothing
        shares its floor equally among its languages."""
        group_of = {lang: self.groups.get(lang, lang) for lang in shares}
        before: dict[str, float] = defaultdict(float)
        members: dict[str, int] = defaultdict(int)
        for lang, p in shares.items():
            before[group_of[lang]] += p
            members[group_of[lang]] += 1
        if self.share * len(before) > 1.0:
            raise ValueError(f"{len(before)} groups cannot each get {self.share} of the sample")
        after = dict(before)
        raised: set[str] = set()
        while low := {g for g, p in after.items() if g not in raised and p < self.share}:
            raised |= low
            free = sum(before[g] for g in after if g not in raised)  # > 0: the unraised are >= the floor
            left = 1.0 - self.share * len(raised)
            after = {g: self.share if g in raised else before[g] * left / free for g in after}
        out: dict[str, float] = {}
        for lang, p in shares.items():
            g = group_of[lang]
            out[lang] = p * after[g] / before[g] if before[g] > 0 else after[g] / members[g]
        return out


def smoothed_language_shares(
    counts: Mapping[str, int], alpha: float, group: GroupShare | None = None, floor: ShareFloor | None = None
) -> dict[str, float]:
    """Return p_l proportional to n_l ** alpha for every language with n_l > 0; with ``group``, its
    languages together get ``group.share`` and the others the rest (when both sides have text); then
    ``floor`` raises each of its groups to its least share (:class:`ShareFloor`)."""
    shares = _group_shares(counts, alpha, group)
    return floor.apply(shares) if floor is not None else shares


def _group_shares(counts: Mapping[str, int], alpha: float, group: GroupShare | None) -> dict[str, float]:
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    weights = {lang: float(n) ** alpha for lang, n in counts.items() if n > 0}
    if not weights:
        raise ValueError("no language has any sentence to sample from")
    inside = {lang for lang in weights if group is not None and lang in group.languages}
    if group is None or not inside or len(inside) == len(weights):
        total = sum(weights.values())
        return {lang: w / total for lang, w in weights.items()}
    in_total = sum(weights[lang] for lang in inside)
    out_total = sum(w for lang, w in weights.items() if lang not in inside)
    return {
        lang: group.share * w / in_total if lang in inside else (1.0 - group.share) * w / out_total
        for lang, w in weights.items()
    }


def apportion(shares: Mapping[str, float], total: int) -> dict[str, int]:
    """Whole counts that sum to ``total``, each within one of ``total * share`` (largest remainders).

    ``round`` alone can miss the total by a few sentences when many languages each round down."""
    counts = {lang: round(total * share) for lang, share in shares.items()}
    missing = total - sum(counts.values())
    if missing:
        # the languages whose rounding moved them furthest from their exact share absorb the difference
        by_gap = sorted(
            shares, key=lambda lang: (total * shares[lang] - counts[lang]) * math.copysign(1, missing)
        )
        for lang in by_gap[::-1][: abs(missing)]:
            counts[lang] += 1 if missing > 0 else -1
    return counts


def distinct_texts(texts: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """Each language's sentences without repeats, in first-seen order (n_l counts distinct sentences)."""
    return {lang: list(dict.fromkeys(sentences)) for lang, sentences in texts.items()}


def sample_by_language(
    texts: Mapping[str, Sequence[str]],
    alpha: float,
    total: int,
    seed: int = 0,
    group: GroupShare | None = None,
    floor: ShareFloor | None = None,
) -> dict[str, list[str]]:
    """``total`` sentences drawn per language, ``apportion(p_l)`` of language l (with replacement when it
    is short), with p_l from its distinct sentences (and ``group``'s share and ``floor``, if any)."""
    pools = distinct_texts(texts)
    shares = smoothed_language_shares({lang: len(t) for lang, t in pools.items()}, alpha, group, floor)
    return draw_sample(pools, shares, total, seed)


def draw_sample(
    pools: Mapping[str, Sequence[str]], shares: Mapping[str, float], total: int, seed: int = 0
) -> dict[str, list[str]]:
    """``apportion(shares, total)`` sentences of each language's ``pools`` (distinct sentences), without
    replacement unless the pool is short."""
    rng = random.Random(seed)
    drawn: dict[str, list[str]] = {}
    for lang, want in apportion(shares, total).items():
        pool = pools[lang]
        if want <= len(pool):
            picks = rng.sample(range(len(pool)), want)
        else:
            picks = [rng.randrange(len(pool)) for _ in range(want)]
        drawn[lang] = [pool[i] for i in picks]
    return drawn


def sample_sentences(
    texts: Mapping[str, Sequence[str]], alpha: float, total: int, seed: int = 0
) -> Iterator[str]:
    """Yield :func:`sample_by_language`'s sentences, one language after the other."""
    for sentences in sample_by_language(texts, alpha, total, seed).values():
        yield from sentences
