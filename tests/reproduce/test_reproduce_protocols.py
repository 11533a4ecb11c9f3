"""The runner's paper protocols on a tiny grid: classification in both directions (paper 000 Table 3), pooled
XSR with per-pair distractors (Table 4), per-cell evaluation changes (bilingual models), cells that evaluate
an existing model, efficiency (paper 002 Table 3), and columns that average several metrics."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from reproduce_fixtures import TABLE, write_table

from lingualite.core.errors import ConfigError, LinguaLiteError
from lingualite.reproduce import load_table, plan_sweep, render_table, run_sweep
from lingualite.reproduce.protocols import cell_evaluator
from lingualite.reproduce.table import cell_config, cell_evaluation

pytestmark = pytest.mark.slow  # trains and evaluates a sweep's cells: left out of the fast tier

TOPICS = {"animals": ("cat dog", "chat chien"), "cars": ("car red", "voiture rouge")}


def _classification_set(folder: Path) -> Path:
    """train/test x en/fr, 6 documents per label (words of the synthetic corpus)."""
    folder.mkdir(parents=True)
    for split in ("train", "test"):
        for lang, side in (("en", 0), ("fr", 1)):
            lines = [
                f"{label}\t{words[side]} {words[side]} {i}"
                for label, words in TOPICS.items()
                for i in range(6)
            ]
            (folder / f"{split}.{lang}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def _protocol_table(tmp_path: Path) -> dict[str, Any]:
    table = copy.deepcopy(TABLE)
    table["evaluation"] = {
        "test_files": ["{data_dir}/en-fr/valid.tsv"],
        "classify": [str(_classification_set(tmp_path / "eval" / "modules"))],
        "classify_directions": ["en2xx", "xx2en"],
        "pooled": {"test_files": ["{data_dir}/en-fr/valid.tsv"], "queries": 10, "pool": 40,
                   "distractors": ["{data_dir}/{pair}/train.tsv"]},
        "seed": 0,
    }  # fmt: skip
    table["scales"]["tiny"]["evaluation"] = {"pooled.pool": 30}
    metrics = {
        "cls_en_fr": "classify/modules/fr/accuracy",
        "cls_fr_en": "classify/modules/xx2en/fr/accuracy",
        "xsr_en_fr": "xsr_pooled/en-fr/src2tgt_p_at_1",
        "xsr_fr_en": "xsr_pooled/en-fr/tgt2src_p_at_1",
        "avg": ["classify/modules/fr/accuracy", "classify/modules/xx2en/fr/accuracy"],
    }
    table["columns"] = [{"key": k, "label": k, "metric": m, "percent": True} for k, m in metrics.items()]
    table["cells"] = [
        {"name": "joint", "label": "joint", "paper": {"cls_en_fr": 85.1, "avg": 83.8}},
        {"name": "tfidf", "label": "TF-IDF", "model": "tfidf"},
        {
            "name": "no-pooled",
            "label": "square only",
            "model": "tfidf",
            "evaluation": {"pooled.test_files": []},
        },
    ]
    return table


def test_both_directions_pooled_xsr_cell_changes_and_a_model_cell(
    tmp_path: Path, synthetic_corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LINGUALITE_DATA_DIR", str(synthetic_corpus))
    spec = load_table(write_table(tmp_path / "tables", _protocol_table(tmp_path)))
    assert cell_evaluation(spec, spec.cell("joint"), "tiny").pooled.pool == 30  # the scale's change
    out = tmp_path / "sweep"
    plans = run_sweep(
        spec, "tiny", out, cell_evaluator(1), threads=1, progress=lambda _: None,
        on_done=lambda: render_table(spec, "tiny", out),
    )  # fmt: skip
    assert [p.state for p in plans] == ["new", "evaluate", "evaluate"] and plans[1].model == "tfidf"
    joint = json.loads((out / "cells" / "joint" / "result.json").read_text())["metrics"]
    assert (
        0 <= joint["classify/modules/xx2en/fr/accuracy"] <= 1
        and joint["classify/modules/xx2en/fr/num_train"] == 12
    )
    assert joint["xsr_pooled/en-fr/src2tgt_pool_size"] == joint["xsr_pooled/en-fr/tgt2src_pool_size"] == 30
    assert 0 <= joint["xsr_pooled/p_at_1"] <= 1 and "xsr/en-fr/p_at_1" in joint
    square = json.loads((out / "cells" / "no-pooled" / "result.json").read_text())["metrics"]
    assert not any(k.startswith("xsr_pooled/") for k in square) and "classify/modules/fr/accuracy" in square
    tfidf = json.loads((out / "cells" / "tfidf" / "result.json").read_text())
    assert tfidf["config"] == {"model": "tfidf"} and not (out / "cells" / "tfidf" / "timing.json").exists()
    assert "xsr_pooled/en-fr/tgt2src_p_at_1" in tfidf["metrics"]
    text = (out / "table.md").read_text()
    assert "Cells finished: 3/3" in text and "Pooled XSR (paper 000's Table 4 protocol)" in text
    assert "; en2xx, xx2en) on modules" in text
    rows = {r["cell"]: r for r in json.loads((out / "table.json").read_text())["rows"]}
    expected = (joint["classify/modules/fr/accuracy"] + joint["classify/modules/xx2en/fr/accuracy"]) * 50
    assert rows["joint"]["ours"]["avg"] == pytest.approx(expected)
    assert rows["no-pooled"]["ours"]["xsr_en_fr"] is None  # not measured for this cell: shown as "–"

    # cached on a rerun, the model cells too
    plans = plan_sweep(spec, "tiny", out)
    assert [p.state for p in plans] == ["cached", "cached", "cached"]


def test_efficiency_of_a_trained_cell_and_a_model_cell(
    tmp_path: Path, synthetic_corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plumbing of paper 002's Table 3 (the measure itself: tests/evaluation/test_efficiency.py)."""
    import lingualite.evaluation.efficiency as efficiency

    calls: list[dict[str, Any]] = []

    def measured(model: str, texts: list[str], **options: Any) -> dict[str, Any]:
        calls.append({"model": model, "texts": len(texts), **options})
        return {"latency_ms_p25": 1.0, "latency_ms_p50": 2.0, "latency_ms_p75": 3.0, "cpu_ms_p50": 1.5,
                "energy_mj_p50": None, "batch1_energy_method": "not measurable here", "threads": 1}  # fmt: skip

    monkeypatch.setattr(efficiency, "measure_efficiency", measured)
    monkeypatch.setenv("LINGUALITE_DATA_DIR", str(synthetic_corpus))
    table = copy.deepcopy(TABLE)
    table["evaluation"] = {"test_files": [], "efficiency": {"texts": "{data_dir}/en-fr/valid.tsv",
                                                            "max_texts": 20, "single_runs": 30, "threads": 1}}  # fmt: skip
    table["columns"] = [{"key": "p50", "label": "Inference time (ms)", "metric": "efficiency/latency_ms_p50"},
                        {"key": "energy", "label": "Energy", "metric": "efficiency/energy_mj_p50"}]  # fmt: skip
    paper = {"p50": 2.34, "energy": 120.12}
    table["cells"] = [{"name": "tfidf", "label": "TF-IDF", "model": "tfidf", "paper": paper},
                      {"name": "student", "label": "1 x 16"}]  # fmt: skip
    spec = load_table(write_table(tmp_path / "tables", table))
    out = tmp_path / "sweep"
    run_sweep(spec, "tiny", out, cell_evaluator(1), threads=1, progress=lambda _: None)
    options = {
        "texts": 20,
        "batch_size": 64,
        "single_runs": 30,
        "energy": False,
        "threads": 1,
        "device": "auto",
    }
    assert calls == [{"model": "tfidf", **options}, {"model": str(out / "cells" / "student"), **options}]
    metrics = json.loads((out / "cells" / "student" / "result.json").read_text())["metrics"]
    assert metrics["efficiency/latency_ms_p50"] == 2.0 and "efficiency/energy_mj_p50" not in metrics
    assert not any(k.startswith(("xsr", "classify")) for k in metrics) and metrics["model/parameters"] > 0
    render_table(spec, "tiny", out)
    text = (out / "table.md").read_text()
    assert "Efficiency: each model in a fresh process (1 thread), 30 batch-1 calls" in text
    assert "sentences of en-fr/valid.tsv" in text
    assert "| TF-IDF | 2.0 / 2.3 | – / 120.1 |" in text  # energy not measured here: "–", never a number


