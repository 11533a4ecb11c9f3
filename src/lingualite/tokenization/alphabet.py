"""Which characters a new vocabulary keeps: each language's frequent ones, within a share of the vocabulary.

Latin and Cyrillic text needs ~100 characters, but Chinese needs thousands (~4,400 cover 99.95% of a broad
Chinese sample), Japanese ~2,800 and Korean syllables ~1,600. Both ``tokenizers`` trainers put every character
they see into the vocabulary: the Unigram trainer fails outright when there are more than ``vocab_size``, and
the WordPiece trainer exceeds ``vocab_size`` (every character, and its "##" form inside a word, is a token).
So the alphabet is chosen here, and the characters left out are taken out of the training sample (replaced by a
space); at encoding time they become [UNK]. The ``tokenizers`` trainers have no option for this (WordPiece's
``limit_alphabet`` drops characters from inside training words, Unigram has nothing).

Two rules, per language and on the normalised text: SentencePiece's ``character_coverage`` (the most frequent
characters covering that share of a language's occurrences; default 1.0, every character seen: measured, the
[UNK] rate of every language is lowest so), and at most :data:`MAX_ALPHABET_SHARE` of the vocabulary, filled
with the characters most frequent within some language, so a language whose text is 5% of the sample keeps its
common characters however many Chinese ones there are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

__all__ = [
    "CHARACTER_COVERAGE",
    "MAX_ALPHABET_SHARE",
    "character_counts",
    "choose_alphabet",
    "normalized_lines",
    "sentences_for_unsampled",
    "without_rare",
]

CHARACTER_COVERAGE = 1.0
"""Share of each language's characters (occurrences) that the alphabet covers (SentencePiece: 0.9995)."""
MAX_ALPHABET_SHARE = 0.5
"""At most this share of the vocabulary is single characters: the rest is left to the sub-word pieces."""


def normalized_lines(texts: Sequence[str], normalize: Callable[[str], str]) -> list[str]:
    """``[normalize(t) for t in texts]``, 32 texts per call where none holds a line break (a line break is a
    normalisation boundary: nothing composes with it); fewer calls cost ~40% less."""
    out: list[str] = []
    for start in range(0, len(texts), 32):
        chunk = texts[start : start + 32]
        lines = None if any("\n" in t for t in chunk) else normalize("\n".join(chunk)).split("\n")
        out.extend(lines if lines is not None and len(lines) == len(chunk) else [normalize(t) for t in chunk])
    return out


def character_counts(normalized: Mapping[str, Sequence[str]]) -> dict[str, Counter[str]]:
    """Occurrences of each non-space character per language, in its (normalised) sentences."""
    counts: dict[str, Counter[str]] = {}
    for lang, texts in normalized.items():
        counter = Counter("".join(texts))
        counts[lang] = Counter({c: n for c, n in counter.items() if not c.isspace()})
    return counts


def choose_alphabet(counts: Mapping[str, Counter[str]], coverage: float, limit: int) -> set[str]:
    """The characters to keep: for each language the most frequent ones that cover ``coverage`` of its
    occurrences; if the union has more than ``limit``, those most frequent in some language."""
    if not 0.0 < coverage <= 1.0:
        raise ValueError(f"character coverage must be in (0, 1], got {coverage}")
    score: dict[str, float] = {}  # a character's highest frequency in any language
    chosen: set[str] = set()
    for counter in counts.values():
        total = sum(counter.values())
        covered = 0
        for char, n in counter.most_common():
            score[char] = max(score.get(char, 0.0), n / total)
            if covered < coverage * total:
                chosen.add(char)
                covered += n
    if len(chosen) > limit:
        chosen = set(sorted(chosen, key=lambda c: (-score[c], c))[:limit])
    return chosen


def sentences_for_unsampled(
    pools: Mapping[str, Sequence[str]],
    sample: Mapping[str, Sequence[str]],
    min_count: int,
    normalize: Callable[[str], str] = str,
) -> dict[str, list[str]]:
    """Per language, sentences of its whole text (``pools``) that hold the characters it uses at least
    ``min_count`` times there but its drawn ``sample`` lacks: one sentence per such character at most.

    The alphabet is read off the sample, so a character the draw missed is [UNK] for good, however common in
    the language's text: a 5,000-sentence draw of Traditional Chinese missed 麵, 樓 and 稅 (14, 5 and 10
    times in its training text), and one missing Hangul syllable makes its whole word [UNK] in WordPiece.
    Joining these sentences to the sample puts every such character, in its own context, into the vocabulary
    (unless ``character_coverage < 1`` or the alphabet's cap leaves it out: it occurs about once there).
    Characters are compared as the vocabulary sees them, each through ``normalize`` (the tokenizer's
    normaliser: "É" counts as "é", full-width "Ａ" as "a").
    """
    if min_count < 1:
        raise ValueError(f"min_count must be at least 1, got {min_count}")
    forms: dict[str, str] = {}  # raw character -> as the vocabulary sees it, normalised once

    def form(raw: str) -> str:
        if raw not in forms:
            forms[raw] = normalize(raw)
        return forms[raw]

    out: dict[str, list[str]] = {}
    for lang, texts in pools.items():
        raw_counts = Counter("".join(texts))
        counts: Counter[str] = Counter()
        for raw, n in raw_counts.items():
            for c in form(raw):
                counts[c] += n
        drawn = {c for raw in set("".join(sample.get(lang, ()))) for c in form(raw)}
        wanted = {c for c, n in counts.items() if n >= min_count and c not in drawn and not c.isspace()}
        carriers = {raw for raw in raw_counts if wanted.intersection(form(raw))}  # a set test per text
        chosen: list[str] = []
        for text in texts:
            if not wanted:
                break
            held = carriers.intersection(text)
            if held and (found := wanted.intersection(c for raw in held for c in form(raw))):
                chosen.append(text)
                wanted -= found
        if chosen:
            out[lang] = chosen
    return out


def without_rare(
    texts: Sequence[str], normalized: Sequence[str], alphabet: set[str], seen: set[str]
) -> list[str]:
    """``texts`` with the characters outside ``alphabet`` replaced by a space, in their ``normalized`` form; a
    text without such characters is returned unchanged. ``seen`` is every character the texts contain."""
    rare = {ord(c): " " for c in seen - alphabet}
    if not rare:
        return list(texts)
    out = []
    for text, normal in zip(texts, normalized, strict=True):
        cleaned = normal.translate(rare)
        out.append(text if cleaned == normal else cleaned)
    return out
