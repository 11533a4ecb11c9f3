"""Smoke runs: the same recipe on capped data, steps and evaluation, so a first try finishes in minutes.

``--smoke`` (quickstart, train, distill) lowers a handful of config values to at most the caps below and
says which, so a user sees what ran. Every capped value is a plain config key: a smoke run is exactly the
run of the printed config, nothing is special-cased inside the recipes. A smoke model is a working model of
the right format, trained too briefly to be good: its numbers are not the recipe's.

Caps were sized on 2 CPU cores (the measured times are in docs/research/quickstart.md): parallel training and
distillation each finish in under 3 minutes once the data is prepared.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from lingualite.config.parsing import from_dict

T = TypeVar("T")

# Per recipe (the config's mode): dotted key -> the most a smoke run uses.
SMOKE_CAPS: dict[str, dict[str, int | float]] = {
    "parallel": {  # paper 000, parallel pairs
        "data.max_train_pairs": 20_000,
        "data.valid_pairs": 200,
        "vocabulary.size": 4_000,
        "vocabulary.sample_size": 20_000,
        "optim.max_steps": 150,
        "optim.warmup_steps": 15,
        "optim.eval_every": 150,
        "optim.save_every": 150,
        "optim.batch_size": 64,
    },
    "distill": {  # paper 002: the teacher encodes ~3k English sentences instead of ~79k
        "data.max_train_pairs": 4_000,
        "data.valid_pairs": 100,
        "vocabulary.size": 8_000,
        "vocabulary.sample_size": 40_000,
        "pca.fit_sentences": 4_000,
        "optim.max_steps": 200,
        "optim.eval_every": 200,
        "optim.save_every": 200,
    },
    "monolingual": {  # paper 001: both stages, one short iteration
        "data.max_sentences_per_language": 3_000,
        "data.valid_pairs": 300,
        "vocabulary.size": 4_000,
        "vocabulary.sample_size": 20_000,
        "classification.max_steps": 100,
        "mining.sample_size": 300,
        "mining.pool_size": 1_000,
        "mining.target_pairs": 1_000,
        "mining.iterations": 1,
        "regression.max_steps": 50,
    },
}


def smoke_config(cfg: T) -> tuple[T, list[str]]:
    """``cfg`` with its recipe's smoke caps applied (validated again), and one line per changed value.

    A value already below its cap is kept; ``None`` (no limit) takes the cap."""
    caps = SMOKE_CAPS.get(getattr(cfg, "mode", ""))
    if caps is None:
        raise TypeError(f"no smoke caps for {type(cfg).__name__}")
    data: dict[str, Any] = dataclasses.asdict(cfg)  # type: ignore[call-overload]
    changes: list[str] = []
    for dotted, cap in caps.items():
        section, key = dotted.split(".")
        old = data[section][key]
        if old is None or old > cap:
            data[section][key] = cap
            changes.append(f"{dotted} {'unlimited' if old is None else f'{old:,}'} -> {cap:,}")
    if "optim" in data and data["optim"].get("epochs") is not None and "optim.max_steps" in caps:
        data["optim"]["epochs"] = None  # distillation: an epoch count would override the step cap
        changes.append("optim.epochs -> unset (the step cap rules)")
    return from_dict(type(cfg), data, "smoke config"), changes


def smoke_banner(changes: list[str]) -> str:
    """The line a smoke run prints first: what was capped, and that its numbers are not the recipe's."""
    capped = "; ".join(changes) if changes else "nothing (the config is already within the caps)"
    return (
        f"smoke run, capped: {capped}. A quick check that everything works; the model is undertrained and its "
        "numbers are not the recipe's."
    )
