"""Comparable monolingual corpora (paper 001's main, Wiki-Wiki setting) from parallel files.

Paper 001 trains on Wikipedia in several languages, "which share many common contents, in which we can dig
many parallel sentences" (Sec. 4.4); its disjoint Book-Wiki ablation costs ~6 points. The disjoint builder
(:mod:`lingualite.recipes.monolingual.documents`) reads each document in ONE language, which matches the ablation:
almost no training sentence has its translation anywhere in the corpus, so mining has nothing to find.

This builder keeps that assignment (every document is read in its hashed language) and, for a seeded share
``shared`` of the documents, ALSO reads the document in a second language (hashed among the languages the
files hold it in). Each side of such a document keeps an independent random subset (``keep``) of its
sentences, as two Wikipedia articles on one topic cover it differently: neither side is a translation of the
other, but many of its sentences have their translation somewhere in the other language's corpus. Each
(document, language) stays a separate :class:`Document`, so context windows never cross a language.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.data.evalsets.everyday import is_everyday
from lingualite.recipes.monolingual.documents import (
    Document,
    MonolingualCorpus,
    document_pairs,
    language_of_document,
)


def _unit(text: str) -> float:
    """A stable uniform number in [0, 1) from a string (blake2b, the hash the disjoint builder uses)."""
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little") / 2.0**64


def second_language(doc_id: str, first: str, available: list[str], shared: float, seed: int) -> str | None:
    """The second language a document is read in: with probability ``shared`` (a hash of id and seed), one
    of the ``available`` languages other than ``first``, also chosen by hash; None otherwise."""
    others = [lang for lang in available if lang != first]
    if not others or _unit(f"{seed}\0share\0{doc_id}") >= shared:
        return None
    return others[int(_unit(f"{seed}\0second\0{doc_id}") * len(others))]


def read_document_sides(
    files: list[Path], wanted: list[str]
) -> tuple[dict[str, dict[str, list[str]]], Counter]:
    """``{doc_id: {language: sentences}}``: each language side of a document from the first file that holds
    it (the English side of a Bible chapter is in en-fr and en-de; it is read once)."""
    sides: dict[str, dict[str, list[str]]] = {}
    owner: dict[tuple[str, str], Path] = {}
    dropped: Counter[str] = Counter()
    for path, src_lang, tgt_lang, pair in document_pairs(files):
        for lang, text in ((src_lang, pair.src), (tgt_lang, pair.tgt)):
            if lang not in wanted:
                continue
            if owner.setdefault((pair.doc_id, lang), path) != path:
                dropped["lines_already_read_from_another_file"] += 1
                continue
            if is_everyday(text):  # the held-out everyday set (lingualite.data.evalsets.everyday)
                dropped["everyday_sentences"] += 1
                continue
            sides.setdefault(pair.doc_id, {}).setdefault(lang, []).append(text)
    return sides, dropped


def build_comparable_corpus(
    files: list[Path],
    languages: list[str],
    shared: float = 0.5,
    keep: float = 0.65,
    min_sentences: int = 2,
    max_sentences_per_language: int | None = None,
    seed: int = 0,
) -> MonolingualCorpus:
    """Documents in their hashed language, a share ``shared`` of them also in a second language, each side of
    those keeping an independent seeded subset (a share ``keep``) of its sentences, in order.

    Documents read in one language keep all their sentences (as in the disjoint corpus). The per-language cap
    keeps whole documents in one seeded order of ids shared by all languages (:func:`_cap`).
    """
    wanted = list(dict.fromkeys(languages))
    sides, dropped = read_document_sides(files, wanted)
    by_language: dict[str, list[Document]] = {lang: [] for lang in wanted}
    for doc_id in sorted(sides):
        available = sides[doc_id]
        first = language_of_document(doc_id, wanted)
        if first not in available:
            dropped["documents_assigned_to_a_missing_language"] += 1
            continue
        second = second_language(doc_id, first, [lang for lang in wanted if lang in available], shared, seed)
        for lang in (first, second):
            if lang is None:
                continue
            sentences = available[lang]
            if second is not None:
                digest = hashlib.blake2b(f"{seed}\0keep\0{doc_id}\0{lang}".encode(), digest_size=8).digest()
                mask = np.random.default_rng(int.from_bytes(digest, "little")).random(len(sentences)) < keep
                sentences = [s for s, kept in zip(sentences, mask, strict=True) if kept]
            if len(sentences) < min_sentences:
                dropped["documents_shorter_than_min_sentences"] += 1
                continue
            by_language[lang].append(Document(doc_id, lang, sentences))
    _cap(by_language, max_sentences_per_language, seed, dropped)
    empty = [lang for lang, docs in by_language.items() if not docs]
    if empty:
        raise LinguaLiteError(
            f"no documents for {', '.join(empty)} in {', '.join(str(f) for f in files)} "
            f"(documents need >= {min_sentences} sentences and a third column)"
        )
    return MonolingualCorpus(by_language, dropped)


def _cap(by_language: dict[str, list[Document]], cap: int | None, seed: int, dropped: Counter) -> None:
    """Keep whole documents until ``cap`` sentences per language, in ONE seeded order of document ids shared
    by all languages, so both sides of a shared document are kept or dropped together (as the articles of a
    Wikipedia dump exist in several languages at once); the disjoint builder draws its order per language."""
    if cap is None:
        return
    for lang, docs in by_language.items():
        kept, total = [], 0
        for doc in sorted(docs, key=lambda d: (_unit(f"{seed}\0cap\0{d.doc_id}"), d.doc_id)):
            if total >= cap:
                dropped["documents_over_the_cap"] += 1
                continue
            kept.append(doc)
            total += len(doc.sentences)
        by_language[lang] = sorted(kept, key=lambda d: d.doc_id)


def shared_documents(corpus: MonolingualCorpus) -> dict[str, int]:
    """Documents read in two languages, per language pair (``en-fr``: in the order of ``corpus.documents``)."""
    order = list(corpus.documents)
    where: dict[str, list[str]] = {}
    for lang, docs in corpus.documents.items():
        for doc in docs:
            where.setdefault(doc.doc_id, []).append(lang)
    counts: Counter[str] = Counter()
    for langs in where.values():
        if len(langs) == 2:
            a, b = sorted(langs, key=order.index)
            counts[f"{a}-{b}"] += 1
    return dict(sorted(counts.items()))
