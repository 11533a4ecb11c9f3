"""The data of the shipped distill configs: every pair register prepared in its own folder, each step once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lingualite.config import load_distill_config
from lingualite.config.distill import DistillDataConfig
from lingualite.core.progress import LinePrinter
from lingualite.data.pairs import expand_files
from lingualite.reproduce import distill_data
from lingualite.text.languages import BEYOND_CORE, CORE


def _corpus(path: Path, docs: int = 40) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [
        f"Press the button number {d} {i} to open the menu\tAppuyez sur le bouton numéro {d} {i} pour ouvrir le menu"
        f"\tloui:doc{d}"
        for d in range(docs)
        for i in range(3)
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


@pytest.fixture()
def offline(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """No package download: the fetch is recorded, the default pairs are taken as prepared."""
    fetched: list[tuple[str, ...]] = []
    monkeypatch.setattr(
        distill_data, "fetch_corpora", lambda out, langs, sources, **_: fetched.append(sources)
    )
    monkeypatch.setattr(
        "lingualite.reproduce.quickstart.prepare_default_data", lambda data_dir, langs, console, **_: []
    )
    return fetched


def test_each_pair_register_is_prepared_in_its_own_folder_once(tmp_path: Path, offline: list) -> None:
    for source in distill_data.REGISTER_PAIR_FOLDERS:
        _corpus(tmp_path / "corpora" / source / "en-fr.tsv")
    said: list[str] = []
    folders = distill_data.prepare_distill_data(tmp_path, ("fr",), LinePrinter(said.append), no_lang_id=True)
    assert offline == [("libreoffice-ui", "games", "monolingual", "lexicon")]  # no CLDR phrases for French
    for folder in ("prepared-ui", "prepared-games"):
        assert folders[folder] == [tmp_path / folder / "en-fr"]
        splits = {
            s: (tmp_path / folder / "en-fr" / f"{s}.tsv").read_text().splitlines() for s in ("train", "test")
        }
        assert splits["train"] and splits["test"]
        docs = {split: {row.split("\t")[2] for row in rows} for split, rows in splits.items()}
        assert not docs["train"] & docs["test"]  # split by document
    assert any("preparing 2 UI, game and Firefox pair files" in line for line in said)
    said.clear()
    distill_data.prepare_distill_data(tmp_path, ("fr",), LinePrinter(said.append), no_lang_id=True)
    assert not any("preparing" in line for line in said)  # done already: not redone


def test_a_language_a_source_lacks_is_left_out(tmp_path: Path, offline: list) -> None:
    _corpus(tmp_path / "corpora" / "games" / "en-fr.tsv")
    folders = distill_data.prepare_distill_data(
        tmp_path, ("fr",), LinePrinter(lambda _: None), no_lang_id=True
    )
    assert folders["prepared-ui"] == [] and folders["prepared-games"] == [
        tmp_path / "prepared-games" / "en-fr"
    ]


def test_the_shipped_config_reads_what_it_prepares_and_says_how_when_missing(tmp_path: Path) -> None:
    cfg = load_distill_config("distill", tmp_path)
    folders = {Path(p).relative_to(tmp_path).parts[0] for p in cfg.data.train_files}
    # Firefox's strings (prepared-mozilla): a register the 13-language models never saw
    assert folders == {"prepared", "prepared-ui", "prepared-games"}
    assert {p.split("/")[1] for p in DistillDataConfig().train_files} == folders  # the default globs too
    texts = {Path(p).relative_to(tmp_path / "corpora").parts[0] for p in cfg.data.monolingual_files}
    assert texts == {s for s in distill_data.TEXT_SOURCES if distill_data.read_langs(s, CORE)}
    with pytest.raises(Exception, match="lingualite data fetch --for distill"):
        expand_files(cfg.data.train_files, "training")


def test_read_only_is_the_shipped_globs_on_a_data_dir_of_those_languages(
    tmp_path: Path, offline: list
) -> None:
    for lang in ("fr", "de"):
        for source in distill_data.REGISTER_PAIR_FOLDERS:
            _corpus(tmp_path / "corpora" / source / f"en-{lang}.tsv")
        for source in distill_data.TEXT_SOURCES:
            for code in (lang, "en"):
                (tmp_path / "corpora" / source).mkdir(parents=True, exist_ok=True)
                (tmp_path / "corpora" / source / f"{code}.txt").write_text("A line.\n")
    folders = distill_data.prepare_distill_data(tmp_path, ("fr", "de"), LinePrinter(print), no_lang_id=True)
    folders["prepared"] = [tmp_path / "prepared" / f"en-{lang}" for lang in ("fr", "de")]
    for lang in ("fr", "de"):  # the default pairs' folders (the fixture takes them as prepared)
        shutil.copytree(tmp_path / "prepared-ui" / f"en-{lang}", tmp_path / "prepared" / f"en-{lang}")
    globbed = load_distill_config("distill", tmp_path)
    expanded = {
        key: [str(p) for p in expand_files(getattr(globbed.data, key), key)]
        for key in ("train_files", "monolingual_files", "monolingual_exclude_files")
    }
    explicit = load_distill_config("distill", tmp_path)
    distill_data.read_only(explicit, folders, tmp_path, ("fr", "de"))
    for key, files in expanded.items():
        assert getattr(explicit.data, key) == files, key
    (tmp_path / "corpora" / "lexicon" / "sv.txt").write_text("En rad.\n")  # another language in the dir
    distill_data.read_only(explicit, folders, tmp_path, ("fr", "de"))
    assert not any("sv.txt" in f for f in explicit.data.monolingual_files)


def test_cldr_phrases_and_firefox_strings_are_fetched_and_read_beyond_core_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CLDR's phrases and Firefox's strings train the 21 beyond the 13 and stay a held-out register of the 13
    and of English; a language with few default pairs takes its held-out pairs from the others only."""
    fetched: dict[tuple[str, ...], tuple[str, ...]] = {}
    fallbacks: list[tuple[str, ...]] = []
    monkeypatch.setattr(
        distill_data, "fetch_corpora", lambda out, langs, sources, **_: fetched.update({sources: langs})
    )
    monkeypatch.setattr(
        "lingualite.reproduce.quickstart.prepare_default_data",
        lambda data_dir, langs, console, fallback, **_: fallbacks.append(fallback) or [],
    )
    for lang in ("fr", "cs"):
        _corpus(tmp_path / "corpora" / "mozilla-ui" / f"en-{lang}.tsv")
        _corpus(tmp_path / "corpora" / "libreoffice-ui" / f"en-{lang}.tsv")
    folders = distill_data.prepare_distill_data(tmp_path, ("fr", "cs"), LinePrinter(print), no_lang_id=True)
    assert fetched == {
        ("libreoffice-ui", "games", "monolingual", "lexicon"): ("fr", "cs"),
        ("cldr",): ("cs",),
        ("mozilla-ui",): ("cs",),
    }
    assert fallbacks == [("libreoffice-ui", "games")]
    assert folders["prepared-mozilla"] == [tmp_path / "prepared-mozilla" / "en-cs"]
    assert not (tmp_path / "prepared-mozilla" / "en-fr").exists()
    explicit = load_distill_config("distill-all", tmp_path)
    distill_data.read_only(explicit, folders, tmp_path, ("fr", "cs"))
    # `lingualite models build` trains on the recipe's sequence: the other folders, then Firefox's strings
    assert explicit.data.train_files == [
        str(tmp_path / folder / f"en-{lang}" / "train.tsv")
        for folder, lang in (("prepared-ui", "cs"), ("prepared-ui", "fr"), ("prepared-mozilla", "cs"))
    ]
    for source in distill_data.TEXT_SOURCES:
        for code in ("en", "fr", "cs"):
            (tmp_path / "corpora" / source).mkdir(parents=True, exist_ok=True)
            (tmp_path / "corpora" / source / f"{code}.txt").write_text("A line.\n")
    cfg = load_distill_config("distill-all", tmp_path)
    distill_data.read_only(cfg, folders, tmp_path, ("fr", "cs"))
    read = {str(Path(f).relative_to(tmp_path / "corpora")) for f in cfg.data.monolingual_files}
    assert read == {f"{s}/{code}.txt" for s in ("monolingual", "lexicon") for code in ("en", "fr", "cs")} | {
        "cldr/cs.txt"
    }


