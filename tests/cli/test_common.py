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