def test_retrieval_columns_and_a_missing_ir_folder(
    tmp_path: Path, synthetic_corpus: Path, eval_tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Paper 002's Table 2 measures: a trained cell and a model cell, English and cross-lingual queries."""
    from lingualite.encoders import load_encoder
    from lingualite.evaluation.suite import ir_from_files

    monkeypatch.setenv("LINGUALITE_DATA_DIR", str(synthetic_corpus))
    ir = eval_tree[0] / "ir" / "libreoffice-index"
    table = copy.deepcopy(TABLE)
    table["evaluation"] = {"test_files": [], "ir": {"data": str(ir / "en"), "queries": [str(ir / "fr")]}}
    table["columns"] = [{"key": "mrr_en", "label": "MRR@10 en", "metric": "ir/en/mrr_at_10", "digits": 3},
                        {"key": "mrr_xx", "label": "MRR@10 xx", "metric": ["ir/fr/mrr_at_10"], "digits": 3}]  # fmt: skip
    table["cells"] = [{"name": "student", "label": "1 x 16"},
                      {"name": "tfidf", "label": "TF-IDF", "model": "tfidf", "paper": {"mrr_en": 0.5874}}]  # fmt: skip
    spec = load_table(write_table(tmp_path / "tables", table))
    out = tmp_path / "sweep"
    run_sweep(spec, "tiny", out, cell_evaluator(1), threads=1, progress=lambda _: None)
    for cell in ("student", "tfidf"):
        metrics = json.loads((out / "cells" / cell / "result.json").read_text())["metrics"]
        assert {"ir/en/mrr_at_10", "ir/fr/ndcg_at_10", "ir/fr/map_at_100"} <= metrics.keys()
        assert not any(k.startswith(("xsr", "classify", "efficiency")) for k in metrics)
    tfidf = json.loads((out / "cells" / "tfidf" / "result.json").read_text())["metrics"]
    direct = ir_from_files(load_encoder("tfidf"), ir / "en", [ir / "fr"], max_queries=1000)
    assert tfidf["ir/en/mrr_at_10"] == pytest.approx(direct["per_test"]["en"]["mrr_at_10"])
    assert tfidf["ir/fr/mrr_at_10"] == pytest.approx(direct["per_test"]["fr"]["mrr_at_10"])
    render_table(spec, "tiny", out)
    text = (out / "table.md").read_text()
    assert "MRR@10, NDCG@10 and MAP@100 of at most 1,000 seeded queries per folder (en, fr)" in text
    assert f"| TF-IDF | {tfidf['ir/en/mrr_at_10']:.3f} / 0.587 |" in text

    table["evaluation"]["ir"]["queries"] = [str(ir / "xx")]
    spec = load_table(write_table(tmp_path / "tables2", table))
    with pytest.raises(LinguaLiteError, match=r"xx/queries.tsv: missing \(IR set of the table"):
        run_sweep(spec, "tiny", tmp_path / "sweep2", cell_evaluator(1), progress=lambda _: None)
    assert not (tmp_path / "sweep2" / "cells" / "student").exists()  # refused before training


def test_bad_protocol_settings_are_one_line_errors(
    tmp_path: Path, synthetic_corpus: Path, monkeypatch
) -> None:
    monkeypatch.setenv("LINGUALITE_DATA_DIR", str(synthetic_corpus))
    cases = [
        (lambda t: t["evaluation"].update({"classify_directions": ["fr2en"]}), r"classify_directions: direction"),
        (lambda t: t["evaluation"].update({"pooled": {"queries": 50, "pool": 10}}), r"pool \(10\) must be at least"),
        (lambda t: t["evaluation"].update({"pooled": {"method": "cosine"}}), "method: 'cosine' is not one of"),
        (lambda t: t["cells"][0].update({"model": "tfidf"}), "trains nothing: no overrides"),
        (lambda t: t["cells"][0].update({"evaluation": {"pooled.qeuries": 5}}), r"unknown key\(s\) \['qeuries'\]"),
        (lambda t: t["columns"][0].update({"metric": []}), "a list must name at least one metric"),
        (lambda t: t["evaluation"].update({"ir": {"queries": ["x"]}}), "ir.queries: needs ir.data"),
        (lambda t: t["evaluation"].update({"ir": {"data": "d", "max_queries": 0}}), "max_queries"),
    ]  # fmt: skip
    for edit, message in cases:
        data = copy.deepcopy(TABLE)
        edit(data)
        path = write_table(tmp_path / "bad", data)
        with pytest.raises(ConfigError, match=message) as info:
            load_table(path)
        assert str(path) in str(info.value) and "\n" not in str(info.value)
    model = copy.deepcopy(TABLE)
    model["cells"].append({"name": "gone", "label": "gone", "model": str(tmp_path / "no-model")})
    spec = load_table(write_table(tmp_path / "model", model))
    with pytest.raises(LinguaLiteError, match="cell gone: model .* is neither a baseline"):
        plan_sweep(spec, "tiny", tmp_path / "out")
    with pytest.raises(ConfigError, match="evaluates the model"):
        cell_config(spec, spec.cell("gone"), "tiny")


def test_missing_translated_training_documents_stop_before_training(
    tmp_path: Path, synthetic_corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LINGUALITE_DATA_DIR", str(synthetic_corpus))
    data = _protocol_table(tmp_path)
    (Path(data["evaluation"]["classify"][0]) / "train.fr.tsv").unlink()
    spec = load_table(write_table(tmp_path / "tables", data))
    trained: list[str] = []
    monkeypatch.setattr("lingualite.recipes.train", lambda *a, **k: trained.append("x"))
    with pytest.raises(LinguaLiteError, match=r"xx2en direction needs training documents in fr"):
        run_sweep(spec, "tiny", tmp_path / "sweep", cell_evaluator(1), progress=lambda _: None)
    data["evaluation"]["classify_directions"] = ["en2xx"]
    data["evaluation"]["pooled"]["distractors"] = ["{data_dir}/{pair}/missing.tsv"]
    spec = load_table(write_table(tmp_path / "tables2", data))
    with pytest.raises(LinguaLiteError, match=r"en-fr/missing.tsv: no distractor file matches"):
        run_sweep(spec, "tiny", tmp_path / "sweep2", cell_evaluator(1), progress=lambda _: None)
    assert trained == []


def test_shipped_protocol_tables_dry_run(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from lingualite.cli.main import app

    res = CliRunner().invoke(
        app, ["reproduce", "002-table3", "--dry-run", "--output", str(tmp_path / "s"), "--json"]
    )
    assert res.exit_code == 0, res.output
    cells = json.loads(res.stdout)["cells"]
    assert cells["minilm-teacher"]["overrides"] == "model=minilm (evaluated, not trained)"
    spec = load_table("002-table2")
    assert [c.model for c in spec.cells] == ["", "e5-small", "use-m", "tfidf"]
    assert cell_evaluation(spec, spec.cell("tfidf"), "cpu").efficiency.texts == ""  # TF-IDF: not timed
    assert cell_evaluation(spec, spec.cell("use-m"), "paper").ir.max_queries is None
    assert cells["minilm-teacher"]["state"] == "evaluate"
    data = yaml.safe_load((Path(load_table("000-bilingual").path)).read_text())
    assert {c["name"] for c in data["cells"]} >= {"en-fr", "en-de", "en-es", "en-it", "joint"}
