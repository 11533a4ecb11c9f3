"""``lingualite data fetch --for distill``: the one command that makes the shipped distill configs' data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.reproduce import distill_data

runner = CliRunner()


def test_for_distill_prepares_through_the_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def fake(data_dir: Path, langs: tuple[str, ...], console, no_lang_id: bool = False) -> dict:
        calls.append((data_dir, langs))
        console.print("preparing")
        return {"prepared": [data_dir / "prepared" / "en-fr"], "prepared-ui": []}

    monkeypatch.setattr(distill_data, "prepare_distill_data", fake)
    args = ["data", "fetch", "--for", "distill", "--langs", "fr", "--data-dir", str(tmp_path), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert calls == [(tmp_path, ("fr",))]
    assert json.loads(result.stdout.splitlines()[-1]) == {
        "data_dir": str(tmp_path),
        "prepared": 1,
        "prepared-ui": 0,
    }


@pytest.mark.parametrize(
    "extra, message",
    [(["--for", "quickstart"], "expected distill"), (["--for", "distill", "--langs", "xx"], "unsupported")],
)
def test_for_refuses_what_it_cannot_do(tmp_path: Path, extra: list[str], message: str) -> None:
    result = runner.invoke(app, ["data", "fetch", "--data-dir", str(tmp_path), *extra])
    assert result.exit_code != 0 and message in result.output


def test_langs_all_means_every_supported_language_for_any_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lingualite.data import sources
    from lingualite.text.languages import TRANSLATION_LANGS

    asked: list[tuple[str, ...]] = []

    def fake(out, langs, sources, cache_dir, progress, force):
        asked.append(langs)
        return {"lexicon": {lang: 1 for lang in langs}}

    monkeypatch.setattr(sources, "fetch_corpora", fake)
    args = ["data", "fetch", "--sources", "lexicon", "--langs", "all", "--data-dir", str(tmp_path)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert asked == [tuple(TRANSLATION_LANGS)]
