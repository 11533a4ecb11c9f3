"""Fuzzing the HTTP service: generated bodies (JSON of any shape, texts with lone surrogates, NUL, huge
values, wrong types; raw bytes) against the app in process (Starlette's TestClient), on /encode, /search,
OpenAI's /v1/embeddings and /health, with a real search index; /metrics is scraped after each.

The property: every answer is strict JSON with status 2xx or 4xx (a 4xx carries a one-line ``error``; in
OpenAI's shape on /v1/embeddings), a 200 from /encode has one finite vector per text and one from
/v1/embeddings one finite unit vector per input (float or base64): never a 500, never a traceback, never plain
text; and /metrics always parses.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("prometheus_client")

from fastapi.testclient import TestClient  # noqa: E402
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

from lingualite.core.strict_json import loads  # noqa: E402
from lingualite.search import SearchIndex  # noqa: E402
from lingualite.serve.app import create_app  # noqa: E402
from lingualite.serve.settings import ServeSettings  # noqa: E402

pytestmark = pytest.mark.slow  # fuzzing campaign: left out of the fast tier


class TinyEncoder:
    """Hashed character trigrams: deterministic, any text, no model files."""

    name = "fuzz-hash"
    dimension = 16

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            padded = f"  {text}  ".encode("utf-8", "surrogatepass")
            for i in range(len(padded) - 2):
                out[row, zlib.crc32(padded[i : i + 3]) % self.dimension] += 1.0
        return out


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    encoder = TinyEncoder()
    docs = [{"id": f"d{i}", "text": f"document number {i} about cats", "n": i} for i in range(12)]
    folder = tmp_path_factory.mktemp("fuzz-serve") / "idx"
    index = SearchIndex.build("fuzz-hash", docs, folder, encoder=encoder, progress=False)
    limits = ServeSettings(max_texts=8, max_chars=300, max_body_bytes=20_000, max_k=20, max_wait_ms=0)
    with TestClient(create_app(encoder, index, limits), base_url="http://localhost") as test_client:
        yield test_client
    index.close()


ODD = ["\ud800", "\udfff", "\x00", "\ufeff", "\u2028", "\u0301", "😀", "日", "\x7f", "\\", '"', " ", "\t"]
texts = st.one_of(
    st.text(alphabet=st.one_of(st.characters(), st.sampled_from(ODD)), max_size=40),
    st.sampled_from(["", "   "]),
    st.integers(290, 5000).map(lambda n: "x" * n),  # around and far over --max-chars
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    texts,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)
text_lists = st.lists(texts, max_size=10)
encode_bodies = st.fixed_dictionaries({"texts": text_lists | json_values}, optional={"normalize": scalars})
v1_bodies = st.fixed_dictionaries(
    {"input": texts | text_lists | json_values},
    optional={
        "model": st.sampled_from(["fuzz-hash"]) | scalars,
        "dimensions": st.integers(-2, 20) | scalars,
        "encoding_format": st.sampled_from(["float", "base64"]) | scalars,
        "user": scalars,
    },
)
search_bodies = st.fixed_dictionaries(
    {}, optional={"query": texts | json_values, "queries": text_lists | json_values, "k": scalars}
)


def _raw(body: Any) -> bytes:
    return json.dumps(body).encode()  # ensure_ascii: a lone surrogate travels as the JSON escape "\ud800"


bodies = st.one_of(
    encode_bodies.map(lambda b: ("/encode", _raw(b))),
    search_bodies.map(lambda b: ("/search", _raw(b))),
    v1_bodies.map(lambda b: ("/v1/embeddings", _raw(b))),
    st.tuples(st.sampled_from(["/encode", "/search", "/v1/embeddings"]), json_values.map(_raw)),
    st.tuples(st.sampled_from(["/encode", "/search", "/v1/embeddings"]), st.binary(max_size=200)),
)


def _check_v1(answer: Any, body: bytes) -> None:
    sent = json.loads(body)
    inputs = [sent["input"]] if isinstance(sent["input"], str) else sent["input"]
    assert [d["index"] for d in answer["data"]] == list(range(len(inputs)))
    for item in answer["data"]:
        vector = item["embedding"]
        if sent.get("encoding_format") == "base64":
            vector = np.frombuffer(base64.b64decode(vector), dtype="<f4")
        vector = np.asarray(vector, dtype=np.float64)
        assert len(vector) == (sent.get("dimensions") or TinyEncoder.dimension)
        assert np.isfinite(vector).all() and abs(np.linalg.norm(vector) - 1.0) < 1e-5
    assert answer["usage"]["prompt_tokens"] == answer["usage"]["total_tokens"] >= 0


def _check(res: Any, path: str, body: bytes) -> None:
    assert res.status_code < 500, (path, body[:300], res.status_code, res.text[:300])
    answer = loads(res.content)  # strict JSON: refuses NaN / Infinity
    if res.status_code >= 400:
        error = answer["error"]
        if path == "/v1/embeddings":  # OpenAI's shape
            assert set(error) == {"message", "type", "param", "code"}
            error = error["message"]
        assert isinstance(error, str) and "\n" not in error and "Traceback" not in res.text
    elif path == "/v1/embeddings":
        _check_v1(answer, body)
    elif path == "/encode":
        sent = json.loads(body)["texts"]
        assert len(answer["vectors"]) == len(sent) and np.isfinite(np.asarray(answer["vectors"])).all()


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(request=bodies)
def test_any_body_gets_a_json_answer_never_a_500(client: TestClient, request: tuple[str, bytes]) -> None:
    path, body = request
    res = client.post(path, content=body, headers={"content-type": "application/json"})
    _check(res, path, body)
    _check(client.get("/health"), "/health", b"")
    scraped = client.get("/metrics")
    assert scraped.status_code == 200 and list(text_string_to_metric_families(scraped.text))