def test_the_34_language_recipe_names_the_cldr_phrases_of_every_language_beyond_core(tmp_path: Path) -> None:
    cfg = load_distill_config("distill-all", tmp_path)
    cldr = [Path(f) for f in cfg.data.monolingual_files if Path(f).parent.name == "cldr"]
    assert [f.stem for f in cldr] == sorted(BEYOND_CORE)  # the order read_only gives them
    assert [str(f) for f in distill_data._text_files(tmp_path, BEYOND_CORE) if f.parent.name == "cldr"] == [
        str(f) for f in cldr
    ]


def test_the_34_language_recipe_names_the_firefox_strings_of_every_language_beyond_core(
    tmp_path: Path,
) -> None:
    """Listed, not globbed (a data dir may hold other languages' Firefox strings), in read_only's order: the
    folders sorted after the other pair folders, so `lingualite models build` trains on the same sequence."""
    cfg = load_distill_config("distill-all", tmp_path)
    folder = tmp_path / "prepared-mozilla"
    for split, files in (("train", cfg.data.train_files), ("test", cfg.data.monolingual_exclude_files)):
        listed = [Path(f) for f in files if Path(f).parent.parent == folder]
        assert listed == [folder / f"en-{lang}" / f"{split}.tsv" for lang in sorted(BEYOND_CORE)]
        assert files[-len(listed) :] == [str(f) for f in listed]  # last, as read_only puts them


