"""The opt-in sources of registers beyond software help (handbook, emacs-tutorial, klavaro, korean-law, cldr,
tuxpaint): tiny unpacked packages, wheels and npm tarballs built in the test, cleaned sentences and multi-way
rows out, untranslated English left out, a missing package manager a clear skip."""

from __future__ import annotations

import io
import json
import tarfile
import zipfile
from pathlib import Path

import pytest

import lingualite.data.sources as sources
from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources import (
    cldr,
    common,
    documents,
    emacs_tutorial,
    handbook,
    klavaro,
    korean_law,
    tuxpaint,
)
from lingualite.data.sources import monolingual as mono

NEW = ("handbook", "emacs-tutorial", "klavaro", "korean-law", "cldr", "tuxpaint")


def _write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_every_source_has_a_register_licence_and_description_and_the_new_ones_are_opt_in() -> None:
    assert (
        set(sources.REGISTERS) == set(sources.SOURCES) == set(sources.LICENCES) == set(sources.DESCRIPTIONS)
    )
    assert sources.REGISTERS["korean-law"] == "legal" and sources.REGISTERS["cldr"] == "everyday phrases"
    assert sources.REGISTERS["klavaro"] == "narrative" and sources.REGISTERS["tuxpaint"] == "encyclopedic"
    for name in NEW:
        assert name not in sources.DEFAULT_SOURCES
        module = sources.SOURCES[name]
        assert name == module.NAME and sources.REGISTERS[name] == module.REGISTER
        assert callable(module.fetch) and callable(module.extract) and callable(module.outputs)


def test_kept_sentences_drop_fragments_repeats_scripture_and_untranslated_english() -> None:
    paragraphs = [
        "Le système démarre vite. Le système démarre vite.",
        "Installez le paquet avec apt.",
        "Details on configuring the keyboard are in section 8.",  # untranslated: "the"
        "Jesus marchait sur l'eau.",
        "--help",
        "Un paragraphe laissé en anglais.",
    ]
    exclude = frozenset({"Un paragraphe laissé en anglais."})
    assert list(documents.kept_sentences(paragraphs, "fr", exclude)) == [
        "Le système démarre vite.",
        "Installez le paquet avec apt.",
    ]
    assert list(documents.kept_sentences(["This is the way it works."], "en")) == [
        "This is the way it works."
    ]
    assert documents.text_paragraphs("One line\nwrapped here.\n\n\nSecond.\n") == [
        "One line wrapped here.",
        "Second.",
    ]


def test_write_lines_refuses_an_empty_file_and_multiway_keeps_complete_rows(tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match="no text found for ko"):
        documents.write_lines(tmp_path / "x" / "ko.txt", [], "the package")
    assert not (tmp_path / "x" / "ko.txt").exists()
    rows = [("a", {"en": "cat", "fr": "chat"}), ("b", {"en": "dog"}), ("c", {"en": "a\tb", "fr": "c"})]
    assert documents.write_multiway(tmp_path / "m.tsv", rows, ["en", "fr"]) == 2
    assert _lines(tmp_path / "m.tsv") == ["id\ten\tfr", "a\tcat\tchat", "c\ta b\tc"]


HANDBOOK_EN = (
    '<div class="para">Debian is a <code class="command">free</code> operating system .</div>'
    '<div class="para">APT installs packages for you.</div>'
)
HANDBOOK_TR = (
    '<div class="para">Debian özgür bir işletim sistemidir.</div>'
    '<div class="para">APT installs packages for you.</div>'  # identical to English: untranslated
    '<div class="para">See the chapter on configuring the keyboard.</div>'  # newer English: "the"
)


