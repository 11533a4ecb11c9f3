"""OpenAI's embeddings API (POST /v1/embeddings) in process: request and answer shape, OpenAI-shaped errors
from every layer, token counts, model names, dimensions. (OpenAI's own client against `lingualite serve`:
test_openai_client.py.)"""

from __future__ import annotations

import base64
import json
import threading

import httpx
import numpy as np
import pytest
from serve_helpers import HashEncoder, running

from lingualite.serve.app import create_app
from lingualite.serve.errors import ApiError
from lingualite.serve.openai_api import input_texts
from lingualite.serve.settings import ServeSettings
from lingualite.vectors.truncation import truncate

LIMITS = ServeSettings(max_texts=4, max_chars=50, max_body_bytes=2000, served_model_names=("tiny", "alias"))
TEXTS = ["Le chat dort sur le canapé", "Der Hund läuft schnell", "猫が寝ている"]


class CountingEncoder(HashEncoder):
    """:class:`HashEncoder` with a tokenizer: one token per character, plus two special tokens; records the
    threads it counts in."""

    def __init__(self, dimension: int = 96, delay: float = 0.0) -> None:
        super().__init__(dimension, delay)
        self.count_threads: set[str] = set()

    def count_tokens(self, texts: list[str]) -> list[int]:
        self.count_threads.add(threading.current_thread().name)
        return [len(t) + 2 for t in texts]


@pytest.fixture(scope="module")
def server() -> tuple[str, CountingEncoder]:
    encoder = CountingEncoder()
    with running(create_app(encoder, settings=LIMITS), LIMITS) as url:
        yield url, encoder


def _unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_the_answer_has_openais_shape_and_the_encoders_unit_vectors(
    server: tuple[str, CountingEncoder],
) -> None:
    url, encoder = server
    body = httpx.post(f"{url}/v1/embeddings", json={"input": TEXTS, "model": "alias"}).json()
    assert body["object"] == "list" and body["model"] == "alias"  # the name the client gave is echoed
    assert [(d["object"], d["index"]) for d in body["data"]] == [("embedding", i) for i in range(3)]
    vectors = np.asarray([d["embedding"] for d in body["data"]], dtype=np.float32)
    np.testing.assert_allclose(vectors, _unit(encoder.encode(TEXTS)), rtol=1e-6)
    tokens = sum(len(t) + 2 for t in TEXTS)
    assert body["usage"] == {"prompt_tokens": tokens, "total_tokens": tokens}
    assert encoder.count_threads == {n for n in encoder.threads if n.startswith("lingualite-encode")}


def test_base64_is_little_endian_float32_as_openais_client_decodes_it(
    server: tuple[str, CountingEncoder],
) -> None:
    url, _ = server
    floats = httpx.post(f"{url}/v1/embeddings", json={"input": TEXTS}).json()
    packed = httpx.post(f"{url}/v1/embeddings", json={"input": TEXTS, "encoding_format": "base64"}).json()
    assert packed["model"] == "tiny"  # no model given: the first served name
    for f, b in zip(floats["data"], packed["data"], strict=True):
        decoded = np.frombuffer(base64.b64decode(b["embedding"]), dtype="<f4")
        assert np.array_equal(decoded, np.asarray(f["embedding"], dtype=np.float32))


def test_a_single_string_and_dimensions(server: tuple[str, CountingEncoder]) -> None:
    url, encoder = server
    body = httpx.post(f"{url}/v1/embeddings", json={"input": TEXTS[0], "dimensions": 64}).json()
    (item,) = body["data"]
    vector = np.asarray(item["embedding"], dtype=np.float32)
    assert vector.shape == (64,) and np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-6)
    expected = truncate(_unit(encoder.encode(TEXTS[:1])), 64, normalize=True)[0]
    np.testing.assert_allclose(vector, expected, rtol=1e-6)


def _error(res: httpx.Response, status: int, param: str | None = None, code: str | None = None) -> str:
    assert res.status_code == status, res.text
    error = res.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["type"] == ("server_error" if status >= 500 else "invalid_request_error")
    assert (error["param"], error["code"]) == (param, code)
    assert "\n" not in error["message"]
    return error["message"]


@pytest.mark.parametrize(
    ("body", "status", "param", "code", "message"),
    [
        ({"input": [1, 2, 3]}, 422, "input", "unsupported_input", "token arrays are not supported"),
        ({"input": [[1, 2], [3]]}, 422, "input", "unsupported_input", "check_embedding_ctx_length=False"),
        ({"input": 5}, 400, "input", None, "input: must be a string or a list of strings"),
        ({"input": ["a", 3]}, 400, "input", None, "must be a string or a list of strings"),
        ({"input": []}, 400, "input", None, "input: give at least one"),
        ({"input": ["a"] * 5}, 400, "input", None, "this server takes at most 4 per call (--max-texts)"),
        ({"input": "x" * 51}, 400, "input", None, "input.0: 51 characters"),
        ({"input": ["ok", " "]}, 400, "input", None, "input.1: empty text"),
        ({"input": "a\x00b"}, 400, "input", None, "input.0: contains a NUL character"),
        ({}, 400, "input", None, "input: Field required"),
        ({"input": "a", "dimensions": 97}, 400, "dimensions", None, "97 is more than this model's 96"),
        ({"input": "a", "dimensions": 0}, 400, "dimensions", None, "greater than or equal to 1"),
        ({"input": "a", "dimensions": "64"}, 400, "dimensions", None, "valid integer"),
        ({"input": "a", "encoding_format": "int8"}, 400, "encoding_format", None, "'float' or 'base64'"),
        ({"input": "a", "inputs": "b"}, 400, "inputs", None, "Extra inputs are not permitted"),
        ({"input": "a", "model": "gpt-4"}, 404, "model", "model_not_found", "'gpt-4' does not exist"),
    ],
)
def test_bad_requests_get_openais_error_shape_and_status(
    server: tuple[str, CountingEncoder],
    body: dict,
    status: int,
    param: str | None,
    code: str | None,
    message: str,
) -> None:
    res = httpx.post(f"{server[0]}/v1/embeddings", json=body)
    assert message in _error(res, status, param, code)


