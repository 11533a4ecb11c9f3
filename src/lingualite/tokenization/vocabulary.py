"""The student's own vocabulary for the target languages only (paper 002, Sec. 5.1).

A multilingual model's vocabulary covers ~100 languages, so a student for five languages would carry
thousands of unused rows in its embedding matrix. Paper 002 trains a WordPiece vocabulary on the target
languages, with the data of language l sampled with probability p_l proportional to n_l^alpha (alpha = 0.7) so
the biggest language (here English: it is one side of every pair) does not crowd out the others.

The sampling is done here, per language, so the drawn counts can be reported and checked; the vocabulary
itself is trained by :func:`lingualite.tokenization.tokenizer.train_on_sample` on that already-drawn sample.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from transformers import PreTrainedTokenizerFast

from lingualite.tokenization.alphabet import CHARACTER_COVERAGE, sentences_for_unsampled
from lingualite.tokenization.sampling import (
    GroupShare,
    ShareFloor,
    distinct_texts,
    draw_sample,
    smoothed_language_shares,
)
from lingualite.tokenization.segmentation import KanaRule
from lingualite.tokenization.tokenizer import text_normalizer, train_on_sample

logger = logging.getLogger(__name__)


@dataclass
class VocabularySample:
    """The sentences a vocabulary is trained on, drawn per language.

    :param sentences: the drawn sentences per language (with repeats where a language is short).
    :param shares: the target share p_l of each language.
    :param whole: lines added to each language's drawn sentences, all of them (word lists), if any.
    :param for_alphabet: sentences added for the characters the draw missed
        (:func:`~lingualite.tokenization.alphabet.sentences_for_unsampled`), if any.
    """

    sentences: dict[str, list[str]]
    shares: dict[str, float]
    whole: dict[str, list[str]] | None = None
    for_alphabet: dict[str, list[str]] | None = None

    @property
    def counts(self) -> dict[str, int]:
        return {lang: len(s) for lang, s in self.sentences.items()}

    def corpus(self) -> list[str]:
        return [s for lang in sorted(self.sentences) for s in self.sentences[lang]]


def sample_for_vocabulary(
    texts: Mapping[str, Sequence[str]],
    alpha: float = 0.7,
    size: int = 300_000,
    seed: int = 0,
    group: GroupShare | None = None,
    floor: ShareFloor | None = None,
) -> VocabularySample:
    """Draw ``size`` sentences, ``round(size * p_l)`` of language l, with p_l proportional to n_l^alpha.

    :param texts: sentences per language code (repeats count once: n_l is the number of distinct ones).
    :param alpha: 1 keeps the raw shares, 0 gives every language the same share (paper 002: 0.7).
    :param group: a fixed share of the sample for some languages (:class:`GroupShare`).
    :param floor: the least share of each group of languages, e.g. of each script (:class:`ShareFloor`).
    """
    pools = distinct_texts(texts)
    shares = smoothed_language_shares({lang: len(t) for lang, t in pools.items()}, alpha, group, floor)
    return VocabularySample(draw_sample(pools, shares, size, seed), shares)


def build_vocabulary(
    texts: Mapping[str, Sequence[str]],
    size: int = 50_000,
    kind: Literal["wordpiece", "unigram"] = "wordpiece",
    alpha: float = 0.7,
    sample_size: int = 300_000,
    lowercase: bool = True,
    seed: int = 0,
    character_coverage: float = CHARACTER_COVERAGE,
    group: GroupShare | None = None,
    kana: KanaRule = "characters",
    whole: Mapping[str, Sequence[str]] | None = None,
    alphabet_min_count: int | None = None,
    floor: ShareFloor | None = None,
) -> tuple[PreTrainedTokenizerFast, VocabularySample]:
    """Train a ``size``-token vocabulary on a smoothed sample of ``texts``; returns it and the sample.

    :param size: vocabulary size with the special tokens (paper 002: 100k was best of 50k/100k/150k; on a
        small corpus the trainer may stop earlier: the embedding matrix is sized by ``len(tokenizer)``).
    :param kind: ``wordpiece`` (paper 002) or ``unigram``.
    :param character_coverage: share of each language's characters kept in the alphabet.
    :param group: a fixed share of the sample for some languages (:class:`GroupShare`).
    :param kana: Kana letters one pre-token each, or in runs (:func:`~lingualite.tokenization.segmentation.isolate_characters`).
    :param whole: lines per language that join the drawn sentences whole (not drawn, not counted in the
        shares): a word list's every word reaches the trainer, its characters the alphabet.
    :param alphabet_min_count: also every character a language's whole text holds at least this many times,
        with a sentence that holds it, where the draw and ``whole`` missed it (None: the draw's characters).
    :param floor: the least share of the sample of each group of languages (:class:`ShareFloor`).
    """
    sample = sample_for_vocabulary(texts, alpha=alpha, size=sample_size, seed=seed, group=group, floor=floor)
    if whole:
        sample.whole = {lang: list(lines) for lang, lines in whole.items()}
    extra = sample.whole or {}
    lines = {
        lang: [*sample.sentences.get(lang, []), *extra.get(lang, [])]
        for lang in sorted({*sample.sentences, *extra})
    }
    if alphabet_min_count is not None:
        normalize = text_normalizer(lowercase).normalize_str
        sample.for_alphabet = sentences_for_unsampled(
            distinct_texts(texts), lines, alphabet_min_count, normalize
        )
        for lang, added in sample.for_alphabet.items():
            lines[lang] = [*lines.get(lang, []), *added]
    tokenizer = train_on_sample(
        lines,
        size,
        kind,
        lowercase,
        character_coverage,
        kana,
    )
    counts = ", ".join(f"{lang} {n:,} ({sample.shares[lang]:.1%})" for lang, n in sample.counts.items())
    logger.info(
        "trained a %s vocabulary of %d tokens on %s sentences (alpha %.2f)",
        kind,
        len(tokenizer),
        counts,
        alpha,
    )
    return tokenizer, sample