def test_handbook_reads_para_divs_and_drops_untranslated_paragraphs(tmp_path: Path) -> None:
    root = tmp_path / "root"
    html = root / "usr/share/doc/debian-handbook/html"
    _write(html / "en-US" / "intro.html", HANDBOOK_EN)
    _write(html / "tr-TR" / "intro.html", HANDBOOK_TR)
    out = tmp_path / "corpora"
    assert handbook.extract(root, out, ["tr"]) == {"en": 2, "tr": 1}
    assert _lines(out / "handbook" / "en.txt") == [
        "Debian is a free operating system.",
        "APT installs packages for you.",
    ]
    assert _lines(out / "handbook" / "tr.txt") == ["Debian özgür bir işletim sistemidir."]
    with pytest.raises(LinguaLiteError, match="no text found for ko"):
        handbook.extract(root, out, ["ko"])  # no ko-KR pages in this root
    with pytest.raises(LinguaLiteError, match="fetch it first"):
        handbook.extract(tmp_path / "empty", out, ["tr"])


JA_TUTORIAL = (
    "Emacs 入門ガイド。\n\n"
    "Emacs のコマンドを入力するには、一般にコントロールキーを\n使います。\n\n"
    ">> C-v\n\n"
    ";;; Local Variables:\n;;; coding: iso-2022-jp\n;;; End:\n"
)


def test_emacs_tutorial_decodes_each_file_in_its_own_coding_and_lacks_turkish(tmp_path: Path) -> None:
    folder = tmp_path / "root" / "usr/share/emacs/28.2/etc/tutorials"
    _write(folder / "TUTORIAL", "Emacs tutorial.\n\nYou can type C-v now.\nIt moves the screen.\n")
    _write(folder / "TUTORIAL.ja", JA_TUTORIAL.encode("iso-2022-jp"))
    assert emacs_tutorial.read_tutorial(folder / "TUTORIAL.ja").startswith("Emacs 入門ガイド")
    out = tmp_path / "corpora"
    assert emacs_tutorial.extract(tmp_path / "root", out, ["ja"]) == {"en": 2, "ja": 1}
    assert _lines(out / "emacs-tutorial" / "ja.txt") == [
        "Emacs のコマンドを入力するには、一般にコントロールキーを使います。"
    ]  # wrapped Japanese joined without a space; the title and the >> prompt are no sentences
    assert emacs_tutorial.lacking(["tr", "ko"]) == {"tr": "the Emacs tutorial is not translated into it"}
    with pytest.raises(LinguaLiteError, match="no ko tutorial"):
        emacs_tutorial.extract(tmp_path / "root", out, ["ko"])
    with pytest.raises(LinguaLiteError, match="fetch it first"):
        emacs_tutorial.extract(tmp_path / "empty", out, ["ja"])


def test_klavaro_reads_paragraph_files_by_locale(tmp_path: Path) -> None:
    data = tmp_path / "root" / "usr/share/klavaro"
    _write(data / "C.paragraphs", "The written word remains important.\n\nShort.\n")
    _write(data / "ko.paragraphs", "아내의 웃는 바람에 그도 웃었다. 딴은 그렇다.\n")
    _write(data / "pt_BR.paragraphs", "O gato subiu no telhado.\n")
    out = tmp_path / "corpora"
    assert klavaro.extract(tmp_path / "root", out, ["ko", "pt"]) == {"en": 1, "ko": 1, "pt": 1}
    assert _lines(out / "klavaro" / "ko.txt") == ["아내의 웃는 바람에 그도 웃었다."]  # two words: no sentence
    assert set(klavaro.lacking(["tr", "zh", "ja", "fr"])) == {"tr", "zh", "ja"}
    with pytest.raises(LinguaLiteError, match="fetch it first"):
        klavaro.extract(tmp_path / "empty", out, ["ko"])


