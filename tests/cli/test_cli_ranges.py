"""Numeric command-line options are checked before anything runs (the issue's --stop-after -3 was accepted)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from lingualite.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize(
    "args",
    [
        ["train", "--stop-after", "-3"],
        ["train", "--max-steps", "0"],
        ["train", "--step-scale", "0"],
        ["distill", "--stop-after", "0"],
        ["distill", "--threads", "0"],
        ["quickstart", "--max-test-pairs", "-1"],
        ["encode", "--model", "m", "--input", "i", "--output", "o", "--batch-size", "0"],
        ["prepare", "x.tsv", "--valid-fraction", "1.5"],
        ["eval", "xsr", "--model", "tfidf", "--pairs", "x.tsv", "--margin-k", "0"],
        ["tokenizer", "train", "x.tsv", "--alpha", "-3"],
    ],
    ids=lambda a: " ".join(a[:3]),
)
def test_out_of_range_options_are_usage_errors(args: list[str], tmp_path) -> None:
    res = runner.invoke(
        app, [*args, *(["--output", str(tmp_path / "o")] if args[0] in ("train", "distill") else [])]
    )
    assert res.exit_code == 2
    assert "Invalid value" in res.output or "not in the range" in res.output


def test_resume_override_is_offered() -> None:
    for command in ("train", "distill"):
        shown = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).output
        assert "--allow-config-change" in shown and "--no-allow-config-change" not in shown


def test_help_and_version_defects_of_the_newcomer_report() -> None:
    import subprocess
    import sys

    wide = {"COLUMNS": "200"}
    assert runner.invoke(app, ["--version"]).output.startswith("lingualite ")
    assert "[u, v, u*v, |u-v|]" in runner.invoke(app, ["eval", "pairs", "--help"], env=wide).output
    prepare = runner.invoke(app, ["prepare", "--help"], env=wide).output
    assert "--no-lang-id" in prepare and "--no-no-lang-id" not in prepare
    assert "More files of the same kind" not in runner.invoke(app, ["eval", "xsr", "--help"], env=wide).output
    out = subprocess.run([sys.executable, "-m", "lingualite", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("lingualite ")
