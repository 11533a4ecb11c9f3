"""``lingualite mine`` and ``lingualite eval mine`` through the command line."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lingualite.cli.main import app

runner = CliRunner()


def test_mine_command_writes_pairs_and_json(static_model: str, tmp_path: Path) -> None:
    src, tgt = tmp_path / "a.txt", tmp_path / "b.txt"
    src.write_text("the cat runs\nthe dog eats\na red car\n", encoding="utf-8")
    tgt.write_text("a red car\nthe cat runs\n", encoding="utf-8")
    out = tmp_path / "pairs.tsv"
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
        "--json",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["pairs"] == 2 and summary["search"] == "exact"
    pairs = {tuple(line.split("\t")[1:]) for line in out.read_text(encoding="utf-8").splitlines()}
    assert pairs == {("the cat runs", "the cat runs", "1", "2"), ("a red car", "a red car", "3", "1")}


def test_another_threshold_reselects_from_the_work_folder_without_encoding(
    static_model: str, tmp_path: Path, monkeypatch
) -> None:
    """What `mine --help` promises: a re-run with another --threshold only re-selects (no model is loaded)."""
    import lingualite.encoding.workers as parallel_encode

    src, tgt = tmp_path / "a.txt", tmp_path / "b.txt"
    src.write_text("the cat runs\nthe dog eats\na red car\n", encoding="utf-8")
    tgt.write_text("a red car\nthe cat runs\nblue sky today\n", encoding="utf-8")
    out = tmp_path / "pairs.tsv"
    args = ["mine", "--model", static_model, "--src", str(src), "--tgt", str(tgt), "--output", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    scores = sorted(float(line.split("\t")[0]) for line in out.read_text(encoding="utf-8").splitlines())

    def no_encoding(*args: object, **kwargs: object) -> None:
        raise AssertionError("re-encoded")

    monkeypatch.setattr(parallel_encode, "EncoderPool", no_encoding)
    assert len(scores) == 2 and scores[0] < scores[1], scores
    result = runner.invoke(app, [*args, "--threshold", str((scores[0] + scores[1]) / 2), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.strip().splitlines()[-1])["pairs"] == 1
    assert out.read_text(encoding="utf-8").count("\n") == 1


def test_mine_command_errors_are_one_line(static_model: str, tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    src.write_text("x\n", encoding="utf-8")
    base = ["mine", "--model", static_model, "--src", str(src), "--tgt", str(src)]
    result = runner.invoke(app, [*base, "--output", str(tmp_path / "p.tsv"), "--mode", "both"])
    assert result.exit_code == 2 and "--mode 'both'" in result.output
    result = runner.invoke(app, [*base, "--output", str(src)])
    assert result.exit_code == 2 and "also an input" in result.output
    assert src.read_text(encoding="utf-8") == "x\n"


def test_eval_mine_command(tmp_path: Path) -> None:
    folder = tmp_path / "prepared" / "en-fr"
    folder.mkdir(parents=True)
    for split, n in (("train", 700), ("valid", 40), ("test", 40)):
        lines = [
            f"{split} sentence {i} on subject {i % 5}\t{split} phrase {i} sujet {i % 5}\n" for i in range(n)
        ]
        (folder / f"{split}.tsv").write_text("".join(lines), encoding="utf-8")
    result = runner.invoke(
        app, ["eval", "mine", "--model", "tfidf", "--gold", "3", "--data-dir", str(tmp_path), "--json"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert {"en-fr/1:1", "en-fr/1:10", "en-fr/1:100", "mean/1:100"} <= set(out["results"])


def test_an_output_in_another_format_is_refused(tmp_path: Path) -> None:
    """mine writes TSV: any name, but not one whose suffix promises another format (checked before loading)."""
    src = tmp_path / "a.txt"
    src.write_text("x\n", encoding="utf-8")
    for command in (["mine", "--model", "tfidf"], ["align", "--model", "tfidf"]):
        res = runner.invoke(
            app, [*command, "--src", str(src), "--tgt", str(src), "--output", str(tmp_path / "p.npy")]
        )
        assert res.exit_code == 2 and "writes .tsv or .txt or a name without a suffix, not .npy" in res.output


def test_another_output_name_finds_the_encoded_shards(static_model: str, tmp_path: Path, monkeypatch) -> None:
    """Re-selecting at another threshold under another --output: the work folder of the same models and
    inputs (found by its recorded content key, whatever its name) is reused, nothing is encoded again."""
    import lingualite.encoding.workers as parallel_encode

    src, tgt = tmp_path / "a.txt", tmp_path / "b.txt"
    src.write_text("the cat runs\nthe dog eats\na red car\n", encoding="utf-8")
    tgt.write_text("a red car\nthe cat runs\nblue sky today\n", encoding="utf-8")
    base = ["mine", "--model", static_model, "--src", str(src), "--tgt", str(tgt)]
    assert runner.invoke(app, [*base, "--output", str(tmp_path / "mined.tsv")]).exit_code == 0

    def no_encoding(*args: object, **kwargs: object) -> None:
        raise AssertionError("re-encoded")

    monkeypatch.setattr(parallel_encode, "EncoderPool", no_encoding)
    result = runner.invoke(app, [*base, "--output", str(tmp_path / "mined-strict.tsv"), "--threshold", "1.0"])
    assert result.exit_code == 0, result.output
    assert "mined.tsv.work" in result.output  # says which work folder it reuses
    # another target file: the source's shards are found by content and linked, only the target is encoded
    other = tmp_path / "c.txt"
    other.write_text("the dog eats\n", encoding="utf-8")
    monkeypatch.undo()
    calls: list[object] = []
    real = parallel_encode.EncoderPool

    class Counting(real):  # type: ignore[misc, valid-type]
        def encode(self, pieces):  # noqa: ANN001, ANN201
            pieces = list(pieces)
            calls.append(len(pieces))
            return super().encode(iter(pieces))

    monkeypatch.setattr(parallel_encode, "EncoderPool", Counting)
    args = ["mine", "--model", static_model, "--src", str(src), "--tgt", str(other)]
    result = runner.invoke(app, [*args, "--output", str(tmp_path / "mined-c.tsv")])
    assert result.exit_code == 0, result.output
    assert len(calls) == 1, calls  # the target only


def test_mine_prints_plain_progress_lines_while_encoding(static_model: str, tmp_path: Path) -> None:
    """Not on a terminal (nohup, CI): plain lines through encoding, not minutes of silence."""
    src, tgt = tmp_path / "a.txt", tmp_path / "b.txt"
    src.write_text("".join(f"sentence {i} of the source\n" for i in range(50)), encoding="utf-8")
    tgt.write_text("".join(f"sentence {i} of the target\n" for i in range(40)), encoding="utf-8")
    args = ["mine", "--model", static_model, "--src", str(src), "--tgt", str(tgt)]
    result = runner.invoke(app, [*args, "--output", str(tmp_path / "p.tsv")])
    assert result.exit_code == 0, result.output
    assert "mine: encode a.txt: 50/50 sentences" in result.output, result.output
    assert "mine: encode b.txt: 40/40 sentences" in result.output, result.output
