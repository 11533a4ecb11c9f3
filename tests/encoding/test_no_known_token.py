"""A text with no token the model knows never becomes a vector (issue 41, the last case): with the packaged
static model, an emoji-only line was the [UNK] row, the same for every such line, which search, mining and
evaluation silently rank as similar to nothing. Refused naming FILE:LINE (or texts[i]); `--skip-bad` gives it
no row, lists it in OUTPUT.skipped.txt and counts it, on every engine, so a long run never stops for one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import lingualite
from lingualite.cli.main import app
from lingualite.core.errors import BadInputError

runner = CliRunner()
MODEL = "lingualite-static"
LINES = ["the cat sleeps", "😀😀😀", "good morning", "🎉"]


def _run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def emoji_file(tmp_path: Path) -> Path:
    src = tmp_path / "in.txt"
    src.write_text("".join(f"{line}\n" for line in LINES), encoding="utf-8")
    return src


def test_encode_refuses_an_emoji_only_line_naming_it(emoji_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "v.npy"
    res = _run("encode", "--model", MODEL, "--input", emoji_file, "--output", out)
    assert res.exit_code == 2, res.output
    assert f"{emoji_file}:2: " in res.output and "knows no token" in res.output, res.output
    assert "--skip-bad" in res.output and "😀😀😀" in res.output and res.output.count("\n") == 1
    assert not out.exists()


@pytest.mark.parametrize("extra", [[], ["--workers", "2"], ["--precision", "int8"], ["--dimensions", "32"]])
def test_skip_bad_gives_no_row_and_lists_the_lines(
    emoji_file: Path, tmp_path: Path, extra: list[str]
) -> None:
    out = tmp_path / "v.npy"
    res = _run(
        "encode", "--model", MODEL, "--input", emoji_file, "--output", out, "--skip-bad", "--json", *extra
    )
    assert res.exit_code == 0, res.output
    assert '"skipped": 2' in res.output, res.output
    assert (tmp_path / "v.npy.skipped.txt").read_text() == "2\n4\n"
    stored = np.load(out)
    assert stored.shape[0] == 2
    if not extra:
        expected = lingualite.encode(MODEL, [LINES[0], LINES[2]])
        np.testing.assert_allclose(stored, expected, atol=1e-5)


def test_encode_file_reports_the_skipped_lines_and_a_clean_run_removes_an_old_list(
    emoji_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "v.npy"
    warnings: list[str] = []
    result = lingualite.encode_file(
        MODEL, emoji_file, out, skip_bad=True, report=warnings.append, progress=False
    )
    assert result.skipped == [2, 4] and result.sentences == 4
    assert any("skipped 2 lines" in w for w in warnings), warnings
    clean = tmp_path / "clean.txt"
    clean.write_text("the cat sleeps\ngood morning\n")
    lingualite.encode_file(MODEL, clean, out, progress=False)
    assert not (tmp_path / "v.npy.skipped.txt").exists()  # it would describe the earlier output
    assert np.load(out).shape[0] == 2


def test_the_api_refuses_such_a_text_naming_its_index() -> None:
    with pytest.raises(BadInputError, match=r"^texts\[1\]: the model knows no token"):
        lingualite.encode(MODEL, ["the cat sleeps", "😀😀😀"])


def test_a_line_with_one_known_token_is_encoded(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("the cat 😀\n😀 .\n")
    res = _run("encode", "--model", MODEL, "--input", src, "--output", tmp_path / "v.npy")
    assert res.exit_code == 0, res.output


def test_ray_actors_give_no_parquet_row_to_such_a_line_and_the_driver_finds_it(tmp_path: Path) -> None:
    """--engine ray into a Parquet folder: the actor drops the row (each row keeps its line number), and the
    driver reads which lines are missing to refuse or count them (checked here without starting Ray)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from lingualite.encoding.ray_workers import EmbedBatch, missing_lines

    batch = pa.table({"line": pa.array(range(4), pa.int64()), "text": pa.array(LINES)})
    out = EmbedBatch(MODEL, None, True, drop_marked=True)(batch)
    assert out.column("line").to_pylist() == [0, 2] and out.num_rows == 2
    pq.write_table(out, tmp_path / "part.parquet")
    assert missing_lines([tmp_path / "part.parquet"], 4) == [2, 4]
    kept = EmbedBatch(MODEL, None, True)(batch)  # into a .npy: the marked rows stay, as zeros, for write_npy
    assert kept.num_rows == 4
