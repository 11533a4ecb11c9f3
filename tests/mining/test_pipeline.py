"""``mine_files`` end to end on a real (tiny, static) model: sharded, resumable, exact and IVF search."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.mining import mine_embeddings
from lingualite.mining.pipeline import MineSettings, mine_files


def sentences(words: list[str], n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out: dict[str, None] = {}
    while len(out) < n:
        out[" ".join(rng.choice(words) for _ in range(rng.randint(4, 9)))] = None
    return list(out)


@pytest.fixture()
def corpus(tiny_words: list[str], tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """Targets: a shuffled copy of 150 of the 200 sources among 60 other sentences."""
    src_lines = sentences(tiny_words, 260, 1)
    shared, others = src_lines[:150], src_lines[200:]
    tgt_lines = shared + others
    random.Random(2).shuffle(tgt_lines)
    src, tgt = tmp_path / "src.txt", tmp_path / "tgt.txt"
    src.write_text("\n".join(src_lines[:200]) + "\n", encoding="utf-8")
    tgt.write_text("\n".join(tgt_lines) + "\n", encoding="utf-8")
    return src, tgt, {s: s for s in shared}


def read_output(path: Path) -> list[tuple[float, str, str]]:
    """(score, source, target) of each row (columns 4-5, the line numbers: :func:`line_numbers_point_at_the_texts`)."""
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
    return [(float(a), b, c) for a, b, c, _, _ in rows]


def line_numbers_point_at_the_texts(out: Path, src: Path, tgt: Path) -> None:
    s_lines, t_lines = (p.read_text(encoding="utf-8").splitlines() for p in (src, tgt))
    rows = [line.split("\t") for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows and all(len(row) == 5 for row in rows)
    for _, a, b, s_no, t_no in rows:
        assert s_lines[int(s_no) - 1] == a and t_lines[int(t_no) - 1] == b  # 1-based


def test_mines_the_shuffled_copy_across_shards(static_model: str, corpus, tmp_path: Path) -> None:
    src, tgt, truth = corpus
    out = tmp_path / "pairs.tsv"
    result = mine_files(
        static_model, src, tgt, out, settings=MineSettings(shard_size=64), report=lambda s: None
    )
    rows = read_output(out)
    assert result.pairs == len(rows) and result.src_sentences == 200 and result.tgt_sentences == 210
    assert result.search == "exact"
    found = {s: t for _, s, t in rows if s in truth}
    assert found == truth  # every copied sentence is paired with its copy (cosine 1, mutual nearest)
    assert [r[0] for r in rows] == sorted((r[0] for r in rows), reverse=True)
    assert len(list((out.parent / "pairs.tsv.work" / "src").glob("shard-*.npy"))) == 4  # 200 / 64
    line_numbers_point_at_the_texts(out, src, tgt)


def test_sharded_equals_in_memory(static_model: str, corpus, tmp_path: Path) -> None:
    from lingualite.data.lines import read_lines
    from lingualite.encoders.resolve import load_encoder

    src, tgt, _ = corpus
    out = tmp_path / "pairs.tsv"
    mine_files(
        static_model, src, tgt, out, settings=MineSettings(shard_size=50, mode="intersect"), report=print
    )
    encoder = load_encoder(static_model)
    s_lines, t_lines = read_lines(src), read_lines(tgt)
    mined = mine_embeddings(
        encoder.encode(s_lines), encoder.encode(t_lines), k=4, mode="intersect", candidates=8
    )
    expected = [(s_lines[s], t_lines[t]) for s, t in zip(mined.src, mined.tgt, strict=True)]
    rows = read_output(out)
    assert sorted((s, t) for _, s, t in rows) == sorted(expected)
    np.testing.assert_allclose(
        sorted(r[0] for r in rows), sorted(round(float(x), 4) for x in mined.score), atol=2e-4
    )


def test_ivf_search_and_two_stage_rescoring(static_model: str, corpus, tmp_path: Path) -> None:
    src, tgt, truth = corpus
    out = tmp_path / "pairs.tsv"
    settings = MineSettings(shard_size=64, search="ivf", nprobe=64, rescore_model=static_model)
    result = mine_files(static_model, src, tgt, out, settings=settings, report=lambda s: None)
    assert result.search == "ivf" and "rescore" in result.seconds
    rows = read_output(out)
    assert {s: t for _, s, t in rows if s in truth} == truth
    assert (out.parent / "pairs.tsv.work" / "ivf" / "tgt" / "shard-00000.faiss").exists()


def test_resume_after_a_crash_and_reselect_without_recomputing(
    static_model: str, corpus, tmp_path: Path
) -> None:
    src, tgt, _ = corpus
    out = tmp_path / "pairs.tsv"

    def crash(line: str) -> None:
        if "search bwd" in line:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        mine_files(static_model, src, tgt, out, settings=MineSettings(shard_size=64), report=crash)
    assert not out.exists()
    work = tmp_path / "pairs.tsv.work"
    saved = {p: p.stat().st_mtime_ns for p in [*work.glob("src/*.npy"), *work.glob("knn/fwd-*.npz")]}
    assert len(saved) == 4 + 4
    mine_files(static_model, src, tgt, out, settings=MineSettings(shard_size=64), report=lambda s: None)
    assert all(p.stat().st_mtime_ns == t for p, t in saved.items())  # nothing recomputed
    first = read_output(out)
    saved.update({p: p.stat().st_mtime_ns for p in [*work.glob("tgt/*.npy"), *work.glob("knn/bwd-*.npz")]})
    mine_files(
        static_model,
        src,
        tgt,
        out,
        settings=MineSettings(shard_size=64, threshold=first[10][0]),
        report=lambda s: None,
    )
    assert read_output(out) == [r for r in first if r[0] >= first[10][0]]
    assert all(p.stat().st_mtime_ns == t for p, t in saved.items())  # another threshold: only re-selected


def test_refusals(static_model: str, corpus, tmp_path: Path) -> None:
    src, tgt, _ = corpus
    out = tmp_path / "pairs.tsv"
    mine_files(static_model, src, tgt, out, settings=MineSettings(shard_size=64), report=lambda s: None)
    with pytest.raises(LinguaLiteError, match="other shard_size"):
        mine_files(static_model, src, tgt, out, settings=MineSettings(shard_size=32), report=lambda s: None)
    with pytest.raises(LinguaLiteError, match="also an input"):
        mine_files(static_model, src, tgt, src, work_dir=tmp_path / "w2", report=lambda s: None)
    with pytest.raises(LinguaLiteError, match="does not exist"):
        mine_files(static_model, tmp_path / "nope.txt", tgt, tmp_path / "p2.tsv", report=lambda s: None)
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    with pytest.raises(LinguaLiteError, match="empty"):
        mine_files(static_model, tmp_path / "empty.txt", tgt, tmp_path / "p3.tsv", report=lambda s: None)


def test_blockwise_output_equals_one_block(tmp_path: Path) -> None:
    from lingualite.mining import MinedBitext
    from lingualite.mining.pipeline import write_pairs

    src, tgt = tmp_path / "s.txt", tmp_path / "t.txt"
    src.write_text("".join(f"source {i}\tx\n" for i in range(30)), encoding="utf-8")
    tgt.write_text("".join(f"target {i}\n" for i in range(30)), encoding="utf-8")
    rng = np.random.default_rng(0)
    mined = MinedBitext(
        rng.permutation(30),
        rng.permutation(30),
        np.linspace(2, 1, 30, dtype=np.float32),
        np.zeros(30, np.float32),
    )
    write_pairs(mined, src, tgt, tmp_path / "one.tsv")
    write_pairs(mined, src, tgt, tmp_path / "blocks.tsv", block=7)
    one = (tmp_path / "one.tsv").read_text(encoding="utf-8")
    assert one == (tmp_path / "blocks.tsv").read_text(encoding="utf-8")
    first = one.splitlines()[0].split("\t")
    s, t = int(mined.src[0]), int(mined.tgt[0])
    assert first == ["2.0000", f"source {s} x", f"target {t}", str(s + 1), str(t + 1)]  # tab -> space


@pytest.mark.slow  # starts Ray
def test_shard_step_on_ray_local_mode_mines_the_same_pairs(static_model: str, corpus, tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    src, tgt, _ = corpus
    # the Ray run in a folder of its own: beside local.tsv.work it would reuse those shards (same content)
    local, on_ray = tmp_path / "local.tsv", tmp_path / "ray" / "ray.tsv"
    on_ray.parent.mkdir()
    mine_files(static_model, src, tgt, local, settings=MineSettings(shard_size=64), report=lambda s: None)
    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=128 * 2**20, ignore_reinit_error=True)
    try:
        settings = MineSettings(shard_size=64, engine="ray", workers=1)
        mine_files(static_model, src, tgt, on_ray, settings=settings, report=lambda s: None)
    finally:
        ray.shutdown()
    assert on_ray.read_text(encoding="utf-8") == local.read_text(encoding="utf-8")
    assert len(list((tmp_path / "ray" / "ray.tsv.work" / "tgt").glob("shard-*.npy"))) == 4
