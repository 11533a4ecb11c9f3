"""Monolingual documents from parallel files, each document in ONE language.

Our real corpora (LibreOffice help, Bible, DDTP) are translations of each other. Read naively, the "monolingual"
French and English corpora would hold the same documents, and any model trained on them would be secretly
supervised by parallel data. So every document id is assigned to exactly one language by a stable hash
(``blake2b(doc_id) mod len(languages)``), and only that language's side of that document is read: a
Bible chapter is English OR French OR German..., never two of them (:func:`check_disjoint` asserts it).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.data.evalsets.everyday import is_everyday
from lingualite.data.pairs import languages_of
from lingualite.data.readers import ParallelPair, read_tsv


@dataclass
class Document:
    doc_id: str
    language: str
    sentences: list[str]


@dataclass
class MonolingualCorpus:
    """Documents per language, plus what was dropped and why (for the run summary)."""

    documents: dict[str, list[Document]]
    dropped: Counter[str] = field(default_factory=Counter)

    def sentences(self, language: str) -> list[str]:
        return [s for doc in self.documents[language] for s in doc.sentences]

    def counts(self) -> dict[str, dict[str, int]]:
        return {
            lang: {"documents": len(docs), "sentences": sum(len(d.sentences) for d in docs)}
            for lang, docs in self.documents.items()
        }


def language_of_document(doc_id: str, languages: list[str]) -> str:
    """The one language a document is used in: a hash of its id, stable across runs and machines."""
    digest = hashlib.blake2b(doc_id.encode("utf-8"), digest_size=8).digest()
    return languages[int.from_bytes(digest, "little") % len(languages)]


def build_monolingual_corpus(
    files: list[Path],
    languages: list[str],
    min_sentences: int = 2,
    max_sentences_per_language: int | None = None,
    seed: int = 0,
) -> MonolingualCorpus:
    """Read ``src<TAB>tgt<TAB>doc_id`` files and keep, for each document, its sentences in its one language.

    Sentences keep their file order (consecutive sentences of a document). A document whose language side is
    in several files (the English side of a Bible chapter is in en-fr and en-de) is read from the first file
    only. Lines without a document id are an error naming the file and line: context needs documents.
    """
    wanted = list(dict.fromkeys(languages))
    docs: dict[tuple[str, str], Document] = {}
    owner_file: dict[str, Path] = {}
    dropped: Counter[str] = Counter()
    for path, src_lang, tgt_lang, pair in document_pairs(files):
        lang = language_of_document(pair.doc_id, wanted)
        if lang == src_lang:
            text = pair.src
        elif lang == tgt_lang:
            text = pair.tgt
        else:
            dropped["lines_of_documents_assigned_to_other_languages"] += 1
            continue
        if owner_file.setdefault(pair.doc_id, path) != path:
            dropped["lines_already_read_from_another_file"] += 1
            continue
        if is_everyday(text):  # the held-out everyday set (lingualite.data.evalsets.everyday)
            dropped["everyday_sentences"] += 1
            continue
        doc = docs.setdefault((lang, pair.doc_id), Document(pair.doc_id, lang, []))
        doc.sentences.append(text)
    by_language: dict[str, list[Document]] = {lang: [] for lang in wanted}
    for doc in docs.values():
        if len(doc.sentences) < min_sentences:
            dropped["documents_shorter_than_min_sentences"] += 1
            continue
        by_language[doc.language].append(doc)
    rng = np.random.default_rng(seed)
    for lang, lang_docs in by_language.items():
        if max_sentences_per_language is not None:
            kept, total = [], 0
            for i in rng.permutation(len(lang_docs)):
                if total >= max_sentences_per_language:
                    dropped["documents_over_the_cap"] += 1
                    continue
                kept.append(lang_docs[i])
                total += len(lang_docs[i].sentences)
            by_language[lang] = sorted(kept, key=lambda d: d.doc_id)
    empty = [lang for lang, lang_docs in by_language.items() if not lang_docs]
    if empty:
        raise LinguaLiteError(
            f"no documents for {', '.join(empty)} in {', '.join(str(f) for f in files)} "
            f"(documents need >= {min_sentences} sentences and a third column)"
        )
    corpus = MonolingualCorpus(by_language, dropped)
    check_disjoint(corpus)
    return corpus


def check_disjoint(corpus: MonolingualCorpus) -> None:
    """Raise if a document id occurs in two languages (the corpus would be secretly parallel)."""
    seen: dict[str, str] = {}
    for lang, docs in corpus.documents.items():
        for doc in docs:
            other = seen.setdefault(doc.doc_id, lang)
            if other != lang:
                raise LinguaLiteError(f"document {doc.doc_id!r} is in both {other} and {lang}")


def document_pairs(files: list[Path]) -> Iterator[tuple[Path, str, str, ParallelPair]]:
    """Every pair of ``files`` with its file and its two languages (from the folder name, e.g. ``en-fr``);
    a file outside such a folder, or a pair without a document id, is a one-line error."""
    for path in files:
        src_lang, tgt_lang = languages_of(path)
        if src_lang == "src":
            raise LinguaLiteError(
                f"{path}: put pair files under a folder named like en-fr to give their languages"
            )
        for pair in read_tsv(path):
            if pair.doc_id is None:
                raise LinguaLiteError(
                    f"{pair.source}:{pair.line}: no document id (third column); monolingual mode needs documents"
                )
            yield path, src_lang, tgt_lang, pair
