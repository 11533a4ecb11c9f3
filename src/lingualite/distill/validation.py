"""Validation during distillation: the distillation MSE on held-out pairs, and XSR P@1 per language pair.

The MSE says how closely the student reproduces the (reduced) teacher; XSR P@1 (each source finds its own
translation among the others by cosine, both directions) says whether the languages share one space, which
is what the distillation is for.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from transformers import PreTrainedTokenizerFast

from lingualite.distill.loss import MultilingualMSELoss
from lingualite.distill.student import StudentEncoder, encode_with_student
from lingualite.evaluation.retrieval import xsr_scores
from lingualite.evaluation.xsr import load_xsr_pairs


@dataclass
class ValidationSet:
    """Held-out pairs of one file and the teacher's (reduced) vectors of their sources."""

    name: str
    sources: list[str]
    targets: list[str]
    teacher: np.ndarray


def load_validation_pairs(
    files: list[Path], per_file: int, seed: int = 0
) -> list[tuple[str, list[str], list[str]]]:
    """``(name, sources, targets)`` per file: a seeded sample of pairs whose sides are unique (XSR needs one
    right answer per query). The name is the parent folder (``en-fr``) or the file stem."""
    out = []
    for path in files:
        src, tgt = load_xsr_pairs(path, max_pairs=per_file, seed=seed)
        if src:
            out.append((path.parent.name or path.stem, src, tgt))
    return out


class DistillValidator:
    """``validator(model) -> {"valid_mse", "valid_mse_source", "valid_mse_target", "valid_xsr_p_at_1", ...}``."""

    def __init__(self, sets: list[ValidationSet], tokenizer: PreTrainedTokenizerFast) -> None:
        self.sets, self.tokenizer = sets, tokenizer
        self.loss_fn = MultilingualMSELoss()

    @torch.no_grad()
    def __call__(self, model: StudentEncoder) -> dict[str, float]:
        metrics: dict[str, float] = {}
        if not self.sets:
            return metrics
        totals = {"valid_mse": 0.0, "valid_mse_source": 0.0, "valid_mse_target": 0.0}
        count, p1 = 0, []
        for vset in self.sets:
            src = torch.from_numpy(encode_with_student(model, self.tokenizer, vset.sources))
            tgt = torch.from_numpy(encode_with_student(model, self.tokenizer, vset.targets))
            loss, parts = self.loss_fn(src, tgt, torch.from_numpy(vset.teacher))
            n = len(vset.sources)
            totals["valid_mse"] += float(loss) * n
            totals["valid_mse_source"] += parts["mse_source"] * n
            totals["valid_mse_target"] += parts["mse_target"] * n
            count += n
            score = xsr_scores(src.numpy(), tgt.numpy())["p_at_1"]
            metrics[f"valid_xsr_p_at_1/{vset.name}"] = score
            p1.append(score)
        metrics.update({k: v / count for k, v in totals.items()})
        metrics["valid_xsr_p_at_1"] = float(np.mean(p1))
        return metrics
