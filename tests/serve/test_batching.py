"""Micro-batching: concurrent requests share encoder calls in one worker thread, each gets its own rows."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import httpx
import numpy as np
import pytest
from serve_helpers import HashEncoder, running

from lingualite.serve.app import create_app
from lingualite.serve.batching import MicroBatcher
from lingualite.serve.settings import ServeSettings

WORDS = ["chat", "Hund", "perro", "gatto", "maison", "Haus", "casa", "voiture", "Auto", "coche"]


def _requests(n: int) -> list[list[str]]:
    return [[f"{WORDS[i % 10]} {WORDS[(i * 3) % 10]} {i}" for _ in range(1 + i % 3)] for i in range(n)]


async def _fire(url: str, bodies: list[list[str]]) -> list[np.ndarray]:
    async with httpx.AsyncClient(base_url=url, limits=httpx.Limits(max_connections=100)) as client:
        answers = await asyncio.gather(
            *(client.post("/encode", json={"texts": t, "normalize": False}) for t in bodies)
        )
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers if a.status_code != 200]
    return [np.asarray(a.json()["vectors"], dtype=np.float32) for a in answers]


def test_concurrent_requests_share_encoder_calls() -> None:
    encoder = HashEncoder(delay=0.05)  # a slow model: requests pile up while it runs
    bodies = _requests(60)
    settings = ServeSettings(max_batch=32, max_wait_ms=20)
    with running(create_app(encoder, settings=settings)) as url:
        results = asyncio.run(_fire(url, bodies))
        stats = httpx.get(f"{url}/health").json()["batching"]
    calls = list(encoder.calls)
    for texts, got in zip(bodies, results, strict=True):
        assert np.array_equal(got, np.stack([encoder.vector(t) for t in texts]))  # the single-request result
    assert sum(calls) == sum(len(t) for t in bodies)
    assert len(calls) < len(bodies) / 3, calls  # far fewer calls than requests
    assert max(calls) <= 32  # batches stay within max_batch (no single request is larger)
    assert stats["requests"] == 60 and stats["encoder_calls"] == len(calls)
    assert encoder.threads == {"lingualite-encode_0"}  # one worker thread, never the event loop


def test_max_batch_1_is_one_call_per_request() -> None:
    encoder = HashEncoder(delay=0.01)
    bodies = _requests(12)
    with running(create_app(encoder, settings=ServeSettings(max_batch=1, max_wait_ms=20))) as url:
        asyncio.run(_fire(url, bodies))
    assert sorted(encoder.calls) == sorted(len(b) for b in bodies)  # one call per request


def test_a_failing_encoder_fails_its_batch_with_a_message() -> None:
    class Broken(HashEncoder):
        def encode(self, texts: list[str]) -> np.ndarray:
            if any("boom" in t for t in texts):
                raise ValueError("cannot encode boom")
            return super().encode(texts)

    with running(create_app(Broken(), settings=ServeSettings(max_batch=1))) as url:
        bad = httpx.post(f"{url}/encode", json={"texts": ["boom"]})
        good = httpx.post(f"{url}/encode", json={"texts": ["fine"]})
    assert bad.status_code == 500
    assert bad.json() == {"error": "the encoder failed: ValueError: cannot encode boom"}
    assert good.status_code == 200  # the server keeps serving


def test_batches_take_whole_requests_in_order() -> None:
    encoder = HashEncoder()

    async def main() -> list[np.ndarray]:
        with ThreadPoolExecutor(1) as pool:
            batcher = MicroBatcher(encoder.encode, pool, max_batch=4, max_wait_ms=50)
            batcher.start()
            sizes = [3, 2, 6, 1, 1]  # -> [3], [2], [6] (alone: larger than max_batch), [1, 1]
            out = await asyncio.gather(*(batcher.encode([f"t{i}"] * n) for i, n in enumerate(sizes)))
            await batcher.stop()
            return out

    out = asyncio.run(main())
    assert encoder.calls == [3, 2, 6, 2]
    assert [len(v) for v in out] == [3, 2, 6, 1, 1]
    assert np.array_equal(out[2][0], encoder.vector("t2"))


def test_encode_before_start_is_an_error() -> None:
    batcher = MicroBatcher(HashEncoder().encode, ThreadPoolExecutor(1))
    with pytest.raises(RuntimeError, match="start"):
        asyncio.run(batcher.encode(["a"]))
