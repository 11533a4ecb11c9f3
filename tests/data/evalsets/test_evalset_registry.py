"""fetch_eval_sets end to end on a synthetic cache: layout, formats, SET.json, idempotence, skips, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from evalset_fixtures import read_tsv

from lingualite.core.errors import ConfigError
from lingualite.data import evalsets
from lingualite.data.evalsets import SETS, fetch_eval_sets
from lingualite.data.sources.common import SourceUnavailableError

# relative path -> number of fields per line
EXPECTED = {
    "classify/libreoffice-modules/train.en.tsv": 2,
    "classify/libreoffice-modules/test.en.tsv": 2,
    "classify/libreoffice-modules/test.fr.tsv": 2,
    "classify/libreoffice-modules/train.fr.tsv": 2,
    "classify/bible-genres/train.en.tsv": 2,
    "classify/bible-genres/test.en.tsv": 2,
    "classify/bible-genres/test.fr.tsv": 2,
    "classify/ddtp-sections/train.en.tsv": 2,
    "classify/ddtp-sections/test.en.tsv": 2,
    "classify/ddtp-sections/test.fr.tsv": 2,
    "ir/libreoffice-index/en/corpus.tsv": 2,
    "ir/libreoffice-index/en/queries.tsv": 2,
    "ir/libreoffice-index/en/qrels.tsv": 3,
    "ir/libreoffice-index/fr/queries.tsv": 2,
    "ir/libreoffice-index/fr/qrels.tsv": 3,
    "sts/lee/en.tsv": 3,
    "pairs/bible-paraphrase/train.en.tsv": 3,
    "pairs/bible-paraphrase/test.en.tsv": 3,
    "pairs/bible-paraphrase/test.fr.tsv": 3,
}


def test_all_sets_layout_formats_and_set_json(cache: Path, tmp_path: Path) -> None:
    out = tmp_path / "eval"
    messages: list[str] = []
    result = fetch_eval_sets(out, cache, langs=["fr"], progress=messages.append)
    assert list(result) == list(SETS)
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.tsv"))
    assert files == sorted(EXPECTED)
    for rel, fields in EXPECTED.items():
        rows = read_tsv(out / rel, fields)
        assert rows, rel
        set_name = next(n for n, m in SETS.items() if rel.startswith(m.FOLDER + "/"))
        counts = result[set_name]["files"][rel[len(SETS[set_name].FOLDER) + 1 :]]
        assert counts["lines"] == len(rows)
        if "labels" in counts:
            assert sum(counts["labels"].values()) == len(rows)
    for name, module in SETS.items():
        meta = json.loads((out / module.FOLDER / "SET.json").read_text(encoding="utf-8"))
        assert meta == result[name]
        assert meta["licence"] and meta["description"] and meta["format"] and meta["task"]
        assert meta["langs"] == ["en", "fr"]
    assert not list(out.rglob(".*"))  # no temporary files left
    assert any(m.startswith("lee: en.tsv 3") for m in messages)


def test_idempotent_and_force(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "eval"
    first = fetch_eval_sets(out, cache, langs=["fr"], sets=["lee", "bible_genres"], progress=lambda m: None)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def boom(*args, **kwargs):
        raise AssertionError("an extracted set must not be redone")

    for name in ("lee", "bible_genres"):
        monkeypatch.setattr(SETS[name], "extract", boom)
    messages: list[str] = []
    again = fetch_eval_sets(out, cache, langs=["fr"], sets=["lee", "bible_genres"], progress=messages.append)
    assert again == first
    assert all("already extracted" in m for m in messages)
    monkeypatch.undo()

    forced = fetch_eval_sets(
        out, cache, langs=["fr"], sets=["lee", "bible_genres"], force=True, progress=print
    )
    assert forced == first
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before  # deterministic


def test_new_language_redoes_the_set(cache: Path, tmp_path: Path) -> None:
    out = tmp_path / "eval"
    fetch_eval_sets(out, cache, langs=[], sets=["bible_genres"], progress=lambda m: None)
    assert not (out / "classify/bible-genres/test.fr.tsv").exists()
    result = fetch_eval_sets(out, cache, langs=["fr"], sets=["bible_genres"], progress=lambda m: None)
    assert (out / "classify/bible-genres/test.fr.tsv").is_file()
    assert "test.fr.tsv" in result["bible_genres"]["files"]


def test_a_set_another_version_extracted_is_extracted_again(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A set whose extraction was fixed raises its EXTRACTION: an older SET.json does not count as done."""
    out = tmp_path / "eval"
    fetch_eval_sets(out, cache, langs=["fr"], sets=["lee"], progress=lambda m: None)
    meta = json.loads((out / "sts/lee/SET.json").read_text(encoding="utf-8"))
    assert meta["extraction"] == 1
    monkeypatch.setattr(SETS["lee"], "EXTRACTION", 2, raising=False)
    messages: list[str] = []
    again = fetch_eval_sets(out, cache, langs=["fr"], sets=["lee"], progress=messages.append)
    assert again["lee"]["extraction"] == 2
    assert not any("already extracted" in m for m in messages)


