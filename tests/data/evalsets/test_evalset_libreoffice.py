"""LibreOffice help evaluation sets (module classification, index retrieval) on a tiny synthetic help tree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from evalset_fixtures import MODULES, page_token, read_tsv

from lingualite.core.errors import LinguaLiteError
from lingualite.data.evalsets import libreoffice_index, libreoffice_modules
from lingualite.data.evalsets.common import in_test
from lingualite.text.segmentation import length_units


def _tokens(rows: list[list[str]]) -> dict[str, str]:
    """page token -> label, for the rows of a classification file (each row holds one page's token)."""
    out = {}
    for label, text in rows:
        toks = set(re.findall(r"tok[a-z]+\d+", text))
        assert len(toks) == 1, text
        out[toks.pop()] = label
    return out


def test_modules_labels_split_and_untranslated(help_root: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    info = libreoffice_modules.extract(help_root, out, ["fr"])
    train = _tokens(read_tsv(out / "train.en.tsv", 2))
    test_en = _tokens(read_tsv(out / "test.en.tsv", 2))
    fr_rows = read_tsv(out / "test.fr.tsv", 2)
    test_fr = _tokens(fr_rows)

    # labels = module folder; shared pages and too-short pages never appear
    expected = {
        page_token(module, n): module
        for module, _, count in MODULES
        if module != "shared"
        for n in range(count)
    }
    assert {**train, **test_en} == expected
    assert not set(train) & set(test_en)  # no page on both sides
    for module, sub, count in MODULES:
        for n in range(count):
            tok = page_token(module, n)
            if tok in expected:
                assert (tok in test_en) == in_test("libreoffice-modules", f"{module}/{sub}/p{n}.html")
    assert train and test_en  # both sides used with these 16 pages
    assert test_fr == test_en  # the same held-out pages, same labels
    train_fr = _tokens(read_tsv(out / "train.fr.tsv", 2))
    assert train_fr == train  # the translated training pages (the xx2en direction), same labels
    assert all("LibreOffice Basic" not in text for _, text in fr_rows)  # untranslated paragraph dropped
    assert all("La page" in text for _, text in fr_rows)
    assert info["files"]["test.fr.tsv"]["lines"] == len(fr_rows)
    assert sum(info["files"]["train.en.tsv"]["labels"].values()) == len(train)
    assert set(info["files"]["test.en.tsv"]["labels"]) <= set(libreoffice_modules.LABELS)


def test_modules_cap_words(help_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(libreoffice_modules, "MAX_WORDS", 7)
    libreoffice_modules.extract(help_root, tmp_path, ["fr"])
    for name in ("train.en.tsv", "train.fr.tsv", "test.en.tsv", "test.fr.tsv"):
        assert all(len(text.split()) <= 7 for _, text in read_tsv(tmp_path / name, 2))


def test_modules_missing_language(help_root: Path, tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match="no help pages for de"):
        libreoffice_modules.extract(help_root, tmp_path, ["fr", "de"])


def test_parse_bookmarks_is_robust_js() -> None:
    js = r"""var bookmarks = [
{url:"en-US/text/a/b.html?DbPAR=X#bm_1", app:"X", text:"Tables -- \"quoted\" \\ back\u00e9 &#34;x&#34;"},
{text:'single \'quoted\'', url:'fr/text/c/d.html'},
{url:"en-US/text/no_html_page", text:"bad url"},
{url:"en-US/text/e/f.html", text:"   "},
{url:"en-US/text/g/h.html", n:12, text:"after a bare value"}
];"""
    assert libreoffice_index.parse_bookmarks(js) == [
        ("text/a/b.html", 'Tables, "quoted" \\ backé "x"'),
        ("text/c/d.html", "single 'quoted'"),
        ("text/g/h.html", "after a bare value"),
    ]


@pytest.mark.parametrize(
    ("url", "doc"),
    [
        (
            "en-US/text/swriter/guide/calculate.html?DbPAR=WRITER#bm_id3149909",
            "text/swriter/guide/calculate.html",
        ),
        ("fr/text/shared/01/05030800.html", "text/shared/01/05030800.html"),
        ("en-US/text/shared/context/x.html#a", "text/shared/context/x.html"),
        ("en-US/other/x.html", None),
        ("en-US/text/x.png", None),
    ],
)
def test_page_id(url: str, doc: str | None) -> None:
    assert libreoffice_index.page_id(url) == doc


def test_index_corpus_queries_qrels(help_root: Path, tmp_path: Path) -> None:
    info = libreoffice_index.extract(help_root, tmp_path, ["fr"])
    corpus = dict(read_tsv(tmp_path / "en" / "corpus.tsv", 2))
    # every English page, shared and short ones included, keyed by its path
    assert len(corpus) == sum(count for _, _, count in MODULES) + 1
    assert "text/swriter/guide/calculate.html" not in corpus
    text = corpus["text/swriter/guide/p0.html"]
    assert text.startswith("Title tokswriter0 The swriter page")  # title once (it equals the heading)
    assert "secretkeyword" not in text and "Chrome" not in text  # index keywords and page chrome excluded

    en_q = dict(read_tsv(tmp_path / "en" / "queries.tsv", 2))
    en_qrels = read_tsv(tmp_path / "en" / "qrels.tsv", 3)
    assert en_q == {
        "en:1": "formatting, text",  # and "Formatting -- Text": one query, two pages
        "en:2": '"\\" operator',
        "en:3": "shared 'page'",  # "orphan entry" (page not in the corpus) dropped
        "en:4": "Basic é macros",
    }
    assert en_qrels == [
        ["en:1", "text/swriter/guide/p0.html", "1"],
        ["en:1", "text/swriter/guide/p1.html", "1"],
        ["en:2", "text/scalc/01/p0.html", "1"],
        ["en:3", "text/shared/01/p0.html", "1"],
        ["en:4", "text/sbasic/python/p0.html", "1"],
    ]
    fr_q = dict(read_tsv(tmp_path / "fr" / "queries.tsv", 2))
    assert fr_q == {"fr:1": "mise en forme, texte", "fr:2": 'Opérateur "\\"', "fr:3": "l'opérateur"}
    fr_qrels = read_tsv(tmp_path / "fr" / "qrels.tsv", 3)
    assert {doc for _, doc, _ in fr_qrels} <= set(corpus)  # cross-lingual: English doc ids
    assert not (tmp_path / "fr" / "corpus.tsv").exists()
    assert info["index_entries"]["fr"]["untranslated_entries_dropped"] == 1
    assert info["index_entries"]["en"]["queries_without_corpus_page_dropped"] == 1
    assert info["files"]["en/qrels.tsv"] == {"lines": 5}


def test_modules_count_and_cut_chinese_pages_in_characters(
    help_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evalset_fixtures import page_html

    for module, sub, count in MODULES:
        for n in range(count):
            tok = page_token(module, n)
            zh = [
                ("par_id1", f"{module} 页面 {tok} 介绍如何在文档中使用此功能。"),
                ("par_id2", "选择菜单项，然后点击按钮以应用更改。"),
            ]
            path = help_root / "zh-CN" / "text" / module / sub / f"p{n}.html"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(page_html(f"标题 {tok}", zh), encoding="utf-8")
    libreoffice_modules.extract(help_root, tmp_path, ["zh"])
    # ~14 words by the fair measure, though only 5 whitespace tokens: kept (MIN_XX_WORDS is 10)
    assert _tokens(read_tsv(tmp_path / "test.zh.tsv", 2)) == _tokens(read_tsv(tmp_path / "test.en.tsv", 2))
    monkeypatch.setattr(libreoffice_modules, "MAX_WORDS", 6)
    libreoffice_modules.extract(help_root, tmp_path, ["zh"])
    for _, text in read_tsv(tmp_path / "test.zh.tsv", 2):
        assert text.startswith("标题 tok") and length_units(text, "zh") <= 6  # cut by characters
        assert "选择菜单项" not in text  # not kept whole for having few spaces
