"""Bitext mining evaluation, BUCC-style (Zweigenbaum et al. 2017): held-out translation pairs hidden among
distractor sentences that have no translation on the other side; mine; precision, recall and F1 of the pairs
found against the known translations.

Task construction (per language pair, per split, seeded):

- **gold**: ``n_gold`` pairs of the split (held out from training: prepare splits by document);
- **distractors**: ``ratio x n_gold`` sentences per side, from *other* pairs of the split whose one side only
  is kept (English from one half, the other language from the other half), topped up from the training split
  when the held-out split is too small (distractors are never gold, whoever has seen them);
- **truth**: every (source, target) of the task that is a known pair anywhere in the language pair's files
  (train, valid and test), so an accidental translation among distractors counts as correct, not as an error.

Ratios 1:1, 1:10 and 1:100 are nested: the 1:10 task is the 1:100 task's first distractors, so one encoding
serves all three. The score threshold is chosen where F1 is best on the **validation** split's task and then
applied, unchanged, to the test split (never tuned on test).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from lingualite.data.readers import read_tsv
from lingualite.encoders.base import Encoder
from lingualite.evaluation.base import embed
from lingualite.mining.margin import MinedBitext, mine_embeddings
from lingualite.vectors.retrieval import search_device

RATIOS = (1, 10, 100)


@dataclass
class MiningTask:
    """Sources and targets in which ``gold`` (source index, target index) pairs are translations; the first
    ``n_gold`` sentences of each side are the hidden pairs, the rest distractors."""

    src: list[str]
    tgt: list[str]
    gold: set[tuple[int, int]]
    n_gold: int

    def subset(self, ratio: int) -> MiningTask:
        """The same gold pairs with the first ``ratio x n_gold`` distractors of each side."""
        n = self.n_gold * (1 + ratio)
        gold = {(i, j) for i, j in self.gold if i < n and j < n}
        return MiningTask(self.src[:n], self.tgt[:n], gold, self.n_gold)


def _pairs(path: Path) -> list[tuple[str, str]]:
    return list(dict.fromkeys((p.src, p.tgt) for p in read_tsv(path)))


def build_task(
    split: Path, known_files: Sequence[Path], topup: Path | None, n_gold: int, ratio: int, seed: int = 0
) -> MiningTask:
    """The mining task of one split (see the module docstring); ``known_files`` define the truth."""
    rng = np.random.default_rng(seed)
    pairs = _pairs(split)
    pairs = [pairs[i] for i in rng.permutation(len(pairs))]
    gold_pairs, seen_src, seen_tgt = [], set(), set()
    for s, t in pairs:
        if len(gold_pairs) < n_gold and s not in seen_src and t not in seen_tgt:
            gold_pairs.append((s, t))
            seen_src.add(s)
            seen_tgt.add(t)
    if len(gold_pairs) < n_gold:
        raise ValueError(f"{split}: only {len(gold_pairs)} distinct pairs, {n_gold} wanted")
    rest = [p for p in pairs if p[0] not in seen_src and p[1] not in seen_tgt]
    if topup is not None:
        extra = _pairs(topup)
        rest += [extra[i] for i in rng.permutation(len(extra))]
    need = ratio * n_gold
    src = [s for s, _ in gold_pairs] + _distinct(rest[0::2], 0, need, seen_src)
    tgt = [t for _, t in gold_pairs] + _distinct(rest[1::2], 1, need, seen_tgt)
    if len(src) < n_gold + need or len(tgt) < n_gold + need:
        raise ValueError(f"{split}: not enough distractors for 1:{ratio} with {n_gold} pairs")
    known: dict[str, set[str]] = {}
    for path in known_files:
        for s, t in _pairs(path):
            known.setdefault(s, set()).add(t)
    where_tgt: dict[str, int] = {t: j for j, t in enumerate(tgt)}
    gold = {(i, where_tgt[t]) for i, s in enumerate(src) for t in known.get(s, ()) if t in where_tgt}
    return MiningTask(src, tgt, gold, n_gold)


def _distinct(pairs: list[tuple[str, str]], side: int, need: int, seen: set[str]) -> list[str]:
    out: list[str] = []
    for pair in pairs:
        if len(out) == need:
            break
        text = pair[side]
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out


def prf(mined: MinedBitext, gold: set[tuple[int, int]], threshold: float | None = None) -> dict[str, float]:
    """Precision, recall and F1 of the mined pairs (those scoring at least ``threshold``)."""
    keep = mined.score >= threshold if threshold is not None else np.ones(len(mined), bool)
    found = sum((int(s), int(t)) in gold for s, t in zip(mined.src[keep], mined.tgt[keep], strict=True))
    n = int(keep.sum())
    p = found / n if n else 0.0
    r = found / len(gold) if gold else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0, "pairs": n}


def best_threshold(mined: MinedBitext, gold: set[tuple[int, int]]) -> float:
    """The score threshold with the best F1 (pairs are best first: F1 at each cut, computed in one pass)."""
    if not len(mined) or not gold:
        return float("inf")
    correct = np.cumsum([(int(s), int(t)) in gold for s, t in zip(mined.src, mined.tgt, strict=True)])
    n = np.arange(1, len(mined) + 1)
    f1 = 2 * correct / (n + len(gold))
    cut = int(np.argmax(f1))
    return float(mined.score[cut])


def _tasks_that_fit(
    folder: Path, known: list[Path], topup: Path | None, n_gold: int, ratios: list[int], seed: int
) -> tuple[dict[str, MiningTask], list[int]]:
    """The valid and test tasks at the largest ratio the folder's text allows, and the ratios they serve: a
    folder without a training split (``lingualite data pivot``'s xx-yy pairs) has fewer distractors, so its
    largest ratios are left out rather than failing the run."""
    for top in range(len(ratios) - 1, -1, -1):
        try:
            tasks = {
                split: build_task(folder / f"{split}.tsv", known, topup, n_gold, ratios[top], seed)
                for split in ("valid", "test")
            }
        except ValueError as exc:
            if "not enough distractors" not in str(exc) or top == 0:
                raise
            continue
        return tasks, ratios[: top + 1]
    raise AssertionError("unreachable")


def evaluate_mining(
    encoder: Encoder,
    pair_dirs: Sequence[Path],
    n_gold: int = 200,
    ratios: Sequence[int] = RATIOS,
    k: int = 4,
    mode: str = "max",
    seed: int = 0,
) -> dict[str, dict[str, float]]:
    """Mining P/R/F1 on each pair folder's test split (threshold from its valid split) at each ratio:
    ``{"en-fr/1:10": {"precision", "recall", "f1", "threshold", ...}}``. Any pair folder works (``en-xx``, or
    ``zh-ru`` from ``lingualite data pivot``); ratios beyond what a folder's text allows are left out of its
    rows (the means average the folders that have the ratio)."""
    out: dict[str, dict[str, float]] = {}
    for folder in pair_dirs:
        known = [folder / f"{s}.tsv" for s in ("train", "valid", "test") if (folder / f"{s}.tsv").exists()]
        topup = folder / "train.tsv" if (folder / "train.tsv").exists() else None
        tasks, feasible = _tasks_that_fit(folder, known, topup, n_gold, sorted(ratios), seed)
        mined = {}
        for split, task in tasks.items():
            src_vec, tgt_vec = embed(encoder, task.src, task.tgt)
            for ratio in feasible:
                n = n_gold * (1 + ratio)
                mined[split, ratio] = mine_embeddings(
                    src_vec[:n], tgt_vec[:n], k=k, mode=mode, gpu=search_device(encoder)
                )
        for ratio in feasible:
            valid, test = tasks["valid"].subset(ratio), tasks["test"].subset(ratio)
            threshold = best_threshold(mined["valid", ratio], valid.gold)
            row = prf(mined["test", ratio], test.gold, threshold)
            out[f"{folder.name}/1:{ratio}"] = {**row, "threshold": threshold, "gold": len(test.gold)}
    for ratio in ratios:
        rows = [v for key, v in out.items() if key.endswith(f"/1:{ratio}")]
        if not rows:
            continue
        out[f"mean/1:{ratio}"] = {
            m: float(np.mean([r[m] for r in rows])) for m in ("precision", "recall", "f1")
        }
    return out
