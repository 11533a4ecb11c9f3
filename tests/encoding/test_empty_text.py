"""An empty (or blank) text never becomes a vector (issue 41, item 2): a static model gave an all-zero row in
an output documented as unit vectors, other models a vector of nothing. One rule: refused with the file and
line (or the list index), in every command and API call that encodes texts one row per text."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import lingualite
from lingualite.cli.main import app
from lingualite.core.errors import LinguaLiteError

runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("blank", ["", "   ", "\t"])
@pytest.mark.parametrize("prefix", ["", "static:"])
def test_encode_refuses_a_blank_line_naming_it(static_model: Path, tmp_path: Path, blank: str, prefix: str):
    src = tmp_path / "in.txt"
    src.write_text(f"the cat\n{blank}\na dog\n")
    out = tmp_path / "v.npy"
    res = _run("encode", "--model", f"{prefix}{static_model}", "--input", src, "--output", out)
    assert res.exit_code == 2, res.output
    assert f"{src}:2: " in res.output and "blank" in res.output and res.output.count("\n") == 1, res.output
    assert not out.exists()


def test_every_encode_engine_refuses_it(static_model: Path, tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("the cat\na dog\n\n")
    out = tmp_path / "v.npy"
    for extra in (["--workers", "2"], []):
        res = _run("encode", "--model", static_model, "--input", src, "--output", out, *extra)
        assert res.exit_code == 2 and f"{src}:3: " in res.output, res.output
    res = _run("encode", "--model", "tfidf", "--input", src, "--output", out)  # fitted on its input
    assert res.exit_code == 2 and f"{src}:3: " in res.output, res.output
    from lingualite.encoding.ray_workers import read_pieces

    with pytest.raises(LinguaLiteError, match=r"in.txt:3: "):
        list(read_pieces(src))


def test_parquet_input_refuses_an_empty_text(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from lingualite.encoding.ray_workers import read_pieces

    path = tmp_path / "docs.parquet"
    pq.write_table(pa.table({"text": ["the cat", " ", "a dog"]}), path)
    with pytest.raises(LinguaLiteError, match=r"docs.parquet: row 1 \(from 0\).*blank"):
        list(read_pieces(path))


def test_the_api_refuses_an_empty_text_naming_its_index(static_model: Path, tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match=r"texts\[1\]: .*blank"):
        lingualite.encode(str(static_model), ["the cat", ""])
    src = tmp_path / "in.txt"
    src.write_text("the cat\n\n")
    with pytest.raises(LinguaLiteError, match=r"in.txt:2: "):
        lingualite.encode_file(str(static_model), src, tmp_path / "v.npy", progress=False)


def test_mine_refuses_a_blank_line(static_model: Path, tmp_path: Path) -> None:
    src, tgt = tmp_path / "a.txt", tmp_path / "b.txt"
    src.write_text("the cat runs\n\na red car\n")
    tgt.write_text("a red car\nthe cat runs\n")
    out = tmp_path / "pairs.tsv"
    res = _run("mine", "--model", f"static:{static_model}", "--src", src, "--tgt", tgt, "--output", out)
    assert res.exit_code == 2 and f"{src}:2: " in res.output, res.output
    assert not out.exists()
