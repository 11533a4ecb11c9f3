"""DDTP extractor on tiny plain-text Translation files in an apt lists folder."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources import ddtp

PREFIX = "deb.debian.org_debian_dists_bookworm_main_i18n_Translation-"

EN = """Package: foo
Description-md5: aaa
Description-en: frobnicate the shiny widgets
 Foo frobnicates widgets. It is very fast.
 .
 Features:
  * speed of light
  * many bright colours
 .
 This package has the tools.

Package: foo-doc
Description-md5: bbb
Description-en: documentation for the foo tool
 One paragraph only here.
 .
 Second paragraph in English.

Package: foo-same
Description-md5: ddd
Description-en: a library for foo
"""

FR = """Package: foo
Description-md5: aaa
Description-fr: frobnique les gadgets brillants
 Foo frobnique les gadgets. Il est très
 rapide.
 .
 Fonctionnalités :
  * vitesse de la lumière
  * beaucoup de couleurs vives
 .
 Ce paquet contient les outils.

Package: foo-doc
Description-md5: bbb
Description-fr: documentation pour l'outil foo
 Un seul paragraphe ici, fusionné avec le second.

Package: foo-again
Description-md5: aaa
Description-fr: frobnique les gadgets brillants
 Foo frobnique les gadgets. Il est très
 rapide.

Package: orphan
Description-md5: ccc
Description-fr: pas de texte anglais ici

Package: foo-same
Description-md5: ddd
Description-fr: a library for foo
"""

DE = """Package: foo-doc
Description-md5: bbb
Description-de: Dokumentation für das Werkzeug foo
 Nur ein Absatz hier.
 .
 Zweiter Absatz auf Deutsch.
"""


@pytest.fixture()
def lists(tmp_path: Path) -> Path:
    d = tmp_path / "cache" / "lists"
    d.mkdir(parents=True)
    (d / f"{PREFIX}en").write_text(EN, encoding="utf-8")
    (d / f"{PREFIX}fr").write_text(FR, encoding="utf-8")
    (d / f"{PREFIX}de.gz").write_bytes(gzip.compress(DE.encode("utf-8")))
    (d / f"{PREFIX}fr.diff").mkdir()  # not a file: ignored
    (d / "deb.debian.org_debian_dists_bookworm_InRelease").write_text("x")
    return d


def test_extract_pairs_descriptions(lists: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    counts = ddtp.extract(lists.parent, out, ["fr", "de", "it"])
    assert counts == {"fr": 7, "de": 3, "it": 0}
    fr = [
        ("frobnicate the shiny widgets", "frobnique les gadgets brillants", "aaa"),
        ("Foo frobnicates widgets.", "Foo frobnique les gadgets.", "aaa"),
        ("It is very fast.", "Il est très rapide.", "aaa"),
        ("speed of light", "vitesse de la lumière", "aaa"),
        ("many bright colours", "beaucoup de couleurs vives", "aaa"),
        ("This package has the tools.", "Ce paquet contient les outils.", "aaa"),
        # bbb: the paragraph counts differ (2 vs 1), so only the short line is paired
        ("documentation for the foo tool", "documentation pour l'outil foo", "bbb"),
    ]
    assert (out / "ddtp" / "en-fr.tsv").read_text(encoding="utf-8") == "".join(
        f"{en}\t{xx}\tddtp:{md5}\n" for en, xx, md5 in fr
    )
    de = [
        ("documentation for the foo tool", "Dokumentation für das Werkzeug foo"),
        ("One paragraph only here.", "Nur ein Absatz hier."),
        ("Second paragraph in English.", "Zweiter Absatz auf Deutsch."),
    ]
    assert (out / "ddtp" / "en-de.tsv").read_text(encoding="utf-8") == "".join(
        f"{en}\t{xx}\tddtp:bbb\n" for en, xx in de
    )


def test_split_description() -> None:
    desc = "short line\n First para\n continues.\n .\n Intro:\n  * one\n  - two\n   wrapped\n .\n Last."
    assert ddtp.split_description(desc) == (
        "short line",
        [["First para continues."], ["Intro:", "one", "two wrapped"], ["Last."]],
    )


def test_parse_records() -> None:
    text = "A: 1\nB: x\n y\n\n\nA: 2\n"
    assert list(ddtp.parse_records(text)) == [{"A": "1", "B": "x\n y"}, {"A": "2"}]


def test_translation_files(lists: Path) -> None:
    assert [p.name for p in ddtp.translation_files(lists, "fr")] == [f"{PREFIX}fr"]
    assert [p.name for p in ddtp.translation_files(lists, "de")] == [f"{PREFIX}de.gz"]
    assert ddtp.translation_files(lists, "es") == []


def test_fetch_skips_when_done(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".fetched").write_text("de en es fr it\n")
    monkeypatch.setattr(ddtp, "apt_update", lambda *a, **k: pytest.fail("apt must not run"))
    assert ddtp.fetch(tmp_path, ["fr", "it"]) == tmp_path / "lists"


def test_fetch_updates_for_new_languages(lists: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = lists.parent
    (cache / ".fetched").write_text("en fr\n")
    calls: list[tuple[Path, list[str], bool]] = []
    monkeypatch.setattr(
        ddtp, "apt_update", lambda d, languages, packages: calls.append((d, languages, packages))
    )
    assert ddtp.fetch(cache, ["de"]) == lists
    assert calls == [(cache, ["de", "en", "fr"], False)]  # fr kept: apt drops the files of unlisted languages
    assert (cache / ".fetched").read_text().split() == ["de", "en", "fr"]


def test_extract_without_english_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match="no Translation-en"):
        ddtp.extract(tmp_path, tmp_path / "out", ["fr"])


def test_apt_update_refuses_anything_but_language_codes(tmp_path) -> None:
    import pytest as _pytest

    from lingualite.core.errors import LinguaLiteError
    from lingualite.data.sources.apt import apt_update

    with _pytest.raises(LinguaLiteError, match="not language codes"):
        apt_update(tmp_path, ["fr", 'x"; }; APT::Evil "1'])
    assert not (tmp_path / "apt.conf").exists()


JA = """Package: foo
Description-md5: aaa
Description-ja: 光沢のあるウィジェットを磨き上げるツール
 Foo はウィジェットを磨き上げ
 ます。非常に高速に動作します。
 .
 機能:
  * 光と同じくらいの速さ
  * たくさんの明るい色を使えます
 .
 本パッケージにはツール (foo 1.0 と
 foo-gtk) が含まれます。
