"""The lazy top-level API: every advertised name resolves, and ``import lingualite`` stays light."""

from __future__ import annotations

import importlib
import subprocess
import sys

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
