"""The HTTP API against a real uvicorn server: /health, /encode, limits and JSON errors."""

from __future__ import annotations

import httpx
import numpy as np
import pytest
from serve_helpers import HashEncoder, running

from lingualite.core.errors import LinguaLiteError
from lingualite.serve.app import create_app
from lingualite.serve.settings import ServeSettings

LIMITS = ServeSettings(max_texts=4, max_chars=50, max_body_bytes=2000, max_k=5)


@pytest.fixture(scope="module")
def server() -> tuple[str, HashEncoder]:
    encoder = HashEncoder()
    with running(create_app(encoder, settings=LIMITS)) as url:
        yield url, encoder


def test_health_reports_model_dimension_and_limits(server: tuple[str, HashEncoder]) -> None:
    body = httpx.get(f"{server[0]}/health").json()
    assert body["status"] == "ok" and body["model"] == "hash-test" and body["dimension"] == 32
    assert body["index_size"] is None
    assert body["limits"] == {"max_texts": 4, "max_chars": 50, "max_body_bytes": 2000, "max_k": 5}


def test_encode_returns_the_encoders_vectors(server: tuple[str, HashEncoder]) -> None:
    url, encoder = server
    texts = ["Le chat dort.", "Der Hund läuft schnell", "猫が寝ている"]
    raw = httpx.post(f"{url}/encode", json={"texts": texts, "normalize": False}).json()
    assert raw["dimension"] == 32 and raw["model"] == "hash-test"
    expected = encoder.encode(texts)
    assert np.array_equal(np.asarray(raw["vectors"], dtype=np.float32), expected)  # float32 survives JSON
    unit = np.asarray(httpx.post(f"{url}/encode", json={"texts": texts}).json()["vectors"], dtype=np.float32)
    np.testing.assert_allclose(unit, expected / np.linalg.norm(expected, axis=1, keepdims=True), rtol=1e-6)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"texts": ["a"] * 5}, "texts: 5 given; this server takes at most 4 per call (--max-texts)"),
        ({"texts": ["ok", "x" * 51]}, "texts.1: 51 characters; this server takes at most 50 per text"),
        ({"texts": []}, "texts: give at least one"),
        ({"texts": ["a", 3]}, "texts.1: Input should be a valid string"),
        ({"texts": "a sentence"}, "texts: Input should be a valid list"),
        ({"texts": ["a"], "normalize": "yes"}, "normalize: Input should be a valid boolean"),
        ({"text": ["a"]}, "texts: Field required"),
        ({"texts": ["ok", ""]}, "texts.1: empty text; there is nothing to encode"),
        ({"texts": [" \t\n"]}, "texts.0: empty text"),
        ({"texts": ["a\x00b"]}, "texts.0: contains a NUL character (column 2)"),
    ],
)
def test_bad_encode_requests_get_422_with_a_clear_message(
    server: tuple[str, HashEncoder], body: dict, message: str
) -> None:
    res = httpx.post(f"{server[0]}/encode", json=body)
    assert res.status_code == 422
    assert message in res.json()["error"]


def test_malformed_json_gets_422_naming_the_problem(server: tuple[str, HashEncoder]) -> None:
    res = httpx.post(
        f"{server[0]}/encode", content=b'{"texts": ["a",]}', headers={"content-type": "application/json"}
    )
    assert res.status_code == 422
    assert res.json()["error"].startswith("the body is not valid JSON (")


def test_body_too_large_gets_413_declared_or_chunked(server: tuple[str, HashEncoder]) -> None:
    big = b'{"texts": ["' + b"x" * 3000 + b'"]}'
    res = httpx.post(f"{server[0]}/encode", content=big, headers={"content-type": "application/json"})
    assert res.status_code == 413
    assert res.json()["error"] == (
        "the request body is 3015 bytes; this server accepts at most 2,000 (--max-body-bytes)"
    )

    def chunks():  # no Content-Length: the server has to count
        for _ in range(10):
            yield b" " * 500

    res = httpx.post(f"{server[0]}/encode", content=chunks(), headers={"content-type": "application/json"})
    assert res.status_code == 413 and "at most 2,000" in res.json()["error"]


def test_search_without_index_and_unknown_paths_are_json_errors(server: tuple[str, HashEncoder]) -> None:
    url = server[0]
    res = httpx.post(f"{url}/search", json={"query": "chat", "k": 3})
    assert res.status_code == 404 and "--index" in res.json()["error"]
    res = httpx.post(f"{url}/search", json={"query": "a", "queries": ["b"]})
    assert res.status_code == 422 and "exactly one of 'query'" in res.json()["error"]
    res = httpx.post(f"{url}/search", json={"query": "a", "k": 6})
    assert res.status_code == 422 and "at most 5 hits" in res.json()["error"]
    res = httpx.get(f"{url}/nowhere")
    assert res.status_code == 404 and res.json() == {"error": "Not Found: GET /nowhere"}


def test_openapi_schema_is_served_and_cdn_docs_are_off(server: tuple[str, HashEncoder]) -> None:
    url = server[0]
    paths = httpx.get(f"{url}/openapi.json").json()["paths"]
    assert {"/encode", "/search", "/health"} <= set(paths)
    assert httpx.get(f"{url}/docs").status_code == 404  # swagger-ui comes from a CDN: off (offline)


def test_page_is_self_contained(server: tuple[str, HashEncoder]) -> None:
    res = httpx.get(f"{server[0]}/")
    assert res.status_code == 200 and res.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in res.headers["content-security-policy"]
    assert "http://" not in res.text and "https://" not in res.text  # no CDN, nothing external


