"""Everyday sentences in every supported language: a tiny, multi-way test set that ships with lingualite.

Forty short sentences of daily life (weather, travel, food, work, health), written for lingualite in English and
translated into the other twelve languages by its developers (not professional translations; Apache-2.0 like
the code). No training source holds this register (software help, scripture and package descriptions do), so it
is a held-out domain for every model, and because it is multi-way it tests any pair (zh-ru as well as en-fr).
Forty candidates make P@1 coarse (one sentence is 0.025): it is a check that a model works in a language, not
a benchmark.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from lingualite.text.languages import check_languages

__all__ = ["everyday_pairs", "everyday_sentences"]


@cache
def everyday_sentences() -> dict[str, tuple[str, ...]]:
    """The sentences of every language, in the same order: ``{"en": (...), "zh": (...), ...}``."""
    text = resources.files(__package__).joinpath("everyday.tsv").read_text(encoding="utf-8")
    header, *rows = (line.split("\t") for line in text.splitlines())
    return {lang: tuple(row[i] for row in rows) for i, lang in enumerate(header) if i > 0}


def everyday_pairs(src: str, tgt: str) -> tuple[list[str], list[str]]:
    """The (source, target) translations between two supported languages, aligned by position."""
    check_languages([src, tgt])
    sentences = everyday_sentences()
    return list(sentences[src]), list(sentences[tgt])
