"""LibreOffice help extractor on tiny synthetic pages in the packages' folder layout."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources import apt, common, libreoffice
from lingualite.data.sources.common import SourceUnavailableError

PAGE = """<!DOCTYPE html>
<html lang="{lang}" dir="ltr"><head><title>Title</title>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head>
<body>
<header id="TopLeftHeader"><p id="chrome" dir="auto">{chrome}</p></header>
<div id="DisplayArea" itemprop="softwareHelp">
<a name="bm_id1"></a>
<meta itemprop="keywords" content="calculating">
<h1 id="hd_id1" dir="auto">
<a name="calculate"></a>{h1}</h1>
{body}
<p id="bm_module" dir="auto"></p>
</div></body></html>
"""

EN_BODY = """<p id="par_id2" class="paragraph">Click in the document. Then press
<span class="keycode">F2</span> now!</p>
<ol><li><p id="par_id3" class="listitem">Choose <span id="sw1" class="switchinline"><span hidden="true"
 id="MAC1" class="MAC"><span class="emph">LibreOffice - Preferences</span></span><span hidden="true"
 id="default1"><span class="emph">Tools - Options</span></span></span> - Load/Save &amp; more.<br>Done.</p>
</li></ol>
<p id="par_id4">This paragraph stays untranslated.</p>
<p id="par_id5">Too short</p>
<p id="par_id6">One sentence here. Two sentences here.</p>
<p id="par_id7">Repeated id, first one.</p>
<p id="par_id7">Repeated id, second one.</p>
<div class="note"><p id="par_id8">Only in the English page.</p><img src="x.svg" alt="note words here"></div>
"""

FR_BODY = """<p id="par_id2" class="paragraph">Cliquez dans le document. Puis appuyez sur
<span class="keycode">F2</span> !</p>
<ol><li><p id="par_id3" class="listitem">Choisissez <span id="sw1" class="switchinline"><span hidden="true"
 id="MAC1" class="MAC"><span class="emph">LibreOffice - Préférences</span></span><span hidden="true"
 id="default1"><span class="emph">Outils - Options</span></span></span> - Chargement &amp; plus.<br/>Fini.
