"""The lazy top-level API: every advertised name resolves, and ``import lingualite`` stays light."""

from __future__ import annotations

import importlib
import subprocess
import sys
from typing import Any

import pytest

import lingualite


def test_every_api_name_resolves() -> None:
    for name in lingualite.__all__:
        assert getattr(lingualite, name) is not None


def test_import_does_not_load_torch() -> None:
    code = "import sys, lingualite; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_import_sets_no_environment_variables() -> None:
    code = "import os; before = dict(os.environ); import lingualite; print(dict(os.environ) == before)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True"


def test_the_api_is_one_list() -> None:
    assert set(lingualite.__all__) == {*lingualite._API, "__version__"}
    for name, module in lingualite._API.items():
        assert name in vars(importlib.import_module(module)), f"{module} does not define {name}"


def test_old_names_still_resolve_with_a_deprecation_warning() -> None:
    with pytest.warns(DeprecationWarning, match="train_distill"):
        assert lingualite.distill is lingualite.train_distill
    with pytest.warns(DeprecationWarning, match="ParallelConfig"):
        assert lingualite.TrainingConfig is lingualite.ParallelConfig
    from lingualite import config

    with pytest.warns(DeprecationWarning, match="ParallelConfig"):
        assert config.TrainingConfig is config.ParallelConfig


def test_the_docstring_names_the_function_of_every_command() -> None:
    from typer.main import get_command

    from lingualite.cli.main import app

    def commands(group: Any, prefix: str = "") -> list[str]:
        found = []
        for name, command in group.commands.items():
            path = f"{prefix}{name}"
            found += commands(command, path + " ") if hasattr(command, "commands") else [path]
        return found

    doc = " ".join(lingualite.__doc__.split())
    for command in commands(get_command(app)):  # type: ignore[arg-type]
        group, _, leaf = command.rpartition(" ")
        named = f"``{command}``" in doc or (group and f"``{group} " in doc and leaf in doc)
        assert named, f"lingualite's docstring does not say which function `lingualite {command}` calls"
