"""``lingualite reproduce``: a test pair with a side the model knows no token of stops the cell naming
FILE:LINE; with --skip-bad it is skipped and counted (progress line, JSON, result.json, table.md), as
``eval xsr --skip-bad`` does. The cell names an existing model (a tiny static one, whose vocabulary has no
emoji): nothing trains."""

from __future__ import annotations

import json
from pathlib import Path

from reproduce_fixtures import write_table
from typer.testing import CliRunner

from lingualite.cli.main import app

runner = CliRunner()


def _table(tmp_path: Path, model: str) -> tuple[Path, Path]:
    pairs = tmp_path / "en-fr" / "test.tsv"
    pairs.parent.mkdir()
    pairs.write_text(
        "the cat sleeps\tle chat dort\nhello world\tbonjour le monde\n😀😀\tsourire\ngood morning\tbon matin\n",
        encoding="utf-8",
    )
    table = {
        "title": "Tiny table",
        "source": "a test",
        "scales": {"tiny": {"base": "base.yaml", "note": "an existing model", "max_test_pairs": 40}},
        "evaluation": {"test_files": [str(pairs)], "seed": 0},
        "columns": [{"key": "xsr", "label": "XSR en-fr", "metric": "xsr/en-fr/p_at_1", "percent": True}],
        "cells": [{"name": "static", "label": "Static", "model": model}],
    }
    return write_table(tmp_path / "tables", table), pairs


def test_a_line_with_no_known_token_stops_the_cell_unless_skip_bad(
    static_model: Path, tmp_path: Path
) -> None:
    table, pairs = _table(tmp_path, f"static:{static_model}")
    out = tmp_path / "sweep"
    args = ["reproduce", str(table), "--scale", "tiny", "--output", str(out), "--threads", "1", "--json"]
    res = runner.invoke(app, args)
    assert res.exit_code == 2 and f"{pairs}:3: the model knows no token" in res.output, res.output
    assert "--skip-bad" in res.output  # the error says how to go on

    res = runner.invoke(app, [*args, "--skip-bad"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["cells"] == {"static": {"before": "evaluate", "skipped": 1}}
    assert "1 bad test line(s) skipped" in res.stderr
    metrics = json.loads((out / "cells" / "static" / "result.json").read_text())["metrics"]
    assert metrics["xsr/en-fr/skipped"] == metrics["xsr/skipped"] == metrics["evaluation/skipped"] == 1
    assert metrics["xsr/en-fr/num_pairs"] == 3
    assert "not scored: Static 1." in (out / "table.md").read_text()
    # a later run without the flag keeps the finished cell, and still says what it skipped
    res = runner.invoke(app, args)
    assert res.exit_code == 0 and json.loads(res.stdout)["cells"]["static"] == {
        "before": "cached",
        "skipped": 1,
    }


def test_a_study_refuses_skip_bad() -> None:
    res = runner.invoke(app, ["reproduce", "001-table3", "--skip-bad", "--output", "unused"])
    assert res.exit_code == 2 and "--skip-bad applies to sweep tables" in res.output, res.output
