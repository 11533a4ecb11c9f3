"""BUCC-style mining evaluation: task construction, P/R/F1, the validation-chosen threshold, end to end."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lingualite.encoders.tfidf import TfidfEncoder
from lingualite.evaluation.mining import best_threshold, build_task, evaluate_mining, prf
from lingualite.mining import MinedBitext


def write_split(path: Path, pairs: list[tuple[str, str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{s}\t{t}\n" for s, t in pairs), encoding="utf-8")
    return path


def fake_pairs(prefix: str, n: int) -> list[tuple[str, str]]:
    return [
        (
            f"{prefix} english sentence number {i} about topic {i % 7}",
            f"{prefix} phrase française {i} sujet {i % 7}",
        )
        for i in range(n)
    ]


def test_task_hides_gold_among_one_sided_distractors(tmp_path: Path) -> None:
    test = write_split(tmp_path / "en-fr" / "test.tsv", fake_pairs("t", 40))
    train = write_split(tmp_path / "en-fr" / "train.tsv", fake_pairs("r", 200))
    task = build_task(test, [test, train], train, n_gold=10, ratio=10, seed=0)
    assert len(task.src) == len(task.tgt) == 110
    assert len(set(task.src)) == 110 and len(set(task.tgt)) == 110
    assert {(i, i) for i in range(10)} <= task.gold
    assert task.gold == {(i, i) for i in range(10)}  # distractors come from disjoint halves: no translation
    small = task.subset(1)
    assert small.src == task.src[:20] and small.gold == task.gold


def test_accidental_translations_among_distractors_count_as_gold(tmp_path: Path) -> None:
    pairs = fake_pairs("t", 30)
    test = write_split(tmp_path / "test.tsv", pairs)
    # every distractor source's translation is known, and every distractor target too: an extra known pair
    # (source of one distractor pair, target of another) must be found by the truth
    extra = write_split(
        tmp_path / "extra.tsv", [(s, t) for (s, _), (_, t) in zip(pairs, pairs[1:], strict=False)]
    )
    task = build_task(test, [test, extra], None, n_gold=5, ratio=2, seed=1)
    plain = build_task(test, [test], None, n_gold=5, ratio=2, seed=1)
    assert plain.gold < task.gold


def test_too_small_split_is_a_clear_error(tmp_path: Path) -> None:
    test = write_split(tmp_path / "test.tsv", fake_pairs("t", 12))
    with pytest.raises(ValueError, match="not enough distractors"):
        build_task(test, [test], None, n_gold=5, ratio=10)


def test_prf_and_best_threshold_by_hand() -> None:
    mined = MinedBitext(
        np.array([0, 1, 2, 3]),
        np.array([0, 9, 2, 3]),
        np.array([2.0, 1.5, 1.2, 0.9]),
        np.zeros(4, np.float32),
    )
    gold = {(0, 0), (2, 2), (3, 3), (4, 4)}
    assert prf(mined, gold) == pytest.approx({"precision": 0.75, "recall": 0.75, "f1": 0.75, "pairs": 4})
    assert prf(mined, gold, 1.2)["precision"] == pytest.approx(2 / 3)
    # F1 at each cut: 1/(1+4)*2=0.4, 2/6=0.33, 4/7=0.571, 6/8=0.75 -> the last cut, score 0.9
    assert best_threshold(mined, gold) == pytest.approx(0.9)


def test_end_to_end_with_tfidf(tmp_path: Path) -> None:
    folder = tmp_path / "en-fr"
    for split, n, prefix in (("train", 300, "r"), ("valid", 60, "v"), ("test", 60, "t")):
        write_split(folder / f"{split}.tsv", fake_pairs(prefix, n))
    result = evaluate_mining(TfidfEncoder(), [folder], n_gold=5, ratios=(1, 10))
    assert set(result) == {"en-fr/1:1", "en-fr/1:10", "mean/1:1", "mean/1:10"}
    row = result["en-fr/1:10"]
    assert 0 <= row["precision"] <= 1 and 0 <= row["recall"] <= 1 and row["gold"] == 5
    assert np.isfinite(row["threshold"])


def test_a_pivot_folder_without_training_text_keeps_the_ratios_it_can_fill(tmp_path: Path) -> None:
    en_fr, zh_ru = tmp_path / "en-fr", tmp_path / "zh-ru"
    for split, n, prefix in (("train", 300, "r"), ("valid", 60, "v"), ("test", 60, "t")):
        write_split(en_fr / f"{split}.tsv", fake_pairs(prefix, n))
    for split, prefix in (("valid", "v"), ("test", "t")):  # 60 pairs: 1:1 fits, 1:10 does not
        write_split(zh_ru / f"{split}.tsv", fake_pairs("zh" + prefix, 60))
    result = evaluate_mining(TfidfEncoder(), [en_fr, zh_ru], n_gold=5, ratios=(1, 10))
    assert set(result) == {"en-fr/1:1", "en-fr/1:10", "zh-ru/1:1", "mean/1:1", "mean/1:10"}
    assert result["mean/1:10"]["f1"] == result["en-fr/1:10"]["f1"]
    with pytest.raises(ValueError, match="not enough distractors for 1:1"):
        evaluate_mining(TfidfEncoder(), [zh_ru], n_gold=40, ratios=(1, 10))