"""
PT_BR = """Package: foo-doc
Description-md5: bbb
Description-pt_BR: documentação para a ferramenta foo
 Apenas um parágrafo aqui.
 .
 Segundo parágrafo em português.
"""


def test_japanese_lines_join_without_spaces_and_brazilian_files_are_found(
    lists: Path, tmp_path: Path
) -> None:
    (lists / f"{PREFIX}ja").write_text(JA, encoding="utf-8")
    (lists / f"{PREFIX}pt%5fBR.gz").write_bytes(gzip.compress(PT_BR.encode("utf-8")))  # apt's name for pt_BR
    assert [p.name for p in ddtp.translation_files(lists, "pt")] == [f"{PREFIX}pt%5fBR.gz"]
    assert ddtp.translation_files(lists, "ja") == [lists / f"{PREFIX}ja"]
    out = tmp_path / "out"
    assert ddtp.extract(lists.parent, out, ["ja", "pt"]) == {"ja": 6, "pt": 3}
    ja = [
        line.split("\t")[1] for line in (out / "ddtp" / "en-ja.tsv").read_text(encoding="utf-8").splitlines()
    ]
    assert ja == [
        "光沢のあるウィジェットを磨き上げるツール",
        "Foo はウィジェットを磨き上げます。",  # the wrapped line joined without a space, then split at 。
        "非常に高速に動作します。",
        "光と同じくらいの速さ",
        "たくさんの明るい色を使えます",
        "本パッケージにはツール (foo 1.0 と foo-gtk) が含まれます。",  # a space stays next to Latin text
    ]  # "機能:" (3 characters, about a word) is too short
    pt = (out / "ddtp" / "en-pt.tsv").read_text(encoding="utf-8").splitlines()
    assert pt[0] == "documentation for the foo tool\tdocumentação para a ferramenta foo\tddtp:bbb"


def test_lacking_names_languages_without_a_translation_file(lists: Path) -> None:
    assert ddtp.lacking(["fr", "tr"]) == {}  # nothing is known before the fetch
    # without a download: what Debian 12 published (quickstart's check before it fetches)
    assert ddtp.lacking_offline(["fr", "th", "zh"]) == {"th": "Debian 12 publishes no Translation-th file"}
    assert ddtp.lacking(["fr", "tr", "zh"], lists.parent) == {
        "tr": "Debian publishes no Translation-tr file",
        "zh": "Debian publishes no Translation-zh_CN file",
    }
    assert ddtp.ddtp_code("pt") == "pt_BR" and ddtp.ddtp_code("ko") == "ko"
