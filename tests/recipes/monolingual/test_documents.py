"""Monolingual documents: each document id in ONE language, its sentences in order, bad input named."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.recipes.monolingual.documents import (
    Document,
    MonolingualCorpus,
    build_monolingual_corpus,
    check_disjoint,
    language_of_document,
)

LANGS = ["en", "fr", "de"]


def _files(root: Path) -> list[Path]:
    return [root / "en-de" / "train.tsv", root / "en-fr" / "train.tsv"]


def test_no_document_id_appears_in_two_languages(document_files: Path) -> None:
    corpus = build_monolingual_corpus(_files(document_files), LANGS)
    owners: dict[str, set[str]] = {}
    for lang, docs in corpus.documents.items():
        for doc in docs:
            owners.setdefault(doc.doc_id, set()).add(lang)
    assert owners and all(len(langs) == 1 for langs in owners.values())
    assert all(corpus.documents[lang] for lang in LANGS)  # every language got documents


def test_documents_hold_their_language_side_in_file_order(document_files: Path) -> None:
    corpus = build_monolingual_corpus(_files(document_files), LANGS)
    lines: dict[tuple[str, str], list[str]] = {}
    for pair in ("en-fr", "en-de"):
        for line in (document_files / pair / "train.tsv").read_text().splitlines():
            _, xx, doc = line.split("\t")
            lines.setdefault((pair, doc), []).append(xx)
    for doc in corpus.documents["fr"]:
        assert language_of_document(doc.doc_id, LANGS) == "fr"
        assert doc.sentences == lines[("en-fr", doc.doc_id)]
    for doc in corpus.documents["de"]:
        assert doc.sentences == lines[("en-de", doc.doc_id)]


def test_english_documents_are_read_from_one_file_only(document_files: Path) -> None:
    corpus = build_monolingual_corpus(_files(document_files), LANGS)
    de_file = (document_files / "en-de" / "train.tsv").read_text().splitlines()
    for doc in corpus.documents["en"]:
        expected = [line.split("\t")[0] for line in de_file if line.split("\t")[2] == doc.doc_id]
        assert doc.sentences == expected  # en-de comes first: no repeated sentences from en-fr
    assert corpus.dropped["lines_already_read_from_another_file"] > 0


def test_assignment_is_stable_and_spread() -> None:
    ids = [f"doc{i}" for i in range(3000)]
    first = [language_of_document(i, LANGS) for i in ids]
    assert first == [language_of_document(i, LANGS) for i in ids]
    shares = Counter(first)
    assert all(900 < shares[lang] < 1100 for lang in LANGS)


def test_cap_and_min_sentences(document_files: Path) -> None:
    corpus = build_monolingual_corpus(
        _files(document_files), LANGS, min_sentences=4, max_sentences_per_language=30
    )
    for docs in corpus.documents.values():
        assert all(len(d.sentences) >= 4 for d in docs)
        total = sum(len(d.sentences) for d in docs)
        assert total - max(len(d.sentences) for d in docs) < 30  # whole documents until the cap is reached
    assert corpus.dropped["documents_shorter_than_min_sentences"] > 0
    assert corpus.dropped["documents_over_the_cap"] > 0


def test_line_without_document_id_is_named(tmp_path: Path) -> None:
    path = tmp_path / "en-fr" / "train.tsv"
    path.parent.mkdir()
    path.write_text("a b c\tx y z\tdoc1\nd e f\tu v w\n")
    with pytest.raises(LinguaLiteError, match=r"train\.tsv:2: no document id"):
        build_monolingual_corpus([path], ["en", "fr"])


def test_files_need_language_folders(tmp_path: Path) -> None:
    path = tmp_path / "pairs.tsv"
    path.write_text("a b c\tx y z\tdoc1\n")
    with pytest.raises(LinguaLiteError, match="folder named like en-fr"):
        build_monolingual_corpus([path], ["en", "fr"])


def test_check_disjoint_rejects_a_shared_document() -> None:
    corpus = MonolingualCorpus(
        {"en": [Document("d1", "en", ["a", "b"])], "fr": [Document("d1", "fr", ["c", "d"])]}
    )
    with pytest.raises(LinguaLiteError, match="'d1' is in both en and fr"):
        check_disjoint(corpus)
