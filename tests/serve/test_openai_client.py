"""OpenAI's own Python client (and LangChain's OpenAIEmbeddings) against `lingualite serve` in a subprocess,
serving a tiny 96-dimensional static model built here: the vectors are `lingualite encode`'s. (A static model
starts in about a second; a torch folder's token counts are checked against its ONNX and bf16 runtimes in
tests/encoders/test_onnx_export.py, and /v1/embeddings is the same code for every encoder.)"""

from __future__ import annotations

import base64
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import numpy as np
import pytest
from serve_helpers import DOCS, make_static_model
from typer.testing import CliRunner

from lingualite.cli.main import app as cli

pytestmark = pytest.mark.slow  # starts processes, a server or Ray: left out of the fast tier

openai = pytest.importorskip("openai")

KEY = "test-key-36"
TEXTS = [DOCS[0]["text"], DOCS[1]["text"], "Le chat dort, le chien court.", "canapé"]


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"static:{make_static_model(tmp_path_factory.mktemp('openai') / 'tiny-model', dimension=96)}"


@pytest.fixture(scope="module")
def url(model: str) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "LINGUALITE_API_KEY": KEY, "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, "-m", "lingualite", "serve", "--model", model, "--port", str(port)]
    proc = subprocess.Popen([*cmd, "--served-model-name", "tiny"], env=env, stderr=subprocess.PIPE, text=True)
    base, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 60
    try:
        while True:
            try:
                httpx.get(f"{base}/health", headers={"X-API-Key": KEY})
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else "the server exited"
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def encoded(model: str, tmp_path_factory: pytest.TempPathFactory) -> np.ndarray:
    """`lingualite encode`'s vectors of TEXTS."""
    folder = tmp_path_factory.mktemp("encode")
    (folder / "in.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    args = [
        "encode",
        "--model",
        model,
        "--input",
        str(folder / "in.txt"),
        "--output",
        str(folder / "v.npy"),
    ]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    return np.load(folder / "v.npy")


@pytest.fixture(scope="module")
def client(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{url}/v1", api_key=KEY, max_retries=0)


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def test_openais_client_gets_lingualite_encodes_vectors(
    client: openai.OpenAI, encoded: np.ndarray, model: str
) -> None:
    from lingualite.encoders.resolve import load_encoder

    default = client.embeddings.create(input=TEXTS, model="tiny")  # the client asks for base64 and decodes it
    floats = client.embeddings.create(input=TEXTS, model="tiny-model", encoding_format="float")
    assert default.model == "tiny" and floats.model == "tiny-model"  # the folder's name is a name too
    for answer in (default, floats):
        vectors = np.asarray([d.embedding for d in answer.data], dtype=np.float32)
        assert vectors.shape == (4, 96) and _cosines(vectors, encoded).min() >= 0.9999
    tokens = sum(load_encoder(model).count_tokens(TEXTS))  # the tokenizer splits off "," and "."
    assert floats.usage.prompt_tokens == floats.usage.total_tokens == tokens > len(" ".join(TEXTS).split())


def test_base64_decodes_as_little_endian_float32(client: openai.OpenAI, encoded: np.ndarray) -> None:
    answer = client.embeddings.create(input=TEXTS, model="tiny", encoding_format="base64")
    assert all(isinstance(d.embedding, str) for d in answer.data)
    vectors = np.stack([np.frombuffer(base64.b64decode(d.embedding), dtype="<f4") for d in answer.data])
    assert _cosines(vectors, encoded).min() >= 0.9999


def test_dimensions_64_gives_64_dimensional_unit_vectors(client: openai.OpenAI, encoded: np.ndarray) -> None:
    answer = client.embeddings.create(input=TEXTS, model="tiny", dimensions=64)
    vectors = np.asarray([d.embedding for d in answer.data], dtype=np.float32)
    assert vectors.shape == (4, 64)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert _cosines(vectors, encoded[:, :64]).min() >= 0.9999  # the prefix of encode's vectors, renormalised


def test_the_clients_errors(client: openai.OpenAI, url: str) -> None:
    with pytest.raises(openai.NotFoundError) as missing:
        client.embeddings.create(input="a", model="text-embedding-3-small")
    assert missing.value.code == "model_not_found" and missing.value.param == "model"
    with pytest.raises(openai.UnprocessableEntityError, match="token arrays are not supported"):
        client.embeddings.create(input=[[12, 7]], model="tiny")
    with pytest.raises(openai.BadRequestError, match="more than this model's 96"):
        client.embeddings.create(input="a", model="tiny", dimensions=128)
    wrong_key = openai.OpenAI(base_url=f"{url}/v1", api_key="nope", max_retries=0)
    with pytest.raises(openai.AuthenticationError, match="missing or wrong API key"):
        wrong_key.embeddings.create(input="a", model="tiny")


def test_langchain_openai_embeddings(url: str, encoded: np.ndarray) -> None:
    langchain_openai = pytest.importorskip("langchain_openai")
    embeddings = langchain_openai.OpenAIEmbeddings(
        model="tiny", base_url=f"{url}/v1", api_key=KEY, check_embedding_ctx_length=False, max_retries=0
    )
    documents = np.asarray(embeddings.embed_documents(TEXTS), dtype=np.float32)
    query = np.asarray([embeddings.embed_query(TEXTS[1])], dtype=np.float32)
    assert _cosines(documents, encoded).min() >= 0.9999 and _cosines(query, encoded[1:2])[0] >= 0.9999
