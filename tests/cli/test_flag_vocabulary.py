"""One vocabulary for flags across commands (#41): the output is `--output` everywhere (`--out` still works,
hidden, with a deprecation note), `-k` means hits (search) and mining's margin neighbourhood is `--margin-k`
(`--k` still works, with a note), and line numbers are 1-based in every command's output (align too)."""

from __future__ import annotations

from pathlib import Path

import click
import typer
from typer.testing import CliRunner

from lingualite.cli.main import app

runner = CliRunner()


def _commands(command: click.Command, path: str = "") -> list[tuple[str, click.Command]]:
    found = [(path, command)]
    for name, sub in getattr(command, "commands", {}).items():
        found += _commands(sub, f"{path} {name}".strip())
    return found


def test_every_output_option_is_spelled_output_and_out_is_hidden() -> None:
    root = typer.main.get_command(app)
    for path, command in _commands(root):
        for param in command.params:
            if "--out" in param.opts:
                assert param.hidden, f"{path}: --out is shown; the option is --output"
                assert any("--output" in p.opts for p in command.params), path


def test_k_is_hits_and_the_margin_neighbourhood_has_its_own_name() -> None:
    root = typer.main.get_command(app)
    for path, command in _commands(root):
        visible = {opt for p in command.params if not p.hidden for opt in p.opts}
        if path == "search":
            assert "-k" in visible
        elif path in ("mine", "eval mine", "eval xsr"):
            assert "--margin-k" in visible and "--k" not in visible and "-k" not in visible, path


def test_prepare_out_still_works_with_a_deprecation_note(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(
        "".join(f"w{i} w{i + 1} w{i + 2}\tm{i} m{i + 1} m{i + 2}\tdoc{i % 7}\n" for i in range(60)),
        encoding="utf-8",
    )
    old = runner.invoke(
        app,
        ["prepare", str(pairs), "--src", "en", "--tgt", "de", "--out", str(tmp_path / "a"), "--no-lang-id"],
    )
    assert old.exit_code == 0, old.output
    assert "--out is deprecated; use --output" in old.output
    assert (tmp_path / "a" / "train.tsv").exists()
    new = runner.invoke(
        app,
        [
            "prepare",
            str(pairs),
            "--src",
            "en",
            "--tgt",
            "de",
            "--output",
            str(tmp_path / "b"),
            "--no-lang-id",
        ],
    )
    assert new.exit_code == 0 and "deprecated" not in new.output, new.output
    assert (tmp_path / "b" / "train.tsv").exists()


def test_align_numbers_lines_from_1(tmp_path: Path) -> None:
    src, tgt = tmp_path / "a.en", tmp_path / "a.de"
    src.write_text("one cat\n\nthree dogs\n", encoding="utf-8")
    tgt.write_text("one cat\nthree dogs\n", encoding="utf-8")
    out = tmp_path / "al.tsv"
    res = runner.invoke(
        app,
        ["align", "--method", "gale-church", "--src", str(src), "--tgt", str(tgt), "--output", str(out)],
    )
    assert res.exit_code == 0, res.output
    ids = [line.split("\t")[:2] for line in out.read_text(encoding="utf-8").splitlines()]
    assert ids == [["1", "1"], ["3", "2"]]  # like `sed -n Np`, mine and search; blank line 2 not aligned
