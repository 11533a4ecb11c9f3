"""The config sections every recipe shares: data files, vocabulary, optimiser.

A recipe's config (:mod:`lingualite.config.parallel`, :mod:`~lingualite.config.distill`,
:mod:`~lingualite.config.monolingual`) is these sections plus its own; subclasses only change defaults or add
fields, so a key means the same thing in every recipe. Every number is range-checked at load time
(:func:`lingualite.config.parsing.from_dict`), so a bad value is a one-line error naming the key.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from lingualite.config.parsing import Range
from lingualite.core.errors import ConfigError
from lingualite.tokenization.alphabet import CHARACTER_COVERAGE


@dataclass
class DataConfig:
    """Parallel ``src<TAB>tgt[<TAB>doc_id]`` files (globs allowed; ``{data_dir}`` is the data directory).

    A file under a folder named like ``en-fr`` gets the language codes en / fr.

    :param train_files: what the model learns from.
    :param valid_files: held-out pairs for validation (never trained on).
    :param valid_pairs: held-out pairs per validation file (a seeded sample with unique sides: XSR needs one
        right answer per query).
    """

    train_files: list[str] = field(default_factory=lambda: ["{data_dir}/prepared/*/train.tsv"])
    valid_files: list[str] = field(default_factory=lambda: ["{data_dir}/prepared/*/valid.tsv"])
    valid_pairs: int = 500

    def validate(self) -> None:
        if not self.train_files:
            raise ConfigError("data.train_files must name at least one file or glob")


@dataclass
class PairDataConfig(DataConfig):
    """:param max_train_pairs: an equal seeded share of each training file (null: all pairs)."""

    RANGES: ClassVar[dict[str, Range]] = {"max_train_pairs": (0, None, True)}

    max_train_pairs: int | None = None


@dataclass
class VocabularyConfig:
    """A shared subword vocabulary trained on the training text, languages sampled with p_l ~ n_l^alpha
    (XLM; paper 002, Sec. 5.1), or an existing one (``path``).

    :param path: use this ``tokenizer.json`` / tokenizer folder instead of training one.
    :param kind: ``unigram`` (SentencePiece-style, paper 000) or ``wordpiece`` (paper 002).
    :param size: vocabulary size with the 5 special tokens; the embedding matrix has this many rows.
    :param alpha: language sampling exponent (1: raw shares, 0: every language the same share).
    :param sample_size: sentences drawn (with that distribution) to train the vocabulary.
    :param files: the text to sample from (null: the training files, all of their pairs; never validation
        or test text).
    :param lowercase: lowercase after NFKC normalisation.
    :param character_coverage: share of each language's characters (occurrences) the vocabulary's alphabet
        covers; the rarest characters become [UNK] (Chinese has thousands; see the Languages page).
    :param core_share: the 13 default languages' (``languages.CORE``) share of the sample when the text has
        other languages too (null: alpha alone decides); keeps their rows in a vocabulary of 34 languages.
    :param kana: ``characters``: every Hiragana/Katakana letter a pre-token of its own, as Han; ``runs``: a
        Kana run is one pre-token the sub-word model cuts (:mod:`lingualite.tokenization.segmentation`).
    :param alphabet_min_count: a character the drawn sample lacks but a language's whole text holds at
        least this many times joins the alphabet, with a sentence that holds it (null: the sample's
        characters only; a 5,000-sentence draw of Traditional Chinese misses 麵 and 樓, which stay [UNK]).
    :param min_script_share: each writing system's languages together get at least this share of the
        sample (a language's script: its first in ``languages``), taken from the others in proportion (null:
        none); a script only one language writes (e.g. Hebrew, Thai, Devanagari, Greek) has no other text
        to give it vocabulary rows. Applied after ``core_share``, which then becomes the 13's most.
    """

    RANGES: ClassVar[dict[str, Range]] = {
        "size": (15, 1_000_000, False),
        "alpha": (0, 1, False),
        "sample_size": (0, None, True),
        "character_coverage": (0, 1, True),
        "core_share": (0, 1, True),
        "alphabet_min_count": (1, None, False),
        "min_script_share": (0, 0.1, True),
    }

    path: str | None = None
    kind: Literal["unigram", "wordpiece"] = "unigram"
    size: int = 16_000
    alpha: float = 0.7
    sample_size: int = 300_000
    files: list[str] | None = None
    lowercase: bool = True
    character_coverage: float = CHARACTER_COVERAGE
    core_share: float | None = None
    kana: Literal["characters", "runs"] = "characters"
    alphabet_min_count: int | None = None
    min_script_share: float | None = None


@dataclass
class OptimConfig:
    """Adam, a linear warm-up from 0 to ``lr`` then a linear decay to 0 at the last step (the schedule of
    transformers' ``get_linear_schedule_with_warmup``, the same in every recipe).

    :param lr: the peak learning rate, reached at the end of the warm-up.
    :param batch_size: examples per optimiser step (translation pairs in the pair recipes).
    :param weight_decay: Adam's L2 weight decay (0: none).
    :param max_steps: optimiser steps (also the length of the schedule); ``epochs`` wins where a recipe
        knows its number of examples.
    :param epochs: passes over the training pairs, instead of ``max_steps`` (pair recipes only).
    :param warmup_ratio: warm-up steps as a share of all steps.
    :param warmup_steps: warm-up steps as a count; when set it wins over ``warmup_ratio`` (as in
        transformers' ``TrainingArguments``).
    :param grad_clip: clip the global gradient norm (0: off).
    :param bf16: bfloat16 autocast for the forward pass (weights and optimiser stay float32); null (the
        default): on when the run is on a CUDA GPU, off on a CPU (the saved config records the choice).
    :param gradient_checkpointing: recompute layer activations in the backward pass (less memory, ~30% slower).
    :param eval_every, save_every, log_every: validation, checkpoint and log-line cadence in steps (all also
        happen at the last step).
    :param keep_checkpoints: the newest checkpoints kept.
    """

    RANGES: ClassVar[dict[str, Range]] = {
        "lr": (0, None, True),
        "batch_size": (2, None, False),
        "max_steps": (1, None, False),
        "epochs": (0, None, True),
        "warmup_ratio": (0, 1, False),
        "grad_clip": (0, None, False),
        "eval_every": (1, None, False),
        "save_every": (1, None, False),
        "log_every": (1, None, False),
        "keep_checkpoints": (1, None, False),
    }

    lr: float = 1e-3
    batch_size: int = 128
    max_steps: int | None = 10_000
    epochs: float | None = None
    warmup_ratio: float = 0.05
    warmup_steps: int | None = None
    weight_decay: float = 0.0
    grad_clip: float = 1.0
    bf16: bool | None = None
    gradient_checkpointing: bool = False
    eval_every: int = 500
    save_every: int = 500
    log_every: int = 20
    keep_checkpoints: int = 2

    def validate(self) -> None:
        if self.max_steps is None and self.epochs is None:
            raise ConfigError("optim: set optim.max_steps or optim.epochs")
        if self.warmup_ratio >= 1:
            raise ConfigError(f"optim.warmup_ratio must be < 1, got {self.warmup_ratio}")

    def warmup(self, total_steps: int) -> int:
        """Warm-up steps of a run of ``total_steps``."""
        return self.warmup_steps if self.warmup_steps is not None else round(self.warmup_ratio * total_steps)


@dataclass
class PairOptimConfig(OptimConfig):
    """:param bucket_size: batches are cut from windows of ``batch_size * bucket_size`` pairs sorted by length
    (little padding)."""

    RANGES: ClassVar[dict[str, Range]] = {"bucket_size": (1, None, False)}

    bucket_size: int = 50


class RecipeConfig:
    """What every recipe's config has: a ``mode`` naming the recipe, a ``seed``, and a plain-dict form (the
    ``config.yaml`` a run saves and a resume compares).

    :param mode: the recipe: ``parallel`` (paper 000), ``distill`` (paper 002) or ``monolingual`` (paper 001).
    :param seed: fixes the model's initialisation, the data order, masking, dropout and every seeded sample of
        the run.
    """

    mode: str
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)  # type: ignore[call-overload]

    def check(self, where: str) -> None:
        """Checks across sections, run by the loader once every section is valid; errors name ``where``
        (the file) and the key. None by default."""


def check_matryoshka(
    dims: list[int] | None, weights: list[float] | None, dimension: int | None, where: str, source: str
) -> None:
    """``matryoshka_dims`` (and weights) against the model's ``dimension`` (None: not known yet; named by the
    key ``source``, e.g. ``pca.dim``): one-line :class:`ConfigError` naming ``where`` and the key."""
    key = f"{where}.matryoshka_dims"
    if dims is None:
        if weights is not None:
            raise ConfigError(f"{where}.matryoshka_weights: set matryoshka_dims too (or remove the weights)")
        return
    if not dims:
        raise ConfigError(f"{key}: list at least one dimension, e.g. [128, 64, 32], or leave it null")
    if any(d < 1 for d in dims):
        raise ConfigError(f"{key}: every dimension must be >= 1, got {dims}")
    if any(a <= b for a, b in zip(dims, dims[1:], strict=False)):
        raise ConfigError(f"{key}: must be strictly descending (largest first), got {dims}")
    if dimension is not None and dims[0] > dimension:
        raise ConfigError(f"{key}: {dims[0]} is above the model's dimension {dimension} ({source})")
    if weights is not None:
        if len(weights) != len(dims):
            raise ConfigError(
                f"{where}.matryoshka_weights: {len(weights)} weight(s) for {len(dims)} matryoshka_dims"
            )
        if any(not math.isfinite(w) or w < 0 for w in weights) or not any(w > 0 for w in weights):
            raise ConfigError(
                f"{where}.matryoshka_weights: must be finite, >= 0 and not all 0, got {weights}"
            )
