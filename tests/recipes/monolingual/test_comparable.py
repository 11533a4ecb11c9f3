"""Comparable corpora (issue #16, item 1): shared documents in two languages, independent kept subsets, and a
mining ceiling equal to a brute-force count over the source files."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from lingualite.recipes.monolingual.comparable import build_comparable_corpus, shared_documents
from lingualite.recipes.monolingual.documents import build_monolingual_corpus
from lingualite.recipes.monolingual.truth import TranslationTruth


def _write(path: Path, n_docs: int, seed: int, sentences: int = 10) -> list[tuple[str, str, str]]:
    rng = random.Random(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [
        (f"e{d} s{i} w{rng.randrange(10**6)}", f"f{d} s{i} w{rng.randrange(10**6)}", f"doc{d}")
        for d in range(n_docs)
        for i in range(sentences)
    ]
    path.write_text("".join("\t".join(r) + "\n" for r in rows))
    return rows


@pytest.fixture(scope="module")
def en_fr(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, str, str]]]:
    path = tmp_path_factory.mktemp("comparable") / "en-fr" / "train.tsv"
    return path, _write(path, 400, 3)


def test_a_share_of_documents_is_read_in_both_languages(en_fr) -> None:
    path, _ = en_fr
    corpus = build_comparable_corpus([path], ["en", "fr"], shared=0.5, keep=0.65, seed=1)
    both = shared_documents(corpus)["en-fr"]
    assert 160 < both < 240  # ~50% of 400
    assert shared_documents(build_comparable_corpus([path], ["en", "fr"], shared=0.0)) == {}
    disjoint = build_monolingual_corpus([path], ["en", "fr"])
    first = {(d.doc_id, lang) for lang, docs in disjoint.documents.items() for d in docs}
    comparable = {(d.doc_id, lang) for lang, docs in corpus.documents.items() for d in docs}
    assert (
        first <= comparable
    )  # every document keeps its hashed language: the disjoint corpus plus second sides


def test_shared_sides_keep_independent_ordered_subsets(en_fr) -> None:
    path, rows = en_fr
    corpus = build_comparable_corpus([path], ["en", "fr"], shared=0.5, keep=0.65, seed=1)
    source = {lang: {} for lang in ("en", "fr")}
    for e, f, doc in rows:
        source["en"].setdefault(doc, []).append(e)
        source["fr"].setdefault(doc, []).append(f)
    docs = {lang: {d.doc_id: d.sentences for d in corpus.documents[lang]} for lang in ("en", "fr")}
    shared = set(docs["en"]) & set(docs["fr"])
    kept_en = kept_fr = kept_both = total = 0
    for doc in shared:
        positions = {}
        for lang in ("en", "fr"):
            full = source[lang][doc]
            assert docs[lang][doc] == [
                s for s in full if s in set(docs[lang][doc])
            ]  # a subsequence, in order
            positions[lang] = {full.index(s) for s in docs[lang][doc]}
        kept_en, kept_fr = kept_en + len(positions["en"]), kept_fr + len(positions["fr"])
        kept_both += len(positions["en"] & positions["fr"])
        total += 10
    assert 0.58 < kept_en / total < 0.72 and 0.58 < kept_fr / total < 0.72
    assert 0.35 < kept_both / total < 0.50  # ~0.65^2: the sides are drawn independently, not the same subset
    for lang in ("en", "fr"):  # documents read in one language keep every sentence
        for doc, sentences in docs[lang].items():
            if doc not in shared:
                assert sentences == source[lang][doc]


def _truth(files: list[Path], corpus) -> TranslationTruth:
    texts, language = [], []
    langs = list(corpus.documents)
    for li, lang in enumerate(langs):
        for s in corpus.sentences(lang):
            texts.append(s)
            language.append(li)
    return TranslationTruth.from_files(files, texts, np.asarray(language), langs)


def test_ceiling_equals_a_brute_force_count(en_fr) -> None:
    path, rows = en_fr
    corpus = build_comparable_corpus([path], ["en", "fr"], shared=0.5, keep=0.65, seed=1)
    ceiling = _truth([path], corpus).ceiling()["en-fr"]
    en, fr = set(corpus.sentences("en")), set(corpus.sentences("fr"))
    assert ceiling["en_with_translation"] == sum(1 for e in en if any(r[0] == e and r[1] in fr for r in rows))
    assert ceiling["fr_with_translation"] == sum(1 for f in fr if any(r[1] == f and r[0] in en for r in rows))
    assert ceiling["sentences_en"] == len(corpus.sentences("en"))
    assert 0.3 * len(en) < ceiling["en_with_translation"] < 0.5 * len(en)  # ~ shared x keep (x 1/2 sides)
    disjoint = _truth([path], build_monolingual_corpus([path], ["en", "fr"])).ceiling()["en-fr"]
    assert disjoint["en_with_translation"] == 0  # the Book-Wiki ablation: nothing to mine


def test_truth_through_a_pivot_sentence(document_files: Path) -> None:
    files = [document_files / "en-de" / "train.tsv", document_files / "en-fr" / "train.tsv"]
    corpus = build_comparable_corpus(files, ["en", "fr", "de"], shared=1.0, keep=0.8)
    truth = _truth(files, corpus)
    lines = {
        pair: [line.split("\t") for line in (document_files / pair / "train.tsv").read_text().splitlines()]
        for pair in ("en-fr", "en-de")
    }
    fr_of = {}
    for e, f, _ in lines["en-fr"]:
        fr_of.setdefault(f, set()).add(e)
    de_of = {}
    for e, d, _ in lines["en-de"]:
        de_of.setdefault(d, set()).add(e)
    langs = list(corpus.documents)
    fr_ids = np.flatnonzero(truth.language == langs.index("fr"))
    de_ids = np.flatnonzero(truth.language == langs.index("de"))
    texts = [s for lang in langs for s in corpus.sentences(lang)]
    brute = sum(1 for i in fr_ids if any(fr_of[texts[i]] & de_of[texts[j]] for j in de_ids))
    key = "fr-de" if langs.index("fr") < langs.index("de") else "de-fr"
    assert truth.ceiling()[key]["fr_with_translation"] == brute
    a, b = fr_ids[:30], de_ids[:30]
    expected = [bool(fr_of[texts[i]] & de_of[texts[j]]) for i, j in zip(a, b, strict=True)]
    assert truth.flags(a, b).tolist() == expected


def test_the_cap_keeps_both_sides_of_a_shared_document_together(en_fr) -> None:
    path, _ = en_fr
    corpus = build_comparable_corpus(
        [path], ["en", "fr"], shared=0.5, keep=0.65, max_sentences_per_language=600
    )
    for docs in corpus.documents.values():
        assert 600 <= sum(len(d.sentences) for d in docs) < 620
    ids = {lang: {d.doc_id for d in docs} for lang, docs in corpus.documents.items()}
    both = ids["en"] & ids["fr"]
    # one order of ids for both languages: the sides of a shared document survive the cap together
    full = build_comparable_corpus([path], ["en", "fr"], shared=0.5, keep=0.65)
    shared_full = {d.doc_id for d in full.documents["en"]} & {d.doc_id for d in full.documents["fr"]}
    kept_shared = {doc for doc in shared_full if doc in ids["en"] | ids["fr"]}
    assert len(both) >= 0.6 * len(kept_shared) > 10
