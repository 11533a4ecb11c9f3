"""index build and search: a document or query the model knows no token of (issue 41, the last case) is
refused naming FILE:LINE (queries[i] for an argument), or with --skip-bad skipped and counted; before, it was
indexed, or searched, as the [UNK] row."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lingualite.cli.main import app

runner = CliRunner()
MODEL = "lingualite-static"


def _docs(tmp_path: Path) -> Path:
    docs = tmp_path / "docs.txt"
    docs.write_text("the cat sleeps\nhello world\n😀😀\ngood morning\n", encoding="utf-8")
    return docs


def test_index_build_refuses_or_skips_and_counts_the_document(tmp_path: Path) -> None:
    docs, idx = _docs(tmp_path), tmp_path / "idx"
    res = runner.invoke(app, ["index", "build", "--model", MODEL, "--input", str(docs), "--output", str(idx)])
    assert res.exit_code == 2 and f"{docs}:3: the model knows no token" in res.output, res.output
    assert not idx.exists()
    args = [
        "index",
        "build",
        "--model",
        MODEL,
        "--input",
        str(docs),
        "--output",
        str(idx),
        "--skip-bad",
        "--json",
    ]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    info = json.loads(res.output.strip().splitlines()[-1])
    assert info["documents"] == 3 and info["skipped"] == 1


def test_search_refuses_or_skips_the_query(tmp_path: Path) -> None:
    idx = tmp_path / "idx"
    docs = tmp_path / "docs.txt"
    docs.write_text("the cat sleeps\ngood morning\n", encoding="utf-8")
    assert (
        runner.invoke(
            app, ["index", "build", "--model", MODEL, "--input", str(docs), "--output", str(idx)]
        ).exit_code
        == 0
    )
    queries = tmp_path / "q.txt"
    queries.write_text("a cat\n🎉\n", encoding="utf-8")
    res = runner.invoke(app, ["search", "--index", str(idx), "--queries", str(queries), "--json"])
    assert res.exit_code == 2 and f"{queries}:2: the model knows no token" in res.output, res.output
    res = runner.invoke(app, ["search", "--index", str(idx), "🎉"])
    assert res.exit_code == 2 and "queries[0]: the model knows no token" in res.output, res.output
    res = runner.invoke(
        app, ["search", "--index", str(idx), "--queries", str(queries), "--json", "--skip-bad"]
    )
    assert res.exit_code == 0, res.output
    assert "skipped 1 queries" in res.output
    rows = json.loads(res.output.strip().splitlines()[-1])["results"]
    assert [r["line"] for r in rows] == [1]


def test_a_probe_the_model_knows_no_token_of_still_identifies_it() -> None:
    """The static encoder gives such a probe a zero row: the same zero row both times is the same model."""
    import numpy as np

    from lingualite.search.encoder_check import _same_probes

    recorded = np.array([[0.6, 0.8], [0.0, 0.0]], dtype=np.float32)
    assert _same_probes(recorded.copy(), recorded)
    assert not _same_probes(np.array([[0.6, 0.8], [1.0, 0.0]], dtype=np.float32), recorded)
    assert not _same_probes(np.array([[0.8, -0.6], [0.0, 0.0]], dtype=np.float32), recorded)
    assert _same_probes(np.zeros((2, 2), np.float32), np.zeros((2, 2), np.float32))