def _konlpy_wheel(folder: Path) -> Path:
    wheel = folder / "konlpy-0.6.0-py2.py3-none-any.whl"
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("konlpy/__init__.py", "")
        zf.writestr(
            "konlpy/data/corpus/kolaw/constitution.txt",
            "대한민국헌법\n\n제1조 ① 대한민국은 민주공화국이다.\n제3조 대한민국의 영토는 한반도와 그 부속도서로 한다.\n",
        )
        zf.writestr(
            "konlpy/data/corpus/kobill/1.txt",
            "제안이유\n\n  이 법은 공포한 날부터 시행한다.\n\n  초등학교 저학년의 경우에도 부모의 사랑이 필요\n한 나이이다.\n",
        )
        zf.writestr("konlpy/java/data/kE/dic_system.txt", "사전 항목이다.\n")
    return wheel


def test_korean_law_reads_statute_lines_and_unwrapped_bill_paragraphs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wheel = _konlpy_wheel(tmp_path / "cache" / "korean-law")
    out = tmp_path / "corpora"
    assert korean_law.extract(wheel, out, ["ko"]) == {"ko": 3}
    assert _lines(out / "korean-law" / "ko.txt") == [
        "이 법은 공포한 날부터 시행한다.",  # the bill's wrapped paragraph is not read
        "제1조 ① 대한민국은 민주공화국이다.",
        "제3조 대한민국의 영토는 한반도와 그 부속도서로 한다.",
    ]
    assert korean_law.outputs(out, ["fr"]) == {}
    assert set(korean_law.lacking(["fr", "ko", "ja"])) == {"fr", "ja"}
    monkeypatch.setattr(common, "run_tool", lambda *a, **k: pytest.fail("pip must not run"))
    fresh = tmp_path / "fresh"
    counts = sources.fetch_corpora(
        fresh,
        langs=("ko", "fr"),
        sources=("korean-law",),
        cache_dir=tmp_path / "cache",
        progress=lambda m: None,
    )
    assert counts == {"korean-law": {"ko": 3}}
    meta = json.loads((fresh / "korean-law" / "SOURCE.json").read_text())
    assert meta["missing"] == {"fr": "it is a Korean corpus"} and "Copyright Act" in meta["licence"]