def test_a_register_folder_left_with_no_training_pair_is_removed(tmp_path: Path, offline: list) -> None:
    corpus = tmp_path / "corpora" / "games" / "en-fr.tsv"
    corpus.parent.mkdir(parents=True)
    # one document, which REGISTER_SPLIT's hash holds out as test (as Hindi game text's 5 pairs)
    corpus.write_text(
        "".join(
            f"Open the door number {i} now\tOuvrez la porte numéro {i} maintenant\tloui:held6\n"
            for i in range(5)
        ),
        encoding="utf-8",
    )
    said: list[str] = []
    folders = distill_data.prepare_distill_data(tmp_path, ("fr",), LinePrinter(said.append), no_lang_id=True)
    assert folders["prepared-games"] == []
    assert not (
        tmp_path / "prepared-games" / "en-fr"
    ).exists()  # the configs' train globs would meet an empty file
    assert any("prepared-games/en-fr: no training pairs" in line and "removed" in line for line in said)


def test_a_language_the_default_sources_barely_hold_gets_its_registers_in_prepared_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Norwegian and Romanian have 9 and 14 DDTP pairs and no help or Bible: their prepared/en-xx (where the
    language table finds its test pairs) is made of the UI strings and game text too, and those are not also
    prepared in prepared-ui/prepared-games (trained twice, and test documents of one trained in the other);
    such a folder prepared by an earlier version is removed."""
    from lingualite.reproduce import quickstart

    monkeypatch.setattr(distill_data, "fetch_corpora", lambda *a, **k: None)
    monkeypatch.setattr(quickstart, "fetch_corpora", lambda *a, **k: None)
    corpora = tmp_path / "corpora"
    ddtp = corpora / "ddtp" / "en-fr.tsv"
    ddtp.parent.mkdir(parents=True)
    ddtp.write_text(
        "".join(f"A small tool number {i}\tUn petit outil numéro {i}\tddtp:p{i}\n" for i in range(5))
    )
    for source in distill_data.REGISTER_PAIR_FOLDERS:
        _corpus(corpora / source / "en-fr.tsv")
    (corpora / "games" / "en-fr.tsv").write_text(
        (corpora / "games" / "en-fr.tsv").read_text().replace("menu", "door").replace("loui:", "games:")
    )
    stale = tmp_path / "prepared-ui" / "en-fr"
    distill_data._prepare_register(corpora / "libreoffice-ui" / "en-fr.tsv", "fr", stale, False)
    said: list[str] = []
    folders = distill_data.prepare_distill_data(tmp_path, ("fr",), LinePrinter(said.append), no_lang_id=True)
    assert folders["prepared"] == [tmp_path / "prepared" / "en-fr"]
    assert sorted(p.parent.name for p in distill_data._inputs(folders["prepared"][0])) == [
        "ddtp",
        "games",
        "libreoffice-ui",
    ]
    assert folders["prepared-ui"] == folders["prepared-games"] == []
    assert not stale.exists() and not (tmp_path / "prepared-games" / "en-fr").exists()
    assert "prepared-ui/en-fr: removed (prepared/en-fr holds libreoffice-ui)" in said
