"""fetch_corpora: runs each source, skips unavailable ones with a message, is idempotent."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace

import pytest

import lingualite.data.sources as sources
from lingualite.core.errors import ConfigError
from lingualite.data.sources.common import SourceUnavailableError, output_path, write_pairs


class FakeSource:
    """Stands in for a source module; records calls."""

    def __init__(self, name: str, fail: bool = False) -> None:
        self.name = name
        self.fail = fail
        self.calls: list[str] = []

    def fetch(self, cache_dir: Path, langs: Sequence[str]) -> Path:
        self.calls.append("fetch")
        if self.fail:
            raise SourceUnavailableError("apt-get not found on PATH; it is needed to download packages")
        return cache_dir

    def extract(self, raw: Path, out_dir: Path, langs: Sequence[str]) -> dict[str, int]:
        self.calls.append("extract")
        return {
            lang: write_pairs(output_path(out_dir, self.name, lang), [("one two three", f"{lang} a b", "d")])
            for lang in langs
        }


def test_registry_and_licences_cover_every_source() -> None:
    assert set(sources.SOURCES) == {
        "libreoffice",
        "bible",
        "ddtp",
        "libreoffice-ui",
        "mozilla-ui",
        "monolingual",
        "lexicon",
        "games",
        "handbook",
        "emacs-tutorial",
        "klavaro",
        "korean-law",
        "cldr",
        "tuxpaint",
        "gnome-help",
        "install-guide",
        "freedict",
        "gimp-help",
    }
    assert sources.DEFAULT_SOURCES == ("libreoffice", "bible", "ddtp")  # libreoffice-ui, monolingual: opt-in
    assert set(sources.LICENCES) == set(sources.SOURCES) == set(sources.DESCRIPTIONS)
    for module in sources.SOURCES.values():
        assert callable(module.fetch) and callable(module.extract)


def test_fetch_corpora_skips_unavailable_and_is_idempotent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good, bad = FakeSource("bible"), FakeSource("ddtp", fail=True)
    monkeypatch.setitem(sources.SOURCES, "bible", good)
    monkeypatch.setitem(sources.SOURCES, "ddtp", bad)
    msgs: list[str] = []
    out = tmp_path / "corpora"
    got = sources.fetch_corpora(out, langs=("fr", "it"), sources=("bible", "ddtp"), progress=msgs.append)
    assert got == {"bible": {"fr": 1, "it": 1}}
    assert (out / "bible" / "en-fr.tsv").read_text() == "one two three\tfr a b\td\n"
    assert json.loads((out / "bible" / "SOURCE.json").read_text())["pairs"] == {"fr": 1, "it": 1}
    assert any("ddtp: SKIPPED" in m and "apt-get not found" in m for m in msgs)
    assert good.calls == ["fetch", "extract"]

    msgs.clear()
    again = sources.fetch_corpora(out, langs=("fr", "it"), sources=("bible",), progress=msgs.append)
    assert again == got
    assert good.calls == ["fetch", "extract"]  # not redone
    assert "already extracted" in msgs[0]

    sources.fetch_corpora(out, langs=("fr",), sources=("bible",), progress=msgs.append, force=True)
    assert good.calls == ["fetch", "extract", "fetch", "extract"]


def test_fetch_corpora_default_cache_and_print(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[Path] = []
    fake = SimpleNamespace(
        fetch=lambda cache_dir, langs: seen.append(cache_dir) or cache_dir,
        extract=lambda raw, out_dir, langs: {lang: 0 for lang in langs},
    )
    monkeypatch.setitem(sources.SOURCES, "libreoffice", fake)
    assert sources.fetch_corpora(tmp_path, langs=("de",), sources=("libreoffice",)) == {
        "libreoffice": {"de": 0}
    }
    assert seen == [tmp_path / ".cache" / "libreoffice"]
    assert "libreoffice:" in capsys.readouterr().out


def test_fetch_corpora_rejects_unknown_names(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown source"):
        sources.fetch_corpora(tmp_path, sources=("wikipedia",))
    with pytest.raises(ConfigError, match="unsupported language"):
        sources.fetch_corpora(tmp_path, langs=("xx",))


class PartialSource(FakeSource):
    """A source without Dutch (known before fetching) and without Turkish (found in the fetched data)."""

    def lacking(self, langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
        if raw is None:
            return {lang: "no Dutch edition" for lang in langs if lang == "nl"}
        return {lang: "no Turkish file" for lang in langs if lang == "tr"}


def test_a_source_lacking_languages_says_so_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import inspect

    from lingualite.text.languages import CORE_TRANSLATION_LANGS, TRANSLATION_LANGS

    assert sources.ALL_LANGS == TRANSLATION_LANGS  # every language of the registry may be asked for
    # ... but a fetch that names none asks for the 12 of the shipped models, as before issue #43
    assert sources.DEFAULT_LANGS == CORE_TRANSLATION_LANGS and len(CORE_TRANSLATION_LANGS) == 12
    assert inspect.signature(sources.fetch_corpora).parameters["langs"].default == CORE_TRANSLATION_LANGS
    partial = PartialSource("bible")
    monkeypatch.setitem(sources.SOURCES, "bible", partial)
    msgs: list[str] = []
    out = tmp_path / "corpora"
    got = sources.fetch_corpora(out, langs=("zh", "nl", "tr"), sources=("bible",), progress=msgs.append)
    assert got == {"bible": {"zh": 1}}
    assert "bible: no en-nl (no Dutch edition); going on with the other languages" in msgs
    assert "bible: no en-tr (no Turkish file); going on with the other languages" in msgs
    meta = json.loads((out / "bible" / "SOURCE.json").read_text())
    assert meta["pairs"] == {"zh": 1} and meta["missing"] == {
        "nl": "no Dutch edition",
        "tr": "no Turkish file",
    }
    assert not (out / "bible" / "en-nl.tsv").exists()

    msgs.clear()  # a second run knows both from SOURCE.json: nothing is fetched again
    assert (
        sources.fetch_corpora(out, langs=("zh", "nl", "tr"), sources=("bible",), progress=msgs.append) == got
    )
    assert partial.calls == ["fetch", "extract"] and any("already extracted" in m for m in msgs)
    sources.fetch_corpora(out, langs=("ja",), sources=("bible",), progress=msgs.append)
    meta = json.loads((out / "bible" / "SOURCE.json").read_text())
    assert meta["pairs"] == {"zh": 1, "ja": 1} and set(meta["missing"]) == {"nl", "tr"}  # earlier runs kept

    msgs.clear()
    assert sources.fetch_corpora(out, langs=("nl",), sources=("bible",), progress=msgs.append) == {}
    assert msgs[-1] == "bible: SKIPPED, it has none of the languages asked for"