</p></li>
</ol>
<p id="par_id4">This paragraph stays untranslated.</p>
<p id="par_id5">Trop court</p>
<p id="par_id6">Une phrase ici et une autre là.</p>
<p id="par_id7">Identifiant répété, le premier.</p>
<p id="par_id7">Identifiant répété, le second.</p>
"""


def _write(root: Path, lang_dir: str, page: str, text: str) -> None:
    path = root / lang_dir / "text" / page
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture()
def help_root(tmp_path: Path) -> Path:
    root = tmp_path / "cache" / "root" / "usr" / "share" / "libreoffice" / "help"
    page = "swriter/guide/calculate.html"
    en = PAGE.format(
        lang="en-US", chrome="LibreOffice 7.4 Help", h1="Calculating in Text Documents", body=EN_BODY
    )
    fr = PAGE.format(
        lang="fr", chrome="Aide de LibreOffice 7.4", h1="Calcul dans les documents texte", body=FR_BODY
    )
    _write(root, "en-US", page, en)
    _write(root, "fr", page, fr)
    # An English page that has no French counterpart.
    _write(
        root,
        "en-US",
        "scalc/main.html",
        PAGE.format(lang="en-US", chrome="x", h1="No French page here", body=""),
    )
    return root


def test_parse_page_keeps_default_variant_and_numbers_repeats(help_root: Path) -> None:
    pars = libreoffice.parse_page(help_root / "en-US" / "text" / "swriter" / "guide" / "calculate.html")
    assert pars == {
        "hd_id1": "Calculating in Text Documents",
        "par_id2": "Click in the document. Then press F2 now!",
        "par_id3": "Choose Tools - Options - Load/Save & more. Done.",
        "par_id4": "This paragraph stays untranslated.",
        "par_id5": "Too short",
        "par_id6": "One sentence here. Two sentences here.",
        "par_id7": "Repeated id, first one.",
        "par_id7#2": "Repeated id, second one.",
        "par_id8": "Only in the English page.",
    }


def test_extract_writes_aligned_pairs(help_root: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    counts = libreoffice.extract(tmp_path / "cache", out, ["fr"])
    doc = "lo:swriter/guide/calculate.html"
    expected = [
        ("Calculating in Text Documents", "Calcul dans les documents texte"),
        ("Click in the document.", "Cliquez dans le document."),
        ("Then press F2 now!", "Puis appuyez sur F2 !"),
        # two sentences each side; the second ("Done." / "Fini.") is too short
        ("Choose Tools - Options - Load/Save & more.", "Choisissez Outils - Options - Chargement & plus."),
        ("One sentence here. Two sentences here.", "Une phrase ici et une autre là."),
        ("Repeated id, first one.", "Identifiant répété, le premier."),
        ("Repeated id, second one.", "Identifiant répété, le second."),
    ]
    assert counts == {"fr": len(expected)}
    text = (out / "libreoffice" / "en-fr.tsv").read_text(encoding="utf-8")
    assert text == "".join(f"{en}\t{fr}\t{doc}\n" for en, fr in expected)


def test_find_help_root_accepts_several_layouts(help_root: Path, tmp_path: Path) -> None:
    assert libreoffice.find_help_root(help_root) == help_root
    assert libreoffice.find_help_root(tmp_path / "cache" / "root") == help_root
    assert libreoffice.find_help_root(tmp_path / "cache") == help_root
    with pytest.raises(LinguaLiteError, match="no LibreOffice help pages"):
        libreoffice.find_help_root(tmp_path / "nowhere")


def test_extract_missing_language_is_an_error(help_root: Path, tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match="no help pages for de"):
        libreoffice.extract(help_root, tmp_path / "out", ["fr", "de"])


def test_fetch_is_idempotent_once_unpacked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "root"
    root.mkdir()
    for pkg in ("libreoffice-help-en-us", "libreoffice-help-fr"):
        (root / f".unpacked-{pkg}").write_text("x\n")

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("nothing should be downloaded or unpacked")

    monkeypatch.setattr(apt, "apt_download", boom)
    monkeypatch.setattr(apt, "unpack_deb", boom)
    assert libreoffice.fetch(tmp_path, ["fr"]) == root / "usr" / "share" / "libreoffice" / "help"


def test_fetch_without_apt_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common.shutil, "which", lambda name: None)
    with pytest.raises(SourceUnavailableError, match="apt-get not found"):
        libreoffice.fetch(tmp_path, ["fr"])


def test_fetch_unpacks_debs_already_in_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    debs = tmp_path / "debs"
    debs.mkdir()
    for pkg in ("libreoffice-help-en-us", "libreoffice-help-it"):
        (debs / f"{pkg}_1:7.4-1_all.deb").touch()
    unpacked: list[str] = []
    monkeypatch.setattr(apt, "apt_download", lambda *a, **k: pytest.fail("no download expected"))
    monkeypatch.setattr(apt, "unpack_deb", lambda deb, dest: unpacked.append(deb.name))
    libreoffice.fetch(tmp_path, ["it"])
    assert unpacked == ["libreoffice-help-en-us_1:7.4-1_all.deb", "libreoffice-help-it_1:7.4-1_all.deb"]
    assert (tmp_path / "root" / ".unpacked-libreoffice-help-it").is_file()


ZH_BODY = """<p id="par_id2" class="paragraph">在文档中点击。然后按
<span class="keycode">F2</span> 键！</p>
<p id="par_id4">This paragraph stays untranslated.</p>
<p id="par_id5">太短</p>
<p id="par_id6">这里有一个句子，还有另一个。</p>
"""
PT_BODY = """<p id="par_id2" class="paragraph">Clique no documento. Então pressione F2 agora!</p>"""


def test_every_language_has_a_help_folder_and_package() -> None:
    from lingualite.text.languages import SUPPORTED

    assert set(libreoffice.HELP_DIRS) == set(libreoffice.PACKAGES) == set(SUPPORTED)
    # Brazilian Portuguese (the more complete help) and Simplified Chinese, as the module docstring says
    assert libreoffice.HELP_DIRS["pt"] == "pt-BR" and libreoffice.PACKAGES["pt"] == "libreoffice-help-pt-br"
    assert libreoffice.HELP_DIRS["zh"] == "zh-CN" and libreoffice.PACKAGES["zh"] == "libreoffice-help-zh-cn"


def test_chinese_and_brazilian_pages_align_by_sentence(help_root: Path, tmp_path: Path) -> None:
    page = "swriter/guide/calculate.html"
    _write(
        help_root,
        "zh-CN",
        page,
        PAGE.format(lang="zh-CN", chrome="帮助", h1="在文本文档中计算", body=ZH_BODY),
    )
    _write(
        help_root,
        "pt-BR",
        page,
        PAGE.format(lang="pt-BR", chrome="Ajuda", h1="Calcular em textos", body=PT_BODY),
    )
    out = tmp_path / "out"
    assert libreoffice.extract(tmp_path / "cache", out, ["zh", "pt"]) == {"zh": 4, "pt": 3}
    rows = [line.split("\t")[:2] for line in (out / "libreoffice" / "en-zh.tsv").read_text().splitlines()]
    assert rows == [
        ["Calculating in Text Documents", "在文本文档中计算"],  # 8 characters: ~4 words, kept
        ["Click in the document.", "在文档中点击。"],  # 。 ends a sentence without a space after it
        ["Then press F2 now!", "然后按 F2 键！"],
        ["One sentence here. Two sentences here.", "这里有一个句子，还有另一个。"],  # 2 vs 1: the paragraph
    ]  # "Too short" / "太短" are too short; the untranslated English copy is dropped
    assert (out / "libreoffice" / "en-pt.tsv").read_text().splitlines()[1].split("\t")[
        1
    ] == "Clique no documento."


def test_traditional_chinese_is_the_taiwan_help() -> None:
    assert libreoffice.HELP_DIRS["zht"] == "zh-TW" and libreoffice.PACKAGES["zht"] == "libreoffice-help-zh-tw"


def test_languages_debian_has_no_help_for_are_named_before_the_fetch(monkeypatch: pytest.MonkeyPatch) -> None:
    """apt decides (no hand-kept list): a package it does not know is a language the help lacks."""
    asked: list[list[str]] = []

    def known(packages: list[str]) -> set[str]:
        asked.append(list(packages))
        return {p for p in packages if not p.endswith(("-ar", "-th"))}

    monkeypatch.setattr(libreoffice, "known_packages", known)
    assert libreoffice.lacking(["fr", "ar", "th", "zht"]) == {
        "ar": "Debian has no libreoffice-help-ar",
        "th": "Debian has no libreoffice-help-th",
    }
    assert asked == [
        ["libreoffice-help-fr", "libreoffice-help-ar", "libreoffice-help-th", "libreoffice-help-zh-tw"]
    ]
    monkeypatch.setattr(libreoffice, "known_packages", lambda packages: None)  # no apt-cache: the fetch says
    assert libreoffice.lacking(["ar"]) == {}
    # a check that must not download falls back on what Debian 12 lacks; where apt can tell, apt decides
    assert libreoffice.lacking_offline(["ar", "fr"]) == {"ar": "Debian 12 has no libreoffice-help-ar"}
    monkeypatch.setattr(libreoffice, "known_packages", lambda packages: set(packages))
    assert libreoffice.lacking_offline(["ar", "fr"]) == {}


def test_a_help_folder_linked_to_another_language_is_not_a_translation(
    help_root: Path, tmp_path: Path
) -> None:
    """Debian 12's libreoffice-help-sk holds the link sk -> cs: Czech pages under the Slovak name."""
    _write(
        help_root,
        "cs",
        "swriter/guide/calculate.html",
        PAGE.format(lang="cs", chrome="", h1="Počítání", body=""),
    )
    (help_root / "sk").symlink_to("cs")
    lacking = libreoffice.lacking(["cs", "sk", "fr", "da"], help_root)
    assert lacking == {
        "sk": "libreoffice-help-sk holds no translation of its own (sk -> cs)",
        "da": "no help pages were unpacked",
    }


