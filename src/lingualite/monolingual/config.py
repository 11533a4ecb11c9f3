"""The monolingual-mode configuration (paper 001): one YAML file with ``mode: monolingual``.

Every section checks its own values and raises :class:`~lingualite.errors.ConfigError` naming the key;
unknown keys are rejected by :func:`lingualite.config_loading.from_dict`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

from lingualite.config_loading import from_dict, load_yaml, with_data_dir
from lingualite.errors import ConfigError
from lingualite.models.config import EncoderConfig
from lingualite.training.config import TokenizerConfig, resolve_config_path


@dataclass
class MonolingualDataConfig:
    """Documents of consecutive sentences, one language per document.

    :param train_files: ``en<TAB>xx<TAB>doc_id`` files (globs; folder names like ``en-fr`` give the
        languages). They are translations of each other, so each document id is assigned to ONE language by a
        hash (:mod:`lingualite.monolingual.documents`) and only that language's side of it is read: the
        corpus is never secretly parallel.
    :param valid_files: held-out parallel pairs: the gold alignment for mined-pair precision and the
        validation XSR P@1 logged after each stage. Never trained on.
    :param languages: the languages to read; the hash spreads documents over them evenly.
    :param min_sentences: documents with fewer sentences are dropped (a sentence needs a context).
    :param max_sentences_per_language: seeded cap per language (whole documents), for a balanced corpus.
    :param valid_pairs: gold pairs per validation file (the gold precision samples min(m, valid_pairs) of them
        per side, so m beyond it measures the same thing).
    """

    train_files: list[str] = field(default_factory=lambda: ["{data_dir}/prepared/*/train.tsv"])
    valid_files: list[str] = field(default_factory=lambda: ["{data_dir}/prepared/*/valid.tsv"])
    languages: list[str] = field(default_factory=lambda: ["en", "fr", "de", "es", "it"])
    min_sentences: int = 2
    max_sentences_per_language: int | None = 30_000
    valid_pairs: int = 2000

    def validate(self) -> None:
        if len(set(self.languages)) < 2:
            raise ConfigError(f"data.languages needs at least two languages, got {self.languages}")
        if self.min_sentences < 2:
            raise ConfigError(
                f"data.min_sentences must be >= 2 (a sentence needs a context), got {self.min_sentences}"
            )
        if self.max_sentences_per_language is not None and self.max_sentences_per_language < 10:
            raise ConfigError(
                f"data.max_sentences_per_language must be >= 10 or null, got {self.max_sentences_per_language}"
            )
        if self.valid_pairs < 0:
            raise ConfigError(f"data.valid_pairs must be >= 0, got {self.valid_pairs}")


@dataclass
class ContextConfig:
    """How (context, sentence) inputs are built (paper 001, Sec. 3.1).

    :param window: k, sentences on each side: C_k(s_i) = {s_j : 0 < |i - j| <= k}.
    :param max_sentence_tokens: each sentence is cut to this many tokens before concatenation, and
        ``model.max_seq_length`` must hold 2k + 1 of them, so no input is ever cut; the input is
        ``[CLS] C_k^- s C_k^+ [SEP]``.
    :param negatives: where the random replacement s_p comes from: ``same_language`` (default) or ``any``
        (the paper's "whole corpus"). A replacement in another language is recognisable by its vocabulary
        alone, which teaches language identity instead of meaning and pushes the languages apart.
    """

    window: int = 1
    max_sentence_tokens: int = 40
    negatives: Literal["same_language", "any"] = "same_language"

    def validate(self) -> None:
        if not 1 <= self.window <= 8:
            raise ConfigError(f"context.window must be in 1..8, got {self.window}")
        if self.max_sentence_tokens < 4:
            raise ConfigError(f"context.max_sentence_tokens must be >= 4, got {self.max_sentence_tokens}")


@dataclass
class StageOptimConfig:
    """Adam with linear warm-up and decay for one stage (paper 001: lr 1e-4, linear decay, 1 epoch)."""

    RANGES: ClassVar[dict[str, tuple[float | None, float | None, bool]]] = {
        "lr": (0, None, True),
        "warmup_ratio": (0, 1, False),
        "grad_clip": (0, None, True),
        "steps": (0, None, True),
        "batch_size": (0, None, True),
    }

    lr: float = 5e-4
    batch_size: int = 64
    steps: int = 1000
    warmup_ratio: float = 0.05
    grad_clip: float = 1.0

    def validate(self) -> None:
        if self.lr <= 0 or self.batch_size < 2 or self.steps < 1:
            raise ConfigError("lr must be > 0, batch_size >= 2 and steps >= 1 in every stage's optimiser")
        if not 0 <= self.warmup_ratio < 1:
            raise ConfigError(f"warmup_ratio must be in [0, 1), got {self.warmup_ratio}")


@dataclass
class MiningConfig:
    """Pseudo-parallel pairs by CSLS over sampled blocks (paper 001, Sec. 3.2).

    Each round samples ``sample_size`` (m) sentences in each of two languages, scores the m x m candidates
    with CSLS (k neighbours inside the block), and keeps the top min(m * m, ``pairs_per_round``) new pairs;
    rounds repeat until ``target_pairs`` (paper: m = 10,000, 1,000 per round, 100,000 pairs).

    :param pool_size: sentences per language encoded for each iteration's mining (a seeded sample); rounds
        draw their m from it.
    :param language_pairs: ``all`` (every pair of languages, in turn) or ``english`` (en-xx only).
    :param iterations: mining + coherence-regression rounds (paper: 3).
    """

    sample_size: int = 2000
    pool_size: int = 10_000
    csls_k: int = 10
    pairs_per_round: int = 1000
    target_pairs: int = 20_000
    iterations: int = 3
    language_pairs: Literal["all", "english"] = "all"

    def validate(self) -> None:
        if (
            self.sample_size < 1
            or self.pool_size < 1
            or self.csls_k < 1
            or self.pairs_per_round < 1
            or self.target_pairs < 1
        ):
            raise ConfigError(
                "mining: sample_size, pool_size, csls_k, pairs_per_round and target_pairs must be >= 1"
            )
        if self.iterations < 0:
            raise ConfigError(f"mining.iterations must be >= 0, got {self.iterations}")


@dataclass
class RegressionConfig(StageOptimConfig):
    """Coherence regression per iteration: each example puts a replacement t into the context of s and
    regresses score = cos(Enc(t), Enc(s)) with a linear head (paper 001, L_cl).

    :param mined_share: share of examples whose t is a mined pseudo-parallel partner; the rest are, half and
        half, t = s itself (score 1) and a random sentence (its cosine): the same definition of the score,
        which keeps the regression from collapsing onto the narrow range of mined-pair scores.
    :param random_score: the target of a random swap: ``cosine`` (the paper's definition of the score) or
        ``zero`` (stage 1's label for a random replacement: keeps the heads discriminating).
    :param alignment_weight: BEYOND paper 001 (0 = the paper): add this weight times an in-batch
        contrastive loss on ``batch_size`` mined pairs encoded as single sentences (paper 000's sentence
        alignment loss, Eq. 5, with scaled cosine), which pulls mined partners together directly instead of
        only through their contexts: self-training on the pseudo-parallel pairs.
    :param alignment_scale: the cosine scale of that loss.
    """

    RANGES: ClassVar[dict[str, tuple[float | None, float | None, bool]]] = {"mined_share": (0, 1, False)}

    mined_share: float = 0.5
    steps: int = 500
    random_score: Literal["cosine", "zero"] = "cosine"
    alignment_weight: float = 0.0
    alignment_scale: float = 20.0

    def validate(self) -> None:
        super().validate()
        if self.alignment_weight < 0 or self.alignment_scale <= 0:
            raise ConfigError("regression.alignment_weight must be >= 0 and regression.alignment_scale > 0")
        if not 0 < self.mined_share <= 1:
            raise ConfigError(f"regression.mined_share must be in (0, 1], got {self.mined_share}")


@dataclass
class MonolingualModelConfig(EncoderConfig):
    """The shared encoder (paper 001: 3 layers, 8 heads, d 512) and its sentence pooling.

    :param pooling: ``mean_max`` (paper 001: [mean(H); max(H)], sentence-transformers' Pooling with modes
        ("mean", "max")) or ``mean``.
    """

    pooling: Literal["mean_max", "mean"] = "mean_max"
    max_seq_length: int = 128


@dataclass
class MonolingualConfig:
    mode: Literal["monolingual"] = "monolingual"
    data: MonolingualDataConfig = field(default_factory=MonolingualDataConfig)
    tokenizer: TokenizerConfig = field(default_factory=TokenizerConfig)
    model: MonolingualModelConfig = field(default_factory=MonolingualModelConfig)
    context: ContextConfig = field(default_factory=ContextConfig)
    classification: StageOptimConfig = field(default_factory=StageOptimConfig)
    mining: MiningConfig = field(default_factory=MiningConfig)
    regression: RegressionConfig = field(default_factory=RegressionConfig)
    seed: int = 0

    def validate(self) -> None:
        self.model.validate()
        needed = (2 * self.context.window + 1) * self.context.max_sentence_tokens + 2
        if self.model.max_seq_length < needed:
            raise ConfigError(
                f"model.max_seq_length ({self.model.max_seq_length}) must hold the whole context: "
                f"(2 x context.window + 1) x context.max_sentence_tokens + 2 = {needed}"
            )
        if self.mining.language_pairs == "english" and "en" not in self.data.languages:
            raise ConfigError("mining.language_pairs: english needs 'en' in data.languages")
        if self.mining.sample_size > self.mining.pool_size:
            raise ConfigError(
                f"mining.sample_size ({self.mining.sample_size}) must be <= mining.pool_size ({self.mining.pool_size})"
            )

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def config_mode(name_or_path: str | Path) -> str:
    """``monolingual`` for a paper-001 config, ``parallel`` for the others (the key ``mode``, default parallel)."""
    data = load_yaml(resolve_config_path(name_or_path)) or {}
    mode = data.get("mode", "parallel") if isinstance(data, dict) else "parallel"
    if mode not in ("parallel", "monolingual"):
        raise ConfigError(f"{name_or_path}: mode must be 'parallel' or 'monolingual', got {mode!r}")
    return str(mode)


def load_monolingual_config(
    name_or_path: str | Path, data_dir: str | Path | None = None
) -> MonolingualConfig:
    """A YAML file or the shipped ``monolingual``; ``{data_dir}`` in its paths becomes ``data_dir``."""
    path = resolve_config_path(name_or_path)
    return with_data_dir(from_dict(MonolingualConfig, load_yaml(path), str(path)), data_dir)
