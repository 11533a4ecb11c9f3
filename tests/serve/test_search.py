"""/search through a real SearchIndex (FAISS + SQLite), and `lingualite serve --index` end to end."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from serve_helpers import DOCS, HashEncoder, make_static_model, running
from typer.testing import CliRunner

from lingualite.cli.main import app as cli
from lingualite.core.errors import LinguaLiteError
from lingualite.search import SearchIndex
from lingualite.search.encoder_check import normalize_spec
from lingualite.serve.app import create_app
from lingualite.serve.settings import ServeSettings


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> tuple[SearchIndex, HashEncoder]:
    encoder = HashEncoder(dimension=64)
    folder = tmp_path_factory.mktemp("serve-index") / "idx"
    return SearchIndex.build("hash-test", DOCS, folder, encoder=encoder, progress=False), encoder


@pytest.fixture(scope="module")
def url(index: tuple[SearchIndex, HashEncoder]) -> str:
    idx, encoder = index
    with running(create_app(encoder, idx, ServeSettings(max_k=5))) as base:
        yield base


def test_search_ranks_the_index_documents(url: str, index: tuple[SearchIndex, HashEncoder]) -> None:
    query = "Imprimer la page actuelle"
    body = httpx.post(f"{url}/search", json={"query": query, "k": 3}).json()
    hits = body["hits"]
    assert [h["rank"] for h in hits] == [1, 2, 3] and hits[0]["doc_id"] == "fr-print"
    assert hits[0]["text"] == DOCS[0]["text"] and hits[0]["metadata"] == {"lang": "fr"}
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    direct = index[0].search([query], k=3)[0]  # the index's own answer with the same encoder
    assert [h["doc_id"] for h in hits] == [h.doc_id for h in direct]
    assert [h["score"] for h in hits] == pytest.approx([h.score for h in direct], abs=1e-5)


def test_several_queries_answer_in_order(url: str) -> None:
    queries = ["Der Hund läuft", "Le chat dort", "Save the spreadsheet"]
    body = httpx.post(f"{url}/search", json={"queries": queries, "k": 1}).json()
    assert [r["query"] for r in body["results"]] == queries
    assert [r["hits"][0]["doc_id"] for r in body["results"]] == ["de-dog", "fr-cat", "en-save"]


def test_health_reports_the_index_size(url: str) -> None:
    assert httpx.get(f"{url}/health").json()["index_size"] == len(DOCS)


def test_an_index_of_another_model_is_refused(index: tuple[SearchIndex, HashEncoder]) -> None:
    idx, encoder = index
    with pytest.raises(LinguaLiteError, match="the index was built with model hash-test"):
        create_app(encoder, idx, ServeSettings(model_spec="use-m"))
    with pytest.raises(LinguaLiteError, match="64-dimensional vectors but the encoder gives 32"):
        create_app(HashEncoder(dimension=32), idx)


@pytest.fixture(scope="module")
def static_index(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    root = tmp_path_factory.mktemp("serve-static")
    model = f"static:{make_static_model(root / 'model')}"
    return model, SearchIndex.build(model, DOCS, root / "idx", progress=False).path


def test_cli_refuses_an_index_built_with_another_model(
    static_index: tuple[str, Path], tmp_path: Path
) -> None:
    other = f"static:{make_static_model(tmp_path / 'other', seed=1)}"
    res = CliRunner().invoke(cli, ["serve", "--model", other, "--index", str(static_index[1])])
    assert res.exit_code == 2
    assert res.output.count("\n") == 1 and "was built with model static:" in res.output


@pytest.mark.slow
def test_cli_serves_an_index_end_to_end(static_index: tuple[str, Path]) -> None:
    """Without --model, the model the index was built with; plain progress lines on a non-terminal stderr."""
    model, folder = static_index
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "LINGUALITE_API_KEY"}
    cmd = [sys.executable, "-m", "lingualite", "serve", "--index", str(folder), "--port", str(port)]
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, text=True)
    try:
        url, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 20
        while True:
            try:
                health = httpx.get(f"{url}/health").json()
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        assert health["index_size"] == len(DOCS) and health["dimension"] == 16
        assert health["model"] == normalize_spec(model)  # as the index records it
        hits = httpx.post(f"{url}/search", json={"query": DOCS[4]["text"], "k": 2}).json()["hits"]
        assert hits[0]["doc_id"] == "it-open" and hits[0]["score"] == pytest.approx(1.0, abs=1e-5)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    lines = proc.stderr.read().splitlines() if proc.stderr else []
    assert "\r" not in "".join(lines)
    assert [line.split(" ")[1] for line in lines[:5]] == ["loading", "model", "opening", "index", "serving"]
    assert lines[3] == f"lingualite: index {folder}: {len(DOCS)} documents"


def test_search_and_encode_requests_share_encoder_calls(index: tuple[SearchIndex, HashEncoder]) -> None:
    import asyncio

    idx, _ = index
    slow = HashEncoder(dimension=64, delay=0.05)  # same vectors as the index's encoder, slower

    async def fire(url: str) -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=url) as client:
            searches = [client.post("/search", json={"query": d["text"], "k": 1}) for d in DOCS]
            encodes = [client.post("/encode", json={"texts": [d["text"]]}) for d in DOCS]
            return await asyncio.gather(*searches, *encodes)

    with running(create_app(slow, idx, ServeSettings(max_wait_ms=20))) as url:
        answers = asyncio.run(fire(url))
    assert all(a.status_code == 200 for a in answers)
    assert [a.json()["hits"][0]["doc_id"] for a in answers[: len(DOCS)]] == [d["id"] for d in DOCS]
    assert len(slow.calls) < len(answers) / 2, slow.calls  # queries and texts encoded together


def test_a_replaced_or_removed_index_is_noticed_and_answered_in_json(tmp_path: Path) -> None:
    import shutil

    from lingualite.search.store import DocumentStore

    encoder, folder = HashEncoder(dimension=64), tmp_path / "idx"
    SearchIndex.build("hash-test", DOCS[:4], folder, encoder=encoder, progress=False).close()
    idx = SearchIndex.open(folder, encoder=encoder)
    with running(create_app(encoder, idx)) as url:
        ask = {"query": DOCS[6]["text"], "k": 1}
        assert httpx.post(f"{url}/search", json=ask).json()["hits"][0]["doc_id"] != "fr-cat"
        # `lingualite index build --overwrite` by another process while the server runs
        SearchIndex.build("hash-test", DOCS, folder, encoder=encoder, progress=False, overwrite=True).close()
        assert httpx.post(f"{url}/search", json=ask).json()["hits"][0]["doc_id"] == "fr-cat"
        assert httpx.get(f"{url}/health").json()["index_size"] == len(DOCS)

        shutil.rmtree(folder)  # the folder disappears: a JSON error, never a plain-text 500
        for path, method in (("/search", "post"), ("/health", "get")):
            res = httpx.request(method, f"{url}{path}", json=ask if method == "post" else None)
            assert res.status_code == 503 and "the index is gone" in res.json()["error"]

        SearchIndex.build("hash-test", DOCS[:2], folder, encoder=encoder, progress=False).close()
        with SearchIndex.open(folder, encoder=encoder) as writer:
            writer.delete([d["id"] for d in DOCS[:2]])
        res = httpx.post(f"{url}/search", json=ask)  # an empty index: said so, not an empty success
        assert res.status_code == 409 and "holds no documents" in res.json()["error"]

        with SearchIndex.open(folder, encoder=encoder) as writer:
            writer.add([DOCS[6]])
        store = DocumentStore(folder / "index.sqlite")  # metadata an older version stored with NaN
        store.db.execute("""UPDATE documents SET metadata = '{"lang": "fr", "score": NaN}'""")
        store.close()
        res = httpx.post(f"{url}/search", json=ask)
        assert res.status_code == 200 and "NaN" not in res.text
        assert res.json()["hits"][0]["metadata"] == {"lang": "fr", "score": None}
    idx.close()
