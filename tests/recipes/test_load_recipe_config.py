"""load_recipe_config: a run folder's saved config re-read by a newer version says which keys it lacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingualite.config import load_distill_config
from lingualite.models.run_folder import RunFolder
from lingualite.recipes import load_recipe_config


def _saved_without_ranked_files(folder: Path) -> Path:
    saved = load_distill_config("distill").to_dict()
    del saved["data"]["ranked_monolingual_files"]  # a run from before the key existed
    run = RunFolder(folder)
    run.write_config(saved)
    return run.config_path


def test_an_old_runs_config_warns_of_the_defaults_it_takes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _saved_without_ranked_files(tmp_path / "run")
    RunFolder(path.parent).write_summary({"steps": 10})
    with caplog.at_level("WARNING"):
        cfg = load_recipe_config(str(path), tmp_path / "data")
    assert cfg.data.ranked_monolingual_files == [f"{tmp_path / 'data'}/corpora/lexicon/*.txt"]
    assert "predates 1 key(s)" in caplog.text and "data.ranked_monolingual_files" in caplog.text


def test_a_config_outside_a_run_folder_is_read_without_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _saved_without_ranked_files(tmp_path / "configs")  # a hand-kept file: omitted keys are defaults
    with caplog.at_level("WARNING"):
        load_recipe_config(str(path))
    assert "predates" not in caplog.text
