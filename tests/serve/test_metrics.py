"""GET /metrics: a scrape parses with prometheus-client's own parser, and its counts are the requests sent."""

from __future__ import annotations

import math
from pathlib import Path

import httpx
import numpy as np
import pytest
from prometheus_client.parser import text_string_to_metric_families
from serve_helpers import DOCS, HashEncoder, running

from lingualite import __version__
from lingualite.search import SearchIndex
from lingualite.serve.app import create_app
from lingualite.serve.settings import ServeSettings

KEY = {"X-API-Key": "k3y"}
SETTINGS = ServeSettings(api_key="k3y", max_texts=8, max_wait_ms=0, served_model_names=("tiny",))


def scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of one scrape: (name, sorted labels) -> value."""
    res = httpx.get(f"{url}/metrics", headers=KEY)
    assert res.status_code == 200 and res.headers["content-type"].startswith("text/plain")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(res.text)
        for s in family.samples
    }


def _get(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


class FragileEncoder(HashEncoder):
    """Fails on the text "boom" (a text the model cannot take)."""

    def encode(self, texts: list[str]) -> np.ndarray:
        if "boom" in texts:
            raise ValueError("boom")
        return super().encode(texts)


@pytest.fixture()
def served(tmp_path: Path) -> tuple[str, HashEncoder, SearchIndex]:
    encoder = FragileEncoder(dimension=64)
    index = SearchIndex.build("hash-test", DOCS, tmp_path / "idx", encoder=encoder, progress=False)
    with running(create_app(encoder, index, SETTINGS), SETTINGS) as url:
        yield url, encoder, index
    index.close()


def test_a_scrape_parses_and_counts_the_requests_sent(served: tuple[str, HashEncoder, SearchIndex]) -> None:
    url, encoder, _ = served
    encoder.calls.clear()  # the index was built with it
    for texts in (["a b"], ["c", "d", "e"], ["f", "g"]):
        assert httpx.post(f"{url}/encode", json={"texts": texts}, headers=KEY).status_code == 200
    assert httpx.post(f"{url}/encode", json={"texts": []}, headers=KEY).status_code == 422
    for _ in range(2):
        res = httpx.post(f"{url}/v1/embeddings", json={"input": ["one two", "three"]}, headers=KEY)
        assert res.status_code == 200
    assert httpx.post(f"{url}/v1/embeddings", json={"input": "x"}).status_code == 401  # no key
    assert httpx.post(f"{url}/search", json={"query": "Le chat", "k": 2}, headers=KEY).status_code == 200
    assert httpx.get(f"{url}/no/such/path", headers=KEY).status_code == 404
    assert httpx.get(f"{url}/metrics").status_code == 401  # the key guards the metrics too

    samples = scrape(url)
    requests = "lingualite_http_requests_total"
    assert _get(samples, requests, route="/encode", method="POST", status="200") == 3
    assert _get(samples, requests, route="/encode", method="POST", status="422") == 1
    assert _get(samples, requests, route="/v1/embeddings", method="POST", status="200") == 2
    assert _get(samples, requests, route="/v1/embeddings", method="POST", status="401") == 1
    assert _get(samples, requests, route="/search", method="POST", status="200") == 1
    assert _get(samples, requests, route="unmatched", method="GET", status="404") == 1
    assert _get(samples, requests, route="/metrics", method="GET", status="401") == 1
    latency = "lingualite_http_request_duration_seconds_count"
    assert _get(samples, latency, route="/encode", method="POST", status="200") == 3
    assert _get(samples, latency, route="/encode", method="POST", status="422") == 1

    assert _get(samples, "lingualite_request_texts_count", route="/encode") == 3  # the 422 never got there
    assert _get(samples, "lingualite_request_texts_sum", route="/encode") == 6
    assert _get(samples, "lingualite_request_texts_sum", route="/v1/embeddings") == 4
    assert _get(samples, "lingualite_request_texts_bucket", route="/encode", le="2.0") == 2
    assert _get(samples, "lingualite_usage_tokens_total") == 2 * 3  # words: HashEncoder has no tokenizer

    calls, texts = len(encoder.calls), sum(encoder.calls)
    assert (calls, texts) == (6, 11)  # one call per request: they were sent one after the other
    assert _get(samples, "lingualite_batch_texts_count", batcher="documents") == calls
    assert _get(samples, "lingualite_batch_texts_sum", batcher="documents") == texts
    assert _get(samples, "lingualite_encoder_seconds_count", batcher="documents") == calls
    assert _get(samples, "lingualite_batch_queue_wait_seconds_count", batcher="documents") == 6
    assert _get(samples, "lingualite_batch_isolated_failures_total", batcher="documents") == 0
    assert _get(samples, "lingualite_index_documents") == len(DOCS)
    info = [labels for (name, labels) in samples if name == "lingualite_model_info"]
    assert info == [
        (("dimension", "64"), ("model", "tiny"), ("names", "tiny,hash-test"), ("version", __version__))
    ]

    again = scrape(url)  # the first scrape is counted in the next one
    assert _get(again, requests, route="/metrics", method="GET", status="200") == 1
    assert _get(again, requests, route="/encode", method="POST", status="200") == 3


def test_isolated_failures_and_an_unreadable_index(served: tuple[str, HashEncoder, SearchIndex]) -> None:
    import shutil

    url, _, index = served
    assert httpx.post(f"{url}/encode", json={"texts": ["boom"]}, headers=KEY).status_code == 500
    shutil.rmtree(index.path)
    samples = scrape(url)
    assert _get(samples, "lingualite_batch_isolated_failures_total", batcher="documents") == 1
    assert _get(samples, "lingualite_http_requests_total", route="/encode", method="POST", status="500") == 1
    assert math.isnan(_get(samples, "lingualite_index_documents"))


def test_two_apps_in_one_process_count_apart() -> None:
    """Each app has a registry of its own (the process-wide one would refuse the second app's metrics)."""
    apps = [create_app(HashEncoder(), settings=SETTINGS) for _ in range(2)]
    with running(apps[0], SETTINGS) as first, running(apps[1], SETTINGS) as second:
        httpx.post(f"{first}/encode", json={"texts": ["x"]}, headers=KEY)
        for _ in range(2):
            httpx.post(f"{second}/encode", json={"texts": ["y"]}, headers=KEY)
        samples = [scrape(url) for url in (first, second)]
    ok = {"route": "/encode", "method": "POST", "status": "200"}
    assert [_get(s, "lingualite_http_requests_total", **ok) for s in samples] == [1, 2]
    assert not any(name == "lingualite_index_documents" for name, _ in samples[0])  # no index, no gauge
