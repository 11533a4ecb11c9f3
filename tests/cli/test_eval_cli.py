"""``lingualite eval <task>``: each sub-command on tiny files, one JSON object with the metric keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lingualite.cli.main import app

runner = CliRunner()


@pytest.fixture
def tree(eval_tree: tuple[Path, Path]) -> tuple[Path, Path]:
    return eval_tree


def _json(args: list[str]) -> dict:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_eval_help_lists_every_task() -> None:
    result = runner.invoke(app, ["eval", "--help"])
    for task in ("xsr", "classify", "pairs", "sts", "ir", "efficiency", "all"):
        assert task in result.output


def test_classify_accepts_several_test_files_after_one_option(tree) -> None:
    folder = tree[0] / "classify" / "bible-genres"
    out = _json(
        ["eval", "classify", "--model", "tfidf", "--train", str(folder / "train.en.tsv"), "--test",
         str(folder / "test.en.tsv"), str(folder / "test.fr.tsv"), "--seeds", "2", "--json"]
    )  # fmt: skip
    assert set(out["per_test"]) == {"en", "fr"}
    assert {"accuracy", "accuracy_std", "macro_f1"} <= out.keys() and out["classifier"] == "logreg"


@pytest.mark.slow
def test_pairs_sts_ir_json_keys(tree) -> None:
    ev = tree[0]
    pairs = ev / "pairs" / "bible-paraphrase"
    out = _json(["eval", "pairs", "--model", "tfidf", "--train", str(pairs / "train.en.tsv"), "--test",
                 str(pairs / "test.fr.tsv"), "--seeds", "1", "--json"])  # fmt: skip
    assert 0.0 <= out["accuracy"] <= 1.0 and "fr" in out["per_test"]
    out = _json(["eval", "sts", "--model", "tfidf", "--pairs", str(ev / "sts" / "lee" / "en.tsv"), "--json"])
    assert {"spearman", "pearson"} <= out.keys()
    ir = ev / "ir" / "libreoffice-index"
    out = _json(
        ["eval", "ir", "--model", "tfidf", "--data", str(ir / "en"), "--queries", str(ir / "fr"), "--json"]
    )
    assert {"mrr_at_10", "ndcg_at_10", "map_at_100"} <= out.keys() and set(out["per_test"]) == {"en", "fr"}


def test_xsr_margin_and_pooled_protocol(tree) -> None:
    test = tree[1] / "en-fr" / "test.tsv"
    out = _json(["eval", "xsr", "--model", "tfidf", "--pairs", str(test), "--method", "margin", "--json"])
    assert out["method"] == "margin" and "p_at_1" in out
    out = _json(
        ["eval", "xsr", "--model", "tfidf", "--pairs", str(test), "--queries", "10", "--pool", "20", "--json"]
    )
    assert out["per_test"]["en-fr"]["pool_size"] == 20 and out["per_test"]["en-fr"]["num_queries"] == 10


def test_xsr_pooled_in_both_directions(tree) -> None:
    test = tree[1] / "en-fr" / "test.tsv"
    distractors = str(tree[1] / "{pair}" / "test.tsv")
    out = _json(["eval", "xsr", "--model", "tfidf", "--pairs", str(test), "--queries", "5", "--distractors",
                 distractors, "--direction", "both", "--method", "margin", "--json"])  # fmt: skip
    row = out["per_test"]["en-fr"]
    assert {"src2tgt_p_at_1", "tgt2src_p_at_1", "tgt2src_pool_size"} <= row.keys() and row["num_queries"] == 5
    result = runner.invoke(
        app, ["eval", "xsr", "--model", "tfidf", "--pairs", str(test), "--direction", "up"]
    )
    assert result.exit_code == 2 and "choose from src2tgt, tgt2src or both" in result.output


def test_classify_a_set_in_both_directions(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    for name in ("train.en.tsv", "train.fr.tsv", "test.en.tsv", "test.fr.tsv"):
        lines = [f"{label}\t{label} words {label} {i}" for label in ("a", "b") for i in range(4)]
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = _json(["eval", "classify", "--model", "tfidf", "--set", str(folder), "--direction", "both",
                 "--seeds", "1", "--json"])  # fmt: skip
    assert out["direction"] == "both" and set(out["xx2en"]) == {"fr"} and set(out["en2xx"]) == {"en", "fr"}
    assert 0.0 <= out["xx2en_accuracy"] <= 1.0
    result = runner.invoke(app, ["eval", "classify", "--model", "tfidf", "--set", str(folder), "--train",
                                 str(folder / "train.en.tsv")])  # fmt: skip
    assert result.exit_code == 2 and "either --set or --train/--test" in result.output
    train, test = str(folder / "train.en.tsv"), str(folder / "test.fr.tsv")
    result = runner.invoke(app, ["eval", "classify", "--model", "tfidf", "--train", train, "--test", test,
                                 "--direction", "xx2en"])  # fmt: skip
    assert result.exit_code == 2 and "--direction needs --set" in result.output


@pytest.mark.slow
def test_efficiency_json(tree, tmp_path: Path) -> None:
    texts = tmp_path / "t.txt"
    texts.write_text("one sentence\nanother sentence here\n" * 10, encoding="utf-8")
    out = _json(["eval", "efficiency", "--model", "tfidf", "--texts", str(texts), "--single-runs", "5",
                 "--no-energy", "--json"])  # fmt: skip
    assert out["sentences_per_second"] > 0 and out["latency_ms_p95"] >= out["latency_ms_p50"]


def test_bad_input_is_one_line_naming_file_and_line(tree, tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("a b\tc d\t0.5\nno score here\n", encoding="utf-8")
    result = runner.invoke(app, ["eval", "sts", "--model", "tfidf", "--pairs", str(bad)])
    assert result.exit_code == 2 and f"{bad}:2:" in result.output
    result = runner.invoke(
        app, ["eval", "classify", "--model", "no-such-model", "--train", str(bad), "--test", str(bad)]
    )
    assert result.exit_code == 2 and "minilm" in result.output  # the error lists the baseline names
    result = runner.invoke(app, ["eval", "all", "--model", "tfidf", "--tasks", "xsr,speed"])
    assert result.exit_code == 2 and "speed" in result.output
