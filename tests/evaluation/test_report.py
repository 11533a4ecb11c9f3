"""``eval all``: every task on a tiny data tree, report files, resume, embedding cache."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.evaluation.report import CachedEncoder, ReportSettings, run_report


@pytest.mark.slow
def test_report_runs_every_task_writes_files_and_resumes(
    eval_tree: tuple[Path, Path], tmp_path: Path
) -> None:
    ev, prep = eval_tree
    settings = ReportSettings(
        eval_dir=ev,
        prepared_dir=prep,
        langs=("fr",),
        seeds=2,
        efficiency_sentences=20,
        efficiency_energy=False,
    )
    messages: list[str] = []
    report = run_report(["tfidf"], tmp_path / "out", settings, progress=messages.append)
    res = report["models"]["tfidf"]
    assert set(res) == {
        "xsr",
        "classify/bible-genres/logreg",
        "classify/bible-genres/mlp",
        "pairs/bible-paraphrase",
        "sts/lee",
        "ir/libreoffice-index",
        "efficiency",
    }
    assert set(res["classify/bible-genres/logreg"]["per_test"]) == {"en", "fr"}
    assert res["classify/bible-genres/logreg"]["per_test"]["en"]["accuracy"] == 1.0  # separable in-language
    assert set(res["ir/libreoffice-index"]["per_test"]) == {"en", "fr"}
    assert res["efficiency"]["sentences_per_second"] > 0
    out = tmp_path / "out"
    saved = json.loads((out / "results.json").read_text())
    assert saved["models"]["tfidf"]["xsr"]["p_at_1"] == res["xsr"]["p_at_1"]
    md = (out / "results.md").read_text()
    assert "| tfidf |" in md and "## xsr" in md
    assert (out / "quality_vs_speed.png").stat().st_size > 1000
    assert (out / "per_language.png").stat().st_size > 1000

    messages.clear()
    again = run_report(["tfidf"], out, settings, progress=messages.append)
    assert again["models"] == report["models"]
    assert sum("done before" in m for m in messages) == 6


def test_report_without_data_says_what_to_run(tmp_path: Path) -> None:
    settings = ReportSettings(eval_dir=tmp_path / "none", prepared_dir=tmp_path / "none", tasks=("xsr",))
    with pytest.raises(FileNotFoundError, match="lingualite data eval-sets"):
        run_report(["tfidf"], tmp_path / "out", settings)


class CountingEncoder:
    name = "counting"
    dimension = 3

    def __init__(self) -> None:
        self.calls = 0

    def encode(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        return np.array([[len(t), 1.0, 0.0] for t in texts], dtype=np.float32)

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        return np.array([[0.0, 1.0, len(t)] for t in texts], dtype=np.float32)


def test_cached_encoder_reuses_vectors_by_exact_texts(tmp_path: Path) -> None:
    inner = CountingEncoder()
    cached = CachedEncoder(inner, "k", tmp_path)
    first = cached.encode(["a", "bb"])
    np.testing.assert_array_equal(cached.encode(["a", "bb"]), first)
    assert inner.calls == 1
    cached.encode(["a", "bbb"])
    assert inner.calls == 2
    queries = cached.encode_queries(["a", "bb"])  # a separate cache entry: queries encode differently
    assert inner.calls == 3 and queries[1, 2] == 2.0
    assert CachedEncoder(inner, "other-model", tmp_path).encode(["a", "bb"]) is not None and inner.calls == 4


def test_embed_encodes_repeated_texts_once() -> None:
    from lingualite.evaluation.base import embed

    inner = CountingEncoder()
    seen: list[list[str]] = []
    original = inner.encode
    inner.encode = lambda texts: (seen.append(list(texts)), original(texts))[1]  # type: ignore[method-assign]
    (vectors,) = embed(inner, ["a", "bb", "a", "a"])
    assert seen == [["a", "bb"]]
    np.testing.assert_array_equal(vectors[:, 0], [1, 2, 1, 1])


def test_report_never_writes_a_folder_it_did_not_create_or_one_holding_a_model(
    eval_tree: tuple[Path, Path], tmp_path: Path
) -> None:
    ev, prep = eval_tree
    settings = ReportSettings(eval_dir=ev, prepared_dir=prep, langs=("fr",), tasks=("xsr",))
    mine = tmp_path / "results"  # a user's folder that happens to hold results.json
    mine.mkdir()
    (mine / "results.json").write_text('{"mine": true}')
    with pytest.raises(LinguaLiteError, match="was not created by lingualite"):
        run_report(["tfidf"], mine, settings)
    assert [p.name for p in mine.iterdir()] == ["results.json"]
    model = tmp_path / "runs" / "model"
    model.mkdir(parents=True)
    (model / "modules.json").write_text("[]")
    with pytest.raises(LinguaLiteError, match="is inside the input"):
        run_report([str(model)], model / "report", settings)
