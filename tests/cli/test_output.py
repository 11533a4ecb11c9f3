"""Output for people and scripts: tables by default, one rounded JSON object with --json, no table twice."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.cli.output import emit, rounded, split_per_pair

runner = CliRunner()


def _pairs(path: Path) -> Path:
    path.write_text(
        "".join(f"word{i} thing{i} is here\tmot{i} chose{i} est ici\tdoc{i}\n" for i in range(30))
    )
    return path


def test_one_file_prints_one_table_two_files_one_per_file_table(tmp_path: Path) -> None:
    one = runner.invoke(app, ["eval", "xsr", "--model", "tfidf", "--pairs", str(_pairs(tmp_path / "a.tsv"))])
    assert one.exit_code == 0, one.output
    assert one.output.count("│ p_at_1 ") == 1 and "per_test" not in one.output
    two = runner.invoke(
        app,
        [
            "eval",
            "xsr",
            "--model",
            "tfidf",
            "--pairs",
            str(tmp_path / "a.tsv"),
            "--pairs",
            str(_pairs(tmp_path / "b.tsv")),
        ],
    )
    assert two.exit_code == 0 and "per_test" in two.output
    assert "…" not in two.output  # wide tables are transposed, not cut


def test_json_is_one_rounded_object(tmp_path: Path) -> None:
    res = runner.invoke(
        app, ["eval", "xsr", "--model", "tfidf", "--pairs", str(_pairs(tmp_path / "a.tsv")), "--json"]
    )
    data = json.loads(res.output)
    assert all(len(repr(v).split(".")[-1]) <= 6 for v in data.values() if isinstance(v, float))
    assert rounded({"x": [0.7124999999999999]}) == {"x": [0.7125]}


def test_per_pair_metrics_become_one_table(capsys) -> None:
    grouped = split_per_pair({"loss": 1.0, "valid_xsr_p_at_1/en-fr": 0.5, "valid_xsr_p_at_1/en-de": 0.25})
    assert grouped == {
        "loss": 1.0,
        "per_pair": {"en-fr": {"valid_xsr_p_at_1": 0.5}, "en-de": {"valid_xsr_p_at_1": 0.25}},
    }
    emit(grouped, "Training finished", as_json=False)
    out = capsys.readouterr().out
    assert "en-de" in out and "0.2500" in out and out.count("Training finished") == 2  # scalars + per pair


def test_prepare_and_encode_print_tables_unless_json(tmp_path: Path) -> None:
    src = _pairs(tmp_path / "c.tsv")
    res = runner.invoke(app, ["prepare", str(src), "--output", str(tmp_path / "p"), "--no-lang-id"])
    assert res.exit_code == 0, (
        res.output and "kept_train" in res.output and not res.output.lstrip().startswith("{")
    )
    res = runner.invoke(app, ["prepare", str(src), "--output", str(tmp_path / "q"), "--no-lang-id", "--json"])
    assert json.loads(res.output)["kept_train"] >= 1
