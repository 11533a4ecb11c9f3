"""The opt-in games source: Wesnoth branch resolution, prose filtering, sentence-level pairs with block
documents from tiny .mo catalogs, UI catalogs and scripture left out, fetch through apt."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mo_fixtures import write_mo

import lingualite.data.sources as sources
from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources import apt, common, games
from lingualite.data.sources.mo import MoEntry

STORY = [
    MoEntry(
        None, "The king rode north. His army followed him.", "Le roi partit au nord. Son armée le suivit."
    ),
    MoEntry(None, "Konrad, the forest is burning!", "Konrad, la forêt brûle !"),
    MoEntry(None, "Gold: {GOLD} pieces left", "Or : {GOLD} pièces restantes"),
    MoEntry(None, "$name attacks the village now", "$name attaque le village"),
    MoEntry(None, "Jesus walked on the water", "Jésus marchait sur l'eau"),
    MoEntry(None, "One soldier stands here", "Un soldat\x00%d soldats", plural="%d soldiers stand here"),
    MoEntry(None, "Not translated at all", ""),
    MoEntry(None, "<i>Long ago</i> the elves lived here", "<i>Il y a longtemps</i> les elfes vivaient ici"),
]
LIB = [MoEntry(None, "Open the saved game", "Ouvrir la partie sauvegardée")]


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    lc = root / "usr/share/games/wesnoth/1.16/locale/fr/LC_MESSAGES"
    lc.mkdir(parents=True)
    write_mo(lc / "wesnoth-httt.mo", STORY)
    write_mo(lc / "wesnoth-lib.mo", LIB)
    civ = root / "usr/share/locale/fr/LC_MESSAGES"
    civ.mkdir(parents=True)
    write_mo(
        civ / "freeciv-nations.mo",
        [MoEntry(None, "The Romans built many roads", "Les Romains bâtirent des routes")],
    )
    write_mo(
        civ / "freedroidrpg-dialogs.mo", [MoEntry(None, "Where can I find it?", "Où puis-je le trouver ?")]
    )
    write_mo(civ / "freedroidrpg.mo", [MoEntry(None, "Load the saved game", "Charger la partie")])  # UI
    return root


def test_extract_keeps_prose_sentence_pairs(tmp_path: Path) -> None:
    counts = games.extract(_root(tmp_path), tmp_path / "out", ["fr"])
    rows = [
        ln.split("\t") for ln in (tmp_path / "out/games/en-fr.tsv").read_text(encoding="utf-8").splitlines()
    ]
    pairs = {(en, fr) for en, fr, _ in rows}
    assert (
        pairs
        == {
            ("The Romans built many roads", "Les Romains bâtirent des routes"),
            ("The king rode north.", "Le roi partit au nord."),
            ("His army followed him.", "Son armée le suivit."),
            ("Konrad, the forest is burning!", "Konrad, la forêt brûle !"),
            ("Long ago the elves lived here", "Il y a longtemps les elfes vivaient ici"),
            ("Where can I find it?", "Où puis-je le trouver ?"),
        }
    )  # placeholders, plural, untranslated, scripture and the UI catalogs (wesnoth-lib, freedroidrpg) left out
    docs = {en: doc for en, _, doc in rows}
    assert docs["The king rode north."] == docs["His army followed him."] == "games:wesnoth-httt/0"
    assert docs["The Romans built many roads"] == "games:freeciv-nations/0"
    assert docs["Where can I find it?"] == "games:freedroidrpg-dialogs/0"
    assert counts == {"fr": 6}


def test_missing_language_is_named(tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match="no game catalogs .* for de"):
        games.extract(_root(tmp_path), tmp_path / "out", ["fr", "de"])


@pytest.mark.parametrize(
    ("text", "usable"),
    [("A plain sentence.", True), ("Use {KEY} now", False), ("50% more", False), ("<b>Bold</b> word", True)],
)
def test_usable_text(text: str, usable: bool) -> None:
    assert games.usable_text(text) is usable


def test_wesnoth_packages_takes_the_newest_branch_with_data() -> None:
    names = [
        "wesnoth-1.14-data",
        "wesnoth-1.14-httt",
        "wesnoth-1.16-data",
        "wesnoth-1.16-httt",
        "wesnoth-1.16-music",
        "wesnoth-1.16-core",
        "wesnoth-1.18-httt",
        "wesnoth",
        "wesnoth-core",
    ]
    assert games.wesnoth_packages(names) == ["wesnoth-1.16-data", "wesnoth-1.16-httt"]
    assert games.wesnoth_packages(["wesnoth-core"]) == []


def test_fetch_resolves_packages_through_apt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(
        games, "run_tool", lambda cmd, what: "wesnoth-1.16-data\nwesnoth-1.16-tsg\nwesnoth-1.16-music\n"
    )
    calls: list[Any] = []
    monkeypatch.setattr(
        games, "download_and_unpack", lambda pkgs, cache: calls.append(pkgs) or cache / "root"
    )
    assert games.fetch(tmp_path) == tmp_path / "root"
    assert calls == [[*games.OTHER_PACKAGES, "wesnoth-1.16-data", "wesnoth-1.16-tsg"]]
    monkeypatch.setattr(games, "run_tool", lambda cmd, what: "")
    with pytest.raises(common.SourceUnavailableError, match="no wesnoth-<branch>-data"):
        games.fetch(tmp_path)


def test_registered_as_opt_in() -> None:
    assert sources.SOURCES["games"] is games and "games" not in sources.DEFAULT_SOURCES
    assert "GPL-2+" in sources.LICENCES["games"]
    assert apt.download_and_unpack is games.download_and_unpack


def test_catalogs_are_found_by_locale_and_lacking_languages_named(tmp_path: Path) -> None:
    root = _root(tmp_path)
    lc = root / "usr/share/locale/pt_BR/LC_MESSAGES"  # Portuguese is Brazilian, as in every source
    lc.mkdir(parents=True)
    write_mo(lc / "freeciv-nations.mo", [MoEntry(None, "The people of the plains.", "O povo das planícies.")])
    assert games.lacking(["pt", "ko"]) == {}  # known only after the fetch
    assert games.lacking(["pt", "ko"], root) == {"ko": "no game has a catalog in it"}
    assert games.extract(root, tmp_path / "out", ["pt"]) == {"pt": 1}
    ja = root / "usr/share/locale/ja_JP/LC_MESSAGES"  # Warzone 2100's Japanese folder
    ja.mkdir(parents=True)
    write_mo(
        ja / "warzone2100.mo",
        [MoEntry(None, "The base is under attack now.", "基地が現在攻撃を受けています。")],
    )
    assert games.extract(root, tmp_path / "out", ["ja"]) == {"ja": 1}
    pt = root / "usr/share/locale/pt/LC_MESSAGES"  # European Portuguese: never read for pt (Brazilian)
    pt.mkdir(parents=True)
    write_mo(
        pt / "freeciv-core.mo", [MoEntry(None, "The city grows quickly today.", "A cidade cresce hoje.")]
    )
    assert games.extract(root, tmp_path / "out", ["pt"]) == {"pt": 1}
