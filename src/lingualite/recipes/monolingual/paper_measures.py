"""Paper 001's own measures of the untrained encoder, after stage 1 and after every iteration (issue #16,
item 5): zero-shot document classification (Wang et al., Table 2: RCV2; here ``eval classify`` on
LibreOffice modules and DDTP sections) and pair classification (Table 1: XNLI; here ``eval pairs`` on Bible
paraphrase), trained on English and tested on every language.

The protocols live in :mod:`lingualite.evaluation`, a leaf that only the CLI may import, so the recipe is given
them as a :data:`SetEvaluator` (:func:`lingualite.reproduce.protocols.paper_set_evaluator`), the way ``lingualite
reproduce`` is given its cell evaluator. Without one (the Python API called bare) or with ``evaluation.enabled:
false`` nothing runs; a set whose files are missing is skipped with a one-line note. Evaluation only: the
encoder is used in eval mode and no random state of the training is touched.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from transformers import PreTrainedTokenizerFast

from lingualite.config.monolingual import StageEvaluationConfig
from lingualite.encoders.base import Encoder
from lingualite.models.context_encoder import ContextEncoder

logger = logging.getLogger(__name__)

KINDS = ("classify", "pairs")

SetEvaluator = Callable[[Encoder, str, Path, list[Path], StageEvaluationConfig], dict[str, Any]]
"""``evaluate(encoder, kind, train_file, test_files, settings)``: ``kind`` is ``classify`` or ``pairs``; returns
:mod:`lingualite.evaluation.suite`'s result (``per_test``: language -> ``{"accuracy": ...}``)."""


@dataclass
class TrainingEncoder:
    """The model under training as an :class:`~lingualite.encoders.base.Encoder`: single sentences at the
    model's sentence length, as the exported model encodes them."""

    model: ContextEncoder
    tokenizer: PreTrainedTokenizerFast
    name: str = "monolingual"

    @property
    def dimension(self) -> int:
        return self.model.output_dim

    def encode(self, texts: list[str]) -> np.ndarray:
        return self.model.encode_texts(self.tokenizer, texts)


@dataclass
class EvalSet:
    kind: str
    name: str
    train: Path
    tests: list[Path]


def resolve_sets(cfg: StageEvaluationConfig) -> tuple[list[EvalSet], list[str]]:
    """The configured sets that exist, and a one-line note for each one skipped."""
    found, notes = [], []
    for kind, folders in (("classify", cfg.classify), ("pairs", cfg.pairs)):
        for folder in map(Path, folders):
            train = folder / f"train.{cfg.train_language}.tsv"
            tests = sorted(folder.glob("test.*.tsv"))
            if train.is_file() and tests:
                found.append(EvalSet(kind, folder.name, train, tests))
            else:
                notes.append(
                    f"{kind} set {folder}: skipped, no {train.name} and test.<lang>.tsv there "
                    "(`lingualite data eval-sets` writes them)"
                )
    return found, notes


class PaperMeasures:
    """``measures(model, tokenizer) -> {"classify_zero_shot", "pairs_zero_shot", "classify/<set>",
    "classify/<set>/<lang>", ...}``: accuracies, each a mean over the classifier seeds; ``<kind>/<set>`` and the
    ``*_zero_shot`` means leave out the training language (each other language counts once, each set once)."""

    def __init__(self, cfg: StageEvaluationConfig, evaluate: SetEvaluator | None) -> None:
        self.cfg, self.evaluate = cfg, evaluate
        self.sets: list[EvalSet] = []
        if not cfg.enabled:
            self.notes = ["evaluation.enabled is false: no classification measures"]
        elif evaluate is None:
            self.notes = ["no evaluator given (lingualite train gives one): no classification measures"]
        else:
            self.sets, self.notes = resolve_sets(cfg)
        for note in self.notes:
            logger.info("%s", note)

    def __call__(self, model: ContextEncoder, tokenizer: PreTrainedTokenizerFast) -> dict[str, float]:
        if not self.sets or self.evaluate is None:
            return {}
        t0 = time.perf_counter()
        encoder = TrainingEncoder(model, tokenizer)
        row: dict[str, float] = {}
        means: dict[str, list[float]] = {kind: [] for kind in KINDS}
        for s in self.sets:
            result = self.evaluate(encoder, s.kind, s.train, s.tests, self.cfg)
            accuracy = {lang: float(r["accuracy"]) for lang, r in result["per_test"].items()}
            row.update({f"{s.kind}/{s.name}/{lang}": round(a, 4) for lang, a in accuracy.items()})
            others = [a for lang, a in accuracy.items() if lang != self.cfg.train_language]
            if others:
                row[f"{s.kind}/{s.name}"] = round(float(np.mean(others)), 4)
                means[s.kind].append(float(np.mean(others)))
        for kind, values in means.items():
            if values:
                row[f"{kind}_zero_shot"] = round(float(np.mean(values)), 4)
        row["measures_seconds"] = round(time.perf_counter() - t0, 1)
        return row

    def summary(self) -> dict[str, Any]:
        """What ``summary.json`` says about the measures: the sets, the protocol, what was skipped."""
        c = self.cfg
        return {
            "sets": {f"{s.kind}/{s.name}": [str(s.train), *map(str, s.tests)] for s in self.sets},
            "protocol": (
                f"trained on {c.train_language}, accuracy mean of {c.seeds} classifier seeds; classify: logreg, "
                f"max_docs {c.max_docs}; pairs: MLP(512,384) on [u,v,u*v,|u-v|], max_train_pairs "
                f"{c.max_train_pairs}, max_test_pairs {c.max_test_pairs}; *_zero_shot: mean over the other "
                "languages, then over the sets"
            ),
            "notes": self.notes,
        }


def smoke_settings(cfg: StageEvaluationConfig) -> StageEvaluationConfig:
    """The measures of a ``--smoke`` run: one classifier seed on small subsamples (seconds, not minutes)."""
    return dataclasses.replace(cfg, seeds=1, max_docs=200, max_train_pairs=1000, max_test_pairs=200)


TABLE_KEYS = (
    "classify_zero_shot",
    "pairs_zero_shot",
    "valid_xsr_p_at_1",
    "mined_true_precision",
    "mined_true_precision_same_count",
    "mined_cosine_mean",
    "random_centred_cosine",
)
"""The figures issue #16's Done-when compares stage by stage (``summary.json``'s ``paper_measures``)."""


def stage_table(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Stage name -> its :data:`TABLE_KEYS` and ``<kind>/<set>`` means (the rows of ``stages.jsonl``)."""
    table = {}
    for row in rows:
        keep = {
            k: v
            for k, v in row.items()
            if k in TABLE_KEYS or (k.count("/") == 1 and k.split("/")[0] in KINDS)
        }
        if keep:
            table[row["stage"]] = keep
    return table
