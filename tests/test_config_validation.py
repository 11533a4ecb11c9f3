"""Every numeric and every choice field of every shipped config: a bad value is a one-line ConfigError naming
the key, at load time (one loader, :func:`lingualite.config.load_config`, for every recipe)."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any

import pytest
import yaml

from lingualite.config import load_config, load_training_config
from lingualite.config.parsing import BUILTIN_CONFIGS
from lingualite.core.errors import ConfigError

SHIPPED = sorted(p.stem for p in BUILTIN_CONFIGS.glob("*.yaml"))
LOADERS = dict.fromkeys(SHIPPED, load_config)


def _numeric_fields(config: Any, prefix: str = "", lists: bool = False) -> list[tuple[str, Any]]:
    """Dotted names of every int/float field (including ones left at their default), recursively; with
    ``lists``, of every list-of-numbers field (``matryoshka_dims``) instead."""
    found = []
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if dataclasses.is_dataclass(value):
            found += _numeric_fields(value, f"{prefix}{f.name}.", lists)
        elif ("int" in str(f.type) or "float" in str(f.type)) and ("list[" in str(f.type)) == lists:
            found.append((f"{prefix}{f.name}", value))  # "int | None" fields too, when left None
    return found


def _set(data: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(data)
    *path, last = dotted.split(".")
    node = data
    for key in path:
        node = node.setdefault(key, {})
    node[last] = value
    return data


CASES = [(name, key) for name, load in LOADERS.items() for key, _ in _numeric_fields(load(name))]


@pytest.mark.parametrize("name, key", CASES, ids=[f"{n}:{k}" for n, k in CASES])
@pytest.mark.parametrize(
    "bad", [-3, float("nan"), float("inf"), "ten", [1]], ids=["neg", "nan", "inf", "str", "list"]
)
def test_every_numeric_field_rejects_bad_values(name: str, key: str, bad: Any, tmp_path: Path) -> None:
    data = yaml.safe_load((BUILTIN_CONFIGS / f"{name}.yaml").read_text())
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(_set(data, key, bad)))
    with pytest.raises(ConfigError) as info:
        LOADERS[name](path)
    message = str(info.value)
    assert "\n" not in message and key.split(".")[-1] in message


LIST_CASES = [(n, k) for n, load in LOADERS.items() for k, _ in _numeric_fields(load(n), lists=True)]


@pytest.mark.parametrize("name, key", LIST_CASES, ids=[f"{n}:{k}" for n, k in LIST_CASES])
@pytest.mark.parametrize(
    "bad",
    [5, [-3], [float("nan")], [float("inf")], ["ten"], []],
    ids=["scalar", "neg", "nan", "inf", "str", "empty"],
)
def test_every_list_of_numbers_rejects_bad_values(name: str, key: str, bad: Any, tmp_path: Path) -> None:
    data = yaml.safe_load((BUILTIN_CONFIGS / f"{name}.yaml").read_text())
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(_set(data, key, bad)))
    with pytest.raises(ConfigError) as info:
        LOADERS[name](path)
    message = str(info.value)
    assert "\n" not in message and key.split(".")[-1] in message and str(path) in message


def test_matryoshka_dims_are_checked_against_the_models_dimension(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    for name, value, match in [
        ("distill", [256, 64], r"c.yaml.matryoshka_dims: 256 is above the model's dimension 128 \(pca.dim\)"),
        ("distill", [64, 128], r"c.yaml.matryoshka_dims: must be strictly descending"),
        (
            "quickstart",
            [512],
            r"c.yaml.matryoshka_dims: 512 is above the model's dimension 256 \(model.hidden",
        ),
        ("quickstart", [256, 0], r"c.yaml.matryoshka_dims: every dimension must be >= 1"),
    ]:
        data = yaml.safe_load((BUILTIN_CONFIGS / f"{name}.yaml").read_text())
        path.write_text(yaml.safe_dump({**data, "matryoshka_dims": value}))
        with pytest.raises(ConfigError, match=match):
            load_config(path)
    data = yaml.safe_load((BUILTIN_CONFIGS / "distill.yaml").read_text())
    path.write_text(yaml.safe_dump({**data, "matryoshka_dims": [128, 64], "matryoshka_weights": [1.0]}))
    with pytest.raises(ConfigError, match=r"c.yaml.matryoshka_weights: 1 weight\(s\) for 2 matryoshka_dims"):
        load_config(path)
    path.write_text(
        yaml.safe_dump({**data, "matryoshka_dims": [128, 64, 32], "matryoshka_weights": [1, 1, 0.5]})
    )
    assert load_config(path).matryoshka_dims == [128, 64, 32]


def _choice_fields(config: Any, prefix: str = "") -> list[str]:
    """Dotted names of every Literal (one-of) field, recursively; ``mode`` names the recipe itself."""
    found = []
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if dataclasses.is_dataclass(value):
            found += _choice_fields(value, f"{prefix}{f.name}.")
        elif "Literal" in str(f.type) and f.name != "mode":
            found.append(f"{prefix}{f.name}")
    return found


CHOICES = [(name, key) for name in SHIPPED for key in _choice_fields(load_config(name))]


@pytest.mark.parametrize("name, key", CHOICES, ids=[f"{n}:{k}" for n, k in CHOICES])
def test_every_choice_field_rejects_an_unknown_value(name: str, key: str, tmp_path: Path) -> None:
    data = yaml.safe_load((BUILTIN_CONFIGS / f"{name}.yaml").read_text())
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(_set(data, key, "bogus")))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert "\n" not in str(info.value) and f"{key}: 'bogus' is not one of" in str(info.value)


def test_every_shipped_config_names_its_recipe(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("WARNING", logger="lingualite.config.parsing"):
        modes = {name: load_config(name).mode for name in SHIPPED}
    assert caplog.records == []  # written with today's key names: no renamed key to warn about
    assert modes == {
        "distill": "distill",
        "distill-all": "distill",
        "distill-static": "distill",
        "distill-ranker": "distill",
        "monolingual": "monolingual",
        "monolingual-paper": "monolingual",
        "paper": "parallel",
        "quickstart": "parallel",
    }
    for name in SHIPPED:
        assert yaml.safe_load((BUILTIN_CONFIGS / f"{name}.yaml").read_text())["mode"] == modes[name]


def test_the_issue_examples(tmp_path: Path) -> None:
    data = yaml.safe_load((BUILTIN_CONFIGS / "quickstart.yaml").read_text())
    for key, value, match in [
        ("optim.warmup_steps", -10, "optim.warmup_steps: must be >= 0"),
        ("optim.grad_clip", -1, "optim.grad_clip: must be >= 0"),
        ("vocabulary.alpha", -3, "vocabulary.alpha: must be >= 0"),
        ("vocabulary.alpha", 1.5, "vocabulary.alpha: must be <= 1"),
    ]:
        path = tmp_path / "c.yaml"
        path.write_text(yaml.safe_dump(_set(data, key, value)))
        with pytest.raises(ConfigError, match=match):
            load_training_config(path)


def test_a_bad_alpha_under_its_old_name_is_named_at_load_time(tmp_path: Path) -> None:
    """The issue's example: ``tokenizer.alpha`` (the old name) in a parallel config once loaded without
    complaint and failed later in tokenization/sampling.py; now it is read as vocabulary.alpha and refused."""
    path = tmp_path / "old.yaml"
    path.write_text("tokenizer:\n  alpha: 1.5\n")
    with pytest.raises(ConfigError, match=r"old.yaml.vocabulary.alpha: must be <= 1, got 1.5"):
        load_training_config(path)
