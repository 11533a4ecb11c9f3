"""The training configuration: one YAML file, validated into typed sections."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

from lingualite.config_loading import from_dict, load_yaml, with_data_dir
from lingualite.errors import ConfigError
from lingualite.losses.combined import ObjectiveConfig
from lingualite.models.config import EncoderConfig


@dataclass
class DataConfig:
    """Where the prepared parallel data is (``src<TAB>tgt[<TAB>doc_id]`` files, globs allowed).

    A file under a folder named like ``en-fr`` gets language codes en / fr (used for vocabulary sampling).
    """

    RANGES: ClassVar[dict[str, tuple[float | None, float | None, bool]]] = {
        "max_train_pairs": (0, None, True)
    }

    train_files: list[str] = field(default_factory=lambda: ["{data_dir}/prepared/*/train.tsv"])
    valid_files: list[str] = field(default_factory=lambda: ["{data_dir}/prepared/*/valid.tsv"])
    max_train_pairs: int | None = None
    valid_xsr_pairs: int = 500


@dataclass
class TokenizerConfig:
    """Use an existing ``tokenizer.json`` (``path``) or train a shared one on the training data."""

    RANGES: ClassVar[dict[str, tuple[float | None, float | None, bool]]] = {
        "alpha": (0, 1, True),
        "vocab_size": (10, None, False),
        "sample_size": (0, None, True),
    }

    path: str | None = None
    kind: Literal["unigram", "wordpiece"] = "unigram"
    vocab_size: int = 16000
    alpha: float = 0.7
    sample_size: int = 300_000
    lowercase: bool = True


@dataclass
class OptimConfig:
    """Adam with linear warm-up then linear decay (paper 000: lr 1e-3, batch 128, dropout 0.1).

    ``bucket_size``: batches are cut from windows of ``batch_size * bucket_size`` pairs sorted by length.
    ``batch_by_file``: every batch comes from one training file (one language pair), so in-batch negatives
    share the positive's languages.
    ``gradient_checkpointing``: recompute layer activations in the backward pass (less memory, ~30% slower).
    """

    RANGES: ClassVar[dict[str, tuple[float | None, float | None, bool]]] = {
        "grad_clip": (0, None, True),
        "lr": (0, None, True),
    }

    lr: float = 1e-3
    warmup_steps: int = 500
    max_steps: int = 10_000
    batch_size: int = 128
    weight_decay: float = 0.0
    grad_clip: float = 1.0
    bf16: bool = False
    seed: int = 0
    eval_every: int = 500
    save_every: int = 500
    log_every: int = 20
    keep_checkpoints: int = 2
    bucket_size: int = 50
    batch_by_file: bool = True
    gradient_checkpointing: bool = False

    def validate(self) -> None:
        if self.lr <= 0 or self.batch_size < 2 or self.max_steps < 1:
            raise ConfigError("optim: lr must be > 0, batch_size >= 2 and max_steps >= 1")
        if min(self.keep_checkpoints, self.bucket_size) < 1:
            raise ConfigError("optim: keep_checkpoints and bucket_size must be >= 1")
        if min(self.eval_every, self.save_every, self.log_every) < 1:
            raise ConfigError("optim: eval_every, save_every and log_every must be >= 1")


@dataclass
class TrainingConfig:
    data: DataConfig = field(default_factory=DataConfig)
    tokenizer: TokenizerConfig = field(default_factory=TokenizerConfig)
    model: EncoderConfig = field(default_factory=EncoderConfig)
    objective: ObjectiveConfig = field(default_factory=ObjectiveConfig)
    optim: OptimConfig = field(default_factory=OptimConfig)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


BUILTIN_CONFIGS = Path(__file__).resolve().parent.parent / "configs"


def resolve_config_path(name_or_path: str | Path) -> Path:
    """A path to a YAML file, or the name of a shipped config (``quickstart``, ``paper``)."""
    path = Path(name_or_path)
    if path.exists():
        return path
    builtin = BUILTIN_CONFIGS / f"{name_or_path}.yaml"
    if builtin.exists():
        return builtin
    shipped = sorted(p.stem for p in BUILTIN_CONFIGS.glob("*.yaml"))
    raise ConfigError(f"{name_or_path}: no such config file, and not a shipped config ({', '.join(shipped)})")


def load_training_config(name_or_path: str | Path, data_dir: str | Path | None = None) -> TrainingConfig:
    """A YAML file, or a shipped config (``quickstart``, ``paper``); ``{data_dir}`` in its paths becomes
    ``data_dir`` (default ``$LINGUALITE_DATA_DIR`` or ``data``)."""
    path = resolve_config_path(name_or_path)
    data = load_yaml(path)
    if isinstance(data, dict) and data.get("mode") == "parallel":  # the default mode, said explicitly
        data = {k: v for k, v in data.items() if k != "mode"}
    return with_data_dir(from_dict(TrainingConfig, data, str(path)), data_dir)
