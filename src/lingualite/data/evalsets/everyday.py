"""Everyday sentences in every supported language: a multi-way test set of several registers that ships with
lingualite.

Three hundred short sentences (5-25 words), sixty in each of five registers (:data:`REGISTERS`): ``daily``
(weather, travel, food, work, health), ``news`` (invented, news-like reports; no real living people),
``formal`` (administrative, legal and business letters and notices), ``conversation`` (chat, spoken turns,
questions) and ``instructions`` (recipes, how-to steps, safety notices). Every sentence was written for
lingualite in English and translated into the other twelve languages of the shipped models (the first forty
``daily`` rows by lingualite's developers, the 260 added for issue 40 by an AI assistant), and then, both
splits, into the 21 further languages of the registry by an AI assistant (issue 43: every supported language
has a column); none by professional or native translators and none reviewed by native speakers, so expect
an unidiomatic phrase here and there (European Portuguese, Simplified and Traditional (Taiwan) Chinese,
Norwegian Bokmål). Apache-2.0 like the code.

No training source holds these registers (software help, scripture and package descriptions do), so it is a
held-out domain for every model, and it is kept out of every training run: where the recipes read their
text (:func:`lingualite.data.pairs.read_pairs`, distillation's monolingual files, the ranker, the monolingual
recipe's documents) :func:`is_everyday` drops any sentence that is one of them, in any language, after
:func:`normalise_for_guard`, and the run summary counts them. Because it is multi-way it tests any pair
(zh-ru as well as en-fr). It is a check that a model works in a language and a register, not a benchmark:
sixty candidates per register make P@1 coarse.

A second, disjoint set of 200 rows (forty per register, written and translated the same way) is the
``validation`` split (:data:`SPLITS`): it is for choices between models and recipes, so that choosing never
reads the test split; it is held out from training by the same guard and is not reported as a result.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import resources

from lingualite.core.errors import ConfigError
from lingualite.text.languages import check_languages

__all__ = [
    "REGISTERS",
    "SPLITS",
    "drop_everyday_pairs",
    "everyday_guard",
    "everyday_pairs",
    "everyday_registers",
    "everyday_sentences",
    "is_everyday",
    "normalise_for_guard",
]

# The registers of the file, in its order (the first forty ``daily`` rows were the whole set before issue 40).
REGISTERS: tuple[str, ...] = ("daily", "news", "formal", "conversation", "instructions")

# The splits and their files: ``test`` (the 300 rows every published table reports) and ``validation`` (200
# disjoint rows, only for choosing between candidates: the test split is never read to choose).
SPLITS: dict[str, str] = {"test": "everyday.tsv", "validation": "everyday_validation.tsv"}


@cache
def _rows(split: str = "test") -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    if split not in SPLITS:
        raise ConfigError(f"unknown everyday split {split!r}; choose from {', '.join(SPLITS)}")
    text = resources.files(__package__).joinpath(SPLITS[split]).read_text(encoding="utf-8")
    header, *rows = (tuple(line.split("\t")) for line in text.splitlines())
    return header, tuple(rows)


def everyday_registers(split: str = "test") -> tuple[str, ...]:
    """The registers present in the split's file, in the order of :data:`REGISTERS`."""
    present = {row[1] for row in _rows(split)[1]}
    return tuple(r for r in REGISTERS if r in present)


def _check_register(register: str | None) -> None:
    if register is not None and register not in REGISTERS:
        raise ConfigError(f"unknown everyday register {register!r}; choose from {', '.join(REGISTERS)}")


@cache
def everyday_sentences(register: str | None = None, split: str = "test") -> dict[str, tuple[str, ...]]:
    """The sentences of every language, in the same order: ``{"en": (...), "zh": (...), ...}``.

    ``register`` keeps one register's rows (see :data:`REGISTERS`); ``None`` keeps all of them. ``split``:
    ``test`` (the reported set) or ``validation`` (for choices only; :data:`SPLITS`).
    """
    _check_register(register)
    header, rows = _rows(split)
    kept = [row for row in rows if register is None or row[1] == register]
    return {lang: tuple(row[i] for row in kept) for i, lang in enumerate(header) if i > 1}


def everyday_pairs(
    src: str, tgt: str, register: str | None = None, split: str = "test"
) -> tuple[list[str], list[str]]:
    """The (source, target) translations between two languages of the set (:func:`everyday_languages`),
    aligned by position; a supported language the set does not hold is a one-line error."""
    check_languages([src, tgt])
    sentences = everyday_sentences(register, split)
    lacking = [lang for lang in (src, tgt) if lang not in sentences]
    if lacking:
        raise ConfigError(
            f"the everyday sentences are not translated into {', '.join(lacking)}; they hold "
            f"{', '.join(sentences)}"
        )
    return list(sentences[src]), list(sentences[tgt])


def everyday_languages(split: str = "test") -> tuple[str, ...]:
    """The languages the everyday set is translated into."""
    return tuple(everyday_sentences(split=split))


def normalise_for_guard(text: str) -> str:
    """The form the guard compares: NFKC, case-folded, letters and digits only (no spaces or punctuation).

    Punctuation, spacing and case differences (a trailing full stop, ``«»`` for ``""``, full-width forms)
    do not let an everyday sentence slip into training.
    """
    return "".join(filter(str.isalnum, unicodedata.normalize("NFKC", text).casefold()))


@cache
def _guarded() -> frozenset[str]:
    return frozenset(
        normalise_for_guard(t)
        for split in SPLITS
        for texts in everyday_sentences(split=split).values()
        for t in texts
    )


def is_everyday(text: str) -> bool:
    """Whether ``text`` is one of the everyday sentences of either split, in any language (after
    :func:`normalise_for_guard`)."""
    return normalise_for_guard(text) in _guarded()


def everyday_guard(texts: Iterable[str]) -> tuple[list[str], int]:
    """``texts`` without the everyday sentences, and how many were dropped (the held-out set stays held out)."""
    texts = list(texts)
    kept = [t for t in texts if not is_everyday(t)]
    return kept, len(texts) - len(kept)


def drop_everyday_pairs(pairs: Iterable[tuple[str, str]]) -> tuple[list[tuple[str, str]], int]:
    """``pairs`` without those with an everyday sentence on either side, and how many were dropped."""
    pairs = list(pairs)
    kept = [(a, b) for a, b in pairs if not (is_everyday(a) or is_everyday(b))]
    return kept, len(pairs) - len(kept)
