"""``lingualite models list`` and the guard of ``models build``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lingualite.cli.main import app

runner = CliRunner()


def test_list_names_both_models_and_where_they_are() -> None:
    pytest.importorskip("lingualite_models", reason="pip install ./packages/lingualite-models")
    result = runner.invoke(app, ["models", "list", "--json"])
    assert result.exit_code == 0, result.output
    models = json.loads(result.stdout)["models"]
    assert set(models) == {"lingualite-small", "lingualite-static"}
    for row in models.values():
        assert Path(row["folder"]).is_dir() and row["MB"] > 1


def test_build_refuses_an_out_whose_parent_is_missing(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["models", "build", "--output", str(tmp_path / "no" / "such"), "--work", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert "no such folder" in result.output
    assert not (tmp_path / "no").exists()