def test_settings_are_checked() -> None:
    with pytest.raises(LinguaLiteError, match="max_batch must be at least 1"):
        ServeSettings(max_batch=0)
    with pytest.raises(LinguaLiteError, match="the API key is empty"):
        ServeSettings(api_key=" ")
    with pytest.raises(LinguaLiteError, match="printable ASCII"):
        ServeSettings(api_key="clé")
    for bad in (0, -1):
        with pytest.raises(LinguaLiteError, match="read_timeout must be > 0"):
            ServeSettings(read_timeout=bad)
    for bad in (float("nan"), float("inf")):
        with pytest.raises(LinguaLiteError, match="read_timeout: .* is not a finite number"):
            ServeSettings(read_timeout=bad)


class _NoTokenEncoder(HashEncoder):
    """Gives the zero vector for text made of symbols it has no token for, as a static model with no
    [UNK] row would."""

    def vector(self, text: str) -> np.ndarray:
        return super().vector(text) * (0.0 if set(text) <= set("#%") else 1.0)


def test_a_text_the_model_has_no_token_for_is_not_a_silent_zero_vector() -> None:
    with running(create_app(_NoTokenEncoder(), _BrokenIndex())) as url:  # the query is refused before it
        res = httpx.post(f"{url}/encode", json={"texts": ["le chat dort", "#%#"]})
        assert res.status_code == 422 and res.json()["error"].startswith("texts.1: the model has no token")
        res = httpx.post(f"{url}/search", json={"queries": ["ok", "%%"]})
        assert res.status_code == 422 and res.json()["error"].startswith("queries.1: the model has no token")
        raw = httpx.post(f"{url}/encode", json={"texts": ["#%#"], "normalize": False})
        assert raw.status_code == 200 and raw.json()["vectors"] == [[0.0] * 32]  # asked for raw: it is zero


def test_a_model_fitted_on_its_input_is_refused_at_start() -> None:
    from typer.testing import CliRunner

    from lingualite.cli.main import app
    from lingualite.encoders.tfidf import TfidfEncoder

    with pytest.raises(LinguaLiteError, match="tfidf: is fitted on all the texts.*cannot serve requests"):
        create_app(TfidfEncoder())
    done = CliRunner().invoke(app, ["serve", "--model", "tfidf", "--port", "0"])
    assert done.exit_code == 2 and "Traceback" not in done.output
    # the progress line of the (instant) load, then the refusal in one line
    assert done.output.splitlines()[0] == "lingualite: loading model tfidf ..."
    assert done.output.splitlines()[1:] == [
        next(ln for ln in done.output.splitlines() if "tfidf: is fitted" in ln)
    ]


class _NaNEncoder(HashEncoder):
    def encode(self, texts: list[str]) -> np.ndarray:
        out = super().encode(texts)
        out[:, 0] = np.nan
        return out


class _BrokenIndex:
    """An index whose search raises what nothing expects: the answer is still one JSON line."""

    info = {"dimension": 32}

    def __len__(self) -> int:
        return 3

    def require_documents(self) -> None:
        pass

    def search_vectors(self, vectors: np.ndarray, k: int) -> list:
        raise KeyError("a bug")


def test_unexpected_failures_are_json_never_plain_text() -> None:
    with running(create_app(_NaNEncoder(), _BrokenIndex())) as url:
        res = httpx.post(f"{url}/encode", json={"texts": ["a"], "normalize": False})
        assert res.status_code == 500 and res.json() == {
            "error": "the encoder failed: it gave NaN or infinite values"
        }
        res = httpx.post(f"{url}/search", json={"query": "a"})  # NaN query vector: refused before the index
        assert res.status_code == 500 and res.headers["content-type"] == "application/json"
    with running(create_app(HashEncoder(), _BrokenIndex())) as url:
        res = httpx.post(f"{url}/search", json={"query": "a"})
        assert res.status_code == 500 and res.json() == {"error": "internal error: KeyError: 'a bug'"}
        assert httpx.get(f"{url}/health").status_code == 200  # the server goes on


def test_client_text_echoed_in_errors_stays_one_line(server: tuple[str, HashEncoder]) -> None:
    # found by tests/fuzz/test_fuzz_serve.py: an unknown key with a newline gave a two-line error, and one
    # with a lone surrogate could not be encoded as UTF-8 (a 500)
    url = server[0]
    for raw in (b'{"\\n": null}', b'{"texts": ["a"], "\\ud800": 1}'):
        res = httpx.post(f"{url}/encode", content=raw, headers={"content-type": "application/json"})
        assert res.status_code == 422 and "\n" not in res.json()["error"], res.text
    assert res.json()["error"].startswith("body: ")  # the surrogate key: pydantic refuses the whole body
    res = httpx.post(f"{url}/encode", content=b'{"\\n": 1}', headers={"content-type": "application/json"})
    assert "\\n: Extra inputs are not permitted" in res.json()["error"]  # escaped, as JSON writes it
    res = httpx.get(f"{url}/a%0Ab%00")
    assert res.status_code == 404 and "\n" not in res.json()["error"]


def test_an_emoji_only_text_of_the_packaged_static_model_is_422() -> None:
    """Issue 41, the last case: lingualite-static gives an emoji-only text its [UNK] row (not zeros), the same
    vector for every such text; serve refuses it by the rule of the bulk paths (encoders/known_tokens)."""
    from lingualite.encoders.resolve import load_encoder

    with running(create_app(load_encoder("lingualite-static"))) as url:
        res = httpx.post(f"{url}/encode", json={"texts": ["the cat sleeps", "😀😀"]})
        assert res.status_code == 422 and res.json()["error"].startswith("texts.1: the model has no token")
        assert httpx.post(f"{url}/encode", json={"texts": ["the cat sleeps"]}).status_code == 200