def test_a_language_the_new_version_did_not_redo_is_not_taken_as_done(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stale set redone for English only leaves the old test.fr.tsv; asking for French later redoes it."""
    out = tmp_path / "eval"
    fetch_eval_sets(out, cache, langs=["fr"], sets=["bible_genres"], progress=lambda m: None)
    monkeypatch.setattr(SETS["bible_genres"], "EXTRACTION", 2, raising=False)
    fetch_eval_sets(out, cache, langs=[], sets=["bible_genres"], progress=lambda m: None)
    assert (out / "classify/bible-genres/test.fr.tsv").is_file()  # left by the other version
    messages: list[str] = []
    again = fetch_eval_sets(out, cache, langs=["fr"], sets=["bible_genres"], progress=messages.append)
    assert not any("already extracted" in m for m in messages)
    assert again["bible_genres"]["langs"] == ["en", "fr"]


def test_unavailable_source_is_skipped(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def no_apt(cache_dir, langs):
        calls.append(cache_dir)
        raise SourceUnavailableError("apt-get not found on PATH")

    monkeypatch.setattr(evalsets.libreoffice_modules, "fetch", no_apt)
    messages: list[str] = []
    result = fetch_eval_sets(
        tmp_path / "eval",
        cache,
        langs=["fr"],
        sets=["libreoffice_modules", "libreoffice_index", "lee"],
        progress=messages.append,
    )
    assert list(result) == ["lee"]  # both LibreOffice sets skipped; the source was tried once
    assert len(calls) == 1
    assert sum("SKIPPED" in m and "apt-get not found" in m for m in messages) == 2
    assert not (tmp_path / "eval" / "classify").exists()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"langs": ["fr", "xx"]}, "unsupported language"),
        ({"sets": ["lee", "nope"]}, "unknown evaluation set"),
    ],
)
def test_bad_arguments(tmp_path: Path, kwargs: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        fetch_eval_sets(tmp_path / "eval", tmp_path / "cache", **kwargs)
    assert not (tmp_path / "eval").exists()


def test_a_set_lacking_a_language_says_so_and_goes_on(cache: Path, tmp_path: Path) -> None:
    (cache / "ddtp-sections" / ".fetched").write_text("en fr zh_CN\n")  # fetched: no apt run
    msgs: list[str] = []
    out = tmp_path / "eval"
    sets = ("bible_genres", "bible_paraphrase", "ddtp_sections")
    done = fetch_eval_sets(out, cache, langs=("fr", "zh"), sets=sets, progress=msgs.append)
    assert (
        "bible_genres: no zh (its only Chinese edition, the New Chinese Version 1992, is copyrighted); going on with the other languages"
        in msgs
    )
    assert done["bible_genres"]["langs"] == ["en", "fr"] and "zh" in done["bible_genres"]["missing"]
    assert set(done["bible_paraphrase"]["missing"]) == {"zh"}  # fr has three editions
    # the fake apt lists have no Translation-zh_CN file: known only once fetched
    assert done["ddtp_sections"]["missing"] == {"zh": "Debian publishes no Translation-zh_CN file"}
    assert not (out / "classify/bible-genres/test.zh.tsv").exists()
    assert (out / "classify/bible-genres/test.fr.tsv").is_file()
    msgs.clear()
    fetch_eval_sets(out, cache, langs=("fr", "zh"), sets=sets, progress=msgs.append)
    assert all("already extracted" in m for m in msgs), msgs  # what is missing is not redone every time
