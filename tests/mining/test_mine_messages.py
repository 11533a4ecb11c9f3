"""`mine`'s refusals name the right thing and leave nothing behind (issue 41, smaller ones): an empty --tgt
left OUTPUT.work/; `--work-dir .` blamed "the input ."; `--model tfidf` advised encode's --workers/--engine."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from lingualite.cli.main import app

runner = CliRunner()


def _mine(static_model: str, src: Path, tgt: Path, out: Path, *extra: str):
    args = [
        "mine",
        "--model",
        static_model,
        "--src",
        str(src),
        "--tgt",
        str(tgt),
        "--output",
        str(out),
        *extra,
    ]
    return runner.invoke(app, args)


def test_an_empty_side_is_refused_before_the_work_folder_exists(static_model: str, tmp_path: Path) -> None:
    src, tgt = tmp_path / "a.txt", tmp_path / "b.txt"
    src.write_text("the cat runs\n")
    for content in ("", "the cat\n\n"):
        tgt.write_text(content)
        res = _mine(static_model, src, tgt, tmp_path / "p.tsv")
        assert res.exit_code == 2 and str(tgt) in res.output, res.output
        assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_an_output_in_the_work_folder_blames_the_work_folder(
    static_model: str, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.txt").write_text("the cat runs\n")
    Path("b.txt").write_text("the cat runs\n")
    res = _mine(static_model, Path("a.txt"), Path("b.txt"), Path("p.tsv"), "--work-dir", ".")
    assert res.exit_code == 2 and "work folder" in res.output and "input" not in res.output, res.output


def test_a_fitted_baseline_gets_advice_for_mine(tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    src.write_text("the cat runs\n")
    res = _mine("tfidf", src, src, tmp_path / "p.tsv")
    assert res.exit_code == 2 and "--engine" not in res.output and "--workers 1" not in res.output, res.output
    assert "mine" in res.output and "use-m" in res.output, res.output
