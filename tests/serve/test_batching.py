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


class Poisoned(HashEncoder):
    """Fails every call whose batch holds a text with "poison" (a text only the model cannot take)."""

    def encode(self, texts: list[str]) -> np.ndarray:
        if any("poison" in t for t in texts):
            with self._lock:
                self.calls.append(-len(texts))  # failed calls are recorded as negative sizes
            raise ValueError("cannot encode poison")
        return super().encode(texts)


def test_one_failing_request_is_isolated_from_its_batch() -> None:
    encoder = Poisoned()

    async def main() -> tuple[list[object], object]:
        with ThreadPoolExecutor(1) as pool:
            batcher = MicroBatcher(encoder.encode, pool, max_batch=64, max_wait_ms=50)
            batcher.start()
            texts = [[f"good {i}", f"more {i}"] if i != 5 else ["poison"] for i in range(16)]
            out = await asyncio.gather(*(batcher.encode(t) for t in texts), return_exceptions=True)
            await batcher.stop()
            return out, batcher.stats

    out, stats = asyncio.run(main())
    assert isinstance(out[5], ValueError)
    for i, got in enumerate(out):
        if i != 5:
            assert np.array_equal(got, np.stack([encoder.vector(f"good {i}"), encoder.vector(f"more {i}")]))
    assert stats.failed == 1 and stats.requests == 15
    assert encoder.calls[0] == -31  # the whole batch failed once...
    assert len(encoder.calls) <= 1 + 2 * 4  # ...then bisection: about 2 log2(16) more calls, not 16


@pytest.mark.slow
def test_poisoned_requests_fail_alone_under_concurrent_load() -> None:
    encoder = Poisoned(delay=0.02)  # requests pile up into shared batches while the model runs
    bodies = [[f"{WORDS[i % 10]} {i}", "poison" if i % 20 == 7 else "fine"] for i in range(80)]
    with running(create_app(encoder, settings=ServeSettings(max_batch=32, max_wait_ms=20))) as url:

        async def fire() -> list[httpx.Response]:
            async with httpx.AsyncClient(base_url=url, limits=httpx.Limits(max_connections=100)) as client:
                return await asyncio.gather(*(client.post("/encode", json={"texts": t}) for t in bodies))

        answers = asyncio.run(fire())
        health = httpx.get(f"{url}/health").json()["batching"]
    for texts, answer in zip(bodies, answers, strict=True):
        if "poison" in texts:
            assert answer.status_code == 500
            assert answer.json() == {"error": "the encoder failed: ValueError: cannot encode poison"}
        else:  # 100% of the good requests, although they shared batches with poisoned ones
            assert answer.status_code == 200, answer.text
            assert len(answer.json()["vectors"]) == 2
    assert health["failed_requests"] == 4 and health["requests"] == 76
    assert any(size < -2 for size in encoder.calls)  # poisoned requests did share batches with good ones


def test_text_that_breaks_the_rule_is_422_and_never_reaches_the_encoder() -> None:
    encoder = HashEncoder()
    with running(create_app(encoder)) as url:
        for raw, reason in [
            (b'{"texts": ["ok", "\\ud800"]}', "texts.1: contains a lone surrogate (U+D800 at column 1)"),
            (b'{"texts": ["a\\u0000b"]}', "texts.0: contains a NUL character (column 2)"),
            (b'{"query": "\\udfff", "k": 1}', "query.0: contains a lone surrogate"),
        ]:
            path = "/search" if b"query" in raw else "/encode"
            res = httpx.post(f"{url}{path}", content=raw, headers={"content-type": "application/json"})
            assert res.status_code == 422 and res.json()["error"].startswith(reason), res.text
    assert encoder.calls == []
