"""LibreOffice UI catalogs: string clean-up, document groups, extraction from tiny .mo files, fetch, and
the opt-in registration (the default sources stay libreoffice, bible, ddtp)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest
from mo_fixtures import write_mo

import lingualite.data.sources as sources
from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources import apt
from lingualite.data.sources import libreoffice_ui as ui
from lingualite.data.sources.mo import MoEntry

RESOURCE = Path("usr/lib/libreoffice/program/resource")

SW = [
    MoEntry("annotationmenu|formatall", "Format All ~Comments...", "Formater tous les ~commentaires..."),
    MoEntry("findentrydialog|findin", "Find _only in this column", "Rechercher _uniquement dans la colonne"),
    MoEntry("findentrydialog|label", "Use __name__ as the key", "Utiliser __name__ comme clé"),
    MoEntry("STR_POOLCOLL_BULLET_LEVEL1", "List level one entry", "Entrée de liste niveau un"),
    MoEntry("STR_POOLCOLL_BULLET_LEVEL2", "List level two entry", "Entrée de liste niveau deux"),
    MoEntry(
        "STR_NOTE", "<b>Note:</b> %PRODUCTNAME saves it<BR>now", "<b>Note :</b> %PRODUCTNAME l'enregistre"
    ),
    MoEntry("STR_LABEL", "&lt;None&gt; was chosen here", "&lt;Aucun&gt; a été choisi ici"),
    MoEntry("STR_PAGES", "One page only here", "Une seule page\x00%1 pages", plural="%1 pages only here"),
    MoEntry("STR_EMPTY", "Not translated at all", ""),
    MoEntry("STR_SAME", "Microsoft Word 2007 XML", "Microsoft Word 2007 XML"),
    MoEntry("STR_SHORT", "Two words", "Deux mots"),
    MoEntry("STR_ONLY_PLACEHOLDERS", "%1 - $(ARG1) - %NAME", "%1 - $(ARG1) - %NAME"),
    MoEntry("STR_FEW_WORDS", "$(ARG1) of %2 pages", "$(ARG1) sur %2 pages"),
    MoEntry(None, "A string without any context", "Une chaîne sans aucun contexte"),
    MoEntry("extended_tip|fix", "Fixes the row height here.", "Fixe la hauteur de ligne ici."),
]
SC = [  # the first entry repeats an English string of sw.mo, with another translation
    MoEntry("sortdialog|x", "Format All Comments...", "Mettre en forme tous les commentaires..."),
    MoEntry("SC_OPCODE_ABS", "Absolute value of a number.", "Valeur absolue d'un nombre."),
    MoEntry("SC_OPCODE_ABS", "The number whose absolute value is returned.", "Le nombre dont la valeur..."),
]


@pytest.fixture()
def cache(tmp_path: Path) -> Path:
    """A fetch cache with French catalogs (sw.mo, sc.mo) and an empty German folder."""
    cache = tmp_path / "cache"
    lc = cache / "root" / RESOURCE / "fr" / "LC_MESSAGES"
    lc.mkdir(parents=True)
    write_mo(lc / "sw.mo", SW)
    write_mo(lc / "sc.mo", SC, order=">")
    (cache / "root" / RESOURCE / "de" / "LC_MESSAGES").mkdir(parents=True)
    return cache


@pytest.mark.parametrize(
    "text, dialog, want",
    [
        ("~Open the file", False, "Open the file"),
        ("_Open the file", True, "Open the file"),
        ("Collec_t at end of text", True, "Collect at end of text"),
        ("Use __name__ as key", True, "Use _name_ as key"),
        ("Automatic _underline_ here", False, "Automatic _underline_ here"),
        ("Tilde ~ stays alone", False, "Tilde ~ stays alone"),
        ("<b>Note:</b> saved<BR>now", False, "Note: saved now"),
        ("<font size=1>small</font> text", False, "small text"),
        ("&lt;None&gt; is <All> here", False, "<None> is <All> here"),
        ("%PRODUCTNAME Writer opens\nthe file", False, "LibreOffice Writer opens the file"),
    ],
)
def test_clean_ui_text(text: str, dialog: bool, want: str) -> None:
    assert ui.clean_ui_text(text, dialog) == want


def test_real_words_ignores_placeholders() -> None:
    assert ui.real_words("%1 - $(ARG1) - %NAME $name$ $2 #1") == 0
    assert ui.real_words("$(ARG1) of %2 pages") == 2
    assert ui.real_words("Delete 3 rows now") == 3


@pytest.mark.parametrize(
    "context, group",
    [
        ("annotationmenu|formatall", "annotationmenu"),
        ("autotext|extended_tip|newtext", "autotext"),
        ("extended_tip|fix", "fix"),
        ("extended tip | ColorPicker", "ColorPicker"),
        ("STR_POOLCOLL_BULLET_LEVEL2", "STR_POOLCOLL_BULLET_LEVEL"),
        ("SC_OPCODE_ABS", "SC_OPCODE_ABS"),
        (None, "_"),
        ("", "_"),
    ],
)
def test_doc_group(context: str | None, group: str) -> None:
    assert ui.doc_group(context) == group


def test_extract_writes_cleaned_pairs_with_documents(cache: Path, tmp_path: Path) -> None:
    out = tmp_path / "corpora"
    assert ui.extract(cache, out, ["fr"]) == {"fr": 12}
    lines = (out / "libreoffice-ui" / "en-fr.tsv").read_text(encoding="utf-8").splitlines()
    rows = [tuple(line.split("\t")) for line in lines]
    assert all(len(r) == 3 and all(r) for r in rows)
    # sc.mo first (files in name order; a big-endian file), its entries in msgfmt's (sorted) order
    assert rows[0] == ("Absolute value of a number.", "Valeur absolue d'un nombre.", "loui:sc/SC_OPCODE_ABS")
    by_en = {r[0]: r for r in rows}
    assert by_en["Find only in this column"][1:] == (
        "Rechercher uniquement dans la colonne",
        "loui:sw/findentrydialog",
    )
    assert by_en["Use _name_ as the key"][1] == "Utiliser _name_ comme clé"
    assert (
        by_en["List level two entry"][2]
        == by_en["List level one entry"][2]
        == "loui:sw/STR_POOLCOLL_BULLET_LEVEL"
    )
    assert by_en["Note: LibreOffice saves it now"][1] == "Note : LibreOffice l'enregistre"
    assert by_en["<None> was chosen here"][1] == "<Aucun> a été choisi ici"
    assert by_en["A string without any context"][2] == "loui:sw/_"
    assert by_en["Fixes the row height here."][2] == "loui:sw/fix"
    # the same English in two modules: both translations kept, both in the document where it came first
    both = [r for r in rows if r[0] == "Format All Comments..."]
    assert both == [
        ("Format All Comments...", "Mettre en forme tous les commentaires...", "loui:sc/sortdialog"),
        ("Format All Comments...", "Formater tous les commentaires...", "loui:sc/sortdialog"),
    ]
    dropped = ("One page", "Not translated", "Microsoft Word", "Two words", "%1 - ", "$(ARG1) of")
    assert not [r for r in rows if r[0].startswith(dropped)]
    assert not any("~" in r[0] + r[1] for r in rows)


def test_extract_layouts_and_missing_language(cache: Path, tmp_path: Path) -> None:
    for raw in (cache, cache / "root", cache / "root" / RESOURCE):
        assert ui.find_resource_root(raw) == cache / "root" / RESOURCE
    with pytest.raises(LinguaLiteError, match="no UI catalogs for de, it"):
        ui.extract(cache, tmp_path / "out", ["fr", "de", "it"])
    with pytest.raises(LinguaLiteError, match="fetch them first"):
        ui.extract(tmp_path / "nothing", tmp_path / "out", ["fr"])


def test_fetch_downloads_only_missing_packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    debs = tmp_path / "debs"
    debs.mkdir()
    (debs / "libreoffice-l10n-fr_4%3a7.4.7-1+deb12u14_all.deb").write_bytes(b"x")
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / ".unpacked-libreoffice-l10n-it").write_text("done\n")
    calls: list[Any] = []

    def download(packages: list[str], deb_dir: Path, state_dir: Path) -> None:
        calls.append(("download", list(packages)))
        for pkg in packages:
            (deb_dir / f"{pkg}_1.0_all.deb").write_bytes(b"x")

    monkeypatch.setattr(apt, "apt_download", download)
    monkeypatch.setattr(apt, "unpack_deb", lambda deb, dest: calls.append(("unpack", deb.name)))
    assert ui.fetch(tmp_path, ["fr", "de", "it"]) == tmp_path / "root" / RESOURCE
    assert calls == [
        ("download", ["libreoffice-l10n-de"]),
        ("unpack", "libreoffice-l10n-fr_4%3a7.4.7-1+deb12u14_all.deb"),
        ("unpack", "libreoffice-l10n-de_1.0_all.deb"),
    ]
    calls.clear()
    ui.fetch(tmp_path, ["fr", "de", "it"])
    assert calls == []  # idempotent once unpacked


def test_registered_opt_in_and_defaults_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert sources.DEFAULT_SOURCES == ("libreoffice", "bible", "ddtp")
    assert sources.SOURCES["libreoffice-ui"] is ui and "MPL-2.0" in sources.LICENCES["libreoffice-ui"]
    assert inspect.signature(sources.fetch_corpora).parameters["sources"].default == sources.DEFAULT_SOURCES
    from lingualite.cli.data_commands import data_fetch

    assert inspect.signature(data_fetch).parameters["sources"].default == ",".join(sources.DEFAULT_SOURCES)
    fetched: list[str] = []
    for name in sources.SOURCES:
        fake = type("Fake", (), {})()
        fake.fetch = lambda cache_dir, langs, name=name: fetched.append(name) or cache_dir
        fake.extract = lambda raw, out_dir, langs: {lang: 0 for lang in langs}
        monkeypatch.setitem(sources.SOURCES, name, fake)
    sources.fetch_corpora(tmp_path, langs=("fr",), progress=lambda msg: None)
    assert fetched == ["libreoffice", "bible", "ddtp"]
    sources.fetch_corpora(tmp_path, langs=("fr",), sources=("libreoffice-ui",), progress=lambda msg: None)
    assert fetched[-1] == "libreoffice-ui"


def test_quickstart_prepares_only_default_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lingualite.reproduce import quickstart

    for name in ("libreoffice", "bible", "ddtp", "libreoffice-ui"):
        (tmp_path / "corpora" / name).mkdir(parents=True)
        (tmp_path / "corpora" / name / "en-fr.tsv").write_text("a b c\tx y z\td\n")
    seen: list[list[Path]] = []

    class SyncPool:
        def __init__(self, max_workers: int) -> None: ...
        def __enter__(self) -> SyncPool:
            return self

        def __exit__(self, *exc: object) -> None: ...
        def submit(self, fn: Any, *args: Any) -> Any:
            return type("Done", (), {"result": lambda self: fn(*args)})()

    monkeypatch.setattr(quickstart, "fetch_corpora", lambda *a, **k: None)
    monkeypatch.setattr(quickstart, "ProcessPoolExecutor", SyncPool)
    monkeypatch.setattr(
        quickstart, "_prepare_one", lambda inputs, lang, out, *rest: seen.append(inputs) or "ok"
    )
    quickstart.prepare_default_data(tmp_path, ("fr",), quickstart.Console(quiet=True))
    corpora = tmp_path / "corpora"
    assert seen == [
        [
            corpora / "bible" / "en-fr.tsv",
            corpora / "ddtp" / "en-fr.tsv",
            corpora / "libreoffice" / "en-fr.tsv",
        ]
    ]


ZH = [
    MoEntry("annotationmenu|formatall", "Format All ~Comments...", "格式化所有批注(~C)..."),
    MoEntry("STR_NOTE", "%PRODUCTNAME saves the document now", "%PRODUCTNAME 现在保存文档"),
    MoEntry("STR_SHORT", "Insert the rows", "插入"),  # two characters: about one word
]


def test_chinese_catalogs_are_in_zh_CN_and_counted_in_characters(cache: Path, tmp_path: Path) -> None:
    assert ui.RESOURCE_DIRS["zh"] == "zh_CN" and ui.PACKAGES["pt"] == "libreoffice-l10n-pt-br"
    lc = cache / "root" / RESOURCE / "zh_CN" / "LC_MESSAGES"
    lc.mkdir(parents=True)
    write_mo(lc / "sw.mo", ZH)
    assert ui.real_words("格式化所有批注", "zh") > 3 > ui.real_words("插入", "zh")  # not "one word" each
    out = tmp_path / "out"
    assert ui.extract(cache, out, ["zh"]) == {"zh": 2}
    rows = [line.split("\t")[1] for line in (out / "libreoffice-ui" / "en-zh.tsv").read_text().splitlines()]
    assert rows == ["LibreOffice 现在保存文档", "格式化所有批注..."]  # the bracketed accelerator (~C) removed
    assert ui.clean_ui_text("削除(_D)") == "削除" and ui.clean_ui_text("삭제 (~D)", dialog=False) == "삭제"