def test_known_packages_asks_apt_cache_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    calls: list[list[str]] = []

    def fake_run(cmd: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        calls.append(cmd)
        return subprocess.CompletedProcess(
            cmd, 100, "Package: libreoffice-help-fr\nVersion: 1\n\n", "E: no ar"
        )

    monkeypatch.setattr(apt.shutil, "which", lambda name: "/usr/bin/apt-cache")
    monkeypatch.setattr(apt.subprocess, "run", fake_run)
    assert apt.known_packages(["libreoffice-help-fr", "libreoffice-help-ar"]) == {"libreoffice-help-fr"}
    assert len(calls) == 1 and calls[0][:2] == ["/usr/bin/apt-cache", "show"]
    monkeypatch.setattr(apt.shutil, "which", lambda name: None)
    assert apt.known_packages(["libreoffice-help-fr"]) is None


def test_empty_package_lists_say_nothing_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh container knows no package before `apt-get update`: that is not "Debian has none of them"
    (the default source would be skipped for every language); the fetch updates its own lists and says."""
    import subprocess

    def fake_run(cmd: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(cmd, 100, "", "E: No packages found")

    monkeypatch.setattr(apt.shutil, "which", lambda name: "/usr/bin/apt-cache")
    monkeypatch.setattr(apt.subprocess, "run", fake_run)
    assert apt.known_packages(["libreoffice-help-fr", "libreoffice-help-de"]) is None
    assert libreoffice.lacking(["fr", "de"]) == {}
