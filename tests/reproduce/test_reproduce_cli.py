"""``lingualite reproduce``: --list, --dry-run, and a whole tiny sweep through the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lingualite.cli.main import app

pytestmark = pytest.mark.slow  # trains and evaluates a sweep's cells: left out of the fast tier


def test_list_shows_the_shipped_tables_with_their_cell_counts() -> None:
    res = CliRunner().invoke(app, ["reproduce", "--list", "--json"])
    assert res.exit_code == 0, res.output
    tables = json.loads(res.stdout)["tables"]
    assert tables["000-table6"]["cells"] == 5 and tables["000-table7"]["cells"] == 3
    assert tables["000-table5"]["scales"] == "cpu,paper"


def test_dry_run_plans_without_running(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    res = CliRunner().invoke(
        app, ["reproduce", "000-table7", "--dry-run", "--output", str(out), "--data-dir", "/d", "--json"]
    )
    assert res.exit_code == 0, res.output
    cells = json.loads(res.stdout)["cells"]
    assert list(cells) == ["ugt", "ugt_align", "ugt_align_sim"]
    assert {c["state"] for c in cells.values()} == {"new"}
    assert "objective.similarity_weight=0" in cells["ugt_align"]["overrides"]
    assert not out.exists()


def test_bad_names_fail_with_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["reproduce", "000-table6", "--scale", "gpu", "--dry-run"])
    assert res.exit_code == 2 and "no scale 'gpu'" in res.output
    res = runner.invoke(app, ["reproduce", "000-table6", "--cells", "mlm,nope", "--dry-run"])
    assert res.exit_code == 2 and "no cell 'nope'" in res.output
    res = runner.invoke(app, ["reproduce"])
    assert res.exit_code == 2 and "name a TABLE" in res.output


def test_a_tiny_sweep_through_the_cli(tiny_table: Path, tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    args = ["reproduce", str(tiny_table), "--scale", "tiny", "--output", str(out), "--threads", "1", "--json"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["cells"] == {"ugt": {"before": "new"}, "xtr": {"before": "new"}}
    assert "Cells finished: 2/2" in (out / "table.md").read_text()
    res = CliRunner().invoke(app, args)
    assert json.loads(res.stdout)["cells"] == {"ugt": {"before": "cached"}, "xtr": {"before": "cached"}}

    # another output folder beside it: both cells would be copied from the first sweep, unless --no-reuse
    plan = ["reproduce", str(tiny_table), "--scale", "tiny", "--output", str(tmp_path / "again"), "--dry-run"]
    res = CliRunner().invoke(app, [*plan, "--json"])
    cells = json.loads(res.stdout)["cells"]
    assert [c["state"] for c in cells.values()] == ["reuse", "reuse"]
    assert cells["ugt"]["what"].endswith(f"({out / 'cells' / 'ugt'})")
    res = CliRunner().invoke(app, [*plan, "--json", "--no-reuse"])
    assert [c["state"] for c in json.loads(res.stdout)["cells"].values()] == ["new", "new"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    res = CliRunner().invoke(app, [*plan, "--json", "--reuse-from", str(elsewhere)])
    assert [c["state"] for c in json.loads(res.stdout)["cells"].values()] == ["new", "new"]
