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


def test_a_line_with_no_known_token_is_refused_or_skipped_and_counted(tmp_path: Path) -> None:
    """Issue 41, the last case: an emoji-only line (the packaged static model knows no token of it) was mined
    with the [UNK] row; it is refused naming FILE:LINE, or with --skip-bad is in no pair and is counted."""
    import json

    src, tgt = tmp_path / "a.txt", tmp_path / "b.txt"
    src.write_text("the cat sleeps\nhello world\n😀😀\ngood morning\n", encoding="utf-8")
    tgt.write_text("le chat dort\nbonjour le monde\nbon matin\n🎉\n", encoding="utf-8")
    out = tmp_path / "p.tsv"
    res = _mine("lingualite-static", src, tgt, out)
    assert res.exit_code == 2 and f"{src}:3: the model knows no token" in res.output, res.output
    assert not out.exists()
    res = _mine("lingualite-static", src, tgt, out, "--skip-bad", "--json")
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output.strip().splitlines()[-1])
    assert summary["skipped"] == {"src": 1, "tgt": 1}
    assert f"skipped 1 lines of {src}" in res.output
    rows = [line.split("\t") for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows and all(r[3] != "3" and r[4] != "4" for r in rows), rows
    assert json.loads((tmp_path / "p.tsv.work" / "summary.json").read_text())["skipped"] == {
        "src": [3],
        "tgt": [4],
    }
