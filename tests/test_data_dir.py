"""Shipped configs read ``{data_dir}/prepared/...``: the data directory comes from an option or the
environment, not from the current directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingualite.config import (
    ParallelConfig,
    load_distill_config,
    load_monolingual_config,
    load_training_config,
)
from lingualite.config.parsing import DATA_DIR_ENV, with_data_dir
from lingualite.data.pairs import expand_files

LOADERS = [
    (load_training_config, "quickstart"),
    (load_training_config, "paper"),
    (load_distill_config, "distill"),
    (load_monolingual_config, "monolingual"),
]


@pytest.mark.parametrize("loader, name", LOADERS)
def test_shipped_configs_resolve_against_the_data_dir(loader, name: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    assert loader(name).data.train_files[0] == "data/prepared/*/train.tsv"
    assert loader(name, tmp_path).data.valid_files == [f"{tmp_path}/prepared/*/valid.tsv"]
    monkeypatch.setenv(DATA_DIR_ENV, "/srv/corpora")
    assert all(f.startswith("/srv/corpora/prepared") for f in loader(name).data.train_files)
    assert loader(name, tmp_path).data.train_files[0] == f"{tmp_path}/prepared/*/train.tsv"  # the option wins


def test_a_user_config_without_the_placeholder_is_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("data:\n  train_files: [corpus/a.tsv]\n  valid_files: []\n")
    assert load_training_config(path, "/elsewhere").data.train_files == ["corpus/a.tsv"]


def test_defaults_and_globs_resolve_from_any_directory(tmp_path: Path, monkeypatch) -> None:
    prepared = tmp_path / "d" / "prepared" / "en-fr"
    prepared.mkdir(parents=True)
    (prepared / "train.tsv").write_text("a b c\tx y z\n")
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "d"))
    assert expand_files(ParallelConfig().data.train_files, "training") == [prepared / "train.tsv"]
    assert with_data_dir(ParallelConfig(), tmp_path / "d").data.train_files == [
        f"{tmp_path}/d/prepared/*/train.tsv"
    ]


def test_cli_data_dir_option_reaches_the_config(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from lingualite.cli.main import app

    result = CliRunner().invoke(
        app,
        [
            "train",
            "--config",
            "quickstart",
            "--data-dir",
            str(tmp_path / "nowhere"),
            "--output",
            str(tmp_path / "o"),
        ],
    )
    assert result.exit_code == 2
    assert f"{tmp_path}/nowhere/prepared/*/train.tsv: no training file matches" in result.output
