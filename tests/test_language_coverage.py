"""A recipe that reads ``{data_dir}/prepared/*`` trains on whatever that folder holds (issue 41, item 8):
after the quickstart, 4 of the 13 languages, and the "13-language" student came out knowing 4 with no word.
The run says which supported languages (``lingualite.text.languages``) have no prepared data and how to prepare
them, and the model card and the run summary record the languages trained on."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

from lingualite.data.pairs import expand_files, language_coverage
from lingualite.text.languages import CORE


def _prepared(root: Path, corpus: Path, pairs: tuple[str, ...]) -> Path:
    for pair in pairs:
        (root / "prepared" / pair).mkdir(parents=True)
        shutil.copy(corpus / "en-fr" / "train.tsv", root / "prepared" / pair / "train.tsv")
    return root


def test_coverage_names_the_missing_languages_and_the_commands(
    synthetic_corpus: Path, tmp_path: Path
) -> None:
    root = _prepared(tmp_path / "data", synthetic_corpus, ("en-fr", "en-de"))
    patterns = [f"{root}/prepared/*/train.tsv"]
    coverage = language_coverage(patterns, expand_files(patterns, "training"))
    assert coverage["languages"] == ["de", "en", "fr"]
    # the default languages (the 13 of the shipped models) that are not there, not the 34 supported ones
    assert coverage["missing"] == [c for c in CORE if c not in ("en", "fr", "de")]
    message = coverage["message"]
    missing = ",".join(coverage["missing"])
    assert f"lingualite data fetch --data-dir {root} --langs {missing}" in message
    assert f"lingualite prepare {root}/corpora/libreoffice/en-es.tsv" in message
    assert f"--out {root}/prepared/en-es" in message
    # files named one by one are the user's choice: nothing is missing
    chosen = [str(root / "prepared" / "en-fr" / "train.tsv")]
    assert language_coverage(chosen, expand_files(chosen, "training"))["missing"] == []


def test_a_training_run_warns_and_records_its_languages(
    synthetic_corpus: Path, tmp_path: Path, tiny_parallel_config, one_torch_thread, caplog
) -> None:
    from lingualite.recipes.parallel.train_parallel import train_parallel

    root = _prepared(tmp_path / "data", synthetic_corpus, ("en-fr",))
    cfg = tiny_parallel_config(valid=False, max_steps=2)
    cfg.data.train_files = [f"{root}/prepared/*/train.tsv"]
    with caplog.at_level(logging.WARNING, logger="lingualite"):
        train_parallel(cfg, tmp_path / "run", progress=False, validate=False)
    assert "no prepared data for" in caplog.text and "lingualite prepare" in caplog.text
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["languages"]["trained_on"] == ["en", "fr"]
    assert "de" in summary["languages"]["missing"]
    card = (tmp_path / "run" / "README.md").read_text()
    assert "- Languages: en, fr" in card and "no prepared data" in card and "de, es" in card
