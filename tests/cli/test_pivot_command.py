"""``lingualite data pivot``: non-English held-out pairs from the prepared en-xx folders of a data dir, and the
defaults of ``data fetch`` / ``data eval-sets`` (every supported language)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.data.cleaning import CleaningConfig
from lingualite.data.prepare import prepare_corpus
from lingualite.data.split import SplitConfig
from lingualite.text.languages import CORE_TRANSLATION_LANGS, TRANSLATION_LANGS

WORD = {"zh": "文档", "ru": "документ"}

runner = CliRunner()


def _data_dir(tmp_path: Path) -> Path:
    """prepared/en-zh and prepared/en-ru: the same 90 English units in 30 documents, translated."""
    for lang, word in WORD.items():
        corpus = tmp_path / f"{lang}.tsv"
        corpus.write_text(
            "".join(
                f"Open document {d} and check item {i} now.\t{word} {d} {word} {i} {word} {d * 3 + i}\tlo:p{d}\n"
                for d in range(30)
                for i in range(3)
            ),
            encoding="utf-8",
        )
        split = SplitConfig(valid_fraction=0.3, test_fraction=0.3)
        out = tmp_path / "data" / "prepared" / f"en-{lang}"
        prepare_corpus([corpus], "en", lang, out, CleaningConfig(lang_id=False), split, progress=False)
    return tmp_path / "data"


def test_data_pivot_writes_each_pair_into_the_data_dir(tmp_path: Path) -> None:
    data = _data_dir(tmp_path)
    result = runner.invoke(app, ["data", "pivot", "zh-ru", "ru-zh", "--data-dir", str(data), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["prepared"] == str(data / "prepared") and out["out"] == str(data / "prepared-pivot")
    assert not (data / "prepared" / "zh-ru").exists()  # outside the recipes' prepared/*/ globs
    assert set(out["pairs"]) == {"zh-ru valid", "zh-ru test", "ru-zh valid", "ru-zh test"}
    for name in ("zh-ru", "ru-zh"):
        lines = (data / "prepared-pivot" / name / "test.tsv").read_text(encoding="utf-8").splitlines()
        assert len(lines) == out["pairs"][f"{name} test"]["kept"] > 0
    first = (data / "prepared-pivot" / "ru-zh" / "test.tsv").read_text(encoding="utf-8").splitlines()[0]
    assert first.split("\t")[0].startswith("документ")  # ru first, as asked
    result = runner.invoke(
        app, ["data", "pivot", "zh-ru", "--data-dir", str(data), "--output", str(tmp_path / "pv")]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "pv" / "zh-ru" / "test.tsv").read_text() == (
        data / "prepared-pivot/zh-ru/test.tsv"
    ).read_text()


def test_data_pivot_errors_are_one_line(tmp_path: Path) -> None:
    data = _data_dir(tmp_path)
    for args, message in (
        (["zh-xx"], "unsupported language"),
        (["zh"], "expected SRC-TGT"),
        (["zh-ja"], "en-ja/stats.json: not found"),
        (["zh-ru", "--splits", "train"], "only held-out splits"),
    ):
        result = runner.invoke(app, ["data", "pivot", *args, "--data-dir", str(data)])
        assert result.exit_code == 2, result.output
        assert message in result.output and "Traceback" not in result.output


def test_fetch_and_eval_sets_default_to_the_shipped_models_languages() -> None:
    """The 12 of the shipped models (languages.CORE), not the 33 any of which may be named."""
    for command in (["data", "fetch", "--help"], ["data", "eval-sets", "--help"]):
        result = runner.invoke(app, command, env={"COLUMNS": "400"})
        assert ",".join(CORE_TRANSLATION_LANGS) in result.output
        assert ",".join(TRANSLATION_LANGS) not in result.output
