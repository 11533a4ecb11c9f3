"""Several seeds of the monolingual recipe, one figure per stage (issue #16, paper 001's 3-seed means)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lingualite.recipes.monolingual.seeds import aggregate_stages, seeds_markdown

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier

ROOT = Path(__file__).resolve().parents[3]


def _rows(seed: int) -> list[dict]:
    return [
        {"stage": "initial", "valid_xsr_p_at_1": 0.1, "steps": 0},
        {"stage": "classification", "valid_xsr_p_at_1": 0.2 + seed / 100, "classify_zero_shot": 0.5},
        {
            "stage": "iteration-1",
            "valid_xsr_p_at_1": 0.3,
            "classify_zero_shot": 0.5 + seed / 10,
            "classify/lo": 0.4,
            "classify/lo/fr": 0.4,  # per language: not aggregated
            "mined_true_precision": 0.4,
            "mined_per_language_pair": {"en-fr": 3},
        },
    ]


def test_mean_spread_and_change_from_stage_1_are_taken_seed_by_seed() -> None:
    result = aggregate_stages({0: _rows(0), 1: _rows(1), 2: _rows(2)})
    assert result["seeds"] == [0, 1, 2] and list(result["stages"]) == [
        "initial",
        "classification",
        "iteration-1",
    ]
    it = result["stages"]["iteration-1"]
    assert set(it) == {"valid_xsr_p_at_1", "classify_zero_shot", "classify/lo", "mined_true_precision"}
    assert it["classify_zero_shot"] == {
        "mean": 0.6, "std": 0.1, "min": 0.5, "max": 0.7, "n": 3, "values": [0.5, 0.6, 0.7]
    }  # fmt: skip
    change = result["change_from_stage_1"]["iteration-1"]
    assert change["valid_xsr_p_at_1"]["values"] == [0.1, 0.09, 0.08]  # 0.3 minus each seed's own stage 1
    assert change["classify_zero_shot"]["mean"] == pytest.approx(0.1)
    assert "mined_true_precision" not in change  # stage 1 mines nothing
    text = seeds_markdown(result, "t")
    assert "| iteration-1 | 0.600 ± 0.100 | – | 0.300 ± 0.000 | 0.400 ± 0.000 | – |" in text
    one = aggregate_stages({4: _rows(4)})["stages"]["classification"]["valid_xsr_p_at_1"]
    assert (
        one["std"] == 0.0
        and one["n"] == 1
        and "0.240 |" in seeds_markdown(aggregate_stages({4: _rows(4)}), "t")
    )


def test_the_benchmark_aggregates_runs_already_there(tmp_path: Path) -> None:
    for seed in (0, 1):
        (tmp_path / f"seed-{seed}").mkdir()
        lines = "".join(json.dumps(r) + "\n" for r in _rows(seed))
        (tmp_path / f"seed-{seed}" / "stages.jsonl").write_text(lines)
    script = ROOT / "benchmarks" / "monolingual_seeds.py"
    done = subprocess.run(
        [sys.executable, str(script), "--out", str(tmp_path), "--seeds", "0", "1", "2", "--aggregate-only"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    saved = json.loads((tmp_path / "seeds.json").read_text())
    assert saved["seeds"] == [0, 1] and saved["complete"] == {"0": False, "1": False}
    assert saved["stages"]["iteration-1"]["classify_zero_shot"]["values"] == [0.5, 0.6]
    assert (tmp_path / "seeds.md").read_text().startswith("# Monolingual recipe (monolingual) over seeds")
    assert (tmp_path / "seeds.png").read_bytes().startswith(b"\x89PNG")
