"""Smoke runs: the caps are applied to plain config keys, reported, validated, and never raise a value."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingualite.config import load_distill_config, load_monolingual_config, load_training_config
from lingualite.training.smoke import SMOKE_CAPS, smoke_banner, smoke_config

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier


@pytest.mark.parametrize(
    "loader, name",
    [
        (load_training_config, "quickstart"),
        (load_training_config, "paper"),
        (load_distill_config, "distill"),
        (load_monolingual_config, "monolingual"),
    ],
)
def test_every_shipped_config_gets_its_caps(loader, name: str) -> None:
    cfg = loader(name)
    capped, changes = smoke_config(cfg)
    caps = SMOKE_CAPS[cfg.mode]
    for dotted, cap in caps.items():
        section, key = dotted.split(".")
        before, after = getattr(getattr(cfg, section), key), getattr(getattr(capped, section), key)
        assert after <= cap and (before is None or after <= before), dotted
        assert (f"{dotted} " in " ".join(changes)) == (before is None or before > cap), dotted
    assert capped is not cfg and type(capped) is type(cfg)  # the caller's config is untouched
    assert "undertrained" in smoke_banner(changes)


def test_values_below_the_caps_are_kept(tmp_path: Path) -> None:
    cfg = load_training_config("quickstart")
    cfg.optim.max_steps = 10
    capped, changes = smoke_config(cfg)
    assert capped.optim.max_steps == 10 and not any(c.startswith("optim.max_steps") for c in changes)


def test_epochs_give_way_to_the_step_cap() -> None:
    cfg = load_distill_config("distill")
    cfg.optim.epochs, cfg.optim.max_steps = 5.0, None
    capped, changes = smoke_config(cfg)
    assert capped.optim.epochs is None and capped.optim.max_steps == SMOKE_CAPS["distill"]["optim.max_steps"]
    assert any("epochs" in c for c in changes)


def test_smoke_training_writes_a_marked_card(tiny_parallel_config, tmp_path: Path) -> None:
    from lingualite.recipes.parallel.train_parallel import train_parallel as train

    cfg = tiny_parallel_config(valid=False, max_steps=400, log_every=50)
    result = train(cfg, tmp_path / "run", progress=False, smoke=True)
    assert result.steps == SMOKE_CAPS["parallel"]["optim.max_steps"]  # 400 capped to 150
    card = (tmp_path / "run" / "README.md").read_text()
    assert "**Smoke run**" in card and "optim.max_steps 400 -> 150" in card
    saved = (tmp_path / "run" / "config.yaml").read_text()
    assert "max_steps: 150" in saved  # the capped config is the run's config: a full resume is refused
