"""What every command shares (lingualite.cli.common)."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from lingualite.cli.main import app

runner = CliRunner()


def command_paths(command: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command of the tree, as the words that call it (groups included)."""
    paths = [path]
    for name, sub in getattr(command, "commands", {}).items():  # a group (typer bundles its own click)
        paths += command_paths(sub, (*path, name))
    return paths


@pytest.mark.slow
def test_no_help_prints_a_type_after_a_plain_flag() -> None:
    """`--normalize`, not `--normalize <bool>`: a flag takes no value (hide_flag_types, for every command)."""
    paths = command_paths(typer.main.get_command(app))
    assert len(paths) > 25 and ("encode",) in paths and ("index", "build") in paths
    for path in paths:
        result = runner.invoke(app, [*path, "--help"], terminal_width=200)
        assert result.exit_code == 0, (path, result.output)
        assert "<bool>" not in result.output, path
    encode = runner.invoke(app, ["encode", "--help"], terminal_width=200).output
    assert "--normalize" in encode and "<path>" in encode  # flags listed; other options keep their type


def test_emit_prints_no_empty_table_and_one_format_per_column(capsys: Any) -> None:
    """`models list`, `reproduce --list`: no scalars, so no empty metric/value table first; a column of sizes
    reads 7.9 beside 11.2, not 7.9000 beside 11.2."""
    from lingualite.cli.common import emit

    emit({"models": {"a": {"MB": 7.9, "p@1": 0.1234}, "b": {"MB": 11.2, "p@1": 0.5}}}, "Packaged", False)
    out = capsys.readouterr().out
    assert "metric" not in out and "value" not in out, out
    assert "7.9000" not in out and " 7.9 " in out and " 11.2 " in out, out
    assert "0.1234" in out and "0.5000" in out, out  # a column of small numbers keeps its 4 decimals


def test_models_list_and_reproduce_list_start_with_their_table() -> None:
    for args in (["models", "list"], ["reproduce", "--list"]):
        out = CliRunner().invoke(app, args).output
        assert "┃ metric ┃" not in out.splitlines()[2], out[:500]


def test_own_train_files_leave_the_shipped_untranslated_text_out(capsys) -> None:
    from lingualite.cli.common import with_data_files
    from lingualite.config import load_distill_config

    cfg = with_data_files(load_distill_config("distill"), ["mine.tsv"], None)
    assert cfg.data.train_files == ["mine.tsv"] and cfg.data.monolingual_files == []
    assert "data.monolingual_files are left out" in capsys.readouterr().err
    cfg = with_data_files(load_distill_config("distill"), None, ["v.tsv"])
    assert cfg.data.monolingual_files and cfg.data.valid_files == ["v.tsv"]