def test_a_lone_surrogate_malformed_json_and_the_other_layers_answer_in_openais_shape(
    server: tuple[str, CountingEncoder],
) -> None:
    url = server[0]
    post = lambda raw, **kw: httpx.post(  # noqa: E731
        f"{url}/v1/embeddings", content=raw, headers={"content-type": "application/json", **kw}
    )
    assert "lone surrogate" in _error(post(b'{"input": ["ok", "\\ud800"]}'), 400, "input")
    assert _error(post(b'{"input": "a",}'), 400).startswith("the body is not valid JSON")
    big = json.dumps({"input": "x" * 3000}).encode()
    assert "--max-body-bytes" in _error(post(big), 413, None, "request_too_large")
    assert "is not a name this server answers to" in _error(post(b"{}", host="evil.example"), 400)
    assert _error(httpx.get(f"{url}/v1/models"), 404).startswith("Not Found: GET /v1/models")
    assert httpx.post(f"{url}/encode", json={"texts": []}).json() == {"error": "texts: give at least one"}


def test_the_api_key_is_checked_and_refused_in_openais_shape() -> None:
    settings = ServeSettings(api_key="s3cret")
    with running(create_app(HashEncoder(), settings=settings), settings) as url:
        res = httpx.post(f"{url}/v1/embeddings", json={"input": "a"})
        assert "missing or wrong API key" in _error(res, 401, None, "invalid_api_key")
        res = httpx.post(
            f"{url}/v1/embeddings", json={"input": "a"}, headers={"Authorization": "Bearer s3cret"}
        )
        assert res.status_code == 200 and res.json()["model"] == "hash-test"


def test_usage_counts_words_for_an_encoder_without_a_tokenizer() -> None:
    with running(create_app(HashEncoder())) as url:
        body = httpx.post(f"{url}/v1/embeddings", json={"input": ["two words", "three more words"]}).json()
    assert body["usage"] == {"prompt_tokens": 5, "total_tokens": 5}


def test_a_text_the_model_has_no_token_for_is_422_not_a_zero_vector(
    server: tuple[str, CountingEncoder],
) -> None:
    class Blind(HashEncoder):
        def encode(self, texts: list[str]) -> np.ndarray:
            out = super().encode(texts)
            out[[i for i, t in enumerate(texts) if t == "unknown"]] = 0.0
            return out

    with running(create_app(Blind())) as url:
        res = httpx.post(f"{url}/v1/embeddings", json={"input": ["ok", "unknown"]})
    assert "input.1: the model has no token for this text" in _error(res, 422)


def test_v1_and_encode_requests_share_encoder_calls() -> None:
    import asyncio

    class Recording(CountingEncoder):
        batches: list[list[str]] = []

        def encode(self, texts: list[str]) -> np.ndarray:
            self.batches.append(list(texts))
            return super().encode(texts)

    encoder = Recording(delay=0.05)

    async def fire(url: str) -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=url) as client:
            v1 = [client.post("/v1/embeddings", json={"input": [f"v1 {i}", f"v1 {i}b"]}) for i in range(8)]
            encodes = [client.post("/encode", json={"texts": [f"encode {i}"]}) for i in range(8)]
            return await asyncio.gather(*v1, *encodes)

    with running(create_app(encoder, settings=ServeSettings(max_wait_ms=20))) as url:
        answers = asyncio.run(fire(url))
    assert all(a.status_code == 200 for a in answers)
    assert len(encoder.batches) < len(answers) / 2, encoder.batches
    routes = [{t.split()[0] for t in batch} for batch in encoder.batches]
    assert {"v1", "encode"} in routes, routes  # one call held texts of both routes
    assert [a.json()["usage"]["prompt_tokens"] for a in answers[:8]] == [
        len("v1 0") + len("v1 0b") + 2 * 2
    ] * 8


def test_input_texts_and_truncation() -> None:
    assert input_texts("a") == ["a"] and input_texts(["a", "b"]) == ["a", "b"] and input_texts([]) == []
    for value, status in [
        ([1], 422),
        ([[1], [2, 3]], 422),
        ([True], 400),
        ([[1], "a"], 400),
        ({}, 400),
        (None, 400),
    ]:
        with pytest.raises(ApiError) as caught:
            input_texts(value)
        assert caught.value.status == status
    vectors = np.asarray([[3.0, 4.0, 12.0], [0.0, 0.0, 1.0]], dtype=np.float32)
    np.testing.assert_allclose(truncate(vectors, 2, normalize=True), [[0.6, 0.8], [0.0, 0.0]], rtol=1e-6)
