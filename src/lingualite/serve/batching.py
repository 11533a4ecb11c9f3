"""Micro-batching: concurrent requests share one encoder call (the dynamic batching of inference servers such
as NVIDIA Triton and TorchServe, here for a CPU sentence encoder).

Design
------
- Each request puts its texts and an :class:`asyncio.Future` on a queue (a deque plus an event) and awaits
  the future; the event loop is never blocked.
- One collector task takes the queue apart into batches: a batch starts with the oldest request and takes
  further whole requests, in arrival order, while it stays within ``max_batch`` texts; it is sent when it is
  full or when its oldest request has waited ``max_wait_ms``. Requests are never split, so one request of
  more than ``max_batch`` texts is one call of its own; ``max_batch=1`` turns batching off (one call per
  request).
- The encoder runs in ONE worker thread (a single-thread executor), so the encoder needs no thread safety, two
  calls never fight over the CPU cores, and the loop keeps accepting requests while it runs. Requests that
  arrive during a call queue up and, having waited already, leave together as the next batch: the busier the
  server, the bigger the batches, with no extra delay when it is idle (a lone request waits ``max_wait_ms``).
- The batch's vectors are cut back into each request's rows. A request whose client went away is dropped
  before encoding.
- **One request cannot fail its neighbours.** When an encoder call fails, the batch is split in two halves
  and each is tried again, recursively, until the request(s) that make the call fail stand alone: each of
  those gets the encoder's error, and every other request of the batch gets its vectors. One bad request in
  a batch of ``n`` costs about ``2 log2(n)`` extra calls; the isolated failures are counted
  (``BatchStats.failed``). Texts that break lingualite's text rule never get this far (the service refuses
  them with 422 first); this is for what is left: a text the model itself cannot take.
- **Token counts** (``encode_counting``, for the ``usage`` of OpenAI's API) are taken in the same worker
  thread, in the same call, for the requests that ask: a tokenizer is never used by two threads at once
  (Hugging Face's fast tokenizers raise "Already borrowed" when they are).
- An optional :class:`BatchObserver` sees each call's size, its encoder time and how long its requests
  waited in the queue (the service's Prometheus metrics).
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

__all__ = ["BatchObserver", "BatchStats", "MicroBatcher", "dense_float32"]

_Result = tuple[np.ndarray, list[int] | None]  # a request's vectors, and its token counts when it asked


class BatchObserver(Protocol):
    """What a batcher reports, for metrics: one successful encoder call, and one request isolated as failing."""

    def encoder_call(self, texts: int, seconds: float, waits: list[float]) -> None: ...

    def isolated_failure(self) -> None: ...


def dense_float32(vectors: object) -> np.ndarray:
    """A 2-D float32 array from an encoder's output (scipy sparse rows, as TF-IDF gives, made dense)."""
    toarray = getattr(vectors, "toarray", None)
    return np.asarray(toarray() if callable(toarray) else vectors, dtype=np.float32)


@dataclass
class BatchStats:
    """Counters since start: requests, texts and encoder calls (texts / calls = mean batch size), calls that
    failed and the requests that failed alone (isolated from their batch)."""

    requests: int = 0
    texts: int = 0
    calls: int = 0
    largest: int = 0
    failed_calls: int = 0
    failed: int = 0


@dataclass
class _Pending:
    texts: list[str]
    future: asyncio.Future[_Result]
    counted: bool = False
    arrived: float = field(default_factory=time.monotonic)


