"""Paper 001's measures after every stage (issue #16, item 5): zero-shot classification and pair
classification in each stage's row of stages.jsonl and in summary.json, skipped with a note when a set is
missing, and without any effect on the training itself."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml
from safetensors.numpy import load_file
from test_train_monolingual import tiny_config
from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.config import MonolingualConfig
from lingualite.config.monolingual import StageEvaluationConfig
from lingualite.recipes.monolingual.paper_measures import PaperMeasures, resolve_sets, stage_table
from lingualite.recipes.monolingual.train_monolingual import train_monolingual
from lingualite.reproduce.protocols import paper_set_evaluator

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier


def _short(root: Path, eval_dir: Path, tokenizer: Path, **evaluation: object) -> MonolingualConfig:
    cfg = tiny_config(root, classification_steps=6, tokenizer=tokenizer)
    cfg.mining.iterations, cfg.regression.max_steps = 1, 3
    cfg.evaluation.classify = [
        str(eval_dir / "classify" / "bible-genres"),
        str(eval_dir / "classify" / "none"),
    ]
    cfg.evaluation.pairs = [str(eval_dir / "pairs" / "bible-paraphrase")]
    cfg.evaluation.seeds = 1
    for key, value in evaluation.items():
        setattr(cfg.evaluation, key, value)
    return cfg


def _rows(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "stages.jsonl").read_text().splitlines()]


def test_missing_sets_are_skipped_with_one_line_each(tmp_path: Path, eval_tree: tuple[Path, Path]) -> None:
    ev, _ = eval_tree
    cfg = StageEvaluationConfig(
        classify=[str(ev / "classify" / "bible-genres"), str(tmp_path / "gone")], pairs=[]
    )
    sets, notes = resolve_sets(cfg)
    assert [(s.kind, s.name, [t.name for t in s.tests]) for s in sets] == [
        ("classify", "bible-genres", ["test.en.tsv", "test.fr.tsv"])
    ]
    assert len(notes) == 1 and str(tmp_path / "gone") in notes[0] and "\n" not in notes[0]
    assert PaperMeasures(cfg, None).notes[0].startswith("no evaluator given")
    off = PaperMeasures(StageEvaluationConfig(enabled=False), paper_set_evaluator())
    assert off.sets == [] and "enabled is false" in off.notes[0]


@pytest.fixture(scope="module")
def measured(
    document_files: Path,
    eval_tree: tuple[Path, Path],
    vocabulary: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Path:
    """A tiny run through ``lingualite train`` (which passes the evaluation protocols to the recipe)."""
    folder = tmp_path_factory.mktemp("measured")
    path = folder / "mono.yaml"
    path.write_text(yaml.safe_dump(_short(document_files, eval_tree[0], vocabulary).to_dict()))
    result = CliRunner().invoke(
        app, ["train", "--config", str(path), "--output", str(folder / "run"), "--threads", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    return folder / "run"


def test_every_stage_has_the_papers_measures(measured: Path) -> None:
    rows = _rows(measured)
    assert [r["stage"] for r in rows] == ["initial", "classification", "iteration-1"]
    for row in rows:  # random initialisation included: the floor the stages are compared with
        # zero-shot: the training language (en) is reported but left out of the means
        assert set(row) >= {
            "classify/bible-genres/en",
            "classify/bible-genres/fr",
            "pairs/bible-paraphrase/fr",
        }
        assert row["classify_zero_shot"] == row["classify/bible-genres"] == row["classify/bible-genres/fr"]
        assert row["pairs_zero_shot"] == row["pairs/bible-paraphrase"] == row["pairs/bible-paraphrase/fr"]
        assert 0.0 <= row["classify_zero_shot"] <= 1.0 and 0.0 <= row["pairs_zero_shot"] <= 1.0
    summary = json.loads((measured / "summary.json").read_text())
    assert set(summary["evaluation"]["sets"]) == {"classify/bible-genres", "pairs/bible-paraphrase"}
    assert len(summary["evaluation"]["notes"]) == 1 and "none" in summary["evaluation"]["notes"][0]
    table = summary["paper_measures"]
    assert table["iteration-1"]["classify_zero_shot"] == rows[2]["classify_zero_shot"]
    assert table["classification"]["pairs/bible-paraphrase"] == rows[1]["pairs_zero_shot"]
    assert (
        "mined_true_precision" in table["iteration-1"]
        and "classify/bible-genres/fr" not in table["iteration-1"]
    )


def test_the_measures_do_not_change_the_training(
    measured: Path,
    document_files: Path,
    eval_tree: tuple[Path, Path],
    vocabulary: Path,
    tmp_path: Path,
) -> None:
    """The same config without the protocols (the bare Python API) trains the same weights."""
    import torch

    torch.set_num_threads(1)
    result = train_monolingual(
        _short(document_files, eval_tree[0], vocabulary), tmp_path / "bare", progress=False
    )
    assert "classify_zero_shot" not in result.stages[-1]
    assert result.summary["evaluation"]["notes"][0].startswith("no evaluator given")
    bare, full = load_file(tmp_path / "bare" / "model.safetensors"), load_file(measured / "model.safetensors")
    assert bare.keys() == full.keys() and all(np.array_equal(bare[k], full[k]) for k in bare)
    assert [r.get("valid_xsr_p_at_1") for r in result.stages] == [
        r.get("valid_xsr_p_at_1") for r in _rows(measured)
    ]


def test_stage_table_keeps_the_done_when_figures() -> None:
    rows = [
        {"stage": "initial", "valid_xsr_p_at_1": 0.1, "valid_xsr_p_at_1/en-fr": 0.1},
        {"stage": "classification", "classify_zero_shot": 0.5, "classify/a": 0.5, "classify/a/fr": 0.5},
        {"stage": "x", "steps": 3},
    ]
    assert stage_table(rows) == {
        "initial": {"valid_xsr_p_at_1": 0.1},
        "classification": {"classify_zero_shot": 0.5, "classify/a": 0.5},
    }


def test_the_shipped_config_measures_the_papers_sets(tmp_path: Path) -> None:
    from lingualite.config import load_monolingual_config

    ev = load_monolingual_config("monolingual", tmp_path).evaluation
    assert ev.enabled and ev.classify == [
        f"{tmp_path}/eval/classify/libreoffice-modules",
        f"{tmp_path}/eval/classify/ddtp-sections",
    ]
    assert ev.pairs == [f"{tmp_path}/eval/pairs/bible-paraphrase"]
    _, notes = resolve_sets(ev)  # none of them in an empty data dir: three one-line notes, no error
    assert len(notes) == 3