def _tgz(path: Path, files: dict[str, object]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w:gz") as tf:
        for name, obj in files.items():
            data = json.dumps(obj).encode()
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return path


def _annotations(key: str, table: dict[str, dict[str, list[str]]]) -> dict[str, object]:
    return {key: {"identity": {}, "annotations": table}}


CLDR = {
    "en": {
        "😂": {"default": ["face", "joy", "laugh"], "tts": ["face with tears of joy"]},
        "🐱": {"default": ["cat", "pet"], "tts": ["cat face"]},
        "{": {"default": ["brace"], "tts": ["left curly brace"]},
    },
    "tr": {
        "😂": {"default": ["yüz", "sevinç", "face"], "tts": ["sevinç gözyaşları döken yüz"]},
        "🐱": {"default": ["kedi", "😺"], "tts": ["kedi yüzü"]},
    },
}
CLDR_DERIVED = {
    "en": {
        "🇯🇵": {"default": ["flag"], "tts": ["flag: Japan"]},
        "👍🏽": {"tts": ["thumbs up: medium skin tone"]},
    },
    "tr": {
        "🇯🇵": {"default": ["bayrak"], "tts": ["bayrak: Japonya"]},
        "👍🏽": {"tts": ["beğen: orta cilt tonu"]},
    },
}


def _cldr_cache(folder: Path) -> Path:
    for (package, (subdir, key)), tables in zip(cldr.PACKAGES.items(), (CLDR, CLDR_DERIVED), strict=True):
        name, _, version = package.rpartition("@")
        files = {f"{subdir}/{lang}/annotations.json": _annotations(key, t) for lang, t in tables.items()}
        _tgz(folder / f"{name}-{version}.tgz", files)
    return folder


def test_cldr_writes_phrases_and_a_multiway_table(tmp_path: Path) -> None:
    folder = _cldr_cache(tmp_path / "cache" / "cldr")
    out = tmp_path / "corpora"
    counts = cldr.extract(folder, out, ["tr"])
    tr = _lines(out / "cldr" / "tr.txt")
    # names first, then keywords; the emoji itself and the untranslated "face" left out; no skin tones
    assert tr == [
        "sevinç gözyaşları döken yüz",
        "kedi yüzü",
        "bayrak: Japonya",
        "yüz",
        "sevinç",
        "kedi",
        "bayrak",
    ]
    assert counts == {"en": 11, "tr": 7}
    assert "thumbs up: medium skin tone" not in _lines(out / "cldr" / "en.txt")
    assert _lines(out / "cldr" / documents.MULTIWAY) == [
        "id\ten\ttr",
        "😂\tface with tears of joy\tsevinç gözyaşları döken yüz",
        "🐱\tcat face\tkedi yüzü",
        "🇯🇵\tflag: Japan\tbayrak: Japonya",
    ]  # the brace has no Turkish name: no row
    with pytest.raises(LinguaLiteError, match="no package/annotations/ko/annotations.json"):
        cldr.extract(folder, out, ["ko"])


def test_cldr_fetch_skips_with_a_clear_message_without_npm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(common.shutil, "which", lambda name: None)
    msgs: list[str] = []
    got = sources.fetch_corpora(
        tmp_path / "corpora",
        langs=("tr",),
        sources=("cldr",),
        cache_dir=tmp_path / "cache",
        progress=msgs.append,
    )
    assert got == {}
    assert any("cldr: SKIPPED" in m and "npm not found on PATH" in m for m in msgs)


def test_download_npm_uses_the_cached_tarball_and_checks_the_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cached = _write(tmp_path / "cldr-annotations-full-48.2.0.tgz", b"x")
    monkeypatch.setattr(common, "run_tool", lambda *a, **k: pytest.fail("npm must not run"))
    assert common.download_npm("cldr-annotations-full@48.2.0", tmp_path) == cached
    with pytest.raises(LinguaLiteError, match="expected name@version"):
        common.download_npm("cldr-annotations-full", tmp_path)
    calls: list[list[str]] = []
    monkeypatch.setattr(common, "require_tool", lambda name, why: "/usr/bin/npm")
    monkeypatch.setattr(common, "run_tool", lambda cmd, what, cwd=None: calls.append(cmd) or "")
    with pytest.raises(common.SourceUnavailableError, match="produced no other-1.0.0.tgz"):
        common.download_npm("other@1.0.0", tmp_path)
    assert calls == [["/usr/bin/npm", "pack", "--silent", "other@1.0.0"]]


STAMP = """A frog.
fr.utf8=Une grenouille.
ja.utf8=カエル
ko.utf8=A frog.
zh_CN.utf8=青蛙。
pt.utf8=Uma rã.
pt_BR.utf8=Um sapo.
"""


def test_tuxpaint_reads_stamp_descriptions_by_locale_and_aligns_them(tmp_path: Path) -> None:
    stamps = tmp_path / "root" / "usr/share/tuxpaint/stamps"
    _write(stamps / "animals" / "frog.txt", STAMP)
    _write(stamps / "sports" / "ball.txt", "A ball.\nfr.utf8=Un ballon.\n")
    _write(stamps / "empty.txt", "")
    out = tmp_path / "corpora"
    counts = tuxpaint.extract(tmp_path / "root", out, ["fr", "pt", "zh", "ja"])
    assert counts == {"en": 2, "fr": 2, "pt": 1, "zh": 1, "ja": 1}
    assert _lines(out / "tuxpaint" / "pt.txt") == ["Um sapo."]  # Brazilian, not European
    assert _lines(out / "tuxpaint" / documents.MULTIWAY) == [
        "id\ten\tfr\tpt\tzh\tja",
        "animals/frog\tA frog.\tUne grenouille.\tUm sapo.\t青蛙。\tカエル",
    ]  # the ball has no Portuguese, Chinese or Japanese description: no row
    with pytest.raises(LinguaLiteError, match="no text found for ko"):
        tuxpaint.extract(tmp_path / "root", out, ["ko"])  # its one "translation" is the English
    with pytest.raises(LinguaLiteError, match="fetch it first"):
        tuxpaint.extract(tmp_path / "empty", out, ["fr"])


def test_portuguese_fortunes_are_read_from_the_brasil_file_and_not_as_english(tmp_path: Path) -> None:
    root = tmp_path / "root"
    fortunes = root / "usr/share/games/fortunes"
    _write(fortunes / "brasil", "Porque a galinha atravessa a rua?\n%\nQuem espera sempre alcança.\n%\n")
    _write(fortunes / "wisdom", "A cloud does not know why it moves.\n%\n")
    _write(root / "usr/share/debian-reference/ch01.en.html", "<p>Debian is a free operating system.</p>")
    assert "fortunes-br" in mono.packages(["pt"])
    out = tmp_path / "corpora"
    mono.extract(root, out, ("pt",))
    assert _lines(out / "monolingual" / "pt.txt") == [
        "Porque a galinha atravessa a rua?",
        "Quem espera sempre alcança.",
    ]
    assert "Quem espera sempre alcança." not in _lines(out / "monolingual" / "en.txt")


def test_gnome_help_reads_mallard_paragraphs_by_locale_and_lacks_turkish(tmp_path: Path) -> None:
    from lingualite.data.sources import gnome_help

    root = tmp_path / "root"
    page = "<page><title>T</title><p>Open the <gui>Settings</gui> panel now.</p><p>Click it twice.</p></page>"
    _write(root / "usr/share/help/C/gnome-help/a.page", page)
    ko = "<page><p>지금 <gui>설정</gui> 창을 엽니다.</p><p>Click it twice.</p></page>"
    _write(root / "usr/share/help/ko/gnome-help/a.page", ko)
    out = tmp_path / "corpora"
    assert gnome_help.extract(root, out, ["ko"]) == {"en": 2, "ko": 1}
    assert _lines(out / "gnome-help" / "ko.txt") == ["지금 설정 창을 엽니다."]
    assert gnome_help.lacking(["tr", "ko"]) == {"tr": "its GNOME help pages are left in English"}
    with pytest.raises(LinguaLiteError, match="fetch it first"):
        gnome_help.extract(tmp_path / "empty", out, ["ko"])


def test_install_guide_reads_html_paragraphs_and_lacks_polish_and_turkish(tmp_path: Path) -> None:
    from lingualite.data.sources import install_guide

    doc = tmp_path / "root" / "usr/share/doc/installation-guide-amd64"
    _write(doc / "en" / "ch01.html", "<p>This manual explains how to install Debian.</p>")
    _write(doc / "zh_CN" / "ch01.html", "<p>本手册介绍如何安装 Debian 系统。</p>")
    out = tmp_path / "corpora"
    assert install_guide.extract(tmp_path / "root", out, ["zh"]) == {"en": 1, "zh": 1}
    assert set(install_guide.lacking(["pl", "tr", "ko"])) == {"pl", "tr"}
    with pytest.raises(LinguaLiteError, match="fetch it first"):
        install_guide.extract(tmp_path / "empty", out, ["zh"])


DICTD = """00-database-info
abet /ɐbˈɛt/
1. söz ve davranışlarla  cesaret vermek veya yardım etmek.(gen.) fina anlamda)
2. kışkırtmak
wife /wˈaɪf/
1. karı, zevce, refika. take to wife evlenmek
synonymous /sɪnˈɒnɪməs/
1. anlamdaş. synonymously anlamdaş olarak, aynı anlama gelen şey
"""


def test_freedict_keeps_turkish_definition_phrases_without_english_sub_entries(tmp_path: Path) -> None:
    import gzip

    from lingualite.data.sources import freedict

    assert (
        list(freedict.definitions(DICTD))
        == [
            "söz ve davranışlarla cesaret vermek veya yardım etmek",
            "aynı anlama gelen şey",
        ]
    )  # "take to wife evlenmek": a headword; "synonymously anlamdaş olarak": an English suffix; one-word senses
    root = tmp_path / "root"
    _write(root / "usr/share/dictd/freedict-eng-tur.dict.dz", gzip.compress(DICTD.encode()))
    out = tmp_path / "corpora"
    assert freedict.extract(root, out, ["tr", "fr"]) == {"tr": 2}
    assert set(freedict.lacking(["tr", "fr", "en"])) == {"fr", "en"}
    _write(root / "usr/share/dictd/freedict-eng-tur.dict.dz", b"not gzip")
    with pytest.raises(LinguaLiteError, match="not a gzipped dictd database"):
        freedict.extract(root, out, ["tr"])
    with pytest.raises(LinguaLiteError, match="fetch dict-freedict-eng-tur first"):
        freedict.extract(tmp_path / "empty", out, ["tr"])


def test_gimp_help_reads_each_language_folder_and_fetches_english_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lingualite.data.sources import gimp_help

    help_dir = tmp_path / "root" / "usr/share/gimp/2.0/help"
    _write(help_dir / "en" / "filters" / "blur.html", "<p>The blur filter softens the image.</p>")
    _write(help_dir / "ja" / "filters" / "blur.html", "<p>ぼかしフィルターは画像を柔らかくします。</p>")
    out = tmp_path / "corpora"
    assert gimp_help.extract(tmp_path / "root", out, ["ja"]) == {"en": 1, "ja": 1}
    assert set(gimp_help.lacking(["pl", "tr", "ja"])) == {"pl", "tr"}
    asked: list[list[str]] = []
    monkeypatch.setattr(gimp_help, "download_and_unpack", lambda pkgs, cache: asked.append(pkgs) or cache)
    gimp_help.fetch(tmp_path / "cache", ["ja", "pt"])
    assert asked == [["gimp-help-en", "gimp-help-ja", "gimp-help-pt-br"]]
    with pytest.raises(LinguaLiteError, match="fetch it first"):
        gimp_help.extract(tmp_path / "empty", out, ["ja"])


def test_no_text_is_an_error_that_keeps_an_earlier_output(tmp_path: Path) -> None:
    from lingualite.data.sources.documents import write_lines

    path = tmp_path / "ko.txt"
    assert write_lines(path, ["첫 문장입니다."], "pkg") == 1
    with pytest.raises(LinguaLiteError, match="no text found for ko"):
        write_lines(path, [], "pkg")
    assert path.read_text(encoding="utf-8") == "첫 문장입니다.\n"


def test_cldr_reads_traditional_chinese_from_its_own_locale_folder(tmp_path: Path) -> None:
    """`zht` is lingualite's code; CLDR's folder is zh-Hant (and Norwegian Bokmål's `no`)."""
    for (package, (subdir, key)), tables in zip(cldr.PACKAGES.items(), (CLDR, CLDR_DERIVED), strict=True):
        name, _, version = package.rpartition("@")
        tables = {**tables, "zh-Hant": tables["tr"], "no": tables["tr"]}
        files = {f"{subdir}/{lang}/annotations.json": _annotations(key, t) for lang, t in tables.items()}
        _tgz(tmp_path / f"{name}-{version}.tgz", files)
    assert cldr.annotations(tmp_path, "zht") == cldr.annotations(tmp_path, "nb") != {}


def test_the_handbook_says_which_languages_it_lacks() -> None:
    from lingualite.data.sources import handbook

    assert handbook.lacking(["fr", "sv", "th"]) == {
        lang: f"{handbook.PACKAGE} has no translation into it"
        for lang in ("sv", "th")
        if lang not in handbook.LOCALES
    }
    assert "fr" not in handbook.lacking(["fr"])