class MicroBatcher:
    """Encode requests' texts in shared calls of ``encode`` (see the module's docstring).

    :param encode: ``list[str] -> (N, d)`` array; called in ``executor`` only.
    :param executor: the single worker thread (shared with other batchers of the same encoder).
    :param max_batch: most texts per call, unless one request alone has more.
    :param max_wait_ms: how long the oldest queued request waits for company.
    :param count_tokens: ``list[str] -> list[int]``, tokens per text, for :meth:`encode_counting`.
    :param observer: told about each call (metrics).
    """

    def __init__(
        self,
        encode: Callable[[list[str]], object],
        executor: ThreadPoolExecutor,
        max_batch: int = 64,
        max_wait_ms: float = 5.0,
        count_tokens: Callable[[list[str]], list[int]] | None = None,
        observer: BatchObserver | None = None,
    ) -> None:
        self.encode_fn = encode
        self.count_fn = count_tokens
        self.observer = observer
        self.executor = executor
        self.max_batch = max_batch
        self.max_wait = max_wait_ms / 1000.0
        self.stats = BatchStats()
        self._queue: collections.deque[_Pending] = collections.deque()
        self._queued_texts = 0
        self._arrived: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the collector on the running event loop."""
        self._arrived = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._collect(), name="lingualite-batcher")

    async def stop(self) -> None:
        """Stop collecting; requests still queued fail with ``RuntimeError``."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        while self._queue:
            item = self._queue.popleft()
            if not item.future.done():
                item.future.set_exception(RuntimeError("the server is shutting down"))

    async def encode(self, texts: list[str]) -> np.ndarray:
        """The float32 ``(len(texts), d)`` vectors of ``texts``, encoded together with concurrent requests."""
        return (await self._submit(texts, counted=False))[0]

    async def encode_counting(self, texts: list[str]) -> tuple[np.ndarray, list[int]]:
        """:meth:`encode`, and the tokens of each text (``count_tokens``, in the same worker call)."""
        if self.count_fn is None:
            raise RuntimeError("this MicroBatcher was made without count_tokens")
        vectors, counts = await self._submit(texts, counted=True)
        assert counts is not None
        return vectors, counts

    async def _submit(self, texts: list[str], counted: bool) -> _Result:
        if self._task is None or self._arrived is None:
            raise RuntimeError("MicroBatcher.start() was not called")
        future: asyncio.Future[_Result] = asyncio.get_running_loop().create_future()
        self._queue.append(_Pending(list(texts), future, counted))
        self._queued_texts += len(texts)
        self._arrived.set()
        return await future

    async def _collect(self) -> None:
        assert self._arrived is not None
        while True:
            while not self._queue:
                self._arrived.clear()
                await self._arrived.wait()
            deadline = self._queue[0].arrived + self.max_wait
            while self._queued_texts < self.max_batch and (left := deadline - time.monotonic()) > 0:
                self._arrived.clear()
                try:
                    await asyncio.wait_for(self._arrived.wait(), left)
                except TimeoutError:
                    break
            await self._run(self._take())

    def _take(self) -> list[_Pending]:
        batch: list[_Pending] = []
        size = 0
        while self._queue and (not batch or size + len(self._queue[0].texts) <= self.max_batch):
            item = self._queue.popleft()
            self._queued_texts -= len(item.texts)
            if item.future.done():  # cancelled: the client went away
                continue
            batch.append(item)
            size += len(item.texts)
        return batch

    async def _run(self, batch: list[_Pending]) -> None:
        batch = [item for item in batch if not item.future.done()]  # a client that went away meanwhile
        if not batch:
            return
        texts = [t for item in batch for t in item.texts]
        counted = [t for item in batch if item.counted for t in item.texts]
        started = time.monotonic()
        try:
            vectors, counts, seconds = await self._call(texts, counted)
        except Exception as exc:
            self.stats.failed_calls += 1
            await self._isolate(batch, exc)
            return
        except BaseException:  # cancelled: the server is shutting down
            _fail(batch, RuntimeError("the server is shutting down"))
            raise
        self.stats.requests += len(batch)
        self.stats.texts += len(texts)
        self.stats.calls += 1
        self.stats.largest = max(self.stats.largest, len(texts))
        if self.observer is not None:
            self.observer.encoder_call(len(texts), seconds, [started - item.arrived for item in batch])
        start = counted_start = 0
        for item in batch:
            rows = vectors[start : start + len(item.texts)]
            start += len(item.texts)
            item_counts = None
            if item.counted and counts is not None:
                item_counts = counts[counted_start : counted_start + len(item.texts)]
                counted_start += len(item.texts)
            if not item.future.done():
                item.future.set_result((rows, item_counts))

    async def _call(self, texts: list[str], counted: list[str]) -> tuple[np.ndarray, list[int] | None, float]:
        """The vectors of ``texts``, the token counts of ``counted`` and the encoder's seconds, in the worker."""

        def work() -> tuple[np.ndarray, list[int] | None, float]:
            t0 = time.perf_counter()
            vectors = dense_float32(self.encode_fn(texts))
            seconds = time.perf_counter() - t0
            counts = [int(n) for n in self.count_fn(counted)] if counted and self.count_fn else None
            return vectors, counts, seconds

        vectors, counts, seconds = await asyncio.get_running_loop().run_in_executor(self.executor, work)
        if vectors.ndim != 2 or vectors.shape[0] != len(texts):
            raise RuntimeError(f"the encoder returned shape {vectors.shape} for {len(texts)} texts")
        if counted and (counts is None or len(counts) != len(counted)):
            raise RuntimeError(f"the tokenizer returned {len(counts or [])} counts for {len(counted)} texts")
        return vectors, counts, seconds

    async def _isolate(self, batch: list[_Pending], error: Exception) -> None:
        """The call on ``batch`` failed: a lone request gets ``error``; a larger batch is tried again in two
        halves (each split again if it fails), so only the requests that make the call fail get an error."""
        if len(batch) == 1:
            self.stats.failed += 1
            if self.observer is not None:
                self.observer.isolated_failure()
            _fail(batch, error)
            return
        middle = len(batch) // 2
        try:
            await self._run(batch[:middle])
            await self._run(batch[middle:])
        except BaseException:
            _fail(batch, RuntimeError("the server is shutting down"))
            raise


def _fail(batch: list[_Pending], error: Exception) -> None:
    for item in batch:
        if not item.future.done():
            item.future.set_exception(error)
