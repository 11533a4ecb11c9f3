"""`encode --engine ray`: Ray Data in local mode gives the plain encode's vectors (rows and order), from text or
Parquet, into a .npy, a Parquet folder or mining shards; without Ray, a one-line error says how to install it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.static import StaticEncoder
from lingualite.encoding.to_file import encode_file, l2_normalize

pytestmark = pytest.mark.slow  # starts processes, a server or Ray: left out of the fast tier

WORDS = ["the cat", "le chien rouge", "a big house runs", "voiture", "a dog", "the the dog sleeps slowly"]


@pytest.fixture(scope="module")
def ray_local():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=128 * 2**20, ignore_reinit_error=True)
    yield ray
    ray.shutdown()


@pytest.fixture()
def texts() -> list[str]:
    return [f"{WORDS[i % len(WORDS)]} {i}" for i in range(53)]


def _plain(static_model: Path, texts: list[str], tmp_path: Path, chunk: int) -> np.ndarray:
    src = tmp_path / "plain.txt"
    src.write_text("".join(t + "\n" for t in texts), encoding="utf-8")
    encode_file(StaticEncoder(static_model), src, tmp_path / "plain.npy", progress=False, chunk=chunk)
    return np.load(tmp_path / "plain.npy")


def test_parquet_in_and_out(ray_local, static_model: Path, texts: list[str], tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from lingualite.encoding.ray_workers import encode_ray

    src = tmp_path / "docs.parquet"
    pq.write_table(pa.table({"id": range(53), "body": texts}), src, row_group_size=10)
    out = tmp_path / "vectors"
    encode_ray(f"static:{static_model}", src, out, 1, True, text_column="body", chunk=10, progress=False)
    table = pq.read_table(out).sort_by("line")
    assert table.schema.field("embedding").type == pa.list_(pa.float32(), 16)  # fixed-size list
    assert table.column("line").to_pylist() == list(range(53))
    vectors = table.column("embedding").combine_chunks().flatten().to_numpy().reshape(53, 16)
    np.testing.assert_array_equal(vectors, l2_normalize(_plain(static_model, texts, tmp_path, chunk=10)))

    with pytest.raises(LinguaLiteError, match="is already a Parquet vectors folder.*--overwrite"):
        encode_ray(f"static:{static_model}", src, out, 1, text_column="body", progress=False)
    mine = tmp_path / "mine"  # a folder it did not create: never replaced, --overwrite or not
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(LinguaLiteError, match="was not created by lingualite"):
        encode_ray(f"static:{static_model}", src, mine, 1, text_column="body", progress=False, overwrite=True)
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    encode_ray(f"static:{static_model}", src, out, 1, text_column="body", progress=False, overwrite=True)
    assert pq.read_table(out).num_rows == 53
    with pytest.raises(LinguaLiteError, match=r"no column 'text' \(columns: id, body\)"):
        encode_ray(f"static:{static_model}", src, tmp_path / "v.npy", 1, progress=False)


def test_ray_shards_equal_plain_and_resume(
    ray_local, static_model: Path, texts: list[str], tmp_path: Path
) -> None:
    from lingualite.encoding.ray_workers import encode_shards_ray

    src = tmp_path / "in.txt"
    src.write_text("".join(t + "\n" for t in texts), encoding="utf-8")
    expected = l2_normalize(_plain(static_model, texts, tmp_path, chunk=7))
    shards = tmp_path / "shards"
    paths = encode_shards_ray(f"static:{static_model}", src, shards, 20, workers=2)
    assert [p.name for p in paths] == ["shard-00000.npy", "shard-00001.npy", "shard-00002.npy"]
    np.testing.assert_array_equal(np.concatenate([np.load(p) for p in paths]), expected)
    np.save(paths[1], np.zeros((20, 16), np.float32))
    paths[2].unlink()
    assert encode_shards_ray(f"static:{static_model}", src, shards, 20, workers=1) == paths
    assert not np.load(paths[1]).any()  # skipped
    np.testing.assert_array_equal(np.load(paths[2]), expected[40:])


def test_cli_engine_ray_npy_equals_plain_encode(
    ray_local, static_model: Path, texts: list[str], tmp_path: Path
) -> None:
    from lingualite.cli.main import app

    src = tmp_path / "in.txt"
    src.write_bytes(
        b"\xef\xbb\xbf" + "".join(t + "\r\n" for t in texts).encode()
    )  # BOM, CRLF: as plain reads
    args = ["encode", "--model", f"static:{static_model}", "--input", str(src), "--engine", "ray", "--json"]
    args.append("--no-normalize")  # raw vectors, as _plain writes them (the CLI's default is unit vectors)
    res = CliRunner().invoke(app, [*args, "--output", str(tmp_path / "v.npy"), "--workers", "2"])
    assert res.exit_code == 0 and '"sentences": 53' in res.output, res.output
    np.testing.assert_array_equal(np.load(tmp_path / "v.npy"), _plain(static_model, texts, tmp_path, 8192))
    res = CliRunner().invoke(app, [*args, "--model", "tfidf", "--output", str(tmp_path / "t.npy")])
    assert res.exit_code == 2 and "fitted on its input" in res.output


def test_missing_ray_is_a_one_line_error(monkeypatch, tmp_path: Path) -> None:
    from lingualite.cli.main import app
    from lingualite.encoding.ray_workers import require_ray

    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    with pytest.raises(LinguaLiteError, match=r'pip install -e "\.\[distributed\]"'):
        require_ray()
    src = tmp_path / "in.txt"
    src.write_text("the cat\n", encoding="utf-8")
    res = CliRunner().invoke(
        app,
        ["encode", "--model", "m", "--input", str(src), "--output", str(tmp_path / "o"), "--engine", "ray"],
    )
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1
    assert "needs Ray" in res.output and "[distributed]" in res.output


def test_parquet_folders_are_read_in_name_order_and_nulls_refused(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from lingualite.encoding.ray_workers import read_pieces

    folder = tmp_path / "docs"
    folder.mkdir()
    pq.write_table(pa.table({"text": ["c", "d", "e"]}), folder / "part-1.parquet")
    pq.write_table(pa.table({"text": ["a", "b"]}), folder / "part-0.parquet")
    assert list(read_pieces(folder, chunk=2)) == [(0, ["a", "b"]), (2, ["c", "d"]), (4, ["e"])]
    pq.write_table(pa.table({"text": ["f", None]}), folder / "part-2.parquet")
    with pytest.raises(LinguaLiteError, match=r"part-2.parquet: row 1 \(from 0\) of column 'text' is null"):
        list(read_pieces(folder))


def test_parquet_text_follows_the_text_rule(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from lingualite.encoding.ray_workers import read_pieces

    pq.write_table(pa.table({"text": ["ok", "bin\x00ary"]}), tmp_path / "t.parquet")
    with pytest.raises(LinguaLiteError, match=r"t\.parquet: row 1 \(from 0\): contains a NUL character"):
        list(read_pieces(tmp_path / "t.parquet"))


def test_truncated_or_quantized_output_must_be_a_npy(static_model: Path, tmp_path: Path) -> None:
    from lingualite.encoding.output import OutputFormat
    from lingualite.encoding.ray_workers import encode_ray

    src = tmp_path / "in.txt"
    src.write_text("the cat\n")
    for fmt in (OutputFormat(dimensions=8), OutputFormat(precision="binary")):
        with pytest.raises(LinguaLiteError, match="write a .npy"):  # refused before Ray starts
            encode_ray(str(static_model), src, tmp_path / "vectors", fmt=fmt)
    assert not (tmp_path / "vectors").exists()
