"""eval xsr and eval all: a pair with a side the model knows no token of (issue 41, the last case) is refused
naming FILE:LINE, or with --skip-bad skipped and counted per file; before, that side was scored as the [UNK]
row (eval all's embedding cache hid the model's test, so it still was there)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lingualite.cli.main import app

runner = CliRunner()


def _pairs(tmp_path: Path) -> Path:
    path = tmp_path / "en-fr" / "test.tsv"
    path.parent.mkdir()
    path.write_text(
        "the cat sleeps\tle chat dort\nhello world\tbonjour le monde\n😀😀\tsourire\ngood morning\tbon matin\n",
        encoding="utf-8",
    )
    return path


def test_eval_xsr_refuses_a_side_with_no_known_token(tmp_path: Path) -> None:
    path = _pairs(tmp_path)
    res = runner.invoke(app, ["eval", "xsr", "--model", "lingualite-static", "--pairs", str(path)])
    assert res.exit_code == 2 and f"{path}:3: the model knows no token" in res.output, res.output


def test_eval_xsr_skip_bad_skips_and_counts_it(tmp_path: Path) -> None:
    path = _pairs(tmp_path)
    args = ["eval", "xsr", "--model", "lingualite-static", "--pairs", str(path), "--skip-bad", "--json"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    per_test = json.loads(res.output)["per_test"]["en-fr"]
    assert per_test["skipped"] == 1 and per_test["num_pairs"] == 3


def test_skip_bad_counts_malformed_lines_too(tmp_path: Path) -> None:
    path = _pairs(tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + "a line with no tab\n", encoding="utf-8")
    args = ["eval", "xsr", "--model", "lingualite-static", "--pairs", str(path), "--skip-bad", "--json"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    result = json.loads(res.output)
    assert result["per_test"]["en-fr"]["skipped"] == 2 and result["skipped"] == 2  # no known token + no tab


def test_tfidf_fitted_on_the_file_knows_every_line(tmp_path: Path) -> None:
    res = runner.invoke(app, ["eval", "xsr", "--model", "tfidf", "--pairs", str(_pairs(tmp_path)), "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["per_test"]["en-fr"]["num_pairs"] == 4, res.output


def test_eval_all_refuses_it_and_skip_bad_skips_and_reports_it(static_model: Path, tmp_path: Path) -> None:
    path = tmp_path / "prepared" / "en-fr" / "test.tsv"
    path.parent.mkdir(parents=True)
    _pairs(tmp_path).rename(path)
    out = tmp_path / "report"
    model = f"static:{static_model}"  # a tiny static model: its vocabulary has no emoji
    args = ["eval", "all", "--model", model, "--tasks", "xsr", "--data-dir", str(tmp_path)]
    args += ["--output", str(out), "--threads", "1"]
    res = runner.invoke(app, args)
    assert res.exit_code == 2 and f"{path}:3: the model knows no token" in res.output, res.output
    res = runner.invoke(app, [*args, "--skip-bad"])
    assert res.exit_code == 0, res.output
    assert "xsr: p_at_1" in res.output and "1 bad test line(s) skipped" in res.output
    report = json.loads((out / "results.json").read_text())
    xsr = report["models"][model]["xsr"]
    assert xsr["skipped"] == xsr["per_test"]["en-fr"]["skipped"] == 1
    assert xsr["per_test"]["en-fr"]["num_pairs"] == 3 and report["settings"]["skip_bad"] is True
    assert f"not scored: {model} xsr 1." in (out / "results.md").read_text()
