"""Messages name the real problem (issue 41, smaller ones): `prepare --out <a file>` said "[Errno 17] File
exists"; `export --model lingualite-small` said "does not exist"."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from lingualite.cli.main import app

runner = CliRunner()


def test_prepare_out_a_file(tmp_path: Path) -> None:
    pairs = tmp_path / "a.tsv"
    pairs.write_text("the cat\tle chat\tdoc1\n")
    out = tmp_path / "afile"
    out.write_text("mine")
    res = runner.invoke(app, ["prepare", str(pairs), "--out", str(out), "--no-lang-id"])
    assert res.exit_code == 2 and "is a file" in res.output and "--out" in res.output, res.output
    assert "Errno" not in res.output and out.read_text() == "mine"


def test_export_a_packaged_model(tmp_path: Path) -> None:
    res = runner.invoke(app, ["export", "--model", "lingualite-small", "--output", str(tmp_path / "x")])
    assert res.exit_code == 2 and "packaged model" in res.output and "does not exist" not in res.output
    assert not (tmp_path / "x").exists()
